"""Writes convnext_mini.onnx: a ConvNeXt-shaped net with few channels, op
for op as torchvision's ConvNeXt exports at opset 17 (channels-last blocks).

stem: Conv 4×4 stride 4 (3 → 8), LayerNorm2d (Transpose → LayerNorm over
the last axis → Transpose); one block: depthwise Conv 7×7, Transpose
(0, 2, 3, 1), LayerNorm, MatMul [8, 32] + bias (bias first), GELU in the
Erf form, MatMul [32, 8] + bias, Transpose (0, 3, 1, 2), Mul by γ [8, 1, 1]
(layer scale), residual Add; downsample: LayerNorm2d, Conv 2×2 stride 2
(8 → 16); head: GlobalAveragePool, LayerNorm2d, Flatten, Gemm (transB).
Input 1×3×32×32, seeded random weights.

Usage: python make_convnext_mini.py [OUT.onnx]  (needs onnx and numpy)
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(19)
nodes, inits = [], []
counter = [0]


def name(prefix):
    counter[0] += 1
    return f"{prefix}_{counter[0]}"


def const(shape, lo, hi):
    n = name("w")
    inits.append(numpy_helper.from_array(rng.uniform(lo, hi, shape).astype(np.float32), n))
    return n


def scalar(v):
    n = name("c")
    nodes.append(helper.make_node("Constant", [], [n], value=numpy_helper.from_array(np.array(v, np.float32))))
    return n


def op(op_type, inputs, **attrs):
    out = name(op_type.lower())
    nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
    return out


def layer_norm(x, c):
    g, b = const([c], 0.5, 1.5), const([c], -0.3, 0.3)
    return op("LayerNormalization", [x, g, b], axis=-1, epsilon=1e-6)


def layer_norm_2d(x, c):
    t = op("Transpose", [x], perm=[0, 2, 3, 1])
    return op("Transpose", [layer_norm(t, c)], perm=[0, 3, 1, 2])


def conv(x, cin, cout, k, stride, group=1, pad=0):
    s = (3.0 / (cin // group * k * k)) ** 0.5
    w, b = const([cout, cin // group, k, k], -s, s), const([cout], -0.2, 0.2)
    return op("Conv", [x, w, b], kernel_shape=[k, k], strides=[stride, stride],
              pads=[pad] * 4, group=group, dilations=[1, 1])


def linear(x, k, m):
    s = (3.0 / k) ** 0.5
    y = op("MatMul", [x, const([k, m], -s, s)])
    return op("Add", [const([m], -0.2, 0.2), y])


def gelu(x):
    d = op("Div", [x, scalar(2.0 ** 0.5)])
    e = op("Add", [op("Erf", [d]), scalar(1.0)])
    return op("Mul", [op("Mul", [x, e]), scalar(0.5)])


def block(x, c):
    h = conv(x, c, c, 7, 1, group=c, pad=3)
    h = layer_norm(op("Transpose", [h], perm=[0, 2, 3, 1]), c)
    h = linear(gelu(linear(h, c, 4 * c)), 4 * c, c)
    h = op("Transpose", [h], perm=[0, 3, 1, 2])
    h = op("Mul", [const([c, 1, 1], 0.5, 1.0), h])
    return op("Add", [h, x])


c = 8
x = layer_norm_2d(conv("x", 3, c, 4, 4), c)
x = block(x, c)
x = conv(layer_norm_2d(x, c), c, 2 * c, 2, 2)
x = layer_norm_2d(op("GlobalAveragePool", [x]), 2 * c)
x = op("Flatten", [x], axis=1)
s = (3.0 / (2 * c)) ** 0.5
y = op("Gemm", [x, const([10, 2 * c], -s, s), const([10], -0.2, 0.2)], transB=1)
nodes[-1].output[0] = "y"

graph = helper.make_graph(
    nodes, "convnext_mini",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_convnext_mini")
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)
onnx.save(model, sys.argv[1] if len(sys.argv) > 1 else "convnext_mini.onnx")
