//! Weight blobs: every weight tensor converted to the layout its consumer reads.
//!
//! In: a planned [`Program`] and its [`Config`]. Out: per weight tensor,
//! the layout of its blob ([`Layout`]: what [`super::weights`] and
//! [`super::quant`] make of its values), the blob's size and the data-cube
//! geometry descriptors use for it. The bytes are made last, by
//! [`Encoded::pack`], straight into the output. A weight read by two ops in
//! different layouts, or bigger than its planned size, is an error naming it.
//! Example: a `[20, 1, 5, 5]` fp16 conv weight becomes 1024 bytes (1000
//! rounded up to 128) in direct-convolution order. A grouped conv's weight
//! emitted whole is laid out as its dense kernel (zeros outside the groups,
//! [`crate::grouped_kernel`]), made as it is packed; in channel chunks, as
//! the chunks' blocks.

use std::collections::BTreeMap;

use super::attrs::A;
use super::chan_split::chunks_dc_into;
use super::chunking::chunked_weights;
use super::memory::place;
use super::split::Chunk;
use super::weights::{
    conv_dc_into, conv_dc_len, feature_geometry, kernels_per_group, per_kernel_into,
    per_point_into, per_point_len, LeF32s, Values,
};
use crate::config::Config;
use crate::grouped_kernel::{conv_group, dense_shape, DenseView};
use crate::program::{Engine, Op, Precision, Program, TensorId, TensorKind, Weights};
use crate::{Error, Result};

/// How a weight's blob is made from its values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Layout {
    /// Direct-convolution layout of a `[K, C, R, S]` weight: `shape` is the
    /// dense kernel's; a grouped weight (`group` > 1, stored
    /// `[K, C/group, R, S]`) is read through its dense view.
    Conv {
        shape: [usize; 4],
        group: usize,
        prec: Precision,
        shift: i32,
        /// The channel chunks of a conv split by `chan_split`, each block
        /// in its own direct-convolution layout (`None`: whole).
        chunks: Option<Vec<Chunk>>,
        /// Kernels per group and channels per atom (for the chunks).
        kpg: usize,
        acpa: usize,
    },
    /// A per-kernel SDP operand.
    PerKernel {
        rows: usize,
        k: usize,
        prec: Precision,
        shifts: Vec<i32>,
    },
    /// A per-point SDP operand.
    PerPoint {
        rows: usize,
        chw: [usize; 3],
        cpa: usize,
        prec: Precision,
        shifts: Vec<i32>,
        line: usize,
        surf: usize,
    },
}

impl Layout {
    /// The blob's size in bytes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Layout::Conv {
                chunks: Some(chunks),
                ..
            } => chunks.iter().map(|c| c.w_bytes).sum(),
            Layout::Conv { shape, prec, .. } => conv_dc_len(*shape, *prec),
            Layout::PerKernel { rows, k, prec, .. } => rows * k * prec.bytes(),
            Layout::PerPoint {
                chw: [c, h, _],
                cpa,
                line,
                surf,
                ..
            } => per_point_len(*c, *h, *cpa, *line, *surf),
        }
    }

    /// Writes the blob of `w` into `out` (exactly [`Layout::len`] zeroed
    /// bytes). A big conv weight is packed in parallel, deterministically.
    pub(crate) fn pack(&self, w: &Weights, cfg: &Config, out: &mut [u8]) {
        match w.row_scaled() {
            // A folded batch normalization: scaled as it is packed.
            Some(r) => self.pack_values(&r, cfg, out),
            None => self.pack_values(&LeF32s::of(w), cfg, out),
        }
    }

    /// [`Layout::pack`] of the values `v`.
    fn pack_values<V: Values + ?Sized>(&self, v: &V, cfg: &Config, out: &mut [u8]) {
        if let Layout::Conv { shape, group, .. } = self {
            let [k, c, r, s] = *shape;
            if let Some(view) = (*group > 1)
                .then(|| DenseView::new(v, [k, c / group, r, s], *group))
                .flatten()
            {
                return self.pack_dense(&view, cfg, out);
            }
        }
        self.pack_dense(v, cfg, out)
    }

    /// [`Layout::pack_values`] of values already in the layout's dense shape.
    fn pack_dense<V: Values + ?Sized>(&self, v: &V, cfg: &Config, out: &mut [u8]) {
        match self {
            Layout::Conv {
                shape,
                prec,
                shift,
                chunks: None,
                ..
            } => conv_dc_into(v, *shape, cfg, *prec, *shift, out),
            Layout::Conv {
                shape,
                prec,
                shift,
                chunks: Some(chunks),
                kpg,
                acpa,
                ..
            } => {
                debug_assert_eq!((*kpg, *acpa), (kernels_per_group(cfg, *prec), cfg.atomic_c));
                chunks_dc_into(v, *shape, chunks, cfg, *prec, *shift, out);
            }
            Layout::PerKernel {
                rows,
                k,
                prec,
                shifts,
            } => per_kernel_into(v, *rows, *k, *prec, shifts, out),
            Layout::PerPoint {
                rows,
                chw,
                cpa,
                prec,
                shifts,
                line,
                surf,
            } => per_point_into(v, *rows, *chw, *cpa, *prec, shifts, *line, *surf, out),
        }
    }
}

/// One encoded weight: its blob's layout and the cube descriptors read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Encoded {
    pub(crate) layout: Layout,
    /// Cube width, height, channels.
    pub(crate) whc: [usize; 3],
    pub(crate) line_stride: usize,
    pub(crate) surf_stride: usize,
}

impl Encoded {
    /// The blob's size in bytes.
    pub(crate) fn len(&self) -> usize {
        self.layout.len()
    }

    /// The blob of weight `t` of `p` as a new vector.
    pub(crate) fn pack_vec(&self, p: &Program, cfg: &Config, t: TensorId) -> Vec<u8> {
        let mut out = vec![0u8; self.len()];
        if let TensorKind::Weight(w) = &p.tensors[t].kind {
            self.layout.pack(w, cfg, &mut out);
        }
        out
    }
}

/// The SDP sub-unit attribute prefixes, by operand slot 1..=3.
pub(crate) const SDP_UNITS: [&str; 3] = ["x1_op", "x2_op", "y_op"];

fn weight_values(p: &Program, t: TensorId) -> Option<&Weights> {
    match &p.tensors[t].kind {
        TensorKind::Weight(v) => Some(v),
        _ => None,
    }
}

/// Encodes every weight operand of every op.
/// A conv weight whose conv is emitted in channel chunks
/// ([`super::chunking::chunked_weights`]) is laid out as its chunks' blocks.
pub(crate) fn encode_all(p: &Program, cfg: &Config) -> Result<BTreeMap<TensorId, Encoded>> {
    let mut chunked = chunked_weights(p, cfg);
    let mut out: BTreeMap<TensorId, Encoded> = BTreeMap::new();
    for op in &p.ops {
        for (slot, t) in op.inputs.iter().enumerate() {
            let Some(t) = *t else { continue };
            let Some(values) = weight_values(p, t) else {
                continue;
            };
            let mut e = encode_one(p, cfg, op, slot, t, values.len())?;
            if let Layout::Conv { chunks, .. } = &mut e.layout {
                *chunks = chunked.remove(&t);
            }
            let pl = place(p, t)?;
            if e.len() as u64 > pl.size {
                return Err(Error::Tensor {
                    tensor: p.tensors[t].name.clone(),
                    problem: format!(
                        "needs {} bytes in the engine layout but the plan gave it {}; plan with the emitter's size",
                        e.len(),
                        pl.size
                    ),
                });
            }
            if let Some(prev) = out.get(&t) {
                // Two layouts may still give the same bytes (an FP16 conv
                // ignores its shift): compare the bytes only then.
                let same = prev == &e
                    || (prev.whc == e.whc
                        && prev.line_stride == e.line_stride
                        && prev.surf_stride == e.surf_stride
                        && prev.pack_vec(p, cfg, t) == e.pack_vec(p, cfg, t));
                if !same {
                    return Err(Error::Tensor {
                        tensor: p.tensors[t].name.clone(),
                        problem: "is read by two ops in different layouts; duplicate the weight"
                            .into(),
                    });
                }
            }
            out.insert(t, e);
        }
    }
    Ok(out)
}

fn encode_one(
    p: &Program,
    cfg: &Config,
    op: &Op,
    slot: usize,
    t: TensorId,
    count: usize,
) -> Result<Encoded> {
    let a = A::new(op);
    let tensor = &p.tensors[t];
    let prec = tensor.precision;
    let shape = &tensor.shape;
    let bad_shape = |what: &str| {
        a.op_err(format!(
            "weight '{}' has shape {:?}; expected {what}",
            tensor.name, shape
        ))
    };
    if count != tensor.elements() {
        return Err(Error::Tensor {
            tensor: tensor.name.clone(),
            problem: format!(
                "holds {} values but its shape {:?} has {}",
                count,
                shape,
                tensor.elements()
            ),
        });
    }
    match (op.engine, slot) {
        (Engine::Conv, 1) => {
            let group = conv_group(op);
            let [k, c, r, s] = dense_shape(shape, group).ok_or_else(|| {
                bad_shape(&format!(
                    "[K, C/group, R, S] with K a multiple of group = {group}"
                ))
            })?;
            let shift = if prec.bytes() == 1 || prec == crate::Precision::Int16 {
                a.reg("out_cvt.truncate")? as i32
            } else {
                0
            };
            Ok(Encoded {
                layout: Layout::Conv {
                    shape: [k, c, r, s],
                    group,
                    prec,
                    shift,
                    chunks: None,
                    kpg: kernels_per_group(cfg, prec),
                    acpa: cfg.atomic_c,
                },
                whc: [s, r, c],
                line_stride: 0,
                surf_stride: 0,
            })
        }
        (Engine::Sdp, 1..=3) => {
            let unit = SDP_UNITS[slot - 1];
            let ty = a.str(&format!("{unit}.type"))?;
            let mode = a.str(&format!("{unit}.mode"))?;
            let is_int = prec != crate::Precision::Fp16;
            let alu = if !is_int {
                0
            } else if unit == "y_op" {
                y_alu_exponent(&a)?
            } else {
                -(a.reg(&format!("{unit}.shift_value"))? as i32)
            };
            let mul = if is_int {
                a.reg(&format!("{unit}.truncate"))? as i32
            } else {
                0
            };
            let (rows, shifts) = match ty {
                "add" => (1, vec![alu]),
                "mul" => (1, vec![mul]),
                "both" => (2, vec![alu, mul]),
                other => return Err(a.err(&format!("{unit}.type"), format!("is \"{other}\" but the sub-unit has a weight operand; use add, mul or both"))),
            };
            let [n, c, h, wd] =
                <[usize; 4]>::try_from(shape.as_slice()).map_err(|_| bad_shape("4-D"))?;
            match mode {
                "per_kernel" => {
                    if n != rows || h != 1 || wd != 1 {
                        return Err(bad_shape(&format!("[{rows}, K, 1, 1] for a per_kernel {ty} operand")));
                    }
                    Ok(Encoded {
                        layout: Layout::PerKernel {
                            rows,
                            k: c,
                            prec,
                            shifts,
                        },
                        whc: [1, 1, c],
                        line_stride: cfg.mem_atom_bytes,
                        surf_stride: cfg.mem_atom_bytes,
                    })
                }
                "per_point" => {
                    if n != rows {
                        return Err(bad_shape(&format!("[{rows}, C, H, W] for a per_point {ty} operand")));
                    }
                    let cpa = cfg.channels_per_atom(prec);
                    let (need_line, _, _) = feature_geometry(wd, h, c, cpa, prec.bytes() * rows);
                    let pl = place(p, t)?;
                    let (line, surf) = (pl.line_stride as usize, pl.surf_stride as usize);
                    if line < need_line || surf < line * h {
                        return Err(Error::Tensor {
                            tensor: tensor.name.clone(),
                            problem: format!(
                                "per_point {ty} operand of {} '{}' is planned with line stride {line} and surface stride {surf}; its {wd}×{h} lines of {rows}-component elements need at least {need_line} and {}; plan it as a cube of that line width",
                                op.engine, op.hw_layer, need_line * h
                            ),
                        });
                    }
                    Ok(Encoded {
                        layout: Layout::PerPoint {
                            rows,
                            chw: [c, h, wd],
                            cpa,
                            prec,
                            shifts,
                            line,
                            surf,
                        },
                        whc: [wd, h, c],
                        line_stride: line,
                        surf_stride: surf,
                    })
                }
                other => Err(a.err(&format!("{unit}.mode"), format!("is \"{other}\" but the sub-unit has a weight operand; per_layer uses the immediates"))),
            }
        }
        _ => Err(a.op_err(format!(
            "operand {slot} is the weight '{}'; this engine reads only feature data there",
            tensor.name
        ))),
    }
}

/// The power-of-two exponent an INT Y (EW) ALU weight operand is encoded
/// with. Y has no operand shift (the firmware programs none, so a
/// `y_op.shift_value` other than 0 would be ignored and is refused); its
/// operand converter computes `(q · scale) >> truncate`, so the operand is
/// encoded at `2^(truncate − log2 scale)` — a power-of-two `scale`, offset
/// 0 — or as is when the converter is bypassed.
fn y_alu_exponent(a: &A) -> Result<i32> {
    if a.reg("y_op.shift_value")? != 0 {
        return Err(a.err(
            "y_op.shift_value",
            "is not 0, but the Y unit has no operand shift; scale its operand with y_op.cvt.alu_cvt (scale, truncate) instead",
        ));
    }
    if a.reg("y_op.cvt.alu_cvt.enable")? == 0 {
        return Ok(0);
    }
    let scale = a.i16("y_op.cvt.alu_cvt.scale")?;
    if scale <= 0 || scale.count_ones() != 1 || a.i32("y_op.cvt.alu_cvt.offset")? != 0 {
        return Err(a.err(
            "y_op.cvt.alu_cvt.scale",
            format!("is {scale}; a Y weight operand is encoded with a power-of-two exponent, so its converter needs a positive power-of-two scale and offset 0"),
        ));
    }
    let truncate = a.reg("y_op.cvt.alu_cvt.truncate")? as i32;
    Ok(truncate - scale.trailing_zeros() as i32)
}
