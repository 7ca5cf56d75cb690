//! `onnc-opt` — run pass pipelines over onnc IR, mlir-opt style.
//!
//! ```text
//! onnc-opt model.mlir --pass-pipeline='builtin.module(func.func(onnc-dce),cse)' -o out.mlir
//! onnc-opt tests.mlir --split-input-file --verify-diagnostics
//! ```
//! In: MLIR text (a file or `-` for stdin) using the `onnx`, `nvdla`, `nnie`,
//! `mvu`, `func`, `arith` and `tensor` dialects. Out: the transformed IR on
//! stdout or `-o`; diagnostics on stderr as `file:line:col: error: …`; exit
//! status 1 on any error (nothing is written then). onnc's passes run on the
//! in-memory IR: each run of them converts the module's functions once and
//! back once (`onnc_passes::pipeline::opt`); upstream passes run in MLIR.

mod cli;
mod expect;

use onnc_tools as common;
use onnc_tools::split;

use clap::Parser;
use cli::Cli;
use onnc_dialects::{ir, verify};
use onnc_passes::pipeline::opt;
use std::{path::Path, process::ExitCode};

/// What processing one chunk produced.
struct ChunkResult {
    /// The printed IR, when every step succeeded.
    output: Option<String>,
    /// Everything the context reported.
    diags: Vec<ir::Diag>,
}

fn main() -> ExitCode {
    main_with(std::env::args().collect())
}

/// `onnc-opt` on the command line `args` (program name first): also `onnc
/// opt` and a link named `onnc-opt` to the `onnc` binary.
pub fn main_with(args: Vec<String>) -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    common::start(<Cli as clap::CommandFactory>::command, "warn", &args);
    let cli = Cli::parse_from(cli::normalize_args(args.into_iter()));
    cli.diagnostics.apply();
    tracing::debug!(input = %cli.input, pipeline = cli.pass_pipeline.as_deref().unwrap_or(""), "onnc-opt");
    onnc_passes::register_all();
    if cli.list_passes {
        if let Err(e) = onnc_io::stdout::print(&onnc_passes::help_text()) {
            onnc_io::stderr::line(&format!("onnc-opt: {}", onnc_io::stdout::describe(&e)));
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    match run(&cli) {
        Ok(code) => code,
        Err(message) => {
            common::diagnostics::emit_messages(&[format!("onnc-opt: error: {message}")], None);
            ExitCode::FAILURE
        }
    }
}

fn read_input(input: &str) -> Result<Vec<u8>, String> {
    if input == "-" {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut v)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        return Ok(v);
    }
    std::fs::read(input).map_err(|e| format!("cannot read '{input}': {e}"))
}

/// The input as chunks of bytes: MLIR bytecode is taken whole; text is split
/// at `// -----` when asked.
fn chunks_of(source: Vec<u8>, cli: &Cli, file: &str) -> Result<Vec<split::Chunk>, String> {
    match String::from_utf8(source) {
        Ok(text) if cli.split_input_file => Ok(split::split(&text)),
        Ok(text) => Ok(vec![split::Chunk { text, first_line: 1, binary: None }]),
        Err(_) if cli.split_input_file || cli.verify_diagnostics => {
            Err(format!("'{file}' is not UTF-8 text; --split-input-file and --verify-diagnostics need MLIR text"))
        }
        Err(e) => Ok(vec![split::Chunk::binary(e.into_bytes())]),
    }
}

fn run(cli: &Cli) -> Result<ExitCode, String> {
    let inputs: Vec<&Path> = if cli.input == "-" {
        vec![]
    } else {
        vec![Path::new(&cli.input)]
    };
    onnc_io::check_inputs(&inputs).map_err(|e| e.to_string())?;
    onnc_io::check_outputs(
        &[(Path::new(&cli.output), onnc_io::OutputKind::File)],
        &inputs,
    )
    .map_err(|e| e.to_string())?;
    let source = read_input(&cli.input)?;
    let file = if cli.input == "-" {
        "<stdin>".to_string()
    } else {
        cli.input.clone()
    };
    let chunks = chunks_of(source, cli, &file)?;
    check_flags(cli)?;

    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in &chunks {
        let result = process_chunk(cli, chunk.bytes(), &file)?;
        if cli.verify_diagnostics {
            let expected = expect::parse_expected(&chunk.text, &file);
            let problems = match expected {
                Ok(e) => expect::check(&e, &result.diags, &file),
                Err(errors) => errors,
            };
            for p in &problems {
                onnc_io::stderr::line(p);
            }
            failed |= !problems.is_empty();
        } else {
            let d: Vec<String> = result.diags.iter().map(|d| d.to_string()).collect();
            common::diagnostics::emit_messages(&d, None);
            failed |= result.output.is_none()
                || result
                    .diags
                    .iter()
                    .any(|d| d.severity == ir::Severity::Error);
        }
        if let Some(out) = result.output {
            outputs.push(out);
        }
    }
    if failed && !cli.verify_diagnostics {
        return Ok(ExitCode::FAILURE);
    }
    let text = outputs.join("// -----\n");
    onnc_io::write_file(Path::new(&cli.output), text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Flag values MLIR would only complain about later, on stderr, without
/// failing: a `--mlir-print-ir-tree-dir` that is not a directory, and an
/// `inline{default-pipeline=...}` that does not parse.
fn check_flags(cli: &Cli) -> Result<(), String> {
    if let Some(dir) = &cli.print_ir_tree_dir {
        let p = Path::new(dir);
        if p.exists() && !p.is_dir() {
            return Err(format!("--mlir-print-ir-tree-dir '{dir}' is not a directory; name a directory (it is created if missing)"));
        }
    }
    let pipeline = cli.pass_pipeline.as_deref().unwrap_or("");
    for (i, _) in pipeline.match_indices("default-pipeline=") {
        let rest = &pipeline[i + "default-pipeline=".len()..];
        let value = nested_value(rest);
        let context =
            ir::new_context().map_err(|_| "could not create an MLIR context".to_string())?;
        let capture = ir::DiagnosticCapture::attach(&context);
        let candidate = format!("builtin.module(func.func({value}))");
        if !value.is_empty()
            && ir::PipelineRunner::new(&context, &candidate, &Default::default()).is_err()
        {
            drop(capture);
            return Err(format!(
                "invalid --pass-pipeline: default-pipeline={value} is not a pass pipeline"
            ));
        }
    }
    Ok(())
}

/// The option value at the start of `rest`: up to the first space, `,` or
/// `}` outside brackets (`canonicalize` or `func.func(cse)`).
fn nested_value(rest: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' if depth == 0 => return &rest[..i],
            ')' | '}' => depth -= 1,
            ' ' | ',' if depth == 0 => return &rest[..i],
            _ => {}
        }
    }
    rest
}

/// Parses, verifies, runs the pipeline and prints one chunk in a fresh context.
/// The pipeline's in-memory passes run on the module's functions converted
/// once (`onnc_passes::pipeline::opt`); upstream passes run in MLIR.
/// An `Err` is a tool-level failure (bad pipeline) that stops everything.
fn process_chunk(cli: &Cli, text: &[u8], file: &str) -> Result<ChunkResult, String> {
    let context = ir::new_context().map_err(|d| {
        let lines: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        format!(
            "could not load onnc's dialects (a build defect):\n{}",
            lines.join("\n")
        )
    })?;
    context.set_allow_unregistered_dialects(cli.allow_unregistered_dialect);
    ir::set_print_op_on_diagnostic(&context, !cli.verify_diagnostics);
    let capture = ir::DiagnosticCapture::attach(&context);
    let pipeline = cli.pass_pipeline.as_deref().unwrap_or("");
    opt::check(&context, pipeline).map_err(|e| format!("invalid --pass-pipeline: {e}"))?;

    let mut module = ir::parse_module_bytes(&context, text, file);
    let output = match module.as_mut() {
        Some(m) if verify::verify_module(m) => {
            let ok = opt::run(&context, m, pipeline, &cli.pipeline_options())
                .map_err(|e| format!("invalid --pass-pipeline: {e}"))?;
            (ok && verify::verify_module(m))
                .then(|| ir::print_op(&m.as_operation(), &cli.print_options()))
        }
        _ => None,
    };
    drop(module);
    Ok(ChunkResult {
        output,
        diags: capture.take(),
    })
}
