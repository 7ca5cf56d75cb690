#!/usr/bin/env python3
"""Architectures × targets: export, compile every cell with `onnc`, write docs/support.md.

    python3 tools/support_table.py all --onnc BIN --onnc-run BIN --scratch DIR [--out docs/support.md]
    python3 tools/support_table.py export --scratch DIR            # needs torch (tools/support_models.py)
    python3 tools/support_table.py run --onnc BIN --onnc-run BIN --scratch DIR
    python3 tools/support_table.py table --results DIR/results.json --out docs/support.md
    python3 tools/support_table.py import --page docs/support.md --out DIR/results.json

`run` compiles each exported model once per cell (CELLS below), one compile at a
time, each under `--timeout` seconds, and writes `DIR/results.json`: per model and
cell a status (ok / refused / error / timeout / skipped), the first reason
(shortened) and the wall time. `table` turns a results file into the markdown of
docs/support.md; it needs neither torch nor onnc (test/docs/support-table.test
runs it on a canned results file). Models are written only under the scratch folder.
`table` also writes the record beside the page (`docs/support.json`), so that a
partial rerun (`run --cells`) can start from the published table: copy it to
`DIR/results.json`. `import` rebuilds such a record from a page written before the
record was kept (its reasons are the page's shortened ones).
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import time

# (column key, column title, what the cell runs)
CELLS = [
    ("nv_full", "nv_full FP16", "onnc compile --target nv_full"),
    ("nv_full_sim", "nv_full sim = interp", "onnc-run --compare-target nv_full --random-inputs 1 (error ≤ 1e-2 of the largest reference magnitude)"),
    ("nv_small", "nv_small INT8", "onnc compile --target nv_small --calib calib/<model>/ (3 random inputs)"),
    ("nv_small_sim", "nv_small sim = interp", "onnc compile --target nv_small --calib calib/<model>/ --check-sim (the first calibration input; INT8 dequantized, RMS error ≤ 0.15 of the RMS reference, same top-1 or a tie)"),
    ("nnie", "nnie", "onnc compile --target nnie --calib calib/<model>/"),
    ("mvu2", "mvu 2-bit", "onnc compile --target mvu --aprec 2 --wprec 2 --oprec 2"),
    ("mvu4", "mvu 4-bit", "onnc compile --target mvu --aprec 4 --wprec 4 --oprec 4"),
    ("mvu8", "mvu 8-bit", "onnc compile --target mvu --aprec 8 --wprec 8 --oprec 8 --calib codes/<model>/ (one set of random 8-bit input codes: a quantizer window per layer)"),
]
STATUSES = ("ok", "refused", "mismatch", "error", "timeout", "skipped")
FAILURES = ("refused", "mismatch", "error", "timeout")
# onnc-run --compare-target's report when the simulated numbers differ.
MISMATCH_MARKER = "against the reference interpreter:"
# Markers of a failure that is onnc's fault rather than a refusal of the model.
ERROR_MARKERS = ("internal error", "panicked", "does not verify", "RUST_BACKTRACE", "stack overflow")
REASON_CHARS = 180


def cell_command(key, onnc, onnc_run, model, calib, out):
    """The argv of cell `key` for `model`, writing into `out`."""
    if key == "nv_full":
        return [onnc, "compile", model, "--target", "nv_full", "-o", out]
    if key == "nv_full_sim":
        return [onnc_run, model, "--compare-target", "nv_full", "--random-inputs", "1"]
    if key == "nv_small":
        return [onnc, "compile", model, "--target", "nv_small", "--calib", calib, "-o", out]
    if key == "nv_small_sim":
        return [onnc, "compile", model, "--target", "nv_small", "--calib", calib, "--check-sim", "-o", out]
    if key == "nnie":
        return [onnc, "compile", model, "--target", "nnie", "--calib", calib, "-o", out]
    if key.startswith("mvu"):
        bits = key[3:]
        argv = [onnc, "compile", model, "--target", "mvu", "--aprec", bits, "--wprec", bits, "--oprec", bits, "-o", out]
        if key == "mvu8":
            # SCRATCH/codes/<model>, beside SCRATCH/calib/<model> (write_codes)
            codes = os.path.join(os.path.dirname(os.path.dirname(calib)), "codes", os.path.basename(calib))
            argv[-2:-2] = ["--calib", codes]
        return argv
    raise ValueError(f"unknown cell {key!r}")


def write_codes(scratch, name, shape, bits=8):
    """SCRATCH/codes/<name>/sample_0.npy: one seeded set of unsigned `bits`-bit input
    codes of `shape` (float32), the MVU's calibration input."""
    import numpy as np

    d = os.path.join(scratch, "codes", name)
    os.makedirs(d, exist_ok=True)
    x = np.random.default_rng(100).integers(0, 2**bits, size=shape).astype(np.float32)
    np.save(os.path.join(d, "sample_0.npy"), x)


def first_reason(stderr, scratch):
    """The first diagnostic line of `stderr`, without scratch paths, at most REASON_CHARS characters."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    # The first diagnostic in the one form (`file: node 'X' (Op): error: ...`), not the
    # closing summary (`error: 8 problems; ...`), which only counts them.
    summary = re.compile(r"error: \d+ problems?\b")
    pick = next((l for l in lines if ": error: " in l and not summary.match(l)), None)
    pick = pick or next((l for l in lines if re.match(r"(error|onnc[\w-]*: error)", l, re.I) and not summary.match(l)), None)
    pick = pick or next((l for l in lines if re.match(r"(error|onnc[\w-]*: error)", l, re.I)), None)
    pick = pick or next((l for l in lines if not l.startswith(("warning", "note", "[", "progress"))), "")
    # A header (`the loadable does not compute the model …:`, then `M on T … interpreter:`):
    # its first item says what failed.
    at = lines.index(pick) if pick in lines else -1
    while at >= 0 and lines[at].endswith(":") and at + 1 < len(lines):
        at += 1
        pick = "output " + lines[at]
    pick = pick.replace(scratch.rstrip("/") + "/", "")
    pick = re.sub(r"^(onnc[\w-]*: )?error(\[[^\]]*\])?: ", "", pick)
    pick = re.sub(r"^[^\s:]+\.onnx: (error: )?", "", pick)
    pick = pick.replace(": error: ", ": ", 1)
    return pick if len(pick) <= REASON_CHARS else pick[: REASON_CHARS - 1] + "…"


def classify(returncode, stderr):
    """ok / refused / mismatch / error from a finished process: a refusal is exit 1 with a
    diagnostic; a mismatch is a simulation that ran and computed other numbers."""
    if returncode == 0:
        return "ok"
    if returncode == 1 and MISMATCH_MARKER in stderr:
        return "mismatch"
    if returncode != 1 or any(m in stderr for m in ERROR_MARKERS):
        return "error"
    return "refused"


def run_cell(argv, timeout, scratch):
    """Runs one cell under `nice -n 10`; returns {status, reason, seconds}."""
    start = time.monotonic()
    try:
        p = subprocess.run(["nice", "-n", "10", *argv], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "reason": f"no result in {timeout} s", "seconds": round(time.monotonic() - start, 1)}
    seconds = round(time.monotonic() - start, 1)
    text = p.stderr + p.stdout  # onnc-run reports a comparison on stdout
    status = classify(p.returncode, text)
    reason = "" if status == "ok" else first_reason(text, scratch) or f"exit {p.returncode}"
    return {"status": status, "reason": reason, "seconds": seconds}


def onnc_version(onnc):
    """`onnc --version`'s first line (it names the git hash), or what went wrong."""
    try:
        return subprocess.run([onnc, "--version"], capture_output=True, text=True, timeout=60).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired) as e:
        return f"unknown ({e})"


def git_hash():
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def run_all(args):
    """Compiles every exported model in every cell; writes and returns results.json's record."""
    with open(os.path.join(args.scratch, "export.json")) as f:
        exported = json.load(f)
    results_path = os.path.join(args.scratch, "results.json")
    version = onnc_version(args.onnc)
    record = {
        "onnc": version,
        "git": git_hash(),
        "torch": exported["torch"],
        "torchvision": exported["torchvision"],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "timeout": args.timeout,
        "command": " ".join(["python3", "tools/support_table.py", *sys.argv[1:]]).replace(args.scratch, "SCRATCH"),
        "models": [],
        "export_failed": exported["failed"],
    }
    only = set(args.only.split(",")) if args.only else None
    redo = args.cells.split(",") if args.cells else None
    earlier = {}
    if redo:  # update some cells of an earlier run, keep the rest of it
        unknown = set(redo) - {k for k, _, _ in CELLS}
        if unknown:
            raise SystemExit(f"support_table: error: --cells: unknown cells {sorted(unknown)}")
        with open(results_path) as f:
            old = json.load(f)
        earlier = {m["name"]: m for m in old["models"]}
        record = {**old, "command": old["command"] + " && " + record["command"], "date": record["date"]}
        record["models"] = []
    out = os.path.join(args.scratch, "out")
    for m in exported["models"]:
        if m["name"] in earlier and only and m["name"] not in only:
            record["models"].append(earlier[m["name"]])
            continue
        if only and m["name"] not in only:
            continue
        model = os.path.join(args.scratch, m["name"] + ".onnx")
        calib = os.path.join(args.scratch, "calib", m["name"])
        cells = dict(earlier[m["name"]]["cells"]) if m["name"] in earlier else {}
        for key, _, _ in CELLS:
            if redo and m["name"] in earlier and key not in redo:
                continue
            if key == "nv_full_sim" and cells["nv_full"]["status"] != "ok":
                cells[key] = {"status": "skipped", "reason": "no nv_full loadable", "seconds": 0.0}
                continue
            if key == "nv_small_sim" and cells["nv_small"]["status"] != "ok":
                cells[key] = {"status": "skipped", "reason": "no nv_small loadable", "seconds": 0.0}
                continue
            subprocess.run(["rm", "-rf", out])
            if key == "mvu8":
                write_codes(args.scratch, m["name"], m["shape"])
            cells[key] = run_cell(cell_command(key, args.onnc, args.onnc_run, model, calib, out), args.timeout, args.scratch)
            cells[key]["onnc"] = version  # a partial rerun mixes builds: each cell names its own
            print(f"{m['name']:22} {key:12} {cells[key]['status']:8} {cells[key]['seconds']:7.1f}s {cells[key]['reason']}",
                  file=sys.stderr, flush=True)
        record["models"].append({"name": m["name"], "family": m["family"], "shape": m["shape"], "cells": cells})
        save_results(results_path, record)  # after every model: a stopped run keeps what it measured
    # Once more at the end: models after the last one rerun (`--only`) are copied from
    # the earlier record, and must not be lost from the file.
    save_results(results_path, record)
    subprocess.run(["rm", "-rf", out])
    return record


def save_results(path, record):
    """Writes `record` to `path` through a temporary file renamed over it (a stopped run
    never leaves a half-written results file)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def seconds(s):
    """A wall time for the table: one decimal below 10 s."""
    return f"{s:.1f} s" if s < 10 else f"{s:.0f} s"


def md(text):
    return text.replace("|", "\\|").replace("\n", " ")


def builds_lines(record):
    """The header's `onnc` line(s): the build (`onnc --version`) that measured the cells.
    A partial rerun (`--cells`) mixes builds, so each build is listed with how many
    cells it measured, the first run's build last; a cell without its own version (results files
    written before cells named theirs) was measured by the record's first build."""
    counts = {}
    for m in record["models"]:
        for key, _, _ in CELLS:
            c = m["cells"][key]
            if c["status"] != "skipped":
                v = c.get("onnc", record["onnc"])
                counts[v] = counts.get(v, 0) + 1
    if len(counts) <= 1:
        return [f"* onnc: `{record['onnc'] if not counts else next(iter(counts))}` (checkout `{record['git']}`)"]
    lines = [f"* onnc: {len(counts)} builds measured these cells (the first run's checkout `{record['git']}`):"]
    for v in sorted(counts, key=lambda v: (v == record["onnc"], v)):  # reruns' builds, then the first run's
        lines.append(f"  * `{v}`: {counts[v]} cell{'' if counts[v] == 1 else 's'}")
    return lines


def import_page(text):
    """The results record a page rendered by `render` shows: header, cells (status and
    seconds), first reasons and export failures. A cell's build is the page's one build,
    or, when several measured the page, all of them (the page does not say which cell
    each measured)."""
    record = {"models": [], "export_failed": {}}
    builds, first_git = [], None
    titles = {t: k for k, t, _ in CELLS}
    section = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if m := re.match(r"\* command: `(.*)`$", line):
            record["command"] = m.group(1)
        elif m := re.match(r"\* onnc: `(.*)` \(checkout `(.*)`\)$", line):
            builds, first_git = [m.group(1)], m.group(2)
        elif m := re.match(r"\* onnc: \d+ builds measured these cells \(the first run's checkout `(.*)`\):$", line):
            first_git = m.group(1)
        elif m := re.match(r"  \* `(.*)`: \d+ cells?$", line):
            builds.append(m.group(1))
        elif m := re.match(r"\* torch (.*), torchvision (.*)$", line):
            record["torch"], record["torchvision"] = m.group(1), m.group(2)
        elif m := re.match(r"\* date: (.*); per-cell timeout (\d+) s$", line):
            record["date"], record["timeout"] = m.group(1), int(m.group(2))
        elif section == "Table" and (m := re.match(r"\| (\S+) \((\S+)\) \| ([\d×]+) \| (.*) \|$", line)):
            cells = {}
            for (key, _, _), cell in zip(CELLS, m.group(4).split(" | ")):
                if cell == "skipped":
                    cells[key] = {"status": "skipped", "reason": "no nv_full loadable", "seconds": 0.0}
                    continue
                c = re.match(r"(\w+) \(([\d.]+) s\)$", cell)
                if not c:
                    raise ValueError(f"page: model {m.group(1)!r}: cannot read cell {cell!r}")
                cells[key] = {"status": c.group(1), "reason": "", "seconds": float(c.group(2))}
            shape = [1] + [int(d) for d in m.group(3).split("×")]
            record["models"].append({"name": m.group(1), "family": m.group(2), "shape": shape, "cells": cells})
        elif section == "First reason of each failure" and (m := re.match(r"\* \*\*(\S+)\*\*, (.+?), (\w+): (.*)$", line)):
            model = next((x for x in record["models"] if x["name"] == m.group(1)), None)
            if model is None or m.group(2) not in titles:
                raise ValueError(f"page: a reason for an unknown cell: {line!r}")
            model["cells"][titles[m.group(2)]]["reason"] = m.group(4).replace("\\|", "|")
        elif section == "Not exported" and (m := re.match(r"\* (\S+): (.*)$", line)):
            record["export_failed"][m.group(1)] = m.group(2).replace("\\|", "|")
    missing = [k for k in ("command", "torch", "date", "timeout") if k not in record]
    if missing or not builds or not record["models"]:
        raise ValueError(f"page: no {', '.join(missing) or 'builds or models'} found; is it a page `table` wrote?")
    record["onnc"] = builds[-1]  # the first run's build is listed last
    record["git"] = first_git
    label = builds[0] if len(builds) == 1 else " or ".join(f"{b}" for b in builds) + " (the page does not say which)"
    for model in record["models"]:
        for c in model["cells"].values():
            c["onnc"] = label
    return record


def render(record):
    """The markdown of docs/support.md for a results record (see run_all); deterministic."""
    for m in record["models"]:
        for key, _, _ in CELLS:
            c = m["cells"].get(key)
            if c is None or c.get("status") not in STATUSES:
                raise ValueError(f"results: model {m['name']!r} has no valid {key!r} cell: {c!r}")
    out = [
        "# Architectures × targets",
        "",
        "Generated by `tools/support_table.py` — do not edit by hand; rerun it",
        "(see \"Rerunning\" below). Random weights (seeded; BatchNorm statistics from one",
        "training-mode pass over random inputs, so activations keep unit scale); what is",
        "measured is whether onnc compiles each architecture for each target and, for",
        "nv_full, whether the simulated FP16 loadable computes the interpreter's numbers.",
        "Not accuracy.",
        "",
        f"* command: `{record['command']}`",
        *builds_lines(record),
        f"* torch {record['torch']}, torchvision {record['torchvision']}",
        f"* date: {record['date']}; per-cell timeout {record['timeout']} s",
        "",
        "## Summary",
        "",
        "| target | ok | refused | mismatch | error | timeout |",
        "|---|---|---|---|---|---|",
    ]
    for key, title, _ in CELLS:
        counts = {s: sum(1 for m in record["models"] if m["cells"][key]["status"] == s) for s in STATUSES}
        out.append(f"| {title} | {counts['ok']} | {counts['refused']} | {counts['mismatch']} | {counts['error']} | {counts['timeout']} |")
    out += ["", f"of {len(record['models'])} architectures.", "", "## Table", "",
            "Each cell: status and wall time (the binaries of the command line, one run at a time,",
            "`nice -n 10`, on a machine shared with other jobs: times are indicative).", "",
            "| architecture | input | " + " | ".join(t for _, t, _ in CELLS) + " |",
            "|---|---|" + "---|" * len(CELLS)]
    for m in record["models"]:
        cells = []
        for key, _, _ in CELLS:
            c = m["cells"][key]
            cells.append(c["status"] if c["status"] == "skipped" else f"{c['status']} ({seconds(c['seconds'])})")
        shape = "×".join(str(d) for d in m["shape"][1:])
        out.append(f"| {m['name']} ({m['family']}) | {shape} | " + " | ".join(cells) + " |")
    out += ["", "## First reason of each failure", "",
            "The first diagnostic line, shortened; paths are relative to the scratch folder.", ""]
    for m in record["models"]:
        for key, title, _ in CELLS:
            c = m["cells"][key]
            if c["status"] in FAILURES:
                out.append(f"* **{m['name']}**, {title}, {c['status']}: {md(c['reason'])}")
    if record.get("export_failed"):
        out += ["", "## Not exported", ""]
        for name in sorted(record["export_failed"]):
            out.append(f"* {name}: {md(record['export_failed'][name])}")
    out += ["", "## Cells", "", "| column | runs |", "|---|---|"]
    out += [f"| {title} | `{md(cmd)}` |" for _, title, cmd in CELLS]
    out += ["", "Status: **ok** exit 0; **refused** exit 1 with a diagnostic; **mismatch** the simulated",
            "loadable ran and its output differs from the interpreter's beyond the tolerance; **error** any other exit,",
            "or a message marking onnc's own fault (" + ", ".join(f"`{m}`" for m in ERROR_MARKERS) + ");",
            "**timeout** no result within the timeout; **skipped** the nv_full compile failed, so",
            "there is nothing to simulate.", ""]
    out += RERUN
    return "\n".join(out)


RERUN = [
    "## Rerunning",
    "",
    "torch is needed only to export the models (into the scratch folder, never committed);",
    "the run takes about an hour on two shared cores:",
    "",
    "<!-- not run: downloads torch (about 3 GB) and compiles 21 full-size networks -->",
    "```sh",
    "python3 -m venv --system-site-packages /tmp/venv && /tmp/venv/bin/pip install torch torchvision",
    "cargo build -p onnc-tools --bin onnc --bin onnc-run",
    "/tmp/venv/bin/python tools/support_table.py all --onnc target/debug/onnc \\",
    "    --onnc-run target/debug/onnc-run --scratch /tmp/support --out docs/support.md",
    "```",
    "",
    "`export`, `run` and `table` do the three steps separately (`run --only a,b` for some",
    "models; `table --results /tmp/support/results.json` rewrites this page and its record,",
    "`docs/support.json`). To recompute some cells and keep the others: copy",
    "`docs/support.json` to `/tmp/support/results.json`, then `run --only a,b --cells nnie,mvu8`",
    "and `table`; each cell keeps the build that measured it.",
    "",
]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("all", "export", "run", "table", "import"):
        p = sub.add_parser(name)
        if name in ("all", "export", "run"):
            p.add_argument("--scratch", required=True, help="folder for models, calibration inputs, results.json")
        if name in ("all", "export"):
            p.add_argument("--models", help="comma-separated subset of the architectures")
        if name in ("all", "run"):
            p.add_argument("--onnc", required=True)
            p.add_argument("--onnc-run", required=True)
            p.add_argument("--timeout", type=int, default=300, help="seconds per cell")
            p.add_argument("--only", help="comma-separated subset of the exported models")
        if name == "run":
            p.add_argument("--cells", help="recompute only these cells (e.g. nv_full_sim) in SCRATCH/results.json")
        if name in ("all", "table"):
            p.add_argument("--out", default="docs/support.md")
        if name == "table":
            p.add_argument("--results", required=True)
        if name == "import":
            p.add_argument("--page", required=True, help="a docs/support.md written by `table`")
            p.add_argument("--out", required=True, help="the results file to write (SCRATCH/results.json)")
    args = ap.parse_args(argv)
    if args.cmd == "import":
        try:
            with open(args.page) as f:
                record = import_page(f.read())
        except (OSError, ValueError) as e:
            print(f"support_table: error: {args.page}: {e}", file=sys.stderr)
            return 1
        save_results(args.out, record)
        print(f"wrote {args.out} ({len(record['models'])} models)", file=sys.stderr)
        return 0
    if args.cmd in ("all", "export"):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import support_models  # torch: only here

        support_models.export_all(args.scratch, args.models.split(",") if args.models else None)
    if args.cmd == "export":
        return 0
    if args.cmd in ("all", "run"):
        args.scratch = os.path.abspath(args.scratch)
        if args.cmd == "all":
            args.only = args.cells = None
        record = run_all(args)
        if args.cmd == "run":
            return 0
    else:
        with open(args.results) as f:
            record = json.load(f)
    try:
        text = render(record)
    except (KeyError, TypeError, ValueError) as e:
        print(f"support_table: error: {args.results if args.cmd == 'table' else 'results'}: {e}", file=sys.stderr)
        return 1
    with open(args.out, "w") as f:
        f.write(text)
    # The record beside the page, for partial reruns (module doc).
    save_results(os.path.splitext(args.out)[0] + ".json", record)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
