//! Which convolutions are emitted as independent channel chunks, decided
//! once for the memory plan and the emitter.
//!
//! In: a lowered [`Program`] (shapes, attributes, weight values) and its
//! [`Config`]. Out: per conv weight, the [`Chunk`]s its conv is emitted as
//! ([`chunked_weights`]), or nothing for a conv emitted whole. The memory
//! plan sizes such a weight as its chunks' blocks ([`planned_bytes`]), the
//! encoder lays its blob out as those blocks and the emitter describes one
//! conv+SDP pair per chunk: all three read this one decision.
//!
//! Rules ([`decide`]):
//! * only a conv whose accumulator the next hardware op (an SDP) reads, and
//!   whose weight no other op reads, can be chunked;
//! * the chunk size is [`choose`]'s: the cheapest step by the cost estimate
//!   (MAC atoms + weight and input bytes / 32 + [`super::chan_split::PAIR_CYCLES`]
//!   per pair) among those whose every chunk fits the CBUF;
//! * a conv that fits the CBUF whole is chunked only when its blocks total
//!   fewer bytes than the dense weight, the chunks cost less than the whole
//!   conv by the same estimate (a 20-channel nearest upsample's selection
//!   conv stays one pair instead of 8), and its SDP writes to memory (an SDP
//!   streaming into the PDP cannot be cut); one that does not fit whole is
//!   chunked whenever some step fits (the emitter then refuses a streaming
//!   SDP, naming it).
//!
//! A grouped conv (`group` > 1, weight `[K, C/group, R, S]`) is decided on
//! its dense `[K, C, R, S]` kernel, read through
//! [`crate::grouped_kernel::DenseView`] (zeros outside the groups).
//!
//! Example: a depthwise 3×3 conv over 96 channels (weight `[96, 1, 3, 3]`,
//! `group = 96`), whose dense `[96, 96, 3, 3]` FP16 layout would be 165,888
//! bytes, becomes chunks of 16 or 32 channels whose blocks total 4,608 or
//! 9,216 bytes on nv_full.

use std::collections::BTreeMap;

use super::attrs::A;
use super::chan_split::{choose, supports, PAIR_CYCLES};
use super::split::{self, Cbuf, Chunk, ConvGeom, ConvPlan};
use super::weights::{conv_dc_len, kernels_per_group, Values};
use crate::config::Config;
use crate::grouped_kernel::{conv_group, dense_shape, DenseView};
use crate::program::{Engine, Op, Program, TensorId, TensorKind};
use crate::{Error, Result};

fn nchw(p: &Program, t: TensorId) -> Result<[usize; 4]> {
    let tensor = &p.tensors[t];
    <[usize; 4]>::try_from(tensor.shape.as_slice()).map_err(|_| Error::Tensor {
        tensor: tensor.name.clone(),
        problem: format!(
            "feature tensors must be 4-D [N, C, H, W], got {:?}",
            tensor.shape
        ),
    })
}

/// The CBUF plan (banks and row bands) of conv `op` of `p`, whole or of
/// one channel `chunk` of it; an error when it does not fit.
pub(crate) fn cbuf_plan(
    p: &Program,
    cfg: &Config,
    op: &Op,
    chunk: Option<&Chunk>,
) -> Result<ConvPlan> {
    let (geom, cbuf) = conv_geom(p, cfg, op, chunk)?;
    split::plan(&geom, &cbuf).map_err(|m| A::new(op).op_err(format!("{m} ({})", cfg.name)))
}

/// What [`split::plan`] reads of conv `op` of `p` (whole or one channel
/// `chunk`), and the CBUF shape of `cfg`.
pub(crate) fn conv_geom(
    p: &Program,
    cfg: &Config,
    op: &Op,
    chunk: Option<&Chunk>,
) -> Result<(ConvGeom, Cbuf)> {
    let a = A::new(op);
    let x = op
        .inputs
        .first()
        .copied()
        .flatten()
        .ok_or_else(|| a.op_err("operand 0 is missing"))?;
    let w = op
        .inputs
        .get(1)
        .copied()
        .flatten()
        .ok_or_else(|| a.op_err("operand 1 is missing"))?;
    let [_, c, h, wd] = nchw(p, x)?;
    let wt = &p.tensors[w];
    let group = conv_group(op);
    let [k, wc, r, s] = dense_shape(&wt.shape, group).ok_or_else(|| {
        a.op_err(format!(
            "weight '{}' must be [K, C/group, R, S] with K a multiple of group = {group}, got {:?}",
            wt.name, wt.shape
        ))
    })?;
    let (c, wc, k) = chunk.map_or((c, wc, k), |ch| (ch.c, ch.c, ch.k));
    let [_, _, e, _] = nchw(p, op.output)?;
    let in_p = a.precision("in_precision")?;
    let entry = cfg.cbuf_entry_bytes.max(1);
    let per_entry = (entry / cfg.mem_atom_bytes).max(1);
    let atoms = (c * in_p.bytes()).div_ceil(cfg.mem_atom_bytes);
    let rem = atoms % per_entry;
    let frac = match rem {
        0 => 0,
        3 => wd,
        _ => (rem * wd).div_ceil(per_entry),
    };
    let eps = (atoms / per_entry) * wd + frac;
    let wbytes = match chunk {
        Some(ch) => ch.w_bytes,
        None if wt.is_weight() => conv_dc_len([k, wc, r, s], wt.precision),
        None => 0,
    };
    let bpk = wc * r * s * in_p.bytes();
    let kpg = super::weights::kernels_per_group(cfg, in_p);
    let geom = ConvGeom {
        eps,
        in_h: h,
        out_h: e,
        r,
        stride: a.reg("conv_stride_y")? as usize,
        dilation: a.reg("dilation_y")? as usize,
        pad_top: a.reg("pad_y_top")? as usize,
        pad_bottom: a.reg("pad_y_bottom")? as usize,
        weight_entries: wbytes.div_ceil(entry),
        group_entries: (bpk * kpg.min(k)).div_ceil(entry),
    };
    let cbuf = Cbuf {
        banks: cfg.cbuf_banks,
        entries_per_bank: (cfg.cbuf_bank_bytes / entry).max(1),
    };
    Ok((geom, cbuf))
}

/// The op right after op `k` that does work (virtual views skipped).
fn next_hw_op(p: &Program, k: usize) -> Option<&Op> {
    p.ops[k + 1..].iter().find(|o| !o.engine.is_virtual())
}

/// The chunks conv op `k` of `p` is emitted as, or `None` when it is
/// emitted whole (see the module doc). Deterministic: it reads only the
/// program, never placements or encoded blobs.
pub(crate) fn decide(p: &Program, cfg: &Config, k: usize) -> Option<Vec<Chunk>> {
    let op = p.ops.get(k)?;
    if op.engine != Engine::Conv {
        return None;
    }
    let x = op.inputs.first().copied().flatten()?;
    let w = op.inputs.get(1).copied().flatten()?;
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        return None;
    };
    let group = conv_group(op);
    let stored = <[usize; 4]>::try_from(p.tensors[w].shape.as_slice()).ok()?;
    if values.len() != stored.iter().product::<usize>() {
        return None;
    }
    let shape = dense_shape(&stored, group)?;
    let sdp = next_hw_op(p, k)
        .filter(|s| s.engine == Engine::Sdp && s.inputs.first() == Some(&Some(op.output)))?;
    let whole_fits = cbuf_plan(p, cfg, op, None).is_ok();
    let streams = matches!(p.tensors[sdp.output].kind, TensorKind::Fused);
    if whole_fits && streams {
        return None;
    }
    let cpa_in = cfg.channels_per_atom(p.tensors[x].precision);
    // Every cube the chunk's SDP writes or reads per point starts at a
    // surface boundary.
    let mut cpa_out = cfg.channels_per_atom(p.tensors[op.output].precision);
    for t in std::iter::once(sdp.output).chain(sdp.inputs.iter().skip(1).flatten().copied()) {
        if !matches!(p.tensors[t].kind, TensorKind::Weight(_)) {
            cpa_out = cpa_out.max(cfg.channels_per_atom(p.tensors[t].precision));
        }
    }
    let prec = p.tensors[w].precision;
    let elem = prec.bytes();
    let dense = conv_dc_len(shape, prec);
    // Chunks of a conv that fits whole must save bytes.
    let budget = if whole_fits {
        dense.checked_sub(1)?
    } else {
        dense
    };
    let [_, _, h, wd] = nchw(p, x).ok()?;
    let [_, _, oh, ow] = nchw(p, op.output).ok()?;
    let (r, s) = (shape[2], shape[3]);
    let kpg = kernels_per_group(cfg, prec).max(1);
    // MAC atoms, weight and input bytes at 32 per cycle, a fixed cost per pair.
    let cost = |cs: &[Chunk]| -> usize {
        cs.iter()
            .map(|ch| {
                let macs =
                    oh * ow * ch.k.div_ceil(kpg) * ch.c.div_ceil(cfg.atomic_c.max(1)) * r * s;
                macs + (ch.w_bytes + ch.c * h * wd * elem) / 32 + PAIR_CYCLES
            })
            .sum()
    };
    let sup = match values.row_scaled() {
        Some(r) => grouped_supports(&r, stored, group),
        None => grouped_supports(&super::weights::LeF32s::of(values), stored, group),
    };
    let chosen = choose(
        &sup,
        shape,
        cpa_in,
        cpa_out,
        elem,
        budget,
        |ch| cbuf_plan(p, cfg, op, Some(ch)).is_ok(),
        cost,
    )?;
    // A conv that fits whole is chunked only when that is also cheaper by
    // the same estimate: a small sparse conv (the 0/1 selection conv of a
    // nearest upsample) saves a few bytes and would pay a pair per chunk.
    if whole_fits {
        let [kk, cc] = [shape[0], shape[1]];
        let whole = oh * ow * kk.div_ceil(kpg) * cc.div_ceil(cfg.atomic_c.max(1)) * r * s
            + (dense + cc * h * wd * elem) / 32
            + PAIR_CYCLES;
        if cost(&chosen) >= whole {
            return None;
        }
    }
    Some(chosen)
}

/// [`supports`] of the dense kernel of a `[K, C/group, R, S]` weight `w`
/// (read through [`DenseView`] when grouped).
fn grouped_supports<V: Values + ?Sized>(
    w: &V,
    stored: [usize; 4],
    group: usize,
) -> Vec<Option<(usize, usize)>> {
    match DenseView::new(w, stored, group) {
        Some(view) if group > 1 => {
            supports(&view, [stored[0], stored[1] * group, stored[2], stored[3]])
        }
        _ => supports(w, stored),
    }
}

/// Every conv weight whose conv is emitted in channel chunks, with its
/// chunks ([`decide`]); a weight read by more than one op is never chunked.
pub(crate) fn chunked_weights(p: &Program, cfg: &Config) -> BTreeMap<TensorId, Vec<Chunk>> {
    let mut readers = vec![0usize; p.tensors.len()];
    for op in &p.ops {
        for t in op.inputs.iter().flatten() {
            readers[*t] += 1;
        }
    }
    let mut out = BTreeMap::new();
    for (k, op) in p.ops.iter().enumerate() {
        let Some(w) = op.inputs.get(1).copied().flatten() else {
            continue;
        };
        if op.engine != Engine::Conv || readers[w] != 1 {
            continue;
        }
        if let Some(chunks) = decide(p, cfg, k) {
            out.insert(w, chunks);
        }
    }
    out
}

/// Multiply-accumulates each op of `p` computes as emitted, by op index:
/// a conv's output pixels × kernels × its kernels' channels × taps, summed
/// over its channel chunks when it is emitted in chunks ([`chunked_weights`]:
/// a grouped or depthwise conv multiplies only its diagonal blocks,
/// widened to whole input atoms); 0 for other engines. The counts are the
/// products, not the MAC-array cycles (no atom rounding of the kernels).
pub fn conv_macs(p: &Program) -> Vec<u64> {
    let cfg = Config::get(p.config);
    let chunked = chunked_weights(p, &cfg);
    p.ops
        .iter()
        .map(|op| {
            if op.engine != Engine::Conv {
                return 0;
            }
            let Some(w) = op.inputs.get(1).copied().flatten() else {
                return 0;
            };
            let Some([k, c, r, s]) = dense_shape(&p.tensors[w].shape, conv_group(op)) else {
                return 0;
            };
            let out = p.tensors[op.output].elements() as u64;
            let pixels = if k > 0 { out / k as u64 } else { 0 };
            let taps = (r * s) as u64;
            match chunked.get(&w) {
                Some(chunks) => chunks
                    .iter()
                    .map(|ch| pixels * (ch.k * ch.c) as u64 * taps)
                    .sum(),
                None => pixels * (k * c) as u64 * taps,
            }
        })
        .collect()
}

/// Bytes of a chunked weight's blob: its chunks' blocks, one after the
/// other.
pub(crate) fn planned_bytes(chunks: &[Chunk]) -> u64 {
    chunks.iter().map(|c| c.w_bytes as u64).sum()
}
