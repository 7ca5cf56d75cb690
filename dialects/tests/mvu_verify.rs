//! The `mvu` rules of [`onnc_dialects::verify::check_op`] (which read
//! `onnc_mvu_hw`) against `test/dialect/mvu/verify.mlir`, without `onnc-opt`:
//! each `// -----` chunk is parsed, every op checked, and the messages must
//! be exactly the chunk's `expected-error {{...}}` texts (each a substring of
//! one message, as `--verify-diagnostics` matches them).

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use onnc_dialects::ir::{new_context, parse_module};
use onnc_dialects::verify::check_op;

const CASES: &str = include_str!("../../test/dialect/mvu/verify.mlir");

/// The `{{...}}` texts of a chunk's `expected-error` lines.
fn expected(chunk: &str) -> Vec<String> {
    chunk
        .lines()
        .filter(|l| l.contains("expected-error"))
        .filter_map(|l| {
            let (_, rest) = l.split_once("{{")?;
            Some(rest.rsplit_once("}}")?.0.to_string())
        })
        .collect()
}

#[test]
fn every_chunk_reports_exactly_its_expected_errors() {
    let ctx = new_context().expect("the IRDL files load");
    let chunks: Vec<&str> = CASES.split("// -----").collect();
    assert!(chunks.len() >= 40, "only {} chunks", chunks.len());
    for (i, chunk) in chunks.iter().enumerate() {
        let module = parse_module(&ctx, chunk, "verify.mlir")
            .unwrap_or_else(|| panic!("chunk {i} does not parse:\n{chunk}"));
        let mut got = Vec::new();
        module.as_operation().walk(WalkOrder::PreOrder, |op| {
            got.extend(check_op(&op));
            WalkResult::Advance
        });
        let want = expected(chunk);
        assert_eq!(
            got.len(),
            want.len(),
            "chunk {i}: messages {got:?}, expected {want:?}"
        );
        for w in &want {
            assert!(
                got.iter().any(|g| g.contains(w.as_str())),
                "chunk {i}: no message contains '{w}': {got:?}"
            );
        }
    }
}
