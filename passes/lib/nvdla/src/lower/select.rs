//! Channel moves as 1×1 convolutions with 0/1 weights.
//!
//! In: which input channel each output channel takes. Out: the weight
//! `[K, C, 1, 1]` of a conv that does the move. Used for ShuffleNet's
//! `onnc.ChannelShuffle`, and for concat/split channel windows that start
//! off a memory-atom boundary. Exact in FP16 and INT8: each output is one
//! input times 1 plus zeros (only an infinite or NaN input would spread
//! NaN into the channels next to it). Chosen over RUBIK, whose split/merge
//! modes move whole planes and do not express a channel permutation, and
//! because the conv's SDP can absorb the ReLU or add that follows.
//!
//! ```
//! use onnc_nvdla::lower::select::{shuffle_rows, weights};
//! assert_eq!(shuffle_rows(6, 2), vec![Some(0), Some(3), Some(1), Some(4), Some(2), Some(5)]);
//! assert_eq!(weights(&[Some(1), None], 2), vec![0.0, 1.0, 0.0, 0.0]);
//! ```

/// Output channel `j·g + i` takes input channel `i·(C/g) + j`
/// (`Reshape(N,g,C/g,H,W) → Transpose(0,2,1,3,4) → Reshape`).
pub fn shuffle_rows(c: usize, g: usize) -> Vec<Option<usize>> {
    let per = c / g.max(1);
    let mut rows = vec![None; c];
    for i in 0..g {
        for j in 0..per {
            rows[j * g + i] = Some(i * per + j);
        }
    }
    rows
}

/// The `[K, C, 1, 1]` weights (row-major) moving input channel `rows[k]` to output `k` (`None`: zero).
pub fn weights(rows: &[Option<usize>], c: usize) -> Vec<f32> {
    let mut w = vec![0.0; rows.len() * c];
    for (k, r) in rows.iter().enumerate() {
        if let Some(r) = r {
            w[k * c + r] = 1.0;
        }
    }
    w
}
