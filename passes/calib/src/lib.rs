//! `onnc-calib` — built-in INT8 calibration (no MLIR).
//!
//! In: an ONNX [`Graph`] (as `onnc_onnx::load` gives it), calibration inputs
//! ([`CalibSource`]: ONNX test data, `.npy` files or images with
//! [`Preprocess`]) and [`Options`]. Out: a [`Calibration`] — one symmetric
//! INT8 scale (`amax / 127`) per activation tensor, keyed by tensor name,
//! with the [`Method`] and the number of sets — or a [`CalibError`] naming
//! the file, tensor or option at fault. Weight scales (per output channel
//! and per tensor, `max|w| / 127`) come from [`weight_scales`].
//!
//! How: every set runs once through the reference interpreter
//! (`onnc_interp::run_graph_observed`), in parallel over the sets (rayon);
//! every activation (graph input or node output that depends on one) is
//! folded into per-tensor statistics — `min`, `max`, and an exact,
//! mergeable histogram of `|x|` ([`Histogram`]) — so one pass serves every
//! method, and the result is identical whatever the thread count. Then a
//! method turns each tensor's statistics into a threshold: `max`,
//! `percentile` (default [`DEFAULT_PERCENTILE`]), `entropy` (TensorRT's KL
//! search) or `mse`.
//!
//! | concept | module | main items |
//! |---|---|---|
//! | inputs | [`source`], [`testdata`], [`npy_sets`], [`images`], [`preprocess`] | [`CalibSource`], [`DataSet`], [`Preprocess`] |
//! | statistics | `stats`, `histogram`, `collect` | [`Statistics`], [`Histogram`], [`collect`] |
//! | methods | [`method`] | [`Method`], [`method::entropy`], [`method::mse`] |
//! | result | `calibration` | [`Calibration`] |
//! | weights | `weights` | [`weight_scales`], [`channel_axis`] |
//! | progress | [`progress`] | [`progress_bar`] (also the NNIE frontend's) |
//!
//! Crates: `rayon` (parallel sets), `indicatif` (progress bar on a
//! terminal), `image` (decoding and resizing, as onnc-nnie), `onnc-npy`,
//! `onnc-onnx`, `onnc-interp`.
//!
//! ```
//! use onnc_calib::{calibrate, CalibSource, DataSet, Method, Options};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::{DType, Tensor};
//! let v = |n: &str| ValueInfo { name: n.into(), dtype: DType::F32, dims: vec![Dim::Fixed(4)] };
//! let g = Graph { inputs: vec![v("x")], outputs: vec![v("y")],
//!     nodes: vec![Node::new("r", "Relu", &["x"], &["y"])], ..Graph::default() };
//! let set = |vals: Vec<f32>| DataSet {
//!     inputs: vec![("x".into(), Tensor::from_f32(vec![4], vals).unwrap())],
//!     files: vec![],
//! };
//! let src = CalibSource::Sets(vec![set(vec![-1.27, 0.5, 0.0, 0.2]), set(vec![0.1, 2.54, -0.3, 0.0])]);
//! let c = calibrate(&g, &src, &Options { method: Method::Max, ..Options::default() }).unwrap();
//! assert_eq!(c.sets, 2);
//! assert_eq!(c.scales["x"], 2.54 / 127.0);
//! assert_eq!(c.scales["y"], 2.54 / 127.0);
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod calibration;
mod collect;
mod error;
mod histogram;
pub mod images;
mod inputs;
pub mod layer_norm;
pub mod method;
pub mod npy_sets;
pub mod preprocess;
pub mod progress;
pub mod psum;
pub mod psum_conv;
pub mod source;
mod stats;
pub mod testdata;
mod weights;

pub use calibration::{Calibration, QMAX};
pub use collect::collect;
pub use error::{CalibError, Result};
pub use histogram::{Coarse, Histogram, COARSE_BINS, FINE_BINS, FINE_BITS};
pub use images::load_images;
pub use method::{Method, DEFAULT_PERCENTILE, METHOD_NAMES};
pub use preprocess::{ChannelOrder, Layout, Preprocess, Resize};
pub use progress::{progress_bar, ProgressBar};
pub use source::{CalibSource, DataSet, SetPlan};
pub use stats::{Statistics, TensorStats, GATE_OPS};
pub use testdata::load_test_data;
pub use weights::{channel_axis, weight_scales, WeightScales};

use onnc_onnx::Graph;

/// Options of [`calibrate`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Options {
    /// How thresholds are chosen (default: entropy).
    pub method: Method,
    /// Draw a progress bar on stderr when it is a terminal.
    pub progress: bool,
}

/// Calibrate `graph` on `source`: one pass over the sets, then `opts.method`
/// (see the crate doc).
pub fn calibrate(graph: &Graph, source: &CalibSource, opts: &Options) -> Result<Calibration> {
    let method = opts.method.validated()?;
    Ok(collect(graph, source, opts.progress)?.calibration(method))
}
