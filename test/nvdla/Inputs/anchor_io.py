#!/usr/bin/env python3
"""Turns one ONNC single-layer anchor into the ONNX test-data layout.

Usage: anchor_io.py MODEL.onnx OUT_DIR
Reads MODEL.pgm (the input image) and MODEL.dimg (NVIDIA's virtual-platform
output for ONNC's loadable) beside MODEL.onnx and writes OUT_DIR/input_0.pb
(the raw 8-bit samples as floats, shape of the graph input: nvdla_runtime's
mapping, mean 0, divisor 1) and OUT_DIR/output_0.pb (the .dimg values in
plain NCHW order, shape of the graph output). Both facts are established in
proto/nvdla-dimg (README and tests/anchors.rs).
"""
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def dims(vi):
    return [d.dim_value for d in vi.type.tensor_type.shape.dim]


def read_pgm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            while data[pos:pos + 1] not in (b"\n", b""):
                pos += 1
            continue
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    assert fields[0] == b"P5", path
    w, h = int(fields[1]), int(fields[2])
    return np.frombuffer(data[pos + 1:pos + 1 + w * h], np.uint8).reshape(h, w)


def main(model_path, out_dir):
    m = onnx.load(model_path)
    inits = {i.name for i in m.graph.initializer}
    inp = next(i for i in m.graph.input if i.name not in inits)
    base = os.path.splitext(model_path)[0]
    pixels = read_pgm(base + ".pgm").astype(np.float32).reshape(dims(inp))
    out_shape = dims(m.graph.output[0])
    values = np.array(open(base + ".dimg").read().split(), np.float32).reshape(out_shape)
    os.makedirs(out_dir, exist_ok=True)
    open(os.path.join(out_dir, "input_0.pb"), "wb").write(numpy_helper.from_array(pixels, inp.name).SerializeToString())
    out = numpy_helper.from_array(values, m.graph.output[0].name)
    open(os.path.join(out_dir, "output_0.pb"), "wb").write(out.SerializeToString())


if __name__ == "__main__":
    main(*sys.argv[1:])
