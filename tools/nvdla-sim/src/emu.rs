//! EMU tasks: the ops the runtime runs on the CPU between DLA tasks
//! (nvdla-arith.md §11), as NVIDIA's `Emulator.cpp` computes them.
//!
//! In: an EMU task's decoded descriptors and the memory. Out: the
//! destination buffers written. Formats: fp16 (legacy 2 = FP16, current
//! 3 = FF16) and, in the current ABI, int8 (0 = INT8 with 32-channel groups,
//! 1 = INT8_8 with 8-channel groups, as the 2019 emulator); src and dst must
//! agree. Others are [`Error::Unsupported`].
//! * **Power**: for each (c, h, w) in C-H-W order, x = the fp16 input as
//!   f32, y = `powf(shift + scale·x, power)` in f32, stored as fp16 with
//!   `half.h` rounding (nearest, ties away from zero; overflow → ±Inf).
//!   Element (c, h, w) sits at ⌊c/16⌋·surf_stride + h·line_stride + w·32 +
//!   (c mod 16)·2.
//!   int8: x = int8 · input_scale_factor, y = powf(…) / output_scale_factor,
//!   clamped to [−128, 127] and truncated toward zero.
//! * **Softmax**: the buffers are `channel` **contiguous** values from
//!   their start (strides and the axis are ignored): m = max, s = Σ
//!   `expf(x_i − m)` in f32 in index order, out_i = fp16(`expf(x_i − m)` / s).
//!   int8: inputs are first scaled into fp16 (x · input_scale_factor),
//!   outputs are fp16 / output_scale_factor, clamped and truncated.
//!
//! Buffer addresses are task address-list entries plus `addressIndexOffset`
//! (current ABI). Rust's `powf`/`expf` call the platform libm, as the C++
//! emulator did.

use crate::error::{At, Error, Result};
use crate::memory::Memory;
use crate::num::half::{f32_to_fp16_ties_away, fp16_to_f32};
use onnc_nvdla_loadable::desc::{
    EmuBufferDesc, EmuBufferDescs, EmuOpDesc, EmuPowerOpDesc, EmuSoftmaxOpDesc,
};
use onnc_nvdla_loadable::layout::EmuTaskDescs;
use onnc_nvdla_loadable::Abi;

/// fp16 channels per 32-byte group in the emulator's addressing.
pub const FP16_GROUP: u64 = 16;

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
    let rejected = |what: &str, why: &String| Error::Rejected(format!("{task_at}: {what}: {why}"));
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
        return Err(Error::Rejected(format!(
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
                return Err(Error::Unsupported {
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

/// An EMU buffer's element format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// fp16, 16 channels per 32-byte group.
    Fp16,
    /// int8, `group` channels per group (32, or 8 for `INT8_8`).
    Int8 { group: u64 },
}

impl Kind {
    fn of(format: u16, abi: Abi) -> Option<Kind> {
        match (abi, format) {
            (Abi::Legacy, 2) | (Abi::Current, 3) => Some(Kind::Fp16),
            (Abi::Current, 0) => Some(Kind::Int8 { group: 32 }),
            (Abi::Current, 1) => Some(Kind::Int8 { group: 8 }),
            _ => None,
        }
    }

    /// Byte offset of element (c, h, w) (`Emulator::getAddrOffset`).
    fn offset(self, b: &EmuBufferDesc, c: u64, h: u64, w: u64) -> u64 {
        let (x, bpe) = match self {
            Kind::Fp16 => (FP16_GROUP, 2),
            Kind::Int8 { group } => (group, 1),
        };
        (c / x) * u64::from(b.surf_stride)
            + h * u64::from(b.line_stride)
            + w * x * bpe
            + (c % x) * bpe
    }
}

/// `saturate<float, int8>`: clamp, then truncate toward zero (NaN → 0).
fn saturate_i8(y: f32) -> i8 {
    y.clamp(-128.0, 127.0) as i8
}

impl Emu<'_> {
    /// The common format of an op's buffers (the emulator requires src and
    /// dst to agree).
    fn kind(&self, b: &EmuBufferDescs) -> Result<Kind> {
        let (s, d) = (b.src_data.format, b.dst_data.format);
        let name = |f| onnc_nvdla_loadable::desc::emu::emu_format_name(f, self.abi);
        match Kind::of(s, self.abi) {
            Some(k) if s == d => Ok(k),
            Some(_) => Err(Error::Unsupported {
                at: self.at.clone(),
                what: format!(
                    "src format {s} ({}) differs from dst format {d} ({})",
                    name(s),
                    name(d)
                ),
            }),
            None => Err(Error::Unsupported {
                at: self.at.clone(),
                what: format!("buffer format {s} ({})", name(s)),
            }),
        }
    }

    fn read(&mut self, b: &EmuBufferDesc, off: u64, len: usize) -> Result<Vec<u8>> {
        let view = self.mem.task(self.addresses, self.at.clone());
        let at = u64::from(b.address_index_offset) + off;
        Ok(view.read("src", b.address_index, at, len)?.to_vec())
    }

    fn write(&mut self, b: &EmuBufferDesc, off: u64, v: &[u8]) -> Result<()> {
        let at = u64::from(b.address_index_offset) + off;
        self.mem
            .task(self.addresses, self.at.clone())
            .write("dst", b.address_index, at, v)
    }

    fn power(&mut self, p: &EmuPowerOpDesc, b: &EmuBufferDescs) -> Result<()> {
        let (src, dst) = (&b.src_data, &b.dst_data);
        let kind = self.kind(b)?;
        let (in_scale, out_scale) = (p.common.input_scale_factor, p.common.output_scale_factor);
        for c in 0..u64::from(src.channel) {
            for h in 0..u64::from(src.height) {
                for w in 0..u64::from(src.width) {
                    let (so, d_o) = (kind.offset(src, c, h, w), kind.offset(dst, c, h, w));
                    match kind {
                        Kind::Fp16 => {
                            let r = self.read(src, so, 2)?;
                            let x = fp16_to_f32(u16::from_le_bytes([r[0], r[1]]));
                            let y = (p.shift + p.scale * x).powf(p.power);
                            self.write(dst, d_o, &f32_to_fp16_ties_away(y).to_le_bytes())?;
                        }
                        Kind::Int8 { .. } => {
                            let x = f32::from(self.read(src, so, 1)?[0] as i8) * in_scale;
                            let y = (p.shift + p.scale * x).powf(p.power) / out_scale;
                            self.write(dst, d_o, &[saturate_i8(y) as u8])?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn softmax(&mut self, s: &EmuSoftmaxOpDesc, b: &EmuBufferDescs) -> Result<()> {
        let (src, dst) = (&b.src_data, &b.dst_data);
        let kind = self.kind(b)?;
        let n = usize::from(src.channel);
        // The inputs as fp16 values (int8 inputs are scaled into fp16 first).
        let x: Vec<f32> = match kind {
            Kind::Fp16 => self
                .read(src, 0, 2 * n)?
                .chunks(2)
                .map(|h| fp16_to_f32(u16::from_le_bytes([h[0], h[1]])))
                .collect(),
            Kind::Int8 { .. } => self
                .read(src, 0, n)?
                .iter()
                .map(|&v| {
                    let scaled = f32::from(v as i8) * s.common.input_scale_factor;
                    fp16_to_f32(f32_to_fp16_ties_away(scaled))
                })
                .collect(),
        };
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
        let y: Vec<u16> = x
            .iter()
            .map(|&v| f32_to_fp16_ties_away((v - max).exp() / sum))
            .collect();
        match kind {
            Kind::Fp16 => {
                let bytes: Vec<u8> = y.iter().flat_map(|h| h.to_le_bytes()).collect();
                self.write(dst, 0, &bytes)
            }
            Kind::Int8 { .. } => {
                let m = usize::from(dst.channel).min(n);
                let out_scale = s.common.output_scale_factor;
                let bytes: Vec<u8> = y[..m]
                    .iter()
                    .map(|&h| saturate_i8(fp16_to_f32(h) / out_scale) as u8)
                    .collect();
                self.write(dst, 0, &bytes)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_nvdla_loadable::desc::{EmuCommonOpDesc, EmuNetworkDesc, EmuOpSlot};
    use onnc_nvdla_loadable::layout::Decoded;

    /// Memory 0 = source (address 0), memory 1 = destination (address 1).
    fn mem(src: Vec<u8>, dst_len: usize) -> Memory {
        Memory {
            addresses: vec![(0, 0, src.len() as u64), (1, 0, dst_len as u64)],
            mems: vec![src, vec![0; dst_len]],
        }
    }

    fn buf(index: i16, format: u16, whc: (u16, u16, u16), ls: u32, ss: u32) -> EmuBufferDesc {
        EmuBufferDesc {
            address_index: index,
            format,
            width: whc.0,
            height: whc.1,
            channel: whc.2,
            line_stride: ls,
            surf_stride: ss,
            ..Default::default()
        }
    }

    fn task(op: EmuOpDesc, b: EmuBufferDescs) -> EmuTaskDescs {
        let ok = |v| Decoded {
            blob: None,
            value: Ok(v),
        };
        EmuTaskDescs {
            network: ok(EmuNetworkDesc {
                num_operations: 1,
                ..Default::default()
            }),
            ops: Decoded {
                blob: None,
                value: Ok(vec![EmuOpSlot {
                    desc: op,
                    tail: Vec::new(),
                }]),
            },
            buffers: Decoded {
                blob: None,
                value: Ok(vec![b]),
            },
        }
    }

    fn run(m: &mut Memory, t: &EmuTaskDescs, abi: Abi) -> Result<()> {
        run_task(0, &[0, 1], t, m, abi, &mut |_, _| Ok(()))
    }

    fn common(op_type: u8, input: f32, output: f32) -> EmuCommonOpDesc {
        EmuCommonOpDesc {
            op_type,
            input_scale_factor: input,
            output_scale_factor: output,
            ..Default::default()
        }
    }

    #[test]
    fn fp16_power_in_channel_groups() {
        // 1×1×20 fp16: channels 0..16 in surface 0, 16..20 in surface 1.
        let mut src = vec![0u8; 64];
        for c in 0..20u64 {
            let off = (c / 16 * 32 + c % 16 * 2) as usize;
            let h = f32_to_fp16_ties_away(c as f32 - 3.0);
            src[off..off + 2].copy_from_slice(&h.to_le_bytes());
        }
        let mut m = mem(src, 64);
        let op = EmuOpDesc::Power(EmuPowerOpDesc {
            common: common(0, 0.0, 0.0),
            power: 2.0,
            scale: 0.5,
            shift: 1.0,
        });
        let b = EmuBufferDescs {
            src_data: buf(0, 3, (1, 1, 20), 32, 32),
            dst_data: buf(1, 3, (1, 1, 20), 32, 32),
        };
        run(&mut m, &task(op, b), Abi::Current).unwrap();
        for c in 0..20u64 {
            let off = (c / 16 * 32 + c % 16 * 2) as usize;
            let y = fp16_to_f32(u16::from_le_bytes([m.mems[1][off], m.mems[1][off + 1]]));
            let x = c as f32 - 3.0;
            assert_eq!(y, (1.0 + 0.5 * x) * (1.0 + 0.5 * x), "c {c}");
        }
    }

    #[test]
    fn int8_power_scales_and_truncates() {
        // INT8_8: 8 channels per group; 1×1×3.
        let mut m = mem(vec![10, (-7i8) as u8, 100, 0, 0, 0, 0, 0], 8);
        let op = EmuOpDesc::Power(EmuPowerOpDesc {
            common: common(0, 0.5, 0.25),
            power: 1.0,
            scale: 1.0,
            shift: 0.0,
        });
        let b = EmuBufferDescs {
            src_data: buf(0, 1, (1, 1, 3), 8, 8),
            dst_data: buf(1, 1, (1, 1, 3), 8, 8),
        };
        run(&mut m, &task(op, b), Abi::Current).unwrap();
        // 10·0.5/0.25 = 20; −7·0.5/0.25 = −14; 100·2 = 200 → 127.
        assert_eq!(&m.mems[1][..3], &[20, (-14i8) as u8, 127]);
    }

    #[test]
    fn fp16_softmax_is_contiguous_and_normalised() {
        let xs = [1.0f32, 2.0, 3.0, 0.5];
        let src: Vec<u8> = xs
            .iter()
            .flat_map(|&x| f32_to_fp16_ties_away(x).to_le_bytes())
            .collect();
        let mut m = mem(src, 8);
        let op = EmuOpDesc::Softmax(EmuSoftmaxOpDesc {
            common: common(1, 0.0, 0.0),
            ..Default::default()
        });
        // Strides are ignored: the values are read contiguously.
        let b = EmuBufferDescs {
            src_data: buf(0, 2, (1, 1, 4), 999, 999),
            dst_data: buf(1, 2, (1, 1, 4), 999, 999),
        };
        run(&mut m, &task(op, b), Abi::Legacy).unwrap();
        let e: Vec<f32> = xs.iter().map(|x| (x - 3.0f32).exp()).collect();
        let s: f32 = e.iter().sum();
        for (i, e) in e.iter().enumerate() {
            let got = u16::from_le_bytes([m.mems[1][2 * i], m.mems[1][2 * i + 1]]);
            assert_eq!(got, f32_to_fp16_ties_away(e / s));
        }
    }

    #[test]
    fn int8_softmax_rescales() {
        let mut m = mem(vec![0, 0], 2);
        let op = EmuOpDesc::Softmax(EmuSoftmaxOpDesc {
            common: common(1, 1.0, 1.0 / 127.0),
            ..Default::default()
        });
        let b = EmuBufferDescs {
            src_data: buf(0, 0, (1, 1, 2), 32, 32),
            dst_data: buf(1, 0, (1, 1, 2), 32, 32),
        };
        run(&mut m, &task(op, b), Abi::Current).unwrap();
        // 0.5 / (1/127) = 63.5 → 63 (truncated).
        assert_eq!(m.mems[1], vec![63, 63]);
    }

    #[test]
    fn mismatched_or_unknown_formats_are_unsupported() {
        let op = EmuOpDesc::Softmax(EmuSoftmaxOpDesc::default());
        let mut m = mem(vec![0; 4], 4);
        let b = EmuBufferDescs {
            src_data: buf(0, 0, (1, 1, 2), 32, 32),
            dst_data: buf(1, 3, (1, 1, 2), 32, 32),
        };
        let e = run(&mut m, &task(op.clone(), b), Abi::Current).unwrap_err();
        assert!(e.to_string().contains("differs"), "{e}");
        let b = EmuBufferDescs {
            src_data: buf(0, 0, (1, 1, 2), 32, 32),
            dst_data: buf(1, 0, (1, 1, 2), 32, 32),
        };
        let e = run(&mut m, &task(op, b), Abi::Legacy).unwrap_err();
        assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    }

    #[test]
    fn out_of_bounds_names_the_emu_op() {
        let op = EmuOpDesc::Softmax(EmuSoftmaxOpDesc::default());
        let mut m = mem(vec![0; 4], 4);
        let b = EmuBufferDescs {
            src_data: buf(0, 3, (1, 1, 8), 32, 32),
            dst_data: buf(1, 3, (1, 1, 8), 32, 32),
        };
        match run(&mut m, &task(op, b), Abi::Current).unwrap_err() {
            Error::OutOfBounds { at, surface, .. } => {
                assert_eq!((at.op, at.engine, surface), (Some(0), "EMU", "src"))
            }
            e => panic!("{e}"),
        }
    }
}
