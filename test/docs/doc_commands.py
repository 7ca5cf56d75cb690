#!/usr/bin/env python3
"""Runs every shell command shown in the documentation, so docs cannot drift.

In:  the fenced ```sh (also bash/shell/console) blocks of README.md,
     DEVELOPERS.md and docs/**/*.md (or the files given with --docs).
Out: one line per command (ok / SKIP with its reason / FAIL with its output),
     then `doc commands: N run, M skipped, K failed (in F files)`; exit 1 when
     any command failed or a block breaks the conventions below.

Conventions (documented in DEVELOPERS.md, "Commands in the docs"):
  * A command is a line of a shell block, joined with the following lines
    while it ends in `\\`. Lines starting with `#` are comments or sample
    output and are not run.
  * `CMD  # not run: REASON` marks a command the suite cannot run (SDK
    machine, nightly toolchain, a release build, the suite itself, ...).
    `<!-- not run: REASON -->` on the line before a fence skips the whole
    block. The reason is required and printed.
  * `CMD  # fails: REASON` documents a command that must exit non-zero
    (1..125, not a crash); it fails the test when it succeeds.
  * A fence without a language tag whose lines look like commands
    (`onnc ...`, `target/debug/...`, `cargo ...`) is an error: tag it ```sh
    (and make it runnable) or ```text when it is a synopsis.
  * Commands run with bash in a fresh scratch folder per markdown file,
    in document order (a command may use the files an earlier one in the
    same file wrote), with the tools first on PATH. The placeholder names the
    docs use are provided there (FIXTURES below): model.onnx / m.onnx /
    M.onnx are test/data/int8-classifiers/plain.onnx (input renamed `data`),
    calib_sets/ and samples/ hold calibration sets made from its calib/
    folder, and so on. `target/debug`, `docs`, `dialects` and `test` are
    links to the tools folder and the repository's folders.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

SHELL_TAGS = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
# A line of an untagged block that is a command someone would copy.
LOOKS_LIKE_COMMAND = re.compile(r"^\s*(\$\s+)?(target/debug/\S+|onnc(-\w+)?|cargo|tools/\S+\.sh|cmake)\s[^()]*\s--?\w")
ANNOTATION = re.compile(r"\s#\s*(not run|fails):\s*(.*)$")
BLOCK_SKIP = re.compile(r"^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$")
TIMEOUT_S = 180

# The placeholder names the docs use and what stands for each in the scratch
# folder (see make_fixtures).
FIXTURES = {
    "model.onnx, m.onnx, M.onnx": "test/data/int8-classifiers/plain.onnx, graph input renamed `data` (1x1x8x8)",
    "calib_sets/, calib_dir/, samples/": "its calib/input_0.npy .. input_7.npy (8 calibration sets)",
    "test_data_set_0/": "input_0.pb (calibration sample 0) and output_0.pb (onnxruntime)",
    "in/, ref/": "the same input_0.pb; output_0.pb",
    "image.npy": "calibration sample 0 as .npy",
    "model.mlir": "onnc-translate --import-onnx model.onnx",
    "model.nvdla, model.nvdla.mlir": "onnc compile model.onnx --target nv_full (loadable, --emit mlir)",
    "BDMA_L0_0_fbuf": "test/data/nvdla-golden/BDMA_L0_0_fbuf",
    "target/debug, docs/, dialects/, test/": "links to the tools folder and the repository's folders",
}


class Command:
    """One command of a shell block: where it is, its text, what to do."""

    def __init__(self, doc, line, text, skip=None, fails=None):
        self.doc, self.line, self.text = doc, line, text
        self.skip = skip  # reason it is not run, or None
        self.fails = fails  # reason it must fail, or None

    def where(self):
        return f"{self.doc}:{self.line}"


def parse_markdown(path, rel):
    """Commands of the shell blocks of one file, and convention errors."""
    commands, errors = [], []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, tag, start = m.group(2), m.group(3).lower(), i + 1
        before = next((t for t in reversed(lines[:i]) if t.strip()), "")
        skip_m = BLOCK_SKIP.match(before)
        block_skip = None
        if skip_m:
            block_skip = skip_m.group(1)
            if not block_skip:
                errors.append(f"{rel}:{i}: '<!-- not run: -->' needs a reason after the colon")
                block_skip = "no reason given"
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if tag in SHELL_TAGS:
            cmds, errs = parse_block(rel, body, block_skip)
            commands += cmds
            errors += errs
        elif tag == "":
            for no, text in body:
                if LOOKS_LIKE_COMMAND.match(text):
                    errors.append(
                        f"{rel}:{no}: an untagged code block (opened on line {start}) holds a command "
                        f"'{text.strip()}': tag the block ```sh so the docs test runs it, or ```text "
                        "when it is a synopsis with placeholders"
                    )
                    break
    return commands, errors


def parse_block(rel, body, block_skip):
    """Splits one shell block into commands (see the module doc)."""
    commands, errors = [], []
    k = 0
    while k < len(body):
        no, text = body[k]
        k += 1
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        logical, last = text, text
        while logical.rstrip().endswith("\\") and k < len(body):
            logical = logical.rstrip()[:-1] + " " + body[k][1].strip()
            last = body[k][1]
            k += 1
        skip = block_skip
        fails = None
        m = ANNOTATION.search(last)
        if m:
            kind, reason = m.group(1), m.group(2).strip()
            if not reason:
                errors.append(f"{rel}:{no}: '# {kind}:' needs a reason after the colon")
            if kind == "not run":
                skip = reason or "no reason given"
            else:
                fails = reason or "no reason given"
        commands.append(Command(rel, no, " ".join(logical.split()), skip, fails))
    return commands, errors


def run(cmd, cwd, env, timeout=TIMEOUT_S):
    """Runs a shell command; returns (exit code, combined output, seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            ["bash", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
        )
        return p.returncode, p.stdout.decode("utf-8", "replace"), time.monotonic() - t0
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return 124, out + f"\n(timed out after {timeout} s)", time.monotonic() - t0


def make_fixtures(base, repo, tools, env):
    """Writes the placeholder files of FIXTURES into `base`."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    data = repo / "test" / "data" / "int8-classifiers"
    model = onnx.load(str(data / "plain.onnx"))
    old = model.graph.input[0].name
    model.graph.input[0].name = "data"
    for node in model.graph.node:
        node.input[:] = ["data" if x == old else x for x in node.input]
    onnx.checker.check_model(model)
    for name in ["model.onnx", "m.onnx", "M.onnx"]:
        onnx.save(model, str(base / name))

    for d in ["calib_sets", "calib_dir", "samples"]:
        (base / d).mkdir()
        for k in range(8):
            shutil.copy(data / "calib" / f"input_{k}.npy", base / d)
    x = np.load(data / "calib" / "input_0.npy").astype(np.float32)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    y = sess.run(None, {"data": x})[0]
    out_name = model.graph.output[0].name
    for d, with_input, with_output in [("test_data_set_0", 1, 1), ("in", 1, 0), ("ref", 0, 1)]:
        (base / d).mkdir()
        if with_input:
            (base / d / "input_0.pb").write_bytes(numpy_helper.from_array(x, "data").SerializeToString())
        if with_output:
            (base / d / "output_0.pb").write_bytes(numpy_helper.from_array(y, out_name).SerializeToString())
    np.save(base / "image.npy", x)
    shutil.copy(repo / "test" / "data" / "nvdla-golden" / "BDMA_L0_0_fbuf", base)
    for cmd in [
        "onnc-translate --import-onnx model.onnx -o model.mlir",
        "onnc compile model.onnx --target nv_full -o model.nvdla",
        "onnc compile model.onnx --target nv_full --emit mlir -o model.nvdla.mlir",
    ]:
        rc, out, _ = run(cmd, base, env)
        if rc != 0:
            sys.exit(f"doc commands: making the fixtures failed: {cmd}\n{out}")


def scratch_for(doc, base, work, repo, tools):
    """A fresh copy of the fixtures, plus links to the tools and repo folders."""
    d = work / re.sub(r"[^\w.-]", "_", doc)
    shutil.copytree(base, d, symlinks=True)
    (d / "target").mkdir()
    (d / "target" / "debug").symlink_to(tools)
    for name in ["docs", "dialects", "test"]:
        (d / name).symlink_to(repo / name)
    return d


def main():
    here = Path(__file__).resolve()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, default=here.parents[2], help="repository root")
    ap.add_argument("--tools", type=Path, help="folder of onnc, onnc-opt, ... (default: onnc on PATH)")
    ap.add_argument("--work", type=Path, required=True, help="scratch folder (emptied first)")
    ap.add_argument("--docs", type=Path, nargs="*", help="markdown files (default: README.md, DEVELOPERS.md, docs/**/*.md)")
    ap.add_argument("--list", action="store_true", help="print the commands and what would happen, run nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every command's output")
    args = ap.parse_args()

    repo = args.repo.resolve()
    if args.docs:
        docs = [p.resolve() for p in args.docs]
    else:
        docs = [repo / "README.md", repo / "DEVELOPERS.md"] + sorted((repo / "docs").rglob("*.md"))
    commands, errors = [], []
    for path in docs:
        try:
            rel = str(path.relative_to(repo))
        except ValueError:
            rel = str(path)
        c, e = parse_markdown(path, rel)
        commands += c
        errors += e
    for e in errors:
        print(f"ERROR {e}")

    if args.list:
        for c in commands:
            what = f"SKIP ({c.skip})" if c.skip else f"must fail ({c.fails})" if c.fails else "run"
            print(f"{c.where()}: {what}: {c.text}")
        return 1 if errors else 0

    onnc = shutil.which("onnc") if args.tools is None else str(args.tools / "onnc")
    if not onnc or not os.path.exists(onnc):
        sys.exit("doc commands: onnc not found: put the tools on PATH or pass --tools DIR")
    tools = Path(onnc).resolve().parent
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(tools), env.get("PATH", "")])
    env.pop("NO_COLOR", None)

    work = args.work.resolve()
    if work.exists():
        shutil.rmtree(work)
    base = work / "_fixtures"
    base.mkdir(parents=True)
    make_fixtures(base, repo, tools, env)

    ran = skipped = failed = 0
    scratch = {}
    t_all = time.monotonic()
    for c in commands:
        if c.skip:
            skipped += 1
            print(f"SKIP {c.where()}: {c.text}\n     not run: {c.skip}")
            continue
        if c.doc not in scratch:
            scratch[c.doc] = scratch_for(c.doc, base, work, repo, tools)
        rc, out, secs = run(c.text, scratch[c.doc], env)
        ran += 1
        crashed = "panicked at" in out or rc > 125 or rc < 0
        if c.fails:
            ok = rc != 0 and rc != 124 and not crashed
            expect = f"expected to fail ({c.fails})"
        else:
            ok = rc == 0 and not crashed
            expect = "expected exit 0"
        if ok:
            print(f"ok   {c.where()}: {c.text}  ({secs:.1f} s)")
            if args.verbose:
                print("     " + out.rstrip().replace("\n", "\n     "))
        else:
            failed += 1
            print(f"FAIL {c.where()}: {c.text}\n     exit {rc}, {expect}; output:")
            print("     " + out.rstrip()[-3000:].replace("\n", "\n     "))
    shutil.rmtree(base)
    print(
        f"doc commands: {ran} run, {skipped} skipped, {failed} failed, {len(errors)} convention errors "
        f"(in {len(docs)} files, {time.monotonic() - t_all:.0f} s)"
    )
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
