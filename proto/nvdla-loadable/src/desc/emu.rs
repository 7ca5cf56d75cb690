//! EMU (CPU emulator) descriptors from `emu_interface.h`: network desc
//! (256 B), common/power/softmax op descs and buffer descs (256 B each).
//! In: bytes. Out: structs.
//!
//! ABI differences: the current common op desc is 12 bytes (`op_type`, 3
//! bytes padding, input and output scale factors) and the op slot is 24 B;
//! the legacy one is just `op_type` (power/softmax packed, slot 16 B). The
//! current buffer desc has `addressIndexOffset` after `addressIndex`.
//! Alignment padding up to 256 bytes is kept byte for byte.

use super::codec::{descriptor, Descriptor, Field, Rd, Wr};
use crate::abi::Abi;
use crate::text::Out;

/// EMU op types.
pub mod emu_op {
    /// y = (shift + scale·x)^power.
    pub const POWER: u8 = 0;
    /// Softmax over channels.
    pub const SOFTMAX: u8 = 1;

    /// Name of an EMU op type.
    pub fn name(v: u8) -> &'static str {
        match v {
            POWER => "POWER",
            SOFTMAX => "SOFTMAX",
            _ => "?",
        }
    }
}

/// Size of the EMU network and buffer descs (`aligned(256)`).
pub const EMU_DESC_ALIGN: usize = 256;

fn show_pad(out: &mut Out, pad: &[u8]) {
    if pad.iter().any(|&b| b != 0) {
        out.kv(
            "pad",
            format_args!("{} bytes, non-zero: {}", pad.len(), hex(pad)),
        );
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `struct emu_network_desc` (256 B, blob `addr0` of an EMU task).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmuNetworkDesc {
    /// Task address-list index of the op_list blob.
    pub operation_desc_index: i16,
    /// Task address-list index of the op_buf_list blob.
    pub operation_buffer_desc_index: i16,
    /// Number of operations.
    pub num_operations: u16,
    /// Alignment padding (250 bytes).
    pub pad: Vec<u8>,
}

impl Default for EmuNetworkDesc {
    fn default() -> Self {
        Self::get(&mut Rd::new(&[]), Abi::Current)
    }
}

impl Field for EmuNetworkDesc {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        EmuNetworkDesc {
            operation_desc_index: i16::get(r, abi),
            operation_buffer_desc_index: i16::get(r, abi),
            num_operations: u16::get(r, abi),
            pad: r.bytes(EMU_DESC_ALIGN - 6),
        }
    }
    fn put(&self, w: &mut Wr, abi: Abi) {
        self.operation_desc_index.put(w, abi);
        self.operation_buffer_desc_index.put(w, abi);
        self.num_operations.put(w, abi);
        let mut pad = self.pad.clone();
        pad.resize(EMU_DESC_ALIGN - 6, 0);
        w.put(&pad);
    }
}

impl Descriptor for EmuNetworkDesc {
    const C_NAME: &'static str = "emu_network_desc";
    fn size(_abi: Abi) -> usize {
        EMU_DESC_ALIGN
    }
    fn dump_fields(&self, out: &mut Out, _abi: Abi) {
        out.kv("operation_desc_index", self.operation_desc_index);
        out.kv(
            "operation_buffer_desc_index",
            self.operation_buffer_desc_index,
        );
        out.kv("num_operations", self.num_operations);
        show_pad(out, &self.pad);
    }
}

/// `struct emu_common_op_desc` (12 B current, 1 B legacy).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EmuCommonOpDesc {
    /// [`emu_op`]: POWER 0, SOFTMAX 1.
    pub op_type: u8,
    /// Alignment padding (current only).
    pub pad: [u8; 3],
    /// int8 input scale (current only).
    pub input_scale_factor: f32,
    /// int8 output scale (current only).
    pub output_scale_factor: f32,
}

impl Field for EmuCommonOpDesc {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        let op_type = u8::get(r, abi);
        match abi {
            Abi::Legacy => EmuCommonOpDesc {
                op_type,
                ..Default::default()
            },
            Abi::Current => EmuCommonOpDesc {
                op_type,
                pad: r.take(),
                input_scale_factor: f32::get(r, abi),
                output_scale_factor: f32::get(r, abi),
            },
        }
    }
    fn put(&self, w: &mut Wr, abi: Abi) {
        self.op_type.put(w, abi);
        if abi == Abi::Current {
            w.put(&self.pad);
            self.input_scale_factor.put(w, abi);
            self.output_scale_factor.put(w, abi);
        }
    }
    fn show(&self, name: &str, out: &mut Out, abi: Abi) {
        match abi {
            Abi::Legacy => out.kv(
                name,
                format_args!("op_type={}({})", self.op_type, emu_op::name(self.op_type)),
            ),
            Abi::Current => out.kv(
                name,
                format_args!(
                    "op_type={}({}) input_scale_factor={} output_scale_factor={}{}",
                    self.op_type,
                    emu_op::name(self.op_type),
                    self.input_scale_factor,
                    self.output_scale_factor,
                    if self.pad != [0; 3] {
                        format!(" pad={}", hex(&self.pad))
                    } else {
                        String::new()
                    }
                ),
            ),
        }
    }
}

descriptor! {
    /// `struct emu_power_op_desc`: y = (shift + scale·x)^power.
    pub struct EmuPowerOpDesc = "emu_power_op_desc" {
        /// Common part.
        pub common: EmuCommonOpDesc,
        /// Power.
        pub power: f32,
        /// Scale.
        pub scale: f32,
        /// Shift.
        pub shift: f32,
    }
}

/// `struct emu_softmax_op_desc` (16 B current, 2 B legacy).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EmuSoftmaxOpDesc {
    /// Common part.
    pub common: EmuCommonOpDesc,
    /// Axis.
    pub axis: u8,
    /// Tail padding (current only).
    pub pad: [u8; 3],
}

impl Field for EmuSoftmaxOpDesc {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        let common = EmuCommonOpDesc::get(r, abi);
        let axis = u8::get(r, abi);
        let pad = match abi {
            Abi::Current => r.take(),
            Abi::Legacy => [0; 3],
        };
        EmuSoftmaxOpDesc { common, axis, pad }
    }
    fn put(&self, w: &mut Wr, abi: Abi) {
        self.common.put(w, abi);
        self.axis.put(w, abi);
        if abi == Abi::Current {
            w.put(&self.pad);
        }
    }
    fn show(&self, name: &str, out: &mut Out, abi: Abi) {
        out.nest(format_args!("{name}:"), |out| self.dump_fields(out, abi));
    }
}

impl Descriptor for EmuSoftmaxOpDesc {
    const C_NAME: &'static str = "emu_softmax_op_desc";
    fn size(abi: Abi) -> usize {
        match abi {
            Abi::Current => 16,
            Abi::Legacy => 2,
        }
    }
    fn dump_fields(&self, out: &mut Out, abi: Abi) {
        self.common.show("common", out, abi);
        out.kv("axis", self.axis);
        if self.pad != [0; 3] {
            out.kv("pad", hex(&self.pad));
        }
    }
}

/// EMU buffer formats (the numbering differs between ABIs).
pub fn emu_format_name(format: u16, abi: Abi) -> &'static str {
    match (abi, format) {
        (Abi::Current, 0) => "INT8",
        (Abi::Current, 1) => "INT8_8",
        (Abi::Current, 2) => "INT16",
        (Abi::Current, 3) => "FF16",
        (Abi::Current, 4) => "UINT8",
        (Abi::Current, 5) => "UINT16",
        (Abi::Legacy, 0) => "INT8",
        (Abi::Legacy, 1) => "INT16",
        (Abi::Legacy, 2) => "FP16",
        _ => "?",
    }
}

/// `struct emu_buffer_desc` (256 B).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmuBufferDesc {
    /// Index into the task's address list.
    pub address_index: i16,
    /// Byte offset added to that address (current only).
    pub address_index_offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Element format, see [`emu_format_name`].
    pub format: u16,
    /// Width.
    pub width: u16,
    /// Height.
    pub height: u16,
    /// Channels.
    pub channel: u16,
    /// Line stride.
    pub line_stride: u32,
    /// Surface stride.
    pub surf_stride: u32,
    /// Alignment padding up to 256 bytes.
    pub pad: Vec<u8>,
}

impl EmuBufferDesc {
    fn field_bytes(abi: Abi) -> usize {
        match abi {
            Abi::Current => 26,
            Abi::Legacy => 22,
        }
    }
}

impl Default for EmuBufferDesc {
    fn default() -> Self {
        Self::get(&mut Rd::new(&[]), Abi::Current)
    }
}

impl Field for EmuBufferDesc {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        let address_index = i16::get(r, abi);
        let address_index_offset = match abi {
            Abi::Current => u32::get(r, abi),
            Abi::Legacy => 0,
        };
        EmuBufferDesc {
            address_index,
            address_index_offset,
            size: u32::get(r, abi),
            format: u16::get(r, abi),
            width: u16::get(r, abi),
            height: u16::get(r, abi),
            channel: u16::get(r, abi),
            line_stride: u32::get(r, abi),
            surf_stride: u32::get(r, abi),
            pad: r.bytes(EMU_DESC_ALIGN - Self::field_bytes(abi)),
        }
    }
    fn put(&self, w: &mut Wr, abi: Abi) {
        self.address_index.put(w, abi);
        if abi == Abi::Current {
            self.address_index_offset.put(w, abi);
        }
        self.size.put(w, abi);
        self.format.put(w, abi);
        self.width.put(w, abi);
        self.height.put(w, abi);
        self.channel.put(w, abi);
        self.line_stride.put(w, abi);
        self.surf_stride.put(w, abi);
        let mut pad = self.pad.clone();
        pad.resize(EMU_DESC_ALIGN - Self::field_bytes(abi), 0);
        w.put(&pad);
    }
    fn show(&self, name: &str, out: &mut Out, abi: Abi) {
        out.nest(format_args!("{name}:"), |out| self.dump_fields(out, abi));
    }
}

impl Descriptor for EmuBufferDesc {
    const C_NAME: &'static str = "emu_buffer_desc";
    fn size(_abi: Abi) -> usize {
        EMU_DESC_ALIGN
    }
    fn dump_fields(&self, out: &mut Out, abi: Abi) {
        let offset = match abi {
            Abi::Current => format!(" address_index_offset={}", self.address_index_offset),
            Abi::Legacy => String::new(),
        };
        out.line(format_args!(
            "address_index={}{offset} size={} format={}({}) whc={}x{}x{} line_stride={} surf_stride={}",
            self.address_index,
            self.size,
            self.format,
            emu_format_name(self.format, abi),
            self.width,
            self.height,
            self.channel,
            self.line_stride,
            self.surf_stride
        ));
        show_pad(out, &self.pad);
    }
}

descriptor! {
    /// `struct emu_{power,softmax}_buffer_descs` (512 B): both ops use a
    /// source and a destination buffer.
    pub struct EmuBufferDescs = "emu_operation_buffer_container" {
        /// Source.
        pub src_data: EmuBufferDesc,
        /// Destination.
        pub dst_data: EmuBufferDesc,
    }
}
