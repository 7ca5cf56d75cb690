//! `onnc-nvdla-dimg` — reads the inputs and expected outputs of
//! nvdla_runtime test runs, so that NVDLA results can be checked against the
//! reference interpreter.
//!
//! In: a binary PGM input image (`P5`, 8-bit) and a `.dimg` text dump
//! written by `nvdla_runtime --rawdump`, plus the model's output shape.
//! Out: the `1×1×H×W` `f32` input tensor ([`Pgm::to_tensor`]) and the
//! expected output as an NCHW `f32` tensor ([`load_dimg_nchw`]).
//!
//! Facts (established on ONNC's single-layer anchors; see the README):
//! * the dump lists the output cube channel by channel, row by row, column
//!   by column ([`DumpOrder::Chw`]) with no padding — the runtime unpacks the
//!   FP16 `NCxHWx` surface before printing;
//! * an input pixel `p` is the value `p` itself ([`PixelMap::NVDLA_RUNTIME`]);
//! * NVDLA (FP16) and the FP32 interpreter agree within [`FP16_RTOL`] /
//!   [`FP16_ATOL`].
//!
//! ```
//! use onnc_nvdla_dimg::{dimg_to_nchw, parse_dimg, DumpOrder, Pgm, PixelMap};
//! let image = Pgm::parse(b"P5\n2 1\n255\n\x01\x02").unwrap();
//! let input = image.to_tensor(PixelMap::NVDLA_RUNTIME).unwrap();
//! assert_eq!(input.as_f32().unwrap(), &[1.0, 2.0]);
//! let expected = dimg_to_nchw(&parse_dimg("4 8").unwrap(), &[1, 1, 1, 2], DumpOrder::Chw).unwrap();
//! assert_eq!(expected.as_f32().unwrap(), &[4.0, 8.0]);
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod dimg;
mod error;
pub mod order;
mod pgm;

pub use dimg::{dimg_to_nchw, load_dimg, load_dimg_nchw, parse_dimg};
pub use error::{Error, Result};
pub use order::{Cube, DumpOrder};
pub use pgm::{Pgm, PixelMap};

/// Relative tolerance for NVDLA FP16 results vs the FP32 interpreter:
/// `2^-9` ≈ 1.95e-3, four times FP16's unit roundoff `u = 2^-11` (the
/// anchors' worst case is ≈ 1.4·u; a few FP16 roundings along stem conv,
/// SDP and the operator under test, plus the dump's 6 significant digits).
pub const FP16_RTOL: f64 = 1.0 / 512.0;

/// Absolute tolerance: `2^-14` ≈ 6.1e-5, the smallest normal FP16, for
/// values that round to (or cancel near) zero.
pub const FP16_ATOL: f64 = 1.0 / 16384.0;
