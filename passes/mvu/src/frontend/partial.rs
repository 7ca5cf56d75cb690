//! Splitting a matmul over its input features, with the partial sums added
//! exactly on the MVU.
//!
//! In: a lowered matmul one of whose 64-feature output blocks needs more
//! weight-RAM words than there are (`in_blocks · wprec > 512`: VGG's first
//! classifier layer, 25088 inputs, at 2 bits and more), the RAM limits and the
//! weight codes. Out: its [`Piece`]s, or why it cannot be split exactly.
//!
//! The MVU's accumulator restarts with each job, so the `K` parts of the input
//! are `K` jobs whose sums must be added by a later job:
//!
//! 1. **partials**: part `k` (whole 64-feature input blocks) is a matmul of
//!    its slice of the weights, written at `oprec = 16` with quantizer MSB 15,
//!    so the quantizer emits the low 16 bits of the accumulator, two's
//!    complement; no ReLU;
//! 2. **sum**: a matmul reading the `K` partials of its output channels as
//!    16-bit signed activations, with 1-bit unsigned weights that are `K`
//!    stacked identities (a dense image: a sum over `n` output blocks needs
//!    `K·n²` weight words, so sums cover at most `⌊√(512/K)⌋` blocks each), and the layer's own output precision, quantizer MSB
//!    and ReLU. Its accumulator sums `K` 16-bit values (< 2^21, inside the
//!    27-bit accumulator) and its output pipeline is the layer's.
//!
//! This is exact exactly when every partial fits 16 signed bits for every
//! input: `Σ_{i in part} |q[o, i]| · amax ≤ 32767` for each output `o`, with
//! `amax = 2^aprec − 1` (or `2^(aprec−1)` for signed activations). `K` is the
//! fewest equal parts (in whole blocks) whose weights fit the weight RAM and
//! whose partials meet that bound; when even one 64-feature block per part
//! exceeds it (8-bit weights and activations: one product reaches 32385), or
//! the sum would not fit, the layer is refused with
//! [`Error::PartialSumRange`] naming the words needed and the bound.
//!
//! Only when no exact split exists, the partials may be **windows**: each
//! drops its `s` low bits (quantizer MSB `15 + s`) and the sum's quantizer MSB
//! is the layer's minus `s`; the fewest parts for which
//! [`window_shift`](super::window::window_shift) finds an `s` are taken, and
//! the output is then the unsplit layer's or one LSB below (the bound and its
//! proof are in `frontend/window.rs`). With the default quantizer (output
//! LSB 0) no window exists and the refusal above stands.

use std::ops::Range;

use super::lower::Lowered;
use super::split::{Piece, PieceKind};
use super::window::window_shift;
use crate::error::{Error, Result};
use crate::layer::{Layer, LayerOp, MatMulShape, Precision};
use crate::limits::{MvuLimits, BLOCK};
use crate::registers::blocks;

/// Largest value a partial sum may reach: the 16-bit signed range.
pub const PARTIAL_LIMIT: u64 = (1 << 15) - 1;
/// Output precision and quantizer MSB of a partial.
pub(super) const PARTIAL_BITS: u32 = 16;

/// Largest `|activation code|` at `p`'s activation precision.
pub(super) fn act_max(p: &Precision) -> u64 {
    if p.act_signed {
        1 << (p.act - 1)
    } else {
        (1 << p.act) - 1
    }
}

/// The largest `|partial sum|` over outputs for input features `inputs` of a
/// `[out, in]` weight matrix, for any input codes.
pub fn partial_bound(values: &[i32], in_features: usize, inputs: &Range<usize>, amax: u64) -> u64 {
    values
        .chunks(in_features.max(1))
        .map(|row| {
            row[inputs.clone()]
                .iter()
                .map(|w| w.unsigned_abs() as u64)
                .sum::<u64>()
                * amax
        })
        .max()
        .unwrap_or(0)
}

/// The ranges of `k` parts of `n` units (input features or channels, kernel
/// rows) in whole blocks of `block` units (64, or 1).
fn parts_of(n: u32, k: u64, block: u32) -> Vec<Range<u32>> {
    let nblk = u64::from(n.div_ceil(block.max(1)));
    let per = (nblk.div_ceil(k.max(1)) * u64::from(block)).max(1);
    (0..n)
        .step_by(per as usize)
        .map(|a| a..(a + per as u32).min(n))
        .collect()
}

/// Row bands of a matmul whose rows need `in_w` input and `out_w` output words each.
fn bands(layer: &str, rows: u32, in_w: u64, out_w: u64, half: u64) -> Result<Vec<Range<u32>>> {
    let (needed, memory) = if in_w >= out_w {
        (
            in_w,
            "input activations of one output row (half the data RAM)",
        )
    } else {
        (
            out_w,
            "output activations of one output row (half the data RAM)",
        )
    };
    if needed > half {
        return Err(Error::Capacity {
            layer: layer.to_string(),
            memory,
            needed,
            capacity: half,
        });
    }
    let per = (half / needed).max(1) as u32;
    Ok((0..rows)
        .step_by(per as usize)
        .map(|a| a..(a + per).min(rows))
        .collect())
}

/// Output-channel groups of whole blocks whose weights (`words_per_block`
/// each) fit the weight RAM.
fn groups(out: u32, words_per_block: u64, ram: u64) -> Vec<Range<u32>> {
    let g = (ram / words_per_block).min(blocks(out.into())).max(1) as u32 * BLOCK as u32;
    (0..out)
        .step_by(g as usize)
        .map(|a| a..(a + g).min(out))
        .collect()
}

/// Output-channel groups of the sums of `k` parts: a sum over `n` output
/// blocks is a dense `[n·64, k·n·64]` 1-bit image, `k·n` words per block and
/// `k·n²` in all, so each group has the most blocks `n` with `k·n² ≤ ram`
/// (at least one).
pub(super) fn sum_groups(out: u32, k: u64, ram: u64) -> Vec<Range<u32>> {
    let n = (1..)
        .take_while(|n: &u64| k * n * n <= ram)
        .last()
        .unwrap_or(1);
    let g = n.min(blocks(out.into())) as u32 * BLOCK as u32;
    (0..out)
        .step_by(g as usize)
        .map(|a| a..(a + g).min(out))
        .collect()
}

fn suffix(name: &mut String, r: &Range<u32>, tag: &str, on: bool) {
    if on {
        *name += &format!(".{tag}{}_{}", r.start, r.end);
    }
}

/// `Σ |q|` of each output over each 64-wide block of its `in_features`
/// inputs (each input with its `taps` kernel taps): `[out][in_blocks]`,
/// computed once so that a part's bound is a sum of these.
pub(super) fn block_sums(values: &[i32], in_features: usize, taps: usize) -> Vec<u64> {
    let row = (in_features * taps).max(1);
    values
        .chunks(row)
        .flat_map(|r| {
            r.chunks(BLOCK as usize * taps.max(1))
                .map(|b| b.iter().map(|w| w.unsigned_abs() as u64).sum::<u64>())
        })
        .collect()
}

/// Input ranges of the parts, and the low bits each partial drops.
pub(super) type Chosen = (Vec<Range<u32>>, u32);

/// The split of `in_features` inputs into parts of whole blocks, and the low
/// bits `s` each partial drops, from the per-block sums `sums`
/// ([`block_sums`]), the largest activation code `amax`, the fewest parts
/// the weight RAM allows `k0` and the output LSB `lsb`: the fewest parts from
/// `k0` up whose partials all fit 16 signed bits (`s = 0`, exact); else the
/// fewest whose partials fit as windows ([`window_shift`]). `Err((parts,
/// bound))`: no split exists; the bound of the last exact attempt.
pub(super) fn choose_parts(
    sums: &[u64],
    in_features: u32,
    amax: u64,
    k0: u64,
    lsb: u32,
    bias: u64,
) -> std::result::Result<Chosen, (u64, u64)> {
    choose_parts_of(sums, in_features, BLOCK as u32, amax, k0, lsb, bias)
}

/// [`choose_parts`] over `n` units in blocks of `block` (64 input features
/// or channels; 1 kernel row), `sums` being `[out][blocks]`. `bias`: the
/// largest `|c|` the first partial adds (`bias::bias_bound`), counted in every
/// part's bound.
pub(super) fn choose_parts_of(
    sums: &[u64],
    n: u32,
    block: u32,
    amax: u64,
    k0: u64,
    lsb: u32,
    bias: u64,
) -> std::result::Result<Chosen, (u64, u64)> {
    let in_blocks = u64::from(n.div_ceil(block.max(1)));
    let nblk = in_blocks as usize;
    let bound_of = |ps: &[Range<u32>]| -> u64 {
        ps.iter()
            .map(|r| {
                let (a, b) = (
                    r.start as usize / block as usize,
                    (r.end as usize).div_ceil(block as usize),
                );
                sums.chunks(nblk.max(1))
                    .map(|row| row[a..b].iter().sum::<u64>() * amax)
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
            + bias
    };
    let exact = || -> std::result::Result<Vec<Range<u32>>, (u64, u64)> {
        // Not even single blocks fit 16 bits: refuse at once.
        let single = sums.iter().max().copied().unwrap_or(0) * amax + bias;
        if single > PARTIAL_LIMIT {
            return Err((in_blocks, single));
        }
        let mut k = k0;
        loop {
            let ps = parts_of(n, k, block);
            let bound = bound_of(&ps);
            if bound <= PARTIAL_LIMIT {
                return Ok(ps);
            }
            if k >= in_blocks {
                return Err((k, bound));
            }
            k += 1;
        }
    };
    let windowed = || {
        (k0..=in_blocks.max(k0)).find_map(|k| {
            let ps = parts_of(n, k, block);
            let shift = window_shift(bound_of(&ps), ps.len() as u64, lsb)?;
            Some((ps, shift))
        })
    };
    match exact() {
        Ok(ps) => Ok((ps, 0)),
        Err(e) => windowed().ok_or(e),
    }
}

/// Splits matmul `l` over its input features (see the module doc); `needed`
/// is the weight words one whole output block would need.
pub fn split_inputs(
    l: &Lowered,
    m: MatMulShape,
    limits: &MvuLimits,
    needed: u64,
) -> Result<Vec<Piece>> {
    let layer = &l.layer;
    let p = layer.precision;
    let (inf, out) = (m.in_features, m.out_features);
    let in_blocks = blocks(inf.into());
    let amax = act_max(&p);
    let ram = limits.weight_ram_words;
    let wp = u64::from(p.weight);
    let refuse = |parts: u64, bound: u64| Error::PartialSumRange {
        layer: layer.name.clone(),
        needed,
        capacity: ram,
        parts,
        bound,
        limit: PARTIAL_LIMIT,
        conv: false,
        parts_of: "input features",
    };
    let block_sums = block_sums(&l.weights.values, inf as usize, 1);
    // The fewest parts whose weights fit; then more until the partials fit
    // 16 bits exactly; failing that (8 bits: one block can reach 2^21), the
    // fewest parts whose partials fit as windows within one output LSB.
    let k0 = in_blocks.div_ceil((ram / wp).max(1)).max(2);
    let msb = layer.quant_msb.unwrap_or(p.out.saturating_sub(1));
    let lsb = (msb + 1).saturating_sub(p.out);
    let (chosen, shift) = choose_parts(&block_sums, inf, amax, k0, lsb, super::bias::bias_bound(l))
        .map_err(|(k, b)| refuse(k, b))?;
    let k = chosen.len() as u64;
    // The sum of one output block reads K blocks of partials at 1 bit.
    if k > ram {
        return Err(refuse(k, 0));
    }
    let half = limits.data_ram_words / 2;
    let mut pieces = Vec::new();
    let base_weight = layer
        .weight_name
        .clone()
        .unwrap_or_else(|| layer.name.clone());
    for part in &chosen {
        let pb = blocks(part.len() as u64);
        let gs = groups(out, pb * wp, ram);
        for ch in &gs {
            let nb = blocks(ch.len() as u64);
            let bs = bands(
                &layer.name,
                m.rows,
                pb * u64::from(p.act),
                nb * u64::from(PARTIAL_BITS),
                half,
            )?;
            for (j, band) in bs.iter().enumerate() {
                let mut name = layer.name.clone();
                suffix(&mut name, part, "in", true);
                suffix(&mut name, ch, "oc", gs.len() > 1);
                suffix(&mut name, band, "r", bs.len() > 1);
                let mut weight = base_weight.clone();
                suffix(&mut weight, part, "in", true);
                suffix(&mut weight, ch, "oc", gs.len() > 1);
                pieces.push(Piece {
                    layer: Layer {
                        name,
                        weight_name: Some(weight),
                        op: LayerOp::MatMul(MatMulShape {
                            rows: band.len() as u32,
                            in_features: part.len() as u32,
                            out_features: ch.len() as u32,
                        }),
                        precision: Precision {
                            out: PARTIAL_BITS,
                            ..p
                        },
                        quant_msb: Some(PARTIAL_BITS - 1 + shift),
                        relu: false,
                        pool: None,
                        bias_base: None,
                    },
                    channels: ch.clone(),
                    rows: band.clone(),
                    in_rows: band.clone(),
                    cols: 0..1,
                    in_cols: 0..1,
                    kernel_rows: 0..1,
                    inputs: part.clone(),
                    kind: PieceKind::Partial,
                    exports_weights: j == 0,
                });
            }
        }
    }
    let sum_precision = Precision::new(PARTIAL_BITS, 1, p.out).with_signed_acts(true);
    let gs = sum_groups(out, k, ram);
    for ch in &gs {
        let nb = blocks(ch.len() as u64);
        let bs = bands(
            &layer.name,
            m.rows,
            k * nb * u64::from(PARTIAL_BITS),
            nb * u64::from(p.out),
            half,
        )?;
        for (j, band) in bs.iter().enumerate() {
            let mut name = format!("{}.sum", layer.name);
            suffix(&mut name, ch, "oc", gs.len() > 1);
            suffix(&mut name, band, "r", bs.len() > 1);
            let mut weight = format!("{}.sum", base_weight);
            suffix(&mut weight, ch, "oc", gs.len() > 1);
            pieces.push(Piece {
                layer: Layer {
                    name,
                    weight_name: Some(weight),
                    op: LayerOp::MatMul(MatMulShape {
                        rows: band.len() as u32,
                        in_features: (k as u32) * ch.len() as u32,
                        out_features: ch.len() as u32,
                    }),
                    precision: sum_precision,
                    // The partials dropped `shift` low bits: the sum's window
                    // sits that much lower (`msb − shift ≥ oprec − 1`).
                    quant_msb: if shift == 0 {
                        layer.quant_msb
                    } else {
                        Some(msb - shift)
                    },
                    relu: layer.relu,
                    pool: None,
                    bias_base: None,
                },
                channels: ch.clone(),
                rows: band.clone(),
                in_rows: band.clone(),
                cols: 0..1,
                in_cols: 0..1,
                kernel_rows: 0..1,
                inputs: 0..inf,
                kind: PieceKind::Sum { parts: k as u32 },
                exports_weights: j == 0,
            });
        }
    }
    Ok(pieces)
}

/// The sum's weights for `n` output channels and `k` parts: `[n, k·n]`, row
/// `o` is 1 at `c·n + o` for every part `c`.
pub fn sum_weights(n: usize, k: usize) -> Vec<i32> {
    let mut w = vec![0; n * k * n];
    for o in 0..n {
        for c in 0..k {
            w[o * k * n + c * n + o] = 1;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_whole_blocks_covering_the_input() {
        assert_eq!(parts_of(25088, 2, 64), vec![0..12544, 12544..25088]);
        assert_eq!(parts_of(200, 2, 64), vec![0..128, 128..200]);
        assert_eq!(
            parts_of(200, 4, 64),
            vec![0..64, 64..128, 128..192, 192..200]
        );
        // Kernel rows: 11 rows in 3 parts of at most 4.
        assert_eq!(parts_of(11, 3, 1), vec![0..4, 4..8, 8..11]);
    }

    #[test]
    fn the_bound_is_the_largest_row_of_absolute_weights_times_the_largest_code() {
        // Two outputs over four inputs; part 1..3.
        let w = [1, -2, 3, 0, -1, -1, -1, 5];
        assert_eq!(partial_bound(&w, 4, &(1..3), 3), 15);
        assert_eq!(partial_bound(&w, 4, &(0..4), 3), 24);
    }

    #[test]
    fn every_sum_group_fits_the_weight_ram() {
        // k = 12 parts: n = 6 blocks (12·36 = 432 ≤ 512); sizing groups by
        // words per block (512 / (12·6) = 7 blocks) needed 12·49 = 588 words.
        for k in 1..=512u64 {
            for r in sum_groups(4096, k, 512) {
                let nb = blocks(r.len() as u64);
                assert!(k * nb * nb <= 512, "k = {k}: {r:?}");
            }
        }
        assert_eq!(sum_groups(4096, 12, 512)[0], 0..384);
    }

    #[test]
    fn sum_weights_stack_identities() {
        assert_eq!(sum_weights(2, 2), vec![1, 0, 1, 0, 0, 1, 0, 1]);
    }
}
