//! The result of calibration: one symmetric INT8 scale per activation.
//!
//! In: [`Statistics`] and a [`Method`]. Out: [`Calibration`] — the method,
//! the number of sets, and `scale = amax / 127` per tensor name (real value
//! = `q · scale`, `q ∈ [−127, 127]`), the convention of NVIDIA's calibtable
//! and TensorRT's cache (`research/nvdla-int8.md` §0). A tensor that held
//! only zeros gets `1/127` (any scale represents zero exactly; a positive
//! one keeps rescale ratios finite) and is listed in
//! [`Calibration::all_zero`]. Tensors that held no float value (shapes,
//! indices) get no scale. The observed signed `[min, max]` of every tensor
//! comes along in [`Calibration::ranges`]. Whatever the method, the
//! partial sums of split Gemms and the outputs of bounded gates
//! (HardSigmoid, Sigmoid: [`crate::GATE_OPS`]) take their maximum:
//! a clipped gate scales whole channels wrongly (MobileNetV3's first SE
//! gate on nv_small: RMS error 0.31 of the reference with entropy, 0.011
//! with the maximum).
//!
//! ```
//! use onnc_calib::{Method, Statistics};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::DType;
//! let v = |n: &str| ValueInfo { name: n.into(), dtype: DType::F32, dims: vec![Dim::Fixed(2)] };
//! let g = Graph { inputs: vec![v("x")], outputs: vec![v("y")],
//!     nodes: vec![Node::new("r", "Relu", &["x"], &["y"])], ..Graph::default() };
//! let mut s = Statistics::for_graph(&g);
//! s.observe("x", &[-2.54, 1.0]).unwrap();
//! s.observe("y", &[0.0, 0.0]).unwrap();
//! let c = s.calibration(Method::Max);
//! assert_eq!(c.scales["x"], 2.54 / 127.0);
//! assert_eq!(c.scales["y"], 1.0 / 127.0);
//! assert_eq!(c.all_zero, ["y"]);
//! assert_eq!(c.ranges["x"], [-2.54, 1.0]);
//! ```

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::method::Method;
use crate::stats::{Statistics, TensorStats};

/// Largest INT8 magnitude of the symmetric scheme.
pub const QMAX: f32 = 127.0;

/// Per-tensor activation scales (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// How the thresholds were chosen.
    pub method: Method,
    /// Calibration sets observed.
    pub sets: usize,
    /// `amax / 127` by tensor name.
    pub scales: BTreeMap<String, f32>,
    /// Tensors that held only zeros (scale `1/127`), in graph order.
    pub all_zero: Vec<String>,
    /// Observed `[min, max]` (signed) by tensor name, for formats that
    /// store a range (NVIDIA's calibtable `min`/`max`) and for reports.
    pub ranges: BTreeMap<String, [f32; 2]>,
}

impl Calibration {
    /// `amax = 127 · scale` of a tensor.
    pub fn threshold(&self, tensor: &str) -> Option<f32> {
        self.scales.get(tensor).map(|s| s * QMAX)
    }
}

impl Statistics {
    /// Scales by `method` (thresholds computed in parallel, one tensor per
    /// task; each is a sequential computation, so the result does not depend
    /// on the thread count).
    pub fn calibration(&self, method: Method) -> Calibration {
        let rows: Vec<(&str, &TensorStats, Option<f32>)> = self
            .iter()
            .collect::<Vec<_>>()
            .par_iter()
            .map(|(name, t)| {
                // A partial sum ([`crate::psum`]), a bounded gate
                // ([`crate::GATE_OPS`]) and a LayerNormalization's inner
                // tensor ([`crate::layer_norm`]) take their maximum.
                let amax = if crate::psum::is_psum_key(name)
                    || self.is_gate(name)
                    || crate::layer_norm::is_part_key(name)
                {
                    Some(t.max_abs()).filter(|a| *a > 0.0)
                } else {
                    method.threshold(t)
                };
                (*name, *t, amax)
            })
            .collect();
        let mut scales = BTreeMap::new();
        let mut all_zero = Vec::new();
        let mut ranges = BTreeMap::new();
        for (name, t, amax) in rows {
            if let (Some(lo), Some(hi)) = (t.min(), t.max()) {
                ranges.insert(name.to_string(), [lo, hi]);
            }
            match (t.count(), amax) {
                (0, _) => {}
                (_, Some(a)) => {
                    scales.insert(name.to_string(), a / QMAX);
                }
                (_, None) => {
                    scales.insert(name.to_string(), 1.0 / QMAX);
                    all_zero.push(name.to_string());
                }
            }
        }
        Calibration {
            method,
            sets: self.sets(),
            scales,
            all_zero,
            ranges,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::{Dim, Graph, Node, ValueInfo};
    use onnc_tensor::DType;

    /// A gate crowded at 0.5 with one outlier at 0.99: entropy and
    /// percentile would clip it; a gate keeps its maximum, a plain ReLU
    /// output with the same values does not.
    #[test]
    fn bounded_gates_take_their_maximum_whatever_the_method() {
        let v = |n: &str| ValueInfo {
            name: n.into(),
            dtype: DType::F32,
            dims: vec![Dim::Fixed(4096)],
        };
        let g = Graph {
            inputs: vec![v("x")],
            outputs: vec![v("h"), v("s"), v("r")],
            nodes: vec![
                Node::new("hs", "HardSigmoid", &["x"], &["h"]),
                Node::new("sg", "Sigmoid", &["x"], &["s"]),
                Node::new("re", "Relu", &["x"], &["r"]),
            ],
            ..Graph::default()
        };
        let mut st = Statistics::for_graph(&g);
        let mut xs: Vec<f32> = (0..4096)
            .map(|i| 0.45 + 0.1 * (i % 97) as f32 / 97.0)
            .collect();
        xs[17] = 0.99;
        for name in ["x", "h", "s", "r"] {
            st.observe(name, &xs).unwrap();
        }
        assert!(st.is_gate("h") && st.is_gate("s") && !st.is_gate("r") && !st.is_gate("x"));
        for method in [Method::Entropy, Method::Percentile(99.0), Method::Max] {
            let c = st.calibration(method);
            for gate in ["h", "s"] {
                assert_eq!(c.threshold(gate), Some(0.99), "{method:?} {gate}");
            }
            if method != Method::Max {
                assert!(
                    c.threshold("r").unwrap() < 0.99,
                    "{method:?}: {:?}",
                    c.threshold("r")
                );
            }
        }
    }
}
