//! SDP descriptors: `dla_sdp_op` (32 B), `dla_sdp_op_desc` (116 B, the
//! largest op desc) and `dla_sdp_surface_desc` (160 B current, 140 B legacy).
//! In: bytes. Out: structs.

use super::codec::descriptor;
use super::common::{CvtParam, SdpCvt};
use super::cube::DataCube;

descriptor! {
    /// `struct dla_sdp_op`: one of the X1, X2, Y sub-engines.
    pub struct SdpOp = "dla_sdp_op" {
        /// Enable.
        pub enable: u8,
        /// MAX 0, MIN 1, SUM 2, EQL 3.
        pub alu_type: u8,
        /// NONE 0, MUL 1, ADD 2, BOTH 3.
        pub op_type: u8,
        /// PER_LAYER 0, PER_KERNEL 1, PER_POINT 2.
        pub mode: u8,
        /// NONE 0, RELU 1, LUT 2, PRELU 3.
        pub act: u8,
        /// Shift value.
        pub shift_value: u8,
        /// Truncate.
        pub truncate: u8,
        /// Operand precision.
        pub precision: u8,
        /// ALU operand (per-layer mode).
        pub alu_operand: i32,
        /// MUL operand (per-layer mode).
        pub mul_operand: i32,
        /// Operand conversions.
        pub cvt: SdpCvt,
    }
}

descriptor! {
    /// `struct dla_sdp_op_desc`.
    pub struct SdpOpDesc = "dla_sdp_op_desc" {
        /// Source precision.
        pub src_precision: u8,
        /// Destination precision.
        pub dst_precision: u8,
        /// LUT index (−1 = none).
        pub lut_index: i16,
        /// Output conversion.
        pub out_cvt: CvtParam,
        /// Conv mode.
        pub conv_mode: u8,
        /// Batches.
        pub batch_num: u8,
        /// Reserved.
        pub reserved0: u16,
        /// Batch stride.
        pub batch_stride: u32,
        /// X1 sub-engine.
        pub x1_op: SdpOp,
        /// X2 sub-engine.
        pub x2_op: SdpOp,
        /// Y sub-engine.
        pub y_op: SdpOp,
    }
}

descriptor! {
    /// `struct dla_sdp_surface_desc`.
    pub struct SdpSurfaceDesc = "dla_sdp_surface_desc" {
        /// Input.
        pub src_data: DataCube,
        /// X1 operand.
        pub x1_data: DataCube,
        /// X2 operand.
        pub x2_data: DataCube,
        /// Y operand.
        pub y_data: DataCube,
        /// Output.
        pub dst_data: DataCube,
    }
}
