"""Makes cut_consequence.onnx for ../diagnostics.test.

A channels-last element-wise op on two NCHW maps: two Convs, each
Transposed to NHWC, their quotient (Div of two activations), Transposed
back. The Transposes sink through the Div (`common/transpose-through-div`)
and cancel, but nv_small cannot divide two activations: one problem.
Cutting the Div out (to check the rest) leaves the Transposes alone, where
they are illegal: they are reported as notes, not as problems.

Run: python3 make_cut_consequence.py (writes next to this script).
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)


def init(name, shape):
    return numpy_helper.from_array(rng.normal(size=shape).astype(np.float32), name)


nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
    helper.make_node("Conv", ["x", "w2"], ["d"], name="conv2"),
    helper.make_node("Transpose", ["c"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
    helper.make_node("Transpose", ["d"], ["u"], name="to_nhwc2", perm=[0, 2, 3, 1]),
    helper.make_node("Div", ["t", "u"], ["q"], name="div"),
    helper.make_node("Transpose", ["q"], ["y"], name="to_nchw", perm=[0, 3, 1, 2]),
]
graph = helper.make_graph(
    nodes,
    "cut_consequence",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 8, 8])],
    [init("w", (16, 3, 1, 1)), init("w2", (16, 3, 1, 1))],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(HERE, "cut_consequence.onnx"))
