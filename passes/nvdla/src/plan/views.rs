//! Virtual ops as windows: which cube each tensor lives inside.
//!
//! In: a [`Program`] and its [`Config`]. Out: [`Views`], for every tensor its
//! storage root and byte offset in it, built from the virtual ops:
//! * `concat{axis = 1}(m0, m1, …) → r`: member `mi` is a window of `r`
//!   starting at `(c_start/g)·surf_stride(r)` (`c_start` = channels before it);
//!   with `axis = 2` (rows) at `h_start·line_stride(r)`, with `axis = 3`
//!   (columns) at `w_start·atom`. Every member keeps `r`'s line and surface
//!   strides, so a column window is a strided view (upsampling without
//!   RUBIK writes its phases through such windows, `lower::nodes::interleave`);
//! * `slice(x){c_start} → s`: `s` is a window of `x` at `(c_start/g)·surf_stride(x)`;
//! * `reshape(x) → y`: `y` is `x`'s bytes, when `[N, C, H, W]` is unchanged or
//!   when N, C and `H·W` are and the cube being viewed stores its rows back
//!   to back (`line_stride = W·atom`): a plane of pixels is then one run of
//!   atoms whatever its width, so `[C, H, W]` and `[C, H·W, 1]` are the same
//!   bytes. `y` is the window of `x`, or, when `y` is already a window of
//!   another cube (a concat member), `x` is the window of `y`.
//!
//! Windows nest (DenseNet's concat of a concat), so a tensor's root is found
//! by following these links upwards. A tensor may be a window of one cube
//! only; windows start on a surface (`c_start` multiple of `g`, the channels
//! per memory atom); network inputs cannot be concat members; weights and
//! fused accumulators cannot take part. Breaking any of these is a
//! [`Error`] naming the op. [`Views::geometry`] gives every tensor its
//! line stride, surface stride and extent in bytes (a root's is its cube
//! layout; a dense window's equals its own cube layout, as before).
//!
//! ```text
//! a:[1,16,8,8] b:[1,32,8,8]  concat(a,b) → r:[1,48,8,8]   (fp16, nv_full: g = 16, surf = 2048 B)
//! root(a) = (r, 0)   root(b) = (r, 2048)
//! ```

use super::error::op_name;
use super::layout::{cube_bytes, group, nchw};
use crate::config::Config;
use crate::program::{Engine, Program, TensorId, TensorKind};
use crate::{Error, Result};

/// How a window's strides follow from its parent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A concat member: the parent's line and surface strides.
    Member,
    /// A channel slice: the parent's strides.
    Slice,
    /// A reshape (either direction): rows of its own width, back to back,
    /// and the parent's surface stride.
    Reshape,
}

/// A tensor is a window of `parent` at byte `offset`, placed there by op `op`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub parent: TensorId,
    pub offset: u64,
    pub op: usize,
    pub kind: Kind,
}

/// Line stride, surface stride and extent (bytes from the first byte to the
/// end of the last atom) of a tensor as placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Geometry {
    pub line: u64,
    pub surf: u64,
    pub size: u64,
}

/// Every tensor's parent window and storage root.
#[derive(Debug, Clone)]
pub(crate) struct Views {
    /// The window link of each tensor (None: it is its own storage).
    pub parent: Vec<Option<Link>>,
    /// Storage root of each tensor and the byte offset of its first byte in the root.
    pub root: Vec<(TensorId, u64)>,
    /// Strides and extent of each feature tensor (weights and fused: their own cube layout).
    pub geometry: Vec<Geometry>,
}

impl Views {
    /// Reads the virtual ops of `p`.
    pub fn build(p: &Program, config: &Config) -> Result<Views> {
        let mut parent: Vec<Option<Link>> = vec![None; p.tensors.len()];
        let mut reshapes = Vec::new();
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
                Engine::Concat => concat(p, k, config, &mut parent)?,
                Engine::Reshape => {
                    let x = single_input(p, k)?;
                    let xt = &p.tensors[x];
                    let [xn, xc, xh, xw] = nchw(&xt.shape);
                    let [n, c, h, w] = nchw(&out.shape);
                    if xt.precision != out.precision {
                        return Err(shape_error(p, k, x, op.output));
                    }
                    if (xn, xc, xh * xw) != (n, c, h * w) {
                        return Err(Error::ReshapeNotView {
                            op: op_name(p, k),
                            from: xt.shape.clone(),
                            to: out.shape.clone(),
                        });
                    }
                    // Linked after the concats, which may claim the result.
                    reshapes.push((k, x));
                }
                Engine::Slice => {
                    let x = single_input(p, k)?;
                    let xt = &p.tensors[x];
                    let [xn, xc, xh, xw] = nchw(&xt.shape);
                    let [n, c, h, w] = nchw(&out.shape);
                    let c_start = match op.int("c_start") {
                        Some(v) if v >= 0 => v as u64,
                        other => {
                            return Err(Error::BadOperand {
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
                        return Err(Error::Unaligned {
                            op: op_name(p, k),
                            tensor: out.name.clone(),
                            c_start,
                            group: g,
                        });
                    }
                    let offset = c_start / g * cube_bytes(&xt.shape, xt.precision, config).1;
                    let l = Link {
                        parent: x,
                        offset,
                        op: k,
                        kind: Kind::Slice,
                    };
                    link(p, &mut parent, op.output, l)?;
                }
                _ => unreachable!("is_virtual covers exactly concat, slice and reshape"),
            }
        }
        for (k, x) in reshapes {
            let y = p.ops[k].output;
            let (from, to) = match (parent[y], parent[x]) {
                (Some(_), None) if !matches!(p.tensors[x].kind, TensorKind::Input(_)) => (x, y),
                _ => (y, x),
            };
            let l = Link {
                parent: to,
                offset: 0,
                op: k,
                kind: Kind::Reshape,
            };
            link(p, &mut parent, from, l)?;
        }
        let mut root = Vec::with_capacity(p.tensors.len());
        for t in 0..p.tensors.len() {
            let (mut r, mut off, mut steps) = (t, 0u64, 0usize);
            while let Some(l) = parent[r] {
                off += l.offset;
                r = l.parent;
                steps += 1;
                if steps > p.tensors.len() {
                    return Err(Error::BadOperand {
                        op: op_name(p, l.op),
                        detail: format!("tensor '{}' is (indirectly) a window of itself; the virtual ops form a cycle", p.tensors[t].name),
                    });
                }
            }
            root.push((r, off));
        }
        let geometry = geometries(p, config, &parent)?;
        Ok(Views {
            parent,
            root,
            geometry,
        })
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

    /// Whether `a` and `b` lie in two different members of one concat (or
    /// inside such members), whose bytes are disjoint by construction even
    /// when their extents interleave (column windows).
    pub fn disjoint(&self, a: TensorId, b: TensorId) -> bool {
        let chain = |mut t: TensorId| {
            let mut v = vec![t];
            while let Some(l) = self.parent[t] {
                t = l.parent;
                v.push(t);
            }
            v
        };
        let (ca, cb) = (chain(a), chain(b));
        let Some(i) = ca.iter().position(|t| cb.contains(t)) else {
            return false;
        };
        let j = cb.iter().position(|&t| t == ca[i]).unwrap_or(0);
        if i == 0 || j == 0 {
            return false;
        }
        match (self.parent[ca[i - 1]], self.parent[cb[j - 1]]) {
            (Some(la), Some(lb)) => {
                la.kind == Kind::Member && lb.kind == Kind::Member && la.op == lb.op
            }
            _ => false,
        }
    }
}

/// Links the members of concat op `k` to its result.
fn concat(p: &Program, k: usize, config: &Config, parent: &mut [Option<Link>]) -> Result<()> {
    let op = &p.ops[k];
    let out = &p.tensors[op.output];
    let axis = match op.int("axis").unwrap_or(1) {
        a @ 1..=3 => a as usize,
        a => {
            return Err(Error::BadOperand {
                op: op_name(p, k),
                detail: format!("axis {a}; a concat joins channels (1), rows (2) or columns (3)"),
            })
        }
    };
    let dims = nchw(&out.shape);
    let (line, surf, _) = cube_bytes(&out.shape, out.precision, config);
    let g = group(out.precision, config);
    let mut start = 0u64;
    for m in op.operands() {
        let mt = &p.tensors[m];
        let md = nchw(&mt.shape);
        let off_axis = (0..4).all(|d| d == axis || md[d] == dims[d]);
        if !off_axis || mt.precision != out.precision {
            return Err(shape_error(p, k, m, op.output));
        }
        if matches!(mt.kind, TensorKind::Input(_)) {
            return Err(Error::ConcatMemberIsInput {
                op: op_name(p, k),
                tensor: mt.name.clone(),
            });
        }
        let offset = match axis {
            1 if start % g != 0 => {
                return Err(Error::Unaligned {
                    op: op_name(p, k),
                    tensor: mt.name.clone(),
                    c_start: start,
                    group: g,
                })
            }
            1 => start / g * surf,
            2 => start * line,
            _ => start * config.mem_atom_bytes as u64,
        };
        let l = Link {
            parent: op.output,
            offset,
            op: k,
            kind: Kind::Member,
        };
        link(p, parent, m, l)?;
        start += md[axis] as u64;
    }
    if start != dims[axis] as u64 {
        return Err(Error::BadViewShape {
            op: op_name(p, k),
            detail: format!("members have {start} along axis {axis} in total but the result '{}' has {}; the concat shapes are inconsistent", out.name, dims[axis]),
        });
    }
    Ok(())
}

/// The [`Geometry`] of every tensor, parents before windows.
fn geometries(p: &Program, config: &Config, parent: &[Option<Link>]) -> Result<Vec<Geometry>> {
    let mut done: Vec<Option<Geometry>> = vec![None; p.tensors.len()];
    for t in 0..p.tensors.len() {
        let mut path = vec![t];
        while let Some(l) = parent[*path.last().unwrap_or(&t)] {
            if done[l.parent].is_some() || path.len() > p.tensors.len() {
                break;
            }
            path.push(l.parent);
        }
        for &u in path.iter().rev() {
            if done[u].is_none() {
                done[u] = Some(geometry_of(p, config, parent, u, &done)?);
            }
        }
    }
    Ok(done.into_iter().map(Option::unwrap_or_default).collect())
}

fn geometry_of(
    p: &Program,
    config: &Config,
    parent: &[Option<Link>],
    t: TensorId,
    done: &[Option<Geometry>],
) -> Result<Geometry> {
    let tensor = &p.tensors[t];
    let (line0, surf0, size0) = cube_bytes(&tensor.shape, tensor.precision, config);
    let dense = Geometry {
        line: line0,
        surf: surf0,
        size: size0,
    };
    let Some(l) = parent[t] else { return Ok(dense) };
    let Some(pg) = done[l.parent] else {
        return Ok(dense);
    };
    let (line, surf) = match l.kind {
        Kind::Member | Kind::Slice => (pg.line, pg.surf),
        Kind::Reshape => {
            let pt = &p.tensors[l.parent];
            let [_, _, ph, pw] = nchw(&pt.shape);
            let atom = config.mem_atom_bytes as u64;
            if ph > 1 && pg.line != pw as u64 * atom {
                return Err(Error::BadViewShape {
                    op: op_name(p, l.op),
                    detail: format!("'{}' {:?} is a strided window (line stride {} bytes, not {} × {atom}): its rows are not back to back, so it cannot be reshaped in place", pt.name, pt.shape, pg.line, pw),
                });
            }
            (line0, pg.surf)
        }
    };
    if (line, surf) == (line0, surf0) {
        return Ok(dense);
    }
    let [n, c, h, w] = nchw(&tensor.shape).map(|d| d as u64);
    let surfaces = n * c.div_ceil(group(tensor.precision, config));
    let size = if surfaces == 0 || h == 0 || w == 0 {
        0
    } else {
        (surfaces - 1) * surf + (h - 1) * line + w * config.mem_atom_bytes as u64
    };
    Ok(Geometry { line, surf, size })
}

fn link(p: &Program, parent: &mut [Option<Link>], t: TensorId, l: Link) -> Result<()> {
    if let Some(first) = parent[t] {
        return Err(Error::TwoViews {
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
        _ => Err(Error::BadOperand {
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
    Err(Error::BadOperand {
        op: op_name(p, k),
        detail: format!("'{}' is {what}", p.tensors[t].name),
    })
}

fn shape_error(p: &Program, k: usize, a: TensorId, b: TensorId) -> Error {
    let (ta, tb) = (&p.tensors[a], &p.tensors[b]);
    Error::BadViewShape {
        op: op_name(p, k),
        detail: format!(
            "'{}' {:?} {} does not fit '{}' {:?} {} (batch, height, width and precision must match, and the window must lie inside the cube)",
            ta.name, ta.shape, ta.precision, tb.name, tb.shape, tb.precision
        ),
    }
}
