//! The compile report: one versioned schema for every target
//! (`onnc compile --report R.json`, read back by `onnc report`).
//!
//! In: what a target's compile produced — NVDLA's placed program and the
//! descriptors the emitter wrote ([`nvdla`]), NNIE's calibrated layers and
//! their simulated quantization error ([`nnie`]), MVU's layers ([`mvu`]) —
//! and the model's original ONNX nodes ([`origin`]). Out: a [`Report`] with
//! two views, `hw_layers` (one row per hardware layer, in execution order)
//! and `onnx_nodes` (one row per node of the model as given, in graph
//! order, naming the hardware layers it went into), plus totals; written
//! as JSON and printed as a table ([`table`]). Deterministic: no times, no
//! paths beyond the model path given.
//!
//! ```text
//! {"schema_version": 1, "model": "m.onnx", "target": "nv_full",
//!  "hw_layers": [{"index": 0, "name": "conv1", "engine": "conv+sdp", "macs": 118013952, "descriptors": 2, ...}],
//!  "onnx_nodes": [{"index": 0, "name": "conv1", "op_type": "Conv", "hw_layers": ["conv1"], ...}], ...}
//! ```

pub mod mvu;
pub mod nnie;
pub mod nvdla;
pub mod origin;
pub mod table;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Version of the JSON layout; raised when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// One hardware layer: the unit a target schedules (an NVDLA conv and its
/// fused SDP, an NNIE Caffe layer, an MVU configuration row).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct HwLayer {
    /// Position in execution order.
    pub index: usize,
    /// The hardware-layer name (NVDLA: CTable key prefix; NNIE: Caffe layer).
    pub name: String,
    /// The engines joined with `+` (`"conv+sdp"`, `"pdp"`, `"emu"`, `"nnie.conv"`, `"mvu.conv"`).
    pub engine: String,
    /// Engines, in op order.
    pub engines: Vec<String>,
    /// The model's ONNX nodes this layer computes (names as in the model;
    /// legalization's pieces such as `conv/g3` are mapped back to `conv`).
    pub onnx_nodes: Vec<String>,
    /// Precision of the layer's output (`fp16`, `int8`, `a8w8o8`, ...).
    pub precision: String,
    /// Output shape.
    pub output_shape: Vec<usize>,
    /// Pool of the output (NVDLA: `act`, `bind`; `none` when not in memory; `-` elsewhere).
    pub output_pool: String,
    /// Bytes of the output activation in memory.
    pub output_bytes: u64,
    /// Bytes of the layer's weights as the target stores them.
    pub weight_bytes: u64,
    /// Multiply-accumulates of the layer (convolutions, matrix products; 0 otherwise).
    pub macs: u64,
    /// Operation descriptors emitted for the layer (NVDLA: one per engine
    /// job, per row band or channel chunk of a split convolution; 0 for
    /// views; NNIE: Caffe layers; MVU: configuration rows).
    pub descriptors: usize,
    /// How the layer is quantized; absent for float layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quant: Option<Quant>,
    /// Simulated quantized output against float (NNIE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quant_error: Option<QuantError>,
}

/// How a layer is quantized.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Quant {
    /// The quantization parameters come from calibration data (or a table).
    pub calibrated: bool,
    /// Real value of one integer step of the layer's input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_scale: Option<f64>,
    /// The same for its output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_scale: Option<f64>,
    /// `per_channel` or `per_tensor` weights (layers with weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_scale_mode: Option<String>,
    /// Why the weights are per tensor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_scale_note: Option<String>,
    /// Calibration method, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// NNIE: clip value of each data input (`2^(k/16)` grid).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_clips: Vec<f64>,
    /// NNIE: clip value of the weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_clip: Option<f64>,
}

/// Quantized against float, over the evaluation sets.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default)]
pub struct QuantError {
    /// Elements compared.
    pub elements: usize,
    /// Cosine similarity.
    pub cosine: f64,
    /// Largest absolute error.
    pub max_abs_err: f64,
    /// Root-mean-square error.
    pub rmse: f64,
}

/// One node of the model as given.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct OnnxNode {
    /// Position in the model's (topologically sorted) node list.
    pub index: usize,
    /// Node name (`<op_type>_<index>` when the model leaves it empty).
    pub name: String,
    /// ONNX operator.
    pub op_type: String,
    /// Hardware layers computing (part of) it; empty when simplification
    /// folded it away (constants, shape arithmetic, identities) or the
    /// target runs it as a memory view.
    pub hw_layers: Vec<String>,
    /// Engines of those layers, without repeats.
    pub engine: String,
    /// Precision of its (first) hardware layer, `-` without one.
    pub precision: String,
    /// Multiply-accumulates of the node itself.
    pub macs: u64,
    /// Descriptors of its hardware layers (a layer shared by several nodes counts for each).
    pub descriptors: usize,
    /// Weight bytes of its hardware layers (shared layers count for each).
    pub weight_bytes: u64,
    /// Output bytes of its hardware layers (shared layers count for each).
    pub output_bytes: u64,
    /// Every quantized layer of it is calibrated; absent when none is quantized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibrated: Option<bool>,
}

/// The whole report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Report {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// The model as given on the command line.
    pub model: String,
    /// Target (`nv_full`, `nv_large`, `nv_small`, `nnie`, `mvu`).
    pub target: String,
    /// Hardware layers in execution order.
    pub hw_layers: Vec<HwLayer>,
    /// The model's nodes in graph order.
    pub onnx_nodes: Vec<OnnxNode>,
    /// Sum of the layers' MACs.
    pub macs: u64,
    /// Descriptors emitted (NVDLA: the ops of the loadable's task op lists).
    pub descriptors: usize,
    /// Bytes of weights (NVDLA: the weight pool).
    pub weight_bytes: u64,
    /// Bytes of activations (NVDLA: the activation pool; else the layers' outputs summed).
    pub activation_bytes: u64,
    /// NVDLA: largest total of simultaneously live activations (no plan can beat it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activation_lower_bound_bytes: Option<u64>,
    /// NVDLA: bytes of the bound input and output buffers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind_bytes: Option<u64>,
    /// NVDLA: DLA descriptors emitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dla_ops: Option<usize>,
    /// NVDLA: EMU (CPU) descriptors emitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emu_ops: Option<usize>,
    /// NVDLA: descriptors per engine (engines that emitted any).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ops_per_engine: BTreeMap<String, usize>,
    /// NVDLA: virtual view ops per kind (reshape, concat, slice): placed in memory, no descriptor.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub views: BTreeMap<String, usize>,
    /// NVDLA: size of the loadable, when one was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loadable_bytes: Option<usize>,
    /// NNIE: simulated quantized network against float, per graph output.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub output_quant_error: BTreeMap<String, QuantError>,
    /// NNIE with `--eval DIR`: top-1 accuracy on the labelled samples, in
    /// float and with the quantization simulated (absent without `--eval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<Accuracy>,
}

/// Top-1 accuracy on held-out labelled samples (`--eval DIR`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default)]
pub struct Accuracy {
    /// Samples run.
    pub samples: usize,
    /// Samples the float model (reference interpreter) classifies right.
    pub float_correct: usize,
    /// Samples the simulated quantized network classifies right.
    pub quantized_correct: usize,
    /// Samples on which the two choose the same class.
    pub agree: usize,
    /// `float_correct` in percent of `samples`.
    pub float_top1_percent: f64,
    /// `quantized_correct` in percent of `samples`.
    pub quantized_top1_percent: f64,
}

impl Report {
    /// A report with the totals every target computes the same way filled
    /// from `hw_layers`, and the ONNX-node view built from `origins`.
    pub fn new(
        model: &Path,
        target: &str,
        hw_layers: Vec<HwLayer>,
        origins: &origin::Origins,
    ) -> Report {
        let onnx_nodes = origins.view(&hw_layers);
        Report {
            schema_version: SCHEMA_VERSION,
            model: model.display().to_string(),
            target: target.to_string(),
            macs: hw_layers.iter().map(|l| l.macs).sum(),
            descriptors: hw_layers.iter().map(|l| l.descriptors).sum(),
            weight_bytes: hw_layers.iter().map(|l| l.weight_bytes).sum(),
            activation_bytes: hw_layers.iter().map(|l| l.output_bytes).sum(),
            hw_layers,
            onnx_nodes,
            ..Default::default()
        }
    }

    /// Pretty JSON, newline-terminated.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("a report serializes: {e}"));
        s.push('\n');
        s
    }

    /// Reads a report written by `onnc compile --report`; a file of another
    /// schema version, or not a report, is an error naming the file.
    pub fn read(path: &Path) -> Result<Report, Vec<String>> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| vec![format!("error: cannot read '{}': {e}", path.display())])?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            vec![format!(
                "{}: error: not an onnc report (not JSON: {e})",
                path.display()
            )]
        })?;
        match value.get("schema_version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(SCHEMA_VERSION) => {}
            Some(v) => {
                return Err(vec![format!(
                    "{}: error: report schema version {v}, this onnc reads version {SCHEMA_VERSION}; compile the model again with this onnc's --report",
                    path.display()
                )])
            }
            None => {
                return Err(vec![format!(
                    "{}: error: not an onnc report (no \"schema_version\"); write one with onnc compile --report",
                    path.display()
                )])
            }
        }
        serde_json::from_value(value).map_err(|e| {
            vec![format!(
                "{}: error: not an onnc report: {e}",
                path.display()
            )]
        })
    }
}

/// Writes `r` to `path` as JSON (atomically).
pub fn write(path: &Path, r: &Report) -> Result<(), Vec<String>> {
    onnc_passes::io::write_atomic(path, r.to_json().as_bytes())
        .map_err(|e| vec![format!("error: cannot write '{}': {e}", path.display())])
}

/// `onnc report R.json [--view V] [--sort KEY] [--format F]`.
pub fn print_file(args: &crate::cli::Report) -> Result<(), Vec<String>> {
    let r = Report::read(&args.report)?;
    let text = table::render(&r, args.view, args.sort.as_deref(), args.format)
        .map_err(|e| vec![format!("error: {e}")])?;
    crate::outputs::print(&text)
}
