//! `onnc-nnie` — the HiSilicon NNIE back-end engine (pure Rust, no MLIR).
//!
//! In: float tensors, calibration batches, clip tables, a Caffe
//! `NetParameter` built by the NNIE lowering. Out: NNIE's 8-bit logarithmic
//! codes and fake-quantized tensors, per-layer clip values on the
//! `2^(k/16)` grid, and the files of an `nnie_mapper` package:
//! `deploy.prototxt`, `.caffemodel`, mapper `.cfg`, image list and the clip
//! table `*_gfpq_param_dict.json`; plus quality metrics for `quant_report.json`.
//!
//! | concept | module | main items |
//! |---|---|---|
//! | clip grid, `z` | `grid` | [`ClipValue`], [`SnapMode`], [`Bits`] |
//! | 8-bit code | `code` | [`LogQuantizer`] (`encode`, `decode`, `fake_quant`) |
//! | tensors | `fake_quant` | [`quantize`], [`dequantize`], [`fake_quantize`] |
//! | calibration | `calib`, `histogram` | [`Calibrator`], [`CalibMethod`], [`weight_clip`] |
//! | clip table | `gfpq` | [`ClipTable`] (MQBench JSON) |
//! | Caffe | [`caffe`] | [`caffe::to_prototxt`], [`caffe::to_caffemodel`] |
//! | mapper config | `mapper_cfg`, `cfg_preprocess` | [`MapperConfig`], [`image_list`], [`CfgPreprocess`] |
//! | whole package | `package` | [`Package`], [`PackageOptions`] |
//! | quality | `quality` | [`compare`], [`QuantReport`] |
//! | ONNX → package | [`frontend`] | [`frontend::compile`], [`frontend::Compiled`], [`frontend::dialect_attrs`] |
//!
//! ```
//! use onnc_nnie::{fake_quantize, ClipValue, LogQuantizer, SnapMode};
//! // calibrated max-abs 5.3 -> grid clip 2^(38/16) ≈ 5.19, z = 38 - 127
//! let clip = ClipValue::snap(5.3, SnapMode::Nearest).unwrap();
//! assert_eq!((clip.index(), clip.z()), (38, -89));
//! let q = LogQuantizer::from_clip(clip);
//! let y = fake_quantize(q, &[0.0, 1.0, -1.0, 9.0]).unwrap();
//! assert_eq!(y[0], 0.0);
//! assert_eq!(y[1], 1.0);               // 1 = 2^((z+89)/16) is a level
//! assert_eq!(y[2], -1.0);
//! assert_eq!(y[3], clip.value_f32()); // saturates at c
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod caffe;
mod calib;
mod cfg_preprocess;
mod code;
mod error;
mod exact;
mod fake_quant;
pub mod frontend;
mod gfpq;
mod grid;
mod histogram;
mod mapper_cfg;
mod package;
mod pow2;
mod quality;

pub use calib::{
    clip_weights, weight_clip, ActivationObserver, CalibConfig, CalibMethod, Calibrator,
    DEFAULT_EMA_RATIO, MSE_SEARCH_STEPS,
};
pub use cfg_preprocess::{CfgPreprocess, CHANNEL_MEAN_FILE};
pub use code::{code_to_int, LogQuantizer, SIGN_BIT, ZERO_CODE};
pub use error::{NnieError, Problem, Result};
pub use fake_quant::{dequantize, fake_quantize, fake_quantize_in_place, quantize};
pub use gfpq::{ClipTable, DICT_KEY, NNIE_KEY};
pub use grid::{
    Bits, ClipValue, SnapMode, CLIP_INDEX_MAX, CLIP_INDEX_MIN, MAX_CODE_MAGNITUDE, Z_MAX, Z_MIN,
};
pub use histogram::{AbsHistogram, DEFAULT_HISTOGRAM_BINS};
pub use mapper_cfg::{image_list, MapperConfig};
pub use package::{Package, PackageOptions, IMAGE_LIST_FILE};
pub use quality::{compare, Accumulator, LayerQuality, Quality, QuantReport};
