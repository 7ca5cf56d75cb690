//! The report of an MVU compile.
//!
//! In: the compiled configuration ([`onnc_mvu::Compiled`]: lowered layers
//! with integer weights and scales, one configuration row each), the
//! legalized graph (to find the ReLU fused after a layer) and the model's
//! [`Origins`]. Out: a [`Report`]: one hardware layer per MVU layer
//! (engine `mvu.conv` / `mvu.matmul`, precision `a<ip>w<wp>o<op>`, one
//! descriptor = one `mvu_config` row), MACs of the convolution or matrix
//! product, weight bytes as the weight RAM holds them (4096-bit words),
//! output bytes as the data RAM holds them (64-bit words), and the weight
//! scales (`calibrated` is false: MVU activations use fixed precisions and
//! no calibration).

use super::{origin::Origins, HwLayer, Quant, Report};
use onnc_mvu::{Compiled, LayerOp, MemoryUse};
use std::path::Path;

/// Builds the report.
pub fn build(
    model: &Path,
    compiled: &Compiled,
    graph: &onnc_onnx::Graph,
    origins: &Origins,
) -> Report {
    let layers: Vec<HwLayer> = compiled
        .lowered()
        .iter()
        .enumerate()
        .map(|(index, lw)| {
            let l = &lw.layer;
            let (macs, shape) = match l.op {
                LayerOp::Conv(c) => {
                    let [oh, ow] = c.output_hw().unwrap_or([0, 0]);
                    let per =
                        u64::from(c.in_channels) * u64::from(c.kernel[0]) * u64::from(c.kernel[1]);
                    (
                        u64::from(c.out_channels) * u64::from(oh) * u64::from(ow) * per,
                        vec![1, c.out_channels as usize, oh as usize, ow as usize],
                    )
                }
                LayerOp::MatMul(m) => (
                    u64::from(m.rows) * u64::from(m.in_features) * u64::from(m.out_features),
                    vec![m.rows as usize, m.out_features as usize],
                ),
            };
            let mem = MemoryUse::of(l, 0);
            let mut nodes = vec![lw.node.clone()];
            if lw.relu {
                let out = graph
                    .nodes
                    .iter()
                    .find(|n| n.name == lw.node)
                    .and_then(|n| n.outputs.first());
                if let Some(relu) = graph.nodes.iter().find(|n| {
                    n.op_type == "Relu" && n.inputs.first().and_then(|i| i.as_ref()) == out
                }) {
                    nodes.push(relu.name.clone());
                }
            }
            let p = l.precision;
            let engine = format!("mvu.{}", l.kind().as_str());
            HwLayer {
                index,
                name: l.name.clone(),
                engine: engine.clone(),
                engines: vec![engine],
                onnx_nodes: origins.map_names(&nodes),
                precision: format!("a{}w{}o{}", p.act, p.weight, p.out),
                output_shape: shape,
                output_pool: "-".into(),
                output_bytes: mem.output_words.saturating_mul(8),
                weight_bytes: mem.weight_words.saturating_mul(4096 / 8),
                macs,
                descriptors: 1,
                quant: Some(Quant {
                    calibrated: false,
                    weight_scale_mode: Some(
                        if lw.weights.scales.len() > 1 {
                            "per_channel"
                        } else {
                            "per_tensor"
                        }
                        .to_string(),
                    ),
                    ..Default::default()
                }),
                quant_error: None,
            }
        })
        .collect();
    Report::new(model, "mvu", layers, origins)
}
