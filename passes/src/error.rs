//! The crate's one error type: why an import, a translation or an output
//! written by a translation failed.
//!
//! In: every message found (each already names the file and, where it
//! applies, the node or op: `model.onnx: node 'conv1' (Conv): …`). Out: an
//! [`Error`] printing them one per line, in the order found.
//!
//! ```
//! let e = onnc_passes::Error(vec!["a.onnx: error: bad".into(), "a.onnx: error: worse".into()]);
//! assert_eq!(e.to_string(), "a.onnx: error: bad\na.onnx: error: worse");
//! ```

use std::fmt;

/// Why an import or a translation failed: every message names the file and,
/// where it applies, the op or node (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub Vec<String>);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join("\n"))
    }
}

impl std::error::Error for Error {}
