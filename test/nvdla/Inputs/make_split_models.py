"""Convolutions too big for the NVDLA convolution buffer (issue 19 item 8).

depthwise.onnx   input x [1,1152,7,7], opset 13
    y = Relu(Conv5x5(x, group=1152) + b)   MnasNet's largest depthwise conv: read as its
                                           dense block-diagonal kernel, one kernel
                                           group needs 29 CBUF banks of nv_full's 16;
                                           the emitter cuts it into channel chunks
grouped.onnx     input x [1,1024,7,7], opset 13
    y = Conv5x5(x, group=16) + b           16 groups of 64 channels, same story
fc.onnx          input x [1,512,7,7], opset 13
    y = Gemm(Flatten(x), W[256,25088]^T, b)   VGG-19's first FC layer (to 256 outputs):
                                           the legalizer cuts its input channels into
                                           parts that fit nv_small's 32 banks of 4 KiB

Weights are seeded random values (He-scaled); onnc-run supplies the inputs.

Usage: make_split_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(8)
N = helper.make_node


def weight(inits, name, shape, fan_in):
    s = (3.0 / fan_in) ** 0.5
    inits.append(numpy_helper.from_array(rng.uniform(-s, s, shape).astype(np.float32), name))
    return name


def save(name, nodes, x_shape, y_shape, inits):
    vi = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
    g = helper.make_graph(nodes, name, [vi("x", x_shape)], [vi("y", y_shape)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_split_models")
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def grouped(name, c, group, relu):
    inits = []
    w = weight(inits, "w", [c, c // group, 5, 5], c // group * 25)
    b = weight(inits, "b", [c], 1.0)
    conv_out = "c" if relu else "y"
    nodes = [N("Conv", ["x", w, b], [conv_out], name="conv", group=group, pads=[2, 2, 2, 2], kernel_shape=[5, 5])]
    if relu:
        nodes.append(N("Relu", ["c"], ["y"], name="relu"))
    save(name, nodes, [1, c, 7, 7], [1, c, 7, 7], inits)


grouped("depthwise", 1152, 1152, True)
grouped("grouped", 1024, 16, False)

inits = []
w = weight(inits, "w", [256, 25088], 25088)
b = weight(inits, "b", [256], 1.0)
nodes = [
    N("Flatten", ["x"], ["f"], name="flatten"),
    N("Gemm", ["f", w, b], ["y"], name="fc", transB=1),
]
save("fc", nodes, [1, 512, 7, 7], [1, 256], inits)
