//! Grouped and depthwise convolutions as one convolution with block-diagonal
//! weights.
//!
//! BARVINN's data RAM holds activations NHWC with channels in 64-lane words
//! (one word per bit plane of 64 channels), and an MVU job reads and writes
//! whole words: a job cannot address a channel range that does not start and
//! end on a 64-channel boundary, so "one job per group" is possible only for
//! groups of multiples of 64 channels. Every grouped Conv is instead exactly
//! a group-1 Conv whose weight for output `o` (in group `k = o / (O/g)`) is
//! the group's weight on input channels `k·C/g .. (k+1)·C/g` and zero on all
//! others; the MVU multiplies the zeros like any weight, so each output block
//! reads every input block (weight RAM `C·fH·fW·wprec` words per block, as a
//! dense Conv of the same shape).
//!
//! In: the ONNX weights `[O, C/g, fH, fW]` flattened, `O`, `C`, `g` and the
//! taps `fH·fW`. Out: the dense `[O, C, fH, fW]` weights ([`block_diagonal`]),
//! and back ([`diagonal_blocks`], for the reference graph that runs the
//! grouped Conv itself).
//!
//! ```
//! use onnc_mvu::frontend::groups::{block_diagonal, diagonal_blocks};
//! // Depthwise over 2 channels, 1x1 kernel: weights [2, 1, 1, 1] = [3, 5].
//! let dense = block_diagonal(&[3, 5], 2, 2, 2, 1);
//! assert_eq!(dense, vec![3, 0, 0, 5]);
//! assert_eq!(diagonal_blocks(&dense, 2, 2, 2, 1), vec![3, 5]);
//! ```

/// The dense `[out, in_channels, taps]` weights of a `groups`-group Conv
/// whose weights `w` are `[out, in_channels / groups, taps]`; zero outside
/// each output's group.
pub fn block_diagonal<T: Copy + Default>(
    w: &[T],
    out: usize,
    in_channels: usize,
    groups: usize,
    taps: usize,
) -> Vec<T> {
    let (per_in, per_out) = (in_channels / groups, out / groups);
    let mut dense = vec![T::default(); out * in_channels * taps];
    for o in 0..out {
        let first = (o / per_out) * per_in;
        let src = &w[o * per_in * taps..(o + 1) * per_in * taps];
        let at = (o * in_channels + first) * taps;
        dense[at..at + per_in * taps].copy_from_slice(src);
    }
    dense
}

/// The inverse of [`block_diagonal`]: each output's weights on its own
/// group's input channels, `[out, in_channels / groups, taps]`.
pub fn diagonal_blocks<T: Copy>(
    dense: &[T],
    out: usize,
    in_channels: usize,
    groups: usize,
    taps: usize,
) -> Vec<T> {
    let (per_in, per_out) = (in_channels / groups, out / groups);
    (0..out)
        .flat_map(|o| {
            let at = (o * in_channels + (o / per_out) * per_in) * taps;
            dense[at..at + per_in * taps].iter().copied()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_groups_of_two_channels_with_two_taps() {
        // out 4, in 4, groups 2: outputs 0,1 read inputs 0,1; outputs 2,3 read 2,3.
        let w: Vec<i32> = (1..=16).collect(); // [4, 2, 2]
        let dense = block_diagonal(&w, 4, 4, 2, 2);
        assert_eq!(&dense[0..8], &[1, 2, 3, 4, 0, 0, 0, 0]);
        assert_eq!(&dense[16..24], &[0, 0, 0, 0, 9, 10, 11, 12]);
        assert_eq!(diagonal_blocks(&dense, 4, 4, 2, 2), w);
    }
}
