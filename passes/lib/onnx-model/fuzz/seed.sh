#!/bin/sh
# Fills corpus/decode/ with the light model-zoo nets shipped in the `onnx`
# Python package (the fuzzing seeds). The corpus is not checked in.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
light=$(python3 -c 'import onnx, os; print(os.path.dirname(onnx.__file__))')/backend/test/data/light
mkdir -p "$here/corpus/decode"
cp "$light"/*.onnx "$here/corpus/decode/"
echo "seeded $(ls "$here/corpus/decode" | wc -l) files into $here/corpus/decode"
