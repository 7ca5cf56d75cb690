#!/usr/bin/env bash
# Calibration benchmark (docs/perf.md "## Calibration", issue #18): the model
# zoo's light ResNet-50 with seeded random weights, N seeded inputs (default
# 64) in the ONNX test-data layout; onnxruntime runs the N inferences and
# onnc-calib calibrates over the N sets, side by side in one run; prints the
# times and the ratio (goal: one pass + entropy <= 2x onnxruntime).
# Usage: tools/bench-calib.sh [N] [OUT]   (release build; CARGO_TARGET_DIR
# honoured; OUT defaults to /tmp/onnc-bench-calib; needs numpy, onnx and
# onnxruntime)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p onnc-calib --example bench_calib
exe=${CARGO_TARGET_DIR:-target}/release/examples/bench_calib
python3 tools/bench_calib.py "${2:-/tmp/onnc-bench-calib}" "${1:-64}" "$exe"
