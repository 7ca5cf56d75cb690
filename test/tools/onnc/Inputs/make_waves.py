"""Makes the one-round diagnostics models of ../diagnostics.test.

waves.onnx (nv_full): a Conv, then an Exp legalization refuses (nv_full has
no Exp) and three AveragePools with ceil_mode=1 that legalization accepts
but the lowering refuses (the PDP cannot divide overhanging windows).
Before one-round checking, `onnc compile` stopped at the Exp; once the Exp
was replaced, the three pool errors appeared: two waves.
waves_fixed.onnx: the same with the Exp replaced by a Relu (the first wave
fixed). Node names are chosen so that name order is not graph order
(p9, n12, p10, p16).

waves_mvu.onnx (mvu): conv1 → relu1 → Sigmoid → conv2 → relu2 → Add(relu2,
relu1). Legalization refuses the Sigmoid (BARVINN has none); the residual
Add it accepts, but the MVU code generator refuses it (BARVINN runs plain
chains): both in one run. Cutting the Sigmoid out makes its result a
second graph input, which the MVU's one-input check must not blame.

Run: python3 make_waves.py (writes next to this script).
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def build(activation):
    w = numpy_helper.from_array(np.full((16, 16, 1, 1), 0.01, np.float32), "w")
    pool = dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        helper.make_node("AveragePool", ["c"], ["a"], name="p9", **pool),
        helper.make_node(activation, ["c"], ["e"], name="n12"),
        helper.make_node("AveragePool", ["e"], ["b"], name="p10", **pool),
        helper.make_node("Relu", ["e"], ["r"], name="relu"),
        helper.make_node("AveragePool", ["r"], ["d"], name="p16", **pool),
    ]
    graph = helper.make_graph(
        nodes,
        "waves",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, [1, 16, 4, 4]) for o in "abd"],
        [w],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def build_mvu():
    w = numpy_helper.from_array(np.full((16, 16, 1, 1), 0.01, np.float32), "w")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c1"], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Sigmoid", ["r1"], ["s"], name="gate"),
        helper.make_node("Conv", ["s", "w"], ["c2"], name="conv2"),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Add", ["r2", "r1"], ["y"], name="join"),
    ]
    graph = helper.make_graph(
        nodes,
        "waves_mvu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 8, 8])],
        [w],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


onnx.save(build("Exp"), os.path.join(HERE, "waves.onnx"))
onnx.save(build_mvu(), os.path.join(HERE, "waves_mvu.onnx"))
onnx.save(build("Relu"), os.path.join(HERE, "waves_fixed.onnx"))
