"""A classifier layer too wide for one MVU weight RAM block: Gemm 19200 -> 96, Relu.

Float weights from a seeded normal (quantized by onnc); argv[1] is the output path.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
w = numpy_helper.from_array(rng.standard_normal((96, 19200)).astype(np.float32), "fc_w")
nodes = [
    helper.make_node("Gemm", ["x", "fc_w"], ["y"], name="fc6", transB=1),
    helper.make_node("Relu", ["y"], ["r"], name="relu6"),
]
g = helper.make_graph(nodes, "classifier", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 19200])],
                      [helper.make_tensor_value_info("r", TensorProto.FLOAT, [1, 96])], [w])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])
