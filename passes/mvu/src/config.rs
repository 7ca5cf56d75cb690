//! The configuration table: one row of MVU register values per layer.
//!
//! In: `&[Layer]` and [`Options`]. Out: [`Table`] (rows in layer order and the
//! total countdown), or the first [`Error`]. This is the engine the MLIR
//! lowering calls, one [`configure`] per `mvu.conv` / `mvu.matmul` op, or
//! [`generate`] for a whole network.
//!
//! ```
//! use onnc_mvu::{generate, ConvShape, Layer, Options, Precision};
//! let l = Layer::conv("Conv_0", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1), Precision::new(8, 8, 8));
//! let t = generate(&[l], &Options::default()).unwrap();
//! assert_eq!(t.rows[0].ilength, [0, 63, 2, 2, 0]);
//! assert_eq!(t.rows[0].countdown, 17280);
//! assert_eq!(t.total_countdown, 587520);
//! ```

use serde::Serialize;

use crate::error::{Error, Result};
use crate::layer::{Layer, LayerKind, LayerOp};
use crate::limits::MvuLimits;
use crate::memory::MemoryUse;
use crate::registers::{conv_schedule, matmul_schedule, output_columns, FractionalColumns};
use crate::verify::{check_capacity, check_layer, check_registers};

/// Generation options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Refuse layers whose input, output or weights exceed one MVU's RAM.
    pub check_capacity: bool,
    /// RAM capacities used by the capacity check.
    pub limits: MvuLimits,
    /// Treatment of a non-integral conv column count.
    pub fractional_columns: FractionalColumns,
}

impl Default for Options {
    /// Every check on (what a compiler wants).
    fn default() -> Self {
        Options {
            check_capacity: true,
            limits: MvuLimits::BARVINN,
            fractional_columns: FractionalColumns::Reject,
        }
    }
}

impl Options {
    /// BARVINN's generator: no RAM capacity check (its published ResNet-18
    /// table has layers whose weights exceed one MVU's weight RAM).
    pub fn barvinn() -> Self {
        Options {
            check_capacity: false,
            ..Options::default()
        }
    }
}

/// One layer's MVU configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Layer name.
    pub name: String,
    /// `conv` or `matmul`.
    pub kind: LayerKind,
    /// Activation precision.
    pub aprec: u32,
    /// Weight precision.
    pub wprec: u32,
    /// Output precision.
    pub oprec: u32,
    /// `[iC, iH, iW]`, `iC` in 64-channel blocks (matmul: `[1, rows, in]`).
    #[serde(rename = "iShape")]
    pub i_shape: [u64; 3],
    /// `[fC, fH, fW]`, `fC` in 64-channel blocks (matmul: `[ceil(out/64), out, in]`).
    #[serde(rename = "fShape")]
    pub f_shape: [u64; 3],
    /// Input length registers `[l0..l4]` (l0 is not a register and always 0).
    pub ilength: [i64; 5],
    /// Input jump registers.
    pub ijump: [i64; 5],
    /// Weight length registers (l0 always 0).
    pub wlength: [i64; 5],
    /// Weight jump registers.
    pub wjump: [i64; 5],
    /// Clock cycles of one MVU job.
    pub countdown: u64,
    /// BARVINN's cycles for the whole layer.
    pub total_layer_countdown: u64,
    /// MVU jobs a program kicks: the ONNX output rows `oH` for conv (one job
    /// per output row, as BARVINN's own programs loop), `rows` for matmul.
    /// BARVINN's `total_layer_countdown` counts `ceil((iW + pads[0] + pads[1]) /
    /// strides[1])` rows instead (34 vs 32 for SimpleConv).
    pub jobs: u64,
    /// RAM footprint and per-job pointer steps.
    pub memory: MemoryUse,
    /// ReLU in the output pipeline (the pooler cleared to 0 before each output).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub relu: bool,
    /// Max pooling in the output pipeline: one job per pooled pixel and
    /// 64-channel block ([`crate::pooled_schedule`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<crate::layer::Pool>,
    /// First bias-RAM word the layer reads (`mvubbaseptr`), when it adds a
    /// bias through the bias RAM.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bias_base: Option<u32>,
    /// The layer this row was made from (not serialized).
    #[serde(skip)]
    pub layer: Layer,
}

impl Row {
    /// `mvuprecision`: `wp | ip<<6 | op<<12 | weight_signed<<24 | act_signed<<25`.
    pub fn precision_word(&self) -> u32 {
        let p = &self.layer.precision;
        let f = |v: u32| v & 0x3f; // 6-bit fields (BPREC)
        f(p.weight)
            | (f(p.act) << 6)
            | (f(p.out) << 12)
            | (u32::from(p.weight_signed) << 24)
            | (u32::from(p.act_signed) << 25)
    }

    /// Whether the jobs go through the pooler (`max(0, ·)` over the window):
    /// for a ReLU or a window of more than one output. A 1×1 window without
    /// ReLU only gives the layer one job per pixel (a Concat part written
    /// between the other parts' words) and bypasses the pooler.
    pub fn uses_pooler(&self) -> bool {
        self.relu || self.pool.is_some_and(|p| p.kernel != [1, 1])
    }

    /// `mvuquant`: the quantizer MSB index (low bits, as the MVU RTL decodes it).
    pub fn quant_word(&self) -> u32 {
        self.layer.quant_msb.unwrap_or(self.oprec.saturating_sub(1))
    }

    /// `mvucommand`: MulMode `01` (bit 30), max-pool enable (bit 29, set for a
    /// pooled layer or a ReLU, both done by the pooler; not for the 1×1
    /// one-pixel jobs of a Concat part without ReLU, [`Row::uses_pooler`])
    /// and the countdown.
    pub fn command_word(&self) -> u32 {
        let pool = u32::from(self.uses_pooler()) << 29;
        (1 << 30) | pool | (self.countdown as u32 & ((1 << 29) - 1))
    }
}

/// The configuration of a whole network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Table {
    /// One row per layer, in order.
    pub rows: Vec<Row>,
    /// Sum of the rows' `total_layer_countdown`.
    pub total_countdown: u64,
}

/// Configures one layer: validates it, computes its registers and checks them.
pub fn configure(layer: &Layer, opts: &Options) -> Result<Row> {
    check_layer(layer)?;
    let (raw, columns) = match (&layer.op, &layer.pool) {
        (LayerOp::Conv(c), Some(pool)) => {
            let hw = c.output_hw().unwrap_or([0, 0]);
            if !crate::pool::windows_whole(pool, hw) {
                return Err(Error::PoolWindows {
                    layer: layer.name.clone(),
                    kernel: pool.kernel,
                    pads: pool.pads,
                    ceil_mode: pool.ceil_mode,
                });
            }
            (crate::pool::pooled_schedule(c, &layer.precision, pool), 1)
        }
        (LayerOp::Conv(c), None) => {
            let columns = output_columns(&layer.name, c, opts.fractional_columns)?;
            (conv_schedule(c, &layer.precision, columns), columns)
        }
        (LayerOp::MatMul(m), _) => (matmul_schedule(m, &layer.precision), 0),
    };
    let regs = check_registers(&layer.name, &raw)?;
    let memory = MemoryUse::of(layer, columns);
    if opts.check_capacity {
        check_capacity(&layer.name, &memory, &opts.limits)?;
    }
    let p = &layer.precision;
    Ok(Row {
        name: layer.name.clone(),
        kind: layer.kind(),
        aprec: p.act,
        wprec: p.weight,
        oprec: p.out,
        i_shape: raw.i_shape,
        f_shape: raw.f_shape,
        ilength: regs.ilength,
        ijump: regs.ijump,
        wlength: regs.wlength,
        wjump: regs.wjump,
        countdown: regs.countdown,
        total_layer_countdown: regs.total_layer_countdown,
        jobs: if layer.pool.is_some() {
            raw.total_rows as u64
        } else {
            layer.output_chw().map_or(0, |[_, h, _]| u64::from(h))
        },
        memory,
        relu: layer.relu,
        pool: layer.pool,
        bias_base: layer.bias_base,
        layer: layer.clone(),
    })
}

/// Configures every layer in order and sums the total countdown.
pub fn generate(layers: &[Layer], opts: &Options) -> Result<Table> {
    let rows = layers
        .iter()
        .map(|l| configure(l, opts))
        .collect::<Result<Vec<_>>>()?;
    let total_countdown = rows
        .iter()
        .fold(0u64, |acc, r| acc.saturating_add(r.total_layer_countdown));
    Ok(Table {
        rows,
        total_countdown,
    })
}
