//! `onnc` — the compiler driver.
//!
//! ```text
//! onnc compile model.onnx --target nv_full -o model.nvdla --report model.report.json
//! onnc compile model.onnx --target nv_small --emit mlir -o model.nvdla.mlir
//! onnc compile model.onnx --target nv_large -gen-ctable model.ctable.json -o model.nvdla
//! onnc compile model.onnx --target nv_large -load-ctable model.ctable.json -o model.nvdla
//! onnc compile model.onnx --target mvu --aprec 2 --wprec 2 --oprec 2 -o out_dir/
//! onnc compile model.onnx --target nnie --calib calib_dir/ -o package_dir/
//! onnc report model.report.json
//! ```
//! In: an ONNX model. Out: an NVDLA loadable (or the final `nvdla` IR with
//! `--emit mlir`), an MVU configuration directory, or an NNIE mapper
//! package; `--report` writes the per-layer JSON report and prints the
//! per-layer table. Every output is written atomically; errors name the
//! file and node and exit non-zero with nothing written.

mod cli;
mod nvdla;
mod other_targets;
mod outputs;
mod report;
mod stages;

use std::process::ExitCode;

fn main() -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    let args: Vec<String> = std::env::args().collect();
    let cli = match cli::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version to stdout and errors to stderr.
            let code = if e.use_stderr() { 2 } else { 0 };
            if let Err(io) = e.print() {
                eprintln!("{}", onnc_io::stdout::describe(&io));
                return ExitCode::FAILURE;
            }
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        cli::Command::Compile(c) => match c.target.as_str() {
            "nv_full" | "nv_large" | "nv_small" => nvdla::compile(&c),
            "mvu" => other_targets::compile_mvu(&c),
            "nnie" => other_targets::compile_nnie(&c),
            other => Err(vec![format!("error: unknown target '{other}' (expected nv_full, nv_large, nv_small, mvu or nnie)")]),
        },
        cli::Command::Report(r) => report::print_file(&r.report),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(messages) => {
            for m in messages {
                eprintln!("{m}");
            }
            ExitCode::FAILURE
        }
    }
}
