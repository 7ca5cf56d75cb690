"""Activations through the NVDLA SDP (issue 19 item 5): the lookup-table
functions fused after convolutions, standalone on a scaled input, and
HardSigmoid on the X units.

activations.onnx   input x [1,8,8,8], opset 14
    sig    = Sigmoid(Conv3x3(x) + b)          LUT fused into the conv's SDP
    silu   = c · Sigmoid(c), c = Conv1x1(x)   one LUT function (swish), one SDP
    hswish = HardSwish(Conv1x1(x))            the ONNX op
    mish   = c · Tanh(Softplus(c))            as PyTorch exports Mish
    tanh   = Tanh(3 · x)                      standalone SDP: scale, then LUT
    splus  = Softplus(3 · x)
    hsig   = HardSigmoid(Conv1x1(x))          X units: (x + β/α)·α, ReLU, min 1

Weights are seeded random values; onnc-run supplies the input.

Usage: make_activation_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(19)
C = 8
inits = []


def weight(name, shape, scale):
    inits.append(numpy_helper.from_array((rng.uniform(-1, 1, shape) * scale).astype(np.float32), name))
    return name


N = helper.make_node
nodes = []


def conv(name, k):
    w = weight(name + "_w", [C, C, k, k], 3.0 / (C * k * k) ** 0.5)
    b = weight(name + "_b", [C], 0.5)
    nodes.append(N("Conv", ["x", w, b], [name], name=name, pads=[k // 2] * 4))
    return name


conv("c1", 3)
nodes.append(N("Sigmoid", ["c1"], ["sig"], name="sigmoid"))
conv("c2", 1)
nodes.append(N("Sigmoid", ["c2"], ["c2_gate"], name="silu_gate"))
nodes.append(N("Mul", ["c2", "c2_gate"], ["silu"], name="silu"))
conv("c3", 1)
nodes.append(N("HardSwish", ["c3"], ["hswish"], name="hswish"))
conv("c4", 3)
nodes.append(N("Softplus", ["c4"], ["c4_sp"], name="mish_softplus"))
nodes.append(N("Tanh", ["c4_sp"], ["c4_t"], name="mish_tanh"))
nodes.append(N("Mul", ["c4", "c4_t"], ["mish"], name="mish"))
inits.append(numpy_helper.from_array(np.array([3.0], np.float32), "three"))
nodes.append(N("Mul", ["x", "three"], ["x3"], name="scale"))
nodes.append(N("Tanh", ["x3"], ["tanh"], name="tanh"))
nodes.append(N("Softplus", ["x3"], ["splus"], name="softplus"))
conv("c5", 1)
nodes.append(N("HardSigmoid", ["c5"], ["hsig"], name="hsig", alpha=0.25, beta=0.5))

vi = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, C, 8, 8])
outs = ["sig", "silu", "hswish", "mish", "tanh", "splus", "hsig"]
g = helper.make_graph(nodes, "activations", [vi("x")], [vi(n) for n in outs], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], producer_name="make_activation_models")
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "activations.onnx"))
