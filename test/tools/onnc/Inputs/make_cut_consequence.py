"""Makes cut_consequence.onnx for ../diagnostics.test.

A ConvNeXt-style channels-last LayerNorm on an NCHW map: Conv, Transpose to
NHWC, LayerNormalization over the channels, Transpose back. On nv_small the
two Transposes cancel through the layer norm's channel form (legal), but
the layer norm needs the SDP lookup table nv_small lacks: one problem.
Cutting the layer norm out (to check the rest) leaves the Transposes alone,
where they are illegal: they are reported as notes, not as problems.

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
    helper.make_node("Transpose", ["c"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
    helper.make_node("LayerNormalization", ["t", "g", "b"], ["l"], name="ln", axis=-1, epsilon=1e-6),
    helper.make_node("Transpose", ["l"], ["y"], name="to_nchw", perm=[0, 3, 1, 2]),
]
graph = helper.make_graph(
    nodes,
    "cut_consequence",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 8, 8])],
    [init("w", (16, 3, 1, 1)), init("g", (16,)), init("b", (16,))],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(HERE, "cut_consequence.onnx"))
