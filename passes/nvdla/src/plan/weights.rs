//! The weight pool: every constant packed once, in tensor order.
//!
//! In: a [`Program`]. Out: `Tensor::place` of every weight (pool `Weights`)
//! and the pool size. Each weight's size and alignment follow how ops read it
//! ([`WeightUse`], the strictest use wins): conv kernels are padded to the
//! CBUF entry and aligned to it (a conv emitted in channel chunks needs only
//! its chunks' blocks, `emit::chunking`; a grouped conv emitted whole, its
//! dense kernel, `group` times its values), SDP `per_kernel` operands are padded to the
//! memory atom, operands read as cubes (`per_point`, or by other engines) get
//! the cube layout with its strides; every offset is 32-byte aligned.
//!
//! ```text
//! nv_full, fp16: w1 [20,1,5,5] conv (1000 B → 1024 @0), b1 [1,20,1,1] per_kernel (40 → 64 @1024)
//! ```

use super::error::op_name;
use super::layout::{align_up, conv_granule, cube_layout, WeightUse};
use crate::config::Config;
use crate::emit::chunking::{chunked_weights, planned_bytes};
use crate::grouped_kernel::conv_group;
use crate::program::{Engine, Placement, Pool, Program, TensorKind};
use crate::{Error, Result};

/// How each tensor is used as a weight (only weights' entries matter).
pub(crate) fn uses(p: &Program) -> Result<Vec<WeightUse>> {
    let mut uses = vec![WeightUse::Unused; p.tensors.len()];
    for (k, op) in p.ops.iter().enumerate() {
        for (slot, t) in op.inputs.iter().enumerate() {
            let Some(t) = *t else { continue };
            if !p.tensors[t].is_weight() {
                continue;
            }
            let u = match (op.engine, slot) {
                (Engine::Conv, 1) => WeightUse::ConvKernel,
                (Engine::Sdp, 1..=3) => {
                    let unit = ["x1_op", "x2_op", "y_op"][slot - 1];
                    match op.str(&format!("{unit}.mode")) {
                        Some("per_kernel") => WeightUse::PerKernel,
                        Some("per_point") => WeightUse::Cube,
                        other => {
                            return Err(Error::BadOperand {
                                op: op_name(p, k),
                                detail: format!(
                                    "weight '{}' feeds the {unit} sub-unit whose {unit}.mode is {other:?}; an operand needs mode \"per_kernel\" or \"per_point\" (\"per_layer\" uses immediates)",
                                    p.tensors[t].name
                                ),
                            })
                        }
                    }
                }
                _ => WeightUse::Cube,
            };
            uses[t] = uses[t].max(u);
        }
    }
    Ok(uses)
}

/// Per tensor, how it is used as a weight and the bytes it needs: a conv
/// kernel emitted in channel chunks ([`chunked_weights`]) needs only its
/// chunks' blocks, rounded up to the conv granule; any other weight
/// [`WeightUse::size`]. Only weights' entries matter.
pub(crate) fn sizes(p: &Program, config: &Config) -> Result<Vec<(WeightUse, u64)>> {
    let uses = uses(p)?;
    let chunked = chunked_weights(p, config);
    // A grouped conv's kernel emitted whole is laid out as its dense
    // kernel: `group` times its own values.
    let mut groups = vec![1u64; p.tensors.len()];
    for op in p.ops.iter().filter(|o| o.engine == Engine::Conv) {
        if let Some(w) = op.inputs.get(1).copied().flatten() {
            groups[w] = groups[w].max(conv_group(op) as u64);
        }
    }
    Ok(p.tensors
        .iter()
        .enumerate()
        .map(|(t, tensor)| {
            let u = uses[t];
            let size = match chunked.get(&t) {
                Some(chunks) if u == WeightUse::ConvKernel => {
                    align_up(planned_bytes(chunks), conv_granule(config))
                }
                None if u == WeightUse::ConvKernel && groups[t] > 1 => {
                    let raw = tensor.elements() as u64 * tensor.precision.bytes() as u64;
                    align_up(raw.saturating_mul(groups[t]), conv_granule(config))
                }
                _ => u.size(tensor, config),
            };
            (u, size)
        })
        .collect())
}

/// Places every weight of `p`; returns the weight pool's size in bytes.
pub(crate) fn place(p: &mut Program, config: &Config) -> Result<u64> {
    let sizes = sizes(p, config)?;
    let mut top = 0u64;
    for (t, tensor) in p.tensors.iter_mut().enumerate() {
        if !matches!(tensor.kind, TensorKind::Weight(_)) {
            continue;
        }
        let (u, size) = sizes[t];
        let offset = align_up(top, u.align(config));
        let (line_stride, surf_stride) = match u {
            WeightUse::Cube => {
                let c = cube_layout(&tensor.shape, tensor.precision, config);
                (c.line_stride, c.surf_stride)
            }
            _ => (0, 0),
        };
        tensor.place = Some(Placement {
            pool: Some(Pool::Weights),
            offset,
            size,
            line_stride,
            surf_stride,
        });
        top = offset + size;
    }
    Ok(top)
}
