#!/usr/bin/env bash
# Simulator benchmark (docs/perf.md, docs/simulator.md): the model zoo's
# ResNet-50 compiled for nv_full (FP16, 224x224), then simulated by
# `onnc-run model.nvdla` with 1 and 2 threads (RAYON_NUM_THREADS), best of N
# runs (default 3). Side by side, in the same run: onnc's reference
# interpreter and onnxruntime on the ONNX model with the same input. Also
# checks that the simulated outputs are byte-identical for 1 and 2 threads.
# Usage: tools/bench-sim.sh [RUNS]   (release build; CARGO_TARGET_DIR honoured)
# The convolution loops alone (fast vs reference, ResNet-50 and ShuffleNet, builds
# only the simulator crate): tools/bench-sim-conv.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p onnc-tools
bin=${CARGO_TARGET_DIR:-target}/release
python3 - "${1:-3}" "$bin" <<'PY'
import os, subprocess, sys, time
import numpy as np, onnx, onnxruntime as ort
from onnx import numpy_helper
runs, bin = int(sys.argv[1]), sys.argv[2]
model = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light", "light_resnet50.onnx")
out = "target/bench-sim"
os.makedirs(f"{out}/in", exist_ok=True)
m = onnx.load(model, load_external_data=False)
inp = m.graph.input[0]
shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
x = np.random.default_rng(1).uniform(-1, 1, shape).astype(np.float32)
open(f"{out}/in/input_0.pb", "wb").write(numpy_helper.from_array(x, inp.name).SerializeToString())
subprocess.run([f"{bin}/onnc", "compile", model, "--target", "nv_full", "-o", f"{out}/resnet50.nvdla", "--progress", "never"], check=True, stdout=subprocess.DEVNULL)

def best(cmd, env=None):
    b = None
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        t = time.perf_counter() - t
        b = t if b is None else min(b, t)
    return b

res = {}
for threads in (1, 2):
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    res[threads] = best([f"{bin}/onnc-run", f"{out}/resnet50.nvdla", "--inputs", f"{out}/in", "--outputs", f"{out}/sim{threads}"], env)
same = open(f"{out}/sim1/output_0.pb", "rb").read() == open(f"{out}/sim2/output_0.pb", "rb").read()
interp = best([f"{bin}/onnc-run", model, "--inputs", f"{out}/in"])
sess = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
b = None
for _ in range(runs):
    t = time.perf_counter(); sess.run(None, {inp.name: x}); t = time.perf_counter() - t
    b = t if b is None else min(b, t)
print(f"ResNet-50 nv_full FP16 224x224, best of {runs}, {os.cpu_count()} cores")
print(f"  simulator, 1 thread     {res[1]:8.2f} s")
print(f"  simulator, 2 threads    {res[2]:8.2f} s   (outputs identical across thread counts: {same})")
print(f"  onnc interpreter (fp32) {interp:8.2f} s   simulator/interpreter = {res[2] / interp:.1f}x")
print(f"  onnxruntime (fp32)      {b:8.3f} s   simulator/onnxruntime = {res[2] / b:.0f}x")
sys.exit(0 if same else 1)
PY
