//! Descriptor sizes and field offsets against research/nvdla.md §2–§3
//! (computed there by compiling dla_interface.h / emu_interface.h with gcc).

use onnc_nvdla_loadable::desc::container::{
    emu_op_container_size, OP_CONTAINER_SIZE, SURFACE_CONTAINER_SIZE,
};
use onnc_nvdla_loadable::desc::*;
use onnc_nvdla_loadable::Abi::{self, Current, Legacy};

fn sizes<D: Descriptor>() -> (usize, usize) {
    (D::size(Current), D::size(Legacy))
}

#[test]
fn struct_sizes_per_abi() {
    assert_eq!(sizes::<NetworkDesc>(), (40, 40));
    assert_eq!(sizes::<CommonOpDesc>(), (36, 36));
    assert_eq!(sizes::<Consumer>(), (4, 4));
    assert_eq!(sizes::<CvtParam>(), (8, 8));
    assert_eq!(sizes::<SdpCvt>(), (16, 16));
    assert_eq!(sizes::<DataCube>(), (32, 28));
    assert_eq!(sizes::<BdmaOpDesc>(), (4, 4));
    assert_eq!(sizes::<BdmaTransferDesc>(), (32, 32));
    assert_eq!(sizes::<BdmaSurfaceDesc>(), (644, 644));
    assert_eq!(sizes::<ConvOpDesc>(), (92, 92));
    assert_eq!(sizes::<ConvSurfaceDesc>(), (172, 152));
    assert_eq!(sizes::<SdpOp>(), (32, 32));
    assert_eq!(sizes::<SdpOpDesc>(), (116, 116));
    assert_eq!(sizes::<SdpSurfaceDesc>(), (160, 140));
    assert_eq!(sizes::<PdpOpDesc>(), (52, 52));
    assert_eq!(sizes::<PdpSurfaceDesc>(), (64, 56));
    assert_eq!(sizes::<CdpOpDesc>(), (24, 24));
    assert_eq!(sizes::<CdpSurfaceDesc>(), (64, 56));
    assert_eq!(sizes::<RubikOpDesc>(), (4, 4));
    assert_eq!(sizes::<RubikSurfaceDesc>(), (64, 56));
    assert_eq!(sizes::<LutParam>(), (700, 700));
    assert_eq!(sizes::<EmuNetworkDesc>(), (256, 256));
    assert_eq!(sizes::<EmuPowerOpDesc>(), (24, 13));
    assert_eq!(sizes::<EmuSoftmaxOpDesc>(), (16, 2));
    assert_eq!(sizes::<EmuBufferDesc>(), (256, 256));
    assert_eq!(sizes::<EmuBufferDescs>(), (512, 512));
    // The unions are sized by their largest member.
    assert_eq!(OP_CONTAINER_SIZE, SdpOpDesc::size(Current));
    assert_eq!(SURFACE_CONTAINER_SIZE, BdmaSurfaceDesc::size(Current));
    assert_eq!(
        (
            emu_op_container_size(Current),
            emu_op_container_size(Legacy)
        ),
        (24, 16)
    );
}

/// Offset of the first non-zero byte of `d` encoded.
fn offset<D: Descriptor>(d: &D, abi: Abi) -> usize {
    d.encode(abi)
        .iter()
        .position(|&b| b != 0)
        .expect("all zero")
}

#[test]
fn data_cube_offsets() {
    let c = DataCube {
        size: 1,
        ..Default::default()
    };
    assert_eq!((offset(&c, Current), offset(&c, Legacy)), (8, 4));
    let c = DataCube {
        offset: 1,
        ..Default::default()
    };
    assert_eq!(offset(&c, Current), 4);
    let c = DataCube {
        line_stride: 1,
        ..Default::default()
    };
    assert_eq!((offset(&c, Current), offset(&c, Legacy)), (20, 16));
    let c = DataCube {
        plane_stride: 1,
        ..Default::default()
    };
    assert_eq!((offset(&c, Current), offset(&c, Legacy)), (28, 24));
}

#[test]
fn legacy_cube_drops_offset() {
    let c = DataCube {
        offset: 5,
        size: 7,
        ..Default::default()
    };
    let back = DataCube::decode(&c.encode(Legacy), Legacy).unwrap();
    assert_eq!(
        back,
        DataCube {
            size: 7,
            ..Default::default()
        }
    );
}

#[test]
fn network_and_dep_offsets() {
    let mut n = NetworkDesc::default();
    n.op_head[0] = 1;
    assert_eq!(offset(&n, Current), 16);
    let n = NetworkDesc {
        num_rois: 1,
        ..Default::default()
    };
    assert_eq!(offset(&n, Current), 28);
    let n = NetworkDesc {
        dynamic_roi: 1,
        ..Default::default()
    };
    assert_eq!(offset(&n, Current), 38);
    let mut d = CommonOpDesc::default();
    d.consumers[0].index = 1;
    assert_eq!(offset(&d, Current), 8);
    let mut d = CommonOpDesc::default();
    d.fused_parent.event = 1;
    assert_eq!(offset(&d, Current), 34);
}

#[test]
fn engine_op_offsets() {
    let mut c = ConvOpDesc {
        batch: 1,
        ..Default::default()
    };
    assert_eq!(offset(&c, Current), 20);
    c = ConvOpDesc {
        bytes_per_kernel: 1,
        ..Default::default()
    };
    assert_eq!(offset(&c, Current), 48);
    c = ConvOpDesc {
        in_precision: 1,
        ..Default::default()
    };
    assert_eq!(offset(&c, Current), 72);
    c = ConvOpDesc::default();
    c.out_cvt.enable = 1;
    assert_eq!(offset(&c, Current), 84 + 3);
    let mut s = SdpOpDesc::default();
    s.x1_op.enable = 1;
    assert_eq!(offset(&s, Current), 20);
    s = SdpOpDesc::default();
    s.y_op.cvt.mul_cvt.enable = 1;
    assert_eq!(offset(&s, Current), 84 + 16 + 8 + 3);
    let mut p = PdpOpDesc {
        split_num: 1,
        ..Default::default()
    };
    assert_eq!(offset(&p, Current), 12);
    p = PdpOpDesc::default();
    p.padding_value[0] = 1;
    assert_eq!(offset(&p, Current), 24);
    let c = CdpOpDesc {
        local_size: 1,
        ..Default::default()
    };
    assert_eq!(offset(&c, Current), 20);
    let mut l = LutParam {
        linear_exp_offset: 1,
        ..Default::default()
    };
    assert_eq!(offset(&l, Current), 644);
    l = LutParam {
        linear_exp_start: 1,
        ..Default::default()
    };
    assert_eq!(offset(&l, Current), 648);
    l = LutParam::default();
    l.linear_exp_underflow_slope.scale = 1;
    assert_eq!(offset(&l, Current), 680);
    l = LutParam {
        method: 1,
        ..Default::default()
    };
    assert_eq!(offset(&l, Current), 699);
}

#[test]
fn surface_offsets() {
    let mut c = ConvSurfaceDesc::default();
    c.src_data.mem_type = 1;
    assert_eq!((offset(&c, Current), offset(&c, Legacy)), (96, 84));
    c = ConvSurfaceDesc {
        offset_u: 1,
        ..Default::default()
    };
    assert_eq!((offset(&c, Current), offset(&c, Legacy)), (160, 140));
    let mut s = SdpSurfaceDesc::default();
    s.dst_data.mem_type = 1;
    assert_eq!((offset(&s, Current), offset(&s, Legacy)), (128, 112));
    let mut b = BdmaSurfaceDesc::default();
    b.transfers[1].source_address = 1;
    assert_eq!(offset(&b, Current), 4 + 32);
}

#[test]
fn emu_offsets() {
    let p = EmuPowerOpDesc {
        power: 1.0,
        ..Default::default()
    };
    // 1.0f32 = 00 00 80 3f: first non-zero byte is the third.
    assert_eq!((offset(&p, Current), offset(&p, Legacy)), (12 + 2, 1 + 2));
    let b = EmuBufferDesc {
        line_stride: 1,
        ..Default::default()
    };
    assert_eq!((offset(&b, Current), offset(&b, Legacy)), (18, 14));
    let b = EmuBufferDesc {
        address_index_offset: 1,
        ..Default::default()
    };
    assert_eq!(offset(&b, Current), 2);
    let s = EmuSoftmaxOpDesc {
        axis: 1,
        ..Default::default()
    };
    assert_eq!((offset(&s, Current), offset(&s, Legacy)), (12, 1));
}
