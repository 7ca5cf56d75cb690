#!/usr/bin/env bash
# The README's first command: set up what is missing, build, run the main job:
# compile the model zoo's ResNet-50 (shipped in the onnx Python package the
# set-up installs) to an NVDLA nv_full loadable, print the per-layer report,
# and check the loadable against the runtime's and firmware's rules.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/bootstrap.sh
cargo build --quiet -p onnc-tools
bin=target/debug
model=$(python3 -c 'import onnx, os; print(os.path.dirname(onnx.__file__))')/backend/test/data/light/light_resnet50.onnx
out=${ONNC_DEMO_DIR:-target/demo}
mkdir -p "$out"

echo "== onnc compile $model --target nv_full"
$bin/onnc compile "$model" --target nv_full --progress always \
  -o "$out/resnet50.nvdla" --report "$out/resnet50.report.json" -gen-ctable "$out/resnet50.ctable.json"
echo "== the loadable against the runtime's and firmware's rules"
$bin/onnc-translate --verify-nvdla-loadable "$out/resnet50.nvdla" --nvdla-atom 32
echo "== wrote $out/resnet50.nvdla, $out/resnet50.report.json (per-layer report), $out/resnet50.ctable.json (CTable template)"
