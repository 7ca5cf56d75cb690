//! Diagnostics of in-memory passes, printed as MLIR's are.
//!
//! In: errors, warnings and remarks at an ONNX node (by name) or at the
//! module. Out: [`Diag`] values that print exactly like the diagnostics an
//! MLIR pass emits at that node's `loc("name")`: `node 'conv1': error: ...`
//! (a node merged from several is named `conv1+bn1`), or `error: ...` for
//! the module as a whole.

use onnc_dialects::ir::{Diag, Loc, Severity};

/// The diagnostics a pipeline has produced, in emission order.
#[derive(Debug, Default)]
pub struct Diags {
    items: Vec<Diag>,
}

impl Diags {
    /// An empty list.
    pub fn new() -> Diags {
        Diags::default()
    }

    /// Records a diagnostic of `severity` at `node` (or the module when `None`).
    pub fn push(&mut self, severity: Severity, node: Option<&str>, message: impl Into<String>) {
        self.items.push(Diag {
            severity,
            loc: Loc {
                name: node.map(str::to_string),
                ..Loc::default()
            },
            message: message.into(),
            notes: Vec::new(),
        });
    }

    /// An error at `node` (or the module).
    pub fn error(&mut self, node: Option<&str>, message: impl Into<String>) {
        self.push(Severity::Error, node, message);
    }

    /// A warning at `node` (or the module).
    pub fn warning(&mut self, node: Option<&str>, message: impl Into<String>) {
        self.push(Severity::Warning, node, message);
    }

    /// A remark at `node` (or the module).
    pub fn remark(&mut self, node: Option<&str>, message: impl Into<String>) {
        self.push(Severity::Remark, node, message);
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// Removes and returns everything recorded so far.
    pub fn take(&mut self) -> Vec<Diag> {
        std::mem::take(&mut self.items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_an_mlir_diagnostic_at_a_name_location() {
        let mut d = Diags::new();
        d.error(Some("conv1+bn1"), "'Conv' cannot run");
        d.warning(None, "whole module");
        assert!(d.has_errors());
        let text: Vec<String> = d.take().iter().map(|d| d.to_string()).collect();
        assert_eq!(
            text,
            [
                "node 'conv1+bn1': error: 'Conv' cannot run",
                "warning: whole module"
            ]
        );
        assert!(!d.has_errors());
    }
}
