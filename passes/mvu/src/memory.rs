//! RAM footprint of one layer and the per-job base-pointer steps.
//!
//! In: a validated [`Layer`] and its output column count. Out: [`MemoryUse`]
//! (words of the data RAM and the weight RAM the layer touches, and how far the
//! input / output base pointers advance between two jobs).
//!
//! Layout assumptions (BARVINN `docs/design.rst`): activations are NHWC in
//! 64-channel blocks, bit-serial, so one pixel of one channel block takes `prec`
//! consecutive 64-bit words; weights are 64x64 tiles, `wp` 4096-bit words per tile.
//! A conv job produces one output row; a matmul job one output vector.
//!
//! ```
//! use onnc_mvu::{ConvShape, Layer, MemoryUse, Precision};
//! let l = Layer::conv("c", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1), Precision::new(2, 2, 2));
//! let m = MemoryUse::of(&l, 30);
//! assert_eq!((m.input_words, m.weight_words, m.input_step, m.output_step), (2048, 18, 64, 60));
//! ```

use serde::Serialize;

use crate::layer::{Layer, LayerOp};
use crate::registers::blocks;

/// Words and steps of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemoryUse {
    /// 64-bit data-RAM words of the whole input: `iC·iH·iW·ip` (matmul: `rows·m_w·ip`).
    pub input_words: u64,
    /// 64-bit data-RAM words of the whole output: `fC·oH·oW·op` (matmul: `rows·m_h·op`).
    pub output_words: u64,
    /// 4096-bit weight-RAM words the schedule walks: `fC·iC·fH·fW·wp` (matmul: `m_h·m_w·wp`).
    pub weight_words: u64,
    /// `mvuibaseptr` advance per job: `sH·iW·iC·ip` (matmul: `m_w·ip`).
    pub input_step: u64,
    /// `mvuobaseptr` advance per job: `columns·fC·op` (matmul: `m_h·op`).
    pub output_step: u64,
}

impl MemoryUse {
    /// Footprint of `layer`; `columns` is the conv's output columns per job
    /// (ignored for matmul). Saturates instead of overflowing.
    pub fn of(layer: &Layer, columns: u64) -> MemoryUse {
        let p = &layer.precision;
        let (ip, wp, op) = (u64::from(p.act), u64::from(p.weight), u64::from(p.out));
        let mul = |xs: &[u64]| xs.iter().fold(1u64, |a, &x| a.saturating_mul(x));
        match layer.op {
            LayerOp::Conv(c) => {
                let ic = blocks(c.in_channels.into());
                let fc = blocks(c.out_channels.into());
                let [oh, ow] = c.output_hw().map(|hw| hw.map(u64::from)).unwrap_or([0, 0]);
                let (fh, fw) = (u64::from(c.kernel[0]), u64::from(c.kernel[1]));
                if let (Some(pool), Some([ph, pw])) =
                    (&layer.pool, layer.output_chw().map(|[_, h, w]| [h, w]))
                {
                    // One job per pooled pixel and filter block: the input
                    // pointer steps one pool stride of conv outputs.
                    return MemoryUse {
                        input_words: mul(&[ic, c.in_height.into(), c.in_width.into(), ip]),
                        output_words: mul(&[fc, ph.into(), pw.into(), op]),
                        weight_words: mul(&[fc, ic, fh, fw, wp]),
                        input_step: mul(&[pool.strides[1].into(), c.strides[1].into(), ic, ip]),
                        output_step: op,
                    };
                }
                MemoryUse {
                    input_words: mul(&[ic, c.in_height.into(), c.in_width.into(), ip]),
                    output_words: mul(&[fc, oh, ow, op]),
                    weight_words: mul(&[fc, ic, fh, fw, wp]),
                    input_step: mul(&[c.strides[0].into(), c.in_width.into(), ic, ip]),
                    output_step: mul(&[columns, fc, op]),
                }
            }
            LayerOp::MatMul(m) => {
                let mh = blocks(m.out_features.into());
                let mw = blocks(m.in_features.into());
                MemoryUse {
                    input_words: mul(&[m.rows.into(), mw, ip]),
                    output_words: mul(&[m.rows.into(), mh, op]),
                    weight_words: mul(&[mh, mw, wp]),
                    input_step: mul(&[mw, ip]),
                    output_step: mul(&[mh, op]),
                }
            }
        }
    }
}
