//! Every calibration file format: detection, one reader entry point and one
//! writer entry point.
//!
//! | [`CalibFormat`] | name | content |
//! |---|---|---|
//! | `Ctable` | `ctable` | ONNC's CTable JSON: registers per hardware layer |
//! | `Calibtable` | `calibtable` (alias `nvidia`) | NVIDIA's calibtable JSON: `{"<tensor>": {"scale": f, ...}}` |
//! | `TrtCache` | `trt-cache` | TensorRT's calibration cache: `TRT-8601-EntropyCalibration2`, then `<tensor>: <8 hex digits>` |
//! | `Amct` | `amct` | Ascend AMCT record, binary protobuf |
//! | `AmctText` | `amct-text` | Ascend AMCT record, protobuf text format (`record { key: ... value { scale_d: ... } }`) |
//!
//! In: a path or bytes, and the format if the user named it. Out:
//! [`Calibration::Ctable`] (per-layer registers: apply with
//! [`super::load()`]) or [`Calibration::Scales`] (per-tensor: apply with
//! [`super::apply_scales()`]); [`apply_calib()`] dispatches.
//!
//! ```
//! use onnc_nvdla::ctable::{detect, parse_calib, save_calib, CalibFormat, Calibration, SaveOptions};
//! let cache = b"TRT-8601-EntropyCalibration2\ndata: 3f9839e4\n";
//! assert_eq!(detect(cache), Some(CalibFormat::TrtCache));
//! let Calibration::Scales(t) = parse_calib(cache, "a.cache", None).unwrap() else { panic!() };
//! assert_eq!(t.entries["data"].scale, 1.1892667);
//! let json = save_calib(&t, CalibFormat::Calibtable, None, &SaveOptions::default()).unwrap();
//! assert_eq!(String::from_utf8(json).unwrap(), "{\n  \"data\": {\"scale\": 1.1892667, \"offset\": 0}\n}\n");
//! let err = parse_calib(b"\x00garbage", "g.bin", None).unwrap_err().to_string();
//! assert!(err.starts_with("g.bin: not a calibration file: expected one of"), "{err}");
//! ```

pub(crate) mod amct;
mod amct_text;
mod detect;
mod trt;

use std::path::Path;

pub use amct::TENSOR_PREFIX;
pub use detect::detect;

use super::load::LoadStats;
use super::scales::TensorScales;
use crate::program::Program;
use crate::Error;

/// A calibration file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CalibFormat {
    /// ONNC's CTable JSON (per hardware layer registers).
    Ctable,
    /// NVIDIA's per-tensor calibtable JSON.
    Calibtable,
    /// TensorRT's calibration cache (text, hex-encoded `f32` scales).
    TrtCache,
    /// Ascend AMCT record, binary protobuf.
    Amct,
    /// Ascend AMCT record, protobuf text format.
    AmctText,
}

impl CalibFormat {
    /// Every format, in the order detection reports them.
    pub const ALL: [CalibFormat; 5] = [
        CalibFormat::Ctable,
        CalibFormat::Calibtable,
        CalibFormat::TrtCache,
        CalibFormat::Amct,
        CalibFormat::AmctText,
    ];

    /// The name users write (`--calib-format`, `format=`).
    pub fn name(self) -> &'static str {
        match self {
            CalibFormat::Ctable => "ctable",
            CalibFormat::Calibtable => "calibtable",
            CalibFormat::TrtCache => "trt-cache",
            CalibFormat::Amct => "amct",
            CalibFormat::AmctText => "amct-text",
        }
    }

    /// The format named `s` (`nvidia` is an alias of `calibtable`).
    pub fn parse(s: &str) -> Option<CalibFormat> {
        match s {
            "nvidia" => Some(CalibFormat::Calibtable),
            _ => CalibFormat::ALL.into_iter().find(|f| f.name() == s),
        }
    }

    /// A description for messages.
    pub fn describe(self) -> &'static str {
        match self {
            CalibFormat::Ctable => "ONNC CTable JSON",
            CalibFormat::Calibtable => "NVIDIA calibtable JSON",
            CalibFormat::TrtCache => {
                "TensorRT calibration cache (TRT-<version>-<algorithm> header)"
            }
            CalibFormat::Amct => "Ascend AMCT record (binary protobuf)",
            CalibFormat::AmctText => "Ascend AMCT record (protobuf text format)",
        }
    }
}

impl std::fmt::Display for CalibFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A loaded calibration file.
#[derive(Debug, Clone, PartialEq)]
pub enum Calibration {
    /// ONNC's CTable: registers per hardware layer; apply with [`super::load()`].
    Ctable {
        /// The JSON text.
        text: String,
        /// The file name (for messages).
        file: String,
    },
    /// Per-tensor scales; apply with [`super::apply_scales()`].
    Scales(TensorScales),
}

/// Reads the calibration file at `path`, in `format` or the one detected
/// from its content ([`detect()`]).
pub fn load_calib(path: &Path, format: Option<CalibFormat>) -> Result<Calibration, Error> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| Error::Io {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse_calib(&bytes, &file, format)
}

/// Reads calibration `bytes` (named `file` in messages), in `format` or the
/// one detected from the content.
pub fn parse_calib(
    bytes: &[u8],
    file: &str,
    format: Option<CalibFormat>,
) -> Result<Calibration, Error> {
    let format = match format {
        Some(f) => f,
        None => detect(bytes).ok_or_else(|| not_calibration(bytes, file))?,
    };
    let text = || {
        std::str::from_utf8(bytes).map_err(|e| Error::Entry {
            file: file.into(),
            place: format!("byte {}", e.valid_up_to()),
            message: format!(
                "a {} is UTF-8 text and this is not; is it another format?",
                format.describe()
            ),
        })
    };
    Ok(match format {
        CalibFormat::Ctable => Calibration::Ctable {
            text: text()?.to_string(),
            file: file.into(),
        },
        CalibFormat::Calibtable => {
            Calibration::Scales(super::nvidia::parse_nvidia_calibtable(text()?, file)?)
        }
        CalibFormat::TrtCache => Calibration::Scales(trt::read(text()?, file)?),
        CalibFormat::Amct => Calibration::Scales(amct::read(bytes, file)?),
        CalibFormat::AmctText => Calibration::Scales(amct_text::read(text()?, file)?),
    })
}

/// Applies `c` to `p`: a CTable with [`super::load()`], scales with
/// [`super::apply_scales()`].
pub fn apply_calib(p: &mut Program, c: &Calibration) -> Result<LoadStats, Error> {
    match c {
        Calibration::Ctable { text, file } => super::load::load(p, text, file),
        Calibration::Scales(t) => super::apply::apply_scales(p, t),
    }
}

/// Choices of [`save_calib()`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SaveOptions {
    /// AMCT: write `InnerScaleOffsetRecord` (with `dst_type`) instead of the
    /// `convert_model` `ScaleOffsetRecord`.
    pub amct_inner: bool,
    /// TensorRT: the header line (default: the table's own, else
    /// [`trt::DEFAULT_HEADER`]).
    pub trt_header: Option<String>,
}

/// Writes `t` in the per-tensor `format`. `program` is needed to turn
/// tensor names into AMCT's layer keys, or AMCT's layer keys into tensor
/// names (an error names what is missing when it is `None`). A CTable is
/// written from a program with [`super::gen()`], not from scales.
pub fn save_calib(
    t: &TensorScales,
    format: CalibFormat,
    program: Option<&Program>,
    options: &SaveOptions,
) -> Result<Vec<u8>, Error> {
    let layered = !t.layer_inputs.is_empty();
    let by_tensor;
    let t = match (layered, format, program) {
        (true, CalibFormat::Amct | CalibFormat::AmctText, _) | (false, _, _) => t,
        (true, _, Some(p)) => {
            by_tensor = amct::to_tensor_keys(t, p);
            &by_tensor
        }
        (true, _, None) => {
            return Err(Error::Entry {
                file: t.file.clone(),
                place: "<table>".into(),
                message: format!(
                    "its entries are keyed by layer (from an AMCT record); writing a {} needs \
                     the program to find each layer's input tensor",
                    format.describe()
                ),
            })
        }
    };
    match format {
        CalibFormat::Ctable => Err(Error::Entry {
            file: t.file.clone(),
            place: "<table>".into(),
            message: "a CTable holds registers per hardware layer, not tensor scales: apply the \
                      scales to the program and write it with ctable::gen"
                .into(),
        }),
        CalibFormat::Calibtable => Ok(super::nvidia::write_nvidia_calibtable(t).into_bytes()),
        CalibFormat::TrtCache => {
            trt::write(t, options.trt_header.as_deref()).map(String::into_bytes)
        }
        CalibFormat::Amct => amct::write_binary(t, program, options.amct_inner),
        CalibFormat::AmctText => {
            amct::records(t, program).map(|r| amct_text::write(&r, options.amct_inner).into_bytes())
        }
    }
}

/// The "not a calibration file" error for `bytes`.
fn not_calibration(bytes: &[u8], file: &str) -> Error {
    let expected = CalibFormat::ALL
        .iter()
        .map(|f| format!("{} ({})", f.describe(), f.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let found = if bytes.is_empty() {
        "the file is empty".to_string()
    } else {
        let head: String = bytes
            .iter()
            .take(16)
            .flat_map(|&b| std::ascii::escape_default(b))
            .map(char::from)
            .collect();
        format!(
            "it starts with \"{head}\"; name the format if it is one of these (--calib-format / format=)"
        )
    };
    Error::NotCalibration {
        file: file.into(),
        expected,
        found,
    }
}
