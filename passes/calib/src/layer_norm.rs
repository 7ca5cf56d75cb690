//! The inner tensors of a LayerNormalization, for targets that compute it
//! in pieces.
//!
//! NVDLA in INT8 (onnc-nvdla `lower::tokens`) computes
//! `y = (x − μ) · ρ · γ + β` over the normalized axes as convolutions, SDP
//! passes and one EMU power op, each writing an INT8 tensor the ONNX graph does not have. The
//! calibrator observes them: for every `LayerNormalization` node `N` and
//! every row (the values that share one mean),
//!
//! | key | value |
//! |---|---|
//! | `N#mean` | `μ`, the row's mean |
//! | `N#centred` | `c = x − μ` |
//! | `N#square` | `c²` |
//! | `N#var` | `v`, the mean of `c²` (without ε) |
//! | `N#rsqrt` | `ρ = (v + ε)^−½` |
//! | `N#normed` | `c · ρ` |
//! | `N#scaled` | `c · ρ · γ` |
//!
//! In: the graph (which nodes, their ε, axis and γ) and the node's input
//! for one set. Out: the seven tensors, observed like activations; their
//! threshold is their maximum ([`is_part_key`]).
//!
//! ```
//! use onnc_calib::layer_norm::parts;
//! use onnc_tensor::Tensor;
//! // One row [1, 3]: μ = 2, c = [-1, 1], v = 1, ρ = 1/√(1 + 0).
//! let x = Tensor::from_f32(vec![1, 2], vec![1.0, 3.0]).unwrap();
//! let p = parts(&x, 2, 0.0, None);
//! assert_eq!(p[0].1, vec![2.0]); // mean
//! assert_eq!(p[1].1, vec![-1.0, 1.0]); // centred
//! assert_eq!(p[3].1, vec![1.0]); // var
//! ```

use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, DType, Tensor};

/// The inner tensors, in the order [`parts`] returns them.
pub const PARTS: [&str; 7] = [
    "mean", "centred", "square", "var", "rsqrt", "normed", "scaled",
];

/// The key of part `part` of node `n`: `"<name>#<part>"`.
pub fn part_key(n: &Node, part: &str) -> String {
    format!("{}#{part}", n.name)
}

/// Whether `name` is the key of a LayerNormalization's inner tensor. Such
/// tensors take their maximum as the threshold, never a clipping method:
/// a clipped variance or 1/√ saturates a whole row (entropy calibration
/// put the 1/√ of a 16-channel test at a third of its range).
pub fn is_part_key(name: &str) -> bool {
    name.rsplit_once('#')
        .is_some_and(|(_, part)| PARTS.contains(&part))
}

/// One LayerNormalization whose inner tensors are observed.
#[derive(Debug, Clone)]
pub(crate) struct LayerNorm {
    /// Index of the node in the graph.
    pub node: usize,
    /// The input `x`.
    pub x: String,
    /// First normalized axis (non-negative), once `x`'s rank is known.
    axis: i64,
    eps: f32,
    gamma: Option<Vec<f32>>,
    /// The keys, in [`PARTS`] order.
    pub keys: Vec<String>,
}

/// The LayerNormalizations of `graph` (in node order).
pub(crate) fn plan(graph: &Graph) -> Vec<LayerNorm> {
    graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.op_type == "LayerNormalization" && n.domain.is_empty())
        .filter_map(|(i, n)| {
            let x = n.input(0)?.to_string();
            let gamma = n
                .input(1)
                .and_then(|g| graph.initializer(g))
                .and_then(|g| g.cast(DType::F32).as_f32().ok().map(<[f32]>::to_vec))
                .filter(|g| !g.is_empty());
            Some(LayerNorm {
                node: i,
                x,
                axis: n.attrs.get("axis").and_then(Attr::as_int).unwrap_or(-1),
                eps: n
                    .attrs
                    .get("epsilon")
                    .and_then(Attr::as_float)
                    .unwrap_or(1e-5),
                gamma,
                keys: PARTS.iter().map(|p| part_key(n, p)).collect(),
            })
        })
        .collect()
}

impl LayerNorm {
    /// The inner tensors for input `x`, keyed; `None` when the axis is out
    /// of range (the interpreter has refused such a node already). A row
    /// with no variance and ε = 0 has an infinite `ρ` (and a NaN `c·ρ`):
    /// the hardware saturates it, so those values are left out rather than
    /// failing the calibration as a non-finite activation.
    pub fn observed(&self, x: &Tensor) -> Option<Vec<(String, Tensor)>> {
        let rank = x.shape().len() as i64;
        let axis = if self.axis < 0 {
            self.axis + rank
        } else {
            self.axis
        };
        if !(0..rank).contains(&axis) {
            return None;
        }
        let row: usize = x.shape()[axis as usize..].iter().product();
        let xs = x.cast(DType::F32);
        let xs = Tensor::from_f32(x.shape().to_vec(), xs.as_f32().ok()?.to_vec()).ok()?;
        let p = parts(&xs, row, self.eps, self.gamma.as_deref());
        self.keys
            .iter()
            .zip(p)
            .map(|(k, (_, v))| {
                let v: Vec<f32> = v.into_iter().filter(|x| x.is_finite()).collect();
                Some((k.clone(), Tensor::from_f32(vec![v.len()], v).ok()?))
            })
            .collect()
    }
}

/// The seven parts of a LayerNormalization of `x` (f32) over rows of `row`
/// consecutive values, with `eps` and `gamma` (broadcast over a row's
/// trailing values; none = 1): `(shape, values)` in [`PARTS`] order; the
/// per-row parts (`mean`, `var`, `rsqrt`) have one value per row.
pub fn parts(
    x: &Tensor,
    row: usize,
    eps: f32,
    gamma: Option<&[f32]>,
) -> Vec<(Vec<usize>, Vec<f32>)> {
    let xs = x.as_f32().unwrap_or_default();
    let row = row.max(1);
    let rows = xs.len() / row;
    let (mut mean, mut var, mut rsqrt) = (Vec::new(), Vec::new(), Vec::new());
    let (mut centred, mut square, mut normed, mut scaled) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in xs.chunks_exact(row) {
        let mu = (r.iter().map(|&v| f64::from(v)).sum::<f64>() / row as f64) as f32;
        let c: Vec<f32> = r.iter().map(|v| v - mu).collect();
        let v = (c.iter().map(|&d| f64::from(d * d)).sum::<f64>() / row as f64) as f32;
        let rho = 1.0 / (v + eps).sqrt();
        mean.push(mu);
        var.push(v);
        rsqrt.push(rho);
        for (i, &d) in c.iter().enumerate() {
            let g = gamma
                .filter(|g| !g.is_empty())
                .map_or(1.0, |g| g[i % g.len()]);
            square.push(d * d);
            normed.push(d * rho);
            scaled.push(d * rho * g);
        }
        centred.extend(c);
    }
    let full = x.shape().to_vec();
    vec![
        (vec![rows], mean),
        (full.clone(), centred),
        (full.clone(), square),
        (vec![rows], var),
        (vec![rows], rsqrt),
        (full.clone(), normed),
        (full, scaled),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_row_with_no_epsilon_is_left_out_not_infinite() {
        let x = Tensor::from_f32(vec![2, 2], vec![1.0, 1.0, 0.0, 2.0]).unwrap();
        let l = LayerNorm {
            node: 0,
            x: "x".into(),
            axis: -1,
            eps: 0.0,
            gamma: None,
            keys: PARTS.iter().map(|p| format!("n#{p}")).collect(),
        };
        let parts = l.observed(&x).unwrap();
        // Row 0 is constant: ρ = ∞ and c·ρ = NaN are dropped; row 1 stays.
        assert_eq!(parts[4].1.as_f32().unwrap(), [1.0]);
        assert_eq!(parts[5].1.as_f32().unwrap(), [-1.0, 1.0]);
        assert!(parts
            .iter()
            .all(|(_, t)| t.as_f32().unwrap().iter().all(|v| v.is_finite())));
    }

    #[test]
    fn part_keys_end_in_a_part() {
        assert!(is_part_key("/features/ln#rsqrt") && is_part_key("a#b#var"));
        assert!(!is_part_key("ln") && !is_part_key("fc#psum") && !is_part_key("x#"));
    }

    #[test]
    fn parts_of_two_rows_with_gamma() {
        // Rows [0, 2, 4] and [1, 1, 1]: μ = 2 and 1; v = 8/3 and 0.
        let x = Tensor::from_f32(vec![2, 3], vec![0.0, 2.0, 4.0, 1.0, 1.0, 1.0]).unwrap();
        let p = parts(&x, 3, 1e-2, Some(&[1.0, 2.0, -1.0]));
        assert_eq!(p[0], (vec![2], vec![2.0, 1.0]));
        assert_eq!(p[1].1, vec![-2.0, 0.0, 2.0, 0.0, 0.0, 0.0]);
        assert_eq!(p[2].1, vec![4.0, 0.0, 4.0, 0.0, 0.0, 0.0]);
        assert!((p[3].1[0] - 8.0 / 3.0).abs() < 1e-6 && p[3].1[1] == 0.0);
        let rho = 1.0 / (8.0f32 / 3.0 + 1e-2).sqrt();
        assert!((p[4].1[0] - rho).abs() < 1e-6 && (p[4].1[1] - 10.0).abs() < 1e-4);
        assert!((p[5].1[2] - 2.0 * rho).abs() < 1e-6);
        assert!(
            (p[6].1[2] + 2.0 * rho).abs() < 1e-6,
            "γ = −1 on the last value"
        );
        assert!((p[6].1[0] + 2.0 * rho).abs() < 1e-6, "γ = 1 on the first");
        // An empty γ (malformed) is no γ, not a panic.
        assert_eq!(parts(&x, 3, 1e-2, Some(&[]))[6].1, p[5].1);
    }
}
