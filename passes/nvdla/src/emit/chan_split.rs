//! Convolutions split along channels: a conv whose kernels each read only a
//! few input channels becomes one conv (and one fused SDP) per chunk of
//! output channels, each with its own block of weights.
//!
//! In: a conv op, its `f32` weights `[K, C, R, S]`, and the SDP that reads
//! its accumulator. Out: [`Chunk`]s — kernels `[k0, k0 + k)` reading input
//! channels `[c0, c0 + c)` — each with its own row bands; and the weight
//! blob laid out as one direct-convolution block per chunk
//! ([`chunks_dc_into`]).
//! Whether and how a conv is chunked is decided once, in
//! [`super::chunking`], for the memory plan, the encoder and this module.
//!
//! Who needs it: a depthwise or grouped convolution (an `nvdla.conv` with
//! `group`, read as its dense block-diagonal kernel through
//! [`crate::grouped_kernel::DenseView`]; or a split form that `regroup`
//! merged into one dense conv). Emitted whole, its weight is G× the grouped kernels (MobileNetV2: most
//! of the loadable) and the CONV engine multiplies the zeros; and MnasNet's
//! 5×5 depthwise over 1152 channels needs one kernel group of 16 kernels ×
//! 1152 channels × 25 taps (29 CBUF banks of nv_full's 16).
//!
//! Rules:
//! * a kernel's *support* is the range of input channels where it has a
//!   non-zero weight; a chunk reads the union of its kernels' supports,
//!   widened to whole input atoms (so its input is a channel window of the
//!   input cube at a surface boundary);
//! * chunks hold `step` kernels, `step` a multiple of the output atom (so
//!   each writes whole output surfaces); among the steps whose every chunk
//!   fits the CBUF (its own row bands allowed) and whose blocks fit the
//!   byte budget, the one with the least estimated cycles wins:
//!   MAC atoms + weight and input bytes / 32 + [`PAIR_CYCLES`] per pair;
//! * exact: a chunk drops only weights that are zero, and the bias, scale
//!   and activation of the fused SDP are per channel, so each output
//!   channel is the same sum of the same products (one caveat, as for the
//!   dense conv: an infinite or NaN input in a dropped channel no longer
//!   reaches the other channels' sums);
//! * a conv whose kernels read (nearly) all channels gains nothing from
//!   this split; if it does not fit whole it is an error (splitting input
//!   channels into partial sums is the legalizer's `nvdla/conv-split-channels`).
//!
//! Example: 1152 channels, 5×5 depthwise, 7×7 fp16 on nv_full (16-channel
//! output atoms): 36 chunks of 32 kernels, each reading its own 32 input
//! channels (two surfaces) with a 51,200-byte block of weights — 1.8 MB for
//! all, where the dense `[1152, 1152, 5, 5]` layout would be 66 MB.

use super::dla::Ctx;
use super::encode::Layout;
use super::split::{Band, Chunk};
use super::weights::{conv_dc_into, round_up, Values, WEIGHT_GRANULE};
use crate::config::Config;
use crate::program::{Op, Precision, TensorKind};
use crate::{Error, Result};
use rayon::prelude::*;

/// Per kernel, the input channels `[first, end)` where it has a non-zero
/// weight; `None` for an all-zero kernel.
pub(crate) fn supports<V: Values + ?Sized>(
    w: &V,
    [k, c, r, s]: [usize; 4],
) -> Vec<Option<(usize, usize)>> {
    let rs = r * s;
    if rs == 0 {
        return vec![None; k];
    }
    (0..k)
        .map(|kk| {
            let row = kk * c * rs;
            let (first, last) = w.nonzero_span(row, row + c * rs)?;
            Some(((first - row) / rs, (last - row) / rs + 1))
        })
        .collect()
}

/// Bytes of a `[k, c, r, s]` block in the direct-convolution layout.
pub(crate) fn dc_bytes([k, c, r, s]: [usize; 4], elem: usize) -> usize {
    round_up(k * c * r * s * elem, WEIGHT_GRANULE)
}

/// The chunks of `step` kernels of a `[K, C, R, S]` weight with supports
/// `sup`: input ranges widened to atoms of `cpa_in` channels, weight blocks
/// of `elem`-byte elements laid out one after the other.
pub(crate) fn chunks(
    sup: &[Option<(usize, usize)>],
    [_, c, r, s]: [usize; 4],
    step: usize,
    cpa_in: usize,
    elem: usize,
) -> Vec<Chunk> {
    let cpa_in = cpa_in.max(1);
    let mut out = Vec::new();
    let mut w_off = 0;
    for k0 in (0..sup.len()).step_by(step.max(1)) {
        let k = step.min(sup.len() - k0);
        let (lo, hi) = sup[k0..k0 + k]
            .iter()
            .flatten()
            .fold((usize::MAX, 0), |(lo, hi), &(a, b)| (lo.min(a), hi.max(b)));
        // An all-zero chunk still runs (its SDP adds the bias): one atom.
        let (lo, hi) = if lo > hi { (0, 1) } else { (lo, hi) };
        let c0 = lo / cpa_in * cpa_in;
        let c1 = (hi.div_ceil(cpa_in) * cpa_in).min(c);
        let w_bytes = dc_bytes([k, c1 - c0, r, s], elem);
        out.push(Chunk {
            k0,
            k,
            c0,
            c: c1 - c0,
            w_off,
            w_bytes,
        });
        w_off += w_bytes;
    }
    out
}

/// Estimated cycles of one descriptor pair beyond its MACs and memory
/// traffic (programming two engines, filling the CBUF pipeline). An
/// assumption, not a measurement: it only weighs fewer, larger chunks
/// against the MACs and weight bytes that larger chunks of a sparse
/// weight waste.
pub(crate) const PAIR_CYCLES: usize = 1000;

/// The chunks of the cheapest `step` (a multiple of `cpa_out`, fewer than
/// all `K` kernels) for which `fits` accepts every chunk and whose blocks
/// total at most `budget` bytes; `cost` estimates a set of chunks (ties go
/// to the larger step). `None` when no step fits.
#[allow(clippy::too_many_arguments)]
pub(crate) fn choose(
    sup: &[Option<(usize, usize)>],
    shape: [usize; 4],
    cpa_in: usize,
    cpa_out: usize,
    elem: usize,
    budget: usize,
    mut fits: impl FnMut(&Chunk) -> bool,
    cost: impl Fn(&[Chunk]) -> usize,
) -> Option<Vec<Chunk>> {
    let cpa_out = cpa_out.max(1);
    let atoms = shape[0].div_ceil(cpa_out);
    let mut best: Option<(usize, Vec<Chunk>)> = None;
    for m in (1..atoms).rev() {
        let cs = chunks(sup, shape, m * cpa_out, cpa_in, elem);
        let total: usize = cs.iter().map(|ch| ch.w_bytes).sum();
        if cs.iter().all(|ch| ch.c < shape[1]) && total <= budget && cs.iter().all(&mut fits) {
            let c = cost(&cs);
            if best.as_ref().is_none_or(|(b, _)| c < *b) {
                best = Some((c, cs));
            }
        }
    }
    best.map(|(_, cs)| cs)
}

/// Position (in elements) of `w[kk, cc, rr, ss]` in the direct-convolution
/// layout of a `[k, c, r, s]` weight (kernel groups of `kpg`, channel
/// blocks of `acpa`; see [`super::weights`]).
#[cfg(test)]
fn dc_index(
    [k, c, r, s]: [usize; 4],
    kpg: usize,
    acpa: usize,
    [kk, cc, rr, ss]: [usize; 4],
) -> usize {
    let g0 = kk / kpg * kpg;
    let ng = kpg.min(k - g0);
    let cb = cc / acpa * acpa;
    let nb = acpa.min(c - cb);
    g0 * c * r * s + ng * cb * r * s + (rr * s + ss) * ng * nb + (kk - g0) * nb + (cc - cb)
}

/// The chunks' weight blocks, each in its own direct-convolution layout,
/// copied element by element out of `whole` (the `[K, C, R, S]` weight in
/// that layout, `elem` bytes per element), so the encoding (precision,
/// quantization) is exactly the one the whole weight got.
#[cfg(test)]
pub(crate) fn relayout(
    whole: &[u8],
    shape: [usize; 4],
    chunks: &[Chunk],
    kpg: usize,
    acpa: usize,
    elem: usize,
) -> Vec<u8> {
    let mut out = vec![0u8; chunks.iter().map(|c| c.w_bytes).sum()];
    relayout_into(whole, shape, chunks, kpg, acpa, elem, &mut out);
    out
}

/// The chunks' weight blocks encoded straight from the weight's values:
/// each block is the direct-convolution layout of its `[k, c, R, S]`
/// sub-weight (kernels `k0..`, channels `c0..`), written into its own
/// `w_bytes` of `out` (the chunks' `w_bytes` summed, zeroed). Every
/// element is quantized on its own, so this equals encoding the whole
/// `[K, C, R, S]` weight and copying the blocks out ([`relayout`], the
/// test oracle) without making the dense blob. Chunks are packed in
/// parallel, each into its own bytes: the result does not depend on the
/// thread count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn chunks_dc_into<V: Values + ?Sized>(
    w: &V,
    [_, c, r, s]: [usize; 4],
    chunks: &[Chunk],
    cfg: &Config,
    prec: Precision,
    shift: i32,
    out: &mut [u8],
) {
    let mut parts = Vec::with_capacity(chunks.len());
    let mut rest = out;
    for ch in chunks {
        let (block, tail) = rest.split_at_mut(ch.w_bytes);
        parts.push((ch, block));
        rest = tail;
    }
    parts.into_par_iter().for_each(|(ch, block)| {
        let sub = SubWeight {
            w,
            c,
            rs: r * s,
            k0: ch.k0,
            c0: ch.c0,
            sub_c: ch.c,
        };
        conv_dc_into(&sub, [ch.k, ch.c, r, s], cfg, prec, shift, block);
    });
}

/// The values of kernels `k0..` over channels `c0..c0 + sub_c` of a
/// `[K, C, R, S]` weight, indexed as a `[k, sub_c, R, S]` weight.
struct SubWeight<'a, V: ?Sized> {
    w: &'a V,
    c: usize,
    rs: usize,
    k0: usize,
    c0: usize,
    sub_c: usize,
}

impl<V: Values + ?Sized> Values for SubWeight<'_, V> {
    fn value(&self, i: usize) -> f32 {
        let (kc, tap) = (i / self.rs, i % self.rs);
        let (kk, cc) = (kc / self.sub_c, kc % self.sub_c);
        self.w
            .value(((self.k0 + kk) * self.c + self.c0 + cc) * self.rs + tap)
    }
}

/// [`relayout`] written into `out` (the chunks' `w_bytes` summed, zeroed).
#[cfg(test)]
pub(crate) fn relayout_into(
    whole: &[u8],
    shape: [usize; 4],
    chunks: &[Chunk],
    kpg: usize,
    acpa: usize,
    elem: usize,
    out: &mut [u8],
) {
    let [_, _, r, s] = shape;
    let (kpg, acpa) = (kpg.max(1), acpa.max(1));
    let mut start = 0;
    for ch in chunks {
        let sub = [ch.k, ch.c, r, s];
        for kk in 0..ch.k {
            for cc in 0..ch.c {
                for rr in 0..r {
                    for ss in 0..s {
                        let from = dc_index(shape, kpg, acpa, [ch.k0 + kk, ch.c0 + cc, rr, ss]);
                        let to = start + dc_index(sub, kpg, acpa, [kk, cc, rr, ss]) * elem;
                        out[to..to + elem].copy_from_slice(&whole[from * elem..(from + 1) * elem]);
                    }
                }
            }
        }
        start += ch.w_bytes;
    }
}

impl Ctx<'_> {
    /// The chunks the encoder laid out the weight of conv `op` as
    /// ([`super::chunking::decide`]), if any.
    fn weight_chunks(&self, op: &Op) -> Option<&[Chunk]> {
        let w = op.inputs.get(1).copied().flatten()?;
        match &self.weights.get(&w)?.layout {
            Layout::Conv {
                chunks: Some(chunks),
                ..
            } => Some(chunks),
            _ => None,
        }
    }

    /// The descriptor bands of a conv: one band without a chunk when it
    /// is emitted whole and fits (or in row bands), else the row bands of
    /// every channel chunk. `sdp` is the op reading its accumulator.
    pub(crate) fn conv_bands(&self, op: &Op, sdp: Option<&Op>) -> Result<Vec<Band>> {
        let Some(chunks) = self.weight_chunks(op) else {
            return Ok(self.conv_plan(op)?.bands);
        };
        let Some(sdp) = sdp else {
            return Err(Error::Op {
                engine: "conv".into(),
                hw_layer: op.hw_layer.clone(),
                problem: format!(
                    "is emitted as {} channel chunks, so the SDP reading its accumulator '{}' must follow it directly in the same task",
                    chunks.len(),
                    self.p.tensors[op.output].name
                ),
            });
        };
        if matches!(self.p.tensors[sdp.output].kind, TensorKind::Fused) {
            return Err(Error::Op {
                engine: "conv".into(),
                hw_layer: op.hw_layer.clone(),
                problem: format!(
                    "needs {} channel chunks to fit the CBUF, but its SDP '{}' streams its result into the next engine, which cannot be cut with it; write the SDP's result to memory",
                    chunks.len(),
                    sdp.hw_layer
                ),
            });
        }
        let mut bands = Vec::new();
        for ch in chunks {
            for mut b in self.conv_plan_of(op, Some(ch))?.bands {
                b.chunk = Some(*ch);
                bands.push(b);
            }
        }
        Ok(bands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ConfigName};
    use crate::emit::weights::{conv_dc, kernels_per_group};
    use crate::program::Precision;

    /// `[c, c, r, s]` weights of a depthwise conv merged block-diagonally.
    fn depthwise(c: usize, rs: usize) -> Vec<f32> {
        let mut w = vec![0f32; c * c * rs];
        for k in 0..c {
            for i in 0..rs {
                w[(k * c + k) * rs + i] = 1.0 + (k * rs + i) as f32 / 64.0;
            }
        }
        w
    }

    #[test]
    fn supports_of_a_merged_depthwise_conv_are_single_channels() {
        let w = depthwise(5, 4);
        let sup = supports(&w[..], [5, 5, 2, 2]);
        assert_eq!(sup, (0..5).map(|k| Some((k, k + 1))).collect::<Vec<_>>());
        let zero = supports(&[0.0f32; 8][..], [2, 2, 1, 2]);
        assert_eq!(zero, [None, None]);
    }

    /// The scan over bytes (contiguous or not) and over `f32`s agree with
    /// the element-by-element definition: signed zeros are zero, NaN is not.
    #[test]
    fn supports_agree_across_value_storages() {
        use crate::emit::weights::LeF32s;
        let shape = [6, 5, 3, 1];
        let mut w = vec![0f32; 6 * 5 * 3];
        w[3] = -0.0; // kernel 0: only a negative zero
        w[15 + 4] = 2.0; // kernel 1: channel 1
        w[15 + 13] = f32::NAN; // kernel 1: channel 4
        w[30] = 1.0; // kernel 2: channel 0 only
        w[89] = -3.0; // kernel 5: the last tap of the last channel
        let want = vec![None, Some((1, 5)), Some((0, 1)), None, None, Some((4, 5))];
        assert_eq!(supports(&w[..], shape), want);
        let bytes: Vec<u8> = w.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(supports(&LeF32s::contiguous(&bytes), shape), want);
        // The same values as every other 4-byte run of a wider buffer.
        let padded: Vec<u8> = bytes
            .chunks(4)
            .flat_map(|b| [b, &[9u8; 4]].concat())
            .collect();
        let strided = onnc_tensor::LeBytes::strided(&padded, 4, 8, w.len()).unwrap();
        assert_eq!(supports(&LeF32s(strided), shape), want);
        assert_eq!(supports(&depthwise(4, 2)[..], [4, 4, 2, 0]), vec![None; 4]);
        // Rows long enough for the block scan: per kernel, values at a few
        // positions (negative zeros in whole blocks of otherwise zeros).
        let shape = [7, 40, 3, 3];
        let row = 40 * 9;
        let mut w = vec![0f32; 7 * row];
        for (kk, at) in [
            (0, vec![0]),
            (1, vec![359]),
            (2, vec![17, 200]),
            (4, vec![64, 65, 300]),
        ] {
            for i in at {
                w[kk * row + i] = 0.5 + i as f32;
            }
        }
        for i in 0..row {
            w[3 * row + i] = -0.0;
            if i % 3 == 0 {
                w[5 * row + i] = -0.0;
            }
        }
        w[6 * row + 123] = f32::NAN;
        let want: Vec<_> = (0..7)
            .map(|kk| {
                let r = &w[kk * row..(kk + 1) * row];
                let first = r.iter().position(|v| *v != 0.0 || v.is_nan())?;
                let last = r.iter().rposition(|v| *v != 0.0 || v.is_nan())?;
                Some((first / 9, last / 9 + 1))
            })
            .collect();
        assert_eq!(want[1], Some((39, 40)));
        assert_eq!(want[3], None);
        assert_eq!(supports(&w[..], shape), want);
        let bytes: Vec<u8> = w.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(supports(&LeF32s::contiguous(&bytes), shape), want);
    }

    #[test]
    fn chunks_widen_inputs_to_atoms_and_pack_their_blocks() {
        let sup = supports(&depthwise(40, 1)[..], [40, 40, 1, 1]);
        let cs = chunks(&sup, [40, 40, 1, 1], 16, 16, 2);
        let got: Vec<_> = cs.iter().map(|c| (c.k0, c.k, c.c0, c.c, c.w_off)).collect();
        assert_eq!(
            got,
            [
                (0, 16, 0, 16, 0),
                (16, 16, 16, 16, 512),
                (32, 8, 32, 8, 1024)
            ]
        );
        // 16 × 16 fp16 = 512 bytes; 8 × 8 = 128.
        assert_eq!(cs[2].w_bytes, 128);
    }

    #[test]
    fn choose_takes_the_cheapest_step_that_fits() {
        let sup = supports(&depthwise(64, 1)[..], [64, 64, 1, 1]);
        let pairs = |cs: &[Chunk]| cs.len();
        // Accept chunks of at most 20 input channels: steps 16 only.
        let shape = [64, 64, 1, 1];
        let cs = choose(&sup, shape, 16, 16, 2, usize::MAX, |c| c.c <= 20, pairs).unwrap();
        assert_eq!(cs.len(), 4);
        let cs = choose(&sup, shape, 16, 16, 2, usize::MAX, |c| c.c <= 40, pairs).unwrap();
        assert_eq!(cs.iter().map(|c| c.k).collect::<Vec<_>>(), [32, 32]);
        // The cost decides: weight bytes alone prefer the smallest chunks.
        let bytes = |cs: &[Chunk]| cs.iter().map(|c| c.w_bytes).sum();
        let cs = choose(&sup, shape, 16, 16, 2, usize::MAX, |_| true, bytes).unwrap();
        assert_eq!(cs.len(), 4);
        // The weight's planned bytes bound the blocks: 2 chunks of 32×32 fp16.
        let cs = choose(&sup, shape, 16, 16, 2, 4096, |_| true, pairs).unwrap();
        assert_eq!(cs.len(), 2);
        assert!(choose(&sup, shape, 16, 16, 2, 1024, |_| true, pairs).is_none());
        // A dense conv: every chunk reads all channels, nothing helps.
        let dense = vec![1f32; 64 * 64];
        let sup = supports(&dense[..], shape);
        assert!(choose(&sup, shape, 16, 16, 2, usize::MAX, |_| true, pairs).is_none());
    }

    #[test]
    fn relayout_equals_encoding_each_chunk_on_its_own() {
        for (name, prec) in [
            (ConfigName::NvFull, Precision::Fp16),
            (ConfigName::NvSmall, Precision::Int8),
        ] {
            let cfg = Config::get(name);
            // 72 kernels over 72 channels, 3×3, block-diagonal in 3 groups
            // of 24 (a grouped conv), values small integers (exact in both).
            let (k, c, rs) = (72, 72, 9);
            let mut w = vec![0f32; k * c * rs];
            for kk in 0..k {
                for cc in (kk / 24 * 24)..(kk / 24 * 24 + 24) {
                    for i in 0..rs {
                        w[(kk * c + cc) * rs + i] = ((kk * 7 + cc * 3 + i) % 11) as f32 - 5.0;
                    }
                }
            }
            let shape = [k, c, 3, 3];
            let whole = conv_dc(&w, shape, &cfg, prec, 0);
            let cpa = cfg.channels_per_atom(prec);
            let sup = supports(&w[..], shape);
            let cs = chunks(&sup, shape, 24, cpa, prec.bytes());
            let got = relayout(
                &whole,
                shape,
                &cs,
                kernels_per_group(&cfg, prec),
                cfg.atomic_c,
                prec.bytes(),
            );
            let mut want = Vec::new();
            for ch in &cs {
                let mut sub = Vec::new();
                for kk in ch.k0..ch.k0 + ch.k {
                    for cc in ch.c0..ch.c0 + ch.c {
                        let at = (kk * c + cc) * rs;
                        sub.extend_from_slice(&w[at..at + rs]);
                    }
                }
                let e = conv_dc(&sub, [ch.k, ch.c, 3, 3], &cfg, prec, 0);
                assert_eq!(e.len(), ch.w_bytes, "{name}");
                want.extend(e);
            }
            assert_eq!(got, want, "{name}");
            let mut direct = vec![0u8; want.len()];
            chunks_dc_into(&w[..], shape, &cs, &cfg, prec, 0, &mut direct);
            assert_eq!(direct, want, "{name}: encoded straight from the values");
        }
    }
}
