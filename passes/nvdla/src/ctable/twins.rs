//! Scales of the legalizer's layout twins.
//!
//! The rules that sink a Transpose through an element-wise op
//! (`common/transpose-through-*`, onnc-legalize `rules::transpose_eltwise`)
//! replace node `A`, which computed in NHWC, by `A/nchw`, the same op on
//! the NCHW data: the same values in another order, so the same scale. A
//! calibrator of the ONNX graph observes `A`; the program has `A/nchw`.
//!
//! In: the program, the table's entries and the scales resolved so far.
//! Out: a scale for every tensor named `<A>/nchw` (or `<A>/nchw/nchw`…,
//! when the rules met the op more than once) that has none, from the
//! table's entry `A`; the names of those tensors.

use std::collections::BTreeMap;

use crate::program::{Program, TensorId};

use super::scales::TensorScale;

/// What ends the name of a layout twin.
pub const TWIN_SUFFIX: &str = "/nchw";

/// Adds the twins' scales to `scales` (module doc); returns the names of
/// the tensors that took one.
pub(crate) fn inherit_twins(
    p: &Program,
    entries: &BTreeMap<String, TensorScale>,
    scales: &mut BTreeMap<TensorId, (f64, i64, String)>,
) -> Vec<String> {
    let mut named = Vec::new();
    for (id, t) in p.tensors.iter().enumerate() {
        if scales.contains_key(&id) {
            continue;
        }
        // A twin of a twin (the rules met the op again): `A/nchw/nchw`.
        let mut base = t.name.as_str();
        while let Some(b) = base.strip_suffix(TWIN_SUFFIX) {
            base = b;
        }
        let Some(e) = entries.get(base).filter(|_| base != t.name) else {
            continue;
        };
        scales.insert(
            id,
            (f64::from(e.scale), i64::from(e.offset), t.name.clone()),
        );
        named.push(t.name.clone());
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Precision, Tensor, TensorKind};
    use crate::ConfigName;

    fn program(names: &[&str]) -> Program {
        let mut p = Program::new(ConfigName::NvSmall);
        for n in names {
            p.add_tensor(Tensor {
                name: n.to_string(),
                shape: vec![1, 8, 2, 2],
                precision: Precision::Int8,
                kind: TensorKind::Activation,
                place: None,
            });
        }
        p
    }

    #[test]
    fn twins_take_the_scale_of_the_op_they_replace() {
        let p = program(&["a/nchw", "b/nchw/nchw/nchw", "c/nchw", "d", "e/nchw"]);
        let entries: BTreeMap<String, TensorScale> =
            [("a", 0.5), ("b", 0.25), ("d", 1.0), ("e", 2.0)]
                .into_iter()
                .map(|(n, s)| (n.to_string(), TensorScale::new(s)))
                .collect();
        let mut scales = BTreeMap::new();
        // `e/nchw` has its own entry already: it keeps it.
        scales.insert(4, (3.0, 0, "e/nchw".to_string()));
        let named = inherit_twins(&p, &entries, &mut scales);
        assert_eq!(named, ["a/nchw", "b/nchw/nchw/nchw"]);
        assert_eq!(scales[&0].0, 0.5);
        assert_eq!(scales[&1].0, 0.25);
        assert!(!scales.contains_key(&2), "no entry 'c'");
        assert!(!scales.contains_key(&3), "'d' is no twin");
        assert_eq!(scales[&4].0, 3.0);
    }
}
