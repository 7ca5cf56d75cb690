//! Statistics of every activation tensor over the calibration sets.
//!
//! In: the graph (which tensors are activations) and, per set, every value
//! the interpreter produces. Out: per tensor the element count, signed
//! min/max, `max|x|` and a [`Histogram`] of `|x|`.
//!
//! **Activations** are the graph inputs and every node output that depends
//! on a graph input, of a float type (f16/f64 values are widened to f32);
//! values computed from weights alone (e.g. the `ConstantOfShape` weights of
//! the ONNX light model zoo) and integer or boolean values (shapes, indices)
//! are not activations and get no scale.
//!
//! Every part merges exactly (integer counts, min and max), so the merged
//! statistics do not depend on the order of the sets nor on how they were
//! split between threads.
//!
//! ```
//! use onnc_calib::Statistics;
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::DType;
//! let v = |n: &str| ValueInfo { name: n.into(), dtype: DType::F32, dims: vec![Dim::Fixed(2)] };
//! let g = Graph {
//!     inputs: vec![v("x")],
//!     outputs: vec![v("y")],
//!     nodes: vec![Node::new("r", "Relu", &["x"], &["y"])],
//!     ..Graph::default()
//! };
//! let mut s = Statistics::for_graph(&g);
//! assert_eq!(s.names().collect::<Vec<_>>(), ["x", "y"]);
//! s.observe("y", &[0.0, 3.0]).unwrap();
//! assert_eq!(s.observe("y", &[1.0, f32::NAN]), Err((1, "NaN")));
//! assert_eq!(s.get("y").unwrap().max_abs(), 3.0);
//! ```

use std::collections::{HashMap, HashSet};

use onnc_onnx::Graph;

use crate::histogram::Histogram;

/// `(min, max, every value finite)` in one vectorisable pass: 16 lanes of
/// compare-and-select (a NaN never wins a comparison) and an exponent test
/// for NaN and infinities.
fn scan(xs: &[f32]) -> (f32, f32, bool) {
    const L: usize = 16;
    let mut lo = [f32::INFINITY; L];
    let mut hi = [f32::NEG_INFINITY; L];
    let mut bad = [0u32; L];
    let chunks = xs.chunks_exact(L);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..L {
            let x = c[k];
            lo[k] = if x < lo[k] { x } else { lo[k] };
            hi[k] = if x > hi[k] { x } else { hi[k] };
            bad[k] |= u32::from(x.to_bits() & 0x7f80_0000 == 0x7f80_0000);
        }
    }
    let (mut l, mut h, mut b) = (f32::INFINITY, f32::NEG_INFINITY, 0u32);
    for k in 0..L {
        l = if lo[k] < l { lo[k] } else { l };
        h = if hi[k] > h { hi[k] } else { h };
        b |= bad[k];
    }
    for &x in rest {
        l = if x < l { x } else { l };
        h = if x > h { x } else { h };
        b |= u32::from(x.to_bits() & 0x7f80_0000 == 0x7f80_0000);
    }
    (l, h, b == 0)
}

/// Statistics of one tensor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TensorStats {
    min: Option<f32>,
    max: Option<f32>,
    hist: Histogram,
}

impl TensorStats {
    /// Add values. A NaN or infinite value adds nothing and is returned:
    /// `(index of the first, "NaN" | "an infinity")`.
    pub fn add(&mut self, xs: &[f32]) -> Result<(), (usize, &'static str)> {
        if xs.is_empty() {
            return Ok(());
        }
        let (lo, hi, finite) = scan(xs);
        if !finite {
            let i = xs.iter().position(|x| !x.is_finite()).unwrap_or(0);
            return Err((i, if xs[i].is_nan() { "NaN" } else { "an infinity" }));
        }
        self.min = Some(self.min.map_or(lo, |m| m.min(lo)));
        self.max = Some(self.max.map_or(hi, |m| m.max(hi)));
        self.hist.add_with_peak(xs, lo.abs().max(hi.abs()));
        Ok(())
    }

    /// Merge another tensor's statistics (exact).
    pub fn merge(&mut self, other: &TensorStats) {
        self.min = match (self.min, other.min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.max = match (self.max, other.max) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self.hist.merge(&other.hist);
    }

    /// Number of values seen.
    pub fn count(&self) -> u64 {
        self.hist.count()
    }

    /// Smallest value seen (`None` before any).
    pub fn min(&self) -> Option<f32> {
        self.min
    }

    /// Largest value seen (`None` before any).
    pub fn max(&self) -> Option<f32> {
        self.max
    }

    /// `max |x|` (0 before any value).
    pub fn max_abs(&self) -> f32 {
        self.min
            .unwrap_or(0.0)
            .abs()
            .max(self.max.unwrap_or(0.0).abs())
    }

    /// The histogram of `|x|`.
    pub fn histogram(&self) -> &Histogram {
        &self.hist
    }
}

/// Per-tensor statistics of a graph's activations, in graph order (graph
/// inputs, then node outputs in node order).
#[derive(Debug, Clone, PartialEq)]
pub struct Statistics {
    names: Vec<String>,
    index: HashMap<String, usize>,
    tensors: Vec<TensorStats>,
    sets: usize,
    /// Outputs of bounded gates ([`GATE_OPS`]), which calibrate to their
    /// maximum whatever the method.
    gates: HashSet<String>,
}

/// Ops whose output is a bounded gate, `[0, 1]`: a multiplier of another
/// activation (squeeze-excitation, `x · σ(x)`). Its values crowd far from 0
/// (≈ 0.5 on random weights), where a clipping threshold (entropy,
/// percentile) cuts whole channels' factors; the maximum costs at most
/// 1/127 of resolution over a range that is known to be small.
pub const GATE_OPS: &[&str] = &["HardSigmoid", "Sigmoid"];

impl Statistics {
    /// Empty statistics for the activations of `graph` (see the module doc).
    pub fn for_graph(graph: &Graph) -> Statistics {
        let constant: HashSet<&str> = graph.initializers.iter().map(|(n, _)| n.as_str()).collect();
        let mut live: HashSet<&str> = HashSet::new();
        let mut names = Vec::new();
        for v in &graph.inputs {
            if !constant.contains(v.name.as_str()) && live.insert(&v.name) && v.dtype.is_float() {
                names.push(v.name.clone());
            }
        }
        for n in &graph.nodes {
            if n.inputs.iter().flatten().any(|i| live.contains(i.as_str())) {
                for o in n.outputs.iter().filter(|o| !o.is_empty()) {
                    if live.insert(o) {
                        names.push(o.clone());
                    }
                }
            }
        }
        let gates = graph
            .nodes
            .iter()
            .filter(|n| n.domain.is_empty() && GATE_OPS.contains(&n.op_type.as_str()))
            .flat_map(|n| n.outputs.iter())
            .filter(|o| live.contains(o.as_str()))
            .cloned()
            .collect();
        // Partial sums of Gemms and Convs over an activation
        // ([`crate::psum`], [`crate::psum_conv`]).
        for g in crate::psum::plan(graph) {
            if live.contains(g.a.as_str()) {
                names.push(g.key);
            }
        }
        for c in crate::psum_conv::plan(graph) {
            if live.contains(c.x.as_str()) {
                names.push(c.key);
            }
        }
        // Inner tensors of LayerNormalizations ([`crate::layer_norm`]).
        for l in crate::layer_norm::plan(graph) {
            if live.contains(l.x.as_str()) {
                names.extend(l.keys);
            }
        }
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        Statistics {
            tensors: vec![TensorStats::default(); names.len()],
            names,
            index,
            sets: 0,
            gates,
        }
    }

    /// Whether `name` is the output of a bounded gate ([`GATE_OPS`]).
    pub fn is_gate(&self, name: &str) -> bool {
        self.gates.contains(name)
    }

    /// Whether `name` is one of the activations.
    pub fn tracks(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// Add values of `name`; values of tensors that are not activations
    /// are ignored. A NaN or infinity adds nothing and is returned as
    /// `(index, "NaN" | "an infinity")`.
    pub fn observe(&mut self, name: &str, xs: &[f32]) -> Result<(), (usize, &'static str)> {
        match self.index.get(name) {
            Some(&i) => self.tensors[i].add(xs),
            None => Ok(()),
        }
    }

    /// Count one more calibration set.
    pub(crate) fn count_set(&mut self) {
        self.sets += 1;
    }

    /// Merge statistics of the same graph (exact).
    pub fn merge(&mut self, other: &Statistics) {
        for (name, t) in other.names.iter().zip(&other.tensors) {
            match self.index.get(name) {
                Some(&i) => self.tensors[i].merge(t),
                None => {
                    self.index.insert(name.clone(), self.names.len());
                    self.names.push(name.clone());
                    self.tensors.push(t.clone());
                }
            }
        }
        self.sets += other.sets;
        self.gates.extend(other.gates.iter().cloned());
    }

    /// The activation names, in graph order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// `(name, statistics)` in graph order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &TensorStats)> {
        self.names.iter().map(String::as_str).zip(&self.tensors)
    }

    /// The statistics of one tensor.
    pub fn get(&self, name: &str) -> Option<&TensorStats> {
        self.index.get(name).map(|&i| &self.tensors[i])
    }

    /// Number of calibration sets merged in.
    pub fn sets(&self) -> usize {
        self.sets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_scan_equals_the_plain_one() {
        for n in [0usize, 1, 15, 16, 17, 100] {
            let xs: Vec<f32> = (0..n).map(|i| ((i * 37) % 23) as f32 - 11.5).collect();
            let lo = xs.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = xs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(scan(&xs), (lo, hi, true), "n = {n}");
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                for at in [0, n / 2, n.saturating_sub(1)] {
                    if n == 0 {
                        continue;
                    }
                    let mut ys = xs.clone();
                    ys[at] = bad;
                    assert!(!scan(&ys).2, "n = {n}, {bad} at {at}");
                    let mut t = TensorStats::default();
                    assert_eq!(t.add(&ys).unwrap_err().0, at);
                    assert_eq!(t.count(), 0);
                }
            }
        }
    }
}
