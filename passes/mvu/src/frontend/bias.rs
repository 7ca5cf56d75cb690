//! A layer's bias through the MVU's bias RAM: its values in accumulator
//! units, which pieces add it, and the bias-RAM image the host loads.
//!
//! In: a [`Lowered`] layer (its float bias and weight scales) and its
//! [`Piece`]s. Out: the integer bias per output channel
//! ([`accumulator_bias`]), the bias a piece's scaler adds ([`piece_bias`]),
//! and the layer's bias-RAM image ([`bias_image`]), or why it does not fit.
//!
//! What the hardware does (`obilaniu/MVU` at `bfab134`, the commit BARVINN
//! pins): the scaler computes `p = acc · b + c` (`fixedpointscaler.v`), with
//! `c` lane `i`'s 27 low bits of the 2048-bit bias word, `rdb_word[i·32 +: 27]`
//! (`mvu.v`: 32-bit slots, `BSCALERC = 27`), and `p` 27 bits wide. The bias
//! RAM has 64 words (`BBBANKA = 6`), one per 64-channel block; the read
//! address is `mvubbaseptr` plus an address generator that steps once per
//! accumulator result (`mvutop.sv`, `scaleragu_step` from `agu_shacc_done`).
//!
//! **Units.** The MVU flow has no activation scale: a layer's input codes
//! are its real input, as in [`super::reference_graph`] and
//! [`super::output_bound`]. With weights `w ≈ q · s` (scale per layer or per
//! output channel), the layer computes `s · (Σ q·x + B / s)`, so the bias in
//! accumulator units is `c = round(B / s)`: at most half an accumulator unit
//! from the float bias. The reference graph adds the same integer `c`.
//!
//! **Split layers.** The first partial (input features / channels and
//! kernel rows from 0) adds the bias to its partial sum, in the layer's
//! accumulator units, before any low bits are dropped; the other partials
//! and the sum add none. The sum of the partials is then the biased
//! accumulator, and `frontend/window.rs`'s bound holds unchanged once the
//! partial bound counts `max |c|` ([`bias_bound`]).
//!
//! ```
//! use onnc_mvu::frontend::bias_image;
//! let lines = bias_image(&[1, -2]).unwrap();
//! assert_eq!(lines.len(), 1);
//! assert_eq!(lines[0].len(), 2048);
//! assert!(lines[0].ends_with(&format!("{:032b}{:032b}", -2i32, 1)));
//! ```

use super::lower::Lowered;
use super::split::{Piece, PieceKind};
use crate::error::Error;
use crate::limits::BLOCK;

/// Words of the bias RAM (`BBBANKA = 6` address bits).
pub const BIAS_RAM_WORDS: usize = 64;
/// Bits of one lane's slot in a bias word (`BBIAS`).
pub const BIAS_SLOT_BITS: usize = 32;
/// Bits of the scaler's post-add operand `c` and of its output (`BSCALERC`).
pub const BIAS_BITS: u32 = 27;

/// The weight scale of output channel `o`.
fn scale_of(l: &Lowered, o: usize, out: usize) -> f64 {
    let s = &l.weights.scales;
    f64::from(if s.len() == out { s[o] } else { s[0] })
}

/// The layer's bias in accumulator units, `round(B / scale)` per output
/// channel; `None` without a bias or when every value rounds to 0.
pub fn accumulator_bias(l: &Lowered) -> Option<Vec<i64>> {
    let b = l.bias.as_ref()?;
    let out = b.len();
    let c: Vec<i64> = b
        .iter()
        .enumerate()
        .map(|(o, &v)| {
            let s = scale_of(l, o, out);
            if s == 0.0 {
                0
            } else {
                (f64::from(v) / s).round() as i64
            }
        })
        .collect();
    c.iter().any(|&v| v != 0).then_some(c)
}

/// Whether piece `p` adds its layer's bias: an output piece, or the first
/// partial of a split layer (input channels/features and kernel rows from 0),
/// whose accumulator is in the layer's units; never a sum.
pub fn adds_bias(p: &Piece) -> bool {
    match p.kind {
        PieceKind::Output => true,
        PieceKind::Partial => p.inputs.start == 0 && p.kernel_rows.start == 0,
        PieceKind::Sum { .. } => false,
    }
}

/// The bias piece `p` of layer `l` adds, one value per channel of
/// `p.channels` ([`adds_bias`]); `None` for the other pieces and for an
/// unbiased layer.
pub fn piece_bias(l: &Lowered, p: &Piece) -> Option<Vec<i64>> {
    if !adds_bias(p) {
        return None;
    }
    let c = accumulator_bias(l)?;
    Some(
        p.channels
            .clone()
            .map(|o| c.get(o as usize).copied().unwrap_or(0))
            .collect(),
    )
}

/// The largest `|c|` of layer `l`'s bias in accumulator units (0 without
/// one): what the first partial of a split may add to its partial sum.
pub fn bias_bound(l: &Lowered) -> u64 {
    accumulator_bias(l)
        .iter()
        .flatten()
        .map(|v| v.unsigned_abs())
        .max()
        .unwrap_or(0)
}

/// The bias-RAM image of a layer whose output pieces add `values` (one per
/// output channel): word `k` holds channels `64k .. 64k + 63`, lane `i` in
/// bits `32i .. 32i + 31` (two's complement; the scaler reads the 27 low
/// bits). Lines are 2048 characters `0`/`1`, most significant bit first
/// (lane 63 leftmost), like the weight images. Errors when the values need
/// more than the 64 words or leave the 27-bit range.
pub fn bias_image(values: &[i64]) -> Result<Vec<String>, Error> {
    let blocks = values.len().div_ceil(BLOCK as usize);
    if blocks > BIAS_RAM_WORDS {
        return Err(Error::BiasBlocks {
            channels: values.len(),
            blocks,
        });
    }
    let limit = 1i64 << (BIAS_BITS - 1);
    if let Some((channel, &value)) = values
        .iter()
        .enumerate()
        .find(|(_, v)| !(-limit..limit).contains(*v))
    {
        return Err(Error::BiasRange { channel, value });
    }
    Ok(values
        .chunks(BLOCK as usize)
        .map(|block| {
            let mut line = String::with_capacity(BLOCK as usize * BIAS_SLOT_BITS);
            for lane in (0..BLOCK as usize).rev() {
                let v = block.get(lane).copied().unwrap_or(0) as i32;
                line.push_str(&format!("{:032b}", v as u32));
            }
            line
        })
        .collect())
}

/// The layer-wide values of the bias image, `c` per output channel, when
/// some piece of `pieces` adds them; `None` otherwise.
pub fn layer_bias_values(l: &Lowered, pieces: &[Piece]) -> Option<Vec<i64>> {
    let c = accumulator_bias(l)?;
    pieces.iter().any(adds_bias).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::lower::WeightLayout;
    use crate::frontend::weights::LayerWeights;
    use crate::layer::{Layer, MatMulShape, Precision};

    fn fc(bias: Vec<f32>, scales: Vec<f32>) -> Lowered {
        let out = bias.len() as u32;
        Lowered {
            node: "fc".into(),
            op: "Gemm".into(),
            layer: Layer::matmul(
                "fc",
                MatMulShape {
                    rows: 1,
                    in_features: 1,
                    out_features: out,
                },
                Precision::new(8, 8, 8),
            ),
            weights: LayerWeights {
                values: vec![1; out as usize],
                scales,
                signed: true,
            },
            bias: Some(bias),
            relu: false,
            layout: WeightLayout::AsLayer,
            end: "y".into(),
            sum_of: None,
        }
    }

    #[test]
    fn the_bias_is_rounded_to_accumulator_units_per_channel() {
        // One scale: B / 0.25, rounded half away from zero.
        let l = fc(vec![1.0, -0.3, 0.125, -0.375], vec![0.25]);
        assert_eq!(accumulator_bias(&l), Some(vec![4, -1, 1, -2]));
        // Per-channel scales.
        let l = fc(vec![1.0, 1.0], vec![0.5, 0.1]);
        assert_eq!(accumulator_bias(&l), Some(vec![2, 10]));
        // A bias that rounds to zero everywhere is no bias.
        assert_eq!(accumulator_bias(&fc(vec![0.1, -0.1], vec![1.0])), None);
    }

    fn lane(line: &str, i: usize) -> i32 {
        let at = line.len() - (i + 1) * BIAS_SLOT_BITS;
        u32::from_str_radix(&line[at..at + BIAS_SLOT_BITS], 2).unwrap() as i32
    }

    #[test]
    fn lanes_are_32_bit_twos_complement_lane_0_rightmost() {
        let vals: Vec<i64> = (0..70).map(|o| o * 1000 - 33_000).collect();
        let lines = bias_image(&vals).unwrap();
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.len() == 2048));
        for (o, &v) in vals.iter().enumerate() {
            assert_eq!(i64::from(lane(&lines[o / 64], o % 64)), v, "channel {o}");
        }
        // Channels past the layer's are zero.
        assert_eq!(lane(&lines[1], 6), 0);
        // The scaler's 27 low bits of a negative value sign-extend back.
        let raw = lane(&lines[0], 0) as u32 & ((1 << 27) - 1);
        assert_eq!(((raw << 5) as i32) >> 5, -33_000);
    }

    #[test]
    fn the_27_bit_operand_and_the_64_words_are_enforced() {
        assert!(bias_image(&[(1 << 26) - 1, -(1 << 26)]).is_ok());
        assert_eq!(
            bias_image(&[0, 1 << 26]),
            Err(Error::BiasRange {
                channel: 1,
                value: 1 << 26
            })
        );
        assert!(matches!(
            bias_image(&vec![1; 64 * 64 + 1]),
            Err(Error::BiasBlocks { blocks: 65, .. })
        ));
        assert_eq!(bias_image(&vec![1; 64 * 64]).unwrap().len(), 64);
    }
}
