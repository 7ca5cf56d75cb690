#!/usr/bin/env python3
"""Fixtures of the NNIE op tests (tests/ops.rs): one small network per
ONNX form that torchvision CNNs use and onnc maps to NNIE by an exact rewrite.

In: nothing (fixed seed). Out, beside this script (input x 1x3x16x16, the
calibration sets of make_nnie_models.py, nnie_cnn_calib/, fit all of them):
  nnie_floor_pool.onnx   Conv/Relu/MaxPool k3 s2 p1 ceil_mode=0 (PyTorch's stem: 16 -> 8, Caffe rounds up to 9)
                         and an AveragePool k3 s2 p0 ceil_mode=0 (8 -> 3, Caffe: 4)
  nnie_activations.onnx  Conv, Clip(0, 6) (ReLU6), Conv, SiLU = x*Sigmoid(x), Conv, HardSwish, Conv,
                         HardSigmoid (alpha 1/6, beta 1/2), Tanh, Mul of two maps
  nnie_slice.onnx        Conv to 8 channels, x[:, :4] and x[:, 4:] as two Slices, Conv on each half, Concat,
                         Split into 3 + 5 channels (torch.split / chunk), Concat swapped, x[:, :, 1:7, :] rows
  nnie_se.onnx           squeeze-excitation (GlobalAveragePool, 1x1 Convs, Sigmoid, Mul of N*C*H*W by N*C*1*1),
                         BatchNormalization of the product (DenseNet's pre-activation BN), Concat of 17 inputs
  nnie_shortcut.onnx     CIFAR ResNet's option-A shortcut: x[:, :, ::2, ::2] zero-padded by 4 channels on each side,
                         added to a stride-2 Conv
  nnie_convnext.onnx     ConvNeXt (torchvision's CNBlock, opset 17): a 2x2 stride-2 stem and LayerNorm2d
                         (Transpose, LayerNormalization over the last axis, Transpose), a block (depthwise Conv,
                         Transpose, LayerNorm, Linear 8 -> 32 as MatMul + Add, GELU with Erf, Linear 32 -> 8,
                         Transpose, layer scale Mul [8, 1, 1], residual Add), global pool, LayerNorm2d, Gemm

Run: python3 make_nnie_ops.py  (needs onnx, numpy; checks with onnxruntime when present)
"""
import os
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261127)
N = helper.make_node


def w(name, *shape):
    fan_in = int(np.prod(shape[1:]))
    return numpy_helper.from_array((rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32), name)


def b(name, n):
    return numpy_helper.from_array((rng.standard_normal(n) * 0.1).astype(np.float32), name)


def c(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def conv(name, x, y, cin, cout, k=3, inits=None, **kw):
    inits += [w(name + "_w", cout, cin, k, k), b(name + "_b", cout)]
    pad = k // 2
    return N("Conv", [x, name + "_w", name + "_b"], [y], name=name, kernel_shape=[k, k],
             pads=[pad] * 4, **kw)


def model(nodes, inits, out_shape, name, opset=14):
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_nnie_ops")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def floor_pool():
    inits = []
    nodes = [
        conv("conv1", "x", "c1", 3, 8, inits=inits),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        N("MaxPool", ["r1"], ["p1"], name="maxpool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=0),
        conv("conv2", "p1", "c2", 8, 8, inits=inits),
        N("AveragePool", ["c2"], ["y"], name="avgpool", kernel_shape=[3, 3], strides=[2, 2], ceil_mode=0),
    ]
    return model(nodes, inits, [1, 8, 3, 3], "nnie_floor_pool")


def activations():
    inits = [c("zero", 0.0), c("six", 6.0)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, inits=inits),
        N("Clip", ["c1", "zero", "six"], ["r6"], name="relu6"),
        conv("conv2", "r6", "c2", 8, 8, inits=inits),
        N("Sigmoid", ["c2"], ["s2"], name="sigmoid"),
        N("Mul", ["c2", "s2"], ["silu"], name="silu"),
        conv("conv3", "silu", "c3", 8, 8, inits=inits),
        N("HardSwish", ["c3"], ["hsw"], name="hardswish"),
        conv("conv4", "hsw", "c4", 8, 8, inits=inits),
        N("HardSigmoid", ["c4"], ["hsg"], name="hardsigmoid", alpha=1.0 / 6.0, beta=0.5),
        N("Tanh", ["c4"], ["t4"], name="tanh"),
        N("Mul", ["hsg", "t4"], ["y"], name="gate"),
    ]
    return model(nodes, inits, [1, 8, 16, 16], "nnie_activations")


def slices():
    inits = [c("s0", [0], np.int64), c("s4", [4], np.int64), c("s8", [8], np.int64),
             c("ax1", [1], np.int64), c("r1", [1], np.int64), c("r7", [7], np.int64), c("ax2", [2], np.int64),
             c("split35", [3, 5], np.int64)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, inits=inits),
        N("Relu", ["c1"], ["r"], name="relu1"),
        N("Slice", ["r", "s0", "s4", "ax1"], ["a"], name="chunk0"),
        N("Slice", ["r", "s4", "s8", "ax1"], ["bb"], name="chunk1"),
        conv("conv_a", "a", "ca", 4, 4, inits=inits),
        conv("conv_b", "bb", "cb", 4, 4, inits=inits),
        N("Concat", ["ca", "cb"], ["cat"], name="concat", axis=1),
        N("Split", ["cat", "split35"], ["sp3", "sp5"], name="split", axis=1),
        N("Concat", ["sp5", "sp3"], ["swapped"], name="swap", axis=1),
        N("Slice", ["swapped", "r1", "r7", "ax2"], ["y"], name="rows"),
    ]
    return model(nodes, inits, [1, 8, 6, 16], "nnie_slice")


def se():
    inits = [c("bn_g", rng.random(8) + 0.5), c("bn_b", rng.standard_normal(8) * 0.1),
             c("bn_m", rng.standard_normal(8) * 0.1), c("bn_v", rng.random(8) + 0.5)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, inits=inits),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        N("GlobalAveragePool", ["r1"], ["g"], name="squeeze"),
        conv("fc1", "g", "f1", 8, 4, k=1, inits=inits),
        N("Relu", ["f1"], ["f1r"], name="fc1_relu"),
        conv("fc2", "f1r", "f2", 4, 8, k=1, inits=inits),
        N("Sigmoid", ["f2"], ["gate"], name="gate"),
        N("Mul", ["r1", "gate"], ["se"], name="excite"),
        N("BatchNormalization", ["se", "bn_g", "bn_b", "bn_m", "bn_v"], ["bn"], name="bn", epsilon=1e-5),
        N("Concat", ["bn", "r1"] * 8 + ["se"], ["y"], name="concat17", axis=1),
    ]
    return model(nodes, inits, [1, 8 * 17, 16, 16], "nnie_se")


def shortcut():
    inits = [c("st", [0, 0], np.int64), c("en", [2**63 - 1, 2**63 - 1], np.int64), c("ax", [2, 3], np.int64),
             c("sp", [2, 2], np.int64), c("pads", [0, 4, 0, 0, 0, 4, 0, 0], np.int64)]
    nodes = [
        conv("conv1", "x", "c1", 3, 8, inits=inits),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        conv("conv2", "r1", "c2", 8, 16, inits=inits, strides=[2, 2]),
        N("Slice", ["r1", "st", "en", "ax", "sp"], ["sub"], name="short_slice"),
        N("Pad", ["sub", "pads"], ["padded"], name="short_pad", mode="constant"),
        N("Add", ["c2", "padded"], ["sum"], name="add"),
        N("Relu", ["sum"], ["y"], name="relu2"),
    ]
    return model(nodes, inits, [1, 16, 8, 8], "nnie_shortcut")


def layer_norm_2d(name, x, y, n, inits):
    inits += [c(name + "_g", rng.random(n) + 0.5), c(name + "_b", rng.standard_normal(n) * 0.1)]
    return [
        N("Transpose", [x], [name + "_nhwc"], name=name + "_to_nhwc", perm=[0, 2, 3, 1]),
        N("LayerNormalization", [name + "_nhwc", name + "_g", name + "_b"], [name + "_ln"], name=name, axis=-1,
          epsilon=1e-6),
        N("Transpose", [name + "_ln"], [y], name=name + "_to_nchw", perm=[0, 3, 1, 2]),
    ]


def convnext():
    inits = [c("sqrt2", np.sqrt(2.0)), c("one", 1.0), c("half", 0.5),
             w("fc1_w", 8, 32), c("fc1_b", rng.standard_normal(32) * 0.1),
             w("fc2_w", 32, 8), c("fc2_b", rng.standard_normal(8) * 0.1),
             c("scale", (rng.random((8, 1, 1)) + 0.5) * 0.5), w("head_w", 5, 8), c("head_b", rng.standard_normal(5) * 0.1)]
    inits += [w("stem_w", 8, 3, 2, 2), b("stem_b", 8), w("dw_w", 8, 1, 3, 3), b("dw_b", 8)]
    nodes = [N("Conv", ["x", "stem_w", "stem_b"], ["stem"], name="stem", kernel_shape=[2, 2], strides=[2, 2])]
    nodes += layer_norm_2d("stem_ln", "stem", "s", 8, inits)
    nodes += [N("Conv", ["s", "dw_w", "dw_b"], ["dw"], name="dwconv", kernel_shape=[3, 3], pads=[1] * 4, group=8)]
    nodes += [
        N("Transpose", ["dw"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
        N("LayerNormalization", ["t", "ln_g", "ln_b"], ["l"], name="ln", axis=-1, epsilon=1e-6),
        N("MatMul", ["l", "fc1_w"], ["h0"], name="fc1"),
        N("Add", ["fc1_b", "h0"], ["h"], name="fc1_bias"),
        N("Div", ["h", "sqrt2"], ["hd"], name="gelu_div"),
        N("Erf", ["hd"], ["he"], name="gelu_erf"),
        N("Add", ["he", "one"], ["h1"], name="gelu_add"),
        N("Mul", ["h", "h1"], ["hm"], name="gelu_mul"),
        N("Mul", ["hm", "half"], ["g"], name="gelu_half"),
        N("MatMul", ["g", "fc2_w"], ["o0"], name="fc2"),
        N("Add", ["fc2_b", "o0"], ["o"], name="fc2_bias"),
        N("Transpose", ["o"], ["on"], name="to_nchw", perm=[0, 3, 1, 2]),
        N("Mul", ["scale", "on"], ["sc"], name="layer_scale"),
        N("Add", ["sc", "s"], ["r"], name="residual"),
        N("GlobalAveragePool", ["r"], ["p"], name="pool"),
    ]
    inits += [c("ln_g", rng.random(8) + 0.5), c("ln_b", rng.standard_normal(8) * 0.1)]
    nodes += layer_norm_2d("head_ln", "p", "pn", 8, inits)
    nodes += [
        N("Flatten", ["pn"], ["f"], name="flatten", axis=1),
        N("Gemm", ["f", "head_w", "head_b"], ["y"], name="head", transB=1),
    ]
    return model(nodes, inits, [1, 5], "nnie_convnext", opset=17)


def check(m, path):
    try:
        import onnxruntime as ort
    except ImportError:
        return
    s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = rng.random((1, 3, 16, 16), dtype=np.float32)
    y = s.run(None, {"x": x})[0]
    assert np.isfinite(y).all()
    assert y.shape == tuple(d.dim_value for d in m.graph.output[0].type.tensor_type.shape.dim), y.shape


if __name__ == "__main__":
    for make, name in [(floor_pool, "nnie_floor_pool"), (activations, "nnie_activations"), (slices, "nnie_slice"), (se, "nnie_se"),
                       (shortcut, "nnie_shortcut"), (convnext, "nnie_convnext")]:
        m = make()
        path = os.path.join(HERE, name + ".onnx")
        onnx.save(m, path)
        check(m, path)
        print("wrote", path)
