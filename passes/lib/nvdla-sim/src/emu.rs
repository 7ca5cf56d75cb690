//! EMU tasks: the ops the runtime runs on the CPU between DLA tasks
//! (nvdla-arith.md §11), as NVIDIA's `Emulator.cpp` computes them.
//!
//! In: an EMU task's decoded descriptors and the memory. Out: the
//! destination buffers written. fp16 only (legacy format 2 = FP16, current
//! format 3 = FF16); the int8 variants of the 2019 emulator are
//! [`SimError::Unsupported`].
//! * **Power**: for each (c, h, w) in C-H-W order, x = the fp16 input as
//!   f32, y = `powf(shift + scale·x, power)` in f32, stored as fp16 with
//!   `half.h` rounding (nearest, ties away from zero; overflow → ±Inf).
//!   Element (c, h, w) sits at ⌊c/16⌋·surf_stride + h·line_stride + w·32 +
//!   (c mod 16)·2.
//! * **Softmax**: the buffers are `channel` **contiguous** fp16 values from
//!   their start (strides and the axis are ignored): m = max, s = Σ
//!   `expf(x_i − m)` in f32 in index order, out_i = fp16(`expf(x_i − m)` / s).
//!
//! Buffer addresses are task address-list entries plus `addressIndexOffset`
//! (current ABI). Rust's `powf`/`expf` call the platform libm, as the C++
//! emulator did.

use crate::error::{At, Result, SimError};
use crate::memory::Memory;
use crate::num::half::{f32_to_fp16_ties_away, fp16_to_f32};
use onnc_nvdla_loadable::desc::{
    EmuBufferDesc, EmuBufferDescs, EmuOpDesc, EmuPowerOpDesc, EmuSoftmaxOpDesc,
};
use onnc_nvdla_loadable::layout::EmuTaskDescs;
use onnc_nvdla_loadable::Abi;

/// fp16 channels per 32-byte group in the emulator's addressing.
pub const FP16_GROUP: u64 = 16;
/// Bytes of one channel group of a pixel.
pub const GROUP_BYTES: u64 = 32;

/// One executed EMU op, for dumps: its index and destination buffer.
#[derive(Debug, Clone)]
pub struct EmuDone {
    /// Op index in the task.
    pub op: usize,
    /// Engine-style name (`EMU power`, `EMU softmax`).
    pub name: &'static str,
    /// The destination buffer descriptor.
    pub dst: EmuBufferDesc,
}

/// Runs every op of EMU task `task` (address list `addresses`); calls
/// `done` after each op.
pub fn run_task(
    task: usize,
    addresses: &[u16],
    d: &EmuTaskDescs,
    mem: &mut Memory,
    abi: Abi,
    done: &mut dyn FnMut(&EmuDone, &mut Memory) -> Result<()>,
) -> Result<()> {
    let task_at = At {
        task,
        op: None,
        engine: "EMU",
    };
    let rejected =
        |what: &str, why: &String| SimError::Rejected(format!("{task_at}: {what}: {why}"));
    let nd = d
        .network
        .value
        .as_ref()
        .map_err(|e| rejected("network descriptor", e))?;
    let n = usize::from(nd.num_operations);
    if n == 0 {
        return Ok(());
    }
    let ops = d.ops.value.as_ref().map_err(|e| rejected("op list", e))?;
    let bufs = d
        .buffers
        .value
        .as_ref()
        .map_err(|e| rejected("op-buffer list", e))?;
    if ops.len() < n || bufs.len() < n {
        return Err(SimError::Rejected(format!(
            "{task_at}: {n} operations but {} op and {} buffer descriptors",
            ops.len(),
            bufs.len()
        )));
    }
    for i in 0..n {
        let at = At {
            task,
            op: Some(i),
            engine: "EMU",
        };
        let mut view = Emu {
            mem: &mut *mem,
            addresses,
            at: at.clone(),
            abi,
        };
        let name = match &ops[i].desc {
            EmuOpDesc::Power(p) => {
                view.power(p, &bufs[i])?;
                "EMU power"
            }
            EmuOpDesc::Softmax(s) => {
                view.softmax(s, &bufs[i])?;
                "EMU softmax"
            }
            EmuOpDesc::Unknown(t) => {
                return Err(SimError::Unsupported {
                    at,
                    what: format!("EMU op type {t}"),
                })
            }
        };
        let rec = EmuDone {
            op: i,
            name,
            dst: bufs[i].dst_data.clone(),
        };
        done(&rec, mem)?;
    }
    Ok(())
}

struct Emu<'a> {
    mem: &'a mut Memory,
    addresses: &'a [u16],
    at: At,
    abi: Abi,
}

impl Emu<'_> {
    fn check_fp16(&self, b: &EmuBufferDesc, which: &str) -> Result<()> {
        let fp16 = match self.abi {
            Abi::Legacy => 2,
            Abi::Current => 3,
        };
        if b.format == fp16 {
            Ok(())
        } else {
            Err(SimError::Unsupported {
                at: self.at.clone(),
                what: format!(
                    "{which} buffer format {} ({}); only fp16 is modelled",
                    b.format,
                    onnc_nvdla_loadable::desc::emu::emu_format_name(b.format, self.abi)
                ),
            })
        }
    }

    fn read16(&mut self, surface: &'static str, b: &EmuBufferDesc, off: u64) -> Result<u16> {
        let view = self.mem.task(self.addresses, self.at.clone());
        let v = view.read(
            surface,
            b.address_index,
            u64::from(b.address_index_offset) + off,
            2,
        )?;
        Ok(u16::from_le_bytes([v[0], v[1]]))
    }

    fn write16(&mut self, b: &EmuBufferDesc, off: u64, v: u16) -> Result<()> {
        self.mem.task(self.addresses, self.at.clone()).write(
            "dst",
            b.address_index,
            u64::from(b.address_index_offset) + off,
            &v.to_le_bytes(),
        )
    }

    fn power(&mut self, p: &EmuPowerOpDesc, b: &EmuBufferDescs) -> Result<()> {
        let (src, dst) = (&b.src_data, &b.dst_data);
        self.check_fp16(src, "src")?;
        self.check_fp16(dst, "dst")?;
        for c in 0..u64::from(src.channel) {
            for h in 0..u64::from(src.height) {
                for w in 0..u64::from(src.width) {
                    let x = fp16_to_f32(self.read16("src", src, fp16_offset(src, c, h, w))?);
                    let y = (p.shift + p.scale * x).powf(p.power);
                    self.write16(dst, fp16_offset(dst, c, h, w), f32_to_fp16_ties_away(y))?;
                }
            }
        }
        Ok(())
    }

    fn softmax(&mut self, _s: &EmuSoftmaxOpDesc, b: &EmuBufferDescs) -> Result<()> {
        let (src, dst) = (&b.src_data, &b.dst_data);
        self.check_fp16(src, "src")?;
        self.check_fp16(dst, "dst")?;
        let n = u64::from(src.channel);
        let mut x = Vec::with_capacity(n as usize);
        for i in 0..n {
            x.push(fp16_to_f32(self.read16("src", src, 2 * i)?));
        }
        let mut max = f32::NEG_INFINITY;
        for &v in &x {
            if v > max {
                max = v;
            }
        }
        let mut sum = 0.0f32;
        for &v in &x {
            sum += (v - max).exp();
        }
        for (i, &v) in x.iter().enumerate() {
            let y = (v - max).exp() / sum;
            self.write16(dst, 2 * i as u64, f32_to_fp16_ties_away(y))?;
        }
        Ok(())
    }
}

/// Byte offset of fp16 element (c, h, w) in the emulator's addressing.
fn fp16_offset(b: &EmuBufferDesc, c: u64, h: u64, w: u64) -> u64 {
    (c / FP16_GROUP) * u64::from(b.surf_stride)
        + h * u64::from(b.line_stride)
        + w * GROUP_BYTES
        + (c % FP16_GROUP) * 2
}
