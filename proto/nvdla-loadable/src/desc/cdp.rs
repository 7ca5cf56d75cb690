//! CDP (LRN) descriptors: `dla_cdp_op_desc` (24 B) and
//! `dla_cdp_surface_desc` (64 B current, 56 B legacy). In: bytes. Out:
//! structs.

use super::codec::descriptor;
use super::common::CvtParam;
use super::cube::DataCube;

descriptor! {
    /// `struct dla_cdp_op_desc`.
    pub struct CdpOpDesc = "dla_cdp_op_desc" {
        /// Input precision.
        pub in_precision: u8,
        /// Output precision (must equal the input's).
        pub out_precision: u8,
        /// LUT index.
        pub lut_index: i16,
        /// Input conversion.
        pub in_cvt: CvtParam,
        /// Output conversion.
        pub out_cvt: CvtParam,
        /// LRN window.
        pub local_size: u8,
        /// Bypass the square sum.
        pub bypass_sqsum: u8,
        /// Bypass the output multiplier.
        pub bypass_out_mul: u8,
        /// Reserved.
        pub reserved0: u8,
    }
}

descriptor! {
    /// `struct dla_cdp_surface_desc`.
    pub struct CdpSurfaceDesc = "dla_cdp_surface_desc" {
        /// Input.
        pub src_data: DataCube,
        /// Output.
        pub dst_data: DataCube,
    }
}
