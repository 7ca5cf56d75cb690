#!/usr/bin/env bash
# Installs what onnc needs and is missing; quiet and quick when all is there.
#   - Debian packages: LLVM/MLIR 22 (static libs, headers, mlir-opt, FileCheck, lit),
#     the C libraries they link against, and cmake (the CMake wrapper's
#     check-onnc target, which CI runs).
#   - Python packages used by tests and fixture scripts: onnx (model zoo and
#     backend test data), onnxruntime (reference outputs), numpy.
#   - Only with `--fuzz` (or ONNC_BOOTSTRAP_FUZZ=1): a nightly toolchain and
#     cargo-fuzz, for the fuzz targets of docs/fuzzing.md. Never by default.
# Safe to run any number of times. Needs root or sudo for apt-get.
set -euo pipefail

WANT_FUZZ=${ONNC_BOOTSTRAP_FUZZ:-0}
for arg in "$@"; do
  case "$arg" in
    --fuzz) WANT_FUZZ=1 ;;
    *) printf 'bootstrap: unknown option %s (known: --fuzz)\n' "$arg" >&2; exit 2 ;;
  esac
done

APT_PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libpolly-22-dev libclang-22-dev
  libzstd-dev libz3-dev libxml2-dev zlib1g-dev g++ python3 cmake
)
PY_PACKAGES=(onnx onnxruntime numpy)
PY_MODULES=(onnx onnxruntime numpy)

say() { printf 'bootstrap: %s\n' "$*" >&2; }

sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root for: $*"; exit 1; fi
}

missing_apt=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_apt+=("$p")
done
if [ ${#missing_apt[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing_apt[*]}"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_apt[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
  say "cargo is missing: install Rust (rustup) first; this machine kind ships it"
  exit 1
fi

PYTHON=${PYTHON:-python3}
missing_py=()
for i in "${!PY_MODULES[@]}"; do
  "$PYTHON" -c "import ${PY_MODULES[$i]}" 2>/dev/null || missing_py+=("${PY_PACKAGES[$i]}")
done
if [ ${#missing_py[@]} -gt 0 ]; then
  say "installing Python packages: ${missing_py[*]}"
  "$PYTHON" -m pip install -q --disable-pip-version-check "${missing_py[@]}" 2>&1 | grep -v -i "running pip as the 'root' user" >&2 || true
  for m in "${PY_MODULES[@]}"; do
    "$PYTHON" -c "import $m" 2>/dev/null || { say "python module '$m' still missing after pip install"; exit 1; }
  done
fi

# Recent onnx wheels do not ship the per-operator backend test data (node/);
# the interpreter's conformance test needs it, so generate it once.
ONNX_DIR=$("$PYTHON" -c 'import onnx, os; print(os.path.dirname(onnx.__file__))')
if [ ! -d "$ONNX_DIR/backend/test/data/node" ]; then
  say "generating the ONNX operator test data into $ONNX_DIR/backend/test/data/node"
  "$PYTHON" "$(dirname "$0")/../tools/interp/scripts/gen_onnx_node_data.py" >/dev/null
fi

for tool in /usr/lib/llvm-22/bin/mlir-opt /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/lit /usr/bin/cmake; do
  [ -x "$tool" ] || { say "expected $tool after installing LLVM 22"; exit 1; }
done

# Optional: cargo-fuzz and the nightly toolchain it needs (docs/fuzzing.md).
if [ "$WANT_FUZZ" = 1 ]; then
  if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    say "installing the nightly Rust toolchain (for cargo-fuzz)"
    rustup toolchain install nightly --profile minimal >/dev/null
  fi
  if ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz"
    cargo install --locked cargo-fuzz >/dev/null
  fi
fi
