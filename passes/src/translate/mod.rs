//! Translations: the registry behind `onnc-translate --<flag>`.
//!
//! A translation turns an input file into output bytes across the edge of
//! MLIR: importers (a foreign format → MLIR text), emitters (MLIR → a
//! deployable binary) and dumpers (a binary → text that FileCheck can read).
//! Each is one [`Translation`] record in [`all`]; the tool's flags, `--help`
//! and `docs/translations.md` come from these records.
//!
//! ```
//! let t = onnc_passes::translate::find("mlir-to-bytecode").unwrap();
//! assert_eq!(t.kind, onnc_passes::translate::Kind::Emit);
//! assert!(onnc_passes::translate::find("to-nothing").is_none());
//! ```

mod bytecode;
mod mvu_config;
mod nnie_package;
pub mod nvdla_emit;
mod nvdla_loadable;
mod onnx_export;
mod onnx_import;

use std::path::Path;

pub(crate) use crate::Error;

/// Which way a translation goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A foreign format in, MLIR text out.
    Import,
    /// MLIR in, a foreign (usually binary) format out.
    Emit,
    /// A binary in, readable text out.
    Dump,
}

/// What a translation received.
pub struct Input<'a> {
    /// Path of the input (for messages and for files found relative to it).
    pub path: &'a Path,
    /// The input's bytes.
    pub bytes: &'a [u8],
    /// `key=value` options given with `--option` (per translation).
    pub options: &'a [(String, String)],
}

/// An option a translation accepts (`--nvdla-abi legacy`).
pub struct TranslationOption {
    /// The flag without dashes.
    pub name: &'static str,
    /// The values it takes, for `--help` (e.g. `legacy|current`).
    pub values: &'static str,
    /// One line of help.
    pub help: &'static str,
}

/// One registered translation.
pub struct Translation {
    /// The flag without dashes (`import-onnx`, `to-nvdla-loadable`).
    pub flag: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// Direction.
    pub kind: Kind,
    /// Options it accepts.
    pub options: &'static [TranslationOption],
    /// Does the work; the bytes are written by the caller (atomically).
    pub run: fn(&Input) -> Result<Vec<u8>, Error>,
    /// For an emitter whose output is a directory (`-o DIR`): the files;
    /// `run` is then not called.
    pub dir: Option<DirOutput>,
}

/// An emitter's directory output: the caller writes the files into a
/// temporary sibling of `DIR` and renames it over `DIR` (an existing `DIR`
/// is replaced only when empty or holding `marker`, and never on error).
pub struct DirOutput {
    /// A file every earlier output holds (it marks a directory as ours to replace).
    pub marker: &'static str,
    /// Does the work: `(path inside DIR, bytes)` pairs, in order.
    pub files: fn(&Input) -> Result<Vec<DirFile>, Error>,
}

/// One file of a directory output: its path inside the directory and bytes.
pub type DirFile = (String, Vec<u8>);

/// Every translation, in `--help` order.
pub fn all() -> &'static [Translation] {
    static ALL: [Translation; 9] = [
        onnx_import::IMPORT_ONNX,
        onnx_export::EXPORT_ONNX,
        bytecode::TO_BYTECODE,
        bytecode::FROM_BYTECODE,
        nvdla_emit::TO_LOADABLE,
        nvdla_loadable::FROM_LOADABLE,
        nvdla_loadable::VERIFY_LOADABLE,
        nnie_package::TO_PACKAGE,
        mvu_config::TO_MVU_CONFIG,
    ];
    &ALL
}

impl Input<'_> {
    /// The value of option `name`, if given.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// An error naming the input file.
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        Error(vec![format!("{}: error: {message}", self.path.display())])
    }
}

/// `run` of a translation whose output is a directory ([`DirOutput`]): the
/// tool writes the directory's files instead and never calls it.
pub(crate) fn directory_only(input: &Input) -> Result<Vec<u8>, Error> {
    Err(input.error("this translation writes a directory: give -o DIR"))
}

/// The main function of `module` read into a level by `read` (a level
/// reader: `mvu::from_ir`, `nnie::from_ir`), its errors each at its op's
/// location (`file:line:col`, or the file and the op's name).
pub(crate) fn read_level<T>(
    input: &Input,
    module: &melior::ir::Module,
    read: impl for<'c, 'a> FnOnce(
        &melior::ir::operation::OperationRef<'c, 'a>,
    ) -> Result<T, Vec<(melior::ir::Location<'c>, String)>>,
) -> Result<T, Error> {
    let file = input.path.display().to_string();
    let op = module.as_operation();
    let func = crate::onnx::functions::main_function(&op).map_err(|e| input.error(e))?;
    read(&func).map_err(|errors| {
        Error(
            errors
                .into_iter()
                .map(|(at, e)| {
                    let loc = onnc_dialects::ir::Loc::from_location(at);
                    match (&loc.file, &loc.name) {
                        (Some(_), _) => format!("{loc}: error: {e}"),
                        (None, Some(_)) => format!("{file}: {loc}: error: {e}"),
                        (None, None) => format!("{file}: error: {e}"),
                    }
                })
                .collect(),
        )
    })
}

/// Parses the input (MLIR text or bytecode) in a fresh context, runs the
/// Rust verifiers, and hands the module to `f`; parse and verifier errors
/// come back as the diagnostics, with file positions.
pub(crate) fn with_module<T>(
    input: &Input,
    f: impl FnOnce(&melior::ir::Module) -> Result<T, Error>,
) -> Result<T, Error> {
    use onnc_dialects::{ir, verify};
    let file = input.path.display().to_string();
    let context =
        ir::new_context().map_err(|d| Error(d.iter().map(|d| d.to_string()).collect()))?;
    let capture = ir::DiagnosticCapture::attach(&context);
    let module = ir::parse_module_bytes(&context, input.bytes, &file);
    match module {
        Some(m) if verify::verify_module(&m) => f(&m),
        _ => {
            let mut msgs: Vec<String> = capture.take().iter().map(|d| d.to_string()).collect();
            if msgs.is_empty() {
                msgs.push(format!("{file}: error: not valid MLIR"));
            }
            Err(Error(msgs))
        }
    }
}

/// The translation named `flag`, if any.
pub fn find(flag: &str) -> Option<&'static Translation> {
    all().iter().find(|t| t.flag == flag)
}
