//! The per-layer report of `onnc compile --report R.json` and `onnc report`.
//!
//! In: the compiled [`Program`] (placed) and the planner's memory summary.
//! Out: [`Report`] — JSON with `hw_layers` (name, engines, ONNX nodes,
//! precision, output cube and memory; INT8 layers also `quant`: input and
//! output scale, weight-scale mode, calibrated flag and method, read from
//! the ops' `quant.*` record), `dla_ops`, `emu_ops`, `ops_per_engine`,
//! `activation_bytes`, `activation_lower_bound_bytes`, `weight_bytes`,
//! `loadable_bytes`; and the same as a text table. Deterministic: no times,
//! no absolute paths beyond the model path given.
//!
//! ```text
//!   #  hw layer        engines    prec  output            act KiB  wt KiB  onnx nodes
//!   0  conv1           conv+sdp   fp16  1x64x112x112       392.0    18.4  conv1+bn1+relu1
//! ```
//!
//! An INT8 table adds, for layers with an output converter (SDP, EMU,
//! CDP), `scale in→out` (e.g. `7.874e-3→3.937e-2`), `wts` (`chan`
//! per-channel, `tensor` per-tensor weights, `-` no conv) and `calibrated`
//! (`yes`, `yes (entropy)`, `no`), and lists under the table each
//! per-tensor layer's reason; other layers show `-`.

use onnc_nvdla::qrecord::QuantRecord;
use onnc_nvdla::{Engine, Pool, Precision, Program, TensorKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The planner's totals (from the module's `nvdla.memory`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// Activation pool size.
    pub activation_bytes: u64,
    /// Its lower bound.
    pub activation_lower_bound_bytes: u64,
    /// Weight pool size.
    pub weight_bytes: u64,
    /// Bound input/output buffers.
    pub bind_bytes: u64,
}

/// One hardware layer (the ops sharing a `hw_layer` name).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HwLayer {
    /// The hardware-layer name (CTable key prefix).
    pub name: String,
    /// The engines joined with `+` (`"conv+sdp"`, `"pdp"`, `"emu"`).
    pub engine: String,
    /// Engines, in op order (`["conv", "sdp"]`).
    pub engines: Vec<String>,
    /// ONNX nodes folded into the layer.
    pub onnx_nodes: Vec<String>,
    /// Precision of the layer's output.
    pub precision: String,
    /// Output cube `[N, C, H, W]`.
    pub output_shape: Vec<usize>,
    /// Pool of the output (`act`, `bind`), or `none` when not placed.
    pub output_pool: String,
    /// Bytes of the output cube in memory.
    pub output_bytes: u64,
    /// Bytes of the layer's packed weights.
    pub weight_bytes: u64,
    /// INT8 quantization of the layer (from its ops' `quant.*` record);
    /// absent for FP16 layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quant: Option<Quant>,
}

/// How an INT8 layer is quantized, read from the Program.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Quant {
    /// The converter registers come from calibration scales.
    pub calibrated: bool,
    /// Real value of one INT8 step of the layer's input, when calibrated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_scale: Option<f64>,
    /// The same for its output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_scale: Option<f64>,
    /// `per_channel` or `per_tensor` weights (layers with a conv).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_scale_mode: Option<String>,
    /// Why the weights are per tensor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_scale_note: Option<String>,
    /// Calibration method, when the table records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

impl Quant {
    /// The record of `op` merged in (an op with no record changes nothing).
    fn merge(&mut self, op: &onnc_nvdla::Op) {
        let r = QuantRecord::from_op(op);
        self.calibrated |= r.calibrated;
        self.input_scale = self.input_scale.or(r.input_scale);
        self.output_scale = r.output_scale.or(self.output_scale);
        if let Some(m) = r.weight_mode {
            self.weight_scale_mode = Some(m.as_str().to_string());
        }
        self.weight_scale_note = r.note.or(self.weight_scale_note.take());
        self.method = r.method.or(self.method.take());
    }

    /// `in→out` scales, mode, calibrated, for the table.
    fn columns(&self) -> [String; 3] {
        let s = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3e}"));
        [
            format!("{}→{}", s(self.input_scale), s(self.output_scale)),
            match self.weight_scale_mode.as_deref() {
                Some("per_channel") => "chan".into(),
                Some("per_tensor") => "tensor".into(),
                _ => "-".into(),
            },
            match (self.calibrated, &self.method) {
                (true, Some(m)) => format!("yes ({m})"),
                (true, None) => "yes".into(),
                (false, _) => "no".into(),
            },
        ]
    }
}

/// The whole report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// The model as given on the command line.
    pub model: String,
    /// Target configuration.
    pub target: String,
    /// Hardware layers in execution order.
    pub hw_layers: Vec<HwLayer>,
    /// DLA hardware ops (each engine job counts one; a conv+sdp pair is 2).
    pub dla_ops: usize,
    /// CPU (EMU) ops.
    pub emu_ops: usize,
    /// Ops per engine, virtual views included.
    pub ops_per_engine: BTreeMap<String, usize>,
    /// Size of the activation pool.
    pub activation_bytes: u64,
    /// Largest total of simultaneously live activations (no plan can beat it).
    pub activation_lower_bound_bytes: u64,
    /// Size of the weight pool.
    pub weight_bytes: u64,
    /// Bytes of the bound input and output buffers.
    pub bind_bytes: u64,
    /// Size of the loadable, when one was written.
    pub loadable_bytes: Option<usize>,
}

/// Builds the report of a compiled program.
pub fn build(
    model: &Path,
    target: &str,
    p: &Program,
    memory: Memory,
    loadable_bytes: Option<usize>,
) -> Report {
    let mut layers: Vec<HwLayer> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_engine = BTreeMap::new();
    for op in &p.ops {
        *per_engine
            .entry(op.engine.op_name().to_string())
            .or_insert(0) += 1;
        let out = &p.tensors[op.output];
        let weights: u64 = op
            .operands()
            .filter(|&t| p.tensors[t].is_weight())
            .filter_map(|t| p.tensors[t].place.map(|m| m.size))
            .sum();
        let i = *index.entry(op.hw_layer.clone()).or_insert_with(|| {
            layers.push(HwLayer {
                name: op.hw_layer.clone(),
                engine: String::new(),
                engines: Vec::new(),
                onnx_nodes: Vec::new(),
                precision: String::new(),
                output_shape: Vec::new(),
                output_pool: "none".into(),
                output_bytes: 0,
                weight_bytes: 0,
                quant: None,
            });
            layers.len() - 1
        });
        let l = &mut layers[i];
        l.engines.push(op.engine.op_name().to_string());
        l.engine = l.engines.join("+");
        for n in &op.onnx_nodes {
            if !l.onnx_nodes.contains(n) {
                l.onnx_nodes.push(n.clone());
            }
        }
        l.weight_bytes += weights;
        // Layers with an INT8 output converter (SDP, EMU, CDP); PDP and
        // views keep their input's scale and have nothing to calibrate.
        if out.precision == Precision::Int8
            && matches!(op.engine, Engine::Sdp | Engine::Emu | Engine::Cdp)
        {
            l.quant.get_or_insert_with(Quant::default).merge(op);
        }
        if !matches!(out.kind, TensorKind::Fused) {
            l.precision = out.precision.as_str().to_string();
            l.output_shape = out.shape.clone();
            l.output_pool = out
                .place
                .and_then(|m| m.pool)
                .map_or("none", Pool::as_str)
                .to_string();
            l.output_bytes = out.place.map_or(0, |m| m.size);
        }
    }
    let (dla_ops, emu_ops) = p.op_counts();
    Report {
        model: model.display().to_string(),
        target: target.to_string(),
        hw_layers: layers,
        dla_ops,
        emu_ops,
        ops_per_engine: per_engine,
        activation_bytes: memory.activation_bytes,
        activation_lower_bound_bytes: memory.activation_lower_bound_bytes,
        weight_bytes: memory.weight_bytes,
        bind_bytes: memory.bind_bytes,
        loadable_bytes,
    }
}

fn kib(b: u64) -> String {
    format!("{:.1}", b as f64 / 1024.0)
}

impl Report {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("a report serializes: {e}"));
        s.push('\n');
        s
    }

    /// The per-layer table and the totals.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{} on {}: {} hardware layers\n",
            self.model,
            self.target,
            self.hw_layers.len()
        );
        // INT8 reports add the scales, the weight mode and the calibrated
        // flag (FP16 tables are unchanged).
        let int8 = self.hw_layers.iter().any(|l| l.quant.is_some());
        let quant_header = if int8 {
            format!(" {:<21} {:<6} {:<13}", "scale in→out", "wts", "calibrated")
        } else {
            String::new()
        };
        s.push_str(&format!(
            "{:>4}  {:<28} {:<12} {:<5} {:<16} {:>9} {:>9}{quant_header}  {}\n",
            "#", "hw layer", "engines", "prec", "output", "out KiB", "wt KiB", "onnx nodes"
        ));
        for (i, l) in self.hw_layers.iter().enumerate() {
            let shape = l
                .output_shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join("x");
            let quant = match (&l.quant, int8) {
                (Some(q), _) => {
                    let [scales, mode, cal] = q.columns();
                    format!(" {scales:<21} {mode:<6} {cal:<13}")
                }
                (None, true) => format!(" {:<21} {:<6} {:<13}", "-", "-", "-"),
                (None, false) => String::new(),
            };
            s.push_str(&format!(
                "{:>4}  {:<28} {:<12} {:<5} {:<16} {:>9} {:>9}{quant}  {}\n",
                i,
                l.name,
                l.engine,
                l.precision,
                shape,
                kib(l.output_bytes),
                kib(l.weight_bytes),
                l.onnx_nodes.join(", ")
            ));
        }
        let notes: Vec<String> = self
            .hw_layers
            .iter()
            .filter_map(|l| {
                let q = l.quant.as_ref()?;
                let note = q.weight_scale_note.as_ref()?;
                Some(format!("  {}: per-tensor weights: {note}\n", l.name))
            })
            .collect();
        if !notes.is_empty() {
            s.push_str(&notes.concat());
        }
        let engines: Vec<String> = self
            .ops_per_engine
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!(
            "DLA ops: {}   EMU ops: {}   ({})\n",
            self.dla_ops,
            self.emu_ops,
            engines.join(", ")
        ));
        let ratio = if self.activation_lower_bound_bytes > 0 {
            self.activation_bytes as f64 / self.activation_lower_bound_bytes as f64
        } else {
            1.0
        };
        s.push_str(&format!(
            "activations: {} KiB (lower bound {} KiB, {:.3}x)   weights: {} KiB   bound buffers: {} KiB",
            kib(self.activation_bytes),
            kib(self.activation_lower_bound_bytes),
            ratio,
            kib(self.weight_bytes),
            kib(self.bind_bytes)
        ));
        if let Some(b) = self.loadable_bytes {
            s.push_str(&format!("   loadable: {} KiB", kib(b as u64)));
        }
        s.push('\n');
        s
    }
}

/// `onnc report R.json`: prints the table of a written report.
pub fn print_file(path: &Path) -> Result<(), Vec<String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![format!("error: cannot read '{}': {e}", path.display())])?;
    let r: Report = serde_json::from_str(&text).map_err(|e| {
        vec![format!(
            "{}: error: not an onnc report: {e}",
            path.display()
        )]
    })?;
    crate::outputs::print(&r.table())?;
    Ok(())
}
