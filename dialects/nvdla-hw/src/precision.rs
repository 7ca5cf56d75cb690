//! The datapath precisions of NVDLA (`PRECISION_*` of the firmware), as the
//! `nvdla` dialect spells them.
//!
//! In: a dialect spelling (`"int8"`, `"int16"`, `"fp16"`). Out: a [`Precision`]
//! with its element size.
//!
//! ```
//! use onnc_nvdla_hw::Precision;
//! assert_eq!(Precision::parse("fp16"), Some(Precision::Fp16));
//! assert_eq!(Precision::Int8.bytes(), 1);
//! ```

use std::fmt;

/// Datapath precision (`PRECISION_*` of the firmware).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Precision {
    /// 8-bit integer.
    Int8,
    /// 16-bit integer.
    Int16,
    /// IEEE half.
    Fp16,
}

impl Precision {
    /// The dialect spelling: `"int8"`, `"int16"`, `"fp16"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Precision::Int8 => "int8",
            Precision::Int16 => "int16",
            Precision::Fp16 => "fp16",
        }
    }

    /// Parses the dialect spelling.
    pub fn parse(s: &str) -> Option<Precision> {
        match s {
            "int8" => Some(Precision::Int8),
            "int16" => Some(Precision::Int16),
            "fp16" => Some(Precision::Fp16),
            _ => None,
        }
    }

    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Precision::Int8 => 1,
            Precision::Int16 | Precision::Fp16 => 2,
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
