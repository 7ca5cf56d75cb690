//! NNIE-only: a patch convolution (kernel = stride, no padding, ViT's
//! `Conv(3→768, 16×16, stride 16)`) whose kernel or stride exceeds NNIE's
//! limit, as space-to-depth by a 0/1 selection Convolution and a smaller
//! convolution over the gathered channels.
//!
//! ```text
//! nnie/patch-conv-space-to-depth  (Conv{k = s, pads 0} x W B) => (Conv{k2 = s2 = k/f} (Conv{f, stride f} x S) W' B)
//! ```
//!
//! Exactness (per axis; both axes alike): with factor `f | k` (the smallest
//! one for which `f` and `k/f` fit the limit), the selection conv `S`
//! (`C·f²` outputs, `S[(c·f + i)·f + j, c, i, j] = 1`) gives
//! `z[(c,i,j), Y, X] = x[c, Y·f + i, X·f + j]`: a copy (0/1 weights). The
//! second conv, kernel and stride `k/f`, weights
//! `W'[o, (c,i,j), p, q] = W[o, c, p·f + i, q·f + j]`, computes at `(y, x)`
//! `Σ W[o, c, p·f + i, q·f + j]·x[c, y·k + p·f + i, x·k + q·f + j]`, i.e.
//! `Σ_{u,v} W[o,c,u,v]·x[c, y·k + u, x·k + v]` — the original patch sum,
//! in another order (f32 rounding only). Sizes: `⌊⌊H/f⌋/(k/f)⌋ = ⌊H/k⌋`.

use super::{attrs, Cx, Rule};
use crate::cond;
use crate::target::Target;
use egg::Id;
use onnc_tensor::{Attr, Tensor};

const NNIE: &[Target] = &[Target::Nnie];

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nnie/patch-conv-space-to-depth",
    deep: false,
    op: "Conv",
    targets: NNIE,
    doc: "a kernel = stride patch Conv over NNIE's kernel limit as a 0/1 space-to-depth Conv and a Conv with kernel k/f",
    apply: patch_conv,
}];

/// The space-to-depth factor of one axis: 1 when `k` fits, else the
/// smallest divisor `f ≥ 2` with `f` and `k/f` within `max`.
fn split_factor(k: usize, max: usize) -> Option<usize> {
    if k <= max {
        return Some(1);
    }
    (2..=max).find(|f| k % f == 0 && k / f <= max)
}

fn patch_conv(cx: &mut Cx) -> Option<Id> {
    let (k, s, p, d) = (
        cond::kernel(&cx.key),
        cond::strides(&cx.key),
        cond::pads(&cx.key),
        cond::dilations(&cx.key),
    );
    let auto = cx.key.string("auto_pad").unwrap_or("NOTSET");
    if k.len() != 2
        || s != k
        || p.iter().any(|&v| v != 0)
        || d.iter().any(|&v| v != 1)
        || cond::group(&cx.key) != 1
        || (auto != "NOTSET" && auto != "VALID")
    {
        return None;
    }
    let max = cx.cfg.conv_kernel_max.min(cx.cfg.conv_stride_max);
    if k.iter().all(|&v| v <= max) {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let w = cx.value(cx.arg(1))?;
    let ws = w.shape().to_vec();
    if xs.len() != 4 || ws.len() != 4 || ws[1] != xs[1] {
        return None;
    }
    let (fh, fw) = (split_factor(k[0], max)?, split_factor(k[1], max)?);
    let (c, o) = (xs[1], ws[0]);
    let q = c * fh * fw;
    let mut sel = vec![0f32; q * c * fh * fw];
    for ci in 0..c {
        for i in 0..fh {
            for j in 0..fw {
                let qi = (ci * fh + i) * fw + j;
                sel[((qi * c + ci) * fh + i) * fw + j] = 1.0;
            }
        }
    }
    let (kh, kw) = (k[0] / fh, k[1] / fw);
    let wv = w.data().to_f64_vec();
    let mut w2 = vec![0f32; o * q * kh * kw];
    for oi in 0..o {
        for ci in 0..c {
            for u in 0..k[0] {
                for v in 0..k[1] {
                    let qi = (ci * fh + u % fh) * fw + v % fw;
                    let src = ((oi * c + ci) * k[0] + u) * k[1] + v;
                    w2[((oi * q + qi) * kh + u / fh) * kw + v / fw] = wv[src] as f32;
                }
            }
        }
    }
    let dtype = cx.ty(x)?.dtype;
    let sel_t = super::as_dtype(Tensor::from_f32(vec![q, c, fh, fw], sel).ok()?, dtype);
    let w2_t = super::as_dtype(Tensor::from_f32(vec![o, q, kh, kw], w2).ok()?, dtype);
    let sel_id = cx.tensor("space_to_depth", sel_t);
    let w2_id = cx.tensor("patch_weights", w2_t);
    let z = cx.op("Conv", conv(fh, fw), &[x, sel_id], "/space_to_depth");
    let mut args = vec![z, w2_id];
    if cx.has(2) {
        args.push(cx.arg(2));
    }
    Some(cx.op("Conv", conv(kh, kw), &args, ""))
}

/// Attributes of an unpadded Conv with kernel = stride = `h × w`.
fn conv(h: usize, w: usize) -> onnc_tensor::Attrs {
    let v = |a: &[usize]| Attr::Ints(a.iter().map(|&x| x as i64).collect());
    attrs(&[
        ("dilations", v(&[1, 1])),
        ("group", Attr::Int(1)),
        ("kernel_shape", v(&[h, w])),
        ("pads", v(&[0, 0, 0, 0])),
        ("strides", v(&[h, w])),
    ])
}

#[cfg(test)]
mod tests {
    use super::split_factor;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    #[test]
    fn factors() {
        assert_eq!(split_factor(16, 15), Some(2));
        assert_eq!(split_factor(14, 15), Some(1));
        assert_eq!(split_factor(32, 15), Some(4));
        assert_eq!(split_factor(17, 15), None);
    }

    /// ViT's patch embedding, scaled: 3 → 5 channels, 16×16 patches of 35×33.
    #[test]
    fn sixteen_by_sixteen_patches_are_two_convs_exactly() {
        let (c, o, k) = (3usize, 5usize, 16usize);
        let n = Node::new("patch", "Conv", &["x", "w", "b"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![16, 16]))
            .with_attr("strides", Attr::Ints(vec![16, 16]));
        let w = Tensor::from_f32(vec![o, c, k, k], rand(o * c * k * k, 3)).unwrap();
        let b = Tensor::from_f32(vec![o], rand(o, 4)).unwrap();
        let g = graph(
            &[1, c, 35, 33],
            &[1, o, 2, 2],
            vec![n],
            vec![("w", w), ("b", b)],
        );
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Conv", "Conv"]);
        same_numbers(g, Target::Nnie, &[1, c, 35, 33], 1e-5);
    }
}
