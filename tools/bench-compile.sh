#!/usr/bin/env bash
# Compile-time benchmark (docs/perf.md): every model-zoo light net, ONNX ->
# NVDLA nv_full loadable with the release build, best of N runs (default 3),
# side by side in one run with
#   - the I/O floor: tools/bench_io_floor.py (onnx package: load, every
#     initializer to FP16, write) -- the least any compiler must do;
#   - optionally a baseline onnc binary (BASELINE=path/to/onnc, e.g. built
#     from an earlier commit), whose loadables must be the same bytes;
# with peak RSS (the process high-water mark) as a multiple of the ONNX file
# size, plus loadable size, DLA/EMU ops and activation memory from the report.
# Usage: tools/bench-compile.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p onnc-tools
python3 - "${1:-3}" <<'PY'
import json, os, resource, subprocess, sys, time, onnx
runs = int(sys.argv[1])
data = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
out = "target/bench-compile"
os.makedirs(out, exist_ok=True)
B = "target/release"

def run(cmds):
    """Wall time and the largest peak RSS (MiB) of a sequence of commands."""
    t = time.perf_counter()
    peak = 0
    for c in cmds:
        p = subprocess.Popen(c, stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if status != 0:
            sys.exit(f"failed: {' '.join(c)}")
        peak = max(peak, ru.ru_maxrss / 1024)
    return time.perf_counter() - t, peak

def best(cmds):
    rs = [run(cmds) for _ in range(runs)]
    return min(r[0] for r in rs), max(r[1] for r in rs)

print(f"{'net':<14} {'MiB':>6} {'floor s':>8} {'onnc s':>8} {'x floor':>8} {'base s':>8} {'x onnc':>7} "
      f"{'RSS MiB':>8} {'x file':>7} {'base RSS':>8} {'same':>5} {'DLA':>5} {'act B':>10} {'bound B':>10}")
for net in ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50", "shufflenet", "squeezenet", "vgg19", "zfnet512"]:
    m = f"{data}/light_{net}.onnx"
    size = os.path.getsize(m) / 2**20
    floor, _ = best([["python3", "tools/bench_io_floor.py", m, f"{out}/{net}.fp16"]])
    t, rss = best([[f"{B}/onnc", "compile", m, "--target", "nv_full", "-o", f"{out}/{net}.nvdla",
                    "--report", f"{out}/{net}.json"]])
    base = os.environ.get("BASELINE")
    if base:
        tt, trss = best([[base, "compile", m, "--target", "nv_full", "-o", f"{out}/{net}.base.nvdla"]])
        same = str(open(f"{out}/{net}.nvdla", "rb").read() == open(f"{out}/{net}.base.nvdla", "rb").read())
    else:
        tt, trss, same = float("nan"), float("nan"), "-"
    r = json.load(open(f"{out}/{net}.json"))
    print(f"{net:<14} {size:6.1f} {floor:8.3f} {t:8.3f} {t / floor:8.2f} {tt:8.3f} {tt / t:7.2f} "
          f"{rss:8.0f} {rss / size:7.2f} {trss:8.0f} {same:>5} {r['dla_ops']:5d} "
          f"{r['activation_bytes']:10d} {r['activation_lower_bound_bytes']:10d}")
PY
