#!/usr/bin/env python3
"""check_names.py ORIGINAL.onnx EXPORTED.onnx: which of the original node
names the exported model still has, and its node metadata.

Prints one line per exported node, `node NAME (OP)` plus its metadata_props
as `KEY=VALUE`, then `kept K of N original node names` and the names lost.
The checker and onnxruntime are check_export.py's job.
"""
import sys

import onnx

orig = onnx.load(sys.argv[1])
new = onnx.load(sys.argv[2])
for n in new.graph.node:
    meta = " ".join(f"{p.key}={p.value}" for p in n.metadata_props)
    print(f"node {n.name} ({n.op_type}) {meta}".rstrip())
names = {n.name for n in new.graph.node}
wanted = [n.name for n in orig.graph.node]
lost = [n for n in wanted if not any(m == n or m.startswith(n + "/") or n in m.split("+") for m in names)]
print(f"kept {len(wanted) - len(lost)} of {len(wanted)} original node names")
for n in lost:
    print(f"lost {n}")
