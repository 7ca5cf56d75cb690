//! When each tensor is live, in op steps.
//!
//! In: a [`Program`]. Out: for every tensor the inclusive step range
//! `[def, last]`: `def` is the index of its producing op (0 if none), `last`
//! the index of its last consumer (at least `def`); network outputs live to
//! step `ops.len()` (after the last op, when the application reads them).
//! Virtual ops count as steps, so a concat member lives until its concat and
//! a slice's input until its slice.
//!
//! ```text
//! op0: a = conv(x)   op1: b = sdp(a)   op2: c = pdp(a)
//! life(a) = [0, 2]   life(b) = [1, 1]  life(c) = [2, 2]   (x: input [0, 0])
//! ```

use crate::program::{Program, TensorKind};

/// `[def, last]` of every tensor.
pub(crate) fn tensor_lives(p: &Program) -> Vec<(usize, usize)> {
    let mut def = vec![None; p.tensors.len()];
    let mut last = vec![0usize; p.tensors.len()];
    for (k, op) in p.ops.iter().enumerate() {
        def[op.output].get_or_insert(k);
        for t in op.operands() {
            last[t] = last[t].max(k);
        }
    }
    (0..p.tensors.len())
        .map(|t| {
            let d = def[t].unwrap_or(0);
            let l = if matches!(p.tensors[t].kind, TensorKind::Output(_)) {
                p.ops.len()
            } else {
                last[t]
            };
            (d, l.max(d))
        })
        .collect()
}
