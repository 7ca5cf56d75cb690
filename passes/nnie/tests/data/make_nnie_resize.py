#!/usr/bin/env python3
"""Fixtures of the NNIE upsampling and patch-convolution tests (tests/ops.rs).

In: nothing (fixed seed). Out, beside this script (input x 1x3x16x16, so the
calibration sets nnie_cnn_calib/ of make_nnie_models.py fit them):
  nnie_resize.onnx  Conv(3->8, stride 2) + Relu (8x8), then three upsamplings to 16x16 added together:
                    bilinear x2 half_pixel by scales (LR-ASPP's 14 -> 28), bilinear x8 pytorch_half_pixel by
                    sizes after a 4x4 MaxPool (FCN's 28 -> 224), nearest x4 asymmetric/floor after a 2x2
                    AveragePool; a 3x3 Conv at the end
  nnie_resize_odd.onnx  Conv(3->8, stride 2) + Relu (8x8), bilinear x3 half_pixel (-> 24x24) plus nearest x6
                    (asymmetric/floor) after a 2x2 MaxPool (4 -> 24): factors that are not powers of two
                    (Deconvolution of ones); a 3x3 Conv at the end
  nnie_resize_frac.onnx Conv(3->8, stride 2) + Relu (8x8), nearest Resize to 20x20 (factor 2.5): refused
  nnie_patch.onnx   Conv(3->4) + Relu, nearest x2 (32x32), ViT's patch embedding Conv(4->8, kernel 16,
                    stride 16) -> 2x2, Relu

Run: python3 make_nnie_resize.py  (needs onnx, numpy; checks with onnxruntime when present)
"""
import os
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261128)
N = helper.make_node


def c(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def conv(name, x, y, cin, cout, k, inits, pad=None, stride=1):
    fan_in = cin * k * k
    inits += [c(name + "_w", rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / fan_in)),
              c(name + "_b", rng.standard_normal(cout) * 0.1)]
    pad = k // 2 if pad is None else pad
    return N("Conv", [x, name + "_w", name + "_b"], [y], name=name, kernel_shape=[k, k],
             pads=[pad] * 4, strides=[stride, stride])


def resize(name, x, y, mode, coord, scales=None, sizes=None):
    ins = [x, "", scales or ""] + ([sizes] if sizes else [])
    return N("Resize", ins, [y], name=name, mode=mode, coordinate_transformation_mode=coord,
             nearest_mode="floor")


def model(nodes, inits, out_shape, name):
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_nnie_resize")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def upsamplings():
    inits = [c("scales2", [1, 1, 2, 2]), c("sizes16", [1, 8, 16, 16], np.int64)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, 3, inits, stride=2),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        resize("bilinear2", "r1", "up2", "linear", "half_pixel", scales="scales2"),
        N("MaxPool", ["r1"], ["p4"], name="pool4", kernel_shape=[4, 4], strides=[4, 4], ceil_mode=1),
        resize("bilinear8", "p4", "up8", "linear", "pytorch_half_pixel", sizes="sizes16"),
        N("AveragePool", ["r1"], ["p2"], name="pool2", kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        resize("nearest4", "p2", "near4", "nearest", "asymmetric", sizes="sizes16"),
        N("Add", ["up2", "up8"], ["s1"], name="add1"),
        N("Add", ["s1", "near4"], ["s2"], name="add2"),
        conv("conv2", "s2", "y", 8, 8, 3, inits),
    ]
    return model(nodes, inits, [1, 8, 16, 16], "nnie_resize")


def odd_factors():
    inits = [c("sizes24", [1, 8, 24, 24], np.int64)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, 3, inits, stride=2),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        resize("bilinear3", "r1", "up3", "linear", "half_pixel", sizes="sizes24"),
        N("MaxPool", ["r1"], ["p2"], name="pool2", kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        resize("nearest6", "p2", "near6", "nearest", "asymmetric", sizes="sizes24"),
        N("Add", ["up3", "near6"], ["s"], name="add"),
        conv("conv2", "s", "y", 8, 8, 3, inits),
    ]
    return model(nodes, inits, [1, 8, 24, 24], "nnie_resize_odd")


def fractional():
    inits = [c("sizes20", [1, 8, 20, 20], np.int64)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, 3, inits, stride=2),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        resize("up", "r1", "y", "nearest", "asymmetric", sizes="sizes20"),
    ]
    return model(nodes, inits, [1, 8, 20, 20], "nnie_resize_frac")


def patch():
    inits = [c("scales2", [1, 1, 2, 2])]
    nodes = [
        conv("conv1", "x", "c1", 3, 4, 3, inits),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        resize("up", "r1", "u", "nearest", "asymmetric", scales="scales2"),
        conv("patch", "u", "pe", 4, 8, 16, inits, pad=0, stride=16),
        N("Relu", ["pe"], ["y"], name="relu2"),
    ]
    return model(nodes, inits, [1, 8, 2, 2], "nnie_patch")


def check(m, path):
    try:
        import onnxruntime as ort
    except ImportError:
        return
    s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).random((1, 3, 16, 16), dtype=np.float32)
    y = s.run(None, {"x": x})[0]
    assert y.shape == tuple(d.dim_value for d in m.graph.output[0].type.tensor_type.shape.dim), y.shape


if __name__ == "__main__":
    for make, name in [(upsamplings, "nnie_resize"), (patch, "nnie_patch"), (odd_factors, "nnie_resize_odd"),
                       (fractional, "nnie_resize_frac")]:
        m = make()
        path = os.path.join(HERE, name + ".onnx")
        onnx.save(m, path)
        check(m, path)
        print("wrote", path)
