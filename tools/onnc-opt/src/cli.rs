//! Command-line flags, spelled as mlir-opt spells them.

use clap::Parser;
use onnc_dialects::ir::{PipelineOptions, PrintOptions};

/// onnc-opt: run MLIR pass pipelines (ours and upstream) over onnc IR.
#[derive(Parser, Debug)]
#[command(name = "onnc-opt", version = super::common::VERSION, after_help = onnc_passes_help())]
pub struct Cli {
    /// Input file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file (`-` for stdout). Written atomically, and only on success.
    #[arg(short = 'o', default_value = "-")]
    pub output: String,
    /// The pipeline, e.g. `builtin.module(canonicalize,func.func(onnc-dce),cse)`.
    #[arg(long = "pass-pipeline")]
    pub pass_pipeline: Option<String>,
    /// Process each `// -----` chunk separately; outputs are joined by `// -----`.
    #[arg(long)]
    pub split_input_file: bool,
    /// Check diagnostics against `expected-*` comments instead of printing them.
    #[arg(long)]
    pub verify_diagnostics: bool,
    /// Accept ops of unknown dialects.
    #[arg(long)]
    pub allow_unregistered_dialect: bool,
    /// List our passes with their options and exit.
    #[arg(long)]
    pub list_passes: bool,
    /// Print the IR before every pass (to stderr).
    #[arg(long = "mlir-print-ir-before-all")]
    pub print_ir_before_all: bool,
    /// Print the IR after every pass (to stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,
    /// Print the IR after a pass only when it changed.
    #[arg(long = "mlir-print-ir-after-change")]
    pub print_ir_after_change: bool,
    /// Print the IR after a pass only when it failed.
    #[arg(long = "mlir-print-ir-after-failure")]
    pub print_ir_after_failure: bool,
    /// Print the whole module in IR dumps, not just the pass's op.
    #[arg(long = "mlir-print-ir-module-scope")]
    pub print_ir_module_scope: bool,
    /// Write IR dumps as files under this directory tree instead of stderr.
    #[arg(long = "mlir-print-ir-tree-dir")]
    pub print_ir_tree_dir: Option<String>,
    /// Print a timing report of the passes.
    #[arg(long = "mlir-timing")]
    pub timing: bool,
    /// Print pass statistics.
    #[arg(long = "mlir-pass-statistics")]
    pub pass_statistics: bool,
    /// Skip the verifier between passes (it always runs on the input and output).
    #[arg(long = "verify-each", default_value_t = true, action = clap::ArgAction::Set)]
    pub verify_each: bool,
    /// Print every op in generic form.
    #[arg(long = "mlir-print-op-generic")]
    pub print_op_generic: bool,
    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Print locations in a readable form (with --mlir-print-debuginfo).
    #[arg(long = "mlir-pretty-debuginfo")]
    pub pretty_debuginfo: bool,
    /// Elide elements attributes with more elements than this.
    #[arg(long = "mlir-elide-elementsattrs-if-larger")]
    pub elide_elements: Option<usize>,
    /// Elide resource blobs whose hex strings are longer than this.
    #[arg(long = "mlir-elide-resource-strings-if-larger")]
    pub elide_resources: Option<usize>,
    /// Print SSA names without looking at enclosing scopes.
    #[arg(long = "mlir-print-local-scope")]
    pub print_local_scope: bool,
    /// Accepted for mlir-opt compatibility: onnc always runs passes on one thread.
    #[arg(long = "mlir-disable-threading")]
    pub disable_threading: bool,
    /// `--diagnostics-format`, `--color`.
    #[command(flatten)]
    pub diagnostics: super::common::diagnostics::DiagnosticArgs,
}

fn onnc_passes_help() -> String {
    onnc_passes::help_text()
}

impl Cli {
    /// The printing flags.
    pub fn print_options(&self) -> PrintOptions {
        PrintOptions {
            generic: self.print_op_generic,
            debug_info: self.print_debuginfo,
            pretty_debug_info: self.pretty_debuginfo,
            elide_elements_larger_than: self.elide_elements,
            elide_resources_larger_than: self.elide_resources,
            local_scope: self.print_local_scope,
            assume_verified: false,
        }
    }

    /// The pass-manager instrumentation flags.
    pub fn pipeline_options(&self) -> PipelineOptions {
        PipelineOptions {
            print_before_all: self.print_ir_before_all,
            print_after_all: self.print_ir_after_all,
            print_after_change: self.print_ir_after_change,
            print_after_failure: self.print_ir_after_failure,
            print_module_scope: self.print_ir_module_scope,
            print_tree_dir: self.print_ir_tree_dir.clone(),
            timing: self.timing,
            statistics: self.pass_statistics,
            verify_each: self.verify_each,
            print: self.print_options(),
        }
    }
}

/// LLVM tools accept long options with one dash (`-split-input-file`); turn
/// those into the two-dash form clap expects. Single letters (`-o`) and
/// plain arguments are left alone.
pub fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    args.enumerate()
        .map(|(i, a)| {
            let long_single_dash = i > 0
                && a.starts_with('-')
                && !a.starts_with("--")
                && a.len() > 2
                && a.as_bytes()[1].is_ascii_alphabetic();
            if long_single_dash && !a.starts_with("-o") {
                format!("-{a}")
            } else {
                a
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_dash_long_options_are_accepted() {
        let args = normalize_args(
            ["onnc-opt", "x.mlir", "-split-input-file", "-o", "y", "-"]
                .iter()
                .map(|s| s.to_string()),
        );
        assert_eq!(
            args,
            ["onnc-opt", "x.mlir", "--split-input-file", "-o", "y", "-"]
        );
    }
}
