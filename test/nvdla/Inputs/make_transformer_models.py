"""Transformer ops on NVDLA (issue 19 item 10).

gelu.onnx   input x [1,16,8,8], opset 17
    c = Conv1x1(x) + b
    y = 0.5 · c · (1 + Erf(c / √2))       GELU as PyTorch exports it: Erf on the
                                           SDP lookup table, the rest X/Y steps
block.onnx  input t [1,8,16] (8 tokens of 16 features), opset 17: the ops of a
    ViT encoder block that nv_full cannot run, each refused at its node
    n  = LayerNormalization(t)             axis -1
    q  = MatMul(n, Wq)                     3-D activation × constant
    k  = Transpose(q, [0,2,1])
    s  = MatMul(q, k)                      two activations
    p  = Softmax(s, axis -1)
    y  = Erf(p)                            maps (LUT): no error

Weights are seeded random values; onnc-run supplies the inputs.

Usage: make_transformer_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(10)
N = helper.make_node
C = 16


def arr(name, a):
    return numpy_helper.from_array(np.asarray(a, np.float32), name)


def save(name, nodes, inputs, outputs, inits):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_transformer_models")
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, os.path.join(out, name + ".onnx"))


save(
    "gelu",
    [
        N("Conv", ["x", "w", "b"], ["c"], name="conv"),
        N("Div", ["c", "sqrt2"], ["d"], name="gelu_div"),
        N("Erf", ["d"], ["e"], name="gelu_erf"),
        N("Add", ["e", "one"], ["e1"], name="gelu_add"),
        N("Mul", ["c", "e1"], ["m"], name="gelu_mul"),
        N("Mul", ["m", "half"], ["y"], name="gelu_half"),
    ],
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, C, 8, 8])],
    [
        arr("w", rng.uniform(-1, 1, (C, C, 1, 1)) * 3.0 / C**0.5),
        arr("b", rng.uniform(-0.5, 0.5, C)),
        arr("sqrt2", 2.0**0.5),
        arr("one", 1.0),
        arr("half", 0.5),
    ],
)

T = 8
save(
    "block",
    [
        N("LayerNormalization", ["t", "gamma", "beta"], ["n"], name="ln", axis=-1, epsilon=1e-6),
        N("MatMul", ["n", "wq"], ["q"], name="proj"),
        N("Transpose", ["q"], ["k"], name="keys_t", perm=[0, 2, 1]),
        N("MatMul", ["q", "k"], ["s"], name="scores"),
        N("Softmax", ["s"], ["p"], name="softmax", axis=-1),
        N("Erf", ["p"], ["y"], name="erf"),
    ],
    [helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, T, C])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, T, T])],
    [
        arr("gamma", rng.uniform(0.5, 1.5, C)),
        arr("beta", rng.uniform(-0.5, 0.5, C)),
        arr("wq", rng.uniform(-1, 1, (C, C)) / C**0.5),
    ],
)
