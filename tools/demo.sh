#!/usr/bin/env bash
# The README's first command: set up what is missing, build, run the main job:
# compile the model zoo's ResNet-50 (shipped in the onnx Python package the
# set-up installs) to an NVDLA nv_full loadable, print the per-layer report,
# and check the loadable against the runtime's and firmware's rules.
#
# Builds only what changed since the last build: the debug build is the one
# `tools/test.sh` (cargo test --workspace) makes, so after the tests this is a
# no-op (see DEVELOPERS.md, "Builds"). `--release` builds and runs the
# optimised tools instead (target/release; a first release build takes a while).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug
cargo_flags=()
for arg in "$@"; do
  case "$arg" in
    --release) profile=release; cargo_flags=(--release) ;;
    *) printf 'demo: unknown option %s (known: --release)\n' "$arg" >&2; exit 2 ;;
  esac
done
tools/bootstrap.sh
cargo build --quiet -p onnc-tools "${cargo_flags[@]}"
# Where cargo put them: honours CARGO_TARGET_DIR and .cargo/config.toml.
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
bin=$target_dir/$profile
model=$(python3 -c 'import onnx, os; print(os.path.dirname(onnx.__file__))')/backend/test/data/light/light_resnet50.onnx
out=${ONNC_DEMO_DIR:-target/demo}
mkdir -p "$out"

echo "== onnc compile $model --target nv_full"
$bin/onnc compile "$model" --target nv_full --progress always \
  -o "$out/resnet50.nvdla" --report "$out/resnet50.report.json" -gen-ctable "$out/resnet50.ctable.json"
echo "== the loadable against the runtime's and firmware's rules"
$bin/onnc-translate --verify-nvdla-loadable "$out/resnet50.nvdla" --nvdla-atom 32
echo "== wrote $out/resnet50.nvdla, $out/resnet50.report.json (per-layer report), $out/resnet50.ctable.json (CTable template)"
