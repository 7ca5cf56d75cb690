//! Standard error for progress lines, notes and warnings.
//!
//! In: a line of text. Out: the line on stderr, or nothing when stderr
//! cannot take it (a closed pipe: `onnc compile -v 2>&1 | head -1`, a full
//! disk behind a redirect). A tool's stderr is advice; losing it must not
//! stop a compile that can still write its output, and `eprintln!` would
//! panic there (exit 101, the output never written).

use std::io::Write;

/// Writes `text` and a newline on stderr, ignoring a failed write.
pub fn line(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.write_all(b"\n");
}

/// Writes `text` as it is on stderr, ignoring a failed write.
pub fn text(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
