#!/usr/bin/env python3
"""Writes the ONNX backend *node* test cases to disk in the standard layout.

Recent `onnx` wheels ship `backend/test/data/{light,pytorch-converted,
pytorch-operator,simple}` but not `node/`; the node cases live as Python
code (`onnx.backend.test.case.node`). This script materializes them as
`<out>/<case>/model.onnx` and `<out>/<case>/test_data_set_<k>/{input,output}_<j>.pb`,
the layout the other folders use, for `onnc-interp`'s conformance test.

Usage: python3 gen_onnx_node_data.py [OUT]
OUT defaults to `<onnx package>/backend/test/data/node`.
Pinned by whatever `onnx` is installed (the test records its version).
"""
import os
import shutil
import sys

import onnx
from onnx import TensorProto, numpy_helper
from onnx.backend.test.case import node


def write_value(path, value, type_proto, name):
    if isinstance(value, TensorProto):
        data = value.SerializeToString()
    elif type_proto.HasField("sequence_type"):
        data = numpy_helper.from_list(value, name).SerializeToString()
    elif type_proto.HasField("optional_type"):
        data = numpy_helper.from_optional(value, name).SerializeToString()
    elif type_proto.HasField("map_type"):
        data = numpy_helper.from_dict(value, name).SerializeToString()
    else:
        data = numpy_helper.from_array(value, name).SerializeToString()
    with open(path, "wb") as f:
        f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    os.makedirs(out, exist_ok=True)
    n = 0
    for case in node.collect_testcases():
        d = os.path.join(out, case.name)
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        g = case.model.graph
        for k, (inputs, outputs) in enumerate(case.data_sets):
            ds = os.path.join(d, f"test_data_set_{k}")
            os.makedirs(ds)
            for j, v in enumerate(inputs):
                write_value(os.path.join(ds, f"input_{j}.pb"), v, g.input[j].type, g.input[j].name)
            for j, v in enumerate(outputs):
                write_value(os.path.join(ds, f"output_{j}.pb"), v, g.output[j].type, g.output[j].name)
        n += 1
    print(f"wrote {n} node cases to {out} (onnx {onnx.__version__})")


if __name__ == "__main__":
    main()
