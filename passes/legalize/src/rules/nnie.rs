//! NNIE-only exact rewrites into the Caffe layers `onnc-nnie` writes:
//! floor-mode pooling as round-up pooling plus a crop, `Clip` as ReLUs and
//! affine maps, `HardSigmoid`/`HardSwish` through that `Clip`, and
//! multi-axis `Slice` as one `Slice` per axis (Caffe's Slice cuts one axis).
//!
//! In: the matched e-node (constant bounds, static shapes). Out: the
//! rewritten e-class; nothing when a condition fails (the op is then
//! reported by `targets::nnie`).
//!
//! ```text
//! nnie/maxpool-floor-crop      (MaxPool{ceil=0} x), inexact   => (Slice (MaxPool{ceil=1} x) [0..floor] per axis)
//! nnie/avgpool-floor-crop      (AveragePool{ceil=0} x)        => (Slice (AveragePool{ceil=1} x) [0..floor] per axis)
//! nnie/clip-as-relus           (Clip x lo hi)                 => hi − Relu((hi − lo) − Relu(x − lo))
//! nnie/hardsigmoid-as-clip     (HardSigmoid{α,β} x)           => (Clip (α·x + β) 0 1)
//! nnie/hardswish-as-mul        (HardSwish x)                  => (Mul x (HardSigmoid{1/6, 1/2} x))
//! nnie/slice-per-axis          (Slice x [a0, a1, …])          => (Slice (Slice x a0) a1) …
//! nnie/concat-tree             (Concat x1 … xn), n > 16       => (Concat (Concat x1 … x16) x17 … xn)
//! nnie/strided-slice-as-conv   (Slice x a::s on H or W)       => (Conv x I) kernel a+1 taps (1 at tap a), stride s
//! nnie/channel-pad-as-conv     (Pad x zeros, channels c0|c1)  => (Conv{1×1, pads = the spatial pads} x E)
//! ```
//!
//! The last two are 0/1 selection convolutions (CIFAR ResNet's option-A
//! shortcut `F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, c, c))`): `I` is the
//! `C×C` identity on each tap-`a` position, `E` the `(c0+C+c1)×C` identity
//! embedding with zero rows for the padded channels; each output is one
//! input times 1 (or 0), so they are exact.
//!
//! Why the crop is exact: with input length `n`, kernel `k`, stride `s`
//! and pads `p` (begin) + `q` (end), output `i` reads rows
//! `[i·s − p, i·s − p + k)` in both roundings. Floor mode has
//! `F = ⌊(n + p + q − k)/s⌋ + 1` outputs; ceil mode has
//! `C = ⌈(n + p + q − k)/s⌉ + 1`, minus one when that last window would start
//! in the end padding (`(C − 1)·s ≥ n + p`). So `C ∈ {F, F + 1}` and the first
//! `F` ceil outputs are the floor outputs: keeping `[0, F)` of each spatial
//! axis is exact. Caffe pads both sides equally, so a smaller end pad is not
//! expressible; the crop is. The windows kept lie inside the padded input,
//! so an average pool divides by the same count (`count_include_pad = 1`)
//! in both.
//!
//! Why the Clip is exact (up to f32 rounding at the scale of `hi`):
//! with `r = Relu(x − lo) = max(x, lo) − lo ≥ 0` and `c = hi − lo`,
//! `c − Relu(c − r) = min(r, c)`, so
//! `hi − Relu(c − r) = lo + min(max(x, lo) − lo, c) = min(max(x, lo), hi)`.

use super::{Cx, Rule};
use crate::cond;
use crate::lang::{AttrKey, ENode, Op};
use crate::target::Target;
use egg::Id;
use onnc_tensor::{Attrs, Tensor};
use std::sync::Arc;

const NNIE: &[Target] = &[Target::Nnie];

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "nnie/maxpool-floor-crop",
        deep: false,
        op: "MaxPool",
        targets: NNIE,
        doc: "ceil_mode=0 as ceil_mode=1 with the extra last row/column cut off",
        apply: floor_crop,
    },
    Rule {
        name: "nnie/avgpool-floor-crop",
        deep: false,
        op: "AveragePool",
        targets: NNIE,
        doc: "ceil_mode=0 as ceil_mode=1 with the extra last row/column cut off",
        apply: floor_crop,
    },
    Rule {
        name: "nnie/clip-as-relus",
        deep: false,
        op: "Clip",
        targets: NNIE,
        doc: "Clip(x, lo, hi) = hi - Relu((hi - lo) - Relu(x - lo))",
        apply: clip,
    },
    Rule {
        name: "nnie/hardsigmoid-as-clip",
        deep: false,
        op: "HardSigmoid",
        targets: NNIE,
        doc: "HardSigmoid(x) = Clip(alpha*x + beta, 0, 1)",
        apply: hard_sigmoid,
    },
    Rule {
        name: "nnie/hardswish-as-mul",
        deep: false,
        op: "HardSwish",
        targets: NNIE,
        doc: "HardSwish(x) = x * HardSigmoid(x; 1/6, 1/2)",
        apply: hard_swish,
    },
    Rule {
        name: "nnie/concat-tree",
        deep: false,
        op: "Concat",
        targets: NNIE,
        doc: "a Concat of more than 16 inputs as a Concat of the first 16 and the rest",
        apply: concat_tree,
    },
    Rule {
        name: "nnie/strided-slice-as-conv",
        deep: false,
        op: "Slice",
        targets: NNIE,
        doc: "a strided row/column Slice as a 0/1 selection Conv with that stride",
        apply: strided_slice,
    },
    Rule {
        name: "nnie/channel-pad-as-conv",
        deep: false,
        op: "Pad",
        targets: NNIE,
        doc: "a zero Pad of channels (and symmetric rows/columns) as a 1×1 embedding Conv",
        apply: channel_pad,
    },
    Rule {
        name: "nnie/slice-per-axis",
        deep: false,
        op: "Slice",
        targets: NNIE,
        doc: "a Slice of several axes as one Slice per axis",
        apply: slice_per_axis,
    },
];

/// Output length of a pooling window sweep: floor or ceil (ONNX and Caffe
/// rule: a last window starting in the end padding is dropped).
/// `n` input length, `k` effective kernel, `s` stride, `p`/`q` begin/end pads.
pub fn pooled_len(n: usize, k: usize, s: usize, p: usize, q: usize, ceil: bool) -> Option<usize> {
    let span = (n + p + q).checked_sub(k)?;
    let s = s.max(1);
    let mut out = if ceil { span.div_ceil(s) } else { span / s } + 1;
    if ceil && (out - 1) * s >= n + p {
        out -= 1;
    }
    Some(out)
}

/// The 4-D `Slice` keeping `[0, len)` of `axis` (constant starts/ends/axes).
fn crop(cx: &mut Cx, x: Id, axis: usize, len: usize, suffix: &str) -> Id {
    let tag = format!("crop{axis}");
    let starts = cx.ints(&format!("{tag}_starts"), &[0]);
    let ends = cx.ints(&format!("{tag}_ends"), &[len as i64]);
    let axes = cx.ints(&format!("{tag}_axes"), &[axis as i64]);
    cx.op("Slice", Attrs::new(), &[x, starts, ends, axes], suffix)
}

fn floor_crop(cx: &mut Cx) -> Option<Id> {
    if cx.key.int("ceil_mode").unwrap_or(0) != 0 || cx.key.n_out != 1 {
        return None;
    }
    let auto = cx.key.string("auto_pad").unwrap_or("NOTSET");
    if auto != "NOTSET" && auto != "VALID" {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let out = cx.out_shape()?;
    let (k, s, p, d) = (
        cond::kernel(&cx.key),
        cond::strides(&cx.key),
        cond::pads(&cx.key),
        cond::dilations(&cx.key),
    );
    if xs.len() != 4 || out.len() != 4 || k.len() != 2 || p.len() != 4 {
        return None;
    }
    let mut ceil_len = [0usize; 2];
    for i in 0..2 {
        let eff = (k[i] - 1) * d.get(i).copied().unwrap_or(1) + 1;
        let stride = s.get(i).copied().unwrap_or(1);
        let floor = pooled_len(xs[i + 2], eff, stride, p[i], p[i + 2], false)?;
        ceil_len[i] = pooled_len(xs[i + 2], eff, stride, p[i], p[i + 2], true)?;
        if floor != out[i + 2] || !(floor..=floor + 1).contains(&ceil_len[i]) {
            return None;
        }
    }
    let mut key = (*cx.key).clone().with_attr("ceil_mode", AttrKey::Int(1));
    if ceil_len == [out[2], out[3]] {
        // Both roundings agree (also when the division is inexact but the
        // extra window would start in the end padding): the same node.
        return Some(cx.eg.add(ENode {
            op: Op::Apply(Arc::new(key)),
            children: vec![x],
        }));
    }
    key.name = cx.name("/ceil").as_str().into();
    let mut cur = cx.eg.add(ENode {
        op: Op::Apply(Arc::new(key)),
        children: vec![x],
    });
    let cut: Vec<usize> = (0..2).filter(|&i| ceil_len[i] != out[i + 2]).collect();
    for (j, &i) in cut.iter().enumerate() {
        let last = j + 1 == cut.len();
        let suffix = if last {
            String::new()
        } else {
            format!("/crop{}", i + 2)
        };
        cur = crop(cx, cur, i + 2, out[i + 2], &suffix);
    }
    Some(cur)
}

/// A scalar constant of the operand's dtype.
fn scalar(cx: &mut Cx, like: Id, suffix: &str, v: f64) -> Option<Id> {
    let dtype = cx.ty(like)?.dtype;
    Some(cx.tensor(suffix, Tensor::full(dtype, vec![], v)))
}

fn clip(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let bound = |cx: &Cx, i: usize| -> Option<Option<f64>> {
        if !cx.has(i) {
            return Some(None);
        }
        let v = cx.floats(cx.arg(i))?;
        (v.len() == 1).then(|| Some(f64::from(v[0])))
    };
    let (lo, hi) = (bound(cx, 1)?, bound(cx, 2)?);
    // r = max(x, lo) − lo = Relu(x − lo) when there is a lower bound.
    let r = match lo {
        None => x,
        Some(l) => {
            let t = if l == 0.0 {
                x
            } else {
                let c = scalar(cx, x, "neg_lo", -l)?;
                cx.op("Add", Attrs::new(), &[x, c], "/sub_lo")
            };
            let last = hi.is_none() && l == 0.0;
            cx.op("Relu", Attrs::new(), &[t], if last { "" } else { "/relu" })
        }
    };
    let Some(hi) = hi else {
        let l = lo?;
        if l == 0.0 {
            return Some(r);
        }
        let c = scalar(cx, x, "lo", l)?;
        return Some(cx.op("Add", Attrs::new(), &[r, c], ""));
    };
    // hi − Relu(c − r) with c = hi − lo (or hi, r = x, without a lower bound).
    let c = hi - lo.unwrap_or(0.0);
    if c < 0.0 {
        return None;
    }
    let minus = scalar(cx, x, "minus_one", -1.0)?;
    let n1 = cx.op("Mul", Attrs::new(), &[r, minus], "/neg1");
    let c1 = scalar(cx, x, "span", c)?;
    let a1 = cx.op("Add", Attrs::new(), &[n1, c1], "/rsub1");
    let w = cx.op("Relu", Attrs::new(), &[a1], "/relu2");
    let n2 = cx.op("Mul", Attrs::new(), &[w, minus], "/neg2");
    let c2 = scalar(cx, x, "hi", hi)?;
    Some(cx.op("Add", Attrs::new(), &[n2, c2], ""))
}

fn hard_sigmoid(cx: &mut Cx) -> Option<Id> {
    let alpha = f64::from(cx.key.float("alpha").unwrap_or(0.2));
    let beta = f64::from(cx.key.float("beta").unwrap_or(0.5));
    let x = cx.arg(0);
    hard_sigmoid_of(cx, x, alpha, beta, "")
}

/// `Clip(alpha·x + beta, 0, 1)` named `<matched><suffix>`.
fn hard_sigmoid_of(cx: &mut Cx, x: Id, alpha: f64, beta: f64, suffix: &str) -> Option<Id> {
    let a = scalar(cx, x, &format!("alpha{suffix}"), alpha)?;
    let m = cx.op("Mul", Attrs::new(), &[x, a], &format!("{suffix}/scale"));
    let b = scalar(cx, x, &format!("beta{suffix}"), beta)?;
    let y = cx.op("Add", Attrs::new(), &[m, b], &format!("{suffix}/shift"));
    let zero = scalar(cx, x, &format!("zero{suffix}"), 0.0)?;
    let one = scalar(cx, x, &format!("one{suffix}"), 1.0)?;
    Some(cx.op("Clip", Attrs::new(), &[y, zero, one], suffix))
}

fn hard_swish(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let hs = hard_sigmoid_of(cx, x, 1.0 / 6.0, 0.5, "/hardsigmoid")?;
    Some(cx.op("Mul", Attrs::new(), &[x, hs], ""))
}

fn concat_tree(cx: &mut Cx) -> Option<Id> {
    let max = crate::targets::nnie::CONCAT_MAX;
    let n = cx.arity();
    if n <= max {
        return None;
    }
    let axis = cx.key.int("axis")?;
    let args: Vec<Id> = (0..n).map(|i| cx.arg(i)).collect();
    let a = super::attrs(&[("axis", onnc_tensor::Attr::Int(axis))]);
    let head = cx.op("Concat", a.clone(), &args[..max], "/head");
    let mut rest = vec![head];
    rest.extend_from_slice(&args[max..]);
    Some(cx.op("Concat", a, &rest, ""))
}

/// Conv attributes: kernel `k`, strides `s`, pads `[t, l, b, r]`.
fn conv_attrs(k: [usize; 2], s: [usize; 2], pads: [usize; 4]) -> Attrs {
    let v = |a: &[usize]| onnc_tensor::Attr::Ints(a.iter().map(|&x| x as i64).collect());
    super::attrs(&[
        ("dilations", v(&[1, 1])),
        ("group", onnc_tensor::Attr::Int(1)),
        ("kernel_shape", v(&k)),
        ("pads", v(&pads)),
        ("strides", v(&s)),
    ])
}

fn strided_slice(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let out = cx.out_shape()?;
    if xs.len() != 4 || out.len() != 4 || (1..cx.arity()).any(|i| !cx.is_const(cx.arg(i))) {
        return None;
    }
    let ints =
        |cx: &Cx, i: usize| -> Option<Vec<i64>> { Some(cx.value(cx.arg(i))?.data().to_i64_vec()) };
    let starts = ints(cx, 1)?;
    let axes = if cx.has(3) { ints(cx, 3)? } else { vec![0] };
    let steps = if cx.has(4) { ints(cx, 4)? } else { vec![1] };
    if starts.len() != 1 || axes.len() != 1 || steps.len() != 1 {
        return None;
    }
    let axis = if axes[0] < 0 { axes[0] + 4 } else { axes[0] } as usize;
    if !(2..4).contains(&axis) || (steps[0] == 1 && starts[0] == 0) {
        return None;
    }
    let a = crate::targets::nvdla_moves::spatial_start(starts[0], steps[0], xs[axis], out[axis])
        .ok()? as usize;
    let c = xs[1];
    let d = axis - 2;
    let mut k = [1, 1];
    k[d] = a + 1;
    let mut st = [1, 1];
    st[d] = steps[0] as usize;
    let taps = a + 1;
    let mut w = vec![0f32; c * c * taps];
    for o in 0..c {
        w[(o * c + o) * taps + a] = 1.0;
    }
    let shape = vec![c, c, k[0], k[1]];
    let dtype = cx.ty(x)?.dtype;
    let wt = super::as_dtype(Tensor::from_f32(shape, w).ok()?, dtype);
    let w_id = cx.tensor("select", wt);
    Some(cx.op("Conv", conv_attrs(k, st, [0; 4]), &[x, w_id], ""))
}

fn channel_pad(cx: &mut Cx) -> Option<Id> {
    if cx.key.string("mode").is_some_and(|m| m != "constant") || cx.has(3) {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    if xs.len() != 4 || !cx.is_const(cx.arg(1)) {
        return None;
    }
    if cx.has(2) && cx.floats(cx.arg(2))?.iter().any(|&v| v != 0.0) {
        return None;
    }
    let p = cx.value(cx.arg(1))?.data().to_i64_vec();
    if p.len() != 8 || p.iter().any(|&v| v < 0) || p[0] != 0 || p[4] != 0 {
        return None;
    }
    let (c0, c1) = (p[1] as usize, p[5] as usize);
    if p[2] != p[6] || p[3] != p[7] || c0 + c1 == 0 {
        return None;
    }
    let c = xs[1];
    let co = c0 + c + c1;
    let mut w = vec![0f32; co * c];
    for i in 0..c {
        w[(c0 + i) * c + i] = 1.0;
    }
    let dtype = cx.ty(x)?.dtype;
    let wt = super::as_dtype(Tensor::from_f32(vec![co, c, 1, 1], w).ok()?, dtype);
    let w_id = cx.tensor("embed", wt);
    let (ph, pw) = (p[2] as usize, p[3] as usize);
    Some(cx.op(
        "Conv",
        conv_attrs([1, 1], [1, 1], [ph, pw, ph, pw]),
        &[x, w_id],
        "",
    ))
}

fn slice_per_axis(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let ints =
        |cx: &Cx, i: usize| -> Option<Vec<i64>> { Some(cx.value(cx.arg(i))?.data().to_i64_vec()) };
    if (1..cx.arity()).any(|i| cx.has(i) && !cx.is_const(cx.arg(i))) {
        return None;
    }
    let starts = ints(cx, 1)?;
    let ends = ints(cx, 2)?;
    if starts.len() < 2 || ends.len() != starts.len() {
        return None;
    }
    let rank = xs.len() as i64;
    let axes: Vec<i64> = if cx.has(3) {
        ints(cx, 3)?
    } else {
        (0..rank).take(starts.len()).collect()
    };
    let steps = if cx.has(4) {
        ints(cx, 4)?
    } else {
        vec![1; starts.len()]
    };
    if axes.len() != starts.len() || steps.len() != starts.len() {
        return None;
    }
    let mut cur = x;
    let n = starts.len();
    for j in 0..n {
        let tag = format!("axis{j}");
        let s = cx.ints(&format!("{tag}_starts"), &[starts[j]]);
        let e = cx.ints(&format!("{tag}_ends"), &[ends[j]]);
        let a = cx.ints(&format!("{tag}_axes"), &[axes[j]]);
        let st = cx.ints(&format!("{tag}_steps"), &[steps[j]]);
        let suffix = if j + 1 == n {
            String::new()
        } else {
            format!("/axis{}", axes[j])
        };
        cur = cx.op("Slice", Attrs::new(), &[cur, s, e, a, st], &suffix);
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::pooled_len;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn pool(op: &str, x: [usize; 2], k: i64, s: i64, p: i64, y: [usize; 2]) -> onnc_onnx::Graph {
        let n = Node::new("pool", op, &["x"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![k, k]))
            .with_attr("strides", Attr::Ints(vec![s, s]))
            .with_attr("pads", Attr::Ints(vec![p; 4]))
            .with_attr("ceil_mode", Attr::Int(0))
            .with_attr("count_include_pad", Attr::Int(1));
        graph(&[1, 2, x[0], x[1]], &[1, 2, y[0], y[1]], vec![n], vec![])
    }

    #[test]
    fn floor_maxpool_is_ceil_pool_and_crop_exactly() {
        // The ResNet stem shape, scaled: 12×12, k3 s2 p1 → 6×6 (ceil: 7×7).
        let g = pool("MaxPool", [12, 12], 3, 2, 1, [6, 6]);
        assert_eq!(
            ops_after(g.clone(), Target::Nnie),
            ["MaxPool", "Slice", "Slice"]
        );
        same_numbers(g, Target::Nnie, &[1, 2, 12, 12], 0.0);
        // Only the rows differ: 12×13 → 6×7 (ceil 7×7): one crop.
        let g = pool("MaxPool", [12, 13], 3, 2, 1, [6, 7]);
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["MaxPool", "Slice"]);
        same_numbers(g, Target::Nnie, &[1, 2, 12, 13], 0.0);
        // Both roundings agree: no crop (nnie/maxpool-ceil-mode).
        let g = pool("MaxPool", [13, 13], 3, 2, 1, [7, 7]);
        assert_eq!(ops_after(g, Target::Nnie), ["MaxPool"]);
        // The extra ceil window would start in the end padding: both agree.
        let g = pool("MaxPool", [5, 5], 2, 3, 1, [2, 2]);
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["MaxPool"]);
        same_numbers(g, Target::Nnie, &[1, 2, 5, 5], 0.0);
        // No padding, partial last window cut off.
        let g = pool("AveragePool", [6, 6], 3, 2, 0, [2, 2]);
        assert_eq!(
            ops_after(g.clone(), Target::Nnie),
            ["AveragePool", "Slice", "Slice"]
        );
        same_numbers(g, Target::Nnie, &[1, 2, 6, 6], 1e-6);
    }

    fn unary(op: &str, n: Node, inits: Vec<(&str, Tensor)>) -> onnc_onnx::Graph {
        let _ = op;
        graph(&[1, 2, 3, 4], &[1, 2, 3, 4], vec![n], inits)
    }

    #[test]
    fn clip_hardsigmoid_hardswish_become_relus_and_affine_maps() {
        let lo = Tensor::from_f32(vec![], vec![-0.25]).unwrap();
        let hi = Tensor::from_f32(vec![], vec![0.5]).unwrap();
        let g = unary(
            "Clip",
            Node::new("c", "Clip", &["x", "lo", "hi"], &["y"]),
            vec![("lo", lo.clone()), ("hi", hi.clone())],
        );
        assert_eq!(
            ops_after(g.clone(), Target::Nnie),
            ["Add", "Relu", "Mul", "Add", "Relu", "Mul", "Add"]
        );
        same_numbers(g, Target::Nnie, &[1, 2, 3, 4], 1e-6);
        // Upper bound only: min(x, hi) = hi − Relu(hi − x).
        let g = unary(
            "Clip",
            Node::new("c", "Clip", &["x", "", "hi"], &["y"]),
            vec![("hi", hi)],
        );
        same_numbers(g, Target::Nnie, &[1, 2, 3, 4], 1e-6);
        // Lower bound only: Relu(x − lo) + lo.
        let g = unary(
            "Clip",
            Node::new("c", "Clip", &["x", "lo"], &["y"]),
            vec![("lo", lo)],
        );
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Add", "Relu", "Add"]);
        same_numbers(g, Target::Nnie, &[1, 2, 3, 4], 1e-6);
        let hs = Node::new("h", "HardSigmoid", &["x"], &["y"])
            .with_attr("alpha", Attr::Float(0.4))
            .with_attr("beta", Attr::Float(0.3));
        same_numbers(
            unary("HardSigmoid", hs, vec![]),
            Target::Nnie,
            &[1, 2, 3, 4],
            1e-6,
        );
        let g = unary(
            "HardSwish",
            Node::new("h", "HardSwish", &["x"], &["y"]),
            vec![],
        );
        let ops = ops_after(g.clone(), Target::Nnie);
        assert!(
            ops.iter()
                .all(|o| ["Mul", "Add", "Relu"].contains(&o.as_str())),
            "{ops:?}"
        );
        same_numbers(g, Target::Nnie, &[1, 2, 3, 4], 1e-6);
    }

    #[test]
    fn wide_concat_is_a_tree_and_se_gate_mul_is_legal() {
        let names: Vec<String> = (0..20).map(|i| format!("x{i}")).collect();
        let mut nodes: Vec<Node> = names
            .iter()
            .map(|n| Node::new(n, "Relu", &["x"], &[n.as_str()]))
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        nodes.push(Node::new("cat", "Concat", &refs, &["y"]).with_attr("axis", Attr::Int(1)));
        let g = graph(&[1, 2, 3, 3], &[1, 40, 3, 3], nodes, vec![]);
        let ops = ops_after(g.clone(), Target::Nnie);
        assert_eq!(ops.iter().filter(|o| *o == "Concat").count(), 2, "{ops:?}");
        same_numbers(g, Target::Nnie, &[1, 2, 3, 3], 0.0);
        let nodes = vec![
            Node::new("gap", "GlobalAveragePool", &["x"], &["g"]),
            Node::new("sig", "Sigmoid", &["g"], &["s"]),
            Node::new("se", "Mul", &["x", "s"], &["y"]),
        ];
        let g = graph(&[1, 4, 3, 3], &[1, 4, 3, 3], nodes, vec![]);
        assert_eq!(
            ops_after(g, Target::Nnie),
            ["GlobalAveragePool", "Sigmoid", "Mul"]
        );
    }

    #[test]
    fn option_a_shortcut_is_selection_convs() {
        let t = |v: Vec<i64>| Tensor::from_i64(vec![v.len()], v).unwrap();
        let nodes = vec![
            Node::new("s", "Slice", &["x", "st", "en", "ax", "sp"], &["h"]),
            Node::new("p", "Pad", &["h", "pads"], &["y"]),
        ];
        let g = graph(
            &[1, 3, 7, 6],
            &[1, 7, 4, 3],
            nodes,
            vec![
                ("st", t(vec![0, 0])),
                ("en", t(vec![i64::MAX, i64::MAX])),
                ("ax", t(vec![2, 3])),
                ("sp", t(vec![2, 2])),
                ("pads", t(vec![0, 2, 0, 0, 0, 2, 0, 0])),
            ],
        );
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Conv", "Conv", "Conv"]);
        same_numbers(g, Target::Nnie, &[1, 3, 7, 6], 0.0);
        // Start 1 on the rows: a 2-tap kernel with the 1 on its second tap.
        let n = Node::new("s", "Slice", &["x", "st", "en", "ax", "sp"], &["y"]);
        let g = graph(
            &[1, 3, 7, 6],
            &[1, 3, 3, 6],
            vec![n],
            vec![
                ("st", t(vec![1])),
                ("en", t(vec![7])),
                ("ax", t(vec![2])),
                ("sp", t(vec![2])),
            ],
        );
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Conv"]);
        same_numbers(g, Target::Nnie, &[1, 3, 7, 6], 0.0);
    }

    #[test]
    fn two_axis_slice_is_two_caffe_slices_and_strided_is_refused() {
        let t = |v: Vec<i64>| Tensor::from_i64(vec![v.len()], v).unwrap();
        let n = Node::new("s", "Slice", &["x", "st", "en", "ax"], &["y"]);
        let g = graph(
            &[1, 4, 6, 6],
            &[1, 2, 6, 3],
            vec![n.clone()],
            vec![
                ("st", t(vec![1, 0])),
                ("en", t(vec![3, 3])),
                ("ax", t(vec![1, 3])),
            ],
        );
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Slice", "Slice"]);
        same_numbers(g, Target::Nnie, &[1, 4, 6, 6], 0.0);
        let n = Node::new("s", "Slice", &["x", "st", "en", "ax", "sp"], &["y"]);
        let g = graph(
            &[1, 4, 6, 6],
            &[1, 4, 2, 6],
            vec![n],
            vec![
                ("st", t(vec![0])),
                ("en", t(vec![4])),
                ("ax", t(vec![2])),
                ("sp", t(vec![2])),
            ],
        );
        let e = crate::legalize(g, Target::Nnie, &Default::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("node 's' (Slice): Slice runs on nnie only as a step of 1"),
            "{e}"
        );
    }

    /// Floor and ceil lengths, and the crop's claim: ceil ∈ {floor, floor + 1}.
    #[test]
    fn pooled_lengths_on_edge_cases() {
        // ResNet stem: 112, k3 s2 p1: floor 56, ceil 57 (last window starts at row 111, inside).
        assert_eq!(pooled_len(112, 3, 2, 1, 1, false), Some(56));
        assert_eq!(pooled_len(112, 3, 2, 1, 1, true), Some(57));
        // Both agree: (n + 2p − k) divisible by s.
        assert_eq!(pooled_len(113, 3, 2, 1, 1, false), Some(57));
        assert_eq!(pooled_len(113, 3, 2, 1, 1, true), Some(57));
        // The last ceil window would start in the end padding: dropped, both agree.
        // n = 4, k = 2, s = 2, p = 1: span 4, ceil 3 → window 2 starts at 2·2 − 1 = 3 < n + p = 5? kept.
        assert_eq!(pooled_len(4, 2, 2, 1, 1, true), Some(3));
        // n = 5, k = 2, s = 3, p = 1: span 5, floor 2, ceil 3 but (3 − 1)·3 = 6 ≥ n + p = 6: dropped.
        assert_eq!(pooled_len(5, 2, 3, 1, 1, false), Some(2));
        assert_eq!(pooled_len(5, 2, 3, 1, 1, true), Some(2));
        // No padding: ceil adds a partial window.
        assert_eq!(pooled_len(6, 3, 2, 0, 0, false), Some(2));
        assert_eq!(pooled_len(6, 3, 2, 0, 0, true), Some(3));
        // Kernel larger than the padded input: no output.
        assert_eq!(pooled_len(1, 4, 1, 1, 1, true), None);
        for n in 1..20 {
            for k in 1..5 {
                for s in 1..4 {
                    for p in 0..k {
                        let (Some(f), Some(c)) = (
                            pooled_len(n, k, s, p, p, false),
                            pooled_len(n, k, s, p, p, true),
                        ) else {
                            continue;
                        };
                        assert!(c == f || c == f + 1, "n{n} k{k} s{s} p{p}: {f} {c}");
                    }
                }
            }
        }
    }
}
