//! Printing to standard output without panicking. `println!` panics when
//! stdout is full or closed; tools print through these and turn the error
//! into `error: cannot write to standard output: …` and a non-zero exit.

use std::io::Write;

/// Writes `text` to stdout and flushes. Out: the I/O error, if any.
pub fn print(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// The message for a failed stdout write.
pub fn describe(e: &std::io::Error) -> String {
    format!("error: cannot write to standard output: {e}")
}
