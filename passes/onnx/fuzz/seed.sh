#!/bin/sh
# Seeds the `onnx` fuzz corpus (a scratch folder, default corpus/onnx-seed/)
# from real models: the light model-zoo nets and the backend node-test models
# of the `onnx` Python package, and every .onnx file under the repository's
# test/ folder. Fuzz from it, then minimize into the committed corpus/onnx/:
#   ./seed.sh && cargo +nightly fuzz run onnx corpus/onnx corpus/onnx-seed -- -runs=0
#   cargo +nightly fuzz cmin onnx corpus/onnx
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=${1:-$here/corpus/onnx-seed}
data=$(python3 -c 'import onnx, os; print(os.path.dirname(onnx.__file__))')/backend/test/data
mkdir -p "$out"
cp "$data"/light/*.onnx "$out/"
for m in "$data"/node/*/model.onnx; do
    cp "$m" "$out/node_$(basename "$(dirname "$m")").onnx"
done
find "$repo/test" -name '*.onnx' | while read -r m; do
    cp "$m" "$out/test_$(echo "${m#"$repo"/test/}" | tr / _)"
done
echo "seeded $(ls "$out" | wc -l) files into $out"
