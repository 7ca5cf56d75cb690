//! The PDP register values the firmware (`kmd/firmware/pdp.c`) derives
//! from the descriptors, and its checks.
//!
//! In: [`PdpOpDesc`], [`PdpSurfaceDesc`]. Out: [`Config`] — kernel, strides,
//! pads, the sign-extended padding values, the reciprocals of the kernel
//! sizes and the list of width splits, each with the input columns it reads
//! and the output columns it writes.

use crate::error::{At, Error, Result};
use onnc_nvdla_loadable::desc::cube::mem_type;
use onnc_nvdla_loadable::desc::{PdpOpDesc, PdpSurfaceDesc};

/// Element format (`precision`: INT8 0, INT16 1, FP16 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// 8-bit integers.
    Int8,
    /// 16-bit integers.
    Int16,
    /// IEEE half floats.
    Fp16,
}

impl Precision {
    /// From the descriptor value.
    pub fn from_desc(v: u8) -> Option<Precision> {
        match v {
            0 => Some(Precision::Int8),
            1 => Some(Precision::Int16),
            2 => Some(Precision::Fp16),
            _ => None,
        }
    }

    /// Bytes per element.
    pub fn bpe(self) -> usize {
        match self {
            Precision::Int8 => 1,
            _ => 2,
        }
    }
}

/// Pooling method (`pool_mode`: AVG 0, MAX 1, MIN 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Average.
    Avg,
    /// Maximum.
    Max,
    /// Minimum.
    Min,
}

/// One width split: the input columns one pass reads and the output
/// columns it writes (`PoolingStage0SequenceThread`, `PdpRdmaSequenceThread`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// First input column read.
    pub in_start: u64,
    /// Input columns read.
    pub in_width: usize,
    /// Left padding of this pass.
    pub pad_left: usize,
    /// Right padding of this pass.
    pub pad_right: usize,
    /// First output column written.
    pub out_start: u64,
    /// Output columns written.
    pub out_width: usize,
}

/// Everything the datapath needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Element format.
    pub precision: Precision,
    /// Method.
    pub method: Method,
    /// Kernel width (1..=8).
    pub kernel_w: usize,
    /// Kernel height (1..=8).
    pub kernel_h: usize,
    /// Stride x (1..=8).
    pub stride_x: usize,
    /// Stride y (1..=8).
    pub stride_y: usize,
    /// Top padding.
    pub pad_top: usize,
    /// Bottom padding.
    pub pad_bottom: usize,
    /// Padding value for n padded positions at index n − 1, as the datapath
    /// holds it: sign-extended integers, or fp17 bit patterns for FP16.
    pub pad_values: [i32; 7],
    /// `D_RECIP_KERNEL_WIDTH`: 16.16 fixed point (INT) or fp17 bits (FP16).
    pub recip_w: u32,
    /// `D_RECIP_KERNEL_HEIGHT`.
    pub recip_h: u32,
    /// Input height.
    pub in_height: usize,
    /// Output height.
    pub out_height: usize,
    /// The width passes (one when `split_num` is 1).
    pub splits: Vec<Split>,
}

/// Reciprocals of the kernel sizes 1..=8 (`pdp.c` `recip_kernel_size`).
const RECIP_INT: [u32; 8] = [
    0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000,
];
/// The same in fp17.
const RECIP_FP17: [u32; 8] = [
    0x7c00, 0x7800, 0x7555, 0x7400, 0x7266, 0x7155, 0x7092, 0x7000,
];

/// Sign bit index of the padding value registers 1x..7x (`PoolingStage0SequenceCommon`).
const PAD_SIGN_INT8: [u32; 7] = [7, 8, 9, 9, 10, 10, 10];
const PAD_SIGN_INT16: [u32; 7] = [15, 16, 17, 17, 18, 18, 18];

/// `int_sign_extend` of a 19-bit padding register: the bits above the sign
/// bit are set when it is set, the register bits are kept otherwise.
pub fn sign_extend_pad(reg: u32, sign_bit: u32) -> u32 {
    let reg = reg & 0x7_FFFF;
    if (reg >> sign_bit) & 1 == 1 {
        reg | (u32::MAX << (sign_bit + 1))
    } else {
        reg
    }
}

fn reject(at: &At, what: String) -> Error {
    Error::Rejected(format!("{at}: {what}"))
}

fn unsupported(at: &At, what: String) -> Error {
    Error::Unsupported {
        at: at.clone(),
        what,
    }
}

impl Config {
    /// Checks the descriptors as the firmware does and derives the registers.
    pub fn new(op: &PdpOpDesc, surf: &PdpSurfaceDesc, at: &At) -> Result<Config> {
        let (src, dst) = (&surf.src_data, &surf.dst_data);
        if dst.mem_type == mem_type::HW {
            return Err(reject(
                at,
                "PDP destination buffer has to be MC or CV, not HW".into(),
            ));
        }
        // validate_data_cube(src, dst, DLA_MEM_HW).
        for (name, c) in [("src", src), ("dst", dst)] {
            if c.width > 8192 || c.height > 8192 || c.channel > 8192 || c.mem_type > mem_type::HW {
                return Err(reject(
                    at,
                    format!(
                        "PDP {name} cube {}×{}×{} (mem type {}) exceeds 8192 or is not MC/CV/HW",
                        c.width, c.height, c.channel, c.mem_type
                    ),
                ));
            }
        }
        let precision = Precision::from_desc(op.precision)
            .ok_or_else(|| reject(at, format!("PDP precision {} is invalid", op.precision)))?;
        if !(1..=8).contains(&op.stride_x) || !(1..=8).contains(&op.stride_y) {
            return Err(reject(
                at,
                format!(
                    "PDP stride ({}, {}) is outside 1..8",
                    op.stride_x, op.stride_y
                ),
            ));
        }
        if op.pool_width > 7 || op.pool_height > 7 {
            return Err(reject(
                at,
                format!(
                    "PDP pool_width/pool_height ({}, {}) exceed 7 (kernel 8)",
                    op.pool_width, op.pool_height
                ),
            ));
        }
        let method = match op.pool_mode {
            0 => Method::Avg,
            1 => Method::Max,
            2 => Method::Min,
            m => return Err(reject(at, format!("PDP pool_mode {m} is invalid"))),
        };
        if op.split_num == 0 || op.split_num > 64 {
            return Err(reject(
                at,
                format!("PDP split_num {} is outside 1..64", op.split_num),
            ));
        }
        if src.mem_type == mem_type::HW && op.split_num != 1 {
            return Err(reject(at, "PDP on-the-fly input needs split_num 1".into()));
        }
        let pads = [op.pad_left, op.pad_right, op.pad_top, op.pad_bottom];
        if pads.iter().any(|&p| p > 7) {
            return Err(unsupported(
                at,
                format!("PDP padding {pads:?} does not fit the 3-bit pad registers"),
            ));
        }
        for (what, v) in [
            ("src width", src.width),
            ("src height", src.height),
            ("src channel", src.channel),
            ("dst width", dst.width),
            ("dst height", dst.height),
        ] {
            if v == 0 {
                return Err(unsupported(at, format!("PDP {what} is 0")));
            }
        }
        let pad_values = match precision {
            Precision::Fp16 => {
                if op.padding_value.iter().any(|&v| v != 0) {
                    return Err(reject(
                        at,
                        "PDP FP16 padding values must be 0 (firmware check)".into(),
                    ));
                }
                [0; 7]
            }
            Precision::Int8 | Precision::Int16 => {
                let (signs, bits) = match precision {
                    Precision::Int8 => (PAD_SIGN_INT8, 16),
                    _ => (PAD_SIGN_INT16, 32),
                };
                let mut out = [0i32; 7];
                for (o, (&v, &s)) in out.iter_mut().zip(op.padding_value.iter().zip(&signs)) {
                    let x = sign_extend_pad(v as u32, s);
                    // The C-model holds INT8 padding in int16, INT16 in int32.
                    *o = if bits == 16 {
                        i32::from(x as u16 as i16)
                    } else {
                        x as i32
                    };
                }
                out
            }
        };
        let table = if precision == Precision::Fp16 {
            &RECIP_FP17
        } else {
            &RECIP_INT
        };
        let kernel_w = usize::from(op.pool_width) + 1;
        let kernel_h = usize::from(op.pool_height) + 1;
        let stride_x = usize::from(op.stride_x);
        let splits = splits(op, src.width, dst.width, kernel_w, stride_x, at)?;
        Ok(Config {
            precision,
            method,
            kernel_w,
            kernel_h,
            stride_x,
            stride_y: usize::from(op.stride_y),
            pad_top: usize::from(op.pad_top),
            pad_bottom: usize::from(op.pad_bottom),
            pad_values,
            recip_w: table[usize::from(op.pool_width)],
            recip_h: table[usize::from(op.pool_height)],
            in_height: usize::from(src.height),
            out_height: usize::from(dst.height),
            splits,
        })
    }
}

/// The width passes. A partial width of 0 programs 0 into the `n − 1`
/// register, i.e. acts as 1.
fn splits(
    op: &PdpOpDesc,
    src_width: u16,
    dst_width: u16,
    kernel_w: usize,
    stride_x: usize,
    at: &At,
) -> Result<Vec<Split>> {
    let (pad_left, pad_right) = (usize::from(op.pad_left), usize::from(op.pad_right));
    if op.split_num == 1 {
        return Ok(vec![Split {
            in_start: 0,
            in_width: usize::from(src_width),
            pad_left,
            pad_right,
            out_start: 0,
            out_width: usize::from(dst_width),
        }]);
    }
    let w = |v: u16| i64::from(v.max(1));
    let (in_first, in_mid, in_last) = (
        w(op.partial_in_width_first),
        w(op.partial_in_width_mid),
        w(op.partial_in_width_last),
    );
    let (out_first, out_mid, out_last) = (
        w(op.partial_width_first),
        w(op.partial_width_mid),
        w(op.partial_width_last),
    );
    let overlap = kernel_w as i64 - stride_x as i64;
    let n = i64::from(op.split_num);
    (0..n)
        .map(|i| {
            let (in_start, in_width, out_start, out_width, pl, pr) = if i == 0 {
                (0, in_first, 0, out_first, pad_left, 0)
            } else {
                let last = i == n - 1;
                let (iw, ow) = if last {
                    (in_last, out_last)
                } else {
                    (in_mid, out_mid)
                };
                (
                    in_first + (i - 1) * in_mid - overlap,
                    iw + overlap,
                    out_first + (i - 1) * out_mid,
                    ow,
                    0,
                    if last { pad_right } else { 0 },
                )
            };
            if in_start < 0 || in_width <= 0 {
                return Err(unsupported(
                    at,
                    format!(
                        "PDP split {i} reads input columns from {in_start}, {in_width} wide: \
                         the partial widths do not fit the kernel overlap"
                    ),
                ));
            }
            Ok(Split {
                in_start: in_start as u64,
                in_width: in_width as usize,
                pad_left: pl,
                pad_right: pr,
                out_start: out_start as u64,
                out_width: out_width as usize,
            })
        })
        .collect()
}
