//! Grouped convolutions back in one piece: `Split → Conv×G → Concat` on
//! channels becomes one grouped `Conv` (equal groups) or one `Conv` with
//! block-diagonal weights (unequal groups).
//!
//! In: a [`Work`] graph in which legalization split a grouped (or depthwise)
//! convolution into G convolutions over channel slices. Out: the same graph
//! with each such pattern replaced by a single `Conv` node named after the
//! `Concat`, whose bias is the concatenation of the group biases and whose
//! weight is, when every group has the same `[K_g, C_g, R, S]` kernel, the
//! grouped `[G·K_g, C_g, R, S]` kernel with `group = G` (lowered natively,
//! [`super::grouped`]); otherwise the dense `[ΣK_g, ΣC_g, R, S]` kernel,
//! zero outside the diagonal blocks.
//!
//! Why: the group slices start at channel offsets that are rarely multiples
//! of the memory atom (ShuffleNet: 6 channels per group, fp16 atoms hold 16),
//! so they cannot be memory views, and G conv+SDP pairs would cost 2·G
//! hardware ops. The merged conv is exact: every extra product is `w = 0`
//! times a finite activation, and adding `0` changes no sum (an infinite or
//! NaN activation would turn into NaN where the split form kept it apart).
//! It costs G× the MACs of the grouped form, which the CONV engine absorbs
//! better than 2·G ops with a memory round trip each.
//!
//! ```text
//! s = Split(x[1,8,H,W], [4,4])   c0 = Conv(s:0, w0[2,4,3,3])   c1 = Conv(s:1, w1[2,4,3,3])   y = Concat(c0, c1)
//!   ⇒  y = Conv(x, w[4,4,3,3], group = 2)   (w[0..2] = w0, w[2..4] = w1)
//! s = Split(x[1,6,H,W], [2,4])   c0 = Conv(s:0, w0[2,2,3,3])   c1 = Conv(s:1, w1[2,4,3,3])   y = Concat(c0, c1)
//!   ⇒  y = Conv(x, w[4,6,3,3])     (w[0..2, 0..2] = w0, w[2..4, 2..6] = w1, zeros elsewhere)
//! ```

use onnc_onnx::Node;
use onnc_tensor::{Attr, Tensor};

use super::graph::Work;

/// Replaces every grouped-conv pattern; returns how many were merged.
///
/// The patterns are found on the graph as it is, then replaced together and
/// the consumers re-indexed once (one at a time, re-indexing after each, was
/// quadratic on ShuffleNet). Same result as one at a time in node order:
/// patterns share no node (each Conv reads one Split, each Concat reads
/// exactly its pattern's Convs), and a merge changes only the users of the
/// Split's input, which is produced before that Split, so no pattern found
/// later in node order can depend on it.
pub fn regroup(w: &mut Work) -> usize {
    let patterns: Vec<Pattern> = (0..w.nodes.len()).filter_map(|i| find(w, i)).collect();
    if patterns.is_empty() {
        return 0;
    }
    let mut dead = vec![false; w.nodes.len()];
    for p in &patterns {
        for i in std::iter::once(p.split).chain(p.convs.iter().copied()) {
            dead[i] = true;
        }
    }
    let merged = patterns.len();
    for p in patterns {
        apply(w, p);
    }
    let mut keep = dead.iter().map(|&d| !d);
    w.nodes.retain(|_| keep.next().unwrap_or(true));
    let mut keep = dead.iter().map(|&d| !d);
    w.sources.retain(|_| keep.next().unwrap_or(true));
    w.reindex();
    merged
}

struct Pattern {
    split: usize,
    convs: Vec<usize>,
    concat: usize,
}

fn axis1(n: &Node, rank: usize) -> bool {
    let a = n.attrs.get("axis").and_then(Attr::as_int).unwrap_or(0);
    a == 1 || (rank == 4 && a == -3)
}

fn find(w: &Work, split: usize) -> Option<Pattern> {
    let s = &w.nodes[split];
    if s.op_type != "Split"
        || !s.domain.is_empty()
        || s.outputs.len() < 2
        || !axis1(s, w.shape(s.input(0)?).len())
    {
        return None;
    }
    let mut convs = Vec::new();
    for o in &s.outputs {
        let u = w.users(o);
        if !w.single_use(o) {
            return None;
        }
        let c = &w.nodes[u[0]];
        if c.op_type != "Conv"
            || c.input(0) != Some(o.as_str())
            || w.constant(c.input(1)?).is_none()
        {
            return None;
        }
        if c.input(2).is_some_and(|b| w.constant(b).is_none()) {
            return None;
        }
        if c.attrs.get("group").and_then(Attr::as_int).unwrap_or(1) != 1 {
            return None;
        }
        convs.push(u[0]);
    }
    let first = &w.nodes[convs[0]];
    let same = |k: &str| {
        convs
            .iter()
            .all(|&c| w.nodes[c].attrs.get(k) == first.attrs.get(k))
    };
    if !["kernel_shape", "strides", "pads", "dilations", "auto_pad"]
        .iter()
        .all(|k| same(k))
    {
        return None;
    }
    let out0 = &first.outputs[0];
    if !w.single_use(out0) {
        return None;
    }
    let concat = w.users(out0)[0];
    let cn = &w.nodes[concat];
    if cn.op_type != "Concat" || !axis1(cn, 4) || cn.inputs.len() != convs.len() {
        return None;
    }
    for (k, &c) in convs.iter().enumerate() {
        let o = &w.nodes[c].outputs[0];
        if cn.input(k) != Some(o.as_str()) || !w.single_use(o) {
            return None;
        }
    }
    Some(Pattern {
        split,
        convs,
        concat,
    })
}

fn apply(w: &mut Work, p: Pattern) {
    let x = w.nodes[p.split].input(0).unwrap_or_default().to_string();
    let weights: Vec<&Tensor> = p
        .convs
        .iter()
        .filter_map(|&c| w.nodes[c].input(1).and_then(|n| w.constant(n)))
        .collect();
    let c_total: usize = weights.iter().map(|t| t.shape()[1]).sum();
    let k_total: usize = weights.iter().map(|t| t.shape()[0]).sum();
    let rs: usize = weights[0].shape()[2..].iter().product();
    // Equal groups: the grouped kernel (the groups' kernels one after the
    // other) and `group = G`; else the dense block-diagonal kernel.
    let uniform = weights
        .iter()
        .all(|t| t.shape()[..2] == weights[0].shape()[..2]);
    let width = if uniform {
        weights[0].shape()[1]
    } else {
        c_total
    };
    let mut merged = vec![0f32; k_total * width * rs];
    let mut bias = vec![0f32; k_total];
    let (mut k0, mut c0) = (0, 0);
    for (g, &c) in p.convs.iter().enumerate() {
        let t = weights[g];
        let (k, cg) = (t.shape()[0], t.shape()[1]);
        let v = t.cast(onnc_tensor::DType::F32);
        let v = v.as_f32().unwrap_or(&[]);
        let col = if uniform { 0 } else { c0 };
        for kk in 0..k {
            for cc in 0..cg {
                let src = (kk * cg + cc) * rs;
                let dst = ((k0 + kk) * width + col + cc) * rs;
                merged[dst..dst + rs].copy_from_slice(&v[src..src + rs]);
            }
        }
        if let Some(b) = w.nodes[c].input(2).and_then(|n| w.constant(n)) {
            let b = b.cast(onnc_tensor::DType::F32);
            bias[k0..k0 + k].copy_from_slice(b.as_f32().unwrap_or(&[]));
        }
        k0 += k;
        c0 += cg;
    }
    let concat = w.nodes[p.concat].clone();
    let name = concat.name.clone();
    let (wn, bn) = (format!("{name}.regrouped_w"), format!("{name}.regrouped_b"));
    let mut shape = weights[0].shape().to_vec();
    shape[0] = k_total;
    shape[1] = width;
    w.shapes.insert(wn.clone(), shape.clone());
    w.shapes.insert(bn.clone(), vec![k_total]);
    w.consts.insert(
        wn.clone(),
        Tensor::from_f32(shape, merged).expect("sizes agree"),
    );
    w.consts.insert(
        bn.clone(),
        Tensor::from_f32(vec![k_total], bias).expect("sizes agree"),
    );
    let mut node = w.nodes[p.convs[0]].clone();
    node.name = name;
    node.inputs = vec![Some(x), Some(wn), Some(bn)];
    node.outputs = concat.outputs.clone();
    if uniform {
        node.attrs
            .insert("group".into(), Attr::Int(p.convs.len() as i64));
    }
    let mut sources: Vec<String> = std::iter::once(p.split)
        .chain(p.convs.iter().copied())
        .chain([p.concat])
        .flat_map(|i| w.sources[i].clone())
        .collect();
    sources.sort();
    sources.dedup();
    // The merged node takes the Concat's place (all its operands exist by
    // then); the caller removes the Split and the Convs.
    w.nodes[p.concat] = node;
    w.sources[p.concat] = sources;
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::{Dim, Graph, ValueInfo};
    use onnc_tensor::DType;

    fn vi(name: &str, c: usize) -> ValueInfo {
        ValueInfo {
            name: name.into(),
            dtype: DType::F32,
            dims: [1, c, 2, 2].iter().map(|&d| Dim::Fixed(d)).collect(),
        }
    }

    /// The one-at-a-time definition [`regroup`] is held to: merge the first
    /// pattern, remove its Split and Convs, re-index, go on from there.
    fn regroup_one_at_a_time(w: &mut Work) -> usize {
        let (mut merged, mut i) = (0, 0);
        while i < w.nodes.len() {
            if let Some(p) = find(w, i) {
                let mut gone: Vec<usize> =
                    std::iter::once(p.split).chain(p.convs.clone()).collect();
                apply(w, p);
                gone.sort_unstable();
                for k in gone.into_iter().rev() {
                    w.nodes.remove(k);
                    w.sources.remove(k);
                }
                w.reindex();
                merged += 1;
                continue;
            }
            i += 1;
        }
        merged
    }

    /// A `Split → Conv×G → Concat` of G equal groups becomes one grouped
    /// `Conv` (`group = G`, the kernels one after the other); unequal
    /// groups become one dense `Conv`, zero outside the diagonal blocks.
    #[test]
    fn equal_groups_merge_into_a_grouped_conv_and_unequal_ones_into_a_dense_one() {
        let merge = |sizes: &[usize]| {
            let c: usize = sizes.iter().sum();
            let mut g = Graph {
                name: "g".into(),
                inputs: vec![vi("x", c)],
                outputs: vec![vi("y", c)],
                ..Default::default()
            };
            g.initializers.push((
                "sizes".into(),
                Tensor::from_i64(vec![sizes.len()], sizes.iter().map(|&s| s as i64).collect())
                    .unwrap(),
            ));
            let parts: Vec<String> = (0..sizes.len()).map(|k| format!("p{k}")).collect();
            let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
            g.nodes.push(
                Node::new("split", "Split", &["x", "sizes"], &refs).with_attr("axis", Attr::Int(1)),
            );
            let mut outs = Vec::new();
            let mut next = 1.0f32;
            for (k, &cg) in sizes.iter().enumerate() {
                let (wn, o) = (format!("w{k}"), format!("q{k}"));
                let v: Vec<f32> = (0..cg * cg)
                    .map(|_| {
                        next += 1.0;
                        next
                    })
                    .collect();
                g.initializers
                    .push((wn.clone(), Tensor::from_f32(vec![cg, cg, 1, 1], v).unwrap()));
                g.nodes.push(Node::new(
                    &format!("conv{k}"),
                    "Conv",
                    &[&parts[k], &wn],
                    &[&o],
                ));
                outs.push(o);
            }
            let refs: Vec<&str> = outs.iter().map(String::as_str).collect();
            g.nodes
                .push(Node::new("cat", "Concat", &refs, &["y"]).with_attr("axis", Attr::Int(1)));
            let mut w = Work::new(&g).unwrap();
            assert_eq!(regroup(&mut w), 1);
            assert_eq!(w.nodes.len(), 1);
            let n = w.nodes[0].clone();
            let wt = w.constant(n.input(1).unwrap()).unwrap().clone();
            (n.attrs.get("group").and_then(Attr::as_int), wt)
        };
        // Two groups of 2 channels: kernels 2..6 and 6..10, one after the other.
        let (group, wt) = merge(&[2, 2]);
        assert_eq!(group, Some(2));
        assert_eq!(wt.shape(), &[4, 2, 1, 1]);
        assert_eq!(wt.as_f32().unwrap(), &[2., 3., 4., 5., 6., 7., 8., 9.]);
        // Groups of 1 and 2 channels: dense, zeros off the diagonal blocks.
        let (group, wt) = merge(&[1, 2]);
        assert_eq!(group, None);
        assert_eq!(wt.shape(), &[3, 3, 1, 1]);
        assert_eq!(wt.as_f32().unwrap(), &[2., 0., 0., 0., 3., 4., 0., 5., 6.]);
    }

    /// Pseudo-random chains of `Split → Conv×G → Concat` patterns, some
    /// broken (a Conv's result also a graph output), some with a Relu in
    /// between: the batched merge gives the one-at-a-time graph.
    #[test]
    fn batched_regroup_equals_one_at_a_time() {
        let mut s = 11u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        let c = 8usize;
        let (mut merged, mut patterns) = (0, 0);
        for round in 0..30 {
            let mut g = Graph {
                name: "g".into(),
                inputs: vec![vi("x", c)],
                ..Default::default()
            };
            let mut cur = "x".to_string();
            for p in 0..1 + next(8) {
                if next(3) == 0 {
                    let r = format!("r{p}");
                    g.nodes
                        .push(Node::new(&format!("relu{p}"), "Relu", &[&cur], &[&r]));
                    cur = r;
                }
                let groups = [2usize, 4, 8][next(3) as usize];
                let cg = c / groups;
                let sizes = format!("sizes{p}");
                g.initializers.push((
                    sizes.clone(),
                    Tensor::from_i64(vec![groups], vec![cg as i64; groups]).unwrap(),
                ));
                let parts: Vec<String> = (0..groups).map(|k| format!("p{p}_{k}")).collect();
                let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
                g.nodes.push(
                    Node::new(&format!("split{p}"), "Split", &[&cur, &sizes], &refs)
                        .with_attr("axis", Attr::Int(1)),
                );
                let broken = next(4) == 0;
                let mut outs = Vec::new();
                for (k, part) in parts.iter().enumerate() {
                    let (wn, o) = (format!("w{p}_{k}"), format!("q{p}_{k}"));
                    let v: Vec<f32> = (0..cg * cg).map(|_| next(7) as f32 - 3.0).collect();
                    g.initializers
                        .push((wn.clone(), Tensor::from_f32(vec![cg, cg, 1, 1], v).unwrap()));
                    g.nodes.push(Node::new(
                        &format!("conv{p}_{k}"),
                        "Conv",
                        &[part, &wn],
                        &[&o],
                    ));
                    if broken && k == 0 {
                        g.outputs.push(vi(&o, cg));
                    }
                    outs.push(o);
                }
                let y = format!("cat{p}");
                let refs: Vec<&str> = outs.iter().map(String::as_str).collect();
                g.nodes
                    .push(Node::new(&y, "Concat", &refs, &[&y]).with_attr("axis", Attr::Int(1)));
                cur = y;
            }
            g.outputs.push(vi(&cur, c));
            let mut batched = Work::new(&g).unwrap();
            let mut single = batched.clone();
            patterns += g.nodes.iter().filter(|n| n.op_type == "Split").count();
            let n = regroup(&mut batched);
            merged += n;
            assert_eq!(n, regroup_one_at_a_time(&mut single), "round {round}");
            assert_eq!(batched.nodes, single.nodes, "round {round}");
            assert_eq!(batched.sources, single.sources, "round {round}");
            assert_eq!(batched.uses, single.uses, "round {round}");
            assert_eq!(batched.consts, single.consts, "round {round}");
        }
        assert!(
            0 < merged && merged < patterns,
            "{merged} of {patterns}: both kinds seen"
        );
    }
}
