//! Wide Concat and Split back in one piece, before [`super::regroup`].
//!
//! In: a [`Work`] graph whose wide nodes were expanded when it went through
//! the `onnx` dialect (an op there holds at most 32 concat members or 16 split
//! results: `passes/src/import/wide.rs` turns a wider Concat into a chain of
//! Concats and a wider Split into one Slice per result). Out: the same graph
//! with
//! * every channel Concat whose member is the single-use result of another
//!   channel Concat flattened into one Concat, and
//! * every set of channel Slices of one tensor that tiles its channels exactly
//!   (start 0, each end the next start, the last end C, step 1) replaced by
//!   one Split.
//!
//! Both rewrites are exact (they only regroup the same windows), and give
//! [`super::regroup`] back the `Split → Conv×G → Concat` it recognises
//! (ShuffleNet's depthwise convolutions: 4594 convolutions after
//! legalization, 68 after regrouping).
//!
//! ```text
//! a = Slice(x, [0], [8], [1])   b = Slice(x, [8], [16], [1])      ⇒  a, b = Split(x, [8, 8], axis = 1)
//! c = Concat(p, q)   y = Concat(c, r)      (c used once)          ⇒  y = Concat(p, q, r)
//! ```

use onnc_onnx::Node;
use onnc_tensor::{Attr, Tensor};

use super::graph::Work;

/// Applies both rewrites to a fixed point; returns how many nodes were removed.
pub fn unwide(w: &mut Work) -> usize {
    let before = w.nodes.len();
    flatten_concats(w);
    merge_slices(w);
    before - w.nodes.len()
}

fn channel_axis(n: &Node) -> bool {
    matches!(
        n.attrs.get("axis").and_then(Attr::as_int),
        Some(1) | Some(-3)
    )
}

/// Flattens every Concat-of-Concat in one sweep (a member that is the
/// single-use result of another channel Concat is replaced by that Concat's
/// members, repeatedly); the absorbed Concats are removed at the end.
fn flatten_concats(w: &mut Work) {
    let producer: std::collections::HashMap<String, usize> = w
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(i, n)| n.outputs.iter().map(move |o| (o.clone(), i)))
        .collect();
    let is_channel_concat =
        |n: &Node| n.op_type == "Concat" && n.domain.is_empty() && channel_axis(n);
    let mut dead = vec![false; w.nodes.len()];
    for i in 0..w.nodes.len() {
        if dead[i] || !is_channel_concat(&w.nodes[i]) {
            continue;
        }
        let mut k = 0;
        while k < w.nodes[i].inputs.len() {
            let absorbed = w.nodes[i].inputs[k].as_ref().and_then(|v| {
                let p = *producer.get(v)?;
                (p != i && !dead[p] && is_channel_concat(&w.nodes[p]) && w.single_use(v))
                    .then_some(p)
            });
            match absorbed {
                Some(p) => {
                    let inner = w.nodes[p].inputs.clone();
                    w.nodes[i].inputs.splice(k..=k, inner);
                    let moved = w.sources[p].clone();
                    w.sources[i].extend(moved);
                    dead[p] = true;
                }
                None => k += 1,
            }
        }
    }
    if dead.iter().any(|&d| d) {
        let mut keep = dead.iter().map(|&d| !d);
        w.nodes.retain(|_| keep.next().unwrap_or(true));
        let mut keep = dead.iter().map(|&d| !d);
        w.sources.retain(|_| keep.next().unwrap_or(true));
        w.reindex();
    }
}

/// The channel window `[start, end)` of a Slice over channels with step 1.
fn channel_window(w: &Work, n: &Node) -> Option<(usize, usize)> {
    if n.op_type != "Slice" || !n.domain.is_empty() {
        return None;
    }
    let ints = |i: usize| w.constant(n.input(i)?).map(|t| t.data().to_i64_vec());
    let (starts, ends) = (ints(1)?, ints(2)?);
    let axes = n.input(3).map_or(Some(vec![0]), |_| ints(3))?;
    let rank = w.shape(n.input(0)?).len() as i64;
    if starts.len() != 1
        || ends.len() != 1
        || axes.len() != 1
        || !(axes[0] == 1 || axes[0] == 1 - rank)
    {
        return None;
    }
    if n.input(4).is_some() && ints(4)? != vec![1] {
        return None;
    }
    let c = *w.shape(n.input(0)?).get(1)? as i64;
    let norm = |v: i64| if v < 0 { (v + c).clamp(0, c) } else { v.min(c) };
    let (s, e) = (norm(starts[0]), norm(ends[0]));
    (s < e).then_some((s as usize, e as usize))
}

/// A channel Slice: (first channel, end channel, node).
type Window = (usize, usize, usize);

/// Replaces every set of channel Slices of one tensor that tiles its
/// channels by one Split at the place of the set's earliest Slice.
///
/// The sets are found on the graph as it is, then replaced together and the
/// consumers re-indexed once (replacing them one at a time, re-indexing
/// after each, was quadratic: ShuffleNet has hundreds of such sets over
/// ~13k nodes). The result is the one-at-a-time result: a set is made of
/// all the channel-Slice users of its tensor, so the sets are disjoint, and
/// replacing one changes only the users of its own tensor.
fn merge_slices(w: &mut Work) {
    let sets: Vec<(usize, Vec<Window>)> = (0..w.nodes.len())
        .filter_map(|first| tiling_slices(w, first).map(|parts| (first, parts)))
        .collect();
    if sets.is_empty() {
        return;
    }
    let mut dead = vec![false; w.nodes.len()];
    for (first, parts) in sets {
        replace_by_split(w, first, &parts);
        for &(_, _, i) in &parts {
            dead[i] = i != first;
        }
    }
    let mut keep = dead.iter().map(|&d| !d);
    w.nodes.retain(|_| keep.next().unwrap_or(true));
    let mut keep = dead.iter().map(|&d| !d);
    w.sources.retain(|_| keep.next().unwrap_or(true));
    w.reindex();
}

/// When node `first` is the earliest of a set of channel Slices of one
/// tensor that tiles its channels: the set, as (start, end, node) sorted.
fn tiling_slices(w: &Work, first: usize) -> Option<Vec<Window>> {
    channel_window(w, &w.nodes[first])?;
    let x = w.nodes[first].input(0)?;
    // Users come in node order: a channel Slice of `x` before `first` means
    // `first` is not the earliest, and ends the look at once (a tensor cut
    // into hundreds of Slices would otherwise cost hundreds² window checks).
    let mut parts: Vec<Window> = Vec::new();
    for &i in w.users(x) {
        let Some((s, e)) = channel_window(w, &w.nodes[i]) else {
            continue;
        };
        if w.nodes[i].input(0) != Some(x) {
            continue;
        }
        if i < first {
            return None;
        }
        parts.push((s, e, i));
    }
    if parts.len() < 2 {
        return None;
    }
    parts.sort();
    let c = w.shape(x).get(1).copied().unwrap_or(0);
    let tiles = parts[0].0 == 0
        && parts.last().map(|p| p.1) == Some(c)
        && parts.windows(2).all(|p| p[0].1 == p[1].0);
    tiles.then_some(parts)
}

/// Puts at node `first` one Split giving the outputs of the Slices `parts`
/// (the caller removes the others).
fn replace_by_split(w: &mut Work, first: usize, parts: &[Window]) {
    let x = w.nodes[first].input(0).unwrap_or_default().to_string();
    let sizes: Vec<i64> = parts.iter().map(|&(s, e, _)| (e - s) as i64).collect();
    let name = format!("{}.unwide_split", w.nodes[first].name);
    let sizes_name = format!("{name}.sizes");
    w.shapes.insert(sizes_name.clone(), vec![sizes.len()]);
    w.consts.insert(
        sizes_name.clone(),
        Tensor::from_i64(vec![sizes.len()], sizes).expect("a 1-D shape matches its data"),
    );
    let outputs: Vec<String> = parts
        .iter()
        .map(|&(_, _, i)| w.nodes[i].outputs[0].clone())
        .collect();
    let refs: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let split = Node::new(&name, "Split", &[x.as_str(), sizes_name.as_str()], &refs)
        .with_attr("axis", Attr::Int(1));
    let mut sources: Vec<String> = parts
        .iter()
        .flat_map(|&(_, _, i)| w.sources[i].clone())
        .collect();
    sources.sort();
    sources.dedup();
    w.nodes[first] = split;
    w.sources[first] = sources;
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::{Dim, Graph, ValueInfo};

    fn vi(name: &str, dims: &[usize]) -> ValueInfo {
        ValueInfo::f32(name, dims)
    }

    fn i64s(v: &[i64]) -> Tensor {
        Tensor::from_i64(vec![v.len()], v.to_vec()).unwrap()
    }

    /// x[1,4,2,2] → four 1-channel Slices → Relu each → Concat(Concat(r0, r1), r2, r3).
    fn graph() -> Graph {
        let mut g = Graph {
            name: "g".into(),
            inputs: vec![vi("x", &[1, 4, 2, 2])],
            outputs: vec![vi("y", &[1, 4, 2, 2])],
            initializers: Vec::new(),
            nodes: Vec::new(),
        };
        g.initializers.push(("ax".into(), i64s(&[1])));
        for k in 0..4i64 {
            g.initializers.push((format!("s{k}"), i64s(&[k])));
            g.initializers.push((format!("e{k}"), i64s(&[k + 1])));
        }
        // Out of order, as an expansion may leave them.
        for k in [2i64, 0, 3, 1] {
            let (s, e, o) = (format!("s{k}"), format!("e{k}"), format!("x{k}"));
            g.nodes.push(Node::new(
                &format!("slice{k}"),
                "Slice",
                &["x", &s, &e, "ax"],
                &[&o],
            ));
        }
        for k in 0..4 {
            g.nodes.push(Node::new(
                &format!("relu{k}"),
                "Relu",
                &[&format!("x{k}")],
                &[&format!("r{k}")],
            ));
        }
        g.nodes.push(
            Node::new("cat_a", "Concat", &["r0", "r1"], &["c"]).with_attr("axis", Attr::Int(1)),
        );
        g.nodes.push(
            Node::new("cat_b", "Concat", &["c", "r2", "r3"], &["y"])
                .with_attr("axis", Attr::Int(1)),
        );
        g
    }

    #[test]
    fn slices_that_tile_become_one_split_and_concat_chains_one_concat() {
        let mut w = Work::new(&graph()).unwrap();
        assert_eq!(unwide(&mut w), 4); // 3 slices and 1 concat gone
        let split: Vec<&Node> = w.nodes.iter().filter(|n| n.op_type == "Split").collect();
        assert_eq!(split.len(), 1);
        assert_eq!(split[0].outputs, vec!["x0", "x1", "x2", "x3"]);
        assert_eq!(
            w.constant(split[0].input(1).unwrap())
                .unwrap()
                .data()
                .to_i64_vec(),
            vec![1, 1, 1, 1]
        );
        let cat: Vec<&Node> = w.nodes.iter().filter(|n| n.op_type == "Concat").collect();
        assert_eq!(cat.len(), 1);
        assert_eq!(
            cat[0].inputs.iter().flatten().cloned().collect::<Vec<_>>(),
            vec!["r0", "r1", "r2", "r3"]
        );
    }

    #[test]
    fn slices_with_a_gap_stay() {
        let mut g = graph();
        g.nodes.retain(|n| n.name != "slice1");
        g.nodes.retain(|n| n.name != "relu1");
        g.nodes
            .iter_mut()
            .filter(|n| n.name == "cat_a")
            .for_each(|n| n.inputs.truncate(1));
        g.outputs[0].dims[1] = Dim::Fixed(3);
        let mut w = Work::new(&g).unwrap();
        unwide(&mut w);
        assert!(w.nodes.iter().all(|n| n.op_type != "Split"));
        assert_eq!(w.nodes.iter().filter(|n| n.op_type == "Slice").count(), 3);
    }

    /// The one-at-a-time definition [`merge_slices`] is held to: replace the
    /// set of the first node that starts one, re-index, go on from there.
    fn merge_slices_one_at_a_time(w: &mut Work) {
        let mut x = 0;
        while x < w.nodes.len() {
            let Some(parts) = tiling_slices(w, x) else {
                x += 1;
                continue;
            };
            replace_by_split(w, x, &parts);
            let mut gone: Vec<usize> = parts.iter().map(|p| p.2).filter(|&i| i != x).collect();
            gone.sort_unstable();
            for i in gone.into_iter().rev() {
                w.nodes.remove(i);
                w.sources.remove(i);
            }
            w.reindex();
        }
    }

    /// Pseudo-random graphs: tensors cut into channel Slices that tile them,
    /// leave a gap or overlap, in shuffled node order; the batched merge
    /// gives the one-at-a-time graph.
    #[test]
    fn batched_merge_equals_one_at_a_time() {
        let mut s = 5u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        let (mut merged, mut kept) = (0, 0);
        for round in 0..40 {
            let c = 8usize;
            let mut g = Graph {
                name: "g".into(),
                inputs: vec![vi("x", &[1, c, 2, 2])],
                ..Default::default()
            };
            g.initializers.push(("ax".into(), i64s(&[1])));
            let mut slices = Vec::new();
            for t in 0..1 + next(6) {
                let src = format!("t{t}");
                g.nodes
                    .push(Node::new(&format!("relu{t}"), "Relu", &["x"], &[&src]));
                let mut cuts: Vec<usize> = (1..c).filter(|_| next(2) == 0).collect();
                cuts.insert(0, 0);
                cuts.push(c);
                let mut windows: Vec<(usize, usize)> =
                    cuts.windows(2).map(|w| (w[0], w[1])).collect();
                match next(4) {
                    0 if windows.len() > 1 => {
                        windows.remove(next(windows.len() as u64) as usize);
                    }
                    1 => windows.push((0, 1 + next(c as u64 - 1) as usize)),
                    _ => {}
                }
                for (k, (a, b)) in windows.into_iter().enumerate() {
                    let (sn, en, o) = (
                        format!("s{t}_{k}"),
                        format!("e{t}_{k}"),
                        format!("y{t}_{k}"),
                    );
                    g.initializers.push((sn.clone(), i64s(&[a as i64])));
                    g.initializers.push((en.clone(), i64s(&[b as i64])));
                    g.outputs.push(vi(&o, &[1, b - a, 2, 2]));
                    slices.push(Node::new(
                        &format!("slice{t}_{k}"),
                        "Slice",
                        &[&src, &sn, &en, "ax"],
                        &[&o],
                    ));
                }
            }
            for k in (1..slices.len()).rev() {
                slices.swap(k, next(k as u64 + 1) as usize);
            }
            g.nodes.extend(slices);
            let mut batched = Work::new(&g).unwrap();
            let mut single = batched.clone();
            merge_slices(&mut batched);
            merge_slices_one_at_a_time(&mut single);
            merged += single.nodes.iter().filter(|n| n.op_type == "Split").count();
            kept += usize::from(single.nodes.iter().any(|n| n.op_type == "Slice"));
            assert_eq!(batched.nodes, single.nodes, "round {round}");
            assert_eq!(batched.sources, single.sources, "round {round}");
            assert_eq!(batched.uses, single.uses, "round {round}");
            assert_eq!(
                batched.consts.keys().collect::<Vec<_>>(),
                single.consts.keys().collect::<Vec<_>>()
            );
        }
        assert!(
            merged > 0 && kept > 0,
            "sets merged {merged}, graphs with slices kept {kept}"
        );
    }
}
