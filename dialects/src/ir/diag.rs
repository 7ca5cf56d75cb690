//! Diagnostics: MLIR's diagnostics captured as Rust values.
//!
//! In: diagnostics emitted by the parser, the verifier, upstream passes and
//! ours. Out: [`Diag`] values with a decoded [`Loc`], printed like mlir-opt:
//! `model.mlir:3:8: error: 'onnx.Relu' op expects exactly 1 operands`.

use melior::{ir::Location, Context};
use std::{
    fmt,
    sync::{Arc, Mutex},
};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// A note attached to another diagnostic, or a free-standing note.
    Note,
    /// Informational.
    Remark,
    /// Suspicious but allowed.
    Warning,
    /// The input is wrong; the tool fails.
    Error,
}

impl Severity {
    /// The word mlir-opt prints and `expected-<word>` uses.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Remark => "remark",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A decoded location: a file position, an ONNX node name, both, or nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loc {
    /// Source file of a `FileLineColLoc`.
    pub file: Option<String>,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub col: usize,
    /// The name of a `NameLoc`, e.g. the ONNX node name `loc("conv1")`.
    pub name: Option<String>,
}

impl Loc {
    /// Decodes a location: `NameLoc` gives the name (and its child's file
    /// position), `FusedLoc` its first decodable child, `CallSiteLoc` its callee.
    pub fn from_location(location: Location) -> Loc {
        if location.is_file_line_col_range() {
            return Loc {
                file: Some(
                    location
                        .file_line_col_range_filename()
                        .as_string_ref()
                        .as_str()
                        .unwrap_or("?")
                        .to_string(),
                ),
                line: location.file_line_col_range_start_line(),
                col: location.file_line_col_range_start_column(),
                name: None,
            };
        }
        if location.is_name() {
            let mut inner = Loc::from_location(location.name_child_location());
            let name = location
                .name_value()
                .as_string_ref()
                .as_str()
                .unwrap_or("?")
                .to_string();
            inner.name = Some(match inner.name {
                Some(child) => format!("{name}/{child}"),
                None => name,
            });
            return inner;
        }
        if location.is_fused() {
            let names: Vec<Loc> = (0..location.fused_num_locations())
                .map(|i| Loc::from_location(location.fused_location(i)))
                .collect();
            let mut first = names
                .iter()
                .find(|l| l.file.is_some())
                .cloned()
                .unwrap_or_default();
            let joined: Vec<String> = names.iter().filter_map(|l| l.name.clone()).collect();
            if !joined.is_empty() {
                first.name = Some(joined.join("+"));
            }
            return first;
        }
        if location.is_call_site() {
            return Loc::from_location(location.call_site_callee());
        }
        Loc::default()
    }

    /// Whether nothing is known.
    pub fn is_unknown(&self) -> bool {
        self.file.is_none() && self.name.is_none()
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, &self.name) {
            (Some(file), Some(name)) => {
                write!(f, "{file}:{}:{}: node '{name}'", self.line, self.col)
            }
            (Some(file), None) => write!(f, "{file}:{}:{}", self.line, self.col),
            (None, Some(name)) => write!(f, "node '{name}'"),
            (None, None) => f.write_str("<unknown>"),
        }
    }
}

/// One diagnostic with its notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// Severity.
    pub severity: Severity,
    /// Where.
    pub loc: Loc,
    /// The message, without location or severity.
    pub message: String,
    /// Attached notes.
    pub notes: Vec<Diag>,
}

impl Diag {
    /// An error that has no location (used for tool-level failures).
    pub fn error_without_location(message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Error,
            loc: Loc::default(),
            message: message.into(),
            notes: Vec::new(),
        }
    }
}

/// The message of a raw diagnostic, with bytes that are not UTF-8 replaced
/// (melior's `Display` fails on such messages, and `to_string` panics).
fn diagnostic_text(d: mlir_sys::MlirDiagnostic) -> String {
    unsafe extern "C" fn append(s: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the Vec<u8> below; `s` is valid during the call.
        let out = unsafe { &mut *(data as *mut Vec<u8>) };
        if !s.data.is_null() && s.length > 0 {
            out.extend_from_slice(unsafe {
                std::slice::from_raw_parts(s.data as *const u8, s.length)
            });
        }
    }
    let mut bytes: Vec<u8> = Vec::new();
    // SAFETY: the diagnostic is alive during the handler; the callback only appends.
    unsafe {
        mlir_sys::mlirDiagnosticPrint(
            d,
            Some(append),
            &mut bytes as *mut Vec<u8> as *mut std::ffi::c_void,
        )
    };
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Diag {
    /// Converts a raw diagnostic (valid during the handler call).
    fn from_raw(d: mlir_sys::MlirDiagnostic) -> Diag {
        // SAFETY: `d` is live for the duration of the handler call.
        let (severity, location, notes) = unsafe {
            let severity = match mlir_sys::mlirDiagnosticGetSeverity(d) {
                mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticError => Severity::Error,
                mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticWarning => Severity::Warning,
                mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticRemark => Severity::Remark,
                _ => Severity::Note,
            };
            let n = mlir_sys::mlirDiagnosticGetNumNotes(d);
            let notes: Vec<Diag> = (0..n)
                .map(|i| Diag::from_raw(mlir_sys::mlirDiagnosticGetNote(d, i)))
                .collect();
            (
                severity,
                Location::from_raw(mlir_sys::mlirDiagnosticGetLocation(d)),
                notes,
            )
        };
        Diag {
            severity,
            loc: Loc::from_location(location),
            message: diagnostic_text(d),
            notes,
        }
    }
}

type Sink = Arc<Mutex<Vec<Diag>>>;

/// MLIR's C callback: records the diagnostic. Never unwinds into C.
unsafe extern "C" fn on_diagnostic(
    d: mlir_sys::MlirDiagnostic,
    user: *mut std::ffi::c_void,
) -> mlir_sys::MlirLogicalResult {
    // SAFETY: `user` is the `Box<Sink>` registered in `attach`, alive until detached.
    let sink = unsafe { &*(user as *const Sink) };
    let diag = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Diag::from_raw(d)))
        .unwrap_or_else(|_| {
            Diag::error_without_location("(a diagnostic that could not be rendered)")
        });
    if let Ok(mut v) = sink.lock() {
        v.push(diag);
    }
    mlir_sys::MlirLogicalResult { value: 1 }
}

unsafe extern "C" fn drop_sink(user: *mut std::ffi::c_void) {
    // SAFETY: `user` is the leaked `Box<Sink>`; MLIR calls this once on detach.
    drop(unsafe { Box::from_raw(user as *mut Sink) });
}

impl fmt::Display for Diag {
    /// `file:line:col: error: message`, then each note on its own line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.loc.is_unknown() {
            write!(f, "{}: {}", self.severity.word(), self.message)?;
        } else {
            write!(
                f,
                "{}: {}: {}",
                self.loc,
                self.severity.word(),
                self.message
            )?;
        }
        for note in &self.notes {
            write!(f, "\n{note}")?;
        }
        Ok(())
    }
}

/// Collects every diagnostic of a context while it is attached; detaches on drop.
pub struct DiagnosticCapture<'c> {
    context: &'c Context,
    id: Option<mlir_sys::MlirDiagnosticHandlerID>,
    sink: Sink,
}

impl<'c> DiagnosticCapture<'c> {
    /// Starts capturing. Diagnostics are consumed (not printed by MLIR).
    pub fn attach(context: &'c Context) -> Self {
        let sink: Sink = Arc::new(Mutex::new(Vec::new()));
        let user = Box::into_raw(Box::new(sink.clone())) as *mut std::ffi::c_void;
        // SAFETY: the context is alive; MLIR owns `user` until detach and frees it with `drop_sink`.
        let id = unsafe {
            mlir_sys::mlirContextAttachDiagnosticHandler(
                context.to_raw(),
                Some(on_diagnostic),
                user,
                Some(drop_sink),
            )
        };
        DiagnosticCapture {
            context,
            id: Some(id),
            sink,
        }
    }

    /// Takes what was captured so far, in emission order.
    pub fn take(&self) -> Vec<Diag> {
        self.sink
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    /// Whether an error was captured (and not yet taken).
    pub fn has_errors(&self) -> bool {
        self.sink
            .lock()
            .map(|v| v.iter().any(|d| d.severity == Severity::Error))
            .unwrap_or(false)
    }
}

impl Drop for DiagnosticCapture<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            // SAFETY: `id` was returned by attach on this live context.
            unsafe { mlir_sys::mlirContextDetachDiagnosticHandler(self.context.to_raw(), id) };
        }
    }
}

extern "C" {
    fn onncEmitDiagnostic(
        loc: mlir_sys::MlirLocation,
        severity: std::os::raw::c_int,
        message: mlir_sys::MlirStringRef,
    );
}

fn emit(location: Location, severity: i32, message: &str) {
    let text = melior::StringRef::new(message);
    // SAFETY: the location is valid for the call; MLIR copies the message.
    unsafe { onncEmitDiagnostic(location.to_raw(), severity, text.to_raw()) }
}

/// Emits an error at `location` through the context's diagnostic engine.
pub fn emit_error(location: Location, message: &str) {
    emit(location, 0, message);
}

/// Emits a warning at `location`.
pub fn emit_warning(location: Location, message: &str) {
    emit(location, 1, message);
}

/// Emits a remark at `location`.
pub fn emit_remark(location: Location, message: &str) {
    emit(location, 2, message);
}

/// `loc(fused["a", "b"])`: one location standing for several (ops merged
/// by a rewrite), without metadata.
pub fn fused_location<'c>(context: &'c Context, locations: &[Location<'c>]) -> Location<'c> {
    let raw: Vec<mlir_sys::MlirLocation> = locations.iter().map(|l| l.to_raw()).collect();
    // SAFETY: all locations belong to `context`; a null attribute means "no metadata".
    unsafe {
        Location::from_raw(mlir_sys::mlirLocationFusedGet(
            context.to_raw(),
            raw.len() as isize,
            raw.as_ptr(),
            mlir_sys::MlirAttribute {
                ptr: std::ptr::null(),
            },
        ))
    }
}
