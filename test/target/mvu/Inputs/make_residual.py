"""A conv -> relu -> conv -> add(shortcut) graph: BARVINN runs plain chains only."""
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

rng = np.random.default_rng(0)
w1 = numpy_helper.from_array(rng.integers(0, 3, (64, 64, 3, 3)).astype(np.float32), "w1")
w2 = numpy_helper.from_array(rng.integers(0, 3, (64, 64, 3, 3)).astype(np.float32), "w2")
nodes = [
    helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
    helper.make_node("Add", ["c2", "x"], ["y"], name="join"),
]
g = helper.make_graph(nodes, "residual", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, 8, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64, 8, 8])], [w1, w2])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])
