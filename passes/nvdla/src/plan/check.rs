//! An independent check of a finished plan.
//!
//! In: a planned [`Program`]. Out: `Ok(())`, or the first [`Error`]
//! found, among:
//! * a non-fused tensor without a placement ([`Error::NotPlaced`]);
//! * a size or strides other than the cube layout (features; a strided
//!   window: its parent's strides and its extent) or the weight rule
//!   (weights), or a window not where its concat/slice/reshape puts it
//!   ([`Error::BadPlacement`]);
//! * a weight offset not 32-byte aligned (conv kernels: CBUF-entry aligned),
//!   a storage cube not 32-byte aligned, a window not atom aligned
//!   ([`Error::Misaligned`]);
//! * two tensors sharing bytes while both are live ([`Error::Overlap`]).
//!   Lifetimes are per tensor ([`super::liveness`]), finer than the
//!   planner's per-storage ones. Sharing is allowed only between a window
//!   and the cube it is a window of, between two members of one concat
//!   (column windows interleave but never share a byte), or between read-only views
//!   (slice/reshape results) of the same storage. Weights never share;
//!   bindable buffers are separate memories, compared only within one buffer.
//!
//! ```
//! use onnc_nvdla::{ConfigName, Program};
//! use onnc_nvdla::plan::{check, plan, PlanOptions};
//! let mut p = Program::new(ConfigName::NvFull);
//! plan(&mut p, &PlanOptions::default()).unwrap();
//! check(&p).unwrap();
//! ```

use super::layout::WEIGHT_ALIGN;
use super::liveness::tensor_lives;
use super::views::Views;
use super::weights::sizes;
use crate::config::Config;
use crate::program::{Placement, Pool, Program, TensorId, TensorKind};
use crate::{Error, Result};

/// Checks the placements of `p` (see the module doc).
pub fn check(p: &Program) -> Result<()> {
    let config = Config::get(p.config);
    let views = Views::build(p, &config)?;
    let weight_sizes = sizes(p, &config)?;
    let lives = tensor_lives(p);
    let producer_is_virtual = {
        let mut v = vec![false; p.tensors.len()];
        for op in &p.ops {
            v[op.output] = op.engine.is_virtual();
        }
        v
    };
    let mut placed: Vec<(TensorId, Placement)> = Vec::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        if tensor.kind == TensorKind::Fused {
            continue;
        }
        let Some(pl) = tensor.place.filter(|pl| pl.pool.is_some()) else {
            return Err(Error::NotPlaced {
                tensor: tensor.name.clone(),
            });
        };
        let pool = pl.pool.unwrap_or(Pool::Activations);
        let bad = |detail: String| Error::BadPlacement {
            tensor: tensor.name.clone(),
            detail,
        };
        let misaligned = |align: u64| Error::Misaligned {
            tensor: tensor.name.clone(),
            offset: pl.offset,
            align,
            pool: pool.as_str(),
        };
        if tensor.is_weight() {
            let (u, size) = weight_sizes[t];
            if pool != Pool::Weights || pl.size != size {
                return Err(bad(format!("is a weight used as {u:?}, so it needs pool weights and {size} bytes, but has {pool:?} and {} bytes", pl.size)));
            }
            if pl.offset % u.align(&config) != 0 {
                return Err(misaligned(u.align(&config)));
            }
        } else {
            let g = views.geometry[t];
            let cube = Placement {
                size: g.size,
                line_stride: u32::try_from(g.line).unwrap_or(u32::MAX),
                surf_stride: u32::try_from(g.surf).unwrap_or(u32::MAX),
                ..Placement::default()
            };
            if (pl.size, pl.line_stride, pl.surf_stride)
                != (cube.size, cube.line_stride, cube.surf_stride)
            {
                return Err(bad(format!(
                    "size/line/surface {}/{}/{} differ from its cube layout {}/{}/{}",
                    pl.size,
                    pl.line_stride,
                    pl.surf_stride,
                    cube.size,
                    cube.line_stride,
                    cube.surf_stride
                )));
            }
            let (root, off) = views.root[t];
            let root_pl = p.tensors[root].place.unwrap_or_default();
            if root != t && (root_pl.pool != pl.pool || root_pl.offset + off != pl.offset) {
                return Err(bad(format!(
                    "is a window at byte {off} of '{}' ({:?} offset {}), but is placed at {pool:?} offset {}",
                    p.tensors[root].name, root_pl.pool, root_pl.offset, pl.offset
                )));
            }
            let expected_pool = match tensor.kind {
                TensorKind::Input(_) | TensorKind::Output(_) => Some(Pool::Bind),
                _ => None,
            };
            if expected_pool.is_some_and(|e| e != pool) || pool == Pool::Weights {
                return Err(bad(format!(
                    "is a {} but sits in pool {pool:?}",
                    kind_name(tensor)
                )));
            }
            let align = if root == t {
                WEIGHT_ALIGN
            } else {
                config.mem_atom_bytes as u64
            };
            if pl.offset % align != 0 {
                return Err(misaligned(align));
            }
        }
        placed.push((t, pl));
    }
    placed.sort_by_key(|&(t, pl)| (pl.pool, pl.offset, t));
    for (i, &(a, pa)) in placed.iter().enumerate() {
        for &(b, pb) in &placed[i + 1..] {
            if pb.pool != pa.pool || pb.offset >= pa.offset + pa.size {
                break;
            }
            if pb.size == 0 || pa.size == 0 {
                continue;
            }
            let same_root = views.root[a].0 == views.root[b].0;
            let allowed = match pa.pool {
                Some(Pool::Weights) => false,
                Some(Pool::Bind) if !same_root => true,
                _ => {
                    let (la, lb) = (lives[a], lives[b]);
                    let disjoint_in_time = la.1 < lb.0 || lb.1 < la.0;
                    disjoint_in_time
                        || (same_root
                            && (views.contains(a, b)
                                || views.contains(b, a)
                                || views.disjoint(a, b)
                                || producer_is_virtual[a]
                                || producer_is_virtual[b]))
                }
            };
            if !allowed {
                let range = |pl: Placement| format!("{}..{}", pl.offset, pl.offset + pl.size);
                let life = |t: TensorId| format!("{}..={}", lives[t].0, lives[t].1);
                return Err(Error::Overlap {
                    first: p.tensors[a].name.clone(),
                    second: p.tensors[b].name.clone(),
                    detail: format!(
                        "bytes {} and {}, ops {} and {}",
                        range(pa),
                        range(pb),
                        life(a),
                        life(b)
                    ),
                    pool: pa.pool.map_or("?", Pool::as_str),
                });
            }
        }
    }
    Ok(())
}

fn kind_name(t: &crate::program::Tensor) -> &'static str {
    match t.kind {
        TensorKind::Input(_) => "network input",
        TensorKind::Output(_) => "network output",
        TensorKind::Activation => "activation",
        TensorKind::Fused => "fused",
        TensorKind::Weight(_) => "weight",
    }
}
