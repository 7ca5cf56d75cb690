//! `onnc` — the compiler driver.
//!
//! ```text
//! onnc compile model.onnx --target nv_full -o model.nvdla --report model.report.json
//! onnc compile model.onnx --target nv_small --emit mlir -o model.nvdla.mlir
//! onnc compile model.onnx --target nv_large -gen-ctable model.ctable.json -o model.nvdla
//! onnc compile model.onnx --target nv_large -load-ctable model.ctable.json -o model.nvdla
//! onnc compile model.onnx --target mvu --aprec 2 --wprec 2 --oprec 2 -o out_dir/
//! onnc compile model.onnx --target nnie --calib calib_dir/ -o package_dir/
//! onnc compile model.onnx --target nv_full --emit dot -o model.dot --memory-svg mem.svg --memory-csv mem.csv
//! onnc report model.report.json --view onnx-nodes --sort macs --format csv
//! onnc completions bash > onnc.bash     # all four tools
//! onnc man man/                         # onnc.1, onnc-compile.1, onnc-opt.1, ...
//! ```
//! In: an ONNX model. Out: an NVDLA loadable (or the final `nvdla` IR with
//! `--emit mlir`), an MVU configuration directory, or an NNIE mapper
//! package (or the hardware-layer graph with `--emit dot`); `--report`
//! writes the JSON report (every target) and prints the per-layer table;
//! `--memory-svg`/`--memory-csv` draw and list NVDLA's memory plan. Every output is written atomically; errors name the
//! file and node and exit non-zero with nothing written.

mod calib_span;
mod calibrate;
mod cli;
mod compile_fix;
mod cut;
mod docs;
mod multicall;
mod mvu_calib;
mod nvdla;
mod one_round;
mod other_targets;
mod outputs;
mod packing;
mod pictures;
mod pipeline;
mod report;
mod stages;

// The other three tools, compiled into this binary as well: `onnc opt|
// translate|run ...`, or a link named after the tool (see `multicall`).
#[path = "../../onnc-opt/src/main.rs"]
#[allow(dead_code)]
mod opt_tool;
#[path = "../../onnc-run/src/main.rs"]
#[allow(dead_code)]
mod run_tool;
#[path = "../../onnc-translate/src/main.rs"]
#[allow(dead_code)]
mod translate_tool;

use common::diagnostics::Failure;
use onnc_tools as common;
use std::process::ExitCode;

fn main() -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    let args: Vec<String> = std::env::args().collect();
    if let Some((tool, argv)) = multicall::pick(&args) {
        return match tool {
            multicall::Tool::Opt => opt_tool::main_with(argv),
            multicall::Tool::Translate => translate_tool::main_with(argv),
            multicall::Tool::Run => run_tool::main_with(argv),
        };
    }
    common::generate::handle_hidden_flags(<cli::Cli as clap::CommandFactory>::command, &args);
    let cli = match cli::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version to stdout and errors to stderr.
            let code = if e.use_stderr() { 2 } else { 0 };
            if e.use_stderr() && common::diagnostics::wants_json(&args) {
                common::diagnostics::emit_clap_error_json(&e);
                return ExitCode::from(code);
            }
            if let Err(io) = e.print() {
                onnc_io::stderr::line(&onnc_io::stdout::describe(&io));
                return ExitCode::FAILURE;
            }
            return ExitCode::from(code);
        }
    };
    cli.diagnostics.apply();
    common::logging::init(match &cli.command {
        cli::Command::Compile(c) => c.log_level(),
        _ => "warn",
    });
    let result: Result<(), Failure> = match cli.command {
        cli::Command::Compile(c) => match c.target {
            cli::Target::NvFull | cli::Target::NvLarge | cli::Target::NvSmall => {
                nvdla::compile(&c).map_err(compile_fix::for_compile)
            }
            cli::Target::Mvu => other_targets::compile_mvu(&c),
            cli::Target::Nnie => other_targets::compile_nnie(&c),
        }
        .map_err(|f| f.in_file(&c.model.display().to_string())),
        cli::Command::Report(r) => report::print_file(&r).map_err(Failure::from),
        cli::Command::Completions(c) => {
            docs::completions(c.shell, c.dir.as_deref()).map_err(Failure::from)
        }
        cli::Command::Man(m) => docs::man(&m.dir).map_err(Failure::from),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            failure.emit();
            ExitCode::FAILURE
        }
    }
}
