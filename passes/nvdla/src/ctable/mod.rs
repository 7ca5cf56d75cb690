//! Calibration files: ONNC's CTable (the JSON interface to the quantization
//! registers of every hardware layer), and the per-tensor formats users
//! bring (NVIDIA's calibtable, TensorRT's calibration cache, Ascend AMCT's
//! records; [`formats`]).
//!
//! In: a [`Program`](crate::Program) (and a file to load). Out: the
//! CTable JSON ([`gen()`]), or the program with its registers overridden
//! ([`load()`] for a CTable; [`apply_scales()`] for the [`TensorScales`]
//! any per-tensor reader gives). One entry point for every format:
//! [`load_calib()`] (format detected from the content, [`detect()`], or
//! named), then [`apply_calib()`]; and [`save_calib()`] to write one.
//!
//! ```json
//! {
//!   "version": { "major": 0, "minor": 1, "sub_minor": 0 },
//!   "qinfo": { "qstrategy": "sls", "qerror": "default", "qthreshold": "max" },
//!   "conv1.CONV": { "in_cvt.enable": 0, ..., "out_cvt.truncate": 0 },
//!   "conv1.SDP": { "x1_op.shift_value": 0, ..., "out_cvt.truncate": 0 },
//!   "norm1.CDP": { "cdp:in_cvt.offset": 0, ..., "cdp.lut_index": 0 },
//!   "norm1.LUT": { "lut_param.linear_exp_offset.exp_offset": 0, ... },
//!   "prob.EMU": { "input_scale_factor": 1.0, "output_scale_factor": 1.0 }
//! }
//! ```
//!
//! * One `"<hw_layer>.<BLOCK>"` entry per op block, in op order; registers in
//!   the dialect's order ([`crate::registers`] gives each register its block).
//! * Register names are the dialect attribute names, except CDP's, which keep
//!   ONNC's spelling (`cdp:in_cvt.offset`, `cdp.lut_index`).
//! * `qinfo` records the quantization strategy (`qstrategy`, e.g. `"sls"`),
//!   the error measure (`qerror`, `"default"`) and the threshold rule
//!   (`qthreshold`, `"max"` or `"l2"`); all three are strings. A `Program`
//!   does not keep them: [`gen()`] writes the defaults and [`load()`] returns
//!   the loaded ones in [`LoadStats::qinfo`].
//! * Per-tensor entries (`"<tensor>": {"scale": f, "offset": f}`) are
//!   accepted and counted, not stored (they are not layer registers).
//! * Floats are `f32` parameters: written as the shortest `f32` text, loaded
//!   rounded to `f32`, so gen → load → gen is a byte-identical fixed point.
//!
//! Loading is all-or-nothing: every entry is validated first and every
//! problem reported (file, key, register, nearest valid names; the first
//! [`MAX_LISTED`] listed, the rest counted), then applied. A key given twice
//! in one object is refused with both places (never last-wins); values
//! echoed in messages are clipped to [`MAX_SHOWN`] characters.

mod apply;
mod bounds;
mod copies;
mod derive;
pub(crate) mod error;
pub mod formats;
mod gen;
mod json;
mod load;
mod names;
mod nvidia;
pub mod perchan;
mod scales;
mod sdp_cal;
mod standalone;
mod twins;
mod units;

pub use apply::{apply_scales, apply_scales_with, fixed_point, method_of, unit_root, ApplyOptions};
pub use error::{MAX_LISTED, MAX_NAMED};
pub use formats::{
    apply_calib, detect, load_calib, parse_calib, save_calib, CalibFormat, Calibration, SaveOptions,
};
pub use gen::gen;
pub use json::{clip, shown, MAX_SHOWN};
pub use load::{load, LoadStats};
pub use names::{json_register_name, QINFO_DEFAULTS};
pub use nvidia::{load_nvidia_calibtable, parse_nvidia_calibtable, write_nvidia_calibtable};
pub use scales::{TensorScale, TensorScales};
