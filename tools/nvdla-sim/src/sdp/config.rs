//! The firmware's descriptor → register mapping for the SDP
//! (`kmd/firmware/sdp.c`, nvdla-arith.md §6.5), as plain structs the
//! datapath reads.
//!
//! In: a `dla_sdp_op_desc`. Out: [`Config`] — precisions, and per sub-unit
//! (X1 = BS, X2 = BN, Y = EW) the bypass bits, algorithms, operand sources,
//! register operands (truncated to their register widths), shifts and
//! converter parameters.

use crate::conv::cube::{unsupported, Precision};
use crate::engine::OpCtx;
use crate::error::Result;
use onnc_nvdla_loadable::desc::{CvtParam, SdpOp, SdpOpDesc};

/// `dla_sdp_op.type`.
pub mod op_type {
    /// No operand.
    pub const NONE: u8 = 0;
    /// Multiplier only.
    pub const MUL: u8 = 1;
    /// ALU only.
    pub const ADD: u8 = 2;
    /// ALU and multiplier.
    pub const BOTH: u8 = 3;
}

/// `dla_sdp_op.mode`.
pub mod mode {
    /// One operand for the whole cube (register).
    pub const PER_LAYER: u8 = 0;
    /// One operand per channel (memory, 1×1×C).
    pub const PER_KERNEL: u8 = 1;
    /// One operand per element (memory, W×H×C).
    pub const PER_POINT: u8 = 2;
}

/// `dla_sdp_op.act`.
pub mod act {
    /// None.
    pub const NONE: u8 = 0;
    /// ReLU (X units).
    pub const RELU: u8 = 1;
    /// Lookup table (Y unit).
    pub const LUT: u8 = 2;
    /// PReLU (the multiplier applies to negative values only).
    pub const PRELU: u8 = 3;
}

/// ALU algorithms (`ALU_ALGO`).
pub mod algo {
    /// max(x, op).
    pub const MAX: u8 = 0;
    /// min(x, op).
    pub const MIN: u8 = 1;
    /// x + op.
    pub const SUM: u8 = 2;
    /// Equality test.
    pub const EQL: u8 = 3;
}

/// How a memory operand is laid out and which unit inputs it feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemOperand {
    /// PER_KERNEL (1×1×C) or per element (W×H×C).
    pub per_kernel: bool,
    /// Bytes per operand: 1 (INT8) or 2.
    pub bytes: usize,
    /// The ALU operand is read from memory.
    pub alu: bool,
    /// The multiplier operand is read from memory.
    pub mul: bool,
}

/// One sub-unit (X1, X2 or Y).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unit {
    /// Not bypassed.
    pub enabled: bool,
    /// ALU bypassed.
    pub alu_bypass: bool,
    /// ALU algorithm ([`algo`]).
    pub alu_algo: u8,
    /// Multiplier bypassed.
    pub mul_bypass: bool,
    /// PReLU.
    pub prelu: bool,
    /// ReLU bypassed (X units).
    pub relu_bypass: bool,
    /// LUT bypassed (Y unit).
    pub lut_bypass: bool,
    /// ALU register operand: 16 bits for X (sign-extended), 32 bits for Y.
    pub alu_reg: i32,
    /// Multiplier register operand: 16 bits for X, 32 bits for Y.
    pub mul_reg: i32,
    /// X: ALU operand left shift (6 bits).
    pub alu_shift: u32,
    /// X: multiplier truncation (6 bits); Y: `EW_TRUNCATE` (10 bits).
    pub mul_shift: u32,
    /// Y: memory-operand converters (ALU, MUL); `None` = bypassed.
    pub alu_cvt: Option<CvtParam>,
    /// Y: multiplier operand converter.
    pub mul_cvt: Option<CvtParam>,
    /// Memory operand, if the RDMA reads one.
    pub mem: Option<MemOperand>,
}

/// The whole SDP configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// RDMA input precision (`src_precision`).
    pub src: Precision,
    /// Output precision (`dst_precision`).
    pub dst: Precision,
    /// Processing precision (`map_proc_precision[dst][src]`).
    pub proc_: Precision,
    /// X1 (BS).
    pub x1: Unit,
    /// X2 (BN).
    pub x2: Unit,
    /// Y (EW).
    pub y: Unit,
    /// Output converter offset (32 bits).
    pub cvt_offset: i32,
    /// Output converter scale (16 bits).
    pub cvt_scale: i16,
    /// Output converter shift (6 bits).
    pub cvt_shift: u32,
    /// EW ALU in EQL mode: the output is compared, not written.
    pub eql: bool,
}

fn unit(o: &SdpOp, is_y: bool) -> Unit {
    if o.enable == 0 {
        return Unit {
            alu_bypass: true,
            mul_bypass: true,
            relu_bypass: true,
            lut_bypass: true,
            ..Unit::default()
        };
    }
    let alu = matches!(o.op_type, op_type::ADD | op_type::BOTH);
    let mul = matches!(o.op_type, op_type::MUL | op_type::BOTH);
    let from_mem = o.mode != mode::PER_LAYER && o.op_type != op_type::NONE;
    let cvt = |c: &CvtParam| if c.enable != 0 { Some(c.clone()) } else { None };
    Unit {
        enabled: true,
        alu_bypass: !alu,
        alu_algo: o.alu_type & 3,
        mul_bypass: !mul,
        prelu: o.act == act::PRELU,
        relu_bypass: is_y || o.act != act::RELU,
        lut_bypass: !is_y || o.act != act::LUT,
        alu_reg: if is_y {
            o.alu_operand
        } else {
            o.alu_operand as i16 as i32
        },
        mul_reg: if is_y {
            o.mul_operand
        } else {
            o.mul_operand as i16 as i32
        },
        alu_shift: (o.shift_value & 63) as u32,
        mul_shift: if is_y {
            o.truncate as u32
        } else {
            (o.truncate & 63) as u32
        },
        alu_cvt: if is_y { cvt(&o.cvt.alu_cvt) } else { None },
        mul_cvt: if is_y { cvt(&o.cvt.mul_cvt) } else { None },
        mem: from_mem.then_some(MemOperand {
            per_kernel: o.mode == mode::PER_KERNEL,
            bytes: if o.precision == 0 { 1 } else { 2 },
            alu,
            mul,
        }),
    }
}

impl Config {
    /// Maps `op` as the firmware programs the registers.
    pub fn from_desc(op: &SdpOpDesc, ctx: &OpCtx) -> Result<Config> {
        let src = Precision::from_desc(op.src_precision, "src_precision", ctx)?;
        let dst = Precision::from_desc(op.dst_precision, "dst_precision", ctx)?;
        let proc_ = if dst == Precision::Int8 && src == Precision::Int16 {
            Precision::Int8
        } else {
            src
        };
        if proc_ == Precision::Fp16 && dst == Precision::Int8 {
            return Err(unsupported(
                ctx,
                "FP16 processing with INT8 output is not modelled".into(),
            ));
        }
        if ctx.hw.atom_bytes != 32 && (proc_ != Precision::Int8 || op.y_op.enable != 0) {
            return Err(unsupported(
                ctx,
                format!("{} has an INT8-only SDP without the Y unit", ctx.hw.name),
            ));
        }
        let y = unit(&op.y_op, true);
        Ok(Config {
            src,
            dst,
            proc_,
            x1: unit(&op.x1_op, false),
            x2: unit(&op.x2_op, false),
            eql: y.enabled && !y.alu_bypass && y.alu_algo == algo::EQL,
            y,
            cvt_offset: op.out_cvt.offset,
            cvt_scale: op.out_cvt.scale,
            cvt_shift: (op.out_cvt.truncate & 63) as u32,
        })
    }
}
