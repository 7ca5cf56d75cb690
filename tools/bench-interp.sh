#!/usr/bin/env bash
# Interpreter benchmark (docs/perf.md, "## Interpreter"; issue 18's speed goal):
# the same N ResNet-50 inferences (default 64) through onnc's reference
# interpreter and through onnxruntime, side by side in one run, on THREADS
# threads (default 2: RAYON_NUM_THREADS for onnc, intra-op threads for
# onnxruntime). The model is the onnx package's light ResNet-50 with seeded
# random weights, the inputs seeded uniform [-1, 1) (tools/bench_interp.py
# writes both under $CARGO_TARGET_DIR/bench-interp, or target/bench-interp).
# ROUNDS (default 2) alternates the two engines and keeps each one's best,
# so that a burst of other load does not favour either. Prints each time,
# the interpreter's worst difference from onnxruntime's outputs and the ratio
# (goal: interpreter <= 2x onnxruntime).
# Usage: tools/bench-interp.sh [N]   (env: THREADS, ROUNDS)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-64}
threads=${THREADS:-2}
rounds=${ROUNDS:-2}
out=${CARGO_TARGET_DIR:-target}/bench-interp
python3 tools/bench_interp.py "$out" "$n" --ort "$threads" --save-outputs 2>/dev/null >/dev/null
cargo bench --quiet -p onnc-interp --bench resnet50_batch --no-run 2>/dev/null
interp() {
    RAYON_NUM_THREADS=$threads cargo bench --quiet -p onnc-interp --bench resnet50_batch -- "$out" "$n" "$@" 2>/dev/null
}
best_ort= best_seq= best_par= diff=
for _ in $(seq "$rounds"); do
    t=$(python3 tools/bench_interp.py "$out" "$n" --ort "$threads" 2>/dev/null | sed -n 's/^onnxruntime_seconds=//p')
    best_ort=$(python3 -c "print(min(x for x in [$t, ${best_ort:-1e9}]))")
    r=$(interp)
    t=$(sed -n 's/^interp_seconds=//p' <<<"$r")
    diff=$(sed -n 's/^vs_onnxruntime: //p' <<<"$r")
    best_seq=$(python3 -c "print(min(x for x in [$t, ${best_seq:-1e9}]))")
    t=$(interp --sets-parallel | sed -n 's/^interp_seconds=//p')
    best_par=$(python3 -c "print(min(x for x in [$t, ${best_par:-1e9}]))")
done
python3 - "$n" "$threads" "$rounds" "$best_ort" "$best_seq" "$best_par" "$diff" <<'PY'
import os, sys
n, threads, rounds = sys.argv[1:4]
ort, seq, par = map(float, sys.argv[4:7])
print(f"ResNet-50 (light, random weights) 1x3x224x224, {n} inferences, {threads} threads, best of {rounds}; "
      f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
print(f"  onnxruntime (CPU provider)             {ort:8.3f} s  {1000 * ort / int(n):7.1f} ms/inference")
print(f"  onnc interpreter, one input at a time  {seq:8.3f} s  {1000 * seq / int(n):7.1f} ms/inference  ratio {seq / ort:.2f}x")
print(f"  onnc interpreter, inputs in parallel   {par:8.3f} s  {1000 * par / int(n):7.1f} ms/inference  ratio {par / ort:.2f}x")
print(f"  interpreter vs onnxruntime outputs: {sys.argv[7]}")
print(f"  goal (issue 18): ratio <= 2: {'met' if min(seq, par) <= 2 * ort else 'NOT met'}")
PY
