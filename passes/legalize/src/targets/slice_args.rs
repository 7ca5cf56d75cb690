//! The constant operands of an ONNX `Slice` e-node, as the targets' checks
//! read them (`nvdla_moves`, `nnie_slice`).
//!
//! In: the e-graph and the `Slice` e-node. Out: its `starts`, `ends`, `axes`
//! and `steps` as integers (axes default to `0..starts.len()`, steps to 1),
//! or what the slice would have to be when an operand is not constant.

use crate::analysis::{const_value, Graph};
use crate::cond;
use crate::lang::ENode;
use onnc_tensor::DType;

/// A `Slice`'s constant operands (unnormalized: negative values as given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceArgs {
    /// One start per sliced axis.
    pub starts: Vec<i64>,
    /// One end per sliced axis.
    pub ends: Vec<i64>,
    /// The sliced axes.
    pub axes: Vec<i64>,
    /// One step per sliced axis.
    pub steps: Vec<i64>,
}

/// Operand `i` of `node` as constant integers, if it is constant.
pub(crate) fn ints(eg: &Graph, node: &ENode, i: usize) -> Option<Vec<i64>> {
    let c = *node.children.get(i)?;
    const_value(eg, c)?
        .cast(DType::I64)
        .as_i64()
        .ok()
        .map(<[i64]>::to_vec)
}

/// The constant operands of the `Slice` `node` (see the module doc).
pub fn const_slice(eg: &Graph, node: &ENode) -> Result<SliceArgs, String> {
    let present = |i| cond::operand_present(eg, node, i);
    if (1..=4).any(|i| present(i) && !cond::operand_const(eg, node, i)) {
        return Err("a slice with constant starts, ends, axes and steps".into());
    }
    let starts = ints(eg, node, 1).ok_or("constant starts")?;
    let ends = ints(eg, node, 2).ok_or("constant ends")?;
    let axes = if present(3) {
        ints(eg, node, 3).ok_or("constant axes")?
    } else {
        (0..starts.len() as i64).collect()
    };
    let steps = if present(4) {
        ints(eg, node, 4).ok_or("constant steps")?
    } else {
        vec![1; starts.len()]
    };
    Ok(SliceArgs {
        starts,
        ends,
        axes,
        steps,
    })
}
