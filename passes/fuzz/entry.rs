//! The `mlir` fuzz target's logic, shared by `fuzz_targets/mlir.rs` (cargo-fuzz)
//! and the corpus replay in the ordinary suite (`src/fuzz_corpus_test.rs`).
//!
//! In: arbitrary bytes, read as MLIR text the way `onnc-opt` reads a file.
//! Checked: what `onnc-opt FILE` does — guarded parse, the IRDL and Rust
//! verifiers, print — never panics or aborts, and what it prints parses,
//! verifies and prints the same again (so `onnc-opt`'s output is always valid
//! input). Then every onnc pass runs alone, and one pipeline mixes in-memory
//! passes with an upstream one, on a copy of each verified module, as
//! `onnc-opt` runs them (`onnc_passes::pipeline::opt`):
//! it may fail with diagnostics, but it must not panic (the pass wrapper turns
//! a panic into an "internal error in pass" diagnostic, which fails here), and
//! what a successful pass leaves must verify.
//!
//! Bytecode (input starting with MLIR's bytecode magic) is skipped: `onnc-opt`
//! reads it in a child process (`onnc_dialects::ir::guard`), which has its own
//! tests; a fuzzing process must not spawn itself.

use melior::Context;
use onnc_dialects::{ir, verify};
use std::cell::RefCell;

/// Each onnc pass, alone, and one mixed pipeline, with options that keep
/// one run short (the legalizer's e-graph is capped; its default caps take
/// seconds).
const PIPELINES: [&str; 10] = [
    "builtin.module(onnc-verify)",
    "builtin.module(func.func(onnc-dce))",
    "builtin.module(onnx-simplify{fold-limit=4096})",
    "builtin.module(onnc-legalize{target=nv_full node-limit=2000 iter-limit=4 time-limit-ms=2000})",
    "builtin.module(onnc-legalize{target=nnie node-limit=2000 iter-limit=4 time-limit-ms=2000})",
    "builtin.module(convert-onnx-to-nvdla{config=nv_small})",
    "builtin.module(convert-onnx-to-nvdla{config=nv_full})",
    "builtin.module(nvdla-plan-memory)",
    "builtin.module(convert-onnx-to-mvu{aprec=4 wprec=2 oprec=4})",
    // One in-memory run across the level change, crossing to MLIR around cse.
    "builtin.module(onnx-simplify{fold-limit=4096},cse,onnc-legalize{target=nv_small node-limit=2000 iter-limit=4 time-limit-ms=2000},convert-onnx-to-nvdla{config=nv_small},nvdla-plan-memory)",
];

/// A context is reused for this many inputs, then replaced: creating one loads
/// four IRDL dialects (milliseconds), and a context keeps every type and
/// attribute it ever uniqued, so it is renewed to bound memory.
const RUNS_PER_CONTEXT: usize = 500;

thread_local! {
    static CONTEXT: RefCell<Option<(Context, usize)>> = const { RefCell::new(None) };
}

static REGISTER: std::sync::Once = std::sync::Once::new();

/// Runs `f` with the current context, creating or renewing it as needed.
fn with_context(f: impl FnOnce(&Context)) {
    REGISTER.call_once(onnc_passes::register_all);
    CONTEXT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let renew = match slot.as_ref() {
            Some((_, used)) => *used >= RUNS_PER_CONTEXT,
            None => true,
        };
        if renew {
            *slot = None;
            let context =
                ir::new_context().expect("onnc's dialects load (a build defect otherwise)");
            *slot = Some((context, 0));
        }
        let (context, used) = slot.as_mut().expect("set above");
        *used += 1;
        f(context);
    });
}

/// The fuzz target: `data` through `onnc-opt`'s parse → verify → print, the
/// print → parse round trip, and each onnc pass. Panics on a defect.
pub fn run(data: &[u8]) {
    if data.starts_with(ir::guard::BYTECODE_MAGIC) {
        return;
    }
    with_context(|context| {
        let capture = ir::DiagnosticCapture::attach(context);
        let Some(printed) = parse_verify_print(context, data, "fuzz.mlir") else {
            return;
        };
        round_trip(context, &capture, &printed);
        for pipeline in PIPELINES {
            run_pass(context, &capture, &printed, pipeline);
        }
        drop(capture);
    });
}

/// `printed` (what `onnc-opt` wrote) parses, verifies and prints the same
/// again. A context keeps every `dense_resource` name it has seen and
/// renames a second blob of the same name (`w` → `w_1`), so the two prints
/// are compared with blob names replaced by their order of first use
/// ([`canonical_blob_names`]). (A fresh context per input would compare
/// directly, but each context keeps its IRDL module for life: memory grows
/// by a few hundred kilobytes per context.)
fn round_trip(context: &Context, capture: &ir::DiagnosticCapture, printed: &str) {
    let again = parse_verify_print(context, printed.as_bytes(), "printed.mlir");
    let again = again.unwrap_or_else(|| {
        panic!(
            "onnc-opt printed IR that does not parse or verify: {:?}\n{printed}",
            capture.take()
        )
    });
    assert_eq!(
        canonical_blob_names(printed),
        canonical_blob_names(&again),
        "printing is not stable across a round trip"
    );
}

/// `text` with every `dense_resource<NAME>` and every blob key of the
/// `{-# dialect_resources ... #-}` section renamed `blob<k>`, k counting
/// names in order of first use.
fn canonical_blob_names(text: &str) -> String {
    let mut names: Vec<String> = Vec::new();
    let index = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(k) => k,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let (ops, resources) = text.split_once("{-#").unwrap_or((text, ""));
    let mut out = String::new();
    let mut rest = ops;
    while let Some(i) = rest.find("dense_resource<") {
        let (head, tail) = rest.split_at(i + "dense_resource<".len());
        out.push_str(head);
        let end = tail.find('>').unwrap_or(tail.len());
        out.push_str(&format!("blob{}", index(&tail[..end], &mut names)));
        rest = &tail[end..];
    }
    out.push_str(rest);
    if !resources.is_empty() {
        out.push_str("{-#");
        for line in resources.lines() {
            let key = line.trim_start().split_once(": \"0x").map(|(k, _)| k);
            match key {
                Some(k) if !k.contains(' ') => {
                    let k = index(k, &mut names);
                    let value = line.split_once(": ").map(|(_, v)| v).unwrap_or("");
                    out.push_str(&format!("blob{k}: {value}\n"));
                }
                _ => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// `onnc-opt FILE` without a pipeline: `Some(text)` when `source` parses and
/// verifies, `None` when either failed with diagnostics.
fn parse_verify_print(context: &Context, source: &[u8], file: &str) -> Option<String> {
    let module = ir::parse_module_bytes(context, source, file)?;
    if !verify::verify_module(&module) {
        return None;
    }
    Some(ir::print_op(&module.as_operation(), &Default::default()))
}

/// Runs `pipeline` on a fresh copy of the verified module `text`, as
/// `onnc-opt` does (`onnc_passes::pipeline::opt`). A pass may
/// fail with diagnostics; a panic inside it (reported by the wrapper as an
/// internal error) or a successful run that leaves IR the verifier rejects is
/// a defect.
fn run_pass(context: &Context, capture: &ir::DiagnosticCapture, text: &str, pipeline: &str) {
    capture.take();
    let mut module = ir::parse_module(context, text, "copy.mlir")
        .unwrap_or_else(|| panic!("a printed module stopped parsing: {:?}", capture.take()));
    // As onnc-opt runs it: in-memory passes on the functions converted once.
    let ok = onnc_passes::pipeline::opt::run(context, &mut module, pipeline, &Default::default())
        .unwrap_or_else(|e| panic!("pipeline {pipeline} does not parse: {e}"));
    let diags = capture.take();
    if let Some(d) = diags.iter().find(|d| d.message.contains("internal error")) {
        panic!("{pipeline} hit an internal error: {d}\n--- input ---\n{text}");
    }
    if ok && !verify::verify_module(&module) {
        panic!(
            "{pipeline} succeeded but left IR that does not verify: {:?}\n--- input ---\n{text}",
            capture.take()
        );
    }
}
