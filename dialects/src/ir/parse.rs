//! Parsing MLIR text with file-named locations.

use melior::{ir::Module, Context, StringRef};
use mlir_sys::{MlirContext, MlirOperation, MlirStringRef};

extern "C" {
    fn onncParseModule(
        context: MlirContext,
        source: MlirStringRef,
        name: MlirStringRef,
    ) -> MlirOperation;
}

/// Parses `source` (MLIR text) into a module whose locations name `file_name`.
///
/// In: text such as `func.func @f(%a: tensor<1xf32>) { ... }` (top-level ops
/// are wrapped in an implicit `builtin.module`, as mlir-opt does).
/// Out: the verified module, or `None` after the parser or the IRDL verifier
/// emitted diagnostics on the context (capture them with `DiagnosticCapture`).
pub fn parse_module<'c>(context: &'c Context, source: &str, file_name: &str) -> Option<Module<'c>> {
    parse_module_bytes(context, source.as_bytes(), file_name)
}

/// [`parse_module`] for bytes: MLIR text or MLIR bytecode (recognized by its
/// magic), which need not be UTF-8. Untrusted input is guarded
/// (`super::guard`): text nested deeper than `MAX_NESTING` is refused, and
/// bytecode is read in a child process so that a malformed file cannot
/// crash the tool. Refusals are error diagnostics on the context.
pub fn parse_module_bytes<'c>(
    context: &'c Context,
    source: &[u8],
    file_name: &str,
) -> Option<Module<'c>> {
    use super::guard;
    if source.starts_with(guard::BYTECODE_MAGIC)
        && std::env::var_os(guard::BYTECODE_CHILD_ENV).is_none()
    {
        return match guard::bytecode_to_text(source, file_name) {
            Ok(text) => parse_raw(context, text.as_bytes(), file_name),
            Err(why) => {
                reemit(context, file_name, &why);
                None
            }
        };
    }
    if !source.starts_with(guard::BYTECODE_MAGIC) {
        if let Some((line, col)) = guard::too_deep(source, guard::MAX_NESTING) {
            let msg = format!(
                "nesting deeper than {} levels of brackets; onnc refuses such input before parsing (MLIR's parser would overflow its stack)",
                guard::MAX_NESTING
            );
            super::emit_error(
                melior::ir::Location::new(context, file_name, line, col),
                &msg,
            );
            return None;
        }
        if let Some((line, col)) = guard::zero_aligned_blob(source) {
            super::emit_error(
                melior::ir::Location::new(context, file_name, line, col),
                "resource blob with alignment 0 in its first 4 bytes; write a power of two (4 for f32 data, as onnc prints it)",
            );
            return None;
        }
    }
    parse_raw(context, source, file_name)
}

/// Parses without the guards (the bytecode child and already-checked text).
pub(super) fn parse_raw<'c>(
    context: &'c Context,
    source: &[u8],
    file_name: &str,
) -> Option<Module<'c>> {
    let raw_source = MlirStringRef {
        data: source.as_ptr() as *const std::os::raw::c_char,
        length: source.len(),
    };
    // SAFETY: the context is alive and both buffers outlive the call; the
    // returned operation is owned by us and is a `builtin.module` or null.
    let raw = unsafe {
        onncParseModule(
            context.to_raw(),
            raw_source,
            StringRef::new(file_name).to_raw(),
        )
    };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: the operation is a module we own; `from_raw` takes ownership.
    let module = unsafe { Module::from_raw(mlir_sys::mlirModuleFromOperation(raw)) };
    Some(module)
}

/// Emits the bytecode child's report on `context`: lines already shaped
/// `FILE:L:C: error: MSG` keep their position; notes join the error before
/// them; anything else is one error at `FILE:0:0`.
fn reemit(context: &Context, file: &str, report: &str) {
    let mut errors: Vec<(usize, usize, String)> = Vec::new();
    for line in report.lines() {
        let parsed = line
            .strip_prefix(file)
            .and_then(|r| r.strip_prefix(':'))
            .and_then(|r| {
                let mut it = r.splitn(3, ':');
                let l = it.next()?.trim().parse::<usize>().ok()?;
                let c = it.next()?.trim().parse::<usize>().ok()?;
                Some((l, c, it.next()?.trim().to_string()))
            });
        match parsed {
            Some((l, c, rest)) => match rest.strip_prefix("note:") {
                Some(note) if !errors.is_empty() => {
                    let last = errors.len() - 1;
                    errors[last].2.push_str(&format!(" ({})", note.trim()));
                }
                _ => {
                    let msg = rest
                        .strip_prefix("error:")
                        .unwrap_or(&rest)
                        .trim()
                        .to_string();
                    errors.push((l, c, msg));
                }
            },
            None => errors.push((0, 0, line.to_string())),
        }
    }
    for (l, c, msg) in errors {
        super::emit_error(melior::ir::Location::new(context, file, l, c), &msg);
    }
}
