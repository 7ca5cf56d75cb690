//! Weight export in BARVINN's "transposed MSB-first" bit-serial format.
//!
//! In: a [`Layer`] and its integer weights in ONNX layout (conv `[O, I, kH, kW]`,
//! matmul `[out, in]`). Out: a [`WeightFile`] named `<weight name>.hex` whose lines
//! are strings of `'0'`/`'1'` (not hex digits, despite the name).
//!
//! Format (`shared/research/targets.md` §A.5, `MVU_Code_Gen` `Generator.py`):
//! 1. reorder: conv `[O, I, kH, kW]` → `[kW, kH, I, O]` (O fastest); matmul `[out, in]` → `[in, out]`;
//! 2. cut into blocks of 4096 values (one weight-RAM word of 64x64 bits);
//! 3. per block, one line per bit plane, MSB plane first: 4096 characters with
//!    element 0 of the block as the **rightmost** character.
//!
//! BARVINN's testbench (`verification/tests/conv/conv_tester.sv`,
//! `write_weight_data`) reads each line with `%b` into one 4096-bit weight-RAM
//! word and writes line *k* to word `base + k`, so element 0 lands in bit 0.
//!
//! Deliberate differences from BARVINN's exporter (its bugs): values are
//! encoded in two's complement (`v & (2^wp − 1)`, not sign-magnitude with a
//! `'-'`), the last block is zero-padded (not filled with stale data), a single
//! partial block is padded and reversed like every other block, and values that
//! do not fit `wp` bits are an error instead of being silently truncated.
//!
//! ```
//! use onnc_mvu::bit_serial_lines;
//! // 3 two-bit values [1, -1, -2] in a 4-element block: -1 = 0b11, -2 = 0b10.
//! let lines = bit_serial_lines("l", &[1, -1, -2], 2, true, 4).unwrap();
//! assert_eq!(lines, vec!["0110".to_string(), "0011".to_string()]);
//! ```

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::layer::{Layer, LayerOp};
use crate::limits::{MAX_PREC, MIN_PREC, WEIGHT_WORD_ELEMS};

/// One exported weight image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightFile {
    /// Layer the weights belong to.
    pub layer: String,
    /// File name, `<weight name>.hex`.
    pub file_name: String,
    /// Lines, each one weight-RAM bit plane (4096 characters of `0`/`1`).
    pub lines: Vec<String>,
}

impl WeightFile {
    /// File contents: the lines, each terminated by `\n`.
    pub fn contents(&self) -> String {
        let mut s = String::with_capacity(self.lines.iter().map(|l| l.len() + 1).sum());
        for l in &self.lines {
            s.push_str(l);
            s.push('\n');
        }
        s
    }
}

/// Inclusive value range of a `bits`-wide integer (`bits` clamped to 1..=32).
pub fn value_range(bits: u32, signed: bool) -> (i64, i64) {
    let bits = bits.clamp(1, 32);
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

/// Bit-serial lines of `values` at `prec` bits in blocks of `block` elements
/// (4096 for weights, 64 for activations): per block, `prec` lines MSB plane
/// first, element 0 rightmost; the last block is zero-padded.
pub fn bit_serial_lines(
    layer: &str,
    values: &[i32],
    prec: u32,
    signed: bool,
    block: usize,
) -> Result<Vec<String>> {
    if !(MIN_PREC..=MAX_PREC).contains(&prec) {
        return Err(Error::Precision {
            layer: layer.into(),
            field: "wprec",
            value: prec,
            min: MIN_PREC,
            max: MAX_PREC,
        });
    }
    let (min, max) = value_range(prec, signed);
    if let Some((index, &v)) = values
        .iter()
        .enumerate()
        .find(|(_, &v)| !(min..=max).contains(&i64::from(v)))
    {
        return Err(Error::WeightRange {
            layer: layer.into(),
            index,
            value: v.into(),
            bits: prec,
            signedness: if signed { "signed" } else { "unsigned" },
            min,
            max,
        });
    }
    let block = block.max(1);
    let mask = (1u32 << prec) - 1;
    // Blocks in parallel, collected in order: the same lines whatever the
    // thread count.
    let lines = values
        .par_chunks(block)
        .flat_map_iter(|chunk| {
            (0..prec).rev().map(move |bit| {
                // Element i sits at character block-1-i; padding elements are 0.
                let mut line = vec![b'0'; block];
                for (c, &v) in line.iter_mut().rev().zip(chunk) {
                    *c = b'0' | ((((v as u32) & mask) >> bit) & 1) as u8;
                }
                // ASCII by construction: the conversion cannot fail.
                String::from_utf8(line)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            })
        })
        .collect();
    Ok(lines)
}

/// Reorders ONNX-layout weights into the MVU flatten order: conv
/// `[O, I, kH, kW]` → `[kW, kH, I, O]`, matmul `[out, in]` → `[in, out]`.
pub fn mvu_weight_order(layer: &Layer, weights: &[i32]) -> Result<Vec<i32>> {
    let shape = layer.weight_shape();
    let expected = layer.weight_count().unwrap_or(usize::MAX);
    if weights.len() != expected {
        return Err(Error::WeightCount {
            layer: layer.name.clone(),
            expected,
            got: weights.len(),
            shape,
        });
    }
    let mut out = Vec::with_capacity(weights.len());
    match layer.op {
        LayerOp::Conv(_) => {
            let (o, i, kh, kw) = (shape[0], shape[1], shape[2], shape[3]);
            for x in 0..kw {
                for y in 0..kh {
                    for ci in 0..i {
                        for co in 0..o {
                            out.push(weights[((co * i + ci) * kh + y) * kw + x]);
                        }
                    }
                }
            }
        }
        LayerOp::MatMul(_) => {
            let (o, i) = (shape[0], shape[1]);
            for ci in 0..i {
                for co in 0..o {
                    out.push(weights[co * i + ci]);
                }
            }
        }
    }
    Ok(out)
}

/// Exports one layer's integer weights (ONNX layout) as a weight-RAM image.
pub fn export_weights(layer: &Layer, weights: &[i32]) -> Result<WeightFile> {
    let ordered = mvu_weight_order(layer, weights)?;
    let p = &layer.precision;
    let lines = bit_serial_lines(
        &layer.name,
        &ordered,
        p.weight,
        p.weight_signed,
        WEIGHT_WORD_ELEMS,
    )
    .map_err(|e| {
        match e {
            // Report the index in the caller's (ONNX) layout, not the reordered one.
            Error::WeightRange {
                layer,
                value,
                bits,
                signedness,
                min,
                max,
                ..
            } => {
                let index = weights
                    .iter()
                    .position(|&w| i64::from(w) == value)
                    .unwrap_or(0);
                Error::WeightRange {
                    layer,
                    index,
                    value,
                    bits,
                    signedness,
                    min,
                    max,
                }
            }
            other => other,
        }
    })?;
    Ok(WeightFile {
        layer: layer.name.clone(),
        file_name: layer.weight_file_name(),
        lines,
    })
}
