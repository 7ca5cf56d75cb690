//! Partial sums of a Gemm's reduction, for targets that split it.
//!
//! A target whose convolution buffer cannot hold one group of a Gemm's
//! kernels (NVDLA nv_small on VGG's 25088-input classifier) splits the
//! reduction into contiguous ranges of the input and writes each range's
//! partial sum as an INT8 tensor. The ONNX graph has no such tensor, so the
//! calibrator observes one for it: for every Gemm `y = alpha · A·B (+ C)`
//! with a constant `B`, and every output element, the largest `|P(k)|` and
//! `|T − P(k)|` over the reduction index `k`, where `P(k)` is the sum of the
//! first `k` products (without `C`) and `T = P(K)`. That is the range of
//! every prefix and every suffix of the reduction; a range in the middle
//! is a difference of two prefixes and lies within twice it.
//!
//! In: the graph (which Gemms), `A` and `B` for one set. Out: per output
//! element, that largest magnitude, observed under [`psum_key`] (`"<node
//! name>#psum"`); [`crate::Statistics::calibration`] turns it into a scale
//! with the maximum (never a clipping method: a partial sum that saturates
//! is wrong in every output it feeds).
//!
//! ```
//! use onnc_calib::psum::prefix_suffix_extremes;
//! // One output: products 3, -5, 4 → prefixes 0, 3, -2, 2; suffixes 2, -1, 4, 0.
//! let m = prefix_suffix_extremes(&[1.0, 1.0, 1.0], &[3.0, -5.0, 4.0], 1, 3, 1, false, 1.0);
//! assert_eq!(m, vec![4.0]);
//! ```

use onnc_onnx::{Graph, Node};
use onnc_tensor::{DType, Tensor};

/// What ends the key of a Gemm's partial-sum entry.
pub const PSUM_SUFFIX: &str = "#psum";

/// The calibration key of node `n`'s partial sums: `"<name>#psum"`.
pub fn psum_key(n: &Node) -> String {
    format!("{}{PSUM_SUFFIX}", n.name)
}

/// Whether `name` is a partial-sum key.
pub fn is_psum_key(name: &str) -> bool {
    name.ends_with(PSUM_SUFFIX)
}

/// One Gemm whose partial sums are observed.
#[derive(Debug, Clone)]
pub(crate) struct PsumGemm {
    /// Index of the node in the graph.
    pub node: usize,
    /// The activation operand `A`.
    pub a: String,
    /// `B` as f32, `[K, N]` or (`trans_b`) `[N, K]`.
    pub b: Vec<f32>,
    pub k: usize,
    pub n: usize,
    pub trans_a: bool,
    pub trans_b: bool,
    pub alpha: f32,
    pub key: String,
}

/// The Gemms of `graph` with a constant 2-D `B` (in node order).
pub(crate) fn plan(graph: &Graph) -> Vec<PsumGemm> {
    let int = |n: &Node, a: &str| n.attrs.get(a).and_then(|v| v.as_int()).unwrap_or(0) != 0;
    graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.op_type == "Gemm" && n.domain.is_empty())
        .filter_map(|(i, n)| {
            let a = n.input(0)?.to_string();
            let b: &Tensor = graph.initializer(n.input(1)?)?;
            let [r, c] = *b.shape() else { return None };
            let trans_b = int(n, "transB");
            let (k, nn) = if trans_b { (c, r) } else { (r, c) };
            let b = b.cast(DType::F32).as_f32().ok()?.to_vec();
            Some(PsumGemm {
                node: i,
                a,
                b,
                k,
                n: nn,
                trans_a: int(n, "transA"),
                trans_b,
                alpha: n
                    .attrs
                    .get("alpha")
                    .and_then(|v| v.as_float())
                    .unwrap_or(1.0),
                key: psum_key(n),
            })
        })
        .collect()
}

impl PsumGemm {
    /// The extremes for activation `a` (`[M, K]`, or `[K, M]` with
    /// `trans_a`); `None` if its size does not match `K`.
    pub fn extremes(&self, a: &Tensor) -> Option<Vec<f32>> {
        let a32 = a.cast(DType::F32);
        let av = a32.as_f32().ok()?;
        if self.k == 0 || av.len() % self.k != 0 {
            return None;
        }
        let m = av.len() / self.k;
        let a_rows: Vec<f32> = if self.trans_a {
            // [K, M] → [M, K]
            (0..m)
                .flat_map(|i| (0..self.k).map(move |j| (i, j)))
                .map(|(i, j)| av[j * m + i])
                .collect()
        } else {
            av.to_vec()
        };
        Some(prefix_suffix_extremes(
            &a_rows,
            &self.b,
            m,
            self.k,
            self.n,
            self.trans_b,
            self.alpha,
        ))
    }
}

/// For `alpha · A·B` with `A` `[m, k]` row-major and `B` `[k, n]` (or
/// `trans_b`: `[n, k]`): per output element (row-major `[m, n]`), the
/// largest `|P|` and `|T − P|` over the prefixes `P` of its reduction
/// (including the empty one), accumulated in f64.
pub fn prefix_suffix_extremes(
    a: &[f32],
    b: &[f32],
    m: usize,
    k: usize,
    n: usize,
    trans_b: bool,
    alpha: f32,
) -> Vec<f32> {
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        let row = &a[i * k..(i + 1) * k];
        for j in 0..n {
            let (mut p, mut lo, mut hi) = (0f64, 0f64, 0f64);
            for (kk, &x) in row.iter().enumerate() {
                let w = if trans_b {
                    b[j * k + kk]
                } else {
                    b[kk * n + j]
                };
                p += f64::from(x) * f64::from(w);
                lo = lo.min(p);
                hi = hi.max(p);
            }
            // Suffixes: T − P over the same prefixes.
            let most = [hi, -lo, p - lo, hi - p].into_iter().fold(0f64, f64::max);
            out.push((most * f64::from(alpha).abs()) as f32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{calibrate, CalibSource, DataSet, Method, Options};
    use onnc_onnx::{Dim, ValueInfo};

    #[test]
    fn calibrate_observes_a_gemm_partial_sums_with_their_maximum() {
        let v = |n: &str, d: usize| ValueInfo {
            name: n.into(),
            dtype: DType::F32,
            dims: vec![Dim::Fixed(1), Dim::Fixed(d)],
        };
        // y = x · Bᵀ + c, B [2, 3]: products of output 0 are 2, 2, -3 for
        // x = [1, 2, 3] (prefixes 0, 2, 4, 1: 4); output 1: -1, 0, 6 (-1, -1, 5:
        // suffix from k=1 is 6).
        let b = Tensor::from_f32(vec![2, 3], vec![2.0, 1.0, -1.0, -1.0, 0.0, 2.0]).unwrap();
        let c = Tensor::from_f32(vec![2], vec![100.0, 100.0]).unwrap();
        let g = Graph {
            inputs: vec![v("x", 3)],
            outputs: vec![v("y", 2)],
            nodes: vec![Node::new("fc", "Gemm", &["x", "b", "c"], &["y"])
                .with_attr("transB", onnc_tensor::Attr::Int(1))],
            initializers: vec![("b".into(), b), ("c".into(), c)],
            ..Graph::default()
        };
        let set = DataSet {
            inputs: vec![(
                "x".into(),
                Tensor::from_f32(vec![1, 3], vec![1.0, 2.0, 3.0]).unwrap(),
            )],
            files: vec![],
        };
        let opts = Options {
            method: Method::Entropy,
            ..Options::default()
        };
        let cal = calibrate(&g, &CalibSource::Sets(vec![set]), &opts).unwrap();
        // The bias is not in a partial sum; the maximum, whatever the method.
        assert_eq!(cal.scales["fc#psum"], 6.0 / 127.0);
        assert!(cal.scales.contains_key("y"));
    }

    #[test]
    fn extremes_cover_every_prefix_and_suffix() {
        // Two outputs, K = 4, B [K, N].
        let a = [1.0, 2.0, -1.0, 0.5];
        let b = [
            1.0, 0.0, //
            1.0, -1.0, //
            4.0, 0.0, //
            0.0, 2.0,
        ];
        let m = prefix_suffix_extremes(&a, &b, 1, 4, 2, false, 1.0);
        // Output 0 products 1, 2, -4, 0: prefixes 0,1,3,-1,-1 (T=-1),
        // suffixes -1,-2,-4,0,0 → 4.
        // Output 1 products 0, -2, 0, 1: prefixes 0,0,-2,-2,-1,
        // suffixes -1,-1,1,1,0 → 2.
        assert_eq!(m, vec![4.0, 2.0]);
        // The same with B transposed and alpha -0.5.
        let bt = [1.0, 1.0, 4.0, 0.0, 0.0, -1.0, 0.0, 2.0];
        assert_eq!(
            prefix_suffix_extremes(&a, &bt, 1, 4, 2, true, -0.5),
            vec![2.0, 1.0]
        );
    }
}
