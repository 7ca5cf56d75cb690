//! Scales along data movement the lowering made: identity SDP copies and
//! the row/column concats and reshapes around them (an upsampling
//! interleaved without RUBIK, `lower::nodes::interleave`).
//!
//! In: the program and the scales resolved so far. Out: the same map with
//! a scale for every tensor of such a chain that lacks one, taken from its
//! neighbour in the chain: a copy's output has its input's scale (the copy
//! then converts with ratio 1: exact) and its input its output's; a row or
//! column concat's members have the concat's, and the concat its first
//! member's; a reshape or slice result and its input share one. Backward
//! first (the calibrated result names the unit of the whole chain, as a
//! RUBIK's input takes its output's), then forward. A tensor that already
//! has a scale keeps it. Programs without a row or column concat are left
//! alone.
//!
//! ```text
//! phases ─slice─▶ p ─reshape─▶ l ─copy─▶ col ─concat{3}─▶ T ─reshape─▶ R ─copy─▶ part ─concat{3}─▶ O' ─reshape─▶ y (calibrated)
//! every tensor of the chain takes y's scale
//! ```

use std::collections::BTreeMap;

use crate::program::{Engine, Op, Program, TensorId, TensorKind};

/// Whether `op` is an SDP copy: every unit bypassed, reading memory.
pub(crate) fn is_copy(p: &Program, op: &Op) -> bool {
    op.engine == Engine::Sdp
        && ["x1_op.enable", "x2_op.enable", "y_op.enable"]
            .iter()
            .all(|a| op.int(a).unwrap_or(0) == 0)
        && op.inputs.iter().skip(1).all(Option::is_none)
        && op
            .inputs
            .first()
            .copied()
            .flatten()
            .is_some_and(|t| p.tensors[t].kind != TensorKind::Fused)
}

/// For a pass-through SDP of a selection convolution (the crop after an
/// interleave whose phases overrun the output): the convolution's input.
fn crop_input(p: &Program, op: &Op) -> Option<TensorId> {
    let acc = op.inputs.first().copied().flatten()?;
    let bypassed = ["x1_op.enable", "x2_op.enable", "y_op.enable"]
        .iter()
        .all(|a| op.int(a).unwrap_or(0) == 0);
    if !bypassed || p.tensors[acc].kind != TensorKind::Fused {
        return None;
    }
    let conv = &p.ops[p.producer(acc)?];
    let w = conv.inputs.get(1).copied().flatten()?;
    (conv.engine == Engine::Conv && super::derive::is_selection(p, w))
        .then(|| conv.inputs.first().copied().flatten())
        .flatten()
}

/// The `(from, to)` pairs of one op along which a scale may pass backward
/// (`from` the output side) — forward is the reverse.
fn links(p: &Program, op: &Op) -> Vec<(TensorId, TensorId)> {
    let first = op.inputs.first().copied().flatten();
    match op.engine {
        Engine::Sdp if is_copy(p, op) => first.map(|x| (op.output, x)).into_iter().collect(),
        Engine::Sdp => crop_input(p, op)
            .map(|x| (op.output, x))
            .into_iter()
            .collect(),
        Engine::Reshape | Engine::Slice => first.map(|x| (op.output, x)).into_iter().collect(),
        Engine::Concat if op.int("axis").unwrap_or(1) != 1 => {
            op.operands().map(|m| (op.output, m)).collect()
        }
        _ => Vec::new(),
    }
}

/// Fills the scales of copy chains (see the module doc).
pub(crate) fn inherit_through_copies(p: &Program, scales: &mut BTreeMap<TensorId, (f64, i64)>) {
    // Only programs with such an interleave; any other keeps its scales as they were.
    let interleaves = p
        .ops
        .iter()
        .any(|op| op.engine == Engine::Concat && op.int("axis").unwrap_or(1) != 1);
    if !interleaves {
        return;
    }
    let pairs: Vec<(TensorId, TensorId)> = p.ops.iter().flat_map(|op| links(p, op)).collect();
    for backward in [true, false] {
        for _ in 0..=p.ops.len() {
            let mut changed = false;
            for &(out, inp) in &pairs {
                let (from, to) = if backward { (out, inp) } else { (inp, out) };
                if scales.contains_key(&to) {
                    continue;
                }
                if let Some(&s) = scales.get(&from) {
                    scales.insert(to, s);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
}
