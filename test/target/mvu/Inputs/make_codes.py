"""Writes DIR/input_0.pb: one calibration set of MVU input codes for an input of SHAPE.

Usage: make_codes.py DIR BITS D0,D1,... [frac]
Codes are seeded uniform integers in 0..2^BITS-1, stored as float32 (the
graph input's type); with 'frac', one value is made non-integer (a bad set).
"""
import os
import sys

import numpy as np
from onnx import numpy_helper

out, bits, shape = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3].split(",")]
rng = np.random.default_rng(7)
x = rng.integers(0, 2**bits, size=shape).astype(np.float32)
if len(sys.argv) > 4 and sys.argv[4] == "frac":
    x.flat[5] = 0.5
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
