//! The per-layer check of a split: each layer split into partial sums is
//! run as its pieces and whole, on the same input, and the two outputs are
//! compared.
//!
//! In: a [`Compiled`] network and integer input codes. Out: one
//! [`SplitCheck`] per layer with partial pieces (outputs equal, one LSB
//! below, otherwise), or the [`Error`] that stopped the model. For an
//! exact split every output is equal; for a windowed one the bound of
//! `frontend/window.rs` says none is "otherwise".

use super::run::Buffers;
use super::sim::{input_dims, layer};
use super::split::PieceKind;
use super::Compiled;
use crate::error::Error;

/// How the split pieces of one layer compare with the layer run whole on the
/// same input: outputs equal, one LSB below (modulo `2^oprec`), otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitCheck {
    /// The layer (ONNX node).
    pub node: String,
    /// Outputs equal to the unsplit layer's.
    pub equal: usize,
    /// Outputs exactly one LSB below.
    pub below: usize,
    /// Any other difference (the bound would be broken).
    pub other: usize,
}

/// Runs the compiled network on `input` like [`simulate`] and, for every
/// layer split into partial sums, also runs that layer whole (one unsplit
/// piece, same input) and compares the two: the per-layer check of the
/// windowed bound on a real network, where one-LSB differences would
/// otherwise mix with what later layers make of them.
pub fn check_splits(c: &Compiled, input: &[f32]) -> Result<Vec<SplitCheck>, Error> {
    let x: Vec<i64> = input.iter().map(|&v| v as i64).collect();
    let dims = input_dims(c.lowered().first(), x.len());
    let mut bufs = Buffers::new(c.flow(), vec![x], dims);
    let mut checks = Vec::new();
    for (i, (l, pieces)) in c.lowered().iter().zip(c.pieces()).enumerate() {
        let (xs, dims) = bufs.input(i);
        let x = xs.first().map_or(&[][..], Vec::as_slice);
        let (y, d) = layer(l, pieces, x, dims)?;
        if pieces.iter().any(|p| p.kind == PieceKind::Partial) {
            let whole =
                super::split::split(l, &crate::MvuLimits::default(), false).map_err(|e| {
                    Error::DataShape {
                        layer: l.node.clone(),
                        what: e.to_string(),
                    }
                })?;
            let (w, _) = layer(l, &whole, x, dims)?;
            let m = 1i64 << l.layer.precision.out;
            let mut k = SplitCheck {
                node: l.node.clone(),
                equal: 0,
                below: 0,
                other: 0,
            };
            for (a, b) in y.iter().zip(&w) {
                if a == b {
                    k.equal += 1;
                } else if (a + 1) % m == *b {
                    k.below += 1;
                } else {
                    k.other += 1;
                }
            }
            checks.push(k);
        }
        bufs.store(i, vec![y], &d);
    }
    Ok(checks)
}
