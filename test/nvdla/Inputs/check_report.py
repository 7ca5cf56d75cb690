"""check_report.py REPORT.json [LOADABLE_DUMP]: the invariants every NVDLA compile report must meet.

Prints one summary line; exits 1 (naming the failed check) when the schema version is not 1,
activation memory is more than 10% above its lower bound, a hardware layer has no ONNX node or
names one that is not a node of the model (an internal split name such as conv/g3), counts
disagree, or (given `onnc-translate --from-nvdla-loadable`'s dump) the report's descriptor count
is not the number of ops in the loadable's task op lists.
"""
import json, re, sys
r = json.load(open(sys.argv[1]))
problems = []
if r.get("schema_version") != 1:
    problems.append(f"schema_version {r.get('schema_version')}, expected 1")
act, bound = r["activation_bytes"], r["activation_lower_bound_bytes"]
if act > 1.10 * bound:
    problems.append(f"activation bytes {act} exceed 1.10 x the lower bound {bound}")
if not r["hw_layers"]:
    problems.append("no hardware layers")
model_nodes = {n["name"] for n in r["onnx_nodes"]}
for l in r["hw_layers"]:
    if not l["onnx_nodes"]:
        problems.append(f"hw layer {l['name']} names no ONNX node")
    for n in l["onnx_nodes"]:
        if n not in model_nodes:
            problems.append(f"hw layer {l['name']} names '{n}', not a node of the model")
engines = r["ops_per_engine"]
dla = sum(v for k, v in engines.items() if k in ("conv", "sdp", "pdp", "cdp", "rubik", "bdma"))
if dla != r["dla_ops"] or engines.get("emu", 0) != r["emu_ops"]:
    problems.append(f"op counts disagree: {engines} vs dla {r['dla_ops']} emu {r['emu_ops']}")
if r["dla_ops"] + r["emu_ops"] != r["descriptors"] or sum(l["descriptors"] for l in r["hw_layers"]) != r["descriptors"]:
    problems.append(f"descriptor totals disagree: {r['descriptors']}")
if len(sys.argv) > 2:
    ops = sum(1 for line in open(sys.argv[2]) if re.match(r"^\s*op \d+ \(", line))
    if ops != r["descriptors"]:
        problems.append(f"the loadable has {ops} ops, the report {r['descriptors']} descriptors")
if r["weight_bytes"] <= 0:
    problems.append("no weights")
name = r["model"].rsplit("/", 1)[-1]
print(f"{name}: {r['dla_ops']} DLA ops, {r['emu_ops']} EMU ops, activations {act} (bound {bound}), weights {r['weight_bytes']}, loadable {r.get('loadable_bytes')}, MACs {r['macs']}")
for p in problems:
    print("FAILED:", p)
sys.exit(1 if problems else 0)
