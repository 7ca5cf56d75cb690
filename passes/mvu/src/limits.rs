//! MVU hardware parameters: the field widths and precisions of
//! `onnc_mvu_hw::fields` (re-exported here, written there once, shared with
//! the `mvu` dialect's verifier) and this back end's own bounds.
//!
//! In: nothing. Out: [`MvuLimits`] (RAM capacities, used by the capacity
//! verifier; overridable, BARVINN's by default) and the fixed field widths
//! the register verifier uses.
//!
//! ```
//! use onnc_mvu::MvuLimits;
//! let l = MvuLimits::BARVINN;
//! assert_eq!(l.data_ram_words, 32768);   // 2^15 words x 64 bit = 256 KiB
//! assert_eq!(l.weight_ram_words, 512);   // 2^9 words x 4096 bit = 256 KiB
//! ```

use serde::Serialize;

pub use onnc_mvu_hw::fields::{
    signed_range, unsigned_range, ACT_WORD_ELEMS, BLOCK, COUNTDOWN_BITS, DATA_ADDR_BITS, JUMP_BITS,
    LENGTH_BITS, MAX_PREC, MAX_QUANT_MSB, MIN_PREC, WEIGHT_ADDR_BITS, WEIGHT_WORD_ELEMS,
};

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
        data_ram_words: onnc_mvu_hw::fields::DATA_RAM_WORDS,
        weight_ram_words: onnc_mvu_hw::fields::WEIGHT_RAM_WORDS,
    };
}

impl Default for MvuLimits {
    fn default() -> Self {
        MvuLimits::BARVINN
    }
}
