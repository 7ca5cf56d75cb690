//! `struct dla_lut_param` (700 B, one per LUT in blob `lut_list`).
//! In: one entry. Out: [`LutParam`]. The `dla_lut_offset` and `dla_slope`
//! unions are kept in their integer view; the dump shows both views.

use super::codec::descriptor;

descriptor! {
    /// `union dla_slope` in its integer view (`data_f`, an fp16, is the
    /// bit pattern of `scale`).
    pub struct Slope = "dla_slope" {
        /// Scale (or fp16 bits).
        pub scale: i16,
        /// Shifter.
        pub shifter: i8,
        /// Reserved.
        pub reserved: u8,
    }
}

descriptor! {
    /// `struct dla_lut_param`.
    pub struct LutParam = "dla_lut_param" {
        /// Exponential table.
        pub linear_exp_table: [i16; 65],
        /// Linear table.
        pub linear_only_table: [i16; 257],
        /// `dla_lut_offset` of the exponential table (low byte: exp_offset / frac_bits).
        pub linear_exp_offset: u16,
        /// `dla_lut_offset` of the linear table.
        pub linear_only_offset: u16,
        /// Exponential table start.
        pub linear_exp_start: u64,
        /// Exponential table end.
        pub linear_exp_end: u64,
        /// Linear table start.
        pub linear_only_start: u64,
        /// Linear table end.
        pub linear_only_end: u64,
        /// Underflow slope (exponential).
        pub linear_exp_underflow_slope: Slope,
        /// Overflow slope (exponential).
        pub linear_exp_overflow_slope: Slope,
        /// Underflow slope (linear).
        pub linear_only_underflow_slope: Slope,
        /// Overflow slope (linear).
        pub linear_only_overflow_slope: Slope,
        /// Hybrid priority (LINEAR_EXP 0, LINEAR_ONLY 1).
        pub hybrid_priority: u8,
        /// Underflow priority.
        pub underflow_priority: u8,
        /// Overflow priority.
        pub overflow_priority: u8,
        /// EXPONENTIAL 0, LINEAR 1.
        pub method: u8,
    }
}
