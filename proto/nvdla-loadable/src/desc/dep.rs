//! `struct dla_common_op_desc` (36 B, one per op in blob `dep_graph`).
//! In: one entry. Out: [`CommonOpDesc`].

use super::codec::descriptor;
use super::common::Consumer;

descriptor! {
    /// Dependency-graph entry of one op.
    pub struct CommonOpDesc = "dla_common_op_desc" {
        /// Op index (the compiler writes the slot).
        pub index: i16,
        /// ROI index.
        pub roi_index: i8,
        /// Processor: BDMA 0, CONV 1, SDP 2, PDP 3, CDP 4, RUBIK 5.
        pub op_type: u8,
        /// Number of producers (decremented by the firmware in DRAM).
        pub dependency_count: u8,
        /// Reserved.
        pub reserved0: [u8; 3],
        /// Next op to signal, per processor type.
        pub consumers: [Consumer; 6],
        /// On-the-fly fused parent (−1 = none).
        pub fused_parent: Consumer,
    }
}
