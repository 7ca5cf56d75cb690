"""Transformer ops on NVDLA (issue 19 item 10).

gelu.onnx   input x [1,16,8,8], opset 17
    c = Conv1x1(x) + b
    y = 0.5 · c · (1 + Erf(c / √2))       GELU as PyTorch exports it: Erf on the
                                           SDP lookup table, the rest X/Y steps
mlp.onnx    input x [1,16,8] (16 features of 8 tokens, channels first), opset 17:
    a token MLP block on the cube [1,16,8,1]
    t = Transpose(x, [0,2,1])              [1,8,16] tokens: a view
    n = LayerNormalization(t) · γ + β      axis -1
    h = GELU(MatMul(n, W1) + b1)           [1,8,64]
    y = Transpose(t + MatMul(h, W2) + b2, [0,2,1])
ln_ops.onnx input x [1,16,8], opset 13: the same LayerNorm written op by op
    (ReduceMean, Sub, Pow, ReduceMean, Add ε, Sqrt, Div, Mul γ, Add β) between
    the two Transposes
patch.onnx  input x [1,3,32,32]: ViT's patch embedding, Conv 16×16 stride 16
    (24 channels): stride 8 and a strided Slice on NVDLA
block.onnx  input x [1,16,8], opset 17: a ViT encoder block's attention, whose
    two-activation MatMuls and Softmax nv_full cannot run
    t = Transpose(x)                       tokens
    n = LayerNormalization(t)              maps
    q = MatMul(n, Wq), k = MatMul(n, Wk)   map
    kt = Transpose(k, [0,2,1])             maps (a view)
    s = MatMul(q, kt)                      refused: two activations
    p = Softmax(s, axis -1)                refused
    o = MatMul(p, q)                       refused
    y = Transpose(o)
vit.onnx    input x [1,3,32,32], opset 17: a one-block, one-head ViT as torchvision
    writes it: patch Conv 16×16/16 → Reshape [1,16,4] → Transpose → Concat of the
    class token (token axis) → + position embedding → LN → Q, K, V projections →
    scores MatMul → Softmax → MatMul → output projection → residual → LN → MLP
    (GELU) → residual → LN → Gather of the class token → head MatMul
patch_tokens.onnx input x [1,3,32,32]: ViT's front without the class token —
    patch Conv 16×16/16 → Reshape [1,16,4] → Transpose → + position embedding →
    LN → MLP (GELU) → residual → Transpose → y [1,16,4]; the tokens keep the
    feature map's 2×2 grid, so the Reshape is a view
tokens_in.onnx input t [1,8,16] read as tokens straight from the host: refused
    by the lowering (the runtime binds inputs in NCHW order)

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


def save(name, nodes, inputs, outputs, inits, opset=17):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_transformer_models")
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
H = 4 * C


def vi(name, dims):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, dims)


def linear(x, k, m, tag):
    return (
        [
            N("MatMul", [x, tag + "_w"], [tag + "_mm"], name=tag),
            N("Add", [tag + "_mm", tag + "_b"], [tag], name=tag + "_bias"),
        ],
        [arr(tag + "_w", rng.uniform(-1, 1, (k, m)) * 3**0.5 / k**0.5), arr(tag + "_b", rng.uniform(-0.2, 0.2, m))],
    )


def gelu(x, tag):
    return [
        N("Div", [x, "sqrt2"], [tag + "_d"], name=tag + "_div"),
        N("Erf", [tag + "_d"], [tag + "_e"], name=tag + "_erf"),
        N("Add", [tag + "_e", "one"], [tag + "_e1"], name=tag + "_add"),
        N("Mul", [x, tag + "_e1"], [tag + "_m"], name=tag + "_mul"),
        N("Mul", [tag + "_m", "half"], [tag], name=tag + "_half"),
    ]


consts = [arr("sqrt2", 2.0**0.5), arr("one", 1.0), arr("half", 0.5)]
ln_params = [arr("gamma", rng.uniform(0.5, 1.5, C)), arr("beta", rng.uniform(-0.3, 0.3, C))]
fc1, w1 = linear("n", C, H, "fc1")
fc2, w2 = linear("g", H, C, "fc2")
save(
    "mlp",
    [
        N("Transpose", ["x"], ["t"], name="to_tokens", perm=[0, 2, 1]),
        N("LayerNormalization", ["t", "gamma", "beta"], ["n"], name="ln", axis=-1, epsilon=1e-5),
    ]
    + fc1
    + gelu("fc1", "g")
    + fc2
    + [
        N("Add", ["t", "fc2"], ["r"], name="residual"),
        N("Transpose", ["r"], ["y"], name="to_channels", perm=[0, 2, 1]),
    ],
    [vi("x", [1, C, T])],
    [vi("y", [1, C, T])],
    consts + ln_params + w1 + w2,
)

save(
    "ln_ops",
    [
        N("Transpose", ["x"], ["t"], name="to_tokens", perm=[0, 2, 1]),
        N("ReduceMean", ["t"], ["mu"], name="mean", axes=[-1]),
        N("Sub", ["t", "mu"], ["d"], name="centre"),
        N("Pow", ["d", "two"], ["p"], name="square"),
        N("ReduceMean", ["p"], ["var"], name="variance", axes=[-1]),
        N("Add", ["var", "eps"], ["ve"], name="add_eps"),
        N("Sqrt", ["ve"], ["sd"], name="sqrt"),
        N("Div", ["d", "sd"], ["nrm"], name="normalize"),
        N("Mul", ["nrm", "gamma"], ["sc"], name="scale"),
        N("Add", ["sc", "beta"], ["n"], name="shift"),
        N("Transpose", ["n"], ["y"], name="to_channels", perm=[0, 2, 1]),
    ],
    [vi("x", [1, C, T])],
    [vi("y", [1, C, T])],
    [arr("two", 2.0), arr("eps", 1e-5)] + ln_params,
    opset=13,
)

P = 24
save(
    "patch",
    [
        N("Conv", ["x", "pw", "pb"], ["y"], name="patch_embed", kernel_shape=[16, 16], strides=[16, 16]),
    ],
    [vi("x", [1, 3, 32, 32])],
    [vi("y", [1, P, 2, 2])],
    [
        arr("pw", rng.uniform(-1, 1, (P, 3, 16, 16)) / (3 * 256) ** 0.5),
        arr("pb", rng.uniform(-0.2, 0.2, P)),
    ],
)

save(
    "block",
    [
        N("Transpose", ["x"], ["t"], name="to_tokens", perm=[0, 2, 1]),
        N("LayerNormalization", ["t", "gamma", "beta"], ["n"], name="ln", axis=-1, epsilon=1e-6),
        N("MatMul", ["n", "wq"], ["q"], name="proj_q"),
        N("MatMul", ["n", "wk"], ["k"], name="proj_k"),
        N("Transpose", ["k"], ["kt"], name="keys_t", perm=[0, 2, 1]),
        N("MatMul", ["q", "kt"], ["s"], name="scores"),
        N("Softmax", ["s"], ["p"], name="softmax", axis=-1),
        N("MatMul", ["p", "q"], ["o"], name="attend"),
        N("Transpose", ["o"], ["y"], name="to_channels", perm=[0, 2, 1]),
    ],
    [vi("x", [1, C, T])],
    [vi("y", [1, C, T])],
    ln_params
    + [
        arr("wq", rng.uniform(-1, 1, (C, C)) / C**0.5),
        arr("wk", rng.uniform(-1, 1, (C, C)) / C**0.5),
    ],
)

save(
    "tokens_in",
    [N("MatMul", ["t", "wq"], ["y"], name="proj")],
    [vi("t", [1, T, C])],
    [vi("y", [1, T, C])],
    [arr("wq", rng.uniform(-1, 1, (C, C)) / C**0.5)],
)

V = 4  # patches of 16×16 in 32×32
vit_nodes = [
    N("Conv", ["x", "vpw", "vpb"], ["pe"], name="patch_embed", kernel_shape=[16, 16], strides=[16, 16]),
    N("Reshape", ["pe", "flat"], ["pf"], name="flatten"),
    N("Transpose", ["pf"], ["pt"], name="to_tokens", perm=[0, 2, 1]),
    N("Concat", ["cls", "pt"], ["ct"], name="class_token", axis=1),
    N("Add", ["ct", "pos"], ["t0"], name="pos_embed"),
    N("LayerNormalization", ["t0", "gamma", "beta"], ["n1"], name="ln1", axis=-1, epsilon=1e-6),
    N("MatMul", ["n1", "wq"], ["q"], name="proj_q"),
    N("MatMul", ["n1", "wk"], ["k"], name="proj_k"),
    N("MatMul", ["n1", "wv"], ["v"], name="proj_v"),
    N("Transpose", ["k"], ["kt"], name="keys_t", perm=[0, 2, 1]),
    N("MatMul", ["q", "kt"], ["s"], name="scores"),
    N("Softmax", ["s"], ["p"], name="softmax", axis=-1),
    N("MatMul", ["p", "v"], ["a"], name="attend"),
]
fco, wo = linear("a", C, C, "out_proj")
fm1, wm1 = linear("n2", C, H, "mlp1")
fm2, wm2 = linear("gm", H, C, "mlp2")
vit_nodes += fco + [
    N("Add", ["t0", "out_proj"], ["t1"], name="residual1"),
    N("LayerNormalization", ["t1", "gamma", "beta"], ["n2"], name="ln2", axis=-1, epsilon=1e-6),
]
vit_nodes += fm1 + gelu("mlp1", "gm") + fm2 + [
    N("Add", ["t1", "mlp2"], ["t2"], name="residual2"),
    N("LayerNormalization", ["t2", "gamma", "beta"], ["n3"], name="ln_final", axis=-1, epsilon=1e-6),
    N("Gather", ["n3", "zero"], ["c0"], name="class_out", axis=1),
    N("MatMul", ["c0", "head_w"], ["y"], name="head"),
]
save(
    "vit",
    vit_nodes,
    [vi("x", [1, 3, 32, 32])],
    [vi("y", [1, 10])],
    consts
    + ln_params
    + wo
    + wm1
    + wm2
    + [
        arr("vpw", rng.uniform(-1, 1, (C, 3, 16, 16)) / (3 * 256) ** 0.5),
        arr("vpb", rng.uniform(-0.2, 0.2, C)),
        numpy_helper.from_array(np.array([1, C, V], np.int64), "flat"),
        arr("cls", rng.uniform(-1, 1, (1, 1, C))),
        arr("pos", rng.uniform(-0.2, 0.2, (1, V + 1, C))),
        arr("wq", rng.uniform(-1, 1, (C, C)) / C**0.5),
        arr("wk", rng.uniform(-1, 1, (C, C)) / C**0.5),
        arr("wv", rng.uniform(-1, 1, (C, C)) / C**0.5),
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
        arr("head_w", rng.uniform(-1, 1, (C, 10)) / C**0.5),
    ],
)

pm1, wp1 = linear("pn", C, H, "pmlp1")
pm2, wp2 = linear("pg", H, C, "pmlp2")
save(
    "patch_tokens",
    [
        N("Conv", ["x", "vpw", "vpb"], ["pe"], name="patch_embed", kernel_shape=[16, 16], strides=[16, 16]),
        N("Reshape", ["pe", "flat"], ["pf"], name="flatten"),
        N("Transpose", ["pf"], ["pt"], name="to_tokens", perm=[0, 2, 1]),
        N("Add", ["pt", "ppos"], ["p0"], name="pos_embed"),
        N("LayerNormalization", ["p0", "gamma", "beta"], ["pn"], name="ln", axis=-1, epsilon=1e-6),
    ]
    + pm1
    + gelu("pmlp1", "pg")
    + pm2
    + [
        N("Add", ["p0", "pmlp2"], ["p1"], name="residual"),
        N("Transpose", ["p1"], ["y"], name="to_channels", perm=[0, 2, 1]),
    ],
    [vi("x", [1, 3, 32, 32])],
    [vi("y", [1, C, V])],
    consts
    + ln_params
    + wp1
    + wp2
    + [
        arr("vpw", rng.uniform(-1, 1, (C, 3, 16, 16)) / (3 * 256) ** 0.5),
        arr("vpb", rng.uniform(-0.2, 0.2, C)),
        numpy_helper.from_array(np.array([1, C, V], np.int64), "flat"),
        arr("ppos", rng.uniform(-0.2, 0.2, (1, V, C))),
    ],
)
