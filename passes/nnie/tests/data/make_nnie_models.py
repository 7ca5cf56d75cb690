#!/usr/bin/env python3
"""Fixtures of the NNIE frontend tests (tests/frontend.rs).

In: nothing (fixed seed). Out, beside this script:
  nnie_cnn.onnx         Conv/Relu/MaxPool(ceil)/Resize 2x nearest/Add/Flatten/Gemm, input x 1x3x16x16
  nnie_cnn_calib/test_data_set_{0,1,2}/input_0.pb   calibration inputs (uniform [0, 1))
  nnie_upsample3.onnx   the same front with a 3x nearest Resize (a depthwise Deconvolution on NNIE)
  nnie_depthwise.onnx   a depthwise Conv (group = channels) after a Conv (NNIE warns)

Run: python3 make_nnie_models.py  (needs onnx, numpy; checks with onnxruntime when present)
"""
import os
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20240521)


def w(name, *shape, scale=None):
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
    s = scale if scale is not None else np.sqrt(2.0 / fan_in)
    return numpy_helper.from_array((rng.standard_normal(shape) * s).astype(np.float32), name)


def const(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def model(nodes, inits, out_name, out_shape, name):
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, out_shape)],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_nnie_models")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def cnn(up_scale):
    N = helper.make_node
    nodes = [
        N("Conv", ["x", "conv1_w", "conv1_b"], ["c1"], name="conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        N("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        N("Conv", ["p1", "conv2_w", "conv2_b"], ["c2"], name="conv2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        N("Relu", ["c2"], ["r2"], name="relu2"),
        N("Resize", ["r2", "", "up_scales"], ["u2"], name="up1", mode="nearest"),
    ]
    inits = [w("conv1_w", 8, 3, 3, 3), const("conv1_b", rng.standard_normal(8) * 0.1),
             w("conv2_w", 8, 8, 3, 3), const("conv2_b", rng.standard_normal(8) * 0.1),
             const("up_scales", [1, 1, up_scale, up_scale])]
    if up_scale != 2:
        nodes.append(N("GlobalAveragePool", ["u2"], ["y"], name="gap"))
        return model(nodes, inits, "y", [1, 8, 1, 1], "nnie_upsample3")
    nodes += [
        N("Add", ["u2", "r1"], ["a1"], name="add1"),
        N("Conv", ["a1", "conv3_w", "conv3_b"], ["c3"], name="conv3", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        N("Relu", ["c3"], ["r3"], name="relu3"),
        N("MaxPool", ["r3"], ["p3"], name="pool2", kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
        N("Flatten", ["p3"], ["f"], name="flatten"),
        N("Gemm", ["f", "fc_w", "fc_b"], ["y"], name="fc", transB=1),
    ]
    inits += [w("conv3_w", 4, 8, 3, 3), const("conv3_b", rng.standard_normal(4) * 0.1),
              w("fc_w", 10, 64), const("fc_b", rng.standard_normal(10) * 0.1)]
    return model(nodes, inits, "y", [1, 10], "nnie_cnn")


def depthwise():
    N = helper.make_node
    nodes = [
        N("Conv", ["x", "conv1_w", "conv1_b"], ["c1"], name="conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        N("Relu", ["c1"], ["r1"], name="relu1"),
        N("Conv", ["r1", "dw_w", "dw_b"], ["y"], name="dw", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=8),
    ]
    inits = [w("conv1_w", 8, 3, 3, 3), const("conv1_b", np.zeros(8)),
             w("dw_w", 8, 1, 3, 3), const("dw_b", np.zeros(8))]
    return model(nodes, inits, "y", [1, 8, 16, 16], "nnie_depthwise")


def main():
    m = cnn(2)
    onnx.save(m, os.path.join(HERE, "nnie_cnn.onnx"))
    onnx.save(cnn(3), os.path.join(HERE, "nnie_upsample3.onnx"))
    onnx.save(depthwise(), os.path.join(HERE, "nnie_depthwise.onnx"))
    for k in range(3):
        d = os.path.join(HERE, "nnie_cnn_calib", f"test_data_set_{k}")
        os.makedirs(d, exist_ok=True)
        x = rng.random((1, 3, 16, 16), dtype=np.float32)
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
    try:
        import onnxruntime as ort
        s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        print("nnie_cnn output", s.run(None, {"x": x})[0].ravel()[:4])
    except ImportError:
        pass


if __name__ == "__main__":
    main()
