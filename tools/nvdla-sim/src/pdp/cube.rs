//! Feature cubes in memory as the PDP and CDP DMA engines see them
//! (nvdla-arith.md §3.1): atoms of `hw.atom_bytes` bytes holding consecutive
//! channels, `width` atoms per line at `line_stride`, lines of one surface
//! at `surf_stride`. Engines read and write whole atoms, so the padded
//! channels of the last surface are read and written too.
//!
//! In: a [`DataCube`], the element size and the hardware. Out: [`Planes`],
//! the elements as raw bits in channel-major (C, H, W) order, and the writes
//! of such planes back to memory.

use crate::engine::Hw;
use crate::error::{At, Error, Result};
use crate::memory::TaskMem;
use onnc_nvdla_loadable::desc::DataCube;

/// Largest cube region the simulator holds (2^29 elements, 1 GiB of
/// 16-bit values): a descriptor asking for more is refused rather than
/// exhausting the host.
pub const MAX_ELEMENTS: usize = 1 << 29;

/// The geometry of a feature cube region: which atoms a DMA reads or writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geom {
    /// Task address index of the cube.
    pub address: i16,
    /// Byte offset of the cube's first atom from the address.
    pub base: u64,
    /// Atoms per line (the region's width).
    pub width: usize,
    /// Lines.
    pub height: usize,
    /// Surfaces (⌈channels / channels-per-atom⌉).
    pub surfaces: usize,
    /// Line stride in bytes.
    pub line_stride: u64,
    /// Surface stride in bytes.
    pub surf_stride: u64,
    /// Bytes per atom.
    pub atom: usize,
    /// Bytes per element (1 or 2).
    pub bpe: usize,
}

impl Geom {
    /// The geometry of `cube` with `bpe`-byte elements on `hw`, starting
    /// `col` atoms right of the cube's origin and `width` atoms wide.
    pub fn of(
        cube: &DataCube,
        bpe: usize,
        hw: &Hw,
        col: u64,
        width: usize,
        at: &At,
    ) -> Result<Geom> {
        let cpa = hw.atom_bytes / bpe;
        let base = col
            .checked_mul(hw.atom_bytes as u64)
            .and_then(|b| b.checked_add(u64::from(cube.offset)))
            .ok_or_else(|| Error::Rejected(format!("{at}: cube column offset overflows")))?;
        Ok(Geom {
            address: cube.address,
            base,
            width,
            height: usize::from(cube.height),
            surfaces: usize::from(cube.channel).div_ceil(cpa.max(1)),
            line_stride: u64::from(cube.line_stride),
            surf_stride: u64::from(cube.surf_stride),
            atom: hw.atom_bytes,
            bpe,
        })
    }

    /// Channels per atom.
    pub fn cpa(&self) -> usize {
        self.atom / self.bpe
    }

    /// Channels including the padding of the last surface.
    pub fn channels(&self) -> usize {
        self.surfaces * self.cpa()
    }

    /// Elements of the region (all surfaces, padded channels included), or
    /// `None` beyond [`MAX_ELEMENTS`].
    pub fn elements(&self) -> Option<usize> {
        self.channels()
            .checked_mul(self.height)?
            .checked_mul(self.width)
            .filter(|&n| n <= MAX_ELEMENTS)
    }

    fn line_offset(&self, s: usize, h: usize) -> Option<u64> {
        (s as u64)
            .checked_mul(self.surf_stride)?
            .checked_add((h as u64).checked_mul(self.line_stride)?)?
            .checked_add(self.base)
    }
}

/// Elements as raw bits (a byte zero-extended for INT8, the 16-bit pattern
/// otherwise), index `(c * height + h) * width + w`.
pub type Planes = Vec<u16>;

fn overflow(mem: &TaskMem, surface: &str) -> Error {
    Error::Rejected(format!(
        "{}: surface '{surface}': cube too large or offset overflows",
        mem.at
    ))
}

/// Reads the region `g` of surface `surface` (all surfaces, whole atoms).
pub fn read(mem: &TaskMem, surface: &'static str, g: &Geom) -> Result<Planes> {
    let len = g.elements().ok_or_else(|| overflow(mem, surface))?;
    let line_bytes = g
        .width
        .checked_mul(g.atom)
        .ok_or_else(|| overflow(mem, surface))?;
    let mut out = vec![0u16; len];
    let cpa = g.cpa();
    for s in 0..g.surfaces {
        for h in 0..g.height {
            let off = g.line_offset(s, h).ok_or_else(|| overflow(mem, surface))?;
            let bytes = mem.read(surface, g.address, off, line_bytes)?;
            for (w, atom) in bytes.chunks_exact(g.atom).enumerate() {
                for lane in 0..cpa {
                    let c = s * cpa + lane;
                    let v = if g.bpe == 1 {
                        u16::from(atom[lane])
                    } else {
                        u16::from_le_bytes([atom[2 * lane], atom[2 * lane + 1]])
                    };
                    out[(c * g.height + h) * g.width + w] = v;
                }
            }
        }
    }
    Ok(out)
}

/// Writes `planes` (laid out as [`read`] returns them) to the region `g`.
pub fn write(mem: &mut TaskMem, surface: &'static str, g: &Geom, planes: &[u16]) -> Result<()> {
    let line_bytes = g
        .width
        .checked_mul(g.atom)
        .ok_or_else(|| overflow(mem, surface))?;
    if g.elements() != Some(planes.len()) {
        return Err(overflow(mem, surface));
    }
    let cpa = g.cpa();
    let mut line = vec![0u8; line_bytes];
    for s in 0..g.surfaces {
        for h in 0..g.height {
            for (w, atom) in line.chunks_exact_mut(g.atom).enumerate() {
                for lane in 0..cpa {
                    let v = planes[((s * cpa + lane) * g.height + h) * g.width + w];
                    if g.bpe == 1 {
                        atom[lane] = v as u8;
                    } else {
                        atom[2 * lane..2 * lane + 2].copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
            let off = g.line_offset(s, h).ok_or_else(|| overflow(mem, surface))?;
            mem.write(surface, g.address, off, &line)?;
        }
    }
    Ok(())
}
