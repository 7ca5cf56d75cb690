//! Scales of tensors the lowering made, which no calibrator observed
//! (it runs the ONNX graph): each derived exactly, or from a partial-sum
//! entry the calibrator wrote for it; never guessed.
//!
//! In: the program, the resolved scales by tensor, and the partial-sum
//! entries (`"<ONNX node>#psum"` → the largest prefix/suffix magnitude of
//! that Gemm's reduction, as `onnc_calib::psum` observes it). Out: scales
//! added for
//! * **selection convolutions** — an SDP that passes through (no X1, X2 or
//!   Y operation) the accumulator of a convolution whose every kernel has
//!   at most one non-zero weight, equal to 1 (channel shuffles, Concat
//!   members moved into place): each output is an input value or 0, so
//!   the output takes the input's scale, exactly;
//! * **partial sums of a split reduction** — an SDP that passes through the
//!   accumulator of a convolution over a channel range (a Slice, or a
//!   selection convolution picking consecutive channels) of a
//!   Gemm's input, the ONNX node of the op having a `#psum` entry `m`: a
//!   range that starts at channel 0 or ends at the last channel is a prefix
//!   or suffix of the reduction (within `m`); a range in the middle is a
//!   difference of two prefixes (within `2m`). The scale is that bound /
//!   127, so the partial sum never saturates on the calibration data;
//! * **clamps to [0, 1]** — an SDP ending in `min(relu(·), 1)`, as a
//!   `HardSigmoid` lowers (nv_small's `HardSwish` = `x · HardSigmoid(x)`
//!   makes one): the scale 1/127, exactly;
//! * **bounded element-wise results** — a standalone SDP (its input read
//!   from memory) whose input and feature operands have scales and whose
//!   sub-units only add, take the max or min, multiply and apply ReLU: the
//!   output's range by interval arithmetic ([`super::bounds`]), scale
//!   bound / 127. The no-LUT Sigmoid of nv_small makes these (a ramp
//!   `w · clamp(α·x + β, 0, 1)` is bounded by `w`, a partial sum of ramps
//!   by the sum of their weights); any range the ops cannot exceed is
//!   exact, so nothing saturates;
//!
//! and a note per kind naming the first few derived tensors.

use std::collections::BTreeMap;

use crate::program::{Engine, Program, TensorId, TensorKind};

/// What ends a partial-sum entry's key (as `onnc_calib::psum::PSUM_SUFFIX`).
pub const PSUM_SUFFIX: &str = "#psum";

/// INT8's largest magnitude.
const QMAX: f64 = 127.0;

/// Adds derivable scales to `scales` (see the module doc); returns the
/// notes (one per kind of derivation that applied).
pub(crate) fn derive_missing(
    p: &Program,
    scales: &mut BTreeMap<TensorId, (f64, i64)>,
    psums: &BTreeMap<String, f64>,
) -> Vec<String> {
    let (mut selections, mut partials, mut clamped) = (Vec::new(), Vec::new(), Vec::new());
    let mut bounded = Vec::new();
    for op in &p.ops {
        if op.engine == Engine::Sdp && !scales.contains_key(&op.output) && unit_interval(p, op) {
            scales.insert(op.output, (1.0 / QMAX, 0));
            clamped.push(p.tensors[op.output].name.clone());
        }
    }
    for _ in 0..=p.ops.len() {
        let mut changed = false;
        for op in &p.ops {
            if op.engine != Engine::Sdp || scales.contains_key(&op.output) {
                continue;
            }
            if !passes_through(op) {
                if let Some((bound, whole, middle)) = summed_parts(p, op, psums) {
                    if bound > 0.0 {
                        scales.insert(op.output, (bound / QMAX, 0));
                        partials.push(format!(
                            "'{}' ({} of '{whole}', a sum of its parts)",
                            p.tensors[op.output].name,
                            if middle {
                                "twice the prefix range"
                            } else {
                                "the prefix/suffix range"
                            }
                        ));
                        changed = true;
                        continue;
                    }
                }
                let scale = |t: TensorId| match scales.get(&source_of(p, t)) {
                    Some(&(s, 0)) => Some(s),
                    _ => None,
                };
                if let Some(b) = super::bounds::sdp_output(p, op, &scale).map(|v| v.bound()) {
                    // A tensor that is always 0 (a ramp beyond the input's
                    // range) can take any scale: 1/127, as an all-zero
                    // calibration entry does.
                    let s = if b > 0.0 { b / QMAX } else { 1.0 / QMAX };
                    scales.insert(op.output, (s, 0));
                    bounded.push(format!("'{}' (±{b:.4})", p.tensors[op.output].name));
                    changed = true;
                }
                continue;
            }
            let Some(conv) = accumulator_conv(p, op) else {
                continue;
            };
            let (Some(x), Some(w)) = (
                conv.inputs.first().copied().flatten(),
                conv.inputs.get(1).copied().flatten(),
            ) else {
                continue;
            };
            let name = &p.tensors[op.output].name;
            if is_selection(p, w) {
                if let Some(&s) = scales.get(&source_of(p, x)) {
                    scales.insert(op.output, s);
                    selections.push(name.clone());
                    changed = true;
                }
                continue;
            }
            if let Some((m, whole, middle)) = partial_sum(p, op, x, psums) {
                let bound = if middle { 2.0 * m } else { m };
                if bound > 0.0 {
                    scales.insert(op.output, (bound / QMAX, 0));
                    partials.push(format!(
                        "'{name}' ({} of '{whole}')",
                        if middle {
                            "twice the prefix range"
                        } else {
                            "the prefix/suffix range"
                        }
                    ));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut notes = Vec::new();
    if !selections.is_empty() {
        notes.push(format!(
            "{} tensor{} made by lowering (selection convolutions: data movement) {} the scale of {} input: {}",
            selections.len(),
            if selections.len() == 1 { "" } else { "s" },
            if selections.len() == 1 { "takes" } else { "take" },
            if selections.len() == 1 { "its" } else { "their" },
            listed(&selections)
        ));
    }
    if !partials.is_empty() {
        notes.push(format!(
            "{} partial sum{} of a split reduction {} the calibrated range of its partial sums: {}",
            partials.len(),
            if partials.len() == 1 { "" } else { "s" },
            if partials.len() == 1 { "takes" } else { "take" },
            listed(&partials)
        ));
    }
    if !bounded.is_empty() {
        notes.push(format!(
            "{} tensor{} made by lowering (element-wise steps of calibrated tensors) {} the scale of {} range: {}",
            bounded.len(),
            if bounded.len() == 1 { "" } else { "s" },
            if bounded.len() == 1 { "takes" } else { "take" },
            if bounded.len() == 1 { "its" } else { "their" },
            listed(&bounded)
        ));
    }
    if !clamped.is_empty() {
        notes.push(format!(
            "{} tensor{} made by lowering (clamped to [0, 1]: HardSigmoid) {} the scale 1/127: {}",
            clamped.len(),
            if clamped.len() == 1 { "" } else { "s" },
            if clamped.len() == 1 { "takes" } else { "take" },
            listed(&clamped)
        ));
    }
    notes
}

/// Whether SDP `op` ends in `min(relu(·), 1)` — HardSigmoid's clamp, as
/// the lowering packs it: the last enabled sub-unit is an ALU `min` (no
/// multiplier, no activation) whose per-kernel operand is 1 everywhere, and
/// the sub-unit before it ends in ReLU. Its output lies in [0, 1], so the
/// scale 1/127 is exact (no calibration data needed).
fn unit_interval(p: &Program, op: &crate::program::Op) -> bool {
    let enabled: Vec<(&str, usize)> = [("x1_op", 1), ("x2_op", 2), ("y_op", 3)]
        .into_iter()
        .filter(|(u, _)| op.int(&format!("{u}.enable")).unwrap_or(0) != 0)
        .collect();
    let [.., (prev, _), (last, slot)] = enabled.as_slice() else {
        return false;
    };
    let attr = |u: &str, k: &str| op.str(&format!("{u}.{k}")).unwrap_or("");
    if attr(prev, "act") != "relu"
        || attr(last, "type") != "add"
        || attr(last, "alu_type") != "min"
        || attr(last, "act") != "none"
        || attr(last, "mode") != "per_kernel"
    {
        return false;
    }
    let Some(t) = op.inputs.get(*slot).copied().flatten() else {
        return false;
    };
    let TensorKind::Weight(values) = &p.tensors[t].kind else {
        return false;
    };
    let v = values.values();
    !v.is_empty() && v.iter().all(|&x| x == 1.0)
}

/// The first few of `names`, quoted, and how many more.
fn listed(names: &[String]) -> String {
    const SHOWN: usize = 4;
    let quoted = |n: &String| {
        if n.starts_with('\'') {
            n.clone()
        } else {
            format!("'{n}'")
        }
    };
    let mut s: Vec<String> = names.iter().take(SHOWN).map(quoted).collect();
    if names.len() > SHOWN {
        s.push(format!("(and {} more)", names.len() - SHOWN));
    }
    s.join(", ")
}

/// Whether SDP `op` writes its input unchanged (apart from the converter):
/// no X1, X2 or Y operation enabled.
fn passes_through(op: &crate::program::Op) -> bool {
    ["x1_op.enable", "x2_op.enable", "y_op.enable"]
        .iter()
        .all(|a| op.int(a).unwrap_or(0) == 0)
}

/// The convolution whose accumulator SDP `op` reads.
fn accumulator_conv<'p>(p: &'p Program, op: &crate::program::Op) -> Option<&'p crate::program::Op> {
    let t = op.inputs.first().copied().flatten()?;
    if p.tensors[t].kind != TensorKind::Fused {
        return None;
    }
    let conv = &p.ops[p.producer(t)?];
    (conv.engine == Engine::Conv).then_some(conv)
}

/// Whether weight `w` (`[K, C, kh, kw]`) gives every kernel at most one
/// non-zero value, equal to 1.
pub(crate) fn is_selection(p: &Program, w: TensorId) -> bool {
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        return false;
    };
    let k = p.tensors[w].shape.first().copied().unwrap_or(0);
    let v = values.values();
    if k == 0 || v.is_empty() || v.len() % k != 0 {
        return false;
    }
    v.chunks(v.len() / k).all(|kernel| {
        let mut nz = kernel.iter().filter(|&&x| x != 0.0);
        nz.clone().all(|&x| x == 1.0) && nz.nth(1).is_none()
    })
}

/// The tensor whose scale `t` has: back through scale-preserving ops.
fn source_of(p: &Program, t: TensorId) -> TensorId {
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        match p.producer(cur).map(|i| &p.ops[i]) {
            Some(o) if o.engine.keeps_scale() && o.engine != Engine::Concat => {
                match o.inputs.first().copied().flatten() {
                    Some(n) => cur = n,
                    None => break,
                }
            }
            _ => break,
        }
    }
    cur
}

/// For an SDP reading a convolution over a channel range `x`: the
/// partial-sum entry of the op's ONNX node or result name (or a
/// `/`-prefix of one), its key's node, and whether the slice is in the middle of the channels.
fn partial_sum(
    p: &Program,
    op: &crate::program::Op,
    x: TensorId,
    psums: &BTreeMap<String, f64>,
) -> Option<(f64, String, bool)> {
    let (start, len, channels) = channel_range(p, x)?;
    let middle = start > 0 && start + len < channels;
    // The op's ONNX nodes, then its result's name (`<node>/conv/part1`).
    let names = op
        .onnx_nodes
        .iter()
        .chain(std::iter::once(&p.tensors[op.output].name));
    names.into_iter().find_map(|n| {
        std::iter::once(n.as_str())
            .chain(n.match_indices('/').map(|(i, _)| &n[..i]))
            .find_map(|prefix| psums.get(prefix).map(|&m| (m, prefix.to_string(), middle)))
    })
}

/// For an SDP adding, to the accumulator of a convolution over a channel
/// range, the bias (a constant, on the part from channel 0, where the
/// legalizer puts it) and results of other parts of the same split
/// (`<conv>/part1`, or sums of parts): the bound of its values — the
/// partial-sum entry's range `m` (twice it for channels in the middle),
/// plus the largest |bias| (the entries exclude the bias) — the entry's key,
/// and whether the channels summed are in the middle. `None` for anything
/// else (a multiplier, an activation, an operand from elsewhere, or parts
/// that do not join into one range).
fn summed_parts(
    p: &Program,
    op: &crate::program::Op,
    psums: &BTreeMap<String, f64>,
) -> Option<(f64, String, bool)> {
    let r = parts_range(p, op, psums, 0)?;
    let m = *psums.get(&r.key)?;
    let middle = r.lo > 0 && r.hi < r.channels;
    let bound = if middle { 2.0 * m } else { m } + r.bias;
    Some((bound, r.key, middle))
}

/// What [`parts_range`] finds.
struct PartsRange {
    /// The channels `[lo, hi)` of `channels` summed.
    lo: usize,
    hi: usize,
    channels: usize,
    /// The partial-sum entry's key.
    key: String,
    /// The largest |bias| added (0 without one).
    bias: f64,
}

/// The channels the partial-sum SDP `op` sums, its entry's key and its
/// bias (see [`summed_parts`]).
fn parts_range(
    p: &Program,
    op: &crate::program::Op,
    psums: &BTreeMap<String, f64>,
    depth: usize,
) -> Option<PartsRange> {
    if depth > p.ops.len() || op.engine != Engine::Sdp {
        return None;
    }
    let x = accumulator_conv(p, op)?.inputs.first().copied().flatten()?;
    let (_, key, _) = partial_sum(p, op, x, psums)?;
    let (start, len, channels) = channel_range(p, x)?;
    let (mut lo, mut hi) = (start, start + len);
    let mut bias = 0f64;
    for (unit, slot) in [("x1_op", 1), ("x2_op", 2), ("y_op", 3)] {
        let attr = |k: &str| op.str(&format!("{unit}.{k}")).unwrap_or("");
        if op.int(&format!("{unit}.enable")).unwrap_or(0) == 0 {
            continue;
        }
        if !matches!(attr("act"), "" | "none") {
            return None;
        }
        match attr("type") {
            "" | "none" => continue,
            "add" if attr("alu_type") == "sum" => {}
            _ => return None,
        }
        let t = op.inputs.get(slot).copied().flatten()?;
        if let TensorKind::Weight(w) = &p.tensors[t].kind {
            bias += w
                .values()
                .iter()
                .fold(0f64, |m, &v| m.max(f64::from(v).abs()));
            continue;
        }
        let part = &p.ops[p.producer(source_of(p, t))?];
        let r = parts_range(p, part, psums, depth + 1)?;
        if r.key != key || r.channels != channels || !(r.hi == lo || r.lo == hi) {
            return None;
        }
        lo = lo.min(r.lo);
        hi = hi.max(r.hi);
        bias += r.bias;
    }
    Some(PartsRange {
        lo,
        hi,
        channels,
        key,
        bias,
    })
}

/// The channels `[start, start + len)` of a tensor of `channels` channels
/// that `x` holds: `x` made by a channel Slice, or by a pass-through SDP of
/// a selection convolution picking consecutive channels in order.
fn channel_range(p: &Program, x: TensorId) -> Option<(usize, usize, usize)> {
    let len = *p.tensors[x].shape.get(1)?;
    let op = &p.ops[p.producer(x)?];
    match op.engine {
        Engine::Slice => {
            let whole = op.inputs.first().copied().flatten()?;
            let channels = *p.tensors[whole].shape.get(1)?;
            let start = usize::try_from(op.int("c_start").unwrap_or(0)).ok()?;
            Some((start, len, channels))
        }
        Engine::Sdp if passes_through(op) => {
            let conv = accumulator_conv(p, op)?;
            let w = conv.inputs.get(1).copied().flatten()?;
            let whole = conv.inputs.first().copied().flatten()?;
            let channels = *p.tensors[whole].shape.get(1)?;
            let TensorKind::Weight(values) = &p.tensors[w].kind else {
                return None;
            };
            let v = values.values();
            // 1×1 kernels [len, channels]: row k has its 1 at start + k.
            if !is_selection(p, w) || v.len() != len * channels {
                return None;
            }
            let picked: Vec<usize> = v
                .chunks(channels)
                .map(|row| row.iter().position(|&z| z == 1.0))
                .collect::<Option<_>>()?;
            let start = *picked.first()?;
            picked
                .iter()
                .enumerate()
                .all(|(k, &c)| c == start + k)
                .then_some((start, len, channels))
        }
        _ => None,
    }
}
