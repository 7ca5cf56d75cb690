"""A MobileNetV2-shaped ONNX model with seeded random weights, built with onnx.helper.

For measuring what depthwise convolutions cost in an NVDLA loadable (docs/perf.md):
no torch needed, no weights downloaded. In: an output path and optionally the
input size (default 224). Out: the model: stem 3x3/2 conv to 32 channels, the
17 inverted-residual blocks of MobileNetV2 (1x1 expand by t, 3x3 depthwise,
1x1 project, residual add when the shape allows; BatchNorm folded away, ReLU6
as Clip(0, 6)), a 1x1 conv to 1280, global average pooling and a 1000-way
Gemm. 3.5 M parameters.

Usage: python3 tools/mobilenetv2_onnx.py out.onnx [size]
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (expansion t, output channels c, repeats n, first stride s), as in the paper.
BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


class Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, stem):
        self.n += 1
        return f"{stem}{self.n}"

    def const(self, array):
        name = self.name("w")
        self.inits.append(numpy_helper.from_array(array.astype(np.float32), name))
        return name

    def conv(self, x, cin, cout, k, stride=1, group=1, act=True):
        fan_in = cin // group * k * k
        w = self.const(self.rng.uniform(-1, 1, (cout, cin // group, k, k)) * np.sqrt(3.0 / fan_in))
        b = self.const(self.rng.uniform(-0.1, 0.1, cout))
        y = self.name("conv")
        p = k // 2
        self.nodes.append(helper.make_node("Conv", [x, w, b], [y], kernel_shape=[k, k], strides=[stride, stride], pads=[p] * 4, group=group))
        if not act:
            return y
        lo, hi = self.const(np.array(0.0)), self.const(np.array(6.0))
        z = self.name("relu6")
        self.nodes.append(helper.make_node("Clip", [y, lo, hi], [z]))
        return z


def build(size):
    b = Builder(2)
    x = b.conv("input", 3, 32, 3, 2)
    cin = 32
    for t, c, n, s in BLOCKS:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            y = b.conv(x, cin, hidden, 1) if t != 1 else x
            y = b.conv(y, hidden, hidden, 3, stride, group=hidden)
            y = b.conv(y, hidden, c, 1, act=False)
            if stride == 1 and cin == c:
                z = b.name("add")
                b.nodes.append(helper.make_node("Add", [x, y], [z]))
                y = z
            x, cin = y, c
    x = b.conv(x, cin, 1280, 1)
    pooled = b.name("pool")
    b.nodes.append(helper.make_node("GlobalAveragePool", [x], [pooled]))
    flat = b.name("flat")
    b.nodes.append(helper.make_node("Flatten", [pooled], [flat]))
    w = b.const(b.rng.uniform(-1, 1, (1000, 1280)) * np.sqrt(3.0 / 1280))
    bias = b.const(np.zeros(1000))
    b.nodes.append(helper.make_node("Gemm", [flat, w, bias], ["output"], transB=1))
    graph = helper.make_graph(
        b.nodes,
        "mobilenetv2_like",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1000])],
        b.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 224
    model = build(size)
    onnx.save(model, sys.argv[1])
    params = sum(int(np.prod(t.dims)) for t in model.graph.initializer)
    print(f"{sys.argv[1]}: {len(model.graph.node)} nodes, {params} parameters")
