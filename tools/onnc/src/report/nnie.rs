//! The report of an NNIE compile.
//!
//! In: the compiled package ([`onnc_nnie::frontend::Compiled`]: layers with
//! clips, the legalized graph, `quant_report.json`'s per-layer and
//! per-output errors), the quantization bits, whether the clips come from
//! calibration data or an MQBench table, and the model's [`Origins`]. Out:
//! a [`Report`]: one hardware layer per Caffe layer (engine = its `nnie`
//! dialect op, one descriptor = one prototxt layer), output bytes and
//! weight bytes at `bits` per element, MACs of Convolution/InnerProduct,
//! `quant` with the grid clips, `quant_error` of the layer's output (the
//! simulated quantized network against float), the per-output errors and,
//! with `--eval`, the top-1 accuracy in float and simulated 8-bit.

use super::{origin::Origins, Accuracy, HwLayer, Quant, QuantError, Report};
use onnc_nnie::frontend::Compiled;
use std::path::Path;

fn error(q: &onnc_nnie::Quality) -> QuantError {
    QuantError {
        elements: q.elements,
        cosine: q.cosine,
        max_abs_err: q.max_abs_err,
        rmse: q.rmse,
    }
}

/// Builds the report; `method` names where the clips came from.
pub fn build(
    model: &Path,
    compiled: &Compiled,
    bits: u32,
    method: &str,
    origins: &Origins,
) -> Report {
    let g = compiled.graph();
    let types = onnc_onnx::infer_graph(g).unwrap_or_default();
    let at_bits = |elements: usize| (elements as u64 * u64::from(bits)).div_ceil(8);
    let errors: std::collections::HashMap<&str, &onnc_nnie::Quality> = compiled
        .report()
        .layers
        .iter()
        .map(|l| (l.name.as_str(), &l.quality))
        .collect();
    let layers: Vec<HwLayer> = compiled
        .layers()
        .iter()
        .enumerate()
        .map(|(index, l)| {
            let shape = types
                .get(&l.top)
                .and_then(onnc_onnx::TypeInfo::static_shape)
                .unwrap_or_default();
            let out: usize = shape.iter().product();
            let weights = l.weight.as_ref().map_or(0, |w| w.shape().iter().product());
            let macs = match (&l.weight, l.has_weights()) {
                (Some(w), true) => match w.shape().first() {
                    Some(&o) if o > 0 => (out as u64).saturating_mul((weights / o) as u64),
                    _ => 0,
                },
                _ => 0,
            };
            let quant = l.is_quantized().then(|| Quant {
                calibrated: !l.input_clips.is_empty(),
                method: Some(method.to_string()),
                input_clips: l.input_clips.iter().map(|c| c.value()).collect(),
                weight_clip: l.weight_clip.map(|c| c.value()),
                weight_scale_mode: l.has_weights().then(|| "per_tensor".to_string()),
                ..Default::default()
            });
            let mut sources = vec![l.name.clone()];
            sources.extend(l.sources.iter().cloned());
            HwLayer {
                index,
                name: l.name.clone(),
                engine: l.dialect_op().to_string(),
                engines: vec![l.dialect_op().to_string()],
                onnx_nodes: origins.map_names(&sources),
                precision: if l.is_quantized() {
                    format!("{bits}bit")
                } else {
                    "-".into()
                },
                output_shape: shape,
                output_pool: "-".into(),
                output_bytes: at_bits(out),
                weight_bytes: at_bits(weights),
                macs,
                descriptors: 1,
                quant,
                quant_error: errors.get(l.name.as_str()).map(|q| error(q)),
            }
        })
        .collect();
    let mut r = Report::new(model, "nnie", layers, origins);
    r.output_quant_error = compiled
        .report()
        .outputs
        .iter()
        .map(|(k, q)| (k.clone(), error(q)))
        .collect();
    r.accuracy = compiled.accuracy().map(|a| Accuracy {
        samples: a.samples,
        float_correct: a.float_correct,
        quantized_correct: a.nnie_correct,
        agree: a.agree,
        float_top1_percent: a.float_percent(),
        quantized_top1_percent: a.nnie_percent(),
    });
    r
}
