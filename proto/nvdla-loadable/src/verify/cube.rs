//! Data-cube rules: a cube's type, address, extent and atom alignment.
//!
//! In: one [`DataCube`] of a surface descriptor, where it sits and how its
//! extent is bounded ([`Extent`]). Out: violations in the [`Sink`].
//!
//! **Which extent is checked.** The firmware programs a cube's `size` into
//! a register only for convolution weights and the weight mask
//! (`D_WEIGHT_BYTES`, `D_WMB_BYTES` in `kmd/firmware/conv.c`); every other
//! engine is programmed with the cube's width, height, channels and strides
//! and never reads `size`. So for a feature cube the verifier bounds the
//! bytes the engine actually reads or writes — its geometric footprint —
//! and a `size` that runs past the memory is only a warning (`cube-size`):
//! ONNC 1.3.0 writes the memory's whole size there, and those loadables run.
//! Cubes whose footprint depends on the op's mode (RUBIK) are bounded at run
//! time by the simulator, which names the op, surface and address of any
//! access outside its memory.

use super::engines::{address_index, Ctx};
use super::Sink;
use crate::abi::Abi;
use crate::desc::{mem_type, DataCube};

/// How a cube's extent is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Extent {
    /// The firmware programs `size` (conv weights and WMB), or the layout
    /// depends on an operand mode (SDP operands): `offset + size` must fit.
    Size,
    /// A feature cube (NC/xHWx) of `bpe`-byte elements: its footprint must
    /// fit; `size` past the memory is a warning.
    Feature {
        /// Bytes per element: 1 for INT8, 2 for INT16 and FP16.
        bpe: u64,
    },
    /// The footprint depends on the op's mode (RUBIK): `size` past the
    /// memory is a warning; the simulator bounds every access.
    Unread,
}

impl Extent {
    /// A feature cube of the given precision register value (INT8 0, INT16
    /// 1, FP16 2; anything else is reported by the precision rule and
    /// bounded as one-byte elements here).
    pub(super) fn feature(precision: u8) -> Self {
        Extent::Feature {
            bpe: if precision == 0 || precision > 2 {
                1
            } else {
                2
            },
        }
    }
}

/// The atom a feature cube is laid out in: 32 bytes (nv_full, nv_large)
/// when the options say so or the line stride holds 32 bytes per pixel,
/// else the options' atom (8 on nv_small, and the default when the
/// configuration is unknown). Guessing 32 for an 8-byte layout
/// under-counts surfaces; for a strided 8-byte window it over-counts the
/// last row, so the rule takes the smaller footprint of the two atoms.
fn layout_atom(c: &DataCube, atom: u64) -> u64 {
    const FULL: u64 = 32;
    if atom >= FULL || u64::from(c.line_stride) >= FULL * u64::from(c.width) {
        atom.max(FULL)
    } else {
        atom
    }
}

/// Bytes from a feature cube's first byte to one past its last:
/// `(surfaces − 1)·surf_stride + (height − 1)·line_stride + width·atom`,
/// with `surfaces = ⌈channel·bpe / atom⌉`. Zero for an empty cube.
fn feature_footprint(c: &DataCube, atom: u64, bpe: u64) -> u64 {
    if c.width == 0 || c.height == 0 || c.channel == 0 || atom == 0 {
        return 0;
    }
    let surfaces = (u64::from(c.channel) * bpe).div_ceil(atom);
    (surfaces - 1) * u64::from(c.surf_stride)
        + (u64::from(c.height) - 1) * u64::from(c.line_stride)
        + u64::from(c.width) * atom
}

/// Checks one cube. A cube is used when it is HW-linked or has a size.
pub(super) fn data_cube(cx: &Ctx, loc: &str, c: &DataCube, extent: Extent, s: &mut Sink) {
    if c.mem_type > mem_type::HW {
        s.error(
            "cube-type",
            format!("{loc}.type"),
            format!("{} (MC 0, CV 1, HW 2)", c.mem_type),
        );
        return;
    }
    if c.mem_type == mem_type::HW {
        if c.address != -1 {
            s.error(
                "cube-address",
                format!("{loc}.address"),
                format!("{} on a HW cube; must be -1", c.address),
            );
        }
        return;
    }
    if c.size == 0 {
        return;
    }
    if c.mem_type == mem_type::CV {
        s.warn(
            "cube-sram",
            format!("{loc}.type"),
            "CV-SRAM cube; the open-source runtime does not allocate SRAM",
        );
    }
    let Some((base, avail)) = address_index(cx, &format!("{loc}.address"), c.address, s) else {
        return;
    };
    let atom = u64::from(cx.opts.atom_size.max(1));
    let offset = match cx.opts.abi {
        Abi::Current => u64::from(c.offset),
        Abi::Legacy => 0,
    };
    extent_rules(loc, c, offset, avail, atom, extent, s);
    let byte_address = base.wrapping_add(offset);
    if byte_address % atom != 0 {
        s.error(
            "cube-align",
            format!("{loc}.address"),
            format!("byte address {byte_address} is not {}-byte aligned", atom),
        );
    }
    for (field, v) in [
        ("line_stride", c.line_stride),
        ("surf_stride", c.surf_stride),
    ] {
        if u64::from(v) % atom != 0 {
            s.error(
                "cube-align",
                format!("{loc}.{field}"),
                format!("{v} is not a multiple of the {}-byte atom", atom),
            );
        }
    }
}

/// `cube-extent` (what the engine touches does not fit) and `cube-size`
/// (only the unread `size` field runs past the memory).
fn extent_rules(
    loc: &str,
    c: &DataCube,
    offset: u64,
    avail: u64,
    atom: u64,
    extent: Extent,
    s: &mut Sink,
) {
    let size_end = offset + u64::from(c.size);
    match extent {
        Extent::Size => {
            if size_end > avail {
                s.error(
                    "cube-extent",
                    loc.to_string(),
                    format!(
                        "offset {offset} + size {} exceeds the {avail} bytes of memory after the address",
                        c.size
                    ),
                );
            }
        }
        Extent::Feature { bpe } => {
            // The guessed 32-byte atom under-counts surfaces but over-counts
            // a row's bytes when lines are strided (a column window: line
            // stride 4 × width × 8 on nv_small); the smaller of the two
            // footprints never reports a cube that fits.
            let footprint = feature_footprint(c, layout_atom(c, atom), bpe)
                .min(feature_footprint(c, atom, bpe));
            if offset + footprint > avail {
                s.error(
                    "cube-extent",
                    loc.to_string(),
                    format!(
                        "offset {offset} + the {}×{}×{} cube's {footprint} bytes (line stride {}, surface stride {}) exceed the {avail} bytes of memory after the address",
                        c.width, c.height, c.channel, c.line_stride, c.surf_stride
                    ),
                );
            } else if size_end > avail {
                size_warning(loc, c, offset, avail, Some(footprint), s);
            }
        }
        Extent::Unread => {
            if size_end > avail {
                size_warning(loc, c, offset, avail, None, s);
            }
        }
    }
}

fn size_warning(
    loc: &str,
    c: &DataCube,
    offset: u64,
    avail: u64,
    footprint: Option<u64>,
    s: &mut Sink,
) {
    let reads = match footprint {
        Some(f) => format!("the engine reads the cube's {f} bytes, which fit"),
        None => "the engine reads the cube's geometry".to_string(),
    };
    s.warn(
        "cube-size",
        format!("{loc}.size"),
        format!(
            "offset {offset} + size {} exceeds the {avail} bytes of memory after the address; the firmware never programs this field ({reads})",
            c.size
        ),
    );
}
