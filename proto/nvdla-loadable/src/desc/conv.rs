//! Convolution descriptors: `dla_conv_op_desc` (92 B) and
//! `dla_conv_surface_desc` (172 B current, 152 B legacy). In: bytes. Out:
//! structs.

use super::codec::descriptor;
use super::common::CvtParam;
use super::cube::DataCube;

descriptor! {
    /// `struct dla_conv_op_desc`.
    pub struct ConvOpDesc = "dla_conv_op_desc" {
        /// DIRECT 0, WINOGRAD 1.
        pub conv_mode: u8,
        /// Reuse the data in CBUF.
        pub data_reuse: u8,
        /// Reuse the weights in CBUF.
        pub weight_reuse: u8,
        /// Do not release data.
        pub skip_data_rls: u8,
        /// Do not release weights.
        pub skip_weight_rls: u8,
        /// Reserved.
        pub reserved0: u8,
        /// CBUF entries per slice.
        pub entry_per_slice: u16,
        /// FORMAT_FEATURE 36 or an image format.
        pub data_format: u8,
        /// Pixel mapping.
        pub pixel_mapping: u8,
        /// Fetch grain.
        pub fetch_grain: u16,
        /// Reserved.
        pub reserved_b: [u8; 8],
        /// Batch (≥ 1).
        pub batch: u8,
        /// UNCOMPRESSED 0, COMPRESSED 1.
        pub weight_format: u8,
        /// CBUF data banks.
        pub data_bank: u8,
        /// CBUF weight banks.
        pub weight_bank: u8,
        /// Batch stride.
        pub batch_stride: u32,
        /// Post extension.
        pub post_extension: u8,
        /// UINT 0, INT 1.
        pub pixel_override: u8,
        /// Release (slices).
        pub release: u16,
        /// Input width (CSC).
        pub input_width_csc: u16,
        /// Input height (CSC).
        pub input_height_csc: u16,
        /// Input channels (CSC).
        pub input_channel_csc: u16,
        /// Kernel width (CSC).
        pub kernel_width_csc: u16,
        /// Kernel height (CSC).
        pub kernel_height_csc: u16,
        /// Kernel channels (CSC).
        pub kernel_channel_csc: u16,
        /// Input width (CMAC).
        pub input_width_cmac: u16,
        /// Input height (CMAC).
        pub input_height_cmac: u16,
        /// Bytes per kernel.
        pub bytes_per_kernel: u32,
        /// Mean R/Y.
        pub mean_ry: i16,
        /// Mean G/U.
        pub mean_gu: i16,
        /// Mean B/V.
        pub mean_bv: i16,
        /// Mean A/X.
        pub mean_ax: i16,
        /// Mean format.
        pub mean_format: u8,
        /// Stride X.
        pub conv_stride_x: u8,
        /// Stride Y.
        pub conv_stride_y: u8,
        /// Left padding.
        pub pad_x_left: u8,
        /// Right padding.
        pub pad_x_right: u8,
        /// Top padding.
        pub pad_y_top: u8,
        /// Bottom padding.
        pub pad_y_bottom: u8,
        /// Dilation X.
        pub dilation_x: u8,
        /// Dilation Y.
        pub dilation_y: u8,
        /// Reserved.
        pub reserved2: [u8; 2],
        /// PRA truncate.
        pub pra_truncate: u8,
        /// INT8 0, INT16 1, FP16 2.
        pub in_precision: u8,
        /// INT8 0, INT16 1, FP16 2.
        pub out_precision: u8,
        /// Pad value.
        pub pad_val: i16,
        /// Input conversion.
        pub in_cvt: CvtParam,
        /// Output conversion (scale must be 1, offset 0).
        pub out_cvt: CvtParam,
    }
}

descriptor! {
    /// `struct dla_conv_surface_desc`.
    pub struct ConvSurfaceDesc = "dla_conv_surface_desc" {
        /// Weights.
        pub weight_data: DataCube,
        /// Weight compression mask.
        pub wmb_data: DataCube,
        /// Weight group sizes.
        pub wgs_data: DataCube,
        /// Input.
        pub src_data: DataCube,
        /// Output.
        pub dst_data: DataCube,
        /// Offset of the second plane (YUV).
        pub offset_u: i64,
        /// Line stride of the UV plane.
        pub in_line_uv_stride: u32,
    }
}
