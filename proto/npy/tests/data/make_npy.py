#!/usr/bin/env python3
"""Writes the .npy fixtures of onnc-npy's tests (tests/numpy_files.rs) with numpy itself.

Every array holds arange(6) as a 2x3 matrix (booleans: arange(6) % 2), so the
test knows the values without reading numpy. Files:
  <dtype>_le.npy / <dtype>_be.npy   every supported dtype, both byte orders, v1.0
  f4_fortran.npy, i2_be_fortran.npy np.asfortranarray (fortran_order True), 2x3
  f4_fortran_3d.npy                 arange(24).reshape(2,3,4), Fortran order
  f4_v2.npy, f4_v3.npy              the same 2x3 float32 with version 2.0 / 3.0 headers
  f4_scalar.npy, f4_empty.npy       shape () = 7.0 and shape (2, 0)
  r11_zeros_1x3x8x8.npy             the hostile-input campaign's R11 reproducer
                                    (research/reviews/repro/run_repros.sh): np.zeros((1,3,8,8), float32)
  huge_shape.npy                    a header claiming 2^40 float32 elements, then 4 bytes
  truncated.npy                     f4_le.npy without its last byte
Run from this folder: python3 make_npy.py (numpy >= 1.17).
"""
import numpy as np
from numpy.lib import format as npf

DTYPES = ["f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "b1"]


def base(code):
    a = np.arange(6).reshape(2, 3)
    return (a % 2).astype("?") if code == "b1" else a.astype(code)


def save(name, arr, version=(1, 0)):
    with open(name, "wb") as f:
        npf.write_array(f, arr, version=version)


for code in DTYPES:
    a = base(code)
    save(f"{code}_le.npy", a.astype(a.dtype.newbyteorder("<")))
    save(f"{code}_be.npy", a.astype(a.dtype.newbyteorder(">")))
save("f4_fortran.npy", np.asfortranarray(base("f4")))
save("i2_be_fortran.npy", np.asfortranarray(base("i2").astype(">i2")))
save("f4_fortran_3d.npy", np.asfortranarray(np.arange(24, dtype="f4").reshape(2, 3, 4)))
save("f4_v2.npy", base("f4"), version=(2, 0))
save("f4_v3.npy", base("f4"), version=(3, 0))
save("f4_scalar.npy", np.array(7.0, dtype="f4"))
save("f4_empty.npy", np.zeros((2, 0), dtype="f4"))
save("r11_zeros_1x3x8x8.npy", np.zeros((1, 3, 8, 8), np.float32))
with open("huge_shape.npy", "wb") as f:
    npf.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (1 << 40,)})
    f.write(b"\0" * 4)
with open("f4_le.npy", "rb") as f:
    whole = f.read()
with open("truncated.npy", "wb") as f:
    f.write(whole[:-1])
