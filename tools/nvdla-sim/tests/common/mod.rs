//! Shared test harness: hand-made convolution problems run through the
//! convolution engine (used by `conv.rs` and `conv_fast.rs`).
#![allow(dead_code)]

use onnc_nvdla_loadable::desc::{ConvOpDesc, ConvSurfaceDesc, DataCube};
use onnc_nvdla_sim::engine::{ConvFn, Flying, FlyingData, Hw, OpCtx};
use onnc_nvdla_sim::memory::Memory;
use onnc_nvdla_sim::{conv, At};

/// A convolution problem: C-H-W data, K-C-R-S weights, raw element values
/// (INT values or fp16 bits).
#[derive(Clone)]
pub struct Problem {
    pub prec: u8,
    pub c: usize,
    pub h: usize,
    pub w: usize,
    pub k: usize,
    pub r: usize,
    pub s: usize,
    pub stride: (usize, usize),
    pub dil: (usize, usize),
    pub pad: (usize, usize, usize, usize), // left, right, top, bottom
    pub pad_val: i16,
    pub truncate: u8,
    pub data: Vec<i32>,
    pub weights: Vec<i32>,
}

impl Problem {
    pub fn out_hw(&self) -> (usize, usize) {
        let eh = (self.r - 1) * self.dil.1 + 1;
        let ew = (self.s - 1) * self.dil.0 + 1;
        (
            (self.h + self.pad.2 + self.pad.3 - eh) / self.stride.1 + 1,
            (self.w + self.pad.0 + self.pad.1 - ew) / self.stride.0 + 1,
        )
    }
}

pub fn bpe(prec: u8) -> usize {
    if prec == 0 {
        1
    } else {
        2
    }
}

pub fn put(buf: &mut [u8], o: usize, v: i32, prec: u8) {
    if prec == 0 {
        buf[o] = v as u8;
    } else {
        buf[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes());
    }
}

/// Packs K-C-R-S weights in the direct-convolution layout (format.rst).
pub fn pack_weights(p: &Problem, hw: &Hw) -> Vec<u8> {
    let b = bpe(p.prec);
    let gk = if hw.name == "nv_full" && p.prec == 0 {
        2 * hw.atomic_k
    } else {
        hw.atomic_k
    };
    let mut out = Vec::new();
    for k0 in (0..p.k).step_by(gk) {
        let k1 = (k0 + gk).min(p.k);
        for c0 in (0..p.c).step_by(hw.atomic_c) {
            let c1 = (c0 + hw.atomic_c).min(p.c);
            for r in 0..p.r {
                for s in 0..p.s {
                    for k in k0..k1 {
                        for c in c0..c1 {
                            let v = p.weights[((k * p.c + c) * p.r + r) * p.s + s];
                            let mut e = vec![0u8; b];
                            put(&mut e, 0, v, p.prec);
                            out.extend_from_slice(&e);
                        }
                    }
                }
            }
        }
    }
    out.resize(out.len().div_ceil(128) * 128, 0);
    out
}

/// Runs the problem on `hw`; returns the CACC output.
pub fn run(p: &Problem, hw: &Hw) -> Flying {
    run_with(p, hw, conv::run)
}

/// [`run`] with the convolution model `conv_fn` (e.g. `conv::run_reference`).
pub fn run_with(p: &Problem, hw: &Hw, conv_fn: ConvFn) -> Flying {
    let b = bpe(p.prec);
    let cpa = hw.atom_bytes / b;
    let line = p.w * hw.atom_bytes;
    let surf = line * p.h;
    let surfaces = p.c.div_ceil(cpa);
    let mut src = vec![0u8; surf * surfaces];
    for c in 0..p.c {
        for y in 0..p.h {
            for x in 0..p.w {
                let o = c / cpa * surf + y * line + x * hw.atom_bytes + (c % cpa) * b;
                put(&mut src, o, p.data[(c * p.h + y) * p.w + x], p.prec);
            }
        }
    }
    let wts = pack_weights(p, hw);
    let mut mem = Memory {
        mems: vec![src.clone(), wts.clone()],
        addresses: vec![(0, 0, src.len() as u64), (1, 0, wts.len() as u64)],
    };
    let (ho, wo) = p.out_hw();
    let op = ConvOpDesc {
        data_format: 36,
        batch: 1,
        input_width_csc: p.w as u16,
        input_height_csc: p.h as u16,
        input_channel_csc: p.c as u16,
        kernel_width_csc: p.s as u16,
        kernel_height_csc: p.r as u16,
        kernel_channel_csc: p.c as u16,
        input_width_cmac: wo as u16,
        input_height_cmac: ho as u16,
        conv_stride_x: p.stride.0 as u8,
        conv_stride_y: p.stride.1 as u8,
        pad_x_left: p.pad.0 as u8,
        pad_x_right: p.pad.1 as u8,
        pad_y_top: p.pad.2 as u8,
        pad_y_bottom: p.pad.3 as u8,
        dilation_x: p.dil.0 as u8,
        dilation_y: p.dil.1 as u8,
        in_precision: p.prec,
        out_precision: p.prec,
        pad_val: p.pad_val,
        ..ConvOpDesc::default()
    };
    let mut op = op;
    op.out_cvt.scale = 1;
    op.out_cvt.enable = 1;
    op.out_cvt.truncate = p.truncate;
    let cube =
        |address: i16, w: usize, h: usize, c: usize, ls: usize, ss: usize, size: usize| DataCube {
            mem_type: 0,
            address,
            size: size as u32,
            width: w as u16,
            height: h as u16,
            channel: c as u16,
            line_stride: ls as u32,
            surf_stride: ss as u32,
            ..DataCube::default()
        };
    let surf_desc = ConvSurfaceDesc {
        weight_data: cube(1, p.s, p.r, p.c, 0, 0, wts.len()),
        src_data: cube(0, p.w, p.h, p.c, line, surf, src.len()),
        dst_data: DataCube {
            mem_type: 2,
            address: -1,
            ..cube(-1, wo, ho, p.k, 0, 0, 0)
        },
        ..ConvSurfaceDesc::default()
    };
    let addrs = [0u16, 1];
    let at = At {
        task: 0,
        op: Some(0),
        engine: "CONV",
    };
    let mut ctx = OpCtx {
        mem: mem.task(&addrs, at),
        luts: &[],
        hw,
    };
    conv_fn(&op, &surf_desc, &mut ctx).unwrap()
}

/// Exact integer reference: Σ over c, r, s with padding value `pad_val`.
pub fn reference_int(p: &Problem) -> Vec<i64> {
    let (ho, wo) = p.out_hw();
    let pad = if p.prec == 0 {
        p.pad_val as i8 as i64
    } else {
        p.pad_val as i64
    };
    let mut out = Vec::new();
    for k in 0..p.k {
        for oy in 0..ho {
            for ox in 0..wo {
                let mut acc = 0i64;
                for c in 0..p.c {
                    for r in 0..p.r {
                        for s in 0..p.s {
                            let y = (oy * p.stride.1 + r * p.dil.1) as i64 - p.pad.2 as i64;
                            let x = (ox * p.stride.0 + s * p.dil.0) as i64 - p.pad.0 as i64;
                            let d = if y < 0 || x < 0 || y >= p.h as i64 || x >= p.w as i64 {
                                pad
                            } else {
                                p.data[(c * p.h + y as usize) * p.w + x as usize] as i64
                            };
                            acc += d * p.weights[((k * p.c + c) * p.r + r) * p.s + s] as i64;
                        }
                    }
                }
                out.push(acc);
            }
        }
    }
    out
}

pub fn ints(f: &Flying) -> &[i32] {
    match &f.data {
        FlyingData::Int(v) => v,
        _ => panic!("float output"),
    }
}

pub fn floats(f: &Flying) -> &[f32] {
    match &f.data {
        FlyingData::Float(v) => v,
        _ => panic!("int output"),
    }
}

/// Deterministic pseudo-random values in [lo, hi].
pub fn rand_vec(n: usize, seed: u64, lo: i32, hi: i32) -> Vec<i32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            lo + (x % (hi - lo + 1) as u64) as i32
        })
        .collect()
}

pub fn problem(prec: u8, c: usize, hw_: (usize, usize), k: usize, rs: (usize, usize)) -> Problem {
    Problem {
        prec,
        c,
        h: hw_.0,
        w: hw_.1,
        k,
        r: rs.0,
        s: rs.1,
        stride: (1, 1),
        dil: (1, 1),
        pad: (0, 0, 0, 0),
        pad_val: 0,
        truncate: 0,
        data: vec![0; c * hw_.0 * hw_.1],
        weights: vec![0; k * c * rs.0 * rs.1],
    }
}
