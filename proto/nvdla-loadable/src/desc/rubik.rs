//! Rubik descriptors: `dla_rubik_op_desc` (4 B) and `dla_rubik_surface_desc`
//! (64 B current, 56 B legacy). In: bytes. Out: structs.

use super::codec::descriptor;
use super::cube::DataCube;

descriptor! {
    /// `struct dla_rubik_op_desc`.
    pub struct RubikOpDesc = "dla_rubik_op_desc" {
        /// CONTRACT 0, SPLIT 1, MERGE 2.
        pub mode: u8,
        /// Precision.
        pub precision: u8,
        /// Stride X.
        pub stride_x: u8,
        /// Stride Y.
        pub stride_y: u8,
    }
}

descriptor! {
    /// `struct dla_rubik_surface_desc`.
    pub struct RubikSurfaceDesc = "dla_rubik_surface_desc" {
        /// Input.
        pub src_data: DataCube,
        /// Output.
        pub dst_data: DataCube,
    }
}
