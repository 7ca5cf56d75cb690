#!/usr/bin/env bash
# Convolution speed of the NVDLA simulator (docs/perf.md, docs/simulator.md):
# the model zoo's ResNet-50 (dense convolutions) and ShuffleNet (grouped and
# depthwise convolutions, block-diagonal weights) compiled for nv_full, then
# simulated by the `bench_sim` example of onnc-nvdla-sim with the reference
# convolution loops and the fast ones (zero weights skipped), 1 and 2
# threads, in the same run; it checks that the four outputs are
# byte-identical.
# Usage: tools/bench-sim-conv.sh [RUNS]
#   ONNC=path/to/onnc  compiler to use (default: $CARGO_TARGET_DIR/release/onnc,
#                      else `onnc` on PATH); only the simulator crate is built.
#   OUT=dir            where the loadables go (default target/bench-sim-conv).
set -euo pipefail
cd "$(dirname "$0")/.."
tgt=${CARGO_TARGET_DIR:-target}
onnc=${ONNC:-$tgt/release/onnc}
[ -x "$onnc" ] || onnc=$(command -v onnc) || { echo "no onnc: set ONNC=path/to/onnc" >&2; exit 1; }
out=${OUT:-target/bench-sim-conv}
mkdir -p "$out"
zoo=$(python3 -c 'import onnx,os;print(os.path.join(os.path.dirname(onnx.__file__),"backend","test","data","light"))')
for m in resnet50 shufflenet; do
  [ -s "$out/$m.nvdla" ] ||
    "$onnc" compile "$zoo/light_$m.onnx" --target nv_full -o "$out/$m.nvdla" --progress never >/dev/null
done
cargo run --quiet --release -p onnc-nvdla-sim --example bench_sim -- --runs "${1:-1}" \
  "$out/resnet50.nvdla" "$out/shufflenet.nvdla"
