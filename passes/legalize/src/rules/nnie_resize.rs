//! NNIE-only exact forms of `Resize` (`targets::nnie_resize` decides which):
//!
//! ```text
//! nnie/resize-nearest-pow2   (Resize{nearest} x), ×2^k, k ≥ 2 => (Resize×2 … (Resize×2 x))            k Upsamples
//! nnie/resize-bilinear-pow2  (Resize{linear, half_pixel} x), ×s => (Conv{group C, (s+1)², B} (edge s/2 (nearest ×s x)))
//! ```
//!
//! Bilinear, derived (one axis; the 2-D kernel is the outer product, since
//! bilinear interpolation is separable). Input `x` of length `n`, factor
//! `s = 2^k`, output `o ∈ [0, n·s)`. Half-pixel sampling reads position
//! `u = (o + ½)/s − ½` and returns `Σ_j x[clamp(j)]·Λ(u − j)` with the hat
//! `Λ(t) = max(0, 1 − |t|)` (clamping the index is ONNX's and PyTorch's edge
//! rule: at the border the weights fall on the edge value).
//! Let `U[m] = x[clamp(⌊m/s⌋)]` be nearest `s×` upsampling extended by edge
//! replication to `m ∈ [−s/2, n·s + s/2)`, and `b = [½, 1, …, 1, ½]/s`
//! (`s + 1` taps). Then
//! `y[o] = Σ_{t=0..s} b[t]·U[o − s/2 + t]`:
//! the window `[o − s/2, o + s/2]` covers `s + 1` positions whose inputs
//! `⌊m/s⌋` are `j0 = ⌊(o − s/2)/s⌋` and `j0 + 1`; with `r = (o − s/2) mod s`,
//! `j0` gets `(s − r − ½)/s` (its `s − r` positions, the first at weight ½)
//! and `j0 + 1` gets `(r + ½)/s`. Half-pixel: `u = j0 + (r + ½)/s`, so
//! `Λ(u − j0) = 1 − (r + ½)/s` and `Λ(u − j0 − 1) = (r + ½)/s` — the same
//! weights. So: nearest `s×` (chained 2× Upsamples, exact), edge replication
//! by `s/2` on each side of rows, then columns (Slice of the first and last
//! `s/2`, which all equal the edge value because `s/2 < s`, and Concat),
//! and a depthwise `(s+1)×(s+1)` Convolution with weights `b ⊗ b`, no
//! padding: output length `n·s + s − (s + 1) + 1 = n·s`. For `s = 2^k` the
//! weights are powers of two (`2^−k`, `2^−k−1`, `2^−k−2`), which NNIE's
//! logarithmic 8-bit weight code represents exactly.

use super::{attrs, Cx, Rule};
use crate::target::Target;
use crate::targets::nnie_resize::ResizePlan;
use egg::Id;
use onnc_tensor::{Attr, Attrs, Tensor};

const NNIE: &[Target] = &[Target::Nnie];

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nnie/resize-upsample-chain",
    deep: false,
    op: "Resize",
    targets: NNIE,
    doc: "nearest ×2^k as k 2× Upsamples; half-pixel bilinear ×2^k as those, edge replication and a depthwise smoothing Conv",
    apply: resize,
}];

fn resize(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let out = cx.out_shape()?;
    let plan =
        crate::targets::nnie::resize_plan(&cx.key, &xs, &out, cx.cfg.conv_kernel_max).ok()?;
    match plan {
        ResizePlan::Upsample2 => None,
        ResizePlan::NearestPow2 { s } => Some(upsample_chain(cx, x, s, "")),
        ResizePlan::Bilinear { s } => {
            let mut cur = upsample_chain(cx, x, s, "/nearest");
            let h = s / 2;
            for (axis, n) in xs.iter().enumerate().skip(2) {
                let len = n * s;
                let first = crop(cx, cur, axis, 0, h, "first");
                let last = crop(cx, cur, axis, len - h, len, "last");
                let a = attrs(&[("axis", Attr::Int(axis as i64))]);
                cur = cx.op("Concat", a, &[first, cur, last], &format!("/edge{axis}"));
            }
            smoothing_conv(cx, cur, xs[1], s)
        }
    }
}

/// `log2 s` chained nearest 2× `Resize`s (each one Upsample layer), the
/// last named `<matched><suffix>`.
fn upsample_chain(cx: &mut Cx, x: Id, s: usize, suffix: &str) -> Id {
    let steps = s.trailing_zeros() as usize;
    let scales = cx.tensor(
        "scales2",
        Tensor::from_f32(vec![4], vec![1.0, 1.0, 2.0, 2.0]).expect("4 scales"),
    );
    let roi = cx.absent();
    let a = attrs(&[
        ("mode", Attr::String("nearest".into())),
        (
            "coordinate_transformation_mode",
            Attr::String("asymmetric".into()),
        ),
        ("nearest_mode", Attr::String("floor".into())),
    ]);
    let mut cur = x;
    for i in 0..steps {
        let sfx = if i + 1 == steps {
            suffix.to_string()
        } else {
            format!("/up{i}")
        };
        cur = cx.op("Resize", a.clone(), &[cur, roi, scales], &sfx);
    }
    cur
}

/// `x[start..end]` of `axis` (a Caffe Slice), named `<matched>/<tag><axis>`.
fn crop(cx: &mut Cx, x: Id, axis: usize, start: usize, end: usize, tag: &str) -> Id {
    let t = format!("{tag}{axis}");
    let st = cx.ints(&format!("{t}_starts"), &[start as i64]);
    let en = cx.ints(&format!("{t}_ends"), &[end as i64]);
    let ax = cx.ints(&format!("{t}_axes"), &[axis as i64]);
    cx.op("Slice", Attrs::new(), &[x, st, en, ax], &format!("/{t}"))
}

/// The depthwise `(s+1)×(s+1)` Conv with weights `b ⊗ b`,
/// `b = [½, 1, …, 1, ½]/s`, over `c` channels; keeps the matched name.
fn smoothing_conv(cx: &mut Cx, x: Id, c: usize, s: usize) -> Option<Id> {
    let taps = s + 1;
    let b: Vec<f32> = (0..taps)
        .map(|t| {
            let w = if t == 0 || t == s { 0.5 } else { 1.0 };
            w / s as f32
        })
        .collect();
    let mut w = Vec::with_capacity(c * taps * taps);
    for _ in 0..c {
        for i in 0..taps {
            w.extend(b.iter().map(|bj| b[i] * bj));
        }
    }
    let dtype = cx.ty(x)?.dtype;
    let wt = super::as_dtype(Tensor::from_f32(vec![c, 1, taps, taps], w).ok()?, dtype);
    let w_id = cx.tensor("bilinear", wt);
    let v = |a: &[usize]| Attr::Ints(a.iter().map(|&x| x as i64).collect());
    let a = attrs(&[
        ("dilations", v(&[1, 1])),
        ("group", Attr::Int(c as i64)),
        ("kernel_shape", v(&[taps, taps])),
        ("pads", v(&[0, 0, 0, 0])),
        ("strides", v(&[1, 1])),
    ]);
    Some(cx.op("Conv", a, &[x, w_id], ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    /// `Resize(x, sizes)` from `c×n×n` to `c×m×m`.
    fn resize(mode: &str, coord: &str, c: usize, n: usize, m: usize) -> onnc_onnx::Graph {
        let node = Node::new("up", "Resize", &["x", "", "", "sizes"], &["y"])
            .with_attr("mode", Attr::String(mode.into()))
            .with_attr("coordinate_transformation_mode", Attr::String(coord.into()))
            .with_attr("nearest_mode", Attr::String("floor".into()));
        let sizes = Tensor::from_i64(vec![4], vec![1, c as i64, m as i64, m as i64]).unwrap();
        graph(
            &[1, c, n, n],
            &[1, c, m, m],
            vec![node],
            vec![("sizes", sizes)],
        )
    }

    #[test]
    fn bilinear_power_of_two_is_upsamples_edges_and_a_smoothing_conv() {
        for (n, s) in [(5, 2), (3, 4), (4, 8), (1, 2)] {
            let g = resize("linear", "half_pixel", 3, n, n * s);
            let ops = ops_after(g.clone(), Target::Nnie);
            let ups = s.trailing_zeros() as usize;
            assert_eq!(
                ops.iter().filter(|o| *o == "Resize").count(),
                ups,
                "{ops:?}"
            );
            assert_eq!(ops.last().map(String::as_str), Some("Conv"), "{ops:?}");
            same_numbers(g, Target::Nnie, &[1, 3, n, n], 1e-6);
        }
        let g = resize("linear", "pytorch_half_pixel", 2, 6, 12);
        same_numbers(g, Target::Nnie, &[1, 2, 6, 6], 1e-6);
    }

    #[test]
    fn nearest_power_of_two_is_chained_upsamples() {
        let g = resize("nearest", "asymmetric", 2, 3, 24);
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Resize"; 3]);
        same_numbers(g, Target::Nnie, &[1, 2, 3, 3], 0.0);
    }
}
