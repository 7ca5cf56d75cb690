//! Convolution engine on hand-made cubes: known integer results, rounding
//! and saturation of the accumulator, padding / stride / dilation against a
//! naive reference, weight groups and channel cubes, FP16 against exact
//! values and a float reference.

use onnc_nvdla_loadable::desc::{ConvOpDesc, ConvSurfaceDesc, DataCube};
use onnc_nvdla_sim::engine::{Flying, FlyingData, Hw, OpCtx};
use onnc_nvdla_sim::memory::Memory;
use onnc_nvdla_sim::{conv, At};

/// A convolution problem: C-H-W data, K-C-R-S weights, raw element values
/// (INT values or fp16 bits).
#[derive(Clone)]
struct Problem {
    prec: u8,
    c: usize,
    h: usize,
    w: usize,
    k: usize,
    r: usize,
    s: usize,
    stride: (usize, usize),
    dil: (usize, usize),
    pad: (usize, usize, usize, usize), // left, right, top, bottom
    pad_val: i16,
    truncate: u8,
    data: Vec<i32>,
    weights: Vec<i32>,
}

impl Problem {
    fn out_hw(&self) -> (usize, usize) {
        let eh = (self.r - 1) * self.dil.1 + 1;
        let ew = (self.s - 1) * self.dil.0 + 1;
        (
            (self.h + self.pad.2 + self.pad.3 - eh) / self.stride.1 + 1,
            (self.w + self.pad.0 + self.pad.1 - ew) / self.stride.0 + 1,
        )
    }
}

fn bpe(prec: u8) -> usize {
    if prec == 0 {
        1
    } else {
        2
    }
}

fn put(buf: &mut [u8], o: usize, v: i32, prec: u8) {
    if prec == 0 {
        buf[o] = v as u8;
    } else {
        buf[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes());
    }
}

/// Packs K-C-R-S weights in the direct-convolution layout (format.rst).
fn pack_weights(p: &Problem, hw: &Hw) -> Vec<u8> {
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
fn run(p: &Problem, hw: &Hw) -> Flying {
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
    conv::run(&op, &surf_desc, &mut ctx).unwrap()
}

/// Exact integer reference: Σ over c, r, s with padding value `pad_val`.
fn reference_int(p: &Problem) -> Vec<i64> {
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

fn ints(f: &Flying) -> &[i32] {
    match &f.data {
        FlyingData::Int(v) => v,
        _ => panic!("float output"),
    }
}

fn floats(f: &Flying) -> &[f32] {
    match &f.data {
        FlyingData::Float(v) => v,
        _ => panic!("int output"),
    }
}

/// Deterministic pseudo-random values in [lo, hi].
fn rand_vec(n: usize, seed: u64, lo: i32, hi: i32) -> Vec<i32> {
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

fn problem(prec: u8, c: usize, hw_: (usize, usize), k: usize, rs: (usize, usize)) -> Problem {
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

#[test]
fn one_channel_3x3_known_result() {
    // data 1..9, weights 1..9 → Σ i² = 285; a second kernel of −1s → −45.
    let mut p = problem(1, 1, (3, 3), 2, (3, 3));
    p.data = (1..=9).collect();
    p.weights = (1..=9).chain(std::iter::repeat_n(-1, 9)).collect();
    let out = run(&p, &Hw::NV_FULL);
    assert_eq!((out.width, out.height, out.channel), (1, 1, 2));
    assert_eq!(ints(&out), &[285, -45]);
}

#[test]
fn truncation_rounds_half_away_from_zero() {
    // 1×1 kernels: outputs 5, −5, 7, −7 with truncate 1 → 3, −3, 4, −4.
    let mut p = problem(1, 1, (1, 4), 1, (1, 1));
    p.data = vec![5, -5, 7, -7];
    p.weights = vec![1];
    p.truncate = 1;
    assert_eq!(ints(&run(&p, &Hw::NV_FULL)), &[3, -3, 4, -4]);
    // Truncate 2: 6/4 = 1.5 → 2, −6/4 → −2, 5/4 = 1.25 → 1.
    p.data = vec![6, -6, 5, -5];
    p.truncate = 2;
    assert_eq!(ints(&run(&p, &Hw::NV_FULL)), &[2, -2, 1, -1]);
}

#[test]
fn accumulator_saturates_to_32_bits() {
    // 128 channels × 9 taps × 32767² ≈ 2^39.2 → int32 max; negated → min.
    let mut p = problem(1, 128, (3, 3), 2, (3, 3));
    p.data = vec![32767; 128 * 9];
    p.weights = [vec![32767; 128 * 9], vec![-32767; 128 * 9]].concat();
    assert_eq!(ints(&run(&p, &Hw::NV_FULL)), &[i32::MAX, i32::MIN]);
    // With truncate 9 the sum fits: RHAZ(Σ / 512).
    p.truncate = 9;
    let sum = 128i64 * 9 * 32767 * 32767;
    let q = (sum + 256) >> 9;
    assert!(q > i32::MAX as i64);
    assert_eq!(ints(&run(&p, &Hw::NV_FULL)), &[i32::MAX, i32::MIN]);
    p.truncate = 10;
    let q = ((sum + 512) >> 10) as i32;
    assert_eq!(ints(&run(&p, &Hw::NV_FULL)), &[q, -q]);
}

fn check_int(p: &Problem, hw: &Hw) {
    let out = run(p, hw);
    let want: Vec<i32> = reference_int(p)
        .into_iter()
        .map(|v| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
        .collect();
    assert_eq!(ints(&out), &want[..]);
}

#[test]
fn int16_groups_cubes_padding_stride_dilation() {
    // C = 70 (two 64-channel cubes, the last of 6), K = 20 (groups of 16),
    // asymmetric padding with a non-zero pad value, stride 2, dilation 2.
    let mut p = problem(1, 70, (9, 11), 20, (3, 2));
    p.data = rand_vec(p.c * p.h * p.w, 1, -300, 300);
    p.weights = rand_vec(p.k * p.c * p.r * p.s, 2, -300, 300);
    p.pad = (1, 2, 2, 1);
    p.pad_val = -7;
    p.stride = (2, 1);
    p.dil = (2, 2);
    check_int(&p, &Hw::NV_FULL);
}

#[test]
fn int8_full_and_small() {
    // nv_full INT8: groups of 32 kernels; nv_small: 8-channel cubes, groups of 8.
    let mut p = problem(0, 19, (6, 5), 35, (3, 3));
    p.data = rand_vec(p.c * p.h * p.w, 3, -128, 127);
    p.weights = rand_vec(p.k * p.c * p.r * p.s, 4, -128, 127);
    p.pad = (1, 1, 1, 1);
    p.pad_val = 0x1FE; // INT8 uses the low byte: −2
    check_int(&p, &Hw::NV_FULL);
    check_int(&p, &Hw::NV_SMALL);
}

fn fp16(v: f32) -> i32 {
    half::f16::from_f32(v).to_bits() as i32
}

#[test]
fn fp16_exact_sums() {
    // Products of small binary fractions are exact in every stage.
    let mut p = problem(2, 3, (2, 2), 2, (1, 1));
    p.data = [
        1.0, 2.0, -0.5, 0.25, 3.0, 0.0, -1.0, 4.0, 0.125, 0.5, -2.0, 8.0,
    ]
    .map(fp16)
    .to_vec();
    p.weights = [1.0, 0.5, -2.0, -1.0, 0.25, 0.0].map(fp16).to_vec();
    let out = run(&p, &Hw::NV_FULL);
    let d = |c: usize, i: usize| half::f16::from_bits(p.data[c * 4 + i] as u16).to_f32();
    let w = |k: usize, c: usize| half::f16::from_bits(p.weights[k * 3 + c] as u16).to_f32();
    let want: Vec<f32> = (0..2)
        .flat_map(|k| (0..4).map(move |i| (0..3).map(|c| d(c, i) * w(k, c)).sum::<f32>()))
        .collect();
    assert_eq!(floats(&out), &want[..]);
}

#[test]
fn fp16_close_to_float_reference() {
    // Random fp16 data in [−2, 2]: each output within a few ulp (of the
    // largest partial product) of a double-precision sum.
    let mut p = problem(2, 80, (5, 5), 18, (3, 3));
    let to_h = |v: &i32| fp16(*v as f32 / 1024.0);
    p.data = rand_vec(p.c * p.h * p.w, 5, -2048, 2048)
        .iter()
        .map(to_h)
        .collect();
    p.weights = rand_vec(p.k * p.c * p.r * p.s, 6, -2048, 2048)
        .iter()
        .map(to_h)
        .collect();
    p.pad = (1, 1, 1, 1);
    let out = run(&p, &Hw::NV_FULL);
    let f = |b: i32| half::f16::from_bits(b as u16).to_f64();
    let pf = Problem {
        data: p.data.iter().map(|&b| (f(b) * 65536.0) as i32).collect(),
        weights: p.weights.iter().map(|&b| (f(b) * 65536.0) as i32).collect(),
        prec: 1,
        ..p.clone()
    };
    let want = reference_int(&pf);
    for (i, (&got, &w)) in floats(&out).iter().zip(&want).enumerate() {
        let w = w as f64 / 65536.0 / 65536.0;
        assert!(
            (got as f64 - w).abs() <= 4.0 * 2f64.powi(-20) * 720.0,
            "{i}: {got} vs {w}"
        );
    }
}

/// FP16 speed on a ResNet-50-sized layer (56×56×64 → 64, 3×3):
/// `cargo test --release -p onnc-nvdla-sim --test conv -- --ignored --nocapture`.
#[test]
#[ignore]
fn fp16_speed() {
    let mut p = problem(2, 64, (56, 56), 64, (3, 3));
    p.pad = (1, 1, 1, 1);
    let to_h = |v: &i32| fp16(*v as f32 / 1024.0);
    p.data = rand_vec(p.c * p.h * p.w, 7, -2048, 2048)
        .iter()
        .map(to_h)
        .collect();
    p.weights = rand_vec(p.k * p.c * p.r * p.s, 8, -2048, 2048)
        .iter()
        .map(to_h)
        .collect();
    let t = std::time::Instant::now();
    let out = run(&p, &Hw::NV_FULL);
    let secs = t.elapsed().as_secs_f64();
    let macs = (p.k * p.c * p.r * p.s * 56 * 56) as f64;
    println!(
        "{:.0} MMAC in {secs:.3} s: {:.1} ns/MAC ({} outputs)",
        macs / 1e6,
        secs * 1e9 / macs,
        floats(&out).len()
    );
}

/// The fast Booth evaluation equals the full carry-save tree for every pair
/// of fp16 mantissa shapes, both signs and every alignment (about 3.7·10^8
/// cases): `cargo test --release -p onnc-nvdla-sim --test conv -- --ignored`.
#[test]
#[ignore]
fn fp16_booth_exhaustive() {
    use onnc_nvdla_sim::conv::cmac_fp16::{booth_coded, booth_codes, booth_fast};
    use rayon::prelude::*;
    let mts = |i: u32| {
        let frac = i & 0x3FF;
        match i >> 10 {
            0 => frac << 1,
            e => (frac | 0x400) << (e - 1),
        }
    };
    let bad: usize = (0..5120u32)
        .into_par_iter()
        .map(|i| {
            let wt = mts(i);
            let mut bad = 0;
            for neg in [false, true] {
                let codes = booth_codes(wt, neg);
                for j in 0..5120 {
                    let dat = mts(j);
                    for sft in (4..=28).step_by(4) {
                        bad += usize::from(
                            booth_fast(codes, neg, wt, dat, sft) != booth_coded(codes, dat, sft),
                        );
                    }
                }
            }
            bad
        })
        .sum();
    assert_eq!(bad, 0);
}
