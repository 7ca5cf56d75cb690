//! Feature cubes in memory (nvdla-arith.md §3.1) and the element precisions.
//!
//! A cube of W×H×C elements of `bpe` bytes is stored in atoms of
//! `hw.atom_bytes` bytes holding `atom_bytes / bpe` consecutive channels;
//! element (c, h, w) of batch n is at byte
//! `n·batch_stride + ⌊c/cpa⌋·surf_stride + h·line_stride + w·atom_bytes + (c mod cpa)·bpe`
//! from the cube's address + offset.
//!
//! In: a [`DataCube`], a [`Precision`] and the task memory. Out: the
//! elements as `i32` in C-H-W order (INT8/INT16 sign-extended, FP16 as its
//! 16-bit pattern zero-extended), or bytes written back in that layout.

use crate::engine::{Hw, OpCtx};
use crate::error::{Error, Result};
use onnc_nvdla_loadable::desc::DataCube;

/// Element precision (`dla_precision`): INT8 0, INT16 1, FP16 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// Signed 8-bit integer.
    Int8,
    /// Signed 16-bit integer.
    Int16,
    /// IEEE half (bit pattern).
    Fp16,
}

impl Precision {
    /// Decodes a descriptor precision byte; `what` names the field for the error.
    pub fn from_desc(v: u8, what: &str, ctx: &OpCtx) -> Result<Precision> {
        match v {
            0 => Ok(Precision::Int8),
            1 => Ok(Precision::Int16),
            2 => Ok(Precision::Fp16),
            _ => Err(unsupported(
                ctx,
                format!("{what} = {v} is not a precision (INT8 0, INT16 1, FP16 2)"),
            )),
        }
    }
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Precision::Int8 => 1,
            _ => 2,
        }
    }
    /// Whether this is the integer datapath.
    pub fn is_int(self) -> bool {
        self != Precision::Fp16
    }
    /// Name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Precision::Int8 => "INT8",
            Precision::Int16 => "INT16",
            Precision::Fp16 => "FP16",
        }
    }
}

/// An [`Error::Unsupported`] at the current op.
pub fn unsupported(ctx: &OpCtx, what: String) -> Error {
    Error::Unsupported {
        at: ctx.mem.at.clone(),
        what,
    }
}

/// A [`Error::Rejected`] at the current op (a descriptor the firmware or
/// hardware cannot run).
pub fn rejected(ctx: &OpCtx, what: String) -> Error {
    Error::Rejected(format!("{}: {what}", ctx.mem.at))
}

/// Where the elements of a cube are, relative to its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Channels.
    pub channel: usize,
    /// Bytes per element.
    pub bpe: usize,
    /// Channels per atom.
    pub cpa: usize,
    /// Atom bytes.
    pub atom: usize,
    /// Line stride.
    pub line_stride: u64,
    /// Surface stride.
    pub surf_stride: u64,
}

impl Layout {
    /// The layout of `cube` holding `prec` elements on `hw`.
    pub fn of(cube: &DataCube, prec: Precision, hw: &Hw) -> Layout {
        let bpe = prec.bytes();
        Layout {
            width: cube.width as usize,
            height: cube.height as usize,
            channel: cube.channel as usize,
            bpe,
            cpa: (hw.atom_bytes / bpe).max(1),
            atom: hw.atom_bytes,
            line_stride: cube.line_stride as u64,
            surf_stride: cube.surf_stride as u64,
        }
    }
    /// Number of elements W·H·C (checked).
    pub fn elems(&self) -> Option<usize> {
        self.width
            .checked_mul(self.height)?
            .checked_mul(self.channel)
    }
    /// Byte offset of (c, h, w) (u64 arithmetic: cannot overflow for
    /// 16-bit dimensions and 32-bit strides).
    pub fn offset(&self, c: usize, h: usize, w: usize) -> u64 {
        (c / self.cpa) as u64 * self.surf_stride
            + h as u64 * self.line_stride
            + (w * self.atom) as u64
            + ((c % self.cpa) * self.bpe) as u64
    }
    /// Bytes from the first byte to the end of the furthest element (0 for
    /// an empty cube). The furthest channel is the last one, or — when a bad
    /// descriptor's surface stride is smaller than an atom — the last lane
    /// of the surface before it.
    pub fn span(&self) -> u64 {
        if self.width == 0 || self.height == 0 || self.channel == 0 {
            return 0;
        }
        let (h, w) = (self.height - 1, self.width - 1);
        let last = self.offset(self.channel - 1, h, w);
        let surf = (self.channel - 1) / self.cpa;
        let prev = if surf > 0 {
            self.offset(surf * self.cpa - 1, h, w)
        } else {
            0
        };
        last.max(prev) + self.bpe as u64
    }
}

/// Decodes one element at `b[0..bpe]`.
fn get(b: &[u8], prec: Precision) -> i32 {
    match prec {
        Precision::Int8 => b[0] as i8 as i32,
        Precision::Int16 => i16::from_le_bytes([b[0], b[1]]) as i32,
        Precision::Fp16 => u16::from_le_bytes([b[0], b[1]]) as i32,
    }
}

/// Reads the W×H×C elements of `cube` (batch `n` at `n·batch_stride`) in
/// C-H-W order. `surface` names the cube in errors.
pub fn read(
    ctx: &OpCtx,
    surface: &'static str,
    cube: &DataCube,
    prec: Precision,
    batch_offset: u64,
) -> Result<Vec<i32>> {
    let l = Layout::of(cube, prec, ctx.hw);
    let n = l
        .elems()
        .ok_or_else(|| rejected(ctx, format!("{surface}: cube size overflows")))?;
    let span = l.span();
    let len = usize::try_from(span)
        .map_err(|_| rejected(ctx, format!("{surface}: cube spans {span} bytes")))?;
    let base = (cube.offset as u64).saturating_add(batch_offset);
    let bytes = ctx.mem.read(surface, cube.address, base, len)?;
    let mut out = Vec::with_capacity(n);
    for c in 0..l.channel {
        for h in 0..l.height {
            for w in 0..l.width {
                let o = l.offset(c, h, w) as usize;
                out.push(get(&bytes[o..o + l.bpe], prec));
            }
        }
    }
    Ok(out)
}

/// Writes C-H-W `data` (INT values already in range, FP16 as bit patterns)
/// into `cube` at `batch_offset`. Only the bytes of real elements are
/// written; padding channels of the last surface keep their contents.
pub fn write(
    ctx: &mut OpCtx,
    surface: &'static str,
    cube: &DataCube,
    prec: Precision,
    batch_offset: u64,
    data: &[i32],
) -> Result<()> {
    let l = Layout::of(cube, prec, ctx.hw);
    let span = l.span();
    let len = usize::try_from(span)
        .map_err(|_| rejected(ctx, format!("{surface}: cube spans {span} bytes")))?;
    let base = (cube.offset as u64).saturating_add(batch_offset);
    // Read-modify-write keeps the bytes between elements unchanged.
    let mut bytes = ctx.mem.read(surface, cube.address, base, len)?.to_vec();
    let mut i = 0;
    for c in 0..l.channel {
        for h in 0..l.height {
            for w in 0..l.width {
                let o = l.offset(c, h, w) as usize;
                let v = data.get(i).copied().unwrap_or(0);
                match prec {
                    Precision::Int8 => bytes[o] = v as u8,
                    _ => bytes[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes()),
                }
                i += 1;
            }
        }
    }
    ctx.mem.write(surface, cube.address, base, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_bounds_every_element() {
        let mut l = Layout {
            width: 3,
            height: 2,
            channel: 20,
            bpe: 2,
            cpa: 16,
            atom: 32,
            line_stride: 96,
            surf_stride: 192,
        };
        assert_eq!(l.span(), 192 + 96 + 64 + 3 * 2 + 2);
        // A surface stride of 2 bytes: channel 15 (surface 0, lane 15) is
        // further than channel 19 (surface 1, lane 3).
        l.surf_stride = 2;
        let max = (0..20).map(|c| l.offset(c, 1, 2)).max().unwrap();
        assert_eq!(l.span(), max + 2);
    }
}
