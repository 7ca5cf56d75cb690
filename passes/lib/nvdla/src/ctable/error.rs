//! [`CtableError`]: what can be wrong with a calibration table.
//!
//! In: a problem found while loading. Out: a message naming the file, the
//! key, the register and what would fix it, e.g.
//! `net.json: 'conv1.SDP': unknown register 'out_cvt.scal' (did you mean 'out_cvt.scale'?)`.

fn hint(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!(" (did you mean '{one}'?)"),
        many => format!(
            " (did you mean one of: {}?)",
            many.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Most problems listed one by one; the rest are counted.
pub const MAX_LISTED: usize = 20;

fn list(errors: &[CtableError]) -> String {
    let mut s: String = errors
        .iter()
        .take(MAX_LISTED)
        .map(|e| format!("\n  {e}"))
        .collect();
    if errors.len() > MAX_LISTED {
        s += &format!("\n  … and {} more", errors.len() - MAX_LISTED);
    }
    s
}

/// A calibration table that cannot be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CtableError {
    /// The text is not JSON.
    #[error("{file}:{line}:{column}: malformed JSON: {message}")]
    Json {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// `version`, `qinfo` or the top level has the wrong shape.
    #[error("{file}: '{key}': {message}")]
    Structure {
        /// File name.
        file: String,
        /// The key (`version`, `qinfo`, or `<top level>`).
        key: String,
        /// What is wrong and what is expected.
        message: String,
    },
    /// A `<hw_layer>.<BLOCK>` key (or tensor name) the program does not have.
    #[error("{file}: unknown layer key '{key}'{}", hint(suggestions))]
    UnknownLayer {
        /// File name.
        file: String,
        /// The key.
        key: String,
        /// Nearest valid keys.
        suggestions: Vec<String>,
    },
    /// A register the block does not have.
    #[error("{file}: '{key}': unknown register '{register}'{}", hint(suggestions))]
    UnknownRegister {
        /// File name.
        file: String,
        /// The layer key.
        key: String,
        /// The register.
        register: String,
        /// Nearest valid registers of the block.
        suggestions: Vec<String>,
    },
    /// A value outside the register's range.
    #[error("{file}: '{key}': {message}")]
    OutOfRange {
        /// File name.
        file: String,
        /// The layer key.
        key: String,
        /// The register.
        register: String,
        /// The range check's message (register, range, value).
        message: String,
    },
    /// A value of the wrong JSON type.
    #[error("{file}: '{key}': register '{register}' must be {expected}, got {found}")]
    WrongType {
        /// File name.
        file: String,
        /// The layer key.
        key: String,
        /// The register.
        register: String,
        /// The expected JSON type.
        expected: String,
        /// The JSON text found.
        found: String,
    },
    /// An NVIDIA calibtable entry that cannot be converted.
    #[error("{file}: tensor '{tensor}': {message}")]
    Calibration {
        /// File name.
        file: String,
        /// The tensor.
        tensor: String,
        /// What is wrong.
        message: String,
    },
    /// A key that appears twice in one JSON object (JSON parsers disagree
    /// on which one wins, so neither is taken).
    #[error("{file}:{}:{}: key '{key}' appears twice in one object (first at line {}, column {}); keep one", second.0, second.1, first.0, first.1)]
    DuplicateKey {
        /// File name.
        file: String,
        /// The key (clipped).
        key: String,
        /// Line and column of the first occurrence.
        first: (usize, usize),
        /// Line and column of the second.
        second: (usize, usize),
    },
    /// More than one problem (the first [`MAX_LISTED`] listed, the rest counted).
    #[error("{file}: {} problems:{}", errors.len(), list(errors))]
    Several {
        /// File name.
        file: String,
        /// The problems, in key order.
        errors: Vec<CtableError>,
    },
}

impl CtableError {
    /// One error, or [`CtableError::Several`].
    pub(crate) fn collect(file: &str, mut errors: Vec<CtableError>) -> Result<(), CtableError> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(CtableError::Several {
                file: file.to_string(),
                errors,
            }),
        }
    }
}
