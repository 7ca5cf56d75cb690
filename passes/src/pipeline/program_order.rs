//! The text form's tensor order, applied to an in-memory NVDLA program.
//!
//! Reading `nvdla` text numbers a program's tensors in the order the text
//! holds them: the network inputs, the weights some op reads (in their
//! order), then each op's result in op order; a weight nothing reads is not
//! printed, and each op's ONNX node list is read back from its location.
//! Emission lays memory out in tensor order, so [`canonical_order`] gives
//! an in-memory program that order — and `onnc compile` the same bytes as
//! `onnc-opt` followed by `onnc-translate --to-nvdla-loadable`.
//!
//! In: a program. Out: the same program renumbered (tensors, operands,
//! inputs, outputs), unread weights dropped.

use onnc_nvdla::{Program, TensorId, TensorKind};

/// The node list an op's location reads back as (`a+b` is two nodes; an op
/// without nodes is named by its hardware layer).
fn located_nodes(nodes: &[String], hw_layer: &str) -> Vec<String> {
    if nodes.is_empty() {
        return hw_layer.split('+').map(str::to_string).collect();
    }
    let joined = nodes.join("+");
    let parts: Vec<&str> = joined.split('+').filter(|p| !p.is_empty()).collect();
    if parts.len() < 2 {
        joined.split('+').map(str::to_string).collect()
    } else {
        parts.into_iter().map(str::to_string).collect()
    }
}

/// Renumbers `p` into the text form's order (see the module doc).
pub fn canonical_order(p: &mut Program) {
    let n = p.tensors.len();
    let mut read = vec![false; n];
    for op in &p.ops {
        for t in op.operands() {
            read[t] = true;
        }
    }
    let mut order: Vec<TensorId> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut take = |t: TensorId, order: &mut Vec<TensorId>| {
        if !seen[t] {
            seen[t] = true;
            order.push(t);
        }
    };
    for &t in &p.inputs {
        take(t, &mut order);
    }
    for (t, tensor) in p.tensors.iter().enumerate() {
        if matches!(tensor.kind, TensorKind::Weight(_)) && read[t] {
            take(t, &mut order);
        }
    }
    for op in &p.ops {
        take(op.output, &mut order);
    }
    let mut new_id = vec![usize::MAX; n];
    for (new, &old) in order.iter().enumerate() {
        new_id[old] = new;
    }
    let mut slots: Vec<Option<onnc_nvdla::Tensor>> = std::mem::take(&mut p.tensors)
        .into_iter()
        .map(Some)
        .collect();
    p.tensors = order
        .iter()
        .map(|&old| slots[old].take().expect("each tensor taken once"))
        .collect();
    for op in &mut p.ops {
        for t in op.inputs.iter_mut().flatten() {
            *t = new_id[*t];
        }
        op.output = new_id[op.output];
        op.onnx_nodes = located_nodes(&op.onnx_nodes, &op.hw_layer);
    }
    for t in &mut p.inputs {
        *t = new_id[*t];
    }
    for (i, t) in p.outputs.iter_mut().enumerate() {
        *t = new_id[*t];
        p.tensors[*t].kind = TensorKind::Output(i as u16);
    }
}
