//! Union slots and descriptor lists: the layout of whole descriptor blobs.
//!
//! In: a descriptor blob (`dep_graph`, `op_list`, `surf_list`, `lut_list`,
//! EMU `op_list`/`op_buf_list`) and, for unions, the op type of each slot.
//! Out: typed lists. Each op or surface descriptor sits in a fixed-size
//! union slot (`dla_operation_container` 116 B, `dla_surface_container`
//! 644 B, EMU op container 24/16 B); bytes after the engine's struct are kept
//! in `tail` so that `encode(decode(b)) == b` for every blob.

use super::bdma::{BdmaOpDesc, BdmaSurfaceDesc};
use super::cdp::{CdpOpDesc, CdpSurfaceDesc};
use super::codec::Descriptor;
use super::conv::{ConvOpDesc, ConvSurfaceDesc};
use super::emu::{emu_op, EmuPowerOpDesc, EmuSoftmaxOpDesc};
use super::pdp::{PdpOpDesc, PdpSurfaceDesc};
use super::rubik::{RubikOpDesc, RubikSurfaceDesc};
use super::sdp::{SdpOpDesc, SdpSurfaceDesc};
use crate::abi::Abi;
use crate::error::{Error, Result};

/// `sizeof(union dla_operation_container)`.
pub const OP_CONTAINER_SIZE: usize = 116;
/// `sizeof(union dla_surface_container)`.
pub const SURFACE_CONTAINER_SIZE: usize = 644;
/// `sizeof(union emu_operation_buffer_container)`.
pub const EMU_OP_BUFFER_CONTAINER_SIZE: usize = 512;

/// `sizeof(union emu_operation_container)`: 24 (current) or 16 (legacy).
pub fn emu_op_container_size(abi: Abi) -> usize {
    match abi {
        Abi::Current => 24,
        Abi::Legacy => 16,
    }
}

/// Processor (op) types.
pub mod op_type {
    /// Bridge DMA.
    pub const BDMA: u8 = 0;
    /// Convolution core.
    pub const CONV: u8 = 1;
    /// Single data point processor.
    pub const SDP: u8 = 2;
    /// Planar data processor (pooling).
    pub const PDP: u8 = 3;
    /// Channel data processor (LRN).
    pub const CDP: u8 = 4;
    /// Rubik (reshape).
    pub const RUBIK: u8 = 5;
    /// Number of processor types (`DLA_OP_NUM`).
    pub const NUM: usize = 6;

    /// Name of a processor type.
    pub fn name(v: u8) -> &'static str {
        match v {
            BDMA => "BDMA",
            CONV => "CONV",
            SDP => "SDP",
            PDP => "PDP",
            CDP => "CDP",
            RUBIK => "RUBIK",
            _ => "?",
        }
    }
}

fn split(bytes: &[u8], n: usize) -> (&[u8], &[u8]) {
    bytes.split_at(n.min(bytes.len()))
}

fn take<D: Descriptor>(slot: &[u8], abi: Abi) -> Result<(D, Vec<u8>)> {
    let (head, tail) = split(slot, D::size(abi));
    Ok((D::decode(head, abi)?, tail.to_vec()))
}

/// An op descriptor, by processor.
#[derive(Debug, Clone, PartialEq)]
pub enum OpDesc {
    /// BDMA.
    Bdma(BdmaOpDesc),
    /// Convolution.
    Conv(ConvOpDesc),
    /// SDP.
    Sdp(SdpOpDesc),
    /// PDP.
    Pdp(PdpOpDesc),
    /// CDP.
    Cdp(CdpOpDesc),
    /// Rubik.
    Rubik(RubikOpDesc),
    /// Unknown processor type: the whole slot is in `tail`.
    Unknown(u8),
}

/// One `dla_operation_container` slot.
#[derive(Debug, Clone, PartialEq)]
pub struct OpSlot {
    /// The engine's descriptor.
    pub desc: OpDesc,
    /// Slot bytes after the descriptor.
    pub tail: Vec<u8>,
}

impl OpSlot {
    /// Decodes one 116-byte slot holding an op of processor `op_type`.
    pub fn decode(slot: &[u8], op_type: u8, abi: Abi) -> Result<Self> {
        check_len("dla_operation_container", slot, OP_CONTAINER_SIZE)?;
        let (desc, tail) = match op_type {
            op_type::BDMA => take(slot, abi).map(|(d, t)| (OpDesc::Bdma(d), t))?,
            op_type::CONV => take(slot, abi).map(|(d, t)| (OpDesc::Conv(d), t))?,
            op_type::SDP => take(slot, abi).map(|(d, t)| (OpDesc::Sdp(d), t))?,
            op_type::PDP => take(slot, abi).map(|(d, t)| (OpDesc::Pdp(d), t))?,
            op_type::CDP => take(slot, abi).map(|(d, t)| (OpDesc::Cdp(d), t))?,
            op_type::RUBIK => take(slot, abi).map(|(d, t)| (OpDesc::Rubik(d), t))?,
            other => (OpDesc::Unknown(other), slot.to_vec()),
        };
        Ok(OpSlot { desc, tail })
    }

    /// Encodes the slot: descriptor, then tail, padded or cut to the slot
    /// size (which only happens when encoding with another ABI than the one
    /// decoded with).
    pub fn encode(&self, abi: Abi) -> Vec<u8> {
        let mut out = match &self.desc {
            OpDesc::Bdma(d) => d.encode(abi),
            OpDesc::Conv(d) => d.encode(abi),
            OpDesc::Sdp(d) => d.encode(abi),
            OpDesc::Pdp(d) => d.encode(abi),
            OpDesc::Cdp(d) => d.encode(abi),
            OpDesc::Rubik(d) => d.encode(abi),
            OpDesc::Unknown(_) => Vec::new(),
        };
        out.extend_from_slice(&self.tail);
        out.resize(OP_CONTAINER_SIZE, 0);
        out
    }
}

/// A surface descriptor, by processor.
// Slots live in a Vec, one per op; boxing the 644-byte BDMA variant would
// only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SurfaceDesc {
    /// BDMA.
    Bdma(BdmaSurfaceDesc),
    /// Convolution.
    Conv(ConvSurfaceDesc),
    /// SDP.
    Sdp(SdpSurfaceDesc),
    /// PDP.
    Pdp(PdpSurfaceDesc),
    /// CDP.
    Cdp(CdpSurfaceDesc),
    /// Rubik.
    Rubik(RubikSurfaceDesc),
    /// Unknown processor type: the whole slot is in `tail`.
    Unknown(u8),
}

/// One `dla_surface_container` slot.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceSlot {
    /// The engine's descriptor.
    pub desc: SurfaceDesc,
    /// Slot bytes after the descriptor.
    pub tail: Vec<u8>,
}

impl SurfaceSlot {
    /// Decodes one 644-byte slot holding a surface of processor `op_type`.
    pub fn decode(slot: &[u8], op_type: u8, abi: Abi) -> Result<Self> {
        check_len("dla_surface_container", slot, SURFACE_CONTAINER_SIZE)?;
        let (desc, tail) = match op_type {
            op_type::BDMA => take(slot, abi).map(|(d, t)| (SurfaceDesc::Bdma(d), t))?,
            op_type::CONV => take(slot, abi).map(|(d, t)| (SurfaceDesc::Conv(d), t))?,
            op_type::SDP => take(slot, abi).map(|(d, t)| (SurfaceDesc::Sdp(d), t))?,
            op_type::PDP => take(slot, abi).map(|(d, t)| (SurfaceDesc::Pdp(d), t))?,
            op_type::CDP => take(slot, abi).map(|(d, t)| (SurfaceDesc::Cdp(d), t))?,
            op_type::RUBIK => take(slot, abi).map(|(d, t)| (SurfaceDesc::Rubik(d), t))?,
            other => (SurfaceDesc::Unknown(other), slot.to_vec()),
        };
        Ok(SurfaceSlot { desc, tail })
    }

    /// Encodes the slot: descriptor, then tail, padded or cut to the slot
    /// size (which only happens when encoding with another ABI than the one
    /// decoded with).
    pub fn encode(&self, abi: Abi) -> Vec<u8> {
        let mut out = match &self.desc {
            SurfaceDesc::Bdma(d) => d.encode(abi),
            SurfaceDesc::Conv(d) => d.encode(abi),
            SurfaceDesc::Sdp(d) => d.encode(abi),
            SurfaceDesc::Pdp(d) => d.encode(abi),
            SurfaceDesc::Cdp(d) => d.encode(abi),
            SurfaceDesc::Rubik(d) => d.encode(abi),
            SurfaceDesc::Unknown(_) => Vec::new(),
        };
        out.extend_from_slice(&self.tail);
        out.resize(SURFACE_CONTAINER_SIZE, 0);
        out
    }
}

/// An EMU op descriptor.
#[derive(Debug, Clone, PartialEq)]
pub enum EmuOpDesc {
    /// Power.
    Power(EmuPowerOpDesc),
    /// Softmax.
    Softmax(EmuSoftmaxOpDesc),
    /// Unknown op type: the whole slot is in `tail`.
    Unknown(u8),
}

/// One `emu_operation_container` slot.
#[derive(Debug, Clone, PartialEq)]
pub struct EmuOpSlot {
    /// The op.
    pub desc: EmuOpDesc,
    /// Slot bytes after the descriptor.
    pub tail: Vec<u8>,
}

impl EmuOpSlot {
    /// Decodes one slot; the op type is its first byte.
    pub fn decode(slot: &[u8], abi: Abi) -> Result<Self> {
        check_len("emu_operation_container", slot, emu_op_container_size(abi))?;
        let (desc, tail) = match slot.first().copied().unwrap_or(u8::MAX) {
            emu_op::POWER => take(slot, abi).map(|(d, t)| (EmuOpDesc::Power(d), t))?,
            emu_op::SOFTMAX => take(slot, abi).map(|(d, t)| (EmuOpDesc::Softmax(d), t))?,
            other => (EmuOpDesc::Unknown(other), slot.to_vec()),
        };
        Ok(EmuOpSlot { desc, tail })
    }

    /// Encodes the slot: descriptor, then tail, padded or cut to the slot
    /// size of `abi`.
    pub fn encode(&self, abi: Abi) -> Vec<u8> {
        let mut out = match &self.desc {
            EmuOpDesc::Power(d) => d.encode(abi),
            EmuOpDesc::Softmax(d) => d.encode(abi),
            EmuOpDesc::Unknown(_) => Vec::new(),
        };
        out.extend_from_slice(&self.tail);
        out.resize(emu_op_container_size(abi), 0);
        out
    }
}

fn check_len(what: &'static str, b: &[u8], expected: usize) -> Result<()> {
    if b.len() == expected {
        Ok(())
    } else {
        Err(Error::BadLength {
            what,
            expected,
            got: b.len(),
        })
    }
}

/// Splits a blob into `stride`-byte chunks; the length must be a multiple.
pub fn chunks<'a>(
    what: &'static str,
    blob: &'a [u8],
    stride: usize,
) -> Result<std::slice::Chunks<'a, u8>> {
    if stride == 0 || blob.len() % stride != 0 {
        return Err(Error::BadLength {
            what,
            expected: stride,
            got: blob.len(),
        });
    }
    Ok(blob.chunks(stride))
}

/// Decodes a blob that is an array of `D` (dep_graph, lut_list, op_buf_list).
pub fn decode_array<D: Descriptor>(blob: &[u8], abi: Abi) -> Result<Vec<D>> {
    chunks(D::C_NAME, blob, D::size(abi))?
        .map(|c| D::decode(c, abi))
        .collect()
}

/// Encodes an array of `D`.
pub fn encode_array<D: Descriptor>(items: &[D], abi: Abi) -> Vec<u8> {
    items.iter().flat_map(|d| d.encode(abi)).collect()
}
