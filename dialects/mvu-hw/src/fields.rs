//! MVU register field widths, RAM sizes and precisions, as named constants.
//!
//! Source: `obilaniu/MVU` `verification/lib/mvu/mvu_pkg.sv` at `bfab134`,
//! BARVINN `vsrc/barvinn.sv` (`MVU_MAX_DATA_PREC = 16`, 8 MVUs) and BARVINN
//! `docs/design.rst`.
//!
//! ```
//! use onnc_mvu_hw::fields::*;
//! assert_eq!(DATA_RAM_WORDS, 32768); // 2^15 words x 64 bit = 256 KiB
//! assert_eq!(unsigned_range(LENGTH_BITS), (0, 32767));
//! assert_eq!(signed_range(JUMP_BITS), (-16384, 16383));
//! ```

/// MVP width: channels per block, and elements per activation RAM word.
pub const BLOCK: u64 = 64;
/// Elements per weight RAM word (a 64x64 tile; `BWBANKW = 4096`).
pub const WEIGHT_WORD_ELEMS: usize = 4096;
/// Elements per activation RAM word (`BDBANKW = N = 64`).
pub const ACT_WORD_ELEMS: usize = 64;
/// Smallest supported precision in bits.
pub const MIN_PREC: u32 = 1;
/// Largest supported precision in bits (`MVU_MAX_DATA_PREC` in `barvinn.sv`).
pub const MAX_PREC: u32 = 16;
/// MVUs of one BARVINN (and PITO harts): the `mvu` attribute is `0..MVU_COUNT`.
pub const MVU_COUNT: u32 = 8;
/// Entries of each address-generator register array (`NJUMPS`).
pub const LEVELS: usize = 5;
/// Width of a jump register (`BJUMP`); jumps are signed two's complement.
pub const JUMP_BITS: u32 = 15;
/// Width of a length register (`BLENGTH`); lengths are unsigned.
pub const LENGTH_BITS: u32 = 15;
/// Width of the countdown field of `mvucommand` (`BCNTDWN`).
pub const COUNTDOWN_BITS: u32 = 29;
/// Width of `mvuibaseptr` / `mvuobaseptr` addresses into the data RAM (`BBDADDR`).
pub const DATA_ADDR_BITS: u32 = 15;
/// Width of `mvuwbaseptr` (`BBWADDR`).
pub const WEIGHT_ADDR_BITS: u32 = 9;
/// Width of the destination-MVU mask of `mvuobaseptr` (bits 31..24, one bit per MVU).
pub const OMVU_MASK_BITS: u32 = MVU_COUNT;
/// Largest quantizer MSB index (`BSCALERP - 1`, the scaler output is 27 bits).
pub const MAX_QUANT_MSB: u32 = 26;

/// Data RAM address bits of one MVU (`BDBANKA`).
pub const DATA_RAM_ADDR_BITS: u32 = 15;
/// Weight RAM address bits of one MVU (`BWBANKA`).
pub const WEIGHT_RAM_ADDR_BITS: u32 = 9;
/// Scaler and bias RAM address bits of one MVU (`BSBANKA`, `BBBANKA`).
pub const SCALER_RAM_ADDR_BITS: u32 = 6;
/// Data RAM words of 64 bits.
pub const DATA_RAM_WORDS: u64 = 1 << DATA_RAM_ADDR_BITS;
/// Weight RAM words of 4096 bits.
pub const WEIGHT_RAM_WORDS: u64 = 1 << WEIGHT_RAM_ADDR_BITS;
/// Scaler and bias RAM words of 64 lanes each.
pub const SCALER_RAM_WORDS: u64 = 1 << SCALER_RAM_ADDR_BITS;

/// Inclusive range of a signed `bits`-wide two's-complement field (`bits`
/// clamped to 1..=64).
pub const fn signed_range(bits: u32) -> (i128, i128) {
    let b = if bits == 0 {
        1
    } else if bits > 64 {
        64
    } else {
        bits
    };
    (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
}

/// Inclusive range of an unsigned `bits`-wide field (`bits` clamped to 0..=64).
pub const fn unsigned_range(bits: u32) -> (i128, i128) {
    let b = if bits > 64 { 64 } else { bits };
    (0, (1i128 << b) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_of_fields() {
        assert_eq!(signed_range(1), (-1, 0));
        assert_eq!(signed_range(0), (-1, 0), "clamped to 1 bit");
        assert_eq!(signed_range(80), (i64::MIN.into(), i64::MAX.into()));
        assert_eq!(unsigned_range(COUNTDOWN_BITS), (0, 536_870_911));
        assert_eq!(unsigned_range(0), (0, 0));
        assert_eq!(unsigned_range(70), (0, u64::MAX.into()));
    }

    #[test]
    fn ram_sizes_are_barvinns() {
        // 256 KiB of data RAM and 256 KiB of weight RAM per MVU.
        assert_eq!(DATA_RAM_WORDS * 64 / 8, 256 * 1024);
        assert_eq!(WEIGHT_RAM_WORDS * WEIGHT_WORD_ELEMS as u64 / 8, 256 * 1024);
        assert_eq!(SCALER_RAM_WORDS, 64);
    }
}
