"""Element-wise ops of two activations (issue 19 item 6, issue 18 item 5), with
integer inputs and weights so that nv_small's INT8 datapath with identity scales
(no calibration) computes them exactly:

eltwise.onnx   inputs a, b [1,16,4,4] and s [1,16,1,1] (a squeeze-excitation vector)
               res  = Relu(Conv1x1(a) + b)        residual add fused into the conv's SDP
               sub  = b - a                        X1 multiplies by -1, X2 adds
               mx   = Max(a, b), mn = Min(a, b)    X2 ALU per point
               prod = a * b                        X2 multiplier per point
               se   = a * s                        per-channel operand read from memory
               ssub = s - a                        -a + s with s per channel
eltwise_inputs/input_{0,1,2}.pb   integer values in [-5, 5]

Usage: make_eltwise_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(61)
C = 16

# A 1x1 conv with small integer weights: y_k = a_k - a_(k+1 mod C).
w = np.zeros((C, C, 1, 1), np.float32)
for k in range(C):
    w[k, k] = 1
    w[k, (k + 1) % C] = -1
inits = [numpy_helper.from_array(w, "conv_w"), numpy_helper.from_array(np.arange(C, dtype=np.float32) % 3 - 1, "conv_b")]

N = helper.make_node
nodes = [
    N("Conv", ["a", "conv_w", "conv_b"], ["c"], name="conv", pads=[0] * 4),
    N("Add", ["c", "b"], ["r"], name="add"),
    N("Relu", ["r"], ["res"], name="relu"),
    N("Sub", ["b", "a"], ["sub"], name="sub"),
    N("Max", ["a", "b"], ["mx"], name="max"),
    N("Min", ["a", "b"], ["mn"], name="min"),
    N("Mul", ["a", "b"], ["prod"], name="mul"),
    N("Mul", ["a", "s"], ["se"], name="se"),
    N("Sub", ["s", "a"], ["ssub"], name="ssub"),
]
vi = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
full = [1, C, 4, 4]
g = helper.make_graph(
    nodes,
    "eltwise",
    [vi("a", full), vi("b", full), vi("s", [1, C, 1, 1])],
    [vi(n, full) for n in ["res", "sub", "mx", "mn", "prod", "se", "ssub"]],
    inits,
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_eltwise_models", ir_version=8)
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "eltwise.onnx"))

d = os.path.join(out, "eltwise_inputs")
os.makedirs(d, exist_ok=True)
for i, shape in enumerate([full, full, [1, C, 1, 1]]):
    v = rng.integers(-5, 6, shape).astype(np.float32)
    with open(os.path.join(d, f"input_{i}.pb"), "wb") as f:
        f.write(numpy_helper.from_array(v, ["a", "b", "s"][i]).SerializeToString())
