#!/usr/bin/env bash
# The README's first command: set up what is missing, build, run the main job.
# Until the NVDLA lowering and loadable emitter land, the main job is the front
# half of `onnc compile`: import the model zoo's ResNet-50 (from the onnx
# package), simplify it to static shapes, legalize it for nv_full with egg, and
# print the legalization report, the IR's op counts, and a check of the
# legalized IR against the original with the reference interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/bootstrap.sh
cargo build --quiet -p onnc-tools
bin=target/debug
model=$(python3 -c 'import onnx, os; print(os.path.dirname(onnx.__file__))')/backend/test/data/light/light_resnet50.onnx
out=${ONNC_DEMO_DIR:-target/demo}
mkdir -p "$out"

echo "== import $model"
$bin/onnc-translate --import-onnx "$model" -o "$out/resnet50.mlir"
echo "== onnx-simplify, onnc-legalize{target=nv_full}"
$bin/onnc-opt "$out/resnet50.mlir" \
  --pass-pipeline='builtin.module(onnx-simplify,onnc-legalize{target=nv_full report=true},onnc-verify)' \
  --mlir-timing -o "$out/resnet50.nv_full.mlir"
echo "== ops after legalization ($out/resnet50.nv_full.mlir)"
grep -o '"onnx\.[a-z_]*"' "$out/resnet50.nv_full.mlir" | sort | uniq -c | sort -rn
echo "== numerics: legalized IR vs. the imported model (reference interpreter, seeded inputs)"
$bin/onnc-opt "$out/resnet50.mlir" --pass-pipeline='builtin.module(onnx-simplify)' -o "$out/resnet50.simplified.mlir"
$bin/onnc-run "$out/resnet50.simplified.mlir" --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 1
