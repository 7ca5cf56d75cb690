"""Makes nnie_refusals.onnx for ../diagnostics.test (NNIE, every refusal in
one run).

x [1,3,16,16] → conv1 → up (Resize, linear) → conv2 → pool (MaxPool,
ceil_mode=1, dilations 2) → mm (MatMul of pool by itself) → y.

Legalization refuses `up` (bilinear with align_corners has no exact NNIE form) and `mm` (NNIE
has no MatMul of two activations); it accepts `pool`, which the NNIE layer
mapping then refuses (Caffe pooling has no dilation). Before one-round
checking, `onnc compile --target nnie` stopped at the legalization
refusals and never said that the pool would fail next. Node names are
chosen so that name order is not graph order (z_up, m_pool, a_mm).

Run: python3 make_nnie_refusals.py (writes next to this script).
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rng = np.random.default_rng(20)
    w1 = numpy_helper.from_array(
        (rng.standard_normal((8, 3, 3, 3)) * 0.1).astype(np.float32), "w1")
    w2 = numpy_helper.from_array(
        (rng.standard_normal((8, 8, 3, 3)) * 0.1).astype(np.float32), "w2")
    scales = numpy_helper.from_array(
        np.array([1, 1, 2, 2], np.float32), "scales")
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Resize", ["c1", "", "scales"], ["u"], name="z_up",
                         mode="linear",
                         coordinate_transformation_mode="align_corners"),
        helper.make_node("Conv", ["u", "w2"], ["c2"], name="conv2",
                         pads=[1, 1, 1, 1]),
        helper.make_node("MaxPool", ["c2"], ["p"], name="m_pool",
                         kernel_shape=[2, 2], strides=[2, 2],
                         dilations=[2, 2], ceil_mode=1),
        helper.make_node("MatMul", ["p", "p"], ["y"], name="a_mm"),
    ]
    graph = helper.make_graph(
        nodes, "nnie_refusals",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 16, 16])],
        [w1, w2, scales])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(HERE, "nnie_refusals.onnx"))


if __name__ == "__main__":
    main()
