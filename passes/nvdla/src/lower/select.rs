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

/// The `[K, C, kh, kw]` weights (row-major) of a conv moving input channel
/// `rows[k]` to output `k` from kernel tap `tap` (a strided spatial window
/// starting at `tap`, or with `kernel` 1×1, a plain channel move).
pub fn window_weights(
    rows: &[Option<usize>],
    c: usize,
    kernel: [usize; 2],
    tap: [usize; 2],
) -> Vec<f32> {
    let taps = kernel[0] * kernel[1];
    let mut w = vec![0.0; rows.len() * c * taps];
    for (k, r) in rows.iter().enumerate() {
        if let Some(r) = r {
            w[(k * c + r) * taps + tap[0] * kernel[1] + tap[1]] = 1.0;
        }
    }
    w
}

/// The normalized start of a spatial slice (`start`, `step` as written,
/// `len` the input length, `out` the result's length) when a conv with a
/// `start + 1`-tap kernel, a 1 at the last tap and stride `step` computes
/// it: a positive step, and the slice runs to the end of the axis. `Err`
/// says what the slice does instead.
///
/// ```
/// use onnc_nvdla::lower::select::spatial_start;
/// assert_eq!(spatial_start(0, 2, 8, 4), Ok(0)); // x[:, :, ::2]
/// assert_eq!(spatial_start(-3, 1, 8, 3), Ok(5)); // x[:, :, -3:]
/// assert!(spatial_start(0, 1, 8, 5).is_err()); // x[:, :, :5]
/// ```
pub fn spatial_start(start: i64, step: i64, len: usize, out: usize) -> Result<usize, String> {
    let len = len as i64;
    if step <= 0 {
        return Err(format!("steps by {step}"));
    }
    let a = if start < 0 { start + len } else { start }.clamp(0, len);
    if a >= len || (len - a - 1) / step + 1 != out as i64 {
        return Err(format!(
            "stops before the end of an axis of {len} (start {a}, step {step}, {out} kept)"
        ));
    }
    Ok(a as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_weights_put_one_tap_per_row() {
        // 2 output channels from 3 inputs, 2×2 kernel, tap (1, 1).
        let w = window_weights(&[Some(2), None], 3, [2, 2], [1, 1]);
        assert_eq!(w.len(), 2 * 3 * 4);
        assert_eq!(w.iter().filter(|&&v| v == 1.0).count(), 1);
        assert_eq!(w[(2) * 4 + 3], 1.0);
    }

    #[test]
    fn spatial_start_agrees_with_the_conv_output_size() {
        for len in 1..12usize {
            for step in 1..4i64 {
                for start in 0..len as i64 {
                    let out = (len as i64 - start + step - 1) / step; // ceil
                    assert_eq!(
                        spatial_start(start, step, len, out as usize),
                        Ok(start as usize)
                    );
                }
            }
        }
        assert!(spatial_start(0, -1, 4, 4).is_err());
    }
}
