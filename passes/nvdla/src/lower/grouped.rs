//! Grouped and depthwise convolutions lowered natively: a `Conv` with
//! `group = G > 1` and a constant kernel becomes the one dense `Conv` with
//! block-diagonal weights that [`super::regroup`] makes from a split form.
//!
//! In: a [`Work`] graph that kept grouped convolutions whole (the legalizer
//! no longer splits them per group for NVDLA). Out: the same graph with
//! each such `Conv` replaced in place — same name, inputs and output — by a
//! `Conv` with `group = 1` whose kernel `[K, C, R, S]` holds group `g`'s
//! kernels `[K/G, C/G, R, S]` at rows `g·K/G..` and columns `g·C/G..`, and
//! zeros elsewhere. Emission cuts it into channel chunks that hold only the
//! diagonal blocks (`emit/chunking.rs`), so the loadable carries each
//! group's kernels, not the dense block.
//!
//! Why here and not in the legalizer: splitting into G convolutions and a
//! `Concat` made thousands of e-graph nodes (ShuffleNet: 203 nodes became
//! 4765) only for the lowering to merge them back.
//!
//! ```text
//! y = Conv(x[1,8,H,W], w[4,4,3,3], group = 2)
//!   ⇒  y = Conv(x, w'[4,8,3,3])   (w'[0..2, 0..4] = w[0..2], w'[2..4, 4..8] = w[2..4], zeros elsewhere)
//! ```

use onnc_tensor::{Attr, DType, Tensor};

use super::graph::Work;

/// Replaces every grouped `Conv` with a constant 4-D kernel whose shape
/// agrees with its group; returns how many. Others are left for the
/// lowering to refuse with its own message.
pub fn expand_grouped(w: &mut Work) -> usize {
    let mut expanded = 0;
    for i in 0..w.nodes.len() {
        let n = &w.nodes[i];
        if n.op_type != "Conv" || !n.domain.is_empty() {
            continue;
        }
        let g = n.attrs.get("group").and_then(Attr::as_int).unwrap_or(1);
        if g <= 1 {
            continue;
        }
        let Some(kernel) = n.input(1).and_then(|k| w.constant(k)) else {
            continue;
        };
        let Some(dense) = block_diagonal(kernel, g as usize) else {
            continue;
        };
        let name = format!("{}.regrouped_w", n.name);
        w.shapes.insert(name.clone(), dense.shape().to_vec());
        w.consts.insert(name.clone(), dense);
        let n = &mut w.nodes[i];
        n.inputs[1] = Some(name);
        n.attrs.insert("group".into(), Attr::Int(1));
        expanded += 1;
    }
    if expanded > 0 {
        w.reindex();
    }
    expanded
}

/// The dense `[K, G·Cg, R, S]` kernel of a grouped `[K, Cg, R, S]` kernel
/// (`K` a multiple of `G`), or `None` for any other shape.
fn block_diagonal(kernel: &Tensor, g: usize) -> Option<Tensor> {
    let &[k, cg, r, s] = kernel.shape() else {
        return None;
    };
    if k % g != 0 {
        return None;
    }
    let (kg, c, rs) = (k / g, cg * g, r * s);
    let v = kernel.cast(DType::F32);
    let v = v.as_f32().ok()?;
    let mut dense = vec![0f32; k * c * rs];
    for kk in 0..k {
        let c0 = (kk / kg) * cg;
        let src = kk * cg * rs;
        let dst = (kk * c + c0) * rs;
        dense[dst..dst + cg * rs].copy_from_slice(&v[src..src + cg * rs]);
    }
    Tensor::from_f32(vec![k, c, r, s], dense).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_land_on_the_diagonal() {
        // K = 4, Cg = 1, 1×1, G = 2: kernels 0, 1 read channel 0; 2, 3 read channel 1.
        let k = Tensor::from_f32(vec![4, 1, 1, 1], vec![1., 2., 3., 4.]).unwrap();
        let d = block_diagonal(&k, 2).unwrap();
        assert_eq!(d.shape(), &[4, 2, 1, 1]);
        assert_eq!(d.as_f32().unwrap(), &[1., 0., 2., 0., 0., 3., 0., 4.]);
        // Depthwise, 2 taps: each kernel reads its own channel.
        let k = Tensor::from_f32(vec![3, 1, 1, 2], vec![1., 2., 3., 4., 5., 6.]).unwrap();
        let d = block_diagonal(&k, 3).unwrap();
        let want = [
            1., 2., 0., 0., 0., 0., //
            0., 0., 3., 4., 0., 0., //
            0., 0., 0., 0., 5., 6.,
        ];
        assert_eq!(d.as_f32().unwrap(), &want);
        assert!(block_diagonal(&k, 2).is_none(), "3 kernels in 2 groups");
    }
}
