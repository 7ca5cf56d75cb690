#!/usr/bin/env bash
# Compile-time benchmark (docs/perf.md): every model-zoo light net, ONNX ->
# NVDLA nv_full loadable with the release build, best of N runs (default 3),
# plus loadable size, DLA/EMU op counts and activation memory against its
# lower bound from the report. Usage: tools/bench-compile.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p onnc-tools
python3 - "${1:-3}" <<'PY'
import json, os, subprocess, sys, time, onnx
runs = int(sys.argv[1])
data = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
out = "target/bench-compile"
os.makedirs(out, exist_ok=True)
print(f"{'net':<14} {'best s':>8} {'loadable B':>12} {'DLA ops':>8} {'EMU ops':>8} {'act B':>10} {'bound B':>10} {'weights B':>11}")
for net in ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50", "shufflenet", "squeezenet", "vgg19", "zfnet512"]:
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(["target/release/onnc", "compile", f"{data}/light_{net}.onnx", "--target", "nv_full",
                        "-o", f"{out}/{net}.nvdla", "--report", f"{out}/{net}.json"], check=True, stdout=subprocess.DEVNULL)
        t = time.perf_counter() - t
        best = t if best is None else min(best, t)
    r = json.load(open(f"{out}/{net}.json"))
    print(f"{net:<14} {best:8.3f} {os.path.getsize(f'{out}/{net}.nvdla'):12d} {r['dla_ops']:8d} {r['emu_ops']:8d} "
          f"{r['activation_bytes']:10d} {r['activation_lower_bound_bytes']:10d} {r['weight_bytes']:11d}")
PY
