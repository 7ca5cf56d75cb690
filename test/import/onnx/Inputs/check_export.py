#!/usr/bin/env python3
"""check_export.py ORIGINAL.onnx EXPORTED.onnx: the exported model passes
onnx.checker (full check with shape inference) and computes what the
original computes, on seeded random inputs, in onnxruntime. Prints the worst
absolute error per output and exits 1 on a mismatch. Input names are matched
by position (the exporter keeps names, but old models name inputs freely)."""
import sys

import numpy as np
import onnx
import onnxruntime as ort

orig_path, new_path = sys.argv[1], sys.argv[2]
onnx.checker.check_model(onnx.load(new_path), full_check=True)

opts = ort.SessionOptions()
opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
a = ort.InferenceSession(orig_path, opts, providers=["CPUExecutionProvider"])
b = ort.InferenceSession(new_path, opts, providers=["CPUExecutionProvider"])
rng = np.random.default_rng(1234)
feeds_a, feeds_b = {}, {}
for ia, ib in zip(a.get_inputs(), b.get_inputs()):
    shape = [d if isinstance(d, int) else 1 for d in ia.shape]
    x = rng.standard_normal(shape).astype(np.float32)
    feeds_a[ia.name] = x
    feeds_b[ib.name] = x
out_a = a.run(None, feeds_a)
out_b = b.run(None, feeds_b)
ok = True
for i, (x, y) in enumerate(zip(out_a, out_b)):
    x, y = x.astype(np.float64), y.astype(np.float64)
    err = float(np.max(np.abs(x - y))) if x.size else 0.0
    scale = float(np.max(np.abs(x))) if x.size else 0.0
    print(f"output {i}: shape {list(x.shape)} max abs error {err:.3g} (max |value| {scale:.3g})")
    if x.shape != y.shape or err > 1e-4 * max(1.0, scale):
        ok = False
print("MATCH" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
