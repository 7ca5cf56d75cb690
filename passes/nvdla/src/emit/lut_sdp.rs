//! The SDP's lookup table in the loadable's LUT list.
//!
//! In: an `nvdla.sdp` op (its `y_op.act`, `lut_index`, `lut_fn`,
//! `lut_alpha`, `lut_beta`, precisions) and the LUT list built so far. Out:
//! the descriptor's `lut_index`: −1 without a LUT, else the position of the
//! op's table ([`super::lut_fp16`]) in the list, appended unless an equal
//! table is already there. Errors: a `lut_index` without `y_op.act = "lut"`
//! (or the reverse), an unknown function, or a precision other than FP16
//! (the INT8/INT16 table, indexed by calibrated integer values, is not
//! built).

use onnc_nvdla_loadable::desc::LutParam;

use super::attrs::A;
use super::lut_fn::LutFn;
use super::lut_fp16::fp16_table;
use crate::program::Precision;
use crate::Result;

/// The `lut_index` of the SDP op read by `a` (see the module doc).
pub(crate) fn lut_index(a: &A, luts: &mut Vec<LutParam>) -> Result<i16> {
    let act = a.str("y_op.act")?;
    let index = a.reg("lut_index")?;
    if act != "lut" {
        if index >= 0 {
            return Err(a.err(
                "lut_index",
                format!("is {index} but y_op.act is \"{act}\"; set lut_index = -1, or y_op.act = \"lut\" with lut_fn"),
            ));
        }
        return Ok(-1);
    }
    if a.reg("y_op.enable")? == 0 {
        return Err(a.err(
            "y_op.enable",
            "is 0 but y_op.act is \"lut\"; the LUT runs in the Y unit, which must be enabled",
        ));
    }
    let f = LutFn::parse(
        a.str("lut_fn")?,
        a.float("lut_alpha")?,
        a.float("lut_beta")?,
    )
    .map_err(|e| a.err("lut_fn", e))?;
    for name in ["src_precision", "dst_precision"] {
        let p = a.precision(name)?;
        if p != Precision::Fp16 {
            return Err(a.op_err(format!(
                "the {} lookup table is built for FP16 processing only, and {name} is {}; compile for nv_full (FP16)",
                f.name(),
                p.as_str()
            )));
        }
    }
    let table = fp16_table(f).param;
    let at = match luts.iter().position(|l| *l == table) {
        Some(i) => i,
        None => {
            luts.push(table);
            luts.len() - 1
        }
    };
    i16::try_from(at)
        .ok()
        .filter(|&i| i <= 255)
        .ok_or_else(|| a.op_err("the loadable holds more than 256 lookup tables"))
}
