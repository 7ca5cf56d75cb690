"""Tiny ONNX models reproducing issue 19 items 1-4 (deterministic weights), as
PyTorch exports them:

view_size.onnx        conv -> relu -> x.view(x.size(0), -1) -> gemm
                      (Shape -> Gather -> Unsqueeze -> Concat -> Reshape)
shuffle_size.onnx     ShuffleNet channel_shuffle written with x.size():
                      b, c, h, w = x.size(); x.view(b, g, c // g, h, w).transpose(1, 2).view(b, -1, h, w)
interpolate_size.onnx F.interpolate(y, size=z.shape[-2:]) (Shape -> Slice -> Cast -> Concat -> Resize sizes)
maxpool_ceil.onnx     MaxPool 3x3/2 ceil_mode=1 over 8x8 (4x4; floor mode gives 3x3)
dense_block.onnx      DenseNet block: every layer concatenates the block input and all earlier layers
dense_transition.onnx two DenseNet blocks joined by a transition (conv, average pool)
option_a.onnx         ResNet-20 option-A shortcut: F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, 4, 4)) + conv branch
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(19)
BIG = 2**63 - 1


def w(name, shape):
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    return numpy_helper.from_array((rng.uniform(-1, 1, shape) * np.sqrt(3 / fan_in)).astype(np.float32), name)


def i64(name, v):
    return numpy_helper.from_array(np.array(v, dtype=np.int64), name)


def conv(x, y, cin, cout, inits, k=3, stride=1):
    inits += [w(y + "_w", (cout, cin, k, k)), w(y + "_b", (cout,))]
    return helper.make_node("Conv", [x, y + "_w", y + "_b"], [y], name=y, pads=[k // 2] * 4, strides=[stride] * 2)


def save(name, nodes, inits, inputs, outputs, opset=13):
    vi = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
    g = helper.make_graph(nodes, name, [vi(*i) for i in inputs], [vi(*o) for o in outputs], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


# x.view(x.size(0), -1)
inits = [i64("zero", 0), i64("ax0", [0]), i64("minus1", [-1]), w("fc_w", (10, 8 * 6 * 6)), w("fc_b", (10,))]
nodes = [
    conv("x", "c1", 8, 8, inits),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    helper.make_node("Shape", ["r1"], ["s"], name="shape"),
    helper.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
    helper.make_node("Unsqueeze", ["n", "ax0"], ["n1"], name="unsqueeze"),
    helper.make_node("Concat", ["n1", "minus1"], ["target"], name="cat", axis=0),
    helper.make_node("Reshape", ["r1", "target"], ["flat"], name="view"),
    helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], name="fc", transB=1),
]
save("view_size", nodes, inits, [("x", [1, 8, 6, 6])], [("y", [1, 10])])

# channel_shuffle with x.size()
inits = [i64("groups", 2), i64("ax0", [0]), i64("minus1", [-1])] + [i64(f"i{k}", k) for k in range(4)]
nodes = [conv("x", "c1", 16, 16, inits), helper.make_node("Shape", ["c1"], ["s"], name="size")]
for k, d in enumerate("bchw"):
    nodes.append(helper.make_node("Gather", ["s", f"i{k}"], ["d_" + d], name=f"get_{d}", axis=0))
    nodes.append(helper.make_node("Unsqueeze", ["d_" + d, "ax0"], ["d_" + d + "1"], name=f"unsq_{d}"))
nodes += [
    helper.make_node("Div", ["d_c", "groups"], ["cg"], name="div"),
    helper.make_node("Unsqueeze", ["cg", "ax0"], ["cg1"], name="unsq_cg"),
    helper.make_node("Unsqueeze", ["groups", "ax0"], ["g1"], name="unsq_g"),
    helper.make_node("Concat", ["d_b1", "g1", "cg1", "d_h1", "d_w1"], ["shape5"], name="cat5", axis=0),
    helper.make_node("Reshape", ["c1", "shape5"], ["v5"], name="view5"),
    helper.make_node("Transpose", ["v5"], ["t5"], name="transpose", perm=[0, 2, 1, 3, 4]),
    helper.make_node("Concat", ["d_b1", "minus1", "d_h1", "d_w1"], ["shape4"], name="cat4", axis=0),
    helper.make_node("Reshape", ["t5", "shape4"], ["sh"], name="view4"),
    conv("sh", "y", 16, 8, inits),
]
save("shuffle_size", nodes, inits, [("x", [1, 16, 5, 5])], [("y", [1, 8, 5, 5])])

# F.interpolate(y, size=z.shape[-2:])
inits = [i64("st", [2]), i64("en", [4]), i64("ax", [0]), i64("nc", [1, 4])]
nodes = [
    conv("x", "c1", 4, 4, inits),
    helper.make_node("Shape", ["z"], ["s"], name="shape"),
    helper.make_node("Slice", ["s", "st", "en", "ax"], ["hw"], name="slice"),
    helper.make_node("Cast", ["hw"], ["hwf"], name="to_float", to=TensorProto.FLOAT),
    helper.make_node("Floor", ["hwf"], ["hwr"], name="floor"),
    helper.make_node("Cast", ["hwr"], ["hwi"], name="to_int", to=TensorProto.INT64),
    helper.make_node("Concat", ["nc", "hwi"], ["sizes"], name="cat", axis=0),
    helper.make_node("Resize", ["c1", "", "", "sizes"], ["y"], name="resize", mode="nearest"),
]
save("interpolate_size", nodes, inits, [("x", [1, 4, 3, 3]), ("z", [1, 4, 6, 6])], [("y", [1, 4, 6, 6])])

# MaxPool ceil_mode
inits = []
nodes = [
    conv("x", "c1", 8, 8, inits),
    helper.make_node("MaxPool", ["c1"], ["y"], name="pool", kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
]
save("maxpool_ceil", nodes, inits, [("x", [1, 8, 8, 8])], [("y", [1, 8, 4, 4])])

def dense_layers(feats, n, nodes, inits, p=""):
    """`n` DenseNet layers after `feats` (16 channels each): every layer concatenates
    all features so far (Concat `<p>cat<k>`), then a 3x3 conv `<p>c<k+1>` and a ReLU;
    returns the features, the last Concat not yet made."""
    feats = list(feats)
    for k in range(n):
        nodes.append(helper.make_node("Concat", list(feats), [f"{p}cat{k}"], name=f"{p}cat{k}", axis=1))
        nodes += [conv(f"{p}cat{k}", f"{p}c{k + 1}", 16 * (k + 1), 16, inits), helper.make_node("Relu", [f"{p}c{k + 1}"], [f"{p}r{k + 1}"], name=f"{p}relu{k + 1}")]
        feats.append(f"{p}r{k + 1}")
    return feats


# DenseNet block
inits, nodes = [], []
nodes += [conv("x", "c0", 16, 16, inits), helper.make_node("Relu", ["c0"], ["r0"], name="relu0")]
feats = dense_layers(["r0"], 3, nodes, inits)
nodes.append(helper.make_node("Concat", feats, ["cat3"], name="cat3", axis=1))
nodes.append(conv("cat3", "y", 64, 8, inits, k=1))
save("dense_block", nodes, inits, [("x", [1, 16, 6, 6])], [("y", [1, 8, 6, 6])])

# DenseNet transition between two blocks: conv 1x1 -> average pool 2x2 -> the next
# block, whose first Concat holds only the pool's result, the next ones copies of it
inits, nodes = [], []
nodes += [conv("x", "c0", 8, 16, inits), helper.make_node("Relu", ["c0"], ["r0"], name="relu0")]
feats = dense_layers(["r0"], 2, nodes, inits)
nodes.append(helper.make_node("Concat", feats, ["cat2"], name="cat2", axis=1))
nodes += [conv("cat2", "t", 48, 16, inits, k=1), helper.make_node("Relu", ["t"], ["tr"], name="trelu")]
nodes.append(helper.make_node("AveragePool", ["tr"], ["p0"], name="tpool", kernel_shape=[2, 2], strides=[2, 2]))
feats = dense_layers(["p0"], 2, nodes, inits, p="d")
nodes.append(helper.make_node("Concat", feats, ["dcat2"], name="dcat2", axis=1))
nodes.append(conv("dcat2", "y", 48, 8, inits, k=1))
save("dense_transition", nodes, inits, [("x", [1, 8, 8, 8])], [("y", [1, 8, 4, 4])])

# ResNet option A
inits = [i64("s0", [0, 0]), i64("s1", [BIG, BIG]), i64("sax", [2, 3]), i64("sst", [2, 2]), i64("pads", [0, 4, 0, 0, 0, 4, 0, 0])]
nodes = [
    conv("x", "c0", 8, 8, inits),
    helper.make_node("Relu", ["c0"], ["r0"], name="relu0"),
    conv("r0", "c1", 8, 16, inits, stride=2),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    conv("r1", "c2", 16, 16, inits),
    helper.make_node("Slice", ["r0", "s0", "s1", "sax", "sst"], ["sub"], name="subsample"),
    helper.make_node("Pad", ["sub", "pads"], ["short"], name="pad", mode="constant"),
    helper.make_node("Add", ["c2", "short"], ["sum"], name="add"),
    helper.make_node("Relu", ["sum"], ["y"], name="relu_out"),
]
save("option_a", nodes, inits, [("x", [1, 8, 8, 8])], [("y", [1, 16, 4, 4])])
