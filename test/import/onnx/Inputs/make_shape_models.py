#!/usr/bin/env python3
"""Writes the importer's shape-inference reproducers (issue 19, item 9).

Generated with onnx 1.23.x; rerun after editing:
    python3 test/import/onnx/Inputs/make_shape_models.py
Each model is the smallest form of a root cause found in torchvision's
ViT-B/16 exported with a dynamic batch (legacy exporter, opset 17), which
onnxruntime runs and `onnc-translate --import-onnx` refused with "'onnx.gemm'
op operands A and B must be 2-D, got ranks 1 and 2". Each is checked with
onnxruntime below before it is written.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def const(name, values):
    arr = np.asarray(values, np.int64)
    return helper.make_node("Constant", [], [name], name=name, value=numpy_helper.from_array(arr, name))


def save(name, nodes, inputs, outputs, inits=(), opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="onnc-tests")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    with open(os.path.join(HERE, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())
    return model


rng = np.random.default_rng(19)
w = numpy_helper.from_array(rng.standard_normal((12, 5)).astype(np.float32), "w")

# Root cause 1: Mod had no inference, so the shape PyTorch computes for
# multi-head attention (`head_dim = embed_dim // num_heads`, checked with
# `embed_dim % num_heads`) was untyped, and everything after it got a guessed
# rank. Here the Mod of two constants is the first dim of a Reshape feeding a
# Gemm: 10 mod 4 = 2, so [2, 3, 4] → [2, 12].
mod_nodes = [
    const("ten", [10]),
    const("four", [4]),
    helper.make_node("Mod", ["ten", "four"], ["two"], name="mod"),
    const("minus1", [-1]),
    helper.make_node("Concat", ["two", "minus1"], ["shape"], name="concat", axis=0),
    helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
    helper.make_node("Gemm", ["r", "w"], ["y"], name="gemm"),
]
save("mod_shape", mod_nodes, [helper.make_tensor_value_info("x", F, [2, 3, 4])], [helper.make_tensor_value_info("y", F, [2, 5])], [w])

# The same with a symbolic batch, as the dynamic-batch export has it: the
# first dim is Shape(x)[0] · (7 mod 5 − 1) = N, unknown until run time, the
# second 12; the Reshape's rank (2) is known from the shape's length.
sym_nodes = [
    helper.make_node("Shape", ["x"], ["s"], name="shape_of_x"),
    const("zero", 0),
    helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
    const("seven", 7),
    const("five", 5),
    helper.make_node("Mod", ["seven", "five"], ["m"], name="mod"),
    const("one", 1),
    helper.make_node("Sub", ["m", "one"], ["k"], name="sub"),
    helper.make_node("Mul", ["n", "k"], ["nk"], name="mul"),
    const("axes", [0]),
    helper.make_node("Unsqueeze", ["nk", "axes"], ["nk1"], name="unsqueeze"),
    const("twelve", [12]),
    helper.make_node("Concat", ["nk1", "twelve"], ["shape"], name="concat", axis=0),
    helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
    helper.make_node("Gemm", ["r", "w"], ["y"], name="gemm"),
]
save("mod_shape_symbolic", sym_nodes, [helper.make_tensor_value_info("x", F, ["N", 3, 4])], [helper.make_tensor_value_info("y", F, ["N", 5])], [w])

# An operator onnc does not know (another domain) computes a shape; the
# Reshape's rank is then unknowable. The importer must say so at the Reshape,
# not invent a rank and fail verification at the Gemm.
graph = helper.make_graph(
    [
        helper.make_node("ShapeOf", ["x"], ["s"], name="vendor_shape", domain="com.example"),
        helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape"),
        helper.make_node("Relu", ["r"], ["y"], name="relu"),
    ],
    "unknown_shape_op",
    [helper.make_tensor_value_info("x", F, [2, 3, 4])],
    [helper.make_tensor_value_info("y", F, [6, 4])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)], producer_name="onnc-tests")
model.ir_version = 8
with open(os.path.join(HERE, "unknown_shape_op.onnx"), "wb") as f:
    f.write(model.SerializeToString())

try:
    import onnxruntime as ort

    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    for name in ("mod_shape", "mod_shape_symbolic"):
        sess = ort.InferenceSession(os.path.join(HERE, name + ".onnx"), providers=["CPUExecutionProvider"])
        (y,) = sess.run(None, {"x": x})
        assert np.allclose(y, x.reshape(2, 12) @ numpy_helper.to_array(w), atol=1e-5), name
except ImportError:
    print("onnxruntime not installed: models not run")
print("wrote models to", HERE)
