//! NNIE-only exact forms of `Resize` (`targets::nnie_resize` decides which):
//!
//! ```text
//! nnie/resize-upsample-chain  (Resize{nearest} x), ×2^k both axes, k ≥ 2 => (Resize×2 … (Resize×2 x))       k Upsamples
//!                             (Resize{nearest} x), other integer sh×sw   => (ConvTranspose{group C, ones sh×sw, stride sh×sw} x)
//!                             (Resize{linear, half_pixel} x), sh×sw     => (Conv{group C, b_h ⊗ b_w} (edges (nearest x)))
//! ```
//!
//! Bilinear, derived (one axis; the 2-D kernel is the outer product, since
//! bilinear interpolation is separable). Input `x` of length `n`, integer
//! factor `s`, output `o ∈ [0, n·s)`. Half-pixel sampling reads position
//! `u = (o + ½)/s − ½` and returns `Σ_j x[clamp(j)]·Λ(u − j)` with the hat
//! `Λ(t) = max(0, 1 − |t|)` (clamping the index is ONNX's and PyTorch's edge
//! rule: at the border the weights fall on the edge value).
//! Let `U[m] = x[clamp(⌊m/s⌋)]` be nearest `s×` upsampling extended by edge
//! replication to `m ∈ [−h, n·s + h)`, `h = ⌊s/2⌋`.
//!
//! *Even `s`*: `b = [½, 1, …, 1, ½]/s` (`s + 1` taps) and
//! `y[o] = Σ_{t=0..s} b[t]·U[o − h + t]`: the window `[a, a + s]`,
//! `a = o − s/2`, covers `s + 1` positions reading inputs `j0 = ⌊a/s⌋` and
//! `j0 + 1`; with `r = a mod s`, `j0` gets `(s − r − ½)/s` (its `s − r`
//! positions, the first at weight ½) and `j0 + 1` gets `(r + ½)/s`.
//! Half-pixel: `u = (a + ½)/s = j0 + (r + ½)/s`, so `Λ(u − j0) = 1 − (r + ½)/s`
//! and `Λ(u − j0 − 1) = (r + ½)/s` — the same weights.
//!
//! *Odd `s`*: `b = [1, …, 1]/s` (`s` taps), window `[a, a + s − 1]`,
//! `a = o − (s − 1)/2`: `j0` gets `(s − r)/s`, `j0 + 1` gets `r/s`, and
//! `u = a/s = j0 + r/s`: the same. (`s = 1`: `b = [1]`, `h = 0`, a copy.)
//!
//! So: nearest `s×` (chained 2× Upsamples, or a depthwise Deconvolution of
//! ones — exact), edge replication by `h` on each side of rows, then columns
//! (Slice of the first and last `h`, which all equal the edge value because
//! `h < s`, and Concat), and a depthwise Convolution with weights `b_h ⊗ b_w`,
//! no padding: output length `n·s + 2h − taps + 1 = n·s`. For `s = 2^k` the
//! weights are powers of two, which NNIE's logarithmic 8-bit weight code
//! represents exactly.

use super::{attrs, Cx, Rule};
use crate::target::Target;
use crate::targets::nnie_resize::{by_upsamples, smoothing_taps, ResizePlan};
use egg::Id;
use onnc_tensor::{Attr, Attrs, Tensor};

const NNIE: &[Target] = &[Target::Nnie];

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nnie/resize-upsample-chain",
    deep: false,
    op: "Resize",
    targets: NNIE,
    doc: "nearest ×2^k as k 2× Upsamples, other integer factors as a depthwise Deconvolution of ones; half-pixel bilinear as that, edge replication and a depthwise smoothing Conv",
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
        ResizePlan::Nearest { s } => nearest(cx, x, xs[1], s, ""),
        ResizePlan::Bilinear { s } => {
            let mut cur = nearest(cx, x, xs[1], s, "/nearest")?;
            for (d, n) in xs.iter().enumerate().skip(2) {
                let f = s[d - 2];
                let (h, len) = (f / 2, n * f);
                if h == 0 {
                    continue;
                }
                let first = crop(cx, cur, d, 0, h, "first");
                let last = crop(cx, cur, d, len - h, len, "last");
                let a = attrs(&[("axis", Attr::Int(d as i64))]);
                cur = cx.op("Concat", a, &[first, cur, last], &format!("/edge{d}"));
            }
            smoothing_conv(cx, cur, xs[1], s)
        }
    }
}

/// Nearest upsampling of `c` channels by `s`: chained 2× Resizes (Upsample
/// layers) when [`by_upsamples`], else a depthwise ConvTranspose with a
/// kernel of ones; the last op named `<matched><suffix>`.
fn nearest(cx: &mut Cx, x: Id, c: usize, s: [usize; 2], suffix: &str) -> Option<Id> {
    if s == [1, 1] {
        return Some(x);
    }
    if by_upsamples(s) {
        return Some(upsample_chain(cx, x, s[0], suffix));
    }
    let dtype = cx.ty(x)?.dtype;
    let ones = Tensor::from_f32(vec![c, 1, s[0], s[1]], vec![1.0; c * s[0] * s[1]]).ok()?;
    let w = cx.tensor("nearest_ones", super::as_dtype(ones, dtype));
    let v = |a: &[usize]| Attr::Ints(a.iter().map(|&x| x as i64).collect());
    let a = attrs(&[
        ("group", Attr::Int(c as i64)),
        ("kernel_shape", v(&s)),
        ("pads", v(&[0, 0, 0, 0])),
        ("strides", v(&s)),
    ]);
    Some(cx.op("ConvTranspose", a, &[x, w], suffix))
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

/// One axis's smoothing taps: `[½, 1, …, 1, ½]/s` (even `s`) or
/// `[1, …, 1]/s` (odd `s`).
fn taps(s: usize) -> Vec<f32> {
    let n = smoothing_taps(s);
    (0..n)
        .map(|t| {
            let half = s % 2 == 0 && (t == 0 || t + 1 == n);
            if half {
                0.5 / s as f32
            } else {
                1.0 / s as f32
            }
        })
        .collect()
}

/// The depthwise Conv with weights `b_h ⊗ b_w` over `c` channels, no
/// padding; keeps the matched name.
fn smoothing_conv(cx: &mut Cx, x: Id, c: usize, s: [usize; 2]) -> Option<Id> {
    let (bh, bw) = (taps(s[0]), taps(s[1]));
    let mut w = Vec::with_capacity(c * bh.len() * bw.len());
    for _ in 0..c {
        for a in &bh {
            w.extend(bw.iter().map(|b| a * b));
        }
    }
    let k = [bh.len(), bw.len()];
    let dtype = cx.ty(x)?.dtype;
    let wt = super::as_dtype(Tensor::from_f32(vec![c, 1, k[0], k[1]], w).ok()?, dtype);
    let w_id = cx.tensor("bilinear", wt);
    let v = |a: &[usize]| Attr::Ints(a.iter().map(|&x| x as i64).collect());
    let a = attrs(&[
        ("dilations", v(&[1, 1])),
        ("group", Attr::Int(c as i64)),
        ("kernel_shape", v(&k)),
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

    /// `Resize(x, sizes)` from `c×n×n` to `c×mh×mw`, half-pixel (PyTorch's
    /// nearest reads ⌊o/s⌋ with it and `round_prefer_floor`).
    fn resize2(mode: &str, c: usize, n: usize, m: [usize; 2]) -> onnc_onnx::Graph {
        let node = Node::new("up", "Resize", &["x", "", "", "sizes"], &["y"])
            .with_attr("mode", Attr::String(mode.into()))
            .with_attr(
                "coordinate_transformation_mode",
                Attr::String("half_pixel".into()),
            )
            .with_attr("nearest_mode", Attr::String("round_prefer_floor".into()));
        let sizes = Tensor::from_i64(vec![4], vec![1, c as i64, m[0] as i64, m[1] as i64]).unwrap();
        graph(
            &[1, c, n, n],
            &[1, c, m[0], m[1]],
            vec![node],
            vec![("sizes", sizes)],
        )
    }

    #[test]
    fn other_integer_factors_use_a_deconvolution_of_ones() {
        // Bilinear by 3, 5, 6, 2×3 and 1×3 (odd and even taps, unequal axes).
        for (n, m) in [
            (4, [12, 12]),
            (3, [15, 15]),
            (2, [12, 12]),
            (4, [8, 12]),
            (3, [3, 9]),
        ] {
            let g = resize2("linear", 2, n, m);
            let ops = ops_after(g.clone(), Target::Nnie);
            assert!(ops.contains(&"ConvTranspose".to_string()), "{ops:?}");
            assert_eq!(ops.last().map(String::as_str), Some("Conv"), "{ops:?}");
            same_numbers(g, Target::Nnie, &[1, 2, n, n], 1e-6);
        }
        let g = resize2("nearest", 2, 3, [9, 6]);
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["ConvTranspose"]);
        same_numbers(g, Target::Nnie, &[1, 2, 3, 3], 0.0);
    }

    #[test]
    fn nearest_power_of_two_is_chained_upsamples() {
        let g = resize("nearest", "asymmetric", 2, 3, 24);
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Resize"; 3]);
        same_numbers(g, Target::Nnie, &[1, 2, 3, 3], 0.0);
    }
}
