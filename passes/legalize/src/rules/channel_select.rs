//! Channel selections on the MVU: ShuffleNetV2's channel `Slice`s (and the
//! channel shuffle, which `common/shuffle-as-conv` already makes a
//! permuting 1×1 `Conv`) as 1×1 `Conv`s that copy channels, folded into the
//! convolutions that read them.
//!
//! In: `Slice(x, starts, ends, axes, steps)` of a 4-D activation that cuts
//! only the channel axis (constant operands, positive step); a `Conv` whose
//! input is a *selection*: a 1×1, stride-1, unpadded, ungrouped `Conv`
//! without bias whose weights are 0/1, exactly one 1 per output channel and
//! at most one per input channel (output channel `i` copies input channel
//! `σ(i)`). Out: the Slice as the selection `Conv(x, E)`, `E[k, c_k] = 1`;
//! the reading `Conv(sel(x), W, B)` as `Conv(x, W', B)` with
//! `W'[o, σ(i), …] = W[o, i, …]` and zeros elsewhere (a grouped `W` is
//! first expanded to its block-diagonal dense form, so the result has
//! `group = 1`).
//!
//! Both are exact in floating point: each `W'` entry is one `W` entry (the
//! selection's column has at most one 1), and a padded position of `sel(x)`
//! is 0 like the padded `x`. A selection that some other node reads (a
//! `Concat`, which needs the copied channels in its own buffer) stays a
//! 1×1 copy layer; onnc-mvu keeps its 0/1 weights with scale 1, so it
//! copies codes exactly. The extractor chooses, per reader, the folded or
//! the unfolded form by cost.
//!
//! ```text
//! mvu/slice-to-conv       (Slice x starts ends [axes] [steps])      => (Conv{1×1} x E)
//! mvu/selection-into-conv (Conv (Conv{1×1} x E) W B), E a selection  => (Conv x W' B)
//! ```

use super::{Cx, Rule, MVU};
use crate::lang::ENode;
use egg::Id;
use onnc_tensor::{Attr, Data, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "mvu/slice-to-conv",
        deep: false,
        op: "Slice",
        targets: MVU,
        doc: "a channel Slice = a 1×1 Conv copying the selected channels (0/1 weights)",
        apply: slice_as_conv,
    },
    Rule {
        name: "mvu/selection-into-conv",
        deep: true,
        op: "Conv",
        targets: MVU,
        doc: "a Conv reading a channel selection (1×1 0/1 Conv) reads its input with permuted weight columns",
        apply: fold_selection,
    },
];

/// The channels a `Slice` of a `[N, C, H, W]` value keeps, when it cuts
/// only the channel axis with a positive step; `None` otherwise.
pub fn sliced_channels(
    shape: &[usize],
    args: &crate::targets::slice_args::SliceArgs,
) -> Option<Vec<usize>> {
    if shape.len() != 4 || args.axes.len() != args.starts.len() {
        return None;
    }
    let mut channels: Vec<usize> = (0..shape[1]).collect();
    for (k, &axis) in args.axes.iter().enumerate() {
        let axis = if axis < 0 { axis + 4 } else { axis };
        let dim = *shape.get(usize::try_from(axis).ok()?)? as i64;
        let step = *args.steps.get(k)?;
        let norm = |v: i64| (if v < 0 { v + dim } else { v }).clamp(0, dim);
        let (start, end) = (norm(args.starts[k]), norm(*args.ends.get(k)?));
        if axis != 1 {
            if (start, end, step) != (0, dim, 1) {
                return None;
            }
            continue;
        }
        if step <= 0 || start >= end {
            return None;
        }
        channels = (start..end)
            .step_by(step as usize)
            .map(|c| c as usize)
            .collect();
    }
    Some(channels)
}

fn slice_as_conv(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let dtype = cx.ty(x)?.dtype;
    if !dtype.is_float() {
        return None;
    }
    let args = crate::targets::slice_args::const_slice(cx.eg, &cx.node).ok()?;
    let keep = sliced_channels(&xs, &args)?;
    let c = xs[1];
    let mut e = vec![0f64; keep.len() * c];
    for (k, &ch) in keep.iter().enumerate() {
        e[k * c + ch] = 1.0;
    }
    let t = Tensor::new(vec![keep.len(), c, 1, 1], Data::from_f64s(dtype, &e)).ok()?;
    let w = cx.tensor("select", t);
    Some(super::gemm::conv_1x1(cx, x, w, ""))
}

/// `σ` of a selection `Conv` e-node (output channel `i` copies input
/// channel `σ[i]`) and its input class; `None` when `conv` is not one.
fn selection(cx: &Cx, conv: &ENode) -> Option<(Vec<usize>, Id)> {
    let key = conv.key()?;
    let all = |name: &str, want: i64| key.ints(name).is_none_or(|v| v.iter().all(|&d| d == want));
    if key.int("group").unwrap_or(1) != 1
        || !all("strides", 1)
        || !all("pads", 0)
        || !all("dilations", 1)
        || key.string("auto_pad").is_some_and(|p| p != "NOTSET")
        || crate::cond::operand_present(cx.eg, conv, 2)
    {
        return None;
    }
    let w = cx.value(cx.child(conv, 1)?)?;
    let [m, c, 1, 1] = *w.shape() else {
        return None;
    };
    let v = w.data().to_f64_vec();
    let mut sigma = Vec::with_capacity(m);
    let mut used = vec![false; c];
    for row in v.chunks(c) {
        if row.iter().any(|&x| x != 0.0 && x != 1.0) {
            return None;
        }
        let mut ones = row
            .iter()
            .enumerate()
            .filter(|(_, &x)| x == 1.0)
            .map(|(i, _)| i);
        let (Some(j), None) = (ones.next(), ones.next()) else {
            return None;
        };
        if std::mem::replace(&mut used[j], true) {
            return None;
        }
        sigma.push(j);
    }
    Some((sigma, cx.child(conv, 0)?))
}

/// `W` (`[O, M/g, kH, kW]`, `g` groups) as `[O, C, kH, kW]` reading input
/// channel `σ[i]` where `W` read channel `i` of `M`.
fn permuted_columns(w: &[f64], shape: &[usize], g: usize, sigma: &[usize], c: usize) -> Vec<f64> {
    let (o_n, per_in, taps) = (shape[0], shape[1], shape[2] * shape[3]);
    let per_out = o_n / g;
    let mut out = vec![0f64; o_n * c * taps];
    for o in 0..o_n {
        let first = (o / per_out) * per_in;
        for i in 0..per_in {
            let src = &w[(o * per_in + i) * taps..][..taps];
            let dst = (o * c + sigma[first + i]) * taps;
            out[dst..dst + taps].copy_from_slice(src);
        }
    }
    out
}

fn fold_selection(cx: &mut Cx) -> Option<Id> {
    let src = cx.arg(0);
    let candidates: Vec<ENode> = cx.eg[src]
        .nodes
        .iter()
        .filter(|n| n.is_op("Conv"))
        .cloned()
        .collect();
    let (sigma, x) = candidates.iter().find_map(|n| selection(cx, n))?;
    let c = cx.shape(x)?.get(1).copied()?;
    let w = cx.value(cx.arg(1))?;
    let shape = w.shape().to_vec();
    let g = usize::try_from(cx.key.int("group").unwrap_or(1)).ok()?;
    if shape.len() != 4 || g == 0 || shape[0] % g != 0 || shape[1] * g != sigma.len() {
        return None;
    }
    let dtype = w.dtype();
    if !dtype.is_float() {
        return None;
    }
    let folded = permuted_columns(&w.data().to_f64_vec(), &shape, g, &sigma, c);
    let t = Tensor::new(
        vec![shape[0], c, shape[2], shape[3]],
        Data::from_f64s(dtype, &folded),
    )
    .ok()?;
    let w2 = cx.tensor("selected_w", t);
    let mut a = cx.key.to_attrs();
    a.insert("group".into(), Attr::Int(1));
    let mut children = vec![x, w2];
    if cx.has(2) {
        children.push(cx.arg(2));
    }
    Some(cx.op("Conv", a, &children, ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn ints(v: &[i64]) -> Tensor {
        Tensor::from_i64(vec![v.len()], v.to_vec()).unwrap()
    }

    fn conv(name: &str, x: &str, w: &str, y: &str, k: i64, group: i64) -> Node {
        Node::new(name, "Conv", &[x, w], &[y])
            .with_attr("kernel_shape", Attr::Ints(vec![k, k]))
            .with_attr("pads", Attr::Ints(vec![k / 2; 4]))
            .with_attr("group", Attr::Int(group))
    }

    /// A ShuffleNetV2 unit on 8 channels: halves by `Slice`, the second
    /// half through 1×1 → depthwise 3×3 → 1×1 with ReLUs, `Concat`, and the
    /// channel shuffle (Reshape–Transpose–Reshape), then a 3×3 conv reading
    /// the shuffled channels.
    fn unit() -> onnc_onnx::Graph {
        let nodes = vec![
            Node::new("s1", "Slice", &["x", "st1", "en1", "ax"], &["a"]),
            Node::new("s2", "Slice", &["x", "st2", "en2", "ax"], &["b"]),
            conv("c1", "b", "w1", "b1", 1, 1),
            Node::new("r1", "Relu", &["b1"], &["b2"]),
            conv("dw", "b2", "wd", "b3", 3, 4),
            conv("c2", "b3", "w2", "b4", 1, 1),
            Node::new("r2", "Relu", &["b4"], &["b5"]),
            Node::new("cat", "Concat", &["a", "b5"], &["j"]).with_attr("axis", Attr::Int(1)),
            Node::new("rs1", "Reshape", &["j", "s5"], &["k"]),
            tr("t", &[0, 2, 1, 3, 4], "k", "l"),
            Node::new("rs2", "Reshape", &["l", "s4"], &["m"]),
            conv("c3", "m", "w3", "y", 3, 1),
        ];
        graph(
            &[1, 8, 5, 5],
            &[1, 6, 5, 5],
            nodes,
            vec![
                ("st1", ints(&[0])),
                ("en1", ints(&[4])),
                ("st2", ints(&[4])),
                ("en2", ints(&[i64::MAX])),
                ("ax", ints(&[1])),
                ("w1", w(&[4, 4, 1, 1], 1)),
                ("wd", w(&[4, 1, 3, 3], 2)),
                ("w2", w(&[4, 4, 1, 1], 3)),
                ("w3", w(&[6, 8, 3, 3], 4)),
                ("s5", ints(&[1, 2, 4, 5, 5])),
                ("s4", ints(&[1, 8, 5, 5])),
            ],
        )
    }

    #[test]
    fn shufflenet_unit_is_convs_on_the_mvu() {
        let ops = ops_after(unit(), Target::Mvu);
        assert!(
            ops.iter()
                .all(|o| ["Conv", "Relu", "Concat"].contains(&o.as_str())),
            "{ops:?}"
        );
        // One copy layer for the Concat's first half; the branch's first conv
        // reads x with permuted columns, the shuffle folds into c3.
        assert_eq!(ops.iter().filter(|o| *o == "Conv").count(), 5, "{ops:?}");
        same_numbers(unit(), Target::Mvu, &[1, 8, 5, 5], 1e-6);
    }

    #[test]
    fn selection_helpers() {
        use crate::targets::slice_args::SliceArgs;
        let a = |starts: &[i64], ends: &[i64], axes: &[i64], steps: &[i64]| SliceArgs {
            starts: starts.to_vec(),
            ends: ends.to_vec(),
            axes: axes.to_vec(),
            steps: steps.to_vec(),
        };
        let s = [1, 6, 4, 4];
        assert_eq!(
            super::sliced_channels(&s, &a(&[3], &[i64::MAX], &[1], &[1])),
            Some(vec![3, 4, 5])
        );
        assert_eq!(
            super::sliced_channels(&s, &a(&[-4], &[-1], &[-3], &[2])),
            Some(vec![2, 4])
        );
        assert_eq!(
            super::sliced_channels(&s, &a(&[0, 1], &[2, 4], &[1, 2], &[1, 1])),
            None
        );
        assert_eq!(
            super::sliced_channels(&s, &a(&[5], &[0], &[1], &[-1])),
            None
        );
        // W reads input i of 4 as channel sigma[i] of 6; group 2 expands.
        let w: Vec<f64> = (1..=4).map(f64::from).collect();
        let p = super::permuted_columns(&w, &[2, 2, 1, 1], 2, &[5, 0, 3, 1], 6);
        assert_eq!(p, [2., 0., 0., 0., 0., 1., 0., 4., 0., 3., 0., 0.]);
    }

    #[test]
    fn a_slice_of_rows_stays_refused() {
        let nodes = vec![Node::new("s", "Slice", &["x", "st", "en", "ax"], &["y"])];
        let g = graph(
            &[1, 4, 6, 6],
            &[1, 4, 3, 6],
            nodes,
            vec![("st", ints(&[0])), ("en", ints(&[3])), ("ax", ints(&[2]))],
        );
        let e = crate::legalize(g, Target::Mvu, &Default::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'s'") && e.contains("cuts the channel axis alone"),
            "{e}"
        );
    }
}
