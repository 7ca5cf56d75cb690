#!/bin/sh
# Seeds the `mlir` fuzz corpus (a scratch folder, default corpus/mlir-seed/)
# from every .mlir file under the repository's test/ folder, cut at
# `// -----` the way `onnc-opt --split-input-file` cuts them, one chunk per
# seed. Fuzz from it, then minimize into the committed corpus/mlir/:
#   ./seed.sh && cargo +nightly fuzz run -s none mlir corpus/mlir corpus/mlir-seed -- -runs=0
#   cargo +nightly fuzz cmin -s none mlir corpus/mlir
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$here/corpus/mlir-seed}
mkdir -p "$out"
find "$repo/test" -name '*.mlir' | sort | while read -r f; do
    name=$(echo "${f#"$repo"/test/}" | tr / _)
    awk -v out="$out/$name" '
        /^\/\/ -----/ { n++; next }
        { print > (out "." n+0) }
    ' "$f"
done
echo "seeded $(ls "$out" | wc -l) files into $out"
