//! The flags of `onnc-translate` that act on MLIR text:
//! `--split-input-file` (translations that read MLIR: the emitters) and
//! `--mlir-print-debuginfo` (translations that print MLIR).
//!
//! In: the chosen translation and the flags. Out: the chunks to translate,
//! or MLIR text with locations; an error naming the flag when the
//! translation cannot use it.

use super::{cli::Cli, split};
use onnc_dialects::{ir, verify};
use onnc_passes::translate::{Input, Kind, Translation};
use onnc_passes::Error;

/// Refuses flags the translation cannot use.
pub fn check_flags(t: &Translation, cli: &Cli) -> Result<(), String> {
    if cli.split_input_file && t.kind != Kind::Emit {
        return Err(format!("--split-input-file splits MLIR text; --{} does not read MLIR text (translations that do: {})", t.flag, flags_of(Kind::Emit)));
    }
    if cli.print_debuginfo && !["import-onnx", "bytecode-to-mlir"].contains(&t.flag) {
        return Err(format!("--mlir-print-debuginfo applies to translations that print MLIR (--import-onnx, --bytecode-to-mlir), not --{}", t.flag));
    }
    Ok(())
}

fn flags_of(kind: Kind) -> String {
    let v: Vec<String> = onnc_passes::translate::all()
        .iter()
        .filter(|t| t.kind == kind && t.dir.is_none())
        .map(|t| format!("--{}", t.flag))
        .collect();
    v.join(", ")
}

/// The input cut at `// -----` lines (each chunk keeps its line numbers).
pub fn chunks(t: &Translation, file: &str, bytes: Vec<u8>) -> Result<Vec<Vec<u8>>, String> {
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "'{file}' is not UTF-8 text; --split-input-file needs MLIR text for --{}",
            t.flag
        )
    })?;
    Ok(split::split(&text)
        .into_iter()
        .map(|c| c.text.into_bytes())
        .collect())
}

/// Runs `t`, printing locations for `--bytecode-to-mlir` when asked
/// (`--import-onnx` always prints them).
pub fn translate(t: &Translation, input: &Input, cli: &Cli) -> Result<Vec<u8>, Error> {
    if !(cli.print_debuginfo && t.flag == "bytecode-to-mlir") {
        return (t.run)(input);
    }
    // The registry's checks (magic, parse, verify) first; then print again with locations.
    (t.run)(input)?;
    let file = input.path.display().to_string();
    let context =
        ir::new_context().map_err(|d| Error(d.iter().map(|d| d.to_string()).collect()))?;
    let capture = ir::DiagnosticCapture::attach(&context);
    let printed = match ir::parse_module_bytes(&context, input.bytes, &file) {
        Some(m) if verify::verify_module(&m) => Some(ir::print_op(
            &m.as_operation(),
            &ir::PrintOptions {
                debug_info: true,
                ..Default::default()
            },
        )),
        _ => None,
    };
    match printed {
        Some(text) => Ok(text.into_bytes()),
        None => {
            let msgs: Vec<String> = capture.take().iter().map(|d| d.to_string()).collect();
            Err(Error(if msgs.is_empty() {
                vec![format!("{file}: error: not valid MLIR")]
            } else {
                msgs
            }))
        }
    }
}
