#!/usr/bin/env bash
# The README's second command: set up what is missing, then run every test
# (unit tests, doc tests, and the lit suite through tools/tests/lit.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/bootstrap.sh
cargo test --workspace --no-fail-fast "$@"
