#!/usr/bin/env bash
# The README's first command: set up what is missing, build, and run the main job.
# Until the NVDLA issues land, the main job runs a pass pipeline over a bundled
# example (verify, dead-code elimination, CSE) and prints the IR after each pass.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/bootstrap.sh
cargo build --quiet -p onnc-tools
target/debug/onnc-opt docs/examples/small-cnn.mlir \
  --pass-pipeline='builtin.module(onnc-verify,func.func(onnc-dce),cse)' \
  --mlir-print-ir-after-change --mlir-timing
