//! BDMA descriptors: `dla_bdma_op_desc` (4 B) and `dla_bdma_surface_desc`
//! (644 B, 20 transfers; the largest surface desc). In: bytes. Out: structs.

use super::codec::descriptor;

/// Maximum number of transfers per BDMA op (`NUM_MAX_BDMA_OPS`).
pub const NUM_MAX_BDMA_OPS: usize = 20;

descriptor! {
    /// `struct dla_bdma_op_desc`.
    pub struct BdmaOpDesc = "dla_bdma_op_desc" {
        /// Number of transfers.
        pub num_transfers: u16,
        /// Reserved.
        pub reserved0: u16,
    }
}

descriptor! {
    /// `struct dla_bdma_transfer_desc` (32 B).
    pub struct BdmaTransferDesc = "dla_bdma_transfer_desc" {
        /// Task address index of the source (no offset field).
        pub source_address: i16,
        /// Task address index of the destination.
        pub destination_address: i16,
        /// Bytes per line (multiple of 32).
        pub line_size: u32,
        /// Lines per surface (≤ 8192).
        pub line_repeat: u32,
        /// Source line stride.
        pub source_line: u32,
        /// Destination line stride.
        pub destination_line: u32,
        /// Surfaces (≤ 8192).
        pub surface_repeat: u32,
        /// Source surface stride.
        pub source_surface: u32,
        /// Destination surface stride.
        pub destination_surface: u32,
    }
}

descriptor! {
    /// `struct dla_bdma_surface_desc`.
    pub struct BdmaSurfaceDesc = "dla_bdma_surface_desc" {
        /// Source memory type.
        pub source_type: u8,
        /// Destination memory type.
        pub destination_type: u8,
        /// Number of transfers (≤ 20).
        pub num_transfers: u16,
        /// The transfers.
        pub transfers: [BdmaTransferDesc; NUM_MAX_BDMA_OPS],
    }
}
