//! NVDLA (nv_full, nv_large, nv_small): CONV, SDP, PDP, CDP, RUBIK engines
//! and the EMU CPU path.
//!
//! In: an application e-node. Out: its [`Verdict`] or the violated limit.
//! Limits: ONNC `Operator.md` (research/onnc.md §2.2) and nvdla/sw
//! `TargetConfig.cpp` (research/nvdla.md §5). Work is in engine cycles:
//! CONV is output positions × kernel atoms (⌈K/atomic-K⌉·⌈C/atomic-C⌉·kh·kw),
//! plus weight bytes / 32, plus the SDP write-out; SDP/PDP/CDP is elements / 8;
//! RUBIK is bytes / 32; aliases (Reshape, Squeeze/Unsqueeze) are free and
//! Concat/Split on channels nearly so (surface offsets).
//!
//! ```
//! use onnc_legalize::targets::nvdla::ALIAS_OPS;
//! assert!(ALIAS_OPS.contains(&"Reshape"));
//! ```

use crate::analysis::Graph;
use crate::cond::{self, within};
use crate::lang::{ENode, OpKey};
use crate::legality::{binary_broadcast, conv_macs, Verdict};
use crate::target::Target;

/// Ops the compiler implements as memory aliases (no engine work).
pub const ALIAS_OPS: &[&str] = &["Reshape", "Squeeze", "Unsqueeze"];

/// Elements an SDP/PDP/CDP pass processes per cycle.
const ELEMS_PER_CYCLE: f64 = 8.0;
/// Bytes a memory-bound engine (weight fetch, RUBIK) moves per cycle.
const MEM_BYTES_PER_CYCLE: f64 = 32.0;

/// The verdict for `node` on an NVDLA configuration.
pub fn check(
    target: Target,
    eg: &Graph,
    node: &ENode,
    key: &OpKey,
    elems: f64,
) -> Result<Verdict, String> {
    let cfg = target.config();
    let t = target.name();
    let op = key.op_type.as_str();
    let x = cond::operand_shape(eg, node, 0).unwrap_or_default();
    let out = eg
        .lookup(node.clone())
        .and_then(|id| eg[id].data.shape())
        .unwrap_or_default();
    if out.len() > 4 {
        return Err(format!(
            "{op} produces a {}-D tensor; {t} handles at most 4-D",
            out.len()
        ));
    }
    let sdp = Verdict::Native(elems / ELEMS_PER_CYCLE);
    match op {
        "Reshape" | "Squeeze" | "Unsqueeze" => {
            if op == "Reshape" && !cond::operand_const(eg, node, 1) {
                return Err(format!("Reshape shape must be constant on {t}"));
            }
            Ok(Verdict::Free)
        }
        "Conv" => {
            if x.len() != 4 {
                return Err(format!("Conv input must be 4-D on {t}"));
            }
            if !cond::operand_const(eg, node, 1) {
                return Err(format!("Conv weights must be constant on {t}"));
            }
            if cond::operand_present(eg, node, 2) && !cond::operand_const(eg, node, 2) {
                return Err(format!("Conv bias must be constant on {t}"));
            }
            if !cond::explicit_pads(key) {
                return Err(format!("Conv auto_pad must be NOTSET on {t}"));
            }
            // Grouped and depthwise Convs run as one block-diagonal conv
            // cut into channel chunks (onnc_nvdla::lower::grouped): each
            // chunk holds about one group's input channels.
            let g = cond::group(key);
            let m = cond::operand_shape(eg, node, 1)
                .and_then(|w| w.first().copied())
                .unwrap_or(0);
            if g > 1 && (x[1] % g != 0 || m % g != 0) {
                return Err(format!(
                    "grouped Conv (group {g}) must divide its {} input and {m} output channels",
                    x[1]
                ));
            }
            let chunk_c = if g > 1 {
                (x[1] / g).div_ceil(cfg.atomic_c).max(1) * cfg.atomic_c
            } else {
                x[1]
            }
            .min(x[1]);
            let k = cond::kernel(key);
            within("Conv", "kernel", &k, cfg.conv_kernel_max, t)?;
            within(
                "Conv",
                "stride",
                &cond::strides(key),
                cfg.conv_stride_max,
                t,
            )?;
            within("Conv", "pad", &cond::pads(key), cfg.conv_pad_max, t)?;
            within(
                "Conv",
                "dilation",
                &cond::dilations(key),
                cfg.conv_dilation_max,
                t,
            )?;
            within("Conv", "input channels", &[x[1]], cfg.channels_max, t)?;
            cond::batch_ok(target, &x)?;
            let dil = cond::dilations(key).first().copied().unwrap_or(1);
            cond::conv_fits_cbuf(target, &x, chunk_c, &k, dil)?;
            let _ = conv_macs;
            let w = cond::operand_shape(eg, node, 1).unwrap_or_default();
            let m = w.first().copied().unwrap_or(1);
            let spatial = elems / m.max(1) as f64;
            let atoms = (m.div_ceil(cfg.atomic_k)
                * x[1].div_ceil(cfg.atomic_c)
                * k.iter().product::<usize>()) as f64;
            let weight_bytes = (w.iter().product::<usize>() * cfg.elem_bytes) as f64;
            // MAC atoms + weight fetch + the SDP write-out every CONV result passes through.
            Ok(Verdict::Native(
                spatial * atoms + weight_bytes / MEM_BYTES_PER_CYCLE + elems / ELEMS_PER_CYCLE,
            ))
        }
        "MaxPool" | "AveragePool" => {
            if x.len() != 4 {
                return Err(format!("{op} input must be 4-D on {t}"));
            }
            if key.n_out != 1 {
                return Err(format!(
                    "{op} with an Indices result is not supported by {t}"
                ));
            }
            if !cond::explicit_pads(key) {
                return Err(format!("{op} auto_pad must be NOTSET on {t}"));
            }
            if cond::dilations(key).iter().any(|&d| d != 1) {
                return Err(format!("{op} dilation is not supported by {t}"));
            }
            let k = cond::kernel(key);
            within(op, "kernel", &k, cfg.pool_kernel_max, t)?;
            within(op, "stride", &cond::strides(key), cfg.pool_stride_max, t)?;
            within(op, "pad", &cond::pads(key), cfg.pool_pad_max, t)?;
            if op == "AveragePool"
                && key.int("count_include_pad").unwrap_or(0) == 0 // the ONNX default
                && cond::pads(key).iter().any(|&p| p > 0)
            {
                return Err(format!("AveragePool with padding and count_include_pad=0 is not supported by {t} (PDP divides by the whole window)"));
            }
            if key.int("storage_order").unwrap_or(0) != 0 {
                return Err(format!("MaxPool storage_order=1 is not supported by {t}"));
            }
            cond::batch_ok(target, &x)?;
            Ok(Verdict::Native(
                elems * k.iter().product::<usize>() as f64 / ELEMS_PER_CYCLE,
            ))
        }
        "Relu" => Ok(sdp),
        "PRelu" => {
            if !cond::operand_const(eg, node, 1) {
                return Err(format!("PRelu slope must be constant on {t}"));
            }
            Ok(sdp)
        }
        // clamp(αx + β, 0, 1) on the X units: no LUT needed.
        "HardSigmoid" => Ok(sdp),
        // The Y unit's lookup table (onnc-nvdla `lower::activation`).
        "Sigmoid" | "Tanh" | "Softplus" | "HardSwish" | "Mish" | "Swish" | "Erf" => {
            if cfg.has_lut {
                Ok(sdp)
            } else {
                Err(format!(
                    "{op} needs the SDP lookup table, which {t} does not have"
                ))
            }
        }
        "Add" | "Mul" | "Max" | "Min" | "Sub" => {
            if node.children.len() != 2 {
                return Err(format!(
                    "{op} with {} operands is not supported by {t}",
                    node.children.len()
                ));
            }
            if op == "Sub" && cond::operand_const(eg, node, 1) {
                // `common/sub-const-to-add` makes it an Add of −c.
                return Err(format!("Sub of a constant runs as an Add on {t}"));
            }
            sdp_binary(eg, node, op, target)?;
            Ok(sdp)
        }
        "LRN" => {
            let size = key.int("size").unwrap_or(0);
            if [3, 5, 7, 9].contains(&size) {
                Ok(Verdict::Native(elems * size as f64 / ELEMS_PER_CYCLE))
            } else {
                Err(format!("LRN size {size} is not one of 3, 5, 7, 9 on {t}"))
            }
        }
        "Concat" | "Split" => {
            let axis = key.int("axis").unwrap_or(0);
            if x.len() == 4 && (axis == 1 || axis == -3) {
                Ok(Verdict::Native(elems / (ELEMS_PER_CYCLE * 16.0)))
            } else if x.len() == 3 && (axis == 1 || axis == -2) {
                Err(format!(
                    "{op} of 3-D tokens {x:?} on axis {axis} (the token axis) is not supported by {t}: the tokens are the positions of the cube [N, K, T, 1] and {t} joins or cuts channels only"
                ))
            } else {
                Err(format!(
                    "{op} on axis {axis} is not supported by {t} (channels only)"
                ))
            }
        }
        "Slice" => {
            // A channel window (a surface offset when aligned, else a 1×1
            // selection conv) and/or a strided spatial window (a selection
            // conv with the step as stride): see `nvdla_moves`.
            super::nvdla_moves::slice(eg, node, &x, &out)
                .map(|()| Verdict::Native(elems / (ELEMS_PER_CYCLE * 16.0)))
                .map_err(|e| format!("Slice is supported by {t} only as {e}"))
        }
        "Pad" => super::nvdla_moves::pad(eg, node, key, &x, cfg.conv_pad_max)
            .map(|()| {
                // A 1×1 selection conv: positions × kernel atoms + the SDP write-out,
                // so a Pad that can join its consumer's padding always does.
                let (k, c) = (out.get(1).copied().unwrap_or(1), x.get(1).copied().unwrap_or(1));
                let atoms = (k.div_ceil(cfg.atomic_k) * c.div_ceil(cfg.atomic_c)) as f64;
                Verdict::Native(elems / k.max(1) as f64 * atoms + elems / ELEMS_PER_CYCLE)
            })
            .map_err(|e| format!("Pad is supported by {t} only as {e}")),
        "Resize" | "ConvTranspose" => {
            use super::nvdla_upsample as up;
            if op == "Resize" {
                up::resize(eg, node, key, &x, &out).map_err(|e| {
                    format!("Resize is not an upsampling {t} maps exactly ({e}); {t} maps {}, up to factor {}", onnc_onnx::upsample::EXACT_MODES, up::MAX_CONTRACT_STRIDE)
                })?;
            } else {
                up::conv_transpose(eg, node, key)
                    .map_err(|e| format!("ConvTranspose is supported by {t} only with {e}"))?;
            }
            // The phase convolution (about one tap per input atom and output
            // element), its SDP write-out, and RUBIK's copy; without RUBIK
            // the SDP copies every element twice instead.
            let atoms = x.get(1).copied().unwrap_or(1).div_ceil(cfg.atomic_c) as f64;
            let mover = if cfg.has_rubik {
                elems * cfg.elem_bytes as f64 / MEM_BYTES_PER_CYCLE
            } else {
                up::without_rubik(op, key, &x, &out)?;
                2.0 * elems / ELEMS_PER_CYCLE
            };
            Ok(Verdict::Native(
                elems * atoms + elems / ELEMS_PER_CYCLE + mover,
            ))
        }
        crate::target_ops::CHANNEL_SHUFFLE => {
            if cfg.has_rubik {
                Ok(Verdict::Native(
                    elems * cfg.elem_bytes as f64 / MEM_BYTES_PER_CYCLE,
                ))
            } else {
                Err(format!(
                    "channel shuffle needs RUBIK, which {t} does not have"
                ))
            }
        }
        "Softmax" => Err(format!(
            "Softmax runs only on {t}'s CPU path (EMU), which needs every dimension but the softmax axis to be 1"
        )),
        "Pow" => Err(format!("Pow runs only on {t}'s CPU path (EMU), which needs a constant scalar exponent")),
        "MatMul" if super::nvdla_transformer::token_matmul(eg, node, &x) => {
            // A 1×1 convolution over the T tokens as positions
            // (onnc-nvdla `lower::tokens`): the cube [N, K, T, 1].
            let b = cond::operand_shape(eg, node, 1).unwrap_or_default();
            let cube = [x[0], x[2], x[1], 1];
            within("MatMul", "reduction length", &[x[2]], cfg.channels_max, t)?;
            cond::batch_ok(target, &cube)?;
            cond::conv_fits_cbuf(target, &cube, x[2], &[1, 1], 1)?;
            let m = b.get(1).copied().unwrap_or(1);
            let atoms = (m.div_ceil(cfg.atomic_k) * x[2].div_ceil(cfg.atomic_c)) as f64;
            let weight_bytes = (b.iter().product::<usize>() * cfg.elem_bytes) as f64;
            Ok(Verdict::Native(
                x[1] as f64 * atoms + weight_bytes / MEM_BYTES_PER_CYCLE + elems / ELEMS_PER_CYCLE,
            ))
        }
        // [N, C, L] ↔ [N, L, C]: the same cube [N, C, L, 1] read as channels
        // or as tokens (onnc-nvdla `lower::tokens`), no data moves.
        "Transpose" if x.len() == 3 && key.ints("perm") == Some(&[0, 2, 1][..]) => Ok(Verdict::Free),
        "LayerNormalization" if super::nvdla_transformer::token_layer_norm(key, &x) => {
            // Convolutions to 1 channel and back, SDP products and 1/√:
            // the Y unit's table in FP16, the EMU's power op (the CPU) in
            // INT8 (onnc-nvdla `lower::tokens`): about four SDP passes and
            // three 1×1 convolutions of K channels.
            let k = x.get(2).copied().unwrap_or(1);
            within("LayerNormalization", "feature count", &[k], cfg.channels_max, t)?;
            Ok(Verdict::Native(6.0 * elems / ELEMS_PER_CYCLE + 3.0 * elems * k.div_ceil(cfg.atomic_c) as f64 / k.max(1) as f64))
        }
        "LayerNormalization" | "MatMul" | "Transpose" | "Gather" => {
            Err(super::nvdla_transformer::refusal(eg, node, key, &x, &out, t))
        }
        _ => Err(format!("{op} is not supported by {t}")),
    }
}

/// The operands an SDP element-wise op reads: [`binary_broadcast`]'s, and
/// two activations where one holds a value per channel (`[N, C, 1, 1]`
/// against a 4-D `[N, C, H, W]`: squeeze-excitation), which X1/X2 read as a
/// per-kernel operand from memory. (`Sub` runs as a negation and an add.)
fn sdp_binary(eg: &Graph, node: &ENode, op: &str, target: Target) -> cond::Check {
    if super::nvdla_transformer::token_operand(eg, node) {
        return Ok(());
    }
    let shape = |i| cond::operand_shape(eg, node, i).filter(|_| !cond::operand_const(eg, node, i));
    if let (Some(a), Some(b)) = (shape(0), shape(1)) {
        let per_channel = |v: &[usize], full: &[usize]| {
            v.len() == 4 && full.len() == 4 && v[..2] == full[..2] && v[2..] == [1, 1]
        };
        if per_channel(&a, &b) || per_channel(&b, &a) {
            return Ok(());
        }
    }
    binary_broadcast(eg, node, op, target)
}
