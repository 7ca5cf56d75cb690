//! PDP (pooling) descriptors: `dla_pdp_op_desc` (52 B) and
//! `dla_pdp_surface_desc` (64 B current, 56 B legacy). In: bytes. Out:
//! structs.

use super::codec::descriptor;
use super::cube::DataCube;

/// Largest pooling kernel side (`pool_width`/`pool_height` store n − 1).
pub const PDP_MAX_KERNEL: u8 = 8;
/// Largest pooling stride.
pub const PDP_MAX_STRIDE: u8 = 8;
/// Largest `split_num`.
pub const PDP_MAX_SPLIT: u8 = 64;

descriptor! {
    /// `struct dla_pdp_op_desc`.
    pub struct PdpOpDesc = "dla_pdp_op_desc" {
        /// Partial input width, first split.
        pub partial_in_width_first: u16,
        /// Partial input width, middle splits.
        pub partial_in_width_mid: u16,
        /// Partial input width, last split.
        pub partial_in_width_last: u16,
        /// Partial output width, first split.
        pub partial_width_first: u16,
        /// Partial output width, middle splits.
        pub partial_width_mid: u16,
        /// Partial output width, last split.
        pub partial_width_last: u16,
        /// Number of splits (≤ 64).
        pub split_num: u8,
        /// AVG 0, MAX 1, MIN 2.
        pub pool_mode: u8,
        /// Kernel width − 1 (`POOL_SIZE_n` = n − 1, n ≤ 8).
        pub pool_width: u8,
        /// Kernel height − 1.
        pub pool_height: u8,
        /// Stride X (1..8).
        pub stride_x: u8,
        /// Stride Y (1..8).
        pub stride_y: u8,
        /// Left padding.
        pub pad_left: u8,
        /// Right padding.
        pub pad_right: u8,
        /// Top padding.
        pub pad_top: u8,
        /// Bottom padding.
        pub pad_bottom: u8,
        /// Precision.
        pub precision: u8,
        /// Reserved.
        pub reserved0: u8,
        /// Padding values (value k = (k + 1) × pad × scale).
        pub padding_value: [i32; 7],
    }
}

descriptor! {
    /// `struct dla_pdp_surface_desc`.
    pub struct PdpSurfaceDesc = "dla_pdp_surface_desc" {
        /// Input.
        pub src_data: DataCube,
        /// Output.
        pub dst_data: DataCube,
    }
}
