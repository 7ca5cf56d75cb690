//! Byte-exact codecs for the firmware descriptors of `dla_interface.h`
//! (DLA) and `emu_interface.h` (EMU), for both ABIs.
//!
//! In: descriptor bytes and an [`Abi`](crate::Abi). Out: typed structs with
//! `decode(&[u8], Abi)` / `encode(Abi)` from the [`Descriptor`] trait, and
//! whole-blob helpers in [`container`]. One file per engine.

pub mod bdma;
pub mod cdp;
pub mod codec;
pub mod common;
pub mod container;
pub mod conv;
pub mod cube;
pub mod dep;
pub mod emu;
pub mod lut;
pub mod names;
pub mod network;
pub mod pdp;
pub mod rubik;
pub mod sdp;

pub use bdma::{BdmaOpDesc, BdmaSurfaceDesc, BdmaTransferDesc};
pub use cdp::{CdpOpDesc, CdpSurfaceDesc};
pub use codec::{Descriptor, Field};
pub use common::{Consumer, CvtParam, SdpCvt};
pub use container::{op_type, EmuOpDesc, EmuOpSlot, OpDesc, OpSlot, SurfaceDesc, SurfaceSlot};
pub use conv::{ConvOpDesc, ConvSurfaceDesc};
pub use cube::{mem_type, DataCube};
pub use dep::CommonOpDesc;
pub use emu::{
    EmuBufferDesc, EmuBufferDescs, EmuCommonOpDesc, EmuNetworkDesc, EmuPowerOpDesc,
    EmuSoftmaxOpDesc,
};
pub use lut::{LutParam, Slope};
pub use network::NetworkDesc;
pub use pdp::PdpOpDesc;
pub use pdp::PdpSurfaceDesc;
pub use rubik::{RubikOpDesc, RubikSurfaceDesc};
pub use sdp::{SdpOp, SdpOpDesc, SdpSurfaceDesc};
