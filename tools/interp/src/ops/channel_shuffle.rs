//! `onnc.ChannelShuffle{group}` (domain `onnc`): the channel permutation of
//! ShuffleNet, which legalization produces from Reshape–Transpose–Reshape.
//!
//! In: `x` of shape N×C×H×W (any rank ≥ 2; channels on axis 1), attribute
//! `group` g dividing C. Out: y with y[n, j·g + i] = x[n, i·(C/g) + j] —
//! exactly Reshape(N, g, C/g, …) → Transpose(0, 2, 1, …) → Reshape(N, C, …).

use crate::{Error, Result};
use onnc_tensor::{Attr, Attrs, Data, Tensor};

/// Runs the shuffle on one input.
pub fn run(attrs: &Attrs, x: &Tensor) -> Result<Tensor> {
    let op = "ChannelShuffle";
    let group = attrs
        .get("group")
        .and_then(Attr::as_int)
        .ok_or_else(|| Error::BadAttr {
            op: op.into(),
            name: "group".into(),
            reason: "required integer attribute is missing".into(),
        })?;
    let shape = x.shape().to_vec();
    if shape.len() < 2 || group < 1 || !shape[1].is_multiple_of(group as usize) {
        return Err(Error::BadAttr {
            op: op.into(),
            name: "group".into(),
            reason: format!("group {group} does not divide the channels of shape {shape:?}"),
        });
    }
    let (n, c) = (shape[0], shape[1]);
    let inner: usize = shape[2..].iter().product();
    let g = group as usize;
    let per = c / g;
    let src = x.data().to_f64_vec();
    let mut dst = vec![0.0; src.len()];
    for b in 0..n {
        for i in 0..g {
            for j in 0..per {
                let from = (b * c + i * per + j) * inner;
                let to = (b * c + j * g + i) * inner;
                dst[to..to + inner].copy_from_slice(&src[from..from + inner]);
            }
        }
    }
    Tensor::new(shape, Data::from_f64s(x.dtype(), &dst)).map_err(|e| Error::BadAttr {
        op: op.into(),
        name: "group".into(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_reshape_transpose_reshape() {
        let x = Tensor::from_f32(vec![1, 6, 1, 1], (0..6).map(|i| i as f32).collect()).unwrap();
        let attrs: Attrs = [("group".to_string(), Attr::Int(2))].into_iter().collect();
        let y = run(&attrs, &x).unwrap();
        // channels [0 1 2 | 3 4 5] interleave to [0 3 1 4 2 5]
        assert_eq!(y.as_f32().unwrap(), &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        let bad: Attrs = [("group".to_string(), Attr::Int(4))].into_iter().collect();
        assert!(run(&bad, &x).is_err());
    }
}
