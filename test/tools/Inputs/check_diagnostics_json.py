"""Checks `--diagnostics-format json` output (JSON Lines, schema version 1)
and prints one line per object for FileCheck.

Usage: check_diagnostics_json.py FILE
Every line must be a JSON object with kind "diagnostic" or "summary" and
version 1; diagnostics need severity (error|warning|note|remark) and a
string message, and may carry file, node, op, fix, value (strings), notes (list
of strings), line, col (positive integers) and span {start, end}; the
summary, last and only once, counts the errors and warnings before it.
Exit 1 with the reason on any violation.
"""
import json
import sys

STRINGS = {"file", "node", "op", "fix", "message", "value"}
KNOWN = STRINGS | {"kind", "version", "severity", "notes", "line", "col", "span"}


def fail(why):
    print(f"invalid diagnostics JSON: {why}")
    sys.exit(1)


def main(path):
    lines = [l for l in open(path, encoding="utf-8").read().splitlines() if l]
    if not lines:
        fail("no output")
    seen = {"error": 0, "warning": 0}
    for i, raw in enumerate(lines):
        obj = json.loads(raw)
        if obj.get("version") != 1:
            fail(f"line {i + 1}: version {obj.get('version')!r}")
        if obj.get("kind") == "summary":
            if i != len(lines) - 1:
                fail("the summary is not last")
            if (obj["errors"], obj["warnings"]) != (seen["error"], seen["warning"]):
                fail(f"summary counts {obj} but saw {seen}")
            print(f"summary errors={obj['errors']} warnings={obj['warnings']} stopped={obj.get('stopped')}")
            continue
        if obj.get("kind") != "diagnostic":
            fail(f"line {i + 1}: kind {obj.get('kind')!r}")
        if set(obj) - KNOWN:
            fail(f"line {i + 1}: unknown keys {sorted(set(obj) - KNOWN)}")
        if obj.get("severity") not in ("error", "warning", "note", "remark"):
            fail(f"line {i + 1}: severity {obj.get('severity')!r}")
        for k in STRINGS & set(obj):
            if not isinstance(obj[k], str):
                fail(f"line {i + 1}: {k} is not a string")
        for k in ("line", "col"):
            if k in obj and not (isinstance(obj[k], int) and obj[k] > 0):
                fail(f"line {i + 1}: {k} {obj[k]!r}")
        if "notes" in obj and not all(isinstance(n, str) for n in obj["notes"]):
            fail(f"line {i + 1}: notes")
        if "span" in obj and not (0 <= obj["span"]["start"] <= obj["span"]["end"]):
            fail(f"line {i + 1}: span {obj['span']}")
        seen[obj["severity"]] = seen.get(obj["severity"], 0) + 1
        where = " ".join(f"{k}={obj[k]}" for k in ("node", "op") if k in obj)
        print(f"{obj['severity']} {where} message={obj['message']} fix={obj.get('fix')}")


main(sys.argv[1])
