//! Fixes that make no sense inside `onnc compile`.
//!
//! The lowering engine serves `onnc-opt` too, where "legalize for NVDLA
//! (onnc-legalize)" is the right advice. `onnc compile` has already run
//! legalization, so a lowering refusal carrying that advice means
//! legalization accepted what the lowering cannot map.
//!
//! In: a failure of `onnc compile` for NVDLA. Out: the same failure, each
//! such fix replaced by what helps there.

use crate::common::diagnostics::Failure;

/// What a compile user can do when legalization and lowering disagree.
const INSTEAD: &str = "replace the op in the model, or run this part on the host; \
onnc compile has already legalized the model, so this is a gap between onnc's \
legalization and its lowering: please report it";

/// `failure` with advice to run `onnc-legalize` replaced (see the module).
pub fn for_compile(mut failure: Failure) -> Failure {
    for d in &mut failure.diagnostics {
        let advises_legalize = d.fix.as_deref().is_some_and(|f| {
            f.starts_with("legalize for NVDLA") || f.starts_with("run onnx-simplify/onnc-legalize")
        });
        if advises_legalize {
            d.fix = Some(INSTEAD.to_string());
        }
    }
    failure
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_diag::Diagnostic;

    #[test]
    fn only_legalization_advice_is_replaced() {
        let f = Failure::from(vec![
            Diagnostic::error("NVDLA nv_full cannot run Foo")
                .node("f", "Foo")
                .fix("legalize for NVDLA (onnc-legalize), which rewrites or reports it"),
            Diagnostic::error("has size 4")
                .node("l", "LRN")
                .fix("change the LRN size"),
        ]);
        let f = for_compile(f);
        assert!(f.diagnostics[0]
            .fix
            .as_deref()
            .unwrap()
            .contains("gap between"));
        assert_eq!(f.diagnostics[1].fix.as_deref(), Some("change the LRN size"));
    }
}
