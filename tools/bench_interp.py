#!/usr/bin/env python3
"""Interpreter benchmark helper (docs/perf.md, "## Interpreter").

In: an output folder OUT and a count N (default 64).
Out: OUT/resnet50.onnx — the onnx package's light ResNet-50 with random
weights (its ConstantOfShape weights become seeded initializers, scaled as
passes/nvdla/tests/simulate.rs does: conv/FC ±sqrt(3/fan-in), BN scale
[0.5, 1), variance [1, 2), mean and bias ±0.1) — and OUT/inputs/input_I.pb,
N seeded 1x3x224x224 inputs uniform in [-1, 1).

With --ort THREADS it also times the same N inferences through onnxruntime
(CPU provider, intra-op threads = THREADS, one warm-up run first) and prints
`onnxruntime_seconds=T`; with --save-outputs it writes ort_output_I.pb beside
the inputs so that the interpreter's outputs can be compared.
"""
import argparse
import os
import sys
import time

import numpy as np
import onnx
from onnx import helper, numpy_helper


def light_resnet50():
    d = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    return os.path.join(d, "light_resnet50.onnx")


def randomize(model, seed):
    """Replaces every multi-element ConstantOfShape weight by a random initializer."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    users = {}
    for n in g.node:
        for k, i in enumerate(n.input):
            users.setdefault(i, (n.op_type, k))
    rng = np.random.default_rng(seed)
    kept = []
    for n in g.node:
        shape_t = inits.get(n.input[0]) if n.op_type == "ConstantOfShape" else None
        shape = [int(d) for d in numpy_helper.to_array(shape_t)] if shape_t is not None else None
        if shape is None or int(np.prod(shape)) <= 1:
            kept.append(n)
            continue
        role = users.get(n.output[0])
        if len(shape) >= 2:
            s = float(np.sqrt(3.0 / (np.prod(shape) // shape[0])))
            lo, hi = -s, s
        elif role == ("BatchNormalization", 1):
            lo, hi = 0.5, 1.0
        elif role == ("BatchNormalization", 4):
            lo, hi = 1.0, 2.0
        else:
            lo, hi = -0.1, 0.1
        v = rng.uniform(lo, hi, shape).astype(np.float32)
        g.initializer.append(numpy_helper.from_array(v, n.output[0]))
    del g.node[:]
    g.node.extend(kept)
    # IR 4 lets initializers stand alone (not listed as graph inputs).
    model.ir_version = max(model.ir_version, 4)
    used = {i for n in g.node for i in n.input}
    for t in list(g.initializer):
        if t.name not in used:
            g.initializer.remove(t)
    names = {t.name for t in g.initializer}
    feeds = [v for v in g.input if v.name not in names and v.name in used]
    del g.input[:]
    g.input.extend(feeds)
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("n", type=int, nargs="?", default=64)
    ap.add_argument("--ort", type=int, metavar="THREADS")
    ap.add_argument("--save-outputs", action="store_true")
    a = ap.parse_args()
    model_path = os.path.join(a.out, "resnet50.onnx")
    in_dir = os.path.join(a.out, "inputs")
    os.makedirs(in_dir, exist_ok=True)
    if not os.path.exists(model_path):
        m = randomize(onnx.load(light_resnet50()), 1234)
        onnx.checker.check_model(m)
        onnx.save(m, model_path)
    m = onnx.load(model_path)
    inp = m.graph.input[0]
    shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    rng = np.random.default_rng(7)
    xs = [rng.uniform(-1, 1, shape).astype(np.float32) for _ in range(a.n)]
    for i, x in enumerate(xs):
        p = os.path.join(in_dir, f"input_{i}.pb")
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(numpy_helper.from_array(x, inp.name).SerializeToString())
    if a.ort is None:
        return 0
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = a.ort
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model_path, so, providers=["CPUExecutionProvider"])
    sess.run(None, {inp.name: xs[0]})
    t = time.perf_counter()
    outs = [sess.run(None, {inp.name: x})[0] for x in xs]
    dt = time.perf_counter() - t
    if a.save_outputs:
        name = m.graph.output[0].name
        for i, y in enumerate(outs):
            with open(os.path.join(in_dir, f"ort_output_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(y, name).SerializeToString())
    print(f"onnxruntime_seconds={dt:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
