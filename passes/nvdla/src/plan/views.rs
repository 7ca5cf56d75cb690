//! Virtual ops as windows: which cube each tensor lives inside.
//!
//! In: a [`Program`] and its [`Config`]. Out: [`Views`], for every tensor its
//! storage root and byte offset in it, built from the virtual ops:
//! * `concat(m0, m1, …) → r`: member `mi` is a window of `r` starting at
//!   `(c_start/g)·surf_stride(r)` (`c_start` = channels before it);
//! * `slice(x){c_start} → s`: `s` is a window of `x` at `(c_start/g)·surf_stride(x)`;
//! * `reshape(x) → y`: `y` is `x`'s bytes (only when `[N, C, H, W]` is unchanged).
//!
//! Windows nest (DenseNet's concat of a concat), so a tensor's root is found
//! by following these links upwards. A tensor may be a window of one cube
//! only; windows start on a surface (`c_start` multiple of `g`, the channels
//! per memory atom); network inputs cannot be concat members; weights and
//! fused accumulators cannot take part. Breaking any of these is a
//! [`PlanError`] naming the op.
//!
//! ```text
//! a:[1,16,8,8] b:[1,32,8,8]  concat(a,b) → r:[1,48,8,8]   (fp16, nv_full: g = 16, surf = 2048 B)
//! root(a) = (r, 0)   root(b) = (r, 2048)
//! ```

use super::error::{op_name, PlanError, Result};
use super::layout::{cube_bytes, group, nchw};
use crate::config::Config;
use crate::program::{Engine, Program, TensorId, TensorKind};

/// A tensor is a window of `parent` at byte `offset`, placed there by op `op`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub parent: TensorId,
    pub offset: u64,
    pub op: usize,
}

/// Every tensor's parent window and storage root.
#[derive(Debug, Clone)]
pub(crate) struct Views {
    /// The window link of each tensor (None: it is its own storage).
    pub parent: Vec<Option<Link>>,
    /// Storage root of each tensor and the byte offset of its first byte in the root.
    pub root: Vec<(TensorId, u64)>,
}

impl Views {
    /// Reads the virtual ops of `p`.
    pub fn build(p: &Program, config: &Config) -> Result<Views> {
        let mut parent: Vec<Option<Link>> = vec![None; p.tensors.len()];
        for (k, op) in p.ops.iter().enumerate() {
            if !op.engine.is_virtual() {
                continue;
            }
            let ids: Vec<TensorId> = op.operands().chain([op.output]).collect();
            for &t in &ids {
                check_feature(p, k, t)?;
            }
            let out = &p.tensors[op.output];
            match op.engine {
                Engine::Concat => {
                    let [n, c, h, w] = nchw(&out.shape);
                    let (_, surf, _) = cube_bytes(&out.shape, out.precision, config);
                    let g = group(out.precision, config);
                    let mut c_start = 0u64;
                    for m in op.operands() {
                        let mt = &p.tensors[m];
                        let [mn, mc, mh, mw] = nchw(&mt.shape);
                        if (mn, mh, mw) != (n, h, w) || mt.precision != out.precision {
                            return Err(shape_error(p, k, m, op.output));
                        }
                        if matches!(mt.kind, TensorKind::Input(_)) {
                            return Err(PlanError::ConcatMemberIsInput {
                                op: op_name(p, k),
                                tensor: mt.name.clone(),
                            });
                        }
                        if c_start % g != 0 {
                            return Err(PlanError::Unaligned {
                                op: op_name(p, k),
                                tensor: mt.name.clone(),
                                c_start,
                                group: g,
                            });
                        }
                        link(
                            p,
                            &mut parent,
                            m,
                            Link {
                                parent: op.output,
                                offset: c_start / g * surf,
                                op: k,
                            },
                        )?;
                        c_start += mc as u64;
                    }
                    if c_start != c as u64 {
                        return Err(PlanError::BadViewShape {
                            op: op_name(p, k),
                            detail: format!("members have {c_start} channels in total but the result '{}' has {c}; the concat shapes are inconsistent", out.name),
                        });
                    }
                }
                Engine::Slice | Engine::Reshape => {
                    let x = single_input(p, k)?;
                    let xt = &p.tensors[x];
                    let [xn, xc, xh, xw] = nchw(&xt.shape);
                    let [n, c, h, w] = nchw(&out.shape);
                    let offset = if op.engine == Engine::Reshape {
                        if xt.precision != out.precision {
                            return Err(shape_error(p, k, x, op.output));
                        }
                        if [xn, xc, xh, xw] != [n, c, h, w] {
                            return Err(PlanError::ReshapeNotView {
                                op: op_name(p, k),
                                from: xt.shape.clone(),
                                to: out.shape.clone(),
                            });
                        }
                        0
                    } else {
                        let c_start = match op.int("c_start") {
                            Some(v) if v >= 0 => v as u64,
                            other => {
                                return Err(PlanError::BadOperand {
                                    op: op_name(p, k),
                                    detail: format!("attribute c_start is {other:?}; a slice needs an integer c_start >= 0"),
                                })
                            }
                        };
                        if (xn, xh, xw) != (n, h, w)
                            || xt.precision != out.precision
                            || c_start + c as u64 > xc as u64
                        {
                            return Err(shape_error(p, k, x, op.output));
                        }
                        let g = group(xt.precision, config);
                        if c_start % g != 0 {
                            return Err(PlanError::Unaligned {
                                op: op_name(p, k),
                                tensor: out.name.clone(),
                                c_start,
                                group: g,
                            });
                        }
                        c_start / g * cube_bytes(&xt.shape, xt.precision, config).1
                    };
                    link(
                        p,
                        &mut parent,
                        op.output,
                        Link {
                            parent: x,
                            offset,
                            op: k,
                        },
                    )?;
                }
                _ => unreachable!("is_virtual covers exactly concat, slice and reshape"),
            }
        }
        let mut root = Vec::with_capacity(p.tensors.len());
        for t in 0..p.tensors.len() {
            let (mut r, mut off, mut steps) = (t, 0u64, 0usize);
            while let Some(l) = parent[r] {
                off += l.offset;
                r = l.parent;
                steps += 1;
                if steps > p.tensors.len() {
                    return Err(PlanError::BadOperand {
                        op: op_name(p, l.op),
                        detail: format!("tensor '{}' is (indirectly) a window of itself; the virtual ops form a cycle", p.tensors[t].name),
                    });
                }
            }
            root.push((r, off));
        }
        Ok(Views { parent, root })
    }

    /// Whether `a` is `b` or one of the cubes `b` is a window of.
    pub fn contains(&self, a: TensorId, b: TensorId) -> bool {
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            match self.parent[x] {
                Some(l) => x = l.parent,
                None => return false,
            }
        }
    }
}

fn link(p: &Program, parent: &mut [Option<Link>], t: TensorId, l: Link) -> Result<()> {
    if let Some(first) = parent[t] {
        return Err(PlanError::TwoViews {
            tensor: p.tensors[t].name.clone(),
            first: op_name(p, first.op),
            second: op_name(p, l.op),
        });
    }
    parent[t] = Some(l);
    Ok(())
}

fn single_input(p: &Program, k: usize) -> Result<TensorId> {
    let ins: Vec<TensorId> = p.ops[k].operands().collect();
    match ins[..] {
        [x] => Ok(x),
        _ => Err(PlanError::BadOperand {
            op: op_name(p, k),
            detail: format!("has {} operands; it needs exactly one", ins.len()),
        }),
    }
}

fn check_feature(p: &Program, k: usize, t: TensorId) -> Result<()> {
    let what = match p.tensors[t].kind {
        TensorKind::Weight(_) => "a weight (weights live in the weight pool; fold the view into the constant in the lowering)",
        TensorKind::Fused => "a fused CONV→SDP accumulator, which is never in memory",
        _ => return Ok(()),
    };
    Err(PlanError::BadOperand {
        op: op_name(p, k),
        detail: format!("'{}' is {what}", p.tensors[t].name),
    })
}

fn shape_error(p: &Program, k: usize, a: TensorId, b: TensorId) -> PlanError {
    let (ta, tb) = (&p.tensors[a], &p.tensors[b]);
    PlanError::BadViewShape {
        op: op_name(p, k),
        detail: format!(
            "'{}' {:?} {} does not fit '{}' {:?} {} (batch, height, width and precision must match, and the window must lie inside the cube)",
            ta.name, ta.shape, ta.precision, tb.name, tb.shape, tb.precision
        ),
    }
}
