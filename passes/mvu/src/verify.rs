//! Verifiers: precisions, shapes, register widths and RAM capacities.
//!
//! In: a [`Layer`] (and its computed schedule / footprint). Out: `Ok` or the
//! first violated rule as an [`Error`] naming layer, field, value and limit.
//! [`crate::generate`] runs [`check_layer`] and [`check_registers`] always and
//! [`check_capacity`] when [`crate::Options::check_capacity`] is set.
//!
//! | rule | limit | source |
//! |------|-------|--------|
//! | `aprec`, `wprec`, `oprec` | 1..=16 bits | `MVU_MAX_DATA_PREC` (`barvinn.sv`) |
//! | `ilength[k]`, `wlength[k]` | 0..=32767 (15-bit unsigned) | `BLENGTH = 15` |
//! | `ijump[k]`, `wjump[k]` | −16384..=16383 (15-bit two's complement) | `BJUMP = 15` |
//! | `countdown` | 0..=2^29 − 1 | `BCNTDWN = 29` |
//! | quantizer MSB | 0..=26 | `BSCALERP = 27` |
//! | input / output words | ≤ 32768 | data RAM `2^BDBANKA` |
//! | weight words | ≤ 512 | weight RAM `2^BWBANKA` |
//!
//! The AGU adds jumps modulo the address width, so the signed 15-bit jump range
//! is the conservative reading of a 15-bit register.
//!
//! The limits are `onnc_mvu_hw`'s (re-exported as [`crate::limits`]); the
//! table's numbers are those constants:
//!
//! ```
//! use onnc_mvu::limits::*;
//! assert_eq!(unsigned_range(LENGTH_BITS), (0, 32767));
//! assert_eq!(signed_range(JUMP_BITS), (-16384, 16383));
//! assert_eq!(unsigned_range(COUNTDOWN_BITS).1, (1 << 29) - 1);
//! assert_eq!((MIN_PREC, MAX_PREC, MAX_QUANT_MSB), (1, 16, 26));
//! let l = onnc_mvu::MvuLimits::BARVINN;
//! assert_eq!((l.data_ram_words, l.weight_ram_words), (32768, 512));
//! ```
//!
//! ```
//! use onnc_mvu::{check_layer, ConvShape, Layer, Error, Precision};
//! let l = Layer::conv("c", ConvShape::new(3, 32, 32, 64, [3, 3]), Precision::new(0, 2, 2));
//! assert!(matches!(check_layer(&l), Err(Error::Precision { field: "aprec", value: 0, .. })));
//! ```

use crate::error::{Error, Result};
use crate::layer::{Layer, LayerOp};
use crate::limits::{
    signed_range, unsigned_range, MvuLimits, COUNTDOWN_BITS, JUMP_BITS, LENGTH_BITS, MAX_CHANNELS,
    MAX_PREC, MAX_QUANT_MSB, MAX_SPATIAL, MIN_PREC,
};
use crate::memory::MemoryUse;
use crate::registers::RawSchedule;

/// Range-checked registers of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckedRegisters {
    /// Input lengths.
    pub ilength: [i64; 5],
    /// Input jumps.
    pub ijump: [i64; 5],
    /// Weight lengths.
    pub wlength: [i64; 5],
    /// Weight jumps.
    pub wjump: [i64; 5],
    /// Countdown of one job.
    pub countdown: u64,
    /// Total layer countdown.
    pub total_layer_countdown: u64,
}

fn precision(layer: &str, field: &'static str, value: u32) -> Result<()> {
    if (MIN_PREC..=MAX_PREC).contains(&value) {
        Ok(())
    } else {
        Err(Error::Precision {
            layer: layer.into(),
            field,
            value,
            min: MIN_PREC,
            max: MAX_PREC,
        })
    }
}

fn shape(layer: &str, field: &'static str, value: u32, min: u64, max: u64) -> Result<()> {
    let v = u64::from(value);
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(Error::Shape {
            layer: layer.into(),
            field,
            value: v,
            min,
            max,
        })
    }
}

/// Checks precisions, shape fields and the quantizer MSB of `layer`.
pub fn check_layer(layer: &Layer) -> Result<()> {
    let n = layer.name.as_str();
    let p = &layer.precision;
    precision(n, "aprec", p.act)?;
    precision(n, "wprec", p.weight)?;
    precision(n, "oprec", p.out)?;
    if let Some(msb) = layer.quant_msb {
        shape(n, "quant_msb", msb, 0, MAX_QUANT_MSB.into())?;
    }
    match layer.op {
        LayerOp::Conv(c) => {
            shape(n, "in_channels", c.in_channels, 1, MAX_CHANNELS)?;
            shape(n, "out_channels", c.out_channels, 1, MAX_CHANNELS)?;
            shape(n, "in_height", c.in_height, 1, MAX_SPATIAL)?;
            shape(n, "in_width", c.in_width, 1, MAX_SPATIAL)?;
            shape(n, "kernel_h", c.kernel[0], 1, MAX_SPATIAL)?;
            shape(n, "kernel_w", c.kernel[1], 1, MAX_SPATIAL)?;
            shape(n, "stride_h", c.strides[0], 1, MAX_SPATIAL)?;
            shape(n, "stride_w", c.strides[1], 1, MAX_SPATIAL)?;
            for (field, v) in ["pad_top", "pad_left", "pad_bottom", "pad_right"]
                .into_iter()
                .zip(c.pads)
            {
                shape(n, field, v, 0, MAX_SPATIAL)?;
            }
            let padded_h = u64::from(c.in_height) + u64::from(c.pads[0]) + u64::from(c.pads[2]);
            shape(n, "kernel_h", c.kernel[0], 1, padded_h)?;
        }
        LayerOp::MatMul(m) => {
            shape(n, "rows", m.rows, 1, MAX_SPATIAL)?;
            shape(n, "in_features", m.in_features, 1, MAX_CHANNELS)?;
            shape(n, "out_features", m.out_features, 1, MAX_CHANNELS)?;
        }
    }
    Ok(())
}

fn field(
    layer: &str,
    name: String,
    value: i128,
    bits: u32,
    (min, max): (i128, i128),
) -> Result<i64> {
    if (min..=max).contains(&value) {
        // In range of a field at most 64 bits wide, so it fits i64.
        i64::try_from(value).map_err(|_| Error::RegisterOverflow {
            layer: layer.into(),
            field: name.clone(),
            value,
            bits,
            min,
            max,
        })
    } else {
        Err(Error::RegisterOverflow {
            layer: layer.into(),
            field: name,
            value,
            bits,
            min,
            max,
        })
    }
}

fn level5(
    layer: &str,
    reg: &str,
    values: &[i128; 5],
    bits: u32,
    range: (i128, i128),
) -> Result<[i64; 5]> {
    let mut out = [0i64; 5];
    for (k, &v) in values.iter().enumerate() {
        out[k] = field(layer, format!("{reg}[{k}]"), v, bits, range)?;
    }
    Ok(out)
}

/// Range-checks a computed schedule against the register widths.
pub fn check_registers(layer: &str, s: &RawSchedule) -> Result<CheckedRegisters> {
    let len = unsigned_range(LENGTH_BITS);
    let jump = signed_range(JUMP_BITS);
    let ilength = level5(layer, "ilength", &s.ilength, LENGTH_BITS, len)?;
    let ijump = level5(layer, "ijump", &s.ijump, JUMP_BITS, jump)?;
    let wlength = level5(layer, "wlength", &s.wlength, LENGTH_BITS, len)?;
    let wjump = level5(layer, "wjump", &s.wjump, JUMP_BITS, jump)?;
    let countdown = field(
        layer,
        "countdown".into(),
        s.countdown,
        COUNTDOWN_BITS,
        unsigned_range(COUNTDOWN_BITS),
    )? as u64;
    let wide = unsigned_range(63);
    let total = field(
        layer,
        "total_layer_countdown".into(),
        s.total_layer_countdown,
        63,
        wide,
    )? as u64;
    Ok(CheckedRegisters {
        ilength,
        ijump,
        wlength,
        wjump,
        countdown,
        total_layer_countdown: total,
    })
}

/// Checks that the layer's input, output and weights each fit one MVU.
///
/// Input and output are checked separately (the output may go to another MVU
/// through `mvuobaseptr`'s destination mask).
pub fn check_capacity(layer: &str, m: &MemoryUse, limits: &MvuLimits) -> Result<()> {
    let cap = |memory: &'static str, needed: u64, capacity: u64| {
        if needed <= capacity {
            Ok(())
        } else {
            Err(Error::Capacity {
                layer: layer.into(),
                memory,
                needed,
                capacity,
            })
        }
    };
    cap(
        "input activations (data RAM)",
        m.input_words,
        limits.data_ram_words,
    )?;
    cap(
        "output activations (data RAM)",
        m.output_words,
        limits.data_ram_words,
    )?;
    cap(
        "weights (weight RAM)",
        m.weight_words,
        limits.weight_ram_words,
    )
}
