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
    /// Indices into `items` of the diagnostics about the module as a whole
    /// ([`Diags::at_module`]); the others without a node are about the function.
    module_level: Vec<usize>,
}

/// What a diagnostic is about, for placing it in MLIR text (`onnc-opt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A node (by the diagnostic's location name), else the function.
    Function,
    /// The module as a whole (a file the pass reads or writes, a report).
    Module,
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

    /// Records a diagnostic about the module as a whole (no node; `onnc-opt`
    /// puts it at the module's location, `onnc compile` prints it as any
    /// node-less diagnostic).
    pub fn at_module(&mut self, severity: Severity, message: impl Into<String>) {
        self.module_level.push(self.items.len());
        self.push(severity, None, message);
    }

    /// Removes and returns everything recorded so far, each with its [`Scope`].
    pub fn take_scoped(&mut self) -> Vec<(Diag, Scope)> {
        let module_level = std::mem::take(&mut self.module_level);
        std::mem::take(&mut self.items)
            .into_iter()
            .enumerate()
            .map(|(i, d)| {
                let scope = if module_level.contains(&i) {
                    Scope::Module
                } else {
                    Scope::Function
                };
                (d, scope)
            })
            .collect()
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// Removes and returns everything recorded so far.
    pub fn take(&mut self) -> Vec<Diag> {
        self.module_level.clear();
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

    #[test]
    fn module_level_diagnostics_keep_their_scope() {
        let mut d = Diags::new();
        d.error(None, "at the function");
        d.at_module(Severity::Remark, "about the module");
        d.error(Some("n1"), "at a node");
        let scopes: Vec<(String, Scope)> = d
            .take_scoped()
            .into_iter()
            .map(|(d, s)| (d.to_string(), s))
            .collect();
        assert_eq!(
            scopes,
            [
                ("error: at the function".to_string(), Scope::Function),
                ("remark: about the module".to_string(), Scope::Module),
                ("node 'n1': error: at a node".to_string(), Scope::Function),
            ]
        );
        assert!(d.take_scoped().is_empty());
    }
}
