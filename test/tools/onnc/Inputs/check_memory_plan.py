"""check_memory_plan.py REPORT.json MAP.csv PLAN.svg: the memory map and its picture agree with the report.

Checks: every activation tensor of the CSV is one box of the SVG (same count, each box's
title names it with its offset and size); no activation tensor ends beyond the pool; the
dashed line is labelled with the report's lower bound and the solid one with the pool size.
Prints one summary line; exits 1 naming each failed check.
"""
import csv, json, re, sys
r = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
svg = open(sys.argv[3]).read()
problems = []
act = [x for x in rows if x["pool"] == "act"]
boxes = re.findall(r'<rect class="tensor"[^>]*><title>(.*?) offset (\d+) size (\d+) steps', svg)
if len(boxes) != len(act):
    problems.append(f"{len(boxes)} boxes for {len(act)} activation tensors")
for x, (name, off, size) in zip(sorted(act, key=lambda x: (int(x["offset"]), x["tensor"])), sorted(boxes, key=lambda b: (int(b[1]), b[0]))):
    if (x["tensor"], x["offset"], x["size"]) != (name, off, size):
        problems.append(f"box {name}@{off}+{size} vs csv {x['tensor']}@{x['offset']}+{x['size']}")
pool, bound = r["activation_bytes"], r["activation_lower_bound_bytes"]
for x in act:
    if int(x["end"]) > pool:
        problems.append(f"{x['tensor']} ends at {x['end']}, beyond the pool {pool}")
if f"lower bound (max live bytes): {bound}<" not in svg or f"activation pool: {pool}<" not in svg:
    problems.append("the lines are not labelled with the report's lower bound and pool size")
print(f"{len(act)} activation tensors, pool {pool}, lower bound {bound}, {len(rows)} placed tensors")
for p in problems:
    print("FAILED:", p)
sys.exit(1 if problems else 0)
