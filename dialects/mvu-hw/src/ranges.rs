//! The ranges of the `mvu` dialect's integer attributes, derived from the
//! field widths in [`crate::fields`]: the scalar attributes of both ops and
//! the per-entry range of the register arrays.
//!
//! In: nothing. Out: [`SCALARS`] and [`ARRAYS`]. The dialect's verifier
//! checks every row; `tests/irdl_ranges.rs` holds the IRDL doc blocks and
//! `docs/dialects/mvu.md` to them.
//!
//! ```
//! use onnc_mvu_hw::ranges::{scalar, ARRAYS};
//! assert_eq!(scalar("countdown"), Some((1, (1 << 29) - 1)));
//! assert_eq!(ARRAYS[1], ("ijump", 5, -16384, 16383));
//! ```

use crate::fields::{
    signed_range, unsigned_range, COUNTDOWN_BITS, JUMP_BITS, LENGTH_BITS, LEVELS, MAX_PREC,
    MAX_QUANT_MSB, MIN_PREC, MVU_COUNT, OMVU_MASK_BITS,
};

/// One scalar attribute: name and inclusive bounds.
pub type Scalar = (&'static str, i64, i64);
/// One register array: name, entry count and each entry's inclusive bounds.
pub type Array = (&'static str, usize, i64, i64);

/// `bits`-wide field bounds as `i64` (every MVU field is narrower than 64 bits).
const fn narrow((lo, hi): (i128, i128)) -> (i64, i64) {
    (lo as i64, hi as i64)
}

const LENGTH: (i64, i64) = narrow(unsigned_range(LENGTH_BITS));
const JUMP: (i64, i64) = narrow(signed_range(JUMP_BITS));

/// The scalar registers of `mvu.conv` and `mvu.matmul`, inclusive. A job
/// counts at least one cycle, so `countdown` starts at 1.
pub const SCALARS: &[Scalar] = &[
    ("mvu", 0, MVU_COUNT as i64 - 1),
    ("aprec", MIN_PREC as i64, MAX_PREC as i64),
    ("wprec", MIN_PREC as i64, MAX_PREC as i64),
    ("oprec", MIN_PREC as i64, MAX_PREC as i64),
    ("countdown", 1, narrow(unsigned_range(COUNTDOWN_BITS)).1),
    ("quant_msb", 0, MAX_QUANT_MSB as i64),
    ("omvu_mask", 0, narrow(unsigned_range(OMVU_MASK_BITS)).1),
];

/// The address-generator register arrays of both ops: [`LEVELS`] entries,
/// lengths 15-bit unsigned, jumps 15-bit two's complement.
pub const ARRAYS: [Array; 4] = [
    ("ilength", LEVELS, LENGTH.0, LENGTH.1),
    ("ijump", LEVELS, JUMP.0, JUMP.1),
    ("wlength", LEVELS, LENGTH.0, LENGTH.1),
    ("wjump", LEVELS, JUMP.0, JUMP.1),
];

/// The inclusive range of scalar attribute `name`, if it has one.
pub fn scalar(name: &str) -> Option<(i64, i64)> {
    SCALARS
        .iter()
        .find(|s| s.0 == name)
        .map(|&(_, lo, hi)| (lo, hi))
}

/// The inclusive range of a precision attribute (`aprec`, `wprec`, `oprec`).
pub const PRECISION: (i64, i64) = (MIN_PREC as i64, MAX_PREC as i64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows() {
        assert_eq!(scalar("mvu"), Some((0, 7)));
        assert_eq!(scalar("aprec"), Some(PRECISION));
        assert_eq!(scalar("oprec"), Some((1, 16)));
        assert_eq!(scalar("quant_msb"), Some((0, 26)));
        assert_eq!(scalar("omvu_mask"), Some((0, 255)));
        assert_eq!(scalar("strides"), None);
        assert_eq!(ARRAYS[0], ("ilength", 5, 0, 32767));
        assert_eq!(ARRAYS[3], ("wjump", 5, -16384, 16383));
    }
}
