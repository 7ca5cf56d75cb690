//! Pooling: `GlobalAveragePool` → `AveragePool` (chains of windows ≤ the
//! PDP limit with a correcting `Mul`), `ReduceMean` over H,W →
//! `GlobalAveragePool`, the `count_include_pad = 0` correction for engines
//! that divide by the whole window, and NNIE's round-up pooling.
//!
//! In/out (`K` = the target's largest pooling window, 8 on NVDLA):
//!
//! ```text
//! nvdla/gap-to-avgpool          (GlobalAveragePool x), H,W ≤ K  => (AveragePool{k=H×W} x)
//!                               H or W > K                      => (Mul (AveragePool{k2}… (AveragePool{k1, pad} x)) r)
//!                                  each side is padded up to a product of factors ≤ K; r = padded area / H·W
//! common/reducemean-to-gap      (ReduceMean{keepdims} x [2,3])  => (GlobalAveragePool x) [+ Reshape to N×C]
//! nvdla/avgpool-pad-correction  (AveragePool{pads, cip=0} x)    => (Mul (AveragePool{pads, cip=1} x) R)
//!                                  R[c,i,j] = window area / non-pad elements of window (i,j)
//! nnie/maxpool-ceil-mode        (MaxPool{ceil=0} x), exact      => (MaxPool{ceil=1} x)
//! nnie/avgpool-ceil-mode        (AveragePool{ceil=0} x), exact  => (AveragePool{ceil=1} x)
//! mvu/avgpool-to-depthwise-conv (AveragePool{k, s, no pads} x)  => (Conv{group=C, k, s} x W), W = 1/(kH·kW)
//! ```

use super::{attrs, Cx, Rule, ALL, MVU, NVDLA};
use crate::cond;
use crate::lang::AttrKey;
use crate::target::Target;
use egg::Id;
use onnc_tensor::{Attr, Attrs, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "nvdla/gap-to-avgpool",
        deep: false,
        op: "GlobalAveragePool",
        targets: NVDLA,
        doc: "GAP as PDP average pools (split when larger than the PDP window)",
        apply: gap,
    },
    Rule {
        name: "common/reducemean-to-gap",
        deep: false,
        op: "ReduceMean",
        targets: ALL,
        doc: "mean over H and W is a global average pool",
        apply: reduce_mean,
    },
    Rule {
        name: "nvdla/avgpool-pad-correction",
        deep: false,
        op: "AveragePool",
        targets: NVDLA,
        doc: "count_include_pad=0 as a padded average times a per-position correction",
        apply: pad_correction,
    },
    Rule {
        name: "nnie/maxpool-ceil-mode",
        deep: false,
        op: "MaxPool",
        targets: &[Target::Nnie],
        doc: "ceil_mode=1 when the division is exact",
        apply: ceil_mode,
    },
    Rule {
        name: "nnie/avgpool-ceil-mode",
        deep: false,
        op: "AveragePool",
        targets: &[Target::Nnie],
        doc: "ceil_mode=1 when the division is exact",
        apply: ceil_mode,
    },
    Rule {
        name: "mvu/avgpool-to-depthwise-conv",
        deep: false,
        op: "AveragePool",
        targets: MVU,
        doc: "AveragePool without pads = a depthwise Conv of weights 1/(kH·kW) (the MVU pools only maxima)",
        apply: avg_as_conv,
    },
];

/// AveragePool attributes.
fn avg_attrs(k: [usize; 2], s: [usize; 2], pads: [usize; 4], count_include_pad: bool) -> Attrs {
    let v = |a: &[usize]| Attr::Ints(a.iter().map(|&x| x as i64).collect());
    attrs(&[
        ("auto_pad", Attr::String("NOTSET".into())),
        ("ceil_mode", Attr::Int(0)),
        ("count_include_pad", Attr::Int(count_include_pad as i64)),
        ("dilations", v(&[1, 1])),
        ("kernel_shape", v(&k)),
        ("pads", v(&pads)),
        ("strides", v(&s)),
    ])
}

/// Window sizes ≤ `max` whose product is the smallest `d' ≥ d` that factors so.
pub fn split_window(d: usize, max: usize) -> (Vec<usize>, usize) {
    let mut padded = d.max(1);
    loop {
        let mut rest = padded;
        let mut ks = vec![];
        while rest > 1 {
            match (2..=max.min(rest)).rev().find(|k| rest.is_multiple_of(*k)) {
                Some(k) => {
                    ks.push(k);
                    rest /= k;
                }
                None => break,
            }
        }
        if rest == 1 {
            if ks.is_empty() {
                ks.push(1);
            }
            return (ks, padded);
        }
        padded += 1;
    }
}

fn gap(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let s = cx.shape(x)?;
    if s.len() != 4 {
        return None;
    }
    let (h, w, max) = (s[2], s[3], cx.cfg.pool_kernel_max);
    if h <= max && w <= max {
        return Some(cx.op(
            "AveragePool",
            avg_attrs([h, w], [1, 1], [0; 4], false),
            &[x],
            "",
        ));
    }
    let (kh, ph) = split_window(h, max);
    let (kw, pw) = split_window(w, max);
    let steps = kh.len().max(kw.len());
    let mut cur = x;
    for i in 0..steps {
        let (a, b) = (
            kh.get(i).copied().unwrap_or(1),
            kw.get(i).copied().unwrap_or(1),
        );
        let pads = if i == 0 {
            [0, 0, ph - h, pw - w]
        } else {
            [0; 4]
        };
        cur = cx.op(
            "AveragePool",
            avg_attrs([a, b], [a, b], pads, true),
            &[cur],
            &format!("/pool{i}"),
        );
    }
    let r = (ph * pw) as f32 / (h * w) as f32;
    if ph == h && pw == w {
        return Some(cur);
    }
    let dtype = cx.ty(x)?.dtype;
    let rt = cx.tensor("correction", Tensor::full(dtype, vec![1], r as f64));
    Some(cx.op("Mul", Attrs::new(), &[cur, rt], ""))
}

fn reduce_mean(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let s = cx.shape(x)?;
    if s.len() != 4 || !cx.has(1) {
        return None;
    }
    let mut axes: Vec<i64> = cx
        .value(cx.arg(1))?
        .data()
        .to_i64_vec()
        .iter()
        .map(|&a| if a < 0 { a + 4 } else { a })
        .collect();
    axes.sort();
    if axes != [2, 3] {
        return None;
    }
    let keep = cx.key.int("keepdims").unwrap_or(1) != 0;
    let suffix = if keep { "" } else { "/gap" };
    let g = cx.op("GlobalAveragePool", Attrs::new(), &[x], suffix);
    if keep {
        return Some(g);
    }
    let shape = cx.ints("shape", &[s[0] as i64, s[1] as i64]);
    Some(cx.op(
        "Reshape",
        attrs(&[("allowzero", Attr::Int(0))]),
        &[g, shape],
        "",
    ))
}

fn pad_correction(cx: &mut Cx) -> Option<Id> {
    let k = cond::kernel(&cx.key);
    let p = cond::pads(&cx.key);
    let st = cond::strides(&cx.key);
    if cx.key.int("count_include_pad") != Some(0)
        || p.iter().all(|&v| v == 0)
        || k.len() != 2
        || cx.key.int("ceil_mode").unwrap_or(0) != 0
    {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let out = cx.out_shape()?;
    let dtype = cx.ty(x)?.dtype;
    if xs.len() != 4 || out.len() != 4 {
        return None;
    }
    let valid = |o: usize, d: usize| -> usize {
        let start = (o * st[d]) as i64 - p[d] as i64;
        let end = start + k[d] as i64;
        (end.min(xs[2 + d] as i64) - start.max(0)).max(0) as usize
    };
    // One factor per output element: bounded before allocating (pads of
    // i64::MAX gave 2^62 output rows; `limits::check_sizes` refuses those
    // first, this keeps the rule safe on its own).
    let limit = onnc_tensor::limits::MAX_TENSOR_BYTES;
    onnc_tensor::limits::checked_bytes(&out[1..], 4, limit).ok()?;
    let area = (k[0] * k[1]) as f32;
    let mut r = Vec::with_capacity(out[1] * out[2] * out[3]);
    for _ in 0..out[1] {
        for i in 0..out[2] {
            for j in 0..out[3] {
                r.push(area / (valid(i, 0) * valid(j, 1)).max(1) as f32);
            }
        }
    }
    let rt = super::as_dtype(
        Tensor::from_f32(vec![1, out[1], out[2], out[3]], r).ok()?,
        dtype,
    );
    let r_id = cx.tensor("pad_correction", rt);
    let mut key = (*cx.key)
        .clone()
        .with_attr("count_include_pad", AttrKey::Int(1));
    key.name = format!("{}/pool", cx.key.name).as_str().into();
    let pool = cx.eg.add(crate::lang::ENode {
        op: crate::lang::Op::Apply(std::sync::Arc::new(key)),
        children: vec![x],
    });
    Some(cx.op("Mul", Attrs::new(), &[pool, r_id], ""))
}

/// A 2-D `AveragePool` without pads or `ceil_mode` (every window whole) as
/// the depthwise `Conv` whose weights are all `1/(kH·kW)`: the same mean.
fn avg_as_conv(cx: &mut Cx) -> Option<Id> {
    if cx.key.int("ceil_mode").unwrap_or(0) != 0 || cx.key.n_out != 1 {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let dtype = cx.ty(x)?.dtype;
    let (k, s, p) = (
        cond::kernel(&cx.key),
        cond::strides(&cx.key),
        cond::pads(&cx.key),
    );
    if xs.len() != 4 || k.len() != 2 || p.iter().any(|&v| v != 0) || !dtype.is_float() {
        return None;
    }
    let c = xs[1];
    let w = vec![1.0 / (k[0] * k[1]) as f64; c * k[0] * k[1]];
    let wt = Tensor::new(
        vec![c, 1, k[0], k[1]],
        onnc_tensor::Data::from_f64s(dtype, &w),
    )
    .ok()?;
    let w_id = cx.tensor("mean_w", wt);
    let v = |a: &[usize]| Attr::Ints(a.iter().map(|&x| x as i64).collect());
    let strides = if s.len() == 2 { s } else { k.clone() };
    let a = attrs(&[
        ("dilations", v(&[1, 1])),
        ("group", Attr::Int(c as i64)),
        ("kernel_shape", v(&k)),
        ("pads", v(&[0, 0, 0, 0])),
        ("strides", v(&strides)),
    ]);
    Some(cx.op("Conv", a, &[x, w_id], ""))
}

fn ceil_mode(cx: &mut Cx) -> Option<Id> {
    if cx.key.int("ceil_mode").unwrap_or(0) != 0 || cx.key.n_out != 1 {
        return None;
    }
    let xs = cx.shape(cx.arg(0))?;
    let (k, s, p, d) = (
        cond::kernel(&cx.key),
        cond::strides(&cx.key),
        cond::pads(&cx.key),
        cond::dilations(&cx.key),
    );
    let n = k.len();
    if xs.len() != n + 2 || p.len() != 2 * n {
        return None;
    }
    let exact = (0..n).all(|i| {
        let span = xs[i + 2] + p[i] + p[i + n];
        let eff = (k[i] - 1) * d.get(i).copied().unwrap_or(1) + 1;
        span >= eff && (span - eff) % s[i].max(1) == 0
    });
    if !exact {
        return None;
    }
    let key = (*cx.key).clone().with_attr("ceil_mode", AttrKey::Int(1));
    let x = cx.arg(0);
    Some(cx.eg.add(crate::lang::ENode {
        op: crate::lang::Op::Apply(std::sync::Arc::new(key)),
        children: vec![x],
    }))
}

#[cfg(test)]
mod tests {
    use super::split_window;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    #[test]
    fn windows_factor_within_the_limit() {
        assert_eq!(split_window(7, 8), (vec![7], 7));
        assert_eq!(split_window(14, 8), (vec![7, 2], 14));
        assert_eq!(split_window(13, 8), (vec![7, 2], 14));
        assert_eq!(split_window(56, 8), (vec![8, 7], 56));
    }

    fn gap(h: usize, w: usize) -> onnc_onnx::Graph {
        graph(
            &[1, 2, h, w],
            &[1, 2, 1, 1],
            vec![Node::new("gap", "GlobalAveragePool", &["x"], &["y"])],
            vec![],
        )
    }

    #[test]
    fn mvu_avgpool_is_a_depthwise_conv_of_the_mean() {
        let g = graph(
            &[1, 3, 4, 4],
            &[1, 3, 2, 2],
            vec![Node::new("avg", "AveragePool", &["x"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
                .with_attr("strides", Attr::Ints(vec![2, 2]))],
            vec![],
        );
        assert_eq!(ops_after(g.clone(), Target::Mvu), ["Conv"]);
        same_numbers(g, Target::Mvu, &[1, 3, 4, 4], 1e-6);
    }

    #[test]
    fn small_gap_is_one_avgpool() {
        assert_eq!(ops_after(gap(7, 7), Target::NvFull), ["AveragePool"]);
    }

    #[test]
    fn large_gap_is_split_with_correction() {
        assert_eq!(
            ops_after(gap(13, 9), Target::NvFull),
            ["AveragePool", "AveragePool", "Mul"]
        );
        same_numbers(gap(13, 9), Target::NvFull, &[1, 2, 13, 9], 1e-5);
        same_numbers(gap(16, 16), Target::NvFull, &[1, 2, 16, 16], 1e-5);
    }

    #[test]
    fn reduce_mean_becomes_gap_then_avgpool() {
        let axes = Tensor::from_i64(vec![2], vec![2, 3]).unwrap();
        let n = Node::new("rm", "ReduceMean", &["x", "axes"], &["y"])
            .with_attr("keepdims", Attr::Int(0));
        let g = graph(&[1, 2, 4, 4], &[1, 2], vec![n], vec![("axes", axes)]);
        assert_eq!(
            ops_after(g.clone(), Target::NvFull),
            ["AveragePool", "Reshape"]
        );
        same_numbers(g, Target::NvFull, &[1, 2, 4, 4], 1e-5);
    }

    fn padded_avg() -> onnc_onnx::Graph {
        let n = Node::new("ap", "AveragePool", &["x"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("count_include_pad", Attr::Int(0))
            .with_attr("ceil_mode", Attr::Int(0))
            .with_attr("auto_pad", Attr::String("NOTSET".into()));
        graph(&[1, 2, 4, 5], &[1, 2, 4, 5], vec![n], vec![])
    }

    /// R21 (issue 15): `test/.../r21_avgpool_huge_pad.mlir` of the hostile-input
    /// campaign — an average pool (count_include_pad 0) with a bottom pad of
    /// i64::MAX — made the pad correction allocate 8 GB and abort. It is
    /// refused by size before any rule runs, never allocated.
    #[test]
    fn r21_avgpool_with_a_pad_of_i64_max_is_refused_not_allocated() {
        let n = Node::new("ap", "AveragePool", &["x"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
            .with_attr("pads", Attr::Ints(vec![0, 0, i64::MAX, 0]))
            .with_attr("strides", Attr::Ints(vec![2, 2]))
            .with_attr("dilations", Attr::Ints(vec![1, 1]))
            .with_attr("count_include_pad", Attr::Int(0))
            .with_attr("ceil_mode", Attr::Int(0))
            .with_attr("auto_pad", Attr::String("NOTSET".into()));
        let g = graph(&[1, 8, 4, 4], &[1, 8, 2, 2], vec![n], vec![]);
        let r = crate::legalize(g, Target::NvFull, &Default::default());
        let Err(e) = r else { panic!("accepted") };
        let m = e.to_string();
        assert!(
            m.contains("node 'ap'")
                && m.contains("4611686018427387905")
                && m.contains("--max-tensor-bytes"),
            "{m}"
        );
        // The rule itself is bounded even when the check above is bypassed.
        let limits = onnc_tensor::limits::checked_bytes(
            &[8, 1 << 62, 2],
            4,
            onnc_tensor::limits::MAX_TENSOR_BYTES,
        );
        assert!(limits.is_err());
    }

    #[test]
    fn avgpool_pad_correction() {
        assert_eq!(
            ops_after(padded_avg(), Target::NvFull),
            ["AveragePool", "Mul"]
        );
        same_numbers(padded_avg(), Target::NvFull, &[1, 2, 4, 5], 1e-5);
    }

    #[test]
    fn nnie_avgpool_rounds_up_when_exact_and_crops_otherwise() {
        let n = |k: i64| {
            Node::new("ap", "AveragePool", &["x"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![k, k]))
                .with_attr("pads", Attr::Ints(vec![0, 0, 0, 0]))
                .with_attr("strides", Attr::Ints(vec![2, 2]))
                .with_attr("count_include_pad", Attr::Int(0))
                .with_attr("ceil_mode", Attr::Int(0))
        };
        let ok = crate::legalize(
            graph(&[1, 2, 5, 5], &[1, 2, 2, 2], vec![n(3)], vec![]),
            Target::Nnie,
            &Default::default(),
        )
        .unwrap();
        assert_eq!(
            ok.graph.nodes[0].attrs.get("ceil_mode"),
            Some(&Attr::Int(1))
        );
        // Inexact: rounded up, then the extra window cut off (rules::nnie).
        let g = graph(&[1, 2, 6, 6], &[1, 2, 2, 2], vec![n(3)], vec![]);
        assert_eq!(
            ops_after(g.clone(), Target::Nnie),
            ["AveragePool", "Slice", "Slice"]
        );
        same_numbers(g, Target::Nnie, &[1, 2, 6, 6], 1e-6);
    }

    #[test]
    fn nnie_pools_round_up_when_exact() {
        let n = Node::new("mp", "MaxPool", &["x"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
            .with_attr("pads", Attr::Ints(vec![0, 0, 0, 0]))
            .with_attr("strides", Attr::Ints(vec![2, 2]))
            .with_attr("ceil_mode", Attr::Int(0));
        let r = crate::legalize(
            graph(&[1, 2, 4, 4], &[1, 2, 2, 2], vec![n], vec![]),
            Target::Nnie,
            &Default::default(),
        )
        .unwrap();
        assert_eq!(r.graph.nodes[0].attrs.get("ceil_mode"), Some(&Attr::Int(1)));
    }
}
