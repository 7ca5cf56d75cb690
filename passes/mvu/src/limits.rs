//! MVU hardware parameters and register field widths, as named constants.
//!
//! Source: `obilaniu/MVU` `verification/lib/mvu/mvu_pkg.sv` at `bfab134` (the
//! commit BARVINN pins as `deps/MVU`), BARVINN `vsrc/barvinn.sv`
//! (`MVU_MAX_DATA_PREC = 16`) and BARVINN `docs/design.rst`.
//!
//! In: nothing. Out: [`MvuLimits`] (RAM capacities, used by the capacity
//! verifier; overridable) and the fixed field widths the register verifier uses.
//!
//! ```
//! use onnc_mvu::MvuLimits;
//! let l = MvuLimits::BARVINN;
//! assert_eq!(l.data_ram_words, 32768);   // 2^15 words x 64 bit = 256 KiB
//! assert_eq!(l.weight_ram_words, 512);   // 2^9 words x 4096 bit = 256 KiB
//! ```

use serde::Serialize;

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
/// Largest quantizer MSB index (`BSCALERP - 1`, the scaler output is 27 bits).
pub const MAX_QUANT_MSB: u32 = 26;

/// Largest accepted channel count (input, output, features). Far above what any
/// register can express; it only keeps intermediate arithmetic bounded.
pub const MAX_CHANNELS: u64 = 1 << 24;
/// Largest accepted spatial size, kernel size, stride, padding or row count.
pub const MAX_SPATIAL: u64 = 1 << 20;

/// Per-MVU RAM capacities, in RAM words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MvuLimits {
    /// Activation (data) RAM words of 64 bits (`2^BDBANKA`).
    pub data_ram_words: u64,
    /// Weight RAM words of 4096 bits (`2^BWBANKA`).
    pub weight_ram_words: u64,
}

impl MvuLimits {
    /// BARVINN's MVU: 32 banks x 1024 words of data RAM, 512 weight words.
    pub const BARVINN: MvuLimits = MvuLimits {
        data_ram_words: 1 << 15,
        weight_ram_words: 1 << 9,
    };
}

impl Default for MvuLimits {
    fn default() -> Self {
        MvuLimits::BARVINN
    }
}

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
