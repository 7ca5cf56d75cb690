//! The condition vocabulary: named predicates and measurements that rules
//! and legality checks use, so conditions read like the hardware manual.
//!
//! In: an e-node (its [`OpKey`] attributes) and the e-graph's analysis data.
//! Out: numbers (`kernel`, `strides`, `pads`, `group`, `channels`) and
//! checks that return `Err(reason)` naming the violated limit, e.g.
//! `"MaxPool kernel 9 exceeds nv_full's limit of 8"`.
//!
//! ```
//! use onnc_legalize::cond::within;
//! assert!(within("Conv", "stride", &[1, 2], 8, "nv_full").is_ok());
//! assert_eq!(
//!     within("MaxPool", "kernel", &[9, 9], 8, "nv_full").unwrap_err(),
//!     "MaxPool kernel 9 exceeds nv_full's limit of 8"
//! );
//! ```

use crate::analysis::Graph;
use crate::lang::{ENode, OpKey};
use crate::target::{Config, Target};

/// A check: `Ok` or the violated limit, in words.
pub type Check = Result<(), String>;

/// Every value of `vals` is at most `max`, else `"<op> <what> <v> exceeds <target>'s limit of <max>"`.
pub fn within(op: &str, what: &str, vals: &[usize], max: usize, target: &str) -> Check {
    match vals.iter().find(|&&v| v > max) {
        Some(v) => Err(format!("{op} {what} {v} exceeds {target}'s limit of {max}")),
        None => Ok(()),
    }
}

/// A non-negative integer list attribute as `usize`s (empty when absent or negative).
pub fn uints(key: &OpKey, name: &str) -> Vec<usize> {
    key.ints(name)
        .map(|v| v.iter().map(|&x| x.max(0) as usize).collect())
        .unwrap_or_default()
}

/// `kernel_shape`.
pub fn kernel(key: &OpKey) -> Vec<usize> {
    uints(key, "kernel_shape")
}

/// `strides` (1s when absent).
pub fn strides(key: &OpKey) -> Vec<usize> {
    let s = uints(key, "strides");
    if s.is_empty() {
        vec![1; kernel(key).len()]
    } else {
        s
    }
}

/// `pads` (`[b1, b2, …, e1, e2, …]`; zeros when absent).
pub fn pads(key: &OpKey) -> Vec<usize> {
    let p = uints(key, "pads");
    if p.is_empty() {
        vec![0; 2 * kernel(key).len()]
    } else {
        p
    }
}

/// `dilations` (1s when absent).
pub fn dilations(key: &OpKey) -> Vec<usize> {
    let d = uints(key, "dilations");
    if d.is_empty() {
        vec![1; kernel(key).len()]
    } else {
        d
    }
}

/// `group` (1 when absent).
pub fn group(key: &OpKey) -> usize {
    key.int("group").unwrap_or(1).max(1) as usize
}

/// `auto_pad` is `NOTSET` (or absent).
pub fn explicit_pads(key: &OpKey) -> bool {
    matches!(key.string("auto_pad"), None | Some("NOTSET"))
}

/// The static shape of operand `i` of `node`.
pub fn operand_shape(eg: &Graph, node: &ENode, i: usize) -> Option<Vec<usize>> {
    eg[*node.children.get(i)?].data.shape()
}

/// Whether operand `i` of `node` is constant.
pub fn operand_const(eg: &Graph, node: &ENode, i: usize) -> bool {
    node.children.get(i).is_some_and(|c| eg[*c].data.konst)
}

/// Whether operand `i` of `node` is present (not an absent optional).
pub fn operand_present(eg: &Graph, node: &ENode, i: usize) -> bool {
    node.children.get(i).is_some_and(|c| {
        !eg[*c]
            .nodes
            .iter()
            .any(|n| matches!(n.op, crate::lang::Op::Absent))
    })
}

/// Channels (dimension 1) of a 4-D shape.
pub fn channels(shape: &[usize]) -> Option<usize> {
    (shape.len() == 4).then(|| shape[1])
}

/// Whether a Conv is depthwise: `group == C_in > 1`.
pub fn is_depthwise(key: &OpKey, x_shape: &[usize]) -> bool {
    let g = group(key);
    g > 1 && channels(x_shape) == Some(g)
}

/// Bytes of the convolution buffer a direct convolution needs at least:
/// `kernel_h` input rows of the whole width and all channels (the emitter
/// splits the rest of the height), plus one atom of `atomic_k` kernels,
/// each rounded up as the emitter allots them: a line to whole CBUF
/// entries, the data and the weights to whole banks (without the bank
/// rounding, VGG-19's first FC layer on nv_small was cut into parts of 296
/// channels that need 4 + 29 of the 32 banks). `c_in` is the number of
/// input channels the convolution reads; `dilation_h` the vertical
/// dilation: a dilated kernel spans `(kernel_h − 1)·dilation_h + 1` input
/// rows (FCN's dilated ResNet: 9 rows for a 3×3 at dilation 4).
pub fn conv_cbuf_need(
    cfg: &Config,
    x: &[usize],
    c_in: usize,
    kernel: &[usize],
    dilation_h: usize,
) -> usize {
    let (w, kh, kw) = (
        x.get(3).copied().unwrap_or(1),
        kernel.first().copied().unwrap_or(1),
        kernel.get(1).copied().unwrap_or(1),
    );
    let rows = kh.saturating_sub(1).saturating_mul(dilation_h.max(1)) + 1;
    let entry = cfg.cbuf_entry_bytes.max(1);
    let bank = (cfg.cbuf_bytes / cfg.cbuf_banks.max(1)).max(1);
    let up = |n: usize, m: usize| n.div_ceil(m).saturating_mul(m);
    let line = up(c_in.saturating_mul(cfg.elem_bytes), entry).saturating_mul(w);
    let data = rows.saturating_mul(line);
    let weights = c_in
        .saturating_mul(kh * kw)
        .saturating_mul(cfg.elem_bytes)
        .saturating_mul(cfg.atomic_k);
    up(data, bank).saturating_add(up(up(weights, entry), bank))
}

/// The convolution fits the target's CBUF, else the reason.
pub fn conv_fits_cbuf(
    target: Target,
    x: &[usize],
    c_in: usize,
    kernel: &[usize],
    dilation_h: usize,
) -> Check {
    let cfg = target.config();
    let need = conv_cbuf_need(&cfg, x, c_in, kernel, dilation_h);
    if need <= cfg.cbuf_bytes {
        Ok(())
    } else {
        Err(format!(
            "Conv needs {need} bytes of convolution buffer ({c_in} input channels, kernel {kernel:?}) but {target} has {}",
            cfg.cbuf_bytes
        ))
    }
}

/// The largest channel chunk (a multiple of `atomic_c`, at least `atomic_c`) whose convolution fits the CBUF.
pub fn conv_channel_chunk(
    target: Target,
    x: &[usize],
    kernel: &[usize],
    dilation_h: usize,
) -> usize {
    let cfg = target.config();
    let c = channels(x).unwrap_or(1);
    let mut chunk = c.div_ceil(cfg.atomic_c) * cfg.atomic_c;
    while chunk > cfg.atomic_c
        && conv_cbuf_need(&cfg, x, chunk, kernel, dilation_h) > cfg.cbuf_bytes
    {
        chunk -= cfg.atomic_c;
    }
    chunk.min(c)
}

/// The batch is within the target's limit.
pub fn batch_ok(target: Target, shape: &[usize]) -> Check {
    let max = target.config().max_batch.max(1);
    match shape.first() {
        Some(&n) if shape.len() == 4 && n > max => {
            Err(format!("batch {n} exceeds {target}'s limit of {max}"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbuf_chunks_are_atom_multiples() {
        let x = [1, 512, 7, 7];
        assert!(conv_fits_cbuf(Target::NvFull, &x, 512, &[7, 7], 1).is_err());
        let c = conv_channel_chunk(Target::NvFull, &x, &[7, 7], 1);
        assert_eq!(c % 64, 0);
        assert!(conv_fits_cbuf(Target::NvFull, &x, c, &[7, 7], 1).is_ok());
    }

    /// VGG-19's first FC layer as the 7×7 conv over 512 channels it is on
    /// nv_small: each part's line (whole entries) and kernel group fit the
    /// 32 banks once both are rounded to banks.
    #[test]
    fn fc_parts_fit_whole_banks_on_nv_small() {
        let x = [1, 512, 7, 7];
        let c = conv_channel_chunk(Target::NvSmall, &x, &[7, 7], 1);
        // 296 channels: 4 data banks + 29 weight banks > 32.
        assert!(c < 296 && c.is_multiple_of(8), "{c}");
        let bank = 4096;
        let data = (7 * 7 * c).div_ceil(bank);
        let weights = (8 * c * 49).div_ceil(bank);
        assert!(data + weights <= 32, "{c}: {data} + {weights}");
    }

    #[test]
    fn small_convs_fit() {
        assert!(conv_fits_cbuf(Target::NvSmall, &[1, 64, 56, 56], 64, &[3, 3], 1).is_ok());
    }

    /// FCN's dilated layer4 conv2 (3×3 over 512 channels at dilation 4, 28
    /// wide) reads 9 rows: 126 KiB of rows plus 36 KiB of kernels do not fit
    /// nv_small's 128 KiB, although the undilated rows would.
    #[test]
    fn dilation_counts_the_rows_the_kernel_spans() {
        let x = [1, 512, 28, 28];
        assert!(conv_fits_cbuf(Target::NvSmall, &x, 512, &[3, 3], 1).is_ok());
        assert!(conv_fits_cbuf(Target::NvSmall, &x, 512, &[3, 3], 4).is_err());
        let c = conv_channel_chunk(Target::NvSmall, &x, &[3, 3], 4);
        assert!(c < 512 && c.is_multiple_of(8), "{c}");
        assert!(conv_fits_cbuf(Target::NvSmall, &x, c, &[3, 3], 4).is_ok());
    }
}
