//! `struct dla_data_cube`: 32 bytes (current) or 28 bytes (legacy, no
//! `offset`). In: the bytes of one cube. Out: [`DataCube`].

use super::codec::{Descriptor, Field, Rd, Wr};
use crate::abi::Abi;
use crate::text::Out;

/// `dla_data_cube.type` values.
pub mod mem_type {
    /// DRAM (`DLA_MEM_MC`).
    pub const MC: u16 = 0;
    /// CV-SRAM (`DLA_MEM_CV`).
    pub const CV: u16 = 1;
    /// On-the-fly link to/from the fused engine (`DLA_MEM_HW`).
    pub const HW: u16 = 2;

    /// Name of a memory type.
    pub fn name(v: u16) -> &'static str {
        match v {
            MC => "MC",
            CV => "CV",
            HW => "HW",
            _ => "?",
        }
    }
}

/// A tensor surface in memory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DataCube {
    /// [`mem_type`]: MC 0, CV 1, HW 2.
    pub mem_type: u16,
    /// Index into the task's address list (−1 = none).
    pub address: i16,
    /// Byte offset added to the address (current ABI only; must be 0 to
    /// encode in the legacy ABI, which has no such field).
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Width.
    pub width: u16,
    /// Height.
    pub height: u16,
    /// Channels.
    pub channel: u16,
    /// Reserved.
    pub reserved0: u16,
    /// Line stride in bytes.
    pub line_stride: u32,
    /// Surface stride in bytes.
    pub surf_stride: u32,
    /// Plane stride in bytes (Rubik only).
    pub plane_stride: u32,
}

impl Field for DataCube {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        let mem_type = u16::get(r, abi);
        let address = i16::get(r, abi);
        let offset = match abi {
            Abi::Current => u32::get(r, abi),
            Abi::Legacy => 0,
        };
        DataCube {
            mem_type,
            address,
            offset,
            size: u32::get(r, abi),
            width: u16::get(r, abi),
            height: u16::get(r, abi),
            channel: u16::get(r, abi),
            reserved0: u16::get(r, abi),
            line_stride: u32::get(r, abi),
            surf_stride: u32::get(r, abi),
            plane_stride: u32::get(r, abi),
        }
    }

    fn put(&self, w: &mut Wr, abi: Abi) {
        self.mem_type.put(w, abi);
        self.address.put(w, abi);
        if abi == Abi::Current {
            self.offset.put(w, abi);
        }
        self.size.put(w, abi);
        self.width.put(w, abi);
        self.height.put(w, abi);
        self.channel.put(w, abi);
        self.reserved0.put(w, abi);
        self.line_stride.put(w, abi);
        self.surf_stride.put(w, abi);
        self.plane_stride.put(w, abi);
    }

    fn show(&self, name: &str, out: &mut Out, abi: Abi) {
        let offset = match abi {
            Abi::Current => format!(" offset={}", self.offset),
            Abi::Legacy => String::new(),
        };
        out.kv(
            name,
            format_args!(
                "type={}({}) address={}{offset} size={} whc={}x{}x{} line_stride={} surf_stride={} plane_stride={}{}",
                self.mem_type,
                mem_type::name(self.mem_type),
                self.address,
                self.size,
                self.width,
                self.height,
                self.channel,
                self.line_stride,
                self.surf_stride,
                self.plane_stride,
                if self.reserved0 != 0 { format!(" reserved0={}", self.reserved0) } else { String::new() },
            ),
        );
    }
}

impl Descriptor for DataCube {
    const C_NAME: &'static str = "dla_data_cube";
    fn size(abi: Abi) -> usize {
        match abi {
            Abi::Current => 32,
            Abi::Legacy => 28,
        }
    }
    fn dump_fields(&self, out: &mut Out, abi: Abi) {
        self.show("cube", out, abi);
    }
}
