#!/usr/bin/env python3
"""The I/O floor of compiling a model (docs/perf.md, issue #17): load the ONNX
file with the onnx package, convert every initializer to FP16, and write the
bytes to a file. No compiler can do less work than this and still read the
model and write its weights; `tools/bench-compile.sh` reports onnc's compile
time as a multiple of it, measured in the same run.

Usage: bench_io_floor.py MODEL.onnx OUT.bin
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def main() -> None:
    model = onnx.load(sys.argv[1])
    with open(sys.argv[2], "wb") as out:
        for init in model.graph.initializer:
            out.write(numpy_helper.to_array(init).astype(np.float16).tobytes())


if __name__ == "__main__":
    main()
