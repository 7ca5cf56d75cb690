#!/usr/bin/env python3
"""Makes the small models of the tool-level tests (run from this folder).

conv_pool.onnx: x[1,3,8,8] -> Conv 3x3 (8 kernels, pad 1) -> Relu -> MaxPool 2x2/2,
seeded random weights; the smallest model every target compiles.
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(4)
w = numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "w")
b = numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b")
nodes = [
    helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2]),
]
g = helper.make_graph(
    nodes,
    "conv_pool",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 4, 4])],
    [w, b],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
onnx.checker.check_model(m)
onnx.save(m, "conv_pool.onnx")
