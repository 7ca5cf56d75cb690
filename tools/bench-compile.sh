#!/usr/bin/env bash
# Compile-time benchmark (docs/perf.md): every model-zoo light net with its
# weights stored (materialized once by onnx-simplify + --export-onnx), ONNX ->
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
cargo build --quiet --release -p onnc-tools || exit 1
python3 - "${1:-3}" <<'PY'
import filecmp, json, os, resource, subprocess, sys, time, onnx
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
def materialized(net):
    """The light net with its weights stored: the zoo files make them with
    ConstantOfShape, so the file is a few KB; onnx-simplify folds them and
    --export-onnx writes a model of the real size (VGG-19: 548 MiB)."""
    m = f"{out}/models/{net}.onnx"
    if not os.path.exists(m):
        os.makedirs(f"{out}/models", exist_ok=True)
        subprocess.run([f"{B}/onnc-translate", "--import-onnx", f"{data}/light_{net}.onnx", "-o", f"{out}/models/{net}.mlir"], check=True)
        subprocess.run([f"{B}/onnc-opt", f"{out}/models/{net}.mlir", "--pass-pipeline=builtin.module(onnx-simplify)",
                        "-o", f"{out}/models/{net}.s.mlir"], check=True)
        subprocess.run([f"{B}/onnc-translate", "--export-onnx", f"{out}/models/{net}.s.mlir", "-o", m], check=True)
        for f in (f"{out}/models/{net}.mlir", f"{out}/models/{net}.s.mlir"):
            os.remove(f)
    return m

for net in ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50", "shufflenet", "squeezenet", "vgg19", "zfnet512"]:
    m = materialized(net)
    size = os.path.getsize(m) / 2**20
    floor, _ = best([["python3", "tools/bench_io_floor.py", m, f"{out}/{net}.fp16"]])
    t, rss = best([[f"{B}/onnc", "compile", m, "--target", "nv_full", "-o", f"{out}/{net}.nvdla",
                    "--report", f"{out}/{net}.json"]])
    base = os.environ.get("BASELINE")
    if base:
        tt, trss = best([[base, "compile", m, "--target", "nv_full", "-o", f"{out}/{net}.base.nvdla"]])
        # Compared in chunks: reading both loadables whole grew this script
        # to hundreds of MiB, which every later child inherited at fork and
        # counted in its peak RSS.
        same = str(filecmp.cmp(f"{out}/{net}.nvdla", f"{out}/{net}.base.nvdla", shallow=False))
    else:
        tt, trss, same = float("nan"), float("nan"), "-"
    r = json.load(open(f"{out}/{net}.json"))
    print(f"{net:<14} {size:6.1f} {floor:8.3f} {t:8.3f} {t / floor:8.2f} {tt:8.3f} {tt / t:7.2f} "
          f"{rss:8.0f} {rss / size:7.2f} {trss:8.0f} {same:>5} {r['dla_ops']:5d} "
          f"{r['activation_bytes']:10d} {r['activation_lower_bound_bytes']:10d}")
PY
# Scaling: a 10k Relu chain, a graph with 20k outputs, and a 100k chain,
# which emission refuses (a loadable numbers a task's ops with 16-bit indices).
python3 tools/bench_scaling_models.py target/bench-compile/scaling
python3 - "${1:-3}" <<'PY'
import subprocess, sys, time
runs = int(sys.argv[1])
d = "target/bench-compile/scaling"
def best(m):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(["target/release/onnc", "compile", f"{d}/{m}.onnx", "--target", "nv_full", "-o", f"{d}/{m}.nvdla"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        ts.append(time.perf_counter() - t)
        if r.returncode != 0:
            return min(ts), r.stderr.strip().splitlines()[-1]
    return min(ts), "ok"
for m in ["relu_chain_10000", "outputs_20000", "relu_chain_100000"]:
    t, verdict = best(m)
    print(f"{m:<18} {t:7.2f} s  {verdict}")
PY
