//! EMU (CPU emulator) op and buffer descriptors.
//!
//! In: one `nvdla.emu` [`Op`] (softmax or power), its placed input and
//! output, the memory plan and the ABI. Out: its op slot and its
//! `emu_*_buffer_descs` (source, destination). Buffers point at the tensor's
//! region address (`addressIndexOffset` 0). Formats follow the ABI's
//! numbering: legacy INT8 0 / INT16 1 / FP16 2; current INT8 0 (INT8_8 1 on
//! 8-byte-atom configurations) / INT16 2 / FF16 3. Example: NN_L0_0's
//! softmax over 1×1×10 fp16 is `op_type 1, axis 1`, buffers of 32 bytes.

use onnc_nvdla_loadable::desc::{
    EmuBufferDesc, EmuBufferDescs, EmuCommonOpDesc, EmuOpDesc, EmuOpSlot, EmuPowerOpDesc,
    EmuSoftmaxOpDesc,
};
use onnc_nvdla_loadable::Abi;

use super::attrs::A;
use super::memory::{place, MemPlan};
use crate::config::Config;
use crate::program::{Op, Precision, Program, TensorId};
use crate::{Error, Result};

fn format(p: Precision, abi: Abi, cfg: &Config) -> u16 {
    match (abi, p) {
        (Abi::Legacy, Precision::Int8) => 0,
        (Abi::Legacy, Precision::Int16) => 1,
        (Abi::Legacy, Precision::Fp16) => 2,
        (Abi::Current, Precision::Int8) if cfg.mem_atom_bytes == 8 => 1,
        (Abi::Current, Precision::Int8) => 0,
        (Abi::Current, Precision::Int16) => 2,
        (Abi::Current, Precision::Fp16) => 3,
    }
}

fn buffer(
    p: &Program,
    mem: &MemPlan,
    t: TensorId,
    abi: Abi,
    cfg: &Config,
) -> Result<EmuBufferDesc> {
    let tensor = &p.tensors[t];
    let pl = place(p, t)?;
    let err = |problem: String| Error::Tensor {
        tensor: tensor.name.clone(),
        problem,
    };
    let [_, c, h, w] = <[usize; 4]>::try_from(tensor.shape.as_slice()).map_err(|_| {
        err(format!(
            "EMU buffers must be 4-D [N, C, H, W], got {:?}",
            tensor.shape
        ))
    })?;
    let d16 =
        |v: usize| u16::try_from(v).map_err(|_| err(format!("dimension {v} does not fit 16 bits")));
    Ok(EmuBufferDesc {
        address_index: mem.existing(p, t)? as i16,
        address_index_offset: 0,
        size: u32::try_from(pl.size).map_err(|_| err("size does not fit 32 bits".into()))?,
        format: format(tensor.precision, abi, cfg),
        width: d16(w)?,
        height: d16(h)?,
        channel: d16(c)?,
        line_stride: pl.line_stride,
        surf_stride: pl.surf_stride,
        pad: Vec::new(),
    })
}

/// The op slot and buffer descriptors of one EMU op.
pub(crate) fn describe(
    p: &Program,
    cfg: &Config,
    mem: &MemPlan,
    op: &Op,
    abi: Abi,
) -> Result<(EmuOpSlot, EmuBufferDescs)> {
    let a = A::new(op);
    let x = op
        .inputs
        .first()
        .copied()
        .flatten()
        .ok_or_else(|| a.op_err("has no input"))?;
    let prec = a.precision("precision")?;
    if prec == Precision::Int16 {
        return Err(a.err(
            "precision",
            "is int16; the emulator runs int8 and fp16 only",
        ));
    }
    let common = |op_type: u8| -> Result<EmuCommonOpDesc> {
        Ok(EmuCommonOpDesc {
            op_type,
            pad: [0; 3],
            input_scale_factor: a.float("input_scale_factor")? as f32,
            output_scale_factor: a.float("output_scale_factor")? as f32,
        })
    };
    let desc = match a.str("op_type")? {
        "softmax" => EmuOpDesc::Softmax(EmuSoftmaxOpDesc {
            common: common(1)?,
            axis: a.int_in("axis", 1, 1)? as u8,
            pad: [0; 3],
        }),
        "power" => EmuOpDesc::Power(EmuPowerOpDesc {
            common: common(0)?,
            power: a.float("power")? as f32,
            scale: a.float("scale")? as f32,
            shift: a.float("shift")? as f32,
        }),
        other => {
            return Err(Error::Unsupported(format!(
                "emu '{}': op_type \"{other}\" needs ONNC's patched runtime; the stock emulator runs softmax and power",
                op.hw_layer
            )))
        }
    };
    let src = buffer(p, mem, x, abi, cfg)?;
    let dst = buffer(p, mem, op.output, abi, cfg)?;
    if src.format != dst.format {
        return Err(
            a.op_err("input and output precisions differ; the emulator needs equal formats")
        );
    }
    Ok((
        EmuOpSlot {
            desc,
            tail: Vec::new(),
        },
        EmuBufferDescs {
            src_data: src,
            dst_data: dst,
        },
    ))
}
