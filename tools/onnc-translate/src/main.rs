//! `onnc-translate` — move IR across the edge of MLIR.
//!
//! ```text
//! onnc-translate --import-onnx model.onnx --input-shape x=1x3x224x224 -o model.mlir
//! onnc-translate --mlir-to-bytecode model.mlir -o model.mlirbc
//! onnc-translate --bytecode-to-mlir model.mlirbc --mlir-print-debuginfo
//! onnc-translate --export-onnx cases.mlir --split-input-file -o /dev/null
//! onnc-translate --list
//! ```
//! Exactly one translation flag is given; the registry in
//! `onnc_passes::translate` lists them (importers, emitters, dumpers) and
//! their options (see `cli`). The output goes to `-o FILE` (written
//! atomically, never half-written) or stdout. Errors name the file and,
//! where it applies, the op or node; the exit status is then 1 (2 for a
//! command-line error) and no output file is created.

mod cli;
mod text;

use onnc_tools as common;
use onnc_tools::split;

use onnc_passes::translate;
use std::{path::Path, process::ExitCode};

fn main() -> ExitCode {
    main_with(std::env::args().collect())
}

/// `onnc-translate` on the command line `args` (program name first): also
/// `onnc translate` and a link named `onnc-translate` to the `onnc` binary.
pub fn main_with(args: Vec<String>) -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    common::start(cli::command, "warn", &args);
    let args: Vec<String> = cli::normalize(args.into_iter());
    let parsed = match cli::parse(args.clone()) {
        Ok(p) => p,
        Err(e) => return clap_exit(&args, &e),
    };
    parsed.cli.diagnostics.apply();
    if parsed.cli.list {
        if let Err(e) = onnc_io::stdout::print(&cli::list()) {
            return fail(onnc_io::stdout::describe(&e));
        }
        return ExitCode::SUCCESS;
    }
    if let Err(m) = cli::check(&args, &parsed) {
        return fail(m);
    }
    match run(&parsed) {
        Ok(code) => code,
        Err(m) => fail(m),
    }
}

/// Prints a clap error (in our words where we had them) or help/version.
fn clap_exit(args: &[String], e: &clap::Error) -> ExitCode {
    let json = common::diagnostics::wants_json(args);
    if let Some(m) = cli::explain(args, e) {
        if json {
            onnc_diag::configure(onnc_diag::Format::Json, onnc_diag::ColorChoice::Never);
        }
        report(&[format!("onnc-translate: error: {m}")]);
        return ExitCode::from(2);
    }
    if json && e.use_stderr() {
        common::diagnostics::emit_clap_error_json(e);
        return ExitCode::from(2);
    }
    if let Err(io) = e.print() {
        return fail(onnc_io::stdout::describe(&io));
    }
    ExitCode::from(if e.use_stderr() { 2 } else { 0 })
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    report(&[format!("onnc-translate: error: {message}")]);
    ExitCode::FAILURE
}

/// Prints messages (the engines' and MLIR's text forms) as diagnostics.
fn report(messages: &[String]) {
    common::diagnostics::Failure::from(messages.to_vec()).emit();
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

fn run(p: &cli::Parsed) -> Result<ExitCode, String> {
    let t = p.translation.expect("checked by cli::check");
    let input = p.cli.input.clone().unwrap_or_else(|| "-".into());
    let inputs: Vec<&Path> = if input == "-" {
        vec![]
    } else {
        vec![Path::new(&input)]
    };
    onnc_io::check_inputs(&inputs).map_err(|e| e.to_string())?;
    let dir_marker = translate::dir_output::marker(t.flag);
    let kind = match dir_marker {
        Some(_) => onnc_io::OutputKind::Dir,
        None => onnc_io::OutputKind::File,
    };
    onnc_io::check_outputs(&[(Path::new(&p.cli.output), kind)], &inputs)
        .map_err(|e| e.to_string())?;
    if dir_marker.is_some() && p.cli.split_input_file {
        return Err(format!(
            "--{} writes one directory; it takes one module, not --split-input-file",
            t.flag
        ));
    }
    let options = canonical_options(&p.options)?;
    text::check_flags(t, &p.cli)?;
    let bytes = read_input(&input)?;
    tracing::info!(translation = t.flag, input = %input, output = %p.cli.output, "translating");
    let chunks = if p.cli.split_input_file {
        text::chunks(t, &input, bytes)?
    } else {
        vec![bytes]
    };
    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in &chunks {
        let given = translate::Input {
            path: Path::new(&input),
            bytes: chunk,
            options: &options,
        };
        match text::translate(t, &given, &p.cli) {
            Ok(out) => outputs.push(out),
            Err(e) => {
                report(&e.0);
                failed = true;
            }
        }
    }
    if failed {
        return Ok(ExitCode::FAILURE);
    }
    if let Some(marker) = dir_marker {
        // One module (no --split-input-file): its files into the directory.
        let files = translate::dir_output::unpack(&outputs.concat())?;
        tracing::debug!(files = files.len(), "writing directory");
        onnc_io::write_dir(Path::new(&p.cli.output), marker, &files).map_err(|e| e.to_string())?;
        return Ok(ExitCode::SUCCESS);
    }
    let out = outputs.join(&b"// -----\n"[..]);
    tracing::debug!(bytes = out.len(), "writing");
    onnc_io::write_file(Path::new(&p.cli.output), &out).map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// `--input-shape` values in every accepted spelling, made canonical.
fn canonical_options(options: &[(String, String)]) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (k, v) in options {
        if k == "input-shape" {
            let shapes = common::input_shape::canonical(std::slice::from_ref(v))
                .map_err(|e| e.trim_start_matches("error: ").to_string())?;
            out.extend(shapes.into_iter().map(|s| (k.clone(), s)));
        } else {
            out.push((k.clone(), v.clone()));
        }
    }
    Ok(out)
}
