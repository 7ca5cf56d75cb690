#!/usr/bin/env python3
"""Writes the small ONNX models the importer's lit tests read (this folder).

Generated with onnx 1.23.x (`python3 -m pip install onnx`); rerun after editing:
    python3 test/import/onnx/Inputs/make_models.py
Each model is tiny and exercises one operator family or one opset variant the
importer must normalize; the bad_* files are malformed on purpose.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def save(name, nodes, inputs, outputs, inits=(), opset=18, ir=8, domains=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    ops = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    model = helper.make_model(graph, opset_imports=ops, producer_name="onnc-tests")
    model.ir_version = ir
    with open(os.path.join(HERE, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def vi(name, shape, t=F):
    return helper.make_tensor_value_info(name, t, shape)


def init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


rng = np.random.default_rng(0)

# Conv + Relu + MaxPool + Gemm: defaults materialized, weights as blobs.
save(
    "conv_relu_pool",
    [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu1"),
        helper.make_node("MaxPool", ["r"], ["p"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "fw", "fb"], ["y"], name="fc", transB=1),
    ],
    [vi("x", [1, 3, 8, 8])],
    [vi("y", [1, 10])],
    [
        init("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)),
        init("b", np.zeros(4, np.float32)),
        init("fw", rng.standard_normal((10, 64)).astype(np.float32)),
        init("fb", np.zeros(10, np.float32)),
    ],
)

# Clip before opset 11 (min/max attributes) and after (inputs).
save("clip_v6", [helper.make_node("Clip", ["x"], ["y"], name="clip6", min=0.0, max=6.0)], [vi("x", [1, 4])], [vi("y", [1, 4])], opset=6)
save(
    "clip_v13",
    [helper.make_node("Clip", ["x", "", "hi"], ["y"], name="clip13")],
    [vi("x", [1, 4])],
    [vi("y", [1, 4])],
    [init("hi", np.array(6.0, np.float32))],
    opset=13,
)

# Reshape with a shape attribute (opset 1) and with a shape input; 0 and -1.
save("reshape_v1", [helper.make_node("Reshape", ["x"], ["y"], name="rs1", shape=[0, -1])], [vi("x", [2, 3, 4])], [vi("y", [2, 12])], opset=1, ir=3)
save(
    "reshape_v14",
    [helper.make_node("Reshape", ["x", "s"], ["y"], name="rs14")],
    [vi("x", [2, 3, 4])],
    [vi("y", [2, 12])],
    [init("s", np.array([0, -1], np.int64))],
    opset=14,
)

# Squeeze/Unsqueeze axes as attribute (opset 11) and as input (opset 13).
save(
    "squeeze_v11",
    [helper.make_node("Unsqueeze", ["x"], ["u"], name="unsq", axes=[0]), helper.make_node("Squeeze", ["u"], ["y"], name="sq", axes=[0])],
    [vi("x", [3, 4])],
    [vi("y", [3, 4])],
    opset=11,
)

# Pad with attributes (opset 2) and Upsample (opset 9, scales input).
save("pad_v2", [helper.make_node("Pad", ["x"], ["y"], name="pad2", pads=[0, 0, 1, 1, 0, 0, 1, 1], value=0.5)], [vi("x", [1, 2, 3, 3])], [vi("y", [1, 2, 5, 5])], opset=2, ir=3)
save(
    "upsample_v9",
    [helper.make_node("Upsample", ["x", "s"], ["y"], name="up", mode="nearest")],
    [vi("x", [1, 2, 3, 3])],
    [vi("y", [1, 2, 6, 6])],
    [init("s", np.array([1, 1, 2, 2], np.float32))],
    opset=9,
)

# Dropout with and without a mask output; BatchNormalization; Concat; Split.
save(
    "dropout_bn_concat",
    [
        helper.make_node("BatchNormalization", ["x", "g", "bb", "m", "v"], ["n"], name="bn", epsilon=1e-3),
        helper.make_node("Dropout", ["n"], ["d", "mask"], name="drop"),
        helper.make_node("Concat", ["d", "x"], ["c"], name="cat", axis=1),
        helper.make_node("Split", ["c", "sp"], ["s0", "s1"], name="split", axis=1),
    ],
    [vi("x", [1, 2, 4, 4])],
    [vi("s0", [1, 1, 4, 4]), vi("s1", [1, 3, 4, 4]), vi("mask", [1, 2, 4, 4], TensorProto.BOOL)],
    [
        init("g", np.ones(2, np.float32)),
        init("bb", np.zeros(2, np.float32)),
        init("m", np.zeros(2, np.float32)),
        init("v", np.ones(2, np.float32)),
        init("sp", np.array([1, 3], np.int64)),
    ],
    opset=13,
)

# Unknown operators (default domain and another domain) import as onnx.custom.
save(
    "unknown_ops",
    [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("NonMaxSuppressionLike", ["r"], ["n"], name="mystery", score=0.5, mode="fast"),
        helper.make_node("FusedThing", ["n", "r"], ["y"], name="vendor_op", domain="com.example", alpha=2),
    ],
    [vi("x", [1, 8])],
    [vi("y", [1, 8])],
    domains=["com.example"],
)

# Old-style graph: initializers are also listed as graph inputs.
g = helper.make_graph(
    [helper.make_node("Add", ["x", "k"], ["y"], name="add")],
    "old_style",
    [vi("x", [4]), vi("k", [4])],
    [vi("y", [4])],
    initializer=[init("k", np.arange(4, dtype=np.float32))],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 7)])
m.ir_version = 3
open(os.path.join(HERE, "old_style_inputs.onnx"), "wb").write(m.SerializeToString())

# Symbolic batch dimension, fixed with --input-shape.
save(
    "symbolic_batch",
    [helper.make_node("Relu", ["x"], ["y"], name="relu")],
    [vi("x", ["N", 3, 4, 4])],
    [vi("y", ["N", 3, 4, 4])],
)

# Bad inputs.
good = open(os.path.join(HERE, "conv_relu_pool.onnx"), "rb").read()
open(os.path.join(HERE, "bad_truncated.onnx"), "wb").write(good[: len(good) // 2])
open(os.path.join(HERE, "bad_garbage.onnx"), "wb").write(bytes(rng.integers(0, 256, 300, dtype=np.uint8)))
open(os.path.join(HERE, "bad_text.onnx"), "w").write("this is not a model\n")
open(os.path.join(HERE, "bad_empty.onnx"), "wb").write(b"")
save("bad_no_nodes", [], [vi("x", [1])], [vi("x2", [1])])
save("bad_dangling", [helper.make_node("Relu", ["nowhere"], ["y"], name="lost")], [vi("x", [1])], [vi("y", [1])])
save(
    "bad_cycle",
    [helper.make_node("Relu", ["b"], ["a"], name="first"), helper.make_node("Relu", ["a"], ["b"], name="second")],
    [vi("x", [1])],
    [vi("a", [1])],
)
# Cast at opset 13 (before `saturate`) and 19: every Cast imports with both
# of its later attributes materialized, and exports without `round_mode`
# (opset 24) so that the checker accepts it.
for opset in (13, 19):
    save(
        f"cast_v{opset}",
        [helper.make_node("Cast", ["x"], ["y"], name="to_half", to=TensorProto.FLOAT16), helper.make_node("Cast", ["y"], ["z"], name="to_float", to=F)],
        [vi("x", [2, 3])],
        [vi("z", [2, 3])],
        opset=opset,
        ir=8,
    )
save("bad_opset", [helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [1])], [vi("y", [1])], opset=99)
short = TensorProto(name="w", data_type=F, dims=[4, 3, 3, 3], raw_data=np.zeros(10, np.float32).tobytes())
save(
    "bad_short_initializer",
    [helper.make_node("Conv", ["x", "w"], ["y"], name="conv_short")],
    [vi("x", [1, 3, 8, 8])],
    [vi("y", [1, 4, 6, 6])],
    [short],
)
save(
    "bad_attr_type",
    [helper.make_node("Conv", ["x", "w"], ["y"], name="conv_bad_attr", strides="two")],
    [vi("x", [1, 3, 8, 8])],
    [vi("y", [1, 4, 6, 6])],
    [init("w", np.zeros((4, 3, 3, 3), np.float32))],
)
# A classifier head with exporter-style node names: legalization for NVDLA
# runs the Softmax on the CPU (onnc.device = "cpu"); export keeps the names
# and writes the annotation as node metadata (export-names.test).
save(
    "gemm_softmax",
    [
        helper.make_node("Gemm", ["x", "w", "b"], ["logits"], name="/head/fc/Gemm", transB=1),
        helper.make_node("Softmax", ["logits"], ["y"], name="/head/Softmax", axis=1),
    ],
    [vi("x", [1, 16])],
    [vi("y", [1, 10])],
    [
        init("w", rng.standard_normal((10, 16)).astype(np.float32)),
        init("b", rng.standard_normal(10).astype(np.float32)),
    ],
    opset=13,
)
print("wrote models to", HERE)
