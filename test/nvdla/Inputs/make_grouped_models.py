"""Small grouped and depthwise convolutions for test/nvdla/grouped-conv.test.

depthwise.onnx   input x [1,32,8,8], opset 13
    y = Relu(Conv3x3(x, w[32,1,3,3], group=32, pads 1) + b)
grouped.onnx     input x [1,8,6,6], opset 13
    y = Conv3x3(x, w[8,4,3,3], group=2) + b      2 groups of 4 channels

Weights are seeded random values (He-scaled); onnc-run supplies the inputs.

Usage: make_grouped_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(17)


def model(name, c, hw, group, pad, relu):
    cg = c // group
    s = (3.0 / (cg * 9)) ** 0.5
    inits = [
        numpy_helper.from_array(rng.uniform(-s, s, [c, cg, 3, 3]).astype(np.float32), "w"),
        numpy_helper.from_array(rng.uniform(-1, 1, [c]).astype(np.float32), "b"),
    ]
    conv_out = "c" if relu else "y"
    nodes = [helper.make_node("Conv", ["x", "w", "b"], [conv_out], name="conv", group=group,
                              pads=[pad] * 4, kernel_shape=[3, 3])]
    if relu:
        nodes.append(helper.make_node("Relu", ["c"], ["y"], name="relu"))
    o = hw + 2 * pad - 2
    vi = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
    g = helper.make_graph(nodes, name, [vi("x", [1, c, hw, hw])], [vi("y", [1, c, o, o])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_grouped_models")
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


model("depthwise", 32, 8, 32, 1, True)
model("grouped", 8, 6, 2, 0, False)
