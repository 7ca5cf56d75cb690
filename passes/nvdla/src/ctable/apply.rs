//! `apply_scales`: per-tensor scales ([`TensorScales`]) turned into the
//! converter registers of a [`Program`].
//!
//! In: a program and the scales (from any per-tensor format). Out: the INT8
//! ops' converter registers set and [`LoadStats`]; FP16 ops are left alone.
//!
//! Formulas (real = q · scale, symmetric INT8):
//! * a tensor not in the table inherits its scale through scale-preserving
//!   producers (PDP, reshape, slice, concat's first member, BDMA, RUBIK);
//! * SDP producing `t` ([`super::sdp_cal`]): after a fused conv, each
//!   kernel's weights get their own scale `s_w[k] = max|w_k| / 127` and
//!   the X1 unit's per-kernel multiplier brings every channel to one unit
//!   `U` ([`super::perchan`]); a layer that cannot (PReLU on X1, equal
//!   kernel scales, ...) keeps one `s_w = max|w| / 127` and its accumulator
//!   unit `U = s_in · s_w`; without a conv `U = s_in`. The ratio
//!   `M = U / s_t` becomes `out_cvt.scale = round(M · 2^n)` (a positive
//!   int16 mantissa, as large as fits) and `out_cvt.truncate = n` (0..=63),
//!   so `q_t = (x · scale) >> n`; `out_cvt.offset = offset`;
//! * EMU producing `t`: `input_scale_factor = s_in`, `output_scale_factor = s_t`;
//! * weights are put in those units ([`super::units`]): a fused conv's
//!   weights are divided by their (kernel's) `s_w` (conv `out_cvt.truncate`
//!   0), an SDP add operand by the unit it is added in, a MUL factor is
//!   encoded with the largest `truncate` that fits. The program's weight
//!   values change, so apply a table once;
//! * each calibrated SDP and EMU op gets its quantization record
//!   (`quant.*`, [`crate::qrecord`]): scales, weight mode (and why per
//!   tensor), method (a TensorRT cache's algorithm) and the table format.
//!
//! Names: an entry keyed by a tensor the program does not have (a tensor
//! fusion removed, e.g. a conv output fused into its ReLU, or a BN output)
//! is accepted and listed in [`LoadStats::unmatched`] (with the nearest
//! names), to print as a note. An entry keyed by a layer
//! ([`TensorScales::layer_inputs`], AMCT) gives the scale of the data input of the
//! first hardware op that starts with that ONNX node (`onnx_nodes[0]`); a
//! key that names no such layer but a tensor gives that tensor's scale (how
//! graph outputs, which feed no layer, are written).
//! When several entries give one tensor different scales, the largest (the
//! widest range) is used and a note says so.
//!
//! Tensors the lowering made (selection convolutions, partial sums of a
//! split Gemm) get scales derived exactly or from the calibrator's
//! partial-sum entries (`"<node>#psum"`, [`super::derive`]), each with a note.
//!
//! Every INT8 converter needs the scale of its output and of its input: a
//! table that lacks some is refused with [`Error::MissingScales`]
//! (the first few names, the count, and how to fix it).
//!
//! ```
//! use onnc_nvdla::ctable::fixed_point;
//! assert_eq!(fixed_point(0.5), Some((16384, 15)));
//! let (m, n) = fixed_point(0.0123).unwrap();
//! assert!((m as f64 / 2f64.powi(n as i32) - 0.0123).abs() < 1e-6);
//! ```

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use super::error::MAX_NAMED;
use super::json::clip;
use super::load::LoadStats;
use super::names::nearest;
use super::scales::TensorScales;
use super::units::Divide;
use crate::program::{Engine, Precision, Program, Tensor, TensorId, TensorKind, Value, Weights};
use crate::qrecord::QuantRecord;
use crate::Error;

/// `m · 2^-n ≈ ratio` with `m` the largest positive int16 mantissa and
/// `n` in 0..=63; `None` if the ratio is not positive or does not fit.
pub fn fixed_point(ratio: f64) -> Option<(i64, i64)> {
    if !(ratio.is_finite() && ratio > 0.0) {
        return None;
    }
    let mut best = None;
    for n in 0..=63 {
        let m = (ratio * 2f64.powi(n)).round();
        if m > i16::MAX as f64 {
            break;
        }
        best = Some((m as i64, n as i64));
    }
    best.filter(|(m, _)| *m > 0)
}

/// The resolved table: scale and offset by tensor, and the tensors found
/// missing while deriving registers.
struct Table {
    scales: BTreeMap<TensorId, (f64, i64)>,
    missing: RefCell<BTreeSet<TensorId>>,
}

/// How [`apply_scales_with`] quantizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplyOptions {
    /// Per-output-channel weight scales where the layer can apply them
    /// (the default); `false`: one scale per weight tensor everywhere.
    pub per_channel: bool,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions { per_channel: true }
    }
}

/// Sets `p`'s converter registers from `t` ([`ApplyOptions::default`]:
/// per-channel weights where possible). All-or-nothing: on error the
/// program is unchanged.
pub fn apply_scales(p: &mut Program, t: &TensorScales) -> Result<LoadStats, Error> {
    apply_scales_with(p, t, &ApplyOptions::default())
}

/// [`apply_scales`] with options.
pub fn apply_scales_with(
    p: &mut Program,
    t: &TensorScales,
    options: &ApplyOptions,
) -> Result<LoadStats, Error> {
    let file = t.file.as_str();
    let mut stats = LoadStats::default();
    let mut scales: BTreeMap<TensorId, (f64, i64, String)> = BTreeMap::new();
    let tensors = t.entries.iter().map(|(n, e)| (n, e, false));
    let layers = t.layer_inputs.iter().map(|(n, e)| (n, e, true));
    // Partial sums of split reductions ([`super::derive`]): the range, by node.
    let mut psums = BTreeMap::new();
    for (name, e, layer) in tensors.chain(layers) {
        if let Some(node) = name.strip_suffix(super::derive::PSUM_SUFFIX) {
            psums.insert(node.to_string(), f64::from(e.scale) * 127.0);
            continue;
        }
        let Some(id) = resolve(p, name, layer) else {
            // The hint compares the name with every tensor's: only for
            // the entries a message names (ConvNeXt-Tiny's 253 unmatched
            // entries took 10 s of a 16 s compile before).
            let hint = if stats.unmatched.len() >= MAX_NAMED {
                String::new()
            } else {
                match nearest(name, p.tensors.iter().map(|t| t.name.as_str())).first() {
                    Some(n) => format!(" (nearest tensor: '{n}')"),
                    None => String::new(),
                }
            };
            stats.unmatched.push(format!("'{}'{hint}", clip(name)));
            continue;
        };
        let new = (f64::from(e.scale), i64::from(e.offset), name.clone());
        match scales.get(&id) {
            Some(old) if old.0 != new.0 || old.1 != new.1 => {
                let keep = if new.0 > old.0 {
                    new.clone()
                } else {
                    old.clone()
                };
                stats.notes.push(format!(
                    "tensor '{}' is given scale {} by '{}' and {} by '{}'; the largest is used",
                    p.tensors[id].name, old.0 as f32, old.2, new.0 as f32, new.2
                ));
                scales.insert(id, keep);
            }
            Some(_) => {}
            None => {
                scales.insert(id, new);
            }
        }
    }
    let twins = super::twins::inherit_twins(p, &t.entries, &mut scales);
    if !twins.is_empty() {
        stats.notes.push(format!(
            "{} layout twin(s) take the scale of the op they replace, e.g. '{}'",
            twins.len(),
            clip(&twins[0])
        ));
    }
    let mut table = Table {
        scales: scales.into_iter().map(|(k, v)| (k, (v.0, v.1))).collect(),
        missing: RefCell::new(BTreeSet::new()),
    };
    inherit_through_views(p, &mut table.scales);
    super::copies::inherit_through_copies(p, &mut table.scales);
    stats
        .notes
        .extend(super::derive::derive_missing(p, &mut table.scales, &psums));

    let mut sets: Vec<(usize, &'static str, Value)> = Vec::new();
    let mut divide: Vec<Divide> = Vec::new();
    let mut x1_writes = Vec::new();
    let base = QuantRecord {
        method: method_of(t),
        format: Some(t.format.clone()),
        ..QuantRecord::default()
    };
    let mut errors = Vec::new();
    for (i, op) in p.ops.iter().enumerate() {
        let int8 = |attr: &str| op.str(attr) == Some("int8");
        let converts = match op.engine {
            Engine::Sdp => int8("dst_precision"),
            Engine::Emu => int8("precision"),
            _ => false,
        };
        if !converts {
            continue;
        }
        let input = op.inputs.first().copied().flatten();
        let Some(&(s_out, offset)) = table.scales.get(&concat_root(p, op.output, &table.scales))
        else {
            table.missing.borrow_mut().insert(op.output);
            // The input is needed too: list it in the same error.
            let _ = input.map(|t| match op.engine {
                Engine::Sdp => acc_unit(p, t, &table),
                _ => scale_of(p, t, &table),
            });
            continue;
        };
        let mut fail = |message: String| {
            if !message.starts_with(NEEDS) {
                errors.push(Error::Calibration {
                    file: file.into(),
                    tensor: p.tensors[op.output].name.clone(),
                    message,
                })
            }
        };
        match op.engine {
            Engine::Sdp => {
                match super::sdp_cal::calibrate_sdp(p, i, (s_out, offset), &base, options, &|t| {
                    scale_of(p, t, &table)
                }) {
                    Ok(cal) => {
                        sets.extend(cal.sets);
                        divide.extend(cal.divide);
                        x1_writes.extend(cal.x1);
                    }
                    Err(message) => fail(message),
                }
            }
            _ => match input
                .ok_or_else(|| format!("layer '{}' has no input", op.hw_layer))
                .and_then(|t| scale_of(p, t, &table))
            {
                Ok(s_in) => {
                    sets.push((
                        i,
                        "input_scale_factor",
                        Value::Float(f64::from(s_in as f32)),
                    ));
                    sets.push((
                        i,
                        "output_scale_factor",
                        Value::Float(f64::from(s_out as f32)),
                    ));
                    let rec = QuantRecord {
                        calibrated: true,
                        input_scale: Some(s_in),
                        output_scale: Some(s_out),
                        ..base.clone()
                    };
                    sets.extend(rec.to_attrs().into_iter().map(|(k, v)| (i, k, v)));
                }
                Err(message) => fail(message),
            },
        }
    }
    let missing = table.missing.into_inner();
    if !missing.is_empty() {
        return Err(Error::MissingScales {
            file: file.into(),
            tensors: missing.iter().map(|&t| clip(&p.tensors[t].name)).collect(),
            unmatched: stats.unmatched.clone(),
        });
    }
    // A weight shared by layers of different units cannot hold both.
    let mut by_tensor: BTreeMap<TensorId, Divide> = BTreeMap::new();
    for d in divide {
        if let Some(old) = by_tensor.get(&d.tensor) {
            if old != &d {
                errors.push(Error::Calibration {
                    file: file.into(),
                    tensor: p.tensors[d.tensor].name.clone(),
                    message:
                        "the weight is shared by INT8 layers whose accumulators have different units"
                            .into(),
                });
            }
        }
        by_tensor.insert(d.tensor, d);
    }
    Error::collect(file, errors)?;
    for (t, d) in by_tensor {
        if let TensorKind::Weight(w) = &mut p.tensors[t].kind {
            let mut v = std::mem::replace(w, Weights::new(Vec::new())).into_vec();
            let n = (d.divisors.len() * d.block).min(v.len());
            for (i, x) in v[..n].iter_mut().enumerate() {
                *x = (f64::from(*x) / d.divisors[i / d.block.max(1)]) as f32;
            }
            *w = Weights::new(v);
        }
    }
    for w in x1_writes {
        let t = match w.tensor {
            Some(t) => t,
            None => {
                let t = p.add_tensor(Tensor {
                    name: w.name,
                    shape: w.shape.clone(),
                    precision: Precision::Int16,
                    kind: TensorKind::Weight(Weights::new(Vec::new())),
                    place: None,
                });
                p.ops[w.sdp].inputs[1] = Some(t);
                t
            }
        };
        p.tensors[t].shape = w.shape;
        p.tensors[t].kind = TensorKind::Weight(Weights::new(w.values));
    }

    let mut touched = BTreeSet::new();
    for (i, name, value) in sets {
        let old = p.ops[i].attrs.insert(name.to_string(), value.clone());
        // The quantization record is not a register.
        if !crate::qrecord::is_quant_attr(name) {
            stats.registers += 1;
            stats.changed += usize::from(old.as_ref() != Some(&value));
        }
        touched.insert(i);
    }
    stats.layers = touched.len();
    stats.tensor_entries = table.scales.len();
    stats.notes.extend(t.notes.iter().cloned());
    Ok(stats)
}

/// The tensor an entry named `name` gives the scale of (`layer`: the name
/// is a layer's, the entry its input's scale).
fn resolve(p: &Program, name: &str, layer: bool) -> Option<TensorId> {
    let tensor = || p.tensors.iter().position(|t| t.name == name);
    if layer {
        layer_input(p, name).or_else(tensor)
    } else {
        tensor()
    }
}

/// The data input of layer `name`: the first input of the first hardware
/// op that starts with that ONNX node (`onnx_nodes[0]` is `name`, or
/// `name/<part>` when legalization split the node into parts and one part
/// kept the name: Gemm `ip2` → `ip2/reshape_in`, `ip2/conv`, `ip2`); `None`
/// if no op does (the node was fused into another's op, or is not in the
/// program).
pub(crate) fn layer_input(p: &Program, name: &str) -> Option<TensorId> {
    let first = |o: &crate::program::Op| o.onnx_nodes.first().cloned().unwrap_or_default();
    let split = p.ops.iter().any(|o| first(o) == name);
    let part = format!("{name}/");
    p.ops
        .iter()
        .find(|o| {
            let n = first(o);
            n == name || (split && n.starts_with(&part))
        })
        .and_then(|o| o.inputs.first().copied().flatten())
}

/// The layer (ONNX node) an op starting with node `n` belongs to: the
/// shortest `/`-prefix of `n` that some op starts with (see [`layer_input`]).
pub(crate) fn layer_of(p: &Program, n: &str) -> String {
    let exists = |c: &str| {
        p.ops
            .iter()
            .any(|o| o.onnx_nodes.first().is_some_and(|f| f == c))
    };
    n.match_indices('/')
        .map(|(i, _)| &n[..i])
        .find(|c| exists(c))
        .unwrap_or(n)
        .to_string()
}

/// The start of [`scale_of`]'s message for a tensor the table lacks (such
/// failures are reported together as [`Error::MissingScales`]).
const NEEDS: &str = "needs the scale of tensor";

/// The tensor whose scale `t` must be written in: a Concat member shares
/// its Concat's memory and so its unit (the outermost Concat with a table
/// entry); any other tensor is its own.
fn concat_root(p: &Program, t: TensorId, scales: &BTreeMap<TensorId, (f64, i64)>) -> TensorId {
    unit_root(p, t, &|x| scales.contains_key(&x))
}

/// [`concat_root`] for any record of which tensors have a scale (`has`):
/// the tensor whose scale the converter writing `t` writes in. Also read
/// by the INT8 check (`onnc_passes::sim_check::int8`) to dequantize what a
/// loadable stored, so both sides agree by construction.
pub fn unit_root(p: &Program, t: TensorId, has: &dyn Fn(TensorId) -> bool) -> TensorId {
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        match enclosing(p, cur) {
            Some(next) if has(next) || enclosing(p, next).is_some() => cur = next,
            _ => break,
        }
    }
    if has(cur) {
        cur
    } else {
        t
    }
}

/// The cube `t` is written inside: the result of the concat `t` is a
/// member of, or the result of a reshape of `t` that is itself a concat
/// member (an interleaved upsampling's rows reshaped into a concat), or
/// the result of a PDP, BDMA or RUBIK op reading `t` whose result is a
/// concat member: those ops have no converter, so their result is in
/// `t`'s unit and `t` must be written in the concat's (DenseNet's
/// transition: conv → average pool → the next block's concats).
fn enclosing(p: &Program, t: TensorId) -> Option<TensorId> {
    let member_of = |x: TensorId| {
        p.ops
            .iter()
            .find(|o| o.engine == Engine::Concat && o.inputs.contains(&Some(x)))
            .map(|o| o.output)
    };
    let unconverted = |e: Engine| {
        matches!(
            e,
            Engine::Reshape | Engine::Pdp | Engine::Bdma | Engine::Rubik
        )
    };
    member_of(t).or_else(|| {
        p.ops
            .iter()
            .find(|o| unconverted(o.engine) && o.inputs.first() == Some(&Some(t)))
            .map(|o| o.output)
            .filter(|&y| member_of(y).is_some())
    })
}

/// A table entry on the output of a scale-preserving op (PDP, view, BDMA,
/// RUBIK) cannot change that op's scale, but when the op's input has no
/// entry of its own it says what the input's scale is (a per-layer table
/// keyed by ONNX nodes names the Gemm, whose output here is a view of the
/// SDP's): the input inherits it, back to the converter that writes it.
fn inherit_through_views(p: &Program, scales: &mut BTreeMap<TensorId, (f64, i64)>) {
    for _ in 0..=p.ops.len() {
        let mut changed = false;
        for op in &p.ops {
            let preserving = matches!(
                op.engine,
                Engine::Pdp | Engine::Reshape | Engine::Slice | Engine::Bdma | Engine::Rubik
            );
            let Some(input) = op.inputs.first().copied().flatten() else {
                continue;
            };
            if preserving && !scales.contains_key(&input) {
                if let Some(&s) = scales.get(&op.output) {
                    scales.insert(input, s);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// The scale of tensor `t`: through scale-preserving producers (PDP,
/// views, BDMA, RUBIK: they have no converter, so a table entry for their
/// output, as a TensorRT cache has for every tensor, cannot apply), then
/// from the table. A tensor the table lacks is recorded in `table.missing`.
fn scale_of(p: &Program, t: TensorId, table: &Table) -> Result<f64, String> {
    let scales = &table.scales;
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        let producer = p.producer(cur).map(|i| &p.ops[i]);
        match producer {
            // Its members are written in its unit (`concat_root`).
            Some(op) if op.engine == Engine::Concat && scales.contains_key(&cur) => break,
            Some(op) if op.engine.keeps_scale() => match op.inputs.first().copied().flatten() {
                Some(next) => cur = next,
                None => break,
            },
            _ => break,
        }
    }
    // A concat member (or the input of a PDP writing one) is written in
    // its concat's unit (`concat_root`), which is what a reader of it
    // must take, not the member's own table entry.
    if let Some(&(s, _)) = scales.get(&concat_root(p, cur, scales)) {
        return Ok(s);
    }
    // The tensor a table entry would have to name (views have their source's).
    table.missing.borrow_mut().insert(cur);
    Err(format!(
        "{NEEDS} '{}' and the table has none",
        p.tensors[t].name
    ))
}

/// The unit of the SDP input `t`: `s_in · s_w` for a fused conv accumulator, else `s_in`.
fn acc_unit(p: &Program, t: TensorId, table: &Table) -> Result<f64, String> {
    if p.tensors[t].kind != TensorKind::Fused {
        return scale_of(p, t, table);
    }
    let conv = p
        .producer(t)
        .map(|i| &p.ops[i])
        .ok_or_else(|| format!("fused tensor '{}' has no conv", p.tensors[t].name))?;
    let (Some(x), Some(w)) = (
        conv.inputs.first().copied().flatten(),
        conv.inputs.get(1).copied().flatten(),
    ) else {
        return Err(format!(
            "conv '{}' lacks its input or weight",
            conv.hw_layer
        ));
    };
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        return Err(format!(
            "conv '{}' weight '{}' is not a constant",
            conv.hw_layer, p.tensors[w].name
        ));
    };
    Ok(scale_of(p, x, table)? * super::units::weight_scale(values.values()))
}

/// The calibration method a table records: the one its producer named
/// ([`TensorScales::method`]), else a TensorRT cache's header algorithm
/// (`TRT-8601-EntropyCalibration2` → `entropy`), else `None`.
pub fn method_of(t: &TensorScales) -> Option<String> {
    if let Some(m) = &t.method {
        return Some(m.clone());
    }
    let algo = t.header.as_deref()?.rsplit('-').next()?;
    Some(
        match algo {
            a if a.starts_with("EntropyCalibration") => "entropy",
            "MinMaxCalibration" => "max",
            "LegacyCalibration" => "legacy",
            _ => return None,
        }
        .to_string(),
    )
}
