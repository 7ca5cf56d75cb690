//! Guards in front of MLIR's parser for untrusted input.
//!
//! * **Nesting**: MLIR's parser recurses once per nested region, block,
//!   array or dictionary; 10,000 nested `module {` or a 100,000-deep array
//!   attribute overflow the stack. Text nested deeper than
//!   [`MAX_NESTING`] brackets is refused before parsing, naming the line.
//! * **Resource blobs**: a `dialect_resources` hex blob starts with its
//!   alignment (4 bytes, little-endian). MLIR refuses a value that is not a
//!   power of two, except 0, for which LLVM 22 aborts the process ("LLVM
//!   ERROR: out of memory") when the blob holds data. Such a blob is refused
//!   before parsing ([`zero_aligned_blob`]; found by the `mlir` fuzz target).
//! * **Bytecode**: MLIR's bytecode reader trusts its input (mutated files
//!   crash it: segfaults, C++ exceptions, fatal asserts). Bytecode is
//!   therefore read in a child process — the same executable started with
//!   [`BYTECODE_CHILD_ENV`] set, which calls [`bytecode_child`] first thing
//!   in `main` — that prints the module as generic text; the parent parses
//!   that text. A crash of the child is an error naming the file.

use std::io::{Read, Write};

/// Deepest bracket nesting (`{ [ ( <` outside strings and comments)
/// accepted in MLIR text. Real IR stays below a few dozen levels.
pub const MAX_NESTING: usize = 1000;

/// The 4-byte magic of MLIR bytecode.
pub const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// Environment variable that puts a tool into bytecode-reader child mode;
/// its value names the file in diagnostics.
pub const BYTECODE_CHILD_ENV: &str = "ONNC_BYTECODE_CHILD";

/// The first place where `text` nests deeper than `limit`, as
/// `(line, column)` (1-based), skipping string literals and `//` comments.
pub fn too_deep(text: &[u8], limit: usize) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut col) = (0usize, 1usize, 0usize);
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        col += 1;
        match c {
            b'\n' => {
                line += 1;
                col = 0;
            }
            b'"' => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    if text[i] == b'\\' {
                        i += 1;
                    } else if text[i] == b'\n' {
                        line += 1;
                        col = 0;
                    }
                    i += 1;
                }
            }
            b'/' if text.get(i + 1) == Some(&b'/') => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'{' | b'[' | b'(' | b'<' => {
                depth += 1;
                if depth > limit {
                    return Some((line, col));
                }
            }
            b'}' | b']' | b')' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first `"0x…"` hex blob of a `{-# … #-}` resource section whose
/// alignment (its first 4 bytes, little-endian) is 0 while data follows, as
/// `(line, column)` (1-based) of the opening quote. Text before the first
/// `{-#` is not looked at.
pub fn zero_aligned_blob(text: &[u8]) -> Option<(usize, usize)> {
    let start = text.windows(3).position(|w| w == b"{-#")?;
    let mut i = start;
    while i + 3 <= text.len() {
        if &text[i..i + 3] == b"\"0x" {
            let hex: Vec<u8> = text[i + 3..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .copied()
                .collect();
            if hex.len() > 8 && hex[..8].iter().all(|&c| c == b'0') {
                let line = 1 + text[..i].iter().filter(|&&c| c == b'\n').count();
                let col = i - text[..i]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1)
                    + 1;
                return Some((line, col));
            }
            i += 3 + hex.len();
        } else {
            i += 1;
        }
    }
    None
}

/// Child mode: when [`BYTECODE_CHILD_ENV`] is set, reads bytecode from
/// stdin, parses it in this process, prints the module as generic text
/// with locations to stdout (diagnostics to stderr) and exits. Tools call
/// this first in `main`; it returns at once when the variable is not set.
pub fn bytecode_child() {
    let Some(file) = std::env::var_os(BYTECODE_CHILD_ENV) else {
        return;
    };
    let file = file.to_string_lossy().into_owned();
    let mut bytes = Vec::new();
    if std::io::stdin().read_to_end(&mut bytes).is_err() {
        std::process::exit(2);
    }
    let code = match super::new_context() {
        Ok(context) => {
            context.set_allow_unregistered_dialects(true);
            let capture = super::DiagnosticCapture::attach(&context);
            let parsed = super::parse::parse_raw(&context, &bytes, &file);
            for d in capture.take() {
                // The parent reads these; a closed pipe must not panic the child.
                let _ = writeln!(std::io::stderr(), "{d}");
            }
            match parsed {
                Some(module) => {
                    let options = super::PrintOptions {
                        generic: true,
                        debug_info: true,
                        assume_verified: true,
                        ..Default::default()
                    };
                    let text = super::print_op(&module.as_operation(), &options);
                    let mut out = std::io::stdout().lock();
                    if out
                        .write_all(text.as_bytes())
                        .and_then(|()| out.flush())
                        .is_ok()
                    {
                        0
                    } else {
                        2
                    }
                }
                None => 1,
            }
        }
        Err(_) => 2,
    };
    std::process::exit(code);
}

/// Reads `bytes` (MLIR bytecode) in a child process. Out: the module as
/// generic text, or the error to report (the child's diagnostics, or how
/// it died).
pub fn bytecode_to_text(bytes: &[u8], file: &str) -> Result<String, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot start the bytecode reader: {e}"))?;
    let mut child = std::process::Command::new(exe)
        .env(BYTECODE_CHILD_ENV, file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the bytecode reader: {e}"))?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or("cannot feed the bytecode reader")?;
    let input = bytes.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child
        .wait_with_output()
        .map_err(|e| format!("the bytecode reader failed: {e}"))?;
    let _ = feeder.join();
    if out.status.success() {
        return String::from_utf8(out.stdout)
            .map_err(|_| "the bytecode reader printed non-UTF-8 text".to_string());
    }
    let diags = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if !diags.is_empty() && out.status.code() == Some(1) {
        return Err(diags);
    }
    use std::os::unix::process::ExitStatusExt;
    let how = match out.status.signal() {
        Some(s) => format!("crashed with signal {s}"),
        None => format!(
            "failed with exit status {}",
            out.status.code().unwrap_or(-1)
        ),
    };
    Err(format!(
        "the MLIR bytecode reader {how} on this file: it is not valid MLIR bytecode (corrupt, truncated, or from another MLIR version); regenerate it with onnc-translate --mlir-to-bytecode"
    ))
}
