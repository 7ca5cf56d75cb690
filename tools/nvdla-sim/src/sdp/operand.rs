//! SDP operands read from memory by the BS/BN/EW RDMAs (nvdla-arith.md §3.4).
//!
//! * PER_KERNEL: a 1×1×C cube, one operand per channel;
//! * PER_POINT: a W×H×C cube in the feature layout, one per element;
//! * type BOTH: each element is an (ALU, MUL) pair, ALU first, so the
//!   element is twice as wide and an atom holds half as many channels
//!   (cmod `NV_NVDLA_sdp.cpp` BOTH unpacking) [inferred for per-point cubes].
//!
//! One-byte operands (operand precision INT8) are sign-extended to 16 bits;
//! FP16 operands stay 16-bit patterns (converted in the datapath).
//!
//! In: the unit's [`MemOperand`], the operand cube and the input geometry.
//! Out: [`Operands`] — the ALU and MUL operand of every element (C-H-W).

use super::config::MemOperand;
use crate::conv::cube::{rejected, Layout};
use crate::engine::OpCtx;
use crate::error::Result;
use onnc_nvdla_loadable::desc::DataCube;

/// The memory operands of one unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Operands {
    /// Operands per channel (len C) or per element (len C·H·W).
    pub per_kernel: bool,
    /// ALU operands (empty if the ALU operand is not from memory).
    pub alu: Vec<i16>,
    /// MUL operands (empty if the MUL operand is not from memory).
    pub mul: Vec<i16>,
    /// Elements per channel (H·W), for indexing.
    hw: usize,
}

impl Operands {
    /// The (ALU, MUL) operands of element `i` (C-H-W index) of channel `c`
    /// (0 where an operand is not from memory).
    pub fn at(&self, c: usize, i: usize) -> (i16, i16) {
        let j = if self.per_kernel { c } else { i };
        (
            self.alu.get(j).copied().unwrap_or(0),
            self.mul.get(j).copied().unwrap_or(0),
        )
    }
}

/// Reads the operands of `m` from `cube` for an input of `w`×`h`×`c`.
pub fn read(
    ctx: &OpCtx,
    surface: &'static str,
    m: &MemOperand,
    cube: &DataCube,
    (w, h, c): (usize, usize, usize),
) -> Result<Operands> {
    let both = m.alu && m.mul;
    let bpe = if both { 2 * m.bytes } else { m.bytes };
    let (ow, oh) = if m.per_kernel { (1, 1) } else { (w, h) };
    let l = Layout {
        width: ow,
        height: oh,
        channel: c,
        bpe,
        cpa: (ctx.hw.atom_bytes / bpe).max(1),
        atom: ctx.hw.atom_bytes,
        line_stride: cube.line_stride as u64,
        surf_stride: cube.surf_stride as u64,
    };
    let span = l.span();
    let len = usize::try_from(span)
        .map_err(|_| rejected(ctx, format!("{surface}: operand cube spans {span} bytes")))?;
    let bytes = ctx
        .mem
        .read(surface, cube.address, cube.offset as u64, len)?;
    let get = |o: usize| -> i16 {
        if m.bytes == 1 {
            bytes[o] as i8 as i16
        } else {
            i16::from_le_bytes([bytes[o], bytes[o + 1]])
        }
    };
    let n = c * oh * ow;
    let mut alu = Vec::with_capacity(if m.alu { n } else { 0 });
    let mut mul = Vec::with_capacity(if m.mul { n } else { 0 });
    for ch in 0..c {
        for y in 0..oh {
            for x in 0..ow {
                let o = l.offset(ch, y, x) as usize;
                if m.alu {
                    alu.push(get(o));
                }
                if m.mul {
                    mul.push(get(if both { o + m.bytes } else { o }));
                }
            }
        }
    }
    Ok(Operands {
        per_kernel: m.per_kernel,
        alu,
        mul,
        hw: w * h,
    })
}

impl Operands {
    /// Elements per channel of the input this was read for.
    pub fn plane(&self) -> usize {
        self.hw
    }
}
