#!/usr/bin/env python3
"""compare_ort.py MODEL.onnx DIR: runs MODEL in onnxruntime on DIR/input_<k>.pb
and compares with DIR/output_<k>.pb (written by onnc-run on the legalized IR).
Prints the worst errors; exits 1 beyond atol 1e-4 + rtol 1e-3 of the output's
largest magnitude."""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

model, d = sys.argv[1], sys.argv[2]


def load(p):
    t = onnx.TensorProto()
    t.ParseFromString(open(p, "rb").read())
    return numpy_helper.to_array(t)


opts = ort.SessionOptions()
opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
s = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
feeds = {i.name: load(os.path.join(d, f"input_{k}.pb")) for k, i in enumerate(s.get_inputs())}
outs = s.run(None, feeds)
ok = True
for k, ref in enumerate(outs):
    got = load(os.path.join(d, f"output_{k}.pb")).reshape(ref.shape)
    err = float(np.max(np.abs(ref.astype(np.float64) - got)))
    scale = float(np.max(np.abs(ref)))
    good = err <= 1e-4 + 1e-3 * scale
    ok &= good
    print(f"output {k}: max abs error {err:.3g} (max |value| {scale:.3g}) {'ok' if good else 'MISMATCH'}")
sys.exit(0 if ok else 1)
