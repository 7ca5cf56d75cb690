//! `struct dla_network_desc` (40 B, blob `addr0` of a DLA task).
//! In: the blob. Out: [`NetworkDesc`].

use super::codec::descriptor;

descriptor! {
    /// The DLA task header: where the other descriptor blobs are.
    pub struct NetworkDesc = "dla_network_desc" {
        /// Task address-list index of the op_list blob.
        pub operation_desc_index: i16,
        /// Task address-list index of the surf_list blob.
        pub surface_desc_index: i16,
        /// Task address-list index of the dep_graph blob.
        pub dependency_graph_index: i16,
        /// Task address-list index of the lut_list blob (−1 = none).
        pub lut_data_index: i16,
        /// ROI array index (−1 = none).
        pub roi_array_index: i16,
        /// Surface index (−1 = none).
        pub surface_index: i16,
        /// Stat list index (−1 = none).
        pub stat_list_index: i16,
        /// Reserved.
        pub reserved1: i16,
        /// First op of each processor (BDMA, CONV, SDP, PDP, CDP, RUBIK), −1 = none.
        pub op_head: [i16; 6],
        /// Number of ROIs (≥ 1).
        pub num_rois: u16,
        /// Number of operations.
        pub num_operations: u16,
        /// Number of LUTs.
        pub num_luts: u16,
        /// Length of the task address list.
        pub num_addresses: u16,
        /// Input layer.
        pub input_layer: i16,
        /// Dynamic ROI.
        pub dynamic_roi: u8,
        /// Reserved.
        pub reserved0: u8,
    }
}
