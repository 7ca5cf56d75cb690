//! The report of an NVDLA compile.
//!
//! In: the placed [`Program`], the descriptors the emitter wrote per op
//! (`emit_counted`), the planner's memory summary, the loadable's size and
//! the model's [`Origins`]. Out: a [`Report`] — one hardware layer per
//! `hw_layer` name (engines, ONNX nodes mapped back to the model's, output
//! cube and pool, weight bytes, MACs of its convolution, descriptors as
//! emitted, INT8 layers' `quant` read from the ops' `quant.*` record),
//! `dla_ops`/`emu_ops`/`ops_per_engine` counted from the emitted
//! descriptors (so they equal the loadable's op lists), views counted
//! apart, and the memory totals.

use super::{origin::Origins, HwLayer, Quant, Report};
use onnc_nvdla::qrecord::QuantRecord;
use onnc_nvdla::{Engine, Op, Pool, Precision, Program, TensorKind};
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

impl Quant {
    /// The record of `op` merged in (an op with no record changes nothing).
    fn merge(&mut self, op: &Op) {
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
}

/// The hardware layers of `p`, in execution order, with `descriptors[i]`
/// descriptors emitted for op `i`.
pub fn hw_layers(p: &Program, descriptors: &[usize], origins: &Origins) -> Vec<HwLayer> {
    let mut layers: Vec<HwLayer> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut recorded: Vec<Vec<String>> = Vec::new();
    // As emitted: a grouped conv emitted in channel chunks counts its
    // chunks' products, not its dense block-diagonal weight's.
    let macs = onnc_nvdla::emit::conv_macs(p);
    for (k, op) in p.ops.iter().enumerate() {
        let out = &p.tensors[op.output];
        let i = *index.entry(op.hw_layer.as_str()).or_insert_with(|| {
            layers.push(HwLayer {
                index: layers.len(),
                name: op.hw_layer.clone(),
                output_pool: "none".into(),
                ..Default::default()
            });
            recorded.push(Vec::new());
            layers.len() - 1
        });
        let l = &mut layers[i];
        l.engines.push(op.engine.op_name().to_string());
        l.engine = l.engines.join("+");
        recorded[i].extend(op.onnx_nodes.iter().cloned());
        l.weight_bytes += op
            .operands()
            .filter(|&t| p.tensors[t].is_weight())
            .filter_map(|t| p.tensors[t].place.map(|m| m.size))
            .sum::<u64>();
        l.macs += macs[k];
        l.descriptors += descriptors.get(k).copied().unwrap_or(0);
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
    for (l, names) in layers.iter_mut().zip(recorded) {
        l.onnx_nodes = origins.map_names(&names);
    }
    layers
}

/// Builds the report of a compiled program.
pub fn build(
    model: &Path,
    target: &str,
    p: &Program,
    descriptors: &[usize],
    memory: Memory,
    loadable_bytes: Option<usize>,
    origins: &Origins,
) -> Report {
    let mut r = Report::new(model, target, hw_layers(p, descriptors, origins), origins);
    let (mut dla, mut emu) = (0, 0);
    for (op, &n) in p.ops.iter().zip(descriptors) {
        let name = op.engine.op_name().to_string();
        if op.engine.is_virtual() {
            *r.views.entry(name).or_insert(0) += 1;
            continue;
        }
        if n > 0 {
            *r.ops_per_engine.entry(name).or_insert(0) += n;
        }
        if op.engine == Engine::Emu {
            emu += n;
        } else {
            dla += n;
        }
    }
    r.dla_ops = Some(dla);
    r.emu_ops = Some(emu);
    r.activation_bytes = memory.activation_bytes;
    r.activation_lower_bound_bytes = Some(memory.activation_lower_bound_bytes);
    r.weight_bytes = memory.weight_bytes;
    r.bind_bytes = Some(memory.bind_bytes);
    r.loadable_bytes = loadable_bytes;
    r
}
