"""check_report.py REPORT.json: the invariants every NVDLA compile report must meet.

Prints one summary line; exits 1 (naming the failed check) when activation memory is more
than 10% above its lower bound, a hardware layer has no ONNX node, or counts disagree.
"""
import json, sys
r = json.load(open(sys.argv[1]))
problems = []
act, bound = r["activation_bytes"], r["activation_lower_bound_bytes"]
if act > 1.10 * bound:
    problems.append(f"activation bytes {act} exceed 1.10 x the lower bound {bound}")
if not r["hw_layers"]:
    problems.append("no hardware layers")
for l in r["hw_layers"]:
    if not l["onnx_nodes"]:
        problems.append(f"hw layer {l['name']} names no ONNX node")
engines = r["ops_per_engine"]
dla = sum(v for k, v in engines.items() if k in ("conv", "sdp", "pdp", "cdp", "rubik", "bdma"))
if dla != r["dla_ops"] or engines.get("emu", 0) != r["emu_ops"]:
    problems.append(f"op counts disagree: {engines} vs dla {r['dla_ops']} emu {r['emu_ops']}")
if r["weight_bytes"] <= 0:
    problems.append("no weights")
name = r["model"].rsplit("/", 1)[-1]
print(f"{name}: {r['dla_ops']} DLA ops, {r['emu_ops']} EMU ops, activations {act} (bound {bound}), weights {r['weight_bytes']}, loadable {r.get('loadable_bytes')}")
for p in problems:
    print("FAILED:", p)
sys.exit(1 if problems else 0)
