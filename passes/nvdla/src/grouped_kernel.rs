//! The dense view of a grouped convolution's kernel.
//!
//! An `nvdla.conv` with `group = G` (attribute; absent means 1) keeps its
//! kernel as ONNX does, `[K, C/G, R, S]`: kernel `k` belongs to group
//! `g = k / (K/G)` and reads input channels `g·C/G .. (g+1)·C/G`. What the
//! hardware computes with is the dense `[K, C, R, S]` kernel that is zero
//! outside the groups. Consumers that think in that dense kernel (CBUF
//! sizes, descriptors, the direct-convolution layout, channel chunks) read
//! it through this view; the dense kernel is never built as a tensor.
//!
//! In: a conv op (its `group`), its weight's shape and values. Out: the
//! dense shape ([`dense_shape`], [`conv_kernel_shape`]) and the dense
//! values ([`DenseView`]): entry `(k, c)` is `w[k, c − g·C/G]` when `c` is
//! in kernel `k`'s group `g`, else 0.
//!
//! ```
//! use onnc_nvdla::grouped_kernel::{dense_shape, DenseView};
//! use onnc_nvdla::emit::weights::Values;
//! // Depthwise over 3 channels, 1×2 taps: w = [3, 1, 1, 2].
//! let w = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! assert_eq!(dense_shape(&[3, 1, 1, 2], 3), Some([3, 3, 1, 2]));
//! let v = DenseView::new(&w[..], [3, 1, 1, 2], 3).unwrap();
//! let dense: Vec<f32> = (0..18).map(|i| v.value(i)).collect();
//! assert_eq!(dense, [1., 2., 0., 0., 0., 0., 0., 0., 3., 4., 0., 0., 0., 0., 0., 0., 5., 6.]);
//! ```

use crate::emit::weights::Values;
use crate::program::{Engine, Op, Program};

/// The attribute holding a conv's group count.
pub const GROUP: &str = "group";

/// The group count of conv `op`: its `group` attribute, 1 when absent (or
/// not a positive integer, which the verifier reports).
pub fn conv_group(op: &Op) -> usize {
    match op.int(GROUP) {
        Some(g) if g > 1 => g as usize,
        _ => 1,
    }
}

/// The dense `[K, G·Cg, R, S]` shape of a grouped `[K, Cg, R, S]` kernel in
/// `group` groups; `None` when the shape is not 4-D, `group` is 0 or does
/// not divide `K`, or the product overflows.
pub fn dense_shape(shape: &[usize], group: usize) -> Option<[usize; 4]> {
    let [k, cg, r, s] = <[usize; 4]>::try_from(shape).ok()?;
    if group == 0 || k % group != 0 {
        return None;
    }
    Some([k, cg.checked_mul(group)?, r, s])
}

/// The dense kernel shape conv op `op` of `p` computes with (its weight's
/// shape when it is not grouped); `None` when `op` is not a conv, has no
/// weight, or the weight's shape does not agree with its group.
pub fn conv_kernel_shape(p: &Program, op: &Op) -> Option<[usize; 4]> {
    if op.engine != Engine::Conv {
        return None;
    }
    let w = op.inputs.get(1).copied().flatten()?;
    dense_shape(&p.tensors[w].shape, conv_group(op))
}

/// The values of a grouped `[K, Cg, R, S]` kernel `w` read as its dense
/// `[K, G·Cg, R, S]` kernel (zeros outside the groups), by dense index.
pub struct DenseView<'a, V: ?Sized> {
    w: &'a V,
    /// Kernels per group.
    kg: usize,
    /// Input channels per group.
    cg: usize,
    /// Input channels of the dense kernel.
    c: usize,
    /// Taps per channel (`R·S`).
    rs: usize,
}

impl<'a, V: Values + ?Sized> DenseView<'a, V> {
    /// The dense view of `w` of shape `[K, Cg, R, S]` in `group` groups;
    /// `None` when the shape and group disagree ([`dense_shape`]).
    pub fn new(w: &'a V, shape: [usize; 4], group: usize) -> Option<Self> {
        let [k, c, r, s] = dense_shape(&shape, group)?;
        Some(DenseView {
            w,
            kg: k / group,
            cg: shape[1],
            c,
            rs: r * s,
        })
    }

    /// The first dense input channel of kernel `k`'s group.
    fn c0(&self, k: usize) -> usize {
        (k / self.kg.max(1)) * self.cg
    }
}

impl<V: Values + ?Sized> Values for DenseView<'_, V> {
    fn value(&self, i: usize) -> f32 {
        let rs = self.rs.max(1);
        let (kc, tap) = (i / rs, i % rs);
        let (k, c) = (kc / self.c, kc % self.c);
        let c0 = self.c0(k);
        if c < c0 || c >= c0 + self.cg {
            return 0.0;
        }
        self.w.value((k * self.cg + c - c0) * rs + tap)
    }

    /// Looks only inside the groups' blocks, with the inner values' own
    /// scan (a depthwise kernel's row is mostly zeros outside them).
    fn nonzero_span(&self, from: usize, to: usize) -> Option<(usize, usize)> {
        let row = self.c * self.rs;
        let block = self.cg * self.rs;
        if row == 0 || block == 0 || from >= to {
            return None;
        }
        // Per kernel row meeting `from..to`: its group block's part of the
        // range, as a dense range and the inner range it maps to.
        let span_in = |k: usize| -> Option<(usize, usize)> {
            let lo = (k * row + self.c0(k) * self.rs).max(from);
            let hi = (k * row + self.c0(k) * self.rs + block).min(to);
            if lo >= hi {
                return None;
            }
            let shift = k * row + self.c0(k) * self.rs;
            let inner = k * block;
            let (a, b) = self
                .w
                .nonzero_span(inner + lo - shift, inner + hi - shift)?;
            Some((a - inner + shift, b - inner + shift))
        };
        let rows = from / row..(to - 1) / row + 1;
        let first = rows.clone().find_map(|k| span_in(k).map(|s| s.0))?;
        let last = rows.rev().find_map(|k| span_in(k).map(|s| s.1))?;
        Some((first, last))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense kernel built the obvious way, for comparison.
    fn dense(w: &[f32], [k, cg, r, s]: [usize; 4], g: usize) -> Vec<f32> {
        let (kg, c, rs) = (k / g, cg * g, r * s);
        let mut out = vec![0f32; k * c * rs];
        for kk in 0..k {
            let c0 = kk / kg * cg;
            for cc in 0..cg {
                for t in 0..rs {
                    out[(kk * c + c0 + cc) * rs + t] = w[(kk * cg + cc) * rs + t];
                }
            }
        }
        out
    }

    #[test]
    fn the_view_equals_the_block_diagonal_kernel() {
        // 6 kernels in 3 groups of 2 kernels × 2 channels, 2×1 taps.
        let shape = [6, 2, 2, 1];
        let w: Vec<f32> = (0..24).map(|i| (i % 7) as f32 - 3.0).collect();
        let want = dense(&w, shape, 3);
        let v = DenseView::new(&w[..], shape, 3).unwrap();
        let got: Vec<f32> = (0..want.len()).map(|i| v.value(i)).collect();
        assert_eq!(got, want);
        assert_eq!(dense_shape(&shape, 3), Some([6, 6, 2, 1]));
        assert!(
            DenseView::new(&w[..], shape, 4).is_none(),
            "6 kernels in 4 groups"
        );
        assert_eq!(dense_shape(&shape, 0), None);
        assert_eq!(dense_shape(&[6, 2, 2], 1), None);
    }

    #[test]
    fn nonzero_spans_agree_with_the_dense_kernel() {
        // Depthwise over 5 channels, 3 taps, with zeros at the edges of
        // some kernels, a negative zero and an all-zero kernel.
        let shape = [5, 1, 3, 1];
        let mut w: Vec<f32> = (0..15).map(|i| i as f32 + 1.0).collect();
        w[3] = 0.0; // kernel 1, first tap
        w[8] = -0.0; // kernel 2, last tap
        w[9..12].copy_from_slice(&[0.0; 3]); // kernel 3: all zero
        let want = dense(&w, shape, 5);
        let v = DenseView::new(&w[..], shape, 5).unwrap();
        let row = 5 * 3;
        for from in 0..want.len() {
            for to in from + 1..=want.len() {
                assert_eq!(
                    v.nonzero_span(from, to),
                    want[..].nonzero_span(from, to),
                    "{from}..{to}"
                );
            }
        }
        // Whole kernel rows, as the chunk decision asks.
        for k in 0..5 {
            let got = v.nonzero_span(k * row, (k + 1) * row);
            assert_eq!(
                got,
                want[..].nonzero_span(k * row, (k + 1) * row),
                "kernel {k}"
            );
        }
        assert_eq!(v.nonzero_span(3 * row, 4 * row), None);
    }

    #[test]
    fn conv_group_reads_the_attribute() {
        let mut op = Op {
            engine: Engine::Conv,
            hw_layer: "c".into(),
            attrs: Default::default(),
            inputs: vec![Some(0), Some(1)],
            output: 2,
            onnx_nodes: vec![],
        };
        assert_eq!(conv_group(&op), 1);
        op.attrs.insert(GROUP.into(), crate::Value::Int(8));
        assert_eq!(conv_group(&op), 8);
    }
}
