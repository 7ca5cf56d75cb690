//! Weight blobs: every weight tensor converted to the layout its consumer reads.
//!
//! In: a planned [`Program`] and its [`Config`]. Out: per weight tensor,
//! its bytes ([`super::weights`], [`super::quant`]) and the data-cube
//! geometry descriptors use for it. A weight read by two ops in different
//! layouts, or bigger than its planned size, is an error naming it.
//! Example: a `[20, 1, 5, 5]` fp16 conv weight becomes 1024 bytes (1000
//! rounded up to 128) in direct-convolution order.

use std::collections::BTreeMap;

use super::attrs::A;
use super::error::{EmitError, Result};
use super::memory::place;
use super::weights::{conv_dc, feature_geometry, per_kernel, per_point};
use crate::config::Config;
use crate::program::{Engine, Op, Program, TensorId, TensorKind};

/// One encoded weight.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Encoded {
    pub(crate) bytes: Vec<u8>,
    /// Cube width, height, channels.
    pub(crate) whc: [usize; 3],
    pub(crate) line_stride: usize,
    pub(crate) surf_stride: usize,
}

/// The SDP sub-unit attribute prefixes, by operand slot 1..=3.
pub(crate) const SDP_UNITS: [&str; 3] = ["x1_op", "x2_op", "y_op"];

fn weight_values(p: &Program, t: TensorId) -> Option<&[f32]> {
    match &p.tensors[t].kind {
        TensorKind::Weight(v) => Some(v),
        _ => None,
    }
}

/// Encodes every weight operand of every op.
pub(crate) fn encode_all(p: &Program, cfg: &Config) -> Result<BTreeMap<TensorId, Encoded>> {
    let mut out: BTreeMap<TensorId, Encoded> = BTreeMap::new();
    for op in &p.ops {
        for (slot, t) in op.inputs.iter().enumerate() {
            let Some(t) = *t else { continue };
            let Some(values) = weight_values(p, t) else {
                continue;
            };
            let e = encode_one(p, cfg, op, slot, t, values)?;
            let pl = place(p, t)?;
            if e.bytes.len() as u64 > pl.size {
                return Err(EmitError::Tensor {
                    tensor: p.tensors[t].name.clone(),
                    problem: format!(
                        "needs {} bytes in the engine layout but the plan gave it {}; plan with the emitter's size",
                        e.bytes.len(),
                        pl.size
                    ),
                });
            }
            if let Some(prev) = out.get(&t) {
                if prev != &e {
                    return Err(EmitError::Tensor {
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
    w: &[f32],
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
    if w.len() != tensor.elements() {
        return Err(EmitError::Tensor {
            tensor: tensor.name.clone(),
            problem: format!(
                "holds {} values but its shape {:?} has {}",
                w.len(),
                shape,
                tensor.elements()
            ),
        });
    }
    match (op.engine, slot) {
        (Engine::Conv, 1) => {
            let [k, c, r, s] =
                <[usize; 4]>::try_from(shape.as_slice()).map_err(|_| bad_shape("[K, C, R, S]"))?;
            let shift = if prec.bytes() == 1 || prec == crate::Precision::Int16 {
                a.int_in("out_cvt.truncate", 0, 63)? as i32
            } else {
                0
            };
            Ok(Encoded {
                bytes: conv_dc(w, [k, c, r, s], cfg, prec, shift),
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
            let alu = if is_int {
                -(a.int_in(&format!("{unit}.shift_value"), 0, 63)? as i32)
            } else {
                0
            };
            let mul = if is_int {
                a.int_in(&format!("{unit}.truncate"), 0, 63)? as i32
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
                        bytes: per_kernel(w, rows, c, prec, &shifts),
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
                        return Err(EmitError::Tensor {
                            tensor: tensor.name.clone(),
                            problem: format!(
                                "per_point {ty} operand of {} '{}' is planned with line stride {line} and surface stride {surf}; its {wd}×{h} lines of {rows}-component elements need at least {need_line} and {}; plan it as a cube of that line width",
                                op.engine, op.hw_layer, need_line * h
                            ),
                        });
                    }
                    Ok(Encoded {
                        bytes: per_point(w, rows, [c, h, wd], cpa, prec, &shifts, line, surf),
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
