#!/usr/bin/env python3
"""Calibration benchmark helper (tools/bench-calib.sh, docs/perf.md "## Calibration").

In: an output folder OUT, a set count N (default 64) and the bench_calib
binary. Out, in OUT: resnet50.onnx — the onnx package's light ResNet-50 with
seeded random weights (its ConstantOfShape weights become initializers:
conv/FC uniform +-sqrt(3/fan-in), BN scale [0.5, 1), variance [1, 2), other
vectors +-0.1) — and calib/test_data_set_I/input_0.pb, N seeded
1x3x224x224 inputs uniform in [-1, 1). Then, side by side:
onnxruntime running the same N inferences (CPU, default threads, one
warm-up first) and onnc-calib calibrating over the N sets; prints both and
the ratio. Exit status 0 whatever the ratio (a measurement, not a test).
"""
import os
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper


def random_weights(model, seed):
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    role = {}
    for n in g.node:
        for k, i in enumerate(n.input):
            role.setdefault(i, (n.op_type, k))
    rng = np.random.default_rng(seed)
    nodes = []
    for n in g.node:
        shape = None
        if n.op_type == "ConstantOfShape" and n.input[0] in inits:
            shape = [int(d) for d in numpy_helper.to_array(inits[n.input[0]])]
        if not shape or int(np.prod(shape)) <= 1:
            nodes.append(n)
            continue
        r = role.get(n.output[0])
        if len(shape) >= 2:
            b = float(np.sqrt(3.0 / (int(np.prod(shape)) // shape[0])))
            lo, hi = -b, b
        elif r == ("BatchNormalization", 1):
            lo, hi = 0.5, 1.0
        elif r == ("BatchNormalization", 4):
            lo, hi = 1.0, 2.0
        else:
            lo, hi = -0.1, 0.1
        g.initializer.append(numpy_helper.from_array(rng.uniform(lo, hi, shape).astype(np.float32), n.output[0]))
    del g.node[:]
    g.node.extend(nodes)
    model.ir_version = max(model.ir_version, 4)
    used = {i for n in g.node for i in n.input}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    names = {t.name for t in g.initializer}
    feeds = [v for v in g.input if v.name in used and v.name not in names]
    del g.input[:]
    g.input.extend(feeds)
    return model


def main():
    out, n, exe = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    zoo = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    model = random_weights(onnx.load(os.path.join(zoo, "light_resnet50.onnx")), 1)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "resnet50.onnx")
    onnx.save(model, path)
    inp = model.graph.input[0]
    shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    rng = np.random.default_rng(2)
    xs = [rng.uniform(-1, 1, shape).astype(np.float32) for _ in range(n)]
    for i, x in enumerate(xs):
        d = os.path.join(out, "calib", f"test_data_set_{i}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, inp.name).SerializeToString())

    import onnxruntime as ort
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    sess.run(None, {inp.name: xs[0]})
    t = time.perf_counter()
    for x in xs:
        sess.run(None, {inp.name: x})
    ort_s = time.perf_counter() - t

    env = dict(os.environ, BENCH_CALIB_INTERP="1")
    res = subprocess.run([exe, path, os.path.join(out, "calib")], check=True, capture_output=True, text=True, env=env)
    kv = dict(line.split("=", 1) for line in res.stdout.split() if "=" in line)
    print(f"ResNet-50 (light, random weights), {n} inputs 1x3x224x224, {os.cpu_count()} cores")
    print(f"  onnxruntime {ort.__version__}, {n} inferences    {ort_s:8.2f} s")
    print(f"  onnc interpreter alone, same sets ({kv['threads']} threads) {float(kv['interp_only_seconds']):8.2f} s")
    print(f"  onnc-calib one pass ({kv['threads']} threads, {kv['tensors']} tensors) {float(kv['collect_seconds']):8.2f} s")
    for m in ("max", "percentile_99_99", "entropy", "mse"):
        print(f"    + {m:<18} {float(kv[m + '_seconds']):8.2f} s")
    print(f"  statistics overhead (pass / interpreter alone) {float(kv['collect_seconds']) / float(kv['interp_only_seconds']):8.2f}x")
    print(f"  ratio one pass / onnxruntime          {float(kv['collect_seconds']) / ort_s:8.2f}x")
    print(f"  ratio pass + entropy / onnxruntime    {(float(kv['collect_seconds']) + float(kv['entropy_seconds'])) / ort_s:8.2f}x   (goal <= 2x)")


if __name__ == "__main__":
    main()
