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

/// Tensors listed by name in [`CtableError::MissingScales`]; the rest counted.
pub const MAX_NAMED: usize = 8;

/// `'a', 'b', … (and N more)`: the first [`MAX_NAMED`] of `names`.
fn named(names: &[String], quote: bool) -> String {
    let mut s = names
        .iter()
        .take(MAX_NAMED)
        .map(|n| if quote { format!("'{n}'") } else { n.clone() })
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > MAX_NAMED {
        s += &format!(" (and {} more)", names.len() - MAX_NAMED);
    }
    s
}

fn missing_message(tensors: &[String], unmatched: &[String]) -> String {
    let mut s = format!(
        "the table has no scale for {} tensor{} the program needs: {}; add an entry for each \
         (keyed by its ONNX tensor name), or calibrate from data",
        tensors.len(),
        if tensors.len() == 1 { "" } else { "s" },
        named(tensors, true)
    );
    if !unmatched.is_empty() {
        s += &format!(
            "; {} table entr{} name{} no tensor of this program: {}",
            unmatched.len(),
            if unmatched.len() == 1 { "y" } else { "ies" },
            if unmatched.len() == 1 { "s" } else { "" },
            named(unmatched, false)
        );
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
    /// A problem at one place of a calibration file (`line 3`, `record 2`).
    #[error("{file}: {place}: {message}")]
    Entry {
        /// File name.
        file: String,
        /// Where in the file (`line 3`, `record 2 (key 'conv1')`).
        place: String,
        /// What is wrong and what would fix it.
        message: String,
    },
    /// Tensors whose scale the program's INT8 converters need and the table
    /// lacks (the first [`MAX_NAMED`] named, the rest counted).
    #[error("{file}: {}", missing_message(tensors, unmatched))]
    MissingScales {
        /// File name.
        file: String,
        /// The tensors, in program order.
        tensors: Vec<String>,
        /// Table entries that name no tensor of the program (with hints).
        unmatched: Vec<String>,
    },
    /// Content that is none of the calibration formats.
    #[error("{file}: not a calibration file: expected one of {expected}; {found}")]
    NotCalibration {
        /// File name.
        file: String,
        /// The formats tried.
        expected: String,
        /// What the content looks like.
        found: String,
    },
    /// A file that cannot be read.
    #[error("cannot read '{file}': {message}")]
    Io {
        /// File name.
        file: String,
        /// The system's message and what was attempted.
        message: String,
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
