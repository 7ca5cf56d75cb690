//! PDP engine tests: hand-computed pools (max/min/average, padding values,
//! strides, kernels larger than the stride, the truncated reciprocals and
//! their rounding, INT8/INT16/FP16), width splits against the unsplit pool,
//! on-the-fly input, descriptor checks, and the NVIDIA golden PDP_L0_0 run
//! at engine level.

use onnc_nvdla_loadable::desc::{DataCube, OpDesc, PdpOpDesc, PdpSurfaceDesc, SurfaceDesc};
use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
use onnc_nvdla_loadable::{detect_abi, Loadable};
use onnc_nvdla_sim::engine::{Flying, FlyingData, Hw, OpCtx};
use onnc_nvdla_sim::memory::Memory;
use onnc_nvdla_sim::{pdp, At, Error};

const INT8: u8 = 0;
const INT16: u8 = 1;
const FP16: u8 = 2;
const AVG: u8 = 0;
const MAX: u8 = 1;
const MIN: u8 = 2;

fn bpe(precision: u8) -> usize {
    if precision == INT8 {
        1
    } else {
        2
    }
}

/// A packed cube at task address `address` (line stride = width atoms).
fn cube(address: i16, (w, h, c): (usize, usize, usize), precision: u8, hw: &Hw) -> DataCube {
    let cpa = hw.atom_bytes / bpe(precision);
    let ls = w * hw.atom_bytes;
    let ss = ls * h;
    DataCube {
        mem_type: 0,
        address,
        size: (ss * c.div_ceil(cpa)) as u32,
        width: w as u16,
        height: h as u16,
        channel: c as u16,
        line_stride: ls as u32,
        surf_stride: ss as u32,
        ..DataCube::default()
    }
}

/// Byte offset of element (c, y, x).
fn offset(cb: &DataCube, precision: u8, hw: &Hw, (c, y, x): (usize, usize, usize)) -> usize {
    let b = bpe(precision);
    let cpa = hw.atom_bytes / b;
    (c / cpa) * cb.surf_stride as usize
        + y * cb.line_stride as usize
        + x * hw.atom_bytes
        + (c % cpa) * b
}

/// Packs raw element bits given in C, H, W order.
fn pack(cb: &DataCube, precision: u8, hw: &Hw, bits: &[u16]) -> Vec<u8> {
    let (w, h, c) = (cb.width as usize, cb.height as usize, cb.channel as usize);
    let mut out = vec![0u8; cb.size as usize];
    for ci in 0..c {
        for y in 0..h {
            for x in 0..w {
                let v = bits[(ci * h + y) * w + x];
                let o = offset(cb, precision, hw, (ci, y, x));
                if bpe(precision) == 1 {
                    out[o] = v as u8;
                } else {
                    out[o..o + 2].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    out
}

/// Unpacks raw element bits in C, H, W order.
fn unpack(cb: &DataCube, precision: u8, hw: &Hw, bytes: &[u8]) -> Vec<u16> {
    let (w, h, c) = (cb.width as usize, cb.height as usize, cb.channel as usize);
    let mut out = Vec::new();
    for ci in 0..c {
        for y in 0..h {
            for x in 0..w {
                let o = offset(cb, precision, hw, (ci, y, x));
                out.push(if bpe(precision) == 1 {
                    u16::from(bytes[o])
                } else {
                    u16::from_le_bytes([bytes[o], bytes[o + 1]])
                });
            }
        }
    }
    out
}

fn op(mode: u8, precision: u8, kernel: (u8, u8), stride: (u8, u8), pad: [u8; 4]) -> PdpOpDesc {
    PdpOpDesc {
        split_num: 1,
        pool_mode: mode,
        pool_width: kernel.0 - 1,
        pool_height: kernel.1 - 1,
        stride_x: stride.0,
        stride_y: stride.1,
        pad_left: pad[0],
        pad_right: pad[1],
        pad_top: pad[2],
        pad_bottom: pad[3],
        precision,
        ..PdpOpDesc::default()
    }
}

/// Runs `op` on `input` (raw bits, C-H-W) of dims `inp`, output dims `out`.
fn run(
    op: &PdpOpDesc,
    inp: (usize, usize, usize),
    out: (usize, usize),
    input: &[u16],
    hw: &Hw,
) -> Result<Vec<u16>, Error> {
    let src = cube(0, inp, op.precision, hw);
    let dst = cube(1, (out.0, out.1, inp.2), op.precision, hw);
    let mut mem = Memory {
        mems: vec![
            pack(&src, op.precision, hw, input),
            vec![0; dst.size as usize],
        ],
        addresses: vec![(0, 0, u64::from(src.size)), (1, 0, u64::from(dst.size))],
    };
    let surf = PdpSurfaceDesc {
        src_data: src,
        dst_data: dst.clone(),
    };
    let mut ctx = OpCtx {
        mem: mem.task(&[0, 1], At::default()),
        luts: &[],
        hw,
    };
    pdp::run(op, &surf, None, &mut ctx)?;
    Ok(unpack(&dst, op.precision, hw, &mem.mems[1]))
}

fn i8s(v: &[i32]) -> Vec<u16> {
    v.iter().map(|&x| u16::from(x as i8 as u8)).collect()
}

fn from_i8(v: &[u16]) -> Vec<i32> {
    v.iter().map(|&x| i32::from(x as u8 as i8)).collect()
}

fn i16s(v: &[i32]) -> Vec<u16> {
    v.iter().map(|&x| x as i16 as u16).collect()
}

fn from_i16(v: &[u16]) -> Vec<i32> {
    v.iter().map(|&x| i32::from(x as i16)).collect()
}

fn f16s(v: &[f32]) -> Vec<u16> {
    v.iter()
        .map(|&x| half::f16::from_f32(x).to_bits())
        .collect()
}

#[test]
fn max_2x2_stride_2_int8() {
    #[rustfmt::skip]
    let x = [
        1, -5, 3, 4,
        2, 0, -8, -7,
        -1, -2, 9, 9,
        -3, -4, 9, 127,
    ];
    let o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    let y = run(&o, (4, 4, 1), (2, 2), &i8s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i8(&y), [2, 4, -1, 127]);
}

#[test]
fn min_3x3_stride_1_padding_is_ignored() {
    // Padding positions take no part in MIN (nor MAX), whatever their value.
    #[rustfmt::skip]
    let x = [
        5, 6, 7,
        8, 9, 10,
        11, 12, 13,
    ];
    let mut o = op(MIN, INT8, (3, 3), (1, 1), [1, 1, 1, 1]);
    o.padding_value = [-100, -100, -100, -100, -100, -100, -100];
    let y = run(&o, (3, 3, 1), (3, 3), &i8s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i8(&y), [5, 5, 6, 5, 5, 6, 8, 8, 9]);
    let o = op(MAX, INT8, (3, 3), (1, 1), [1, 1, 1, 1]);
    let y = run(&o, (3, 3, 1), (3, 3), &i8s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i8(&y), [9, 10, 10, 12, 13, 13, 12, 13, 13]);
}

#[test]
fn average_2x2_rounds_half_away_from_zero() {
    // Sums 11 and −11: 11·0x8000/2^16 = 5.5 → 6, 6·0x8000/2^16 = 3.
    let x = [1, 2, 3, 5, -1, -2, -3, -5];
    let o = op(AVG, INT8, (2, 2), (2, 2), [0; 4]);
    let y = run(&o, (2, 2, 2), (1, 1), &i8s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i8(&y), [3, -3]);
}

#[test]
fn average_3x3_uses_the_truncated_reciprocal() {
    // 1/3 is 0x5555: 40 · 0x5555 / 2^16 = 13.33 → 13, 13 · 0x5555 / 2^16 =
    // 4.33 → 4 (the exact mean 40/9 = 4.44 would also give 4); 90 gives
    // 29.9995 → 30 → 9.9998 → 10.
    let o = op(AVG, INT8, (3, 3), (1, 1), [1, 1, 1, 1]);
    let y = run(&o, (3, 3, 1), (3, 3), &i8s(&[10; 9]), &Hw::NV_FULL).unwrap();
    // Corner windows see 4 inputs, edges 6, the centre 9 (padding value 0).
    assert_eq!(from_i8(&y), [4, 7, 4, 7, 10, 7, 4, 7, 4]);
    // Padding value 10 per padded position (value k = 10·k): every window
    // sums to 90.
    let mut o = o;
    o.padding_value = [10, 20, 30, 40, 50, 60, 70];
    let y = run(&o, (3, 3, 1), (3, 3), &i8s(&[10; 9]), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i8(&y), [10; 9]);
}

#[test]
fn average_int16_with_negative_padding_value() {
    // 2×2 input, 3×3 kernel, stride 1, pad 1 all round, padding value −1000.
    // Window (0,0): inputs 100+200+300+400, 2 rows × 1 left pad (−1000 each),
    // 1 top row (−1000·3): sum −4000; ·0x5555 → −1333.3 → −1333; → −444.3 → −444.
    let x = [100, 200, 300, 400];
    let mut o = op(AVG, INT16, (3, 3), (1, 1), [1, 1, 1, 1]);
    o.padding_value = [-1000, -2000, -3000, -4000, -5000, -6000, -7000];
    let y = run(&o, (2, 2, 1), (2, 2), &i16s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i16(&y)[0], -444);
}

/// The sum the average divides: in-bounds inputs, the horizontal padding
/// value once per in-bounds row, the vertical one times the kernel width.
#[allow(clippy::too_many_arguments)]
fn reference_avg(
    x: &[i32],
    (w, h): (usize, usize),
    (kw, kh): (usize, usize),
    (sx, sy): (usize, usize),
    (pl, pt): (usize, usize),
    pv: &[i32; 7],
    (ox, oy): (usize, usize),
    recip: (i64, i64),
) -> i32 {
    let x0 = (ox * sx) as i64 - pl as i64;
    let y0 = (oy * sy) as i64 - pt as i64;
    let cols: Vec<i64> = (x0..x0 + kw as i64)
        .filter(|&c| c >= 0 && c < w as i64)
        .collect();
    let rows: Vec<i64> = (y0..y0 + kh as i64)
        .filter(|&r| r >= 0 && r < h as i64)
        .collect();
    let mut s: i64 = 0;
    for &r in &rows {
        for &c in &cols {
            s += i64::from(x[r as usize * w + c as usize]);
        }
    }
    let nw = kw - cols.len();
    let nh = kh - rows.len();
    if nw > 0 {
        s += rows.len() as i64 * i64::from(pv[nw - 1]);
    }
    if nh > 0 {
        s += kw as i64 * i64::from(pv[nh - 1]);
    }
    let r = |v: i64, m: i64| {
        let p = v * m;
        let q = (p.abs() + (1 << 15)) >> 16;
        if p < 0 {
            -q
        } else {
            q
        }
    };
    r(r(s, recip.0), recip.1) as i32
}

#[test]
fn average_int16_matches_the_window_formula() {
    const RECIP: [i64; 8] = [
        0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000,
    ];
    let (w, h) = (9, 7);
    let x: Vec<i32> = (0..w * h)
        .map(|i| ((i * 7919) % 2001) as i32 - 1000)
        .collect();
    let pv = [-3, -6, -9, -12, -15, -18, -21];
    for (kw, kh, sx, sy, pl, pr, pt, pb) in [
        (3, 3, 1, 1, 1, 1, 1, 1),
        (3, 2, 2, 1, 1, 0, 0, 1),
        (5, 4, 2, 3, 2, 2, 1, 2),
        (2, 3, 2, 2, 0, 1, 1, 0),
        (8, 8, 8, 8, 0, 7, 0, 1),
    ] {
        let ow = (w + pl + pr - kw) / sx + 1;
        let oh = (h + pt + pb - kh) / sy + 1;
        let mut o = op(
            AVG,
            INT16,
            (kw as u8, kh as u8),
            (sx as u8, sy as u8),
            [pl as u8, pr as u8, pt as u8, pb as u8],
        );
        o.padding_value = pv;
        let y = run(&o, (w, h, 1), (ow, oh), &i16s(&x), &Hw::NV_FULL).unwrap();
        for oy in 0..oh {
            for ox in 0..ow {
                let want = reference_avg(
                    &x,
                    (w, h),
                    (kw, kh),
                    (sx, sy),
                    (pl, pt),
                    &pv,
                    (ox, oy),
                    (RECIP[kw - 1], RECIP[kh - 1]),
                );
                assert_eq!(
                    i32::from(y[oy * ow + ox] as i16),
                    want,
                    "kernel {kw}×{kh} stride {sx}×{sy} pad {pl},{pr},{pt},{pb} at ({ox}, {oy})"
                );
            }
        }
    }
}

#[test]
fn average_int8_padding_registers() {
    // A 2×2 of 127 averages to 127.
    let o = op(AVG, INT8, (2, 2), (2, 2), [0; 4]);
    let y = run(
        &o,
        (2, 2, 1),
        (1, 1),
        &i8s(&[127, 127, 127, 127]),
        &Hw::NV_FULL,
    )
    .unwrap();
    assert_eq!(from_i8(&y), [127]);
    // Padding value 127·k on a 2×2 kernel with pad 1: window (0,0) sums
    // 127 (input) + 127 (left) + 2·127 (top ×2) = 508 → 254 → 127; window
    // (1,0) sums 127 + 127 + 254 (top) = 508 as well.
    let mut o = op(AVG, INT8, (2, 2), (1, 1), [1, 0, 1, 0]);
    o.padding_value = [127, 254, 381, 508, 635, 762, 889];
    let y = run(&o, (1, 1, 1), (1, 1), &i8s(&[127]), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i8(&y), [127]);
    // A 2-position padding register that does not fit its 9 bits is
    // sign-extended from bit 8: 0x1F0 reads as −16.
    let mut o = op(AVG, INT8, (3, 1), (1, 1), [2, 0, 0, 0]);
    o.padding_value = [0, 0x1F0, 0, 0, 0, 0, 0];
    let y = run(&o, (1, 1, 1), (1, 1), &i8s(&[40]), &Hw::NV_FULL).unwrap();
    // (40 − 16) · 0x5555 / 2^16 = 7.99 → 8, · 1 (kernel height 1) = 8.
    assert_eq!(from_i8(&y), [8]);
}

#[test]
fn fp16_max_and_min() {
    let x = [1.5, -2.0, 0.25, -0.0, 65504.0, -65504.0, 3.0, 0.0];
    let o = op(MAX, FP16, (2, 2), (2, 2), [0; 4]);
    let y = run(&o, (2, 2, 2), (1, 1), &f16s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(y, f16s(&[1.5, 65504.0]));
    let o = op(MIN, FP16, (2, 2), (2, 2), [0; 4]);
    let y = run(&o, (2, 2, 2), (1, 1), &f16s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(y, f16s(&[-2.0, -65504.0]));
}

#[test]
fn fp16_average_rounds_in_fp17() {
    // 2×2: (1 + 2 + 3 + 4) · 0.5 · 0.5 = 2.5.
    let o = op(AVG, FP16, (2, 2), (2, 2), [0; 4]);
    let y = run(
        &o,
        (2, 2, 1),
        (1, 1),
        &f16s(&[1.0, 2.0, 3.0, 4.0]),
        &Hw::NV_FULL,
    )
    .unwrap();
    assert_eq!(y, f16s(&[2.5]));
    // 3×3 of ones: 9 · 0x7555 (0.333251953125) = 2.99927 rounds to 3.0 in
    // fp17, 3.0 · 0.333251953125 = 0.99976 rounds to 1.0: the truncated
    // reciprocal is hidden by the rounding.
    let o = op(AVG, FP16, (3, 3), (3, 3), [0; 4]);
    let y = run(&o, (3, 3, 1), (1, 1), &f16s(&[1.0; 9]), &Hw::NV_FULL).unwrap();
    assert_eq!(y, [0x3C00]);
    // With zero padding the corner of a 3×3/1 pad-1 pool over ones sums 4
    // and divides by 9 (≈ 0.4443 after the two fp17 products).
    let o = op(AVG, FP16, (3, 3), (1, 1), [1, 1, 1, 1]);
    let y = run(&o, (3, 3, 1), (3, 3), &f16s(&[1.0; 9]), &Hw::NV_FULL).unwrap();
    let corner = half::f16::from_bits(y[0]).to_f32();
    assert!((corner - 4.0 / 9.0).abs() < 1e-3, "{corner}");
    assert_eq!(y[4], 0x3C00);
}

#[test]
fn fp16_padding_values_must_be_zero() {
    let mut o = op(AVG, FP16, (3, 3), (1, 1), [1, 1, 1, 1]);
    o.padding_value[0] = 0x3C00;
    let e = run(&o, (3, 3, 1), (3, 3), &f16s(&[1.0; 9]), &Hw::NV_FULL).unwrap_err();
    assert!(matches!(e, Error::Rejected(_)), "{e}");
}

#[test]
fn int16_and_nv_small_layouts() {
    // 20 channels: two INT16 surfaces on nv_full (16 per atom), three INT8
    // surfaces on nv_small (8 per atom).
    let c = 20;
    let x: Vec<i32> = (0..c * 4).map(|i| (i as i32 * 37) % 101 - 50).collect();
    let want: Vec<i32> = (0..c)
        .map(|ch| *x[ch * 4..ch * 4 + 4].iter().max().unwrap())
        .collect();
    let o = op(MAX, INT16, (2, 2), (2, 2), [0; 4]);
    let y = run(&o, (2, 2, c), (1, 1), &i16s(&x), &Hw::NV_FULL).unwrap();
    assert_eq!(from_i16(&y), want);
    let o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    let y = run(&o, (2, 2, c), (1, 1), &i8s(&x), &Hw::NV_SMALL).unwrap();
    assert_eq!(from_i8(&y), want);
}

#[test]
fn width_splits_equal_the_unsplit_pool() {
    // 3×3 kernel, stride 2, pad 1: 13 input columns → 7 outputs, split as
    // outputs 3 + 2 + 2 over inputs 6 + 4 + 3 (each later split re-reads the
    // kernel − stride = 1 overlapping column).
    let (w, h, c) = (13, 5, 3);
    let x: Vec<i32> = (0..w * h * c)
        .map(|i| ((i * 31) % 97) as i32 - 48)
        .collect();
    for mode in [AVG, MAX, MIN] {
        let mut o = op(mode, INT8, (3, 3), (2, 2), [1, 1, 1, 1]);
        o.padding_value = [-5, -10, -15, -20, -25, -30, -35];
        let whole = run(&o, (w, h, c), (7, 3), &i8s(&x), &Hw::NV_FULL).unwrap();
        o.split_num = 3;
        o.partial_in_width_first = 6;
        o.partial_in_width_mid = 4;
        o.partial_in_width_last = 3;
        o.partial_width_first = 3;
        o.partial_width_mid = 2;
        o.partial_width_last = 2;
        let split = run(&o, (w, h, c), (7, 3), &i8s(&x), &Hw::NV_FULL).unwrap();
        assert_eq!(split, whole, "mode {mode}");
    }
}

#[test]
fn compiler_style_fp16_split_equals_the_unsplit_pool() {
    // What onnc's emitter (`emit/pdp_split.rs`) produces for a 3×3/2 FP16
    // pooling with pad left 1 over 300 columns (150 outputs, line buffer
    // limit 64): outputs 64 + 64 + 22 over inputs 128 + 128 + 44.
    let (w, h, c) = (300, 3, 2);
    let x: Vec<f32> = (0..w * h * c)
        .map(|i| ((i * 37) % 41) as f32 * 0.25 - 5.0)
        .collect();
    for mode in [AVG, MAX] {
        let mut o = op(mode, FP16, (3, 3), (2, 2), [1, 0, 1, 0]);
        let whole = run(&o, (w, h, c), (150, 1), &f16s(&x), &Hw::NV_FULL).unwrap();
        o.split_num = 3;
        o.partial_in_width_first = 128;
        o.partial_in_width_mid = 128;
        o.partial_in_width_last = 44;
        o.partial_width_first = 64;
        o.partial_width_mid = 64;
        o.partial_width_last = 22;
        let split = run(&o, (w, h, c), (150, 1), &f16s(&x), &Hw::NV_FULL).unwrap();
        assert_eq!(split, whole, "mode {mode}");
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let (w, h, c) = (23, 19, 40);
    let x: Vec<f32> = (0..w * h * c)
        .map(|i| ((i * 7919) % 613) as f32 / 16.0 - 19.0)
        .collect();
    let o = op(AVG, FP16, (3, 3), (2, 2), [1, 1, 1, 1]);
    let runs: Vec<Vec<u16>> = [1, 4]
        .iter()
        .map(|&n| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            pool.install(|| run(&o, (w, h, c), (12, 10), &f16s(&x), &Hw::NV_FULL).unwrap())
        })
        .collect();
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn on_the_fly_input() {
    let hw = Hw::NV_FULL;
    let src = DataCube {
        mem_type: 2,
        width: 2,
        height: 2,
        channel: 2,
        ..DataCube::default()
    };
    let dst = cube(0, (1, 1, 2), INT8, &hw);
    let mut mem = Memory {
        mems: vec![vec![0; dst.size as usize]],
        addresses: vec![(0, 0, u64::from(dst.size))],
    };
    let surf = PdpSurfaceDesc {
        src_data: src,
        dst_data: dst.clone(),
    };
    let f = Flying {
        width: 2,
        height: 2,
        channel: 2,
        data: FlyingData::Int(vec![1, 2, 3, 4, -1, -2, -3, -4]),
    };
    let mut ctx = OpCtx {
        mem: mem.task(&[0], At::default()),
        luts: &[],
        hw: &hw,
    };
    pdp::run(
        &op(MAX, INT8, (2, 2), (2, 2), [0; 4]),
        &surf,
        Some(f),
        &mut ctx,
    )
    .unwrap();
    assert_eq!(from_i8(&unpack(&dst, INT8, &hw, &mem.mems[0])), [4, -1]);
}

#[test]
fn bad_descriptors_are_errors_not_panics() {
    let hw = Hw::NV_FULL;
    let x = i8s(&[0; 16]);
    let mut o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    o.stride_x = 0;
    assert!(run(&o, (4, 4, 1), (2, 2), &x, &hw).is_err());
    let mut o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    o.precision = 7;
    assert!(run(&o, (4, 4, 1), (2, 2), &x, &hw).is_err());
    let mut o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    o.pool_width = 9;
    assert!(run(&o, (4, 4, 1), (2, 2), &x, &hw).is_err());
    // The output cube is larger than the pooled size: the hardware stalls.
    let o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    let e = run(&o, (4, 4, 1), (3, 2), &x, &hw).unwrap_err();
    assert!(e.to_string().contains("no input"), "{e}");
    // The output cube is smaller: windows fall outside it.
    let e = run(&o, (4, 4, 1), (1, 2), &x, &hw).unwrap_err();
    assert!(e.to_string().contains("outside"), "{e}");
    // split_num 0 and partial widths that do not cover the overlap.
    let mut o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    o.split_num = 0;
    assert!(run(&o, (4, 4, 1), (2, 2), &x, &hw).is_err());
    let mut o = op(MAX, INT8, (3, 3), (1, 1), [0; 4]);
    o.split_num = 2;
    o.partial_in_width_first = 1;
    assert!(run(&o, (4, 4, 1), (2, 2), &x, &hw).is_err());
}

#[test]
fn huge_cubes_are_refused_without_allocating() {
    let hw = Hw::NV_FULL;
    let big = DataCube {
        width: u16::MAX,
        height: u16::MAX,
        channel: u16::MAX,
        ..DataCube::default()
    };
    let small = cube(1, (1, 1, 1), INT8, &hw);
    let mut mem = Memory {
        mems: vec![vec![0; 64], vec![0; 64]],
        addresses: vec![(0, 0, 64), (1, 0, 64)],
    };
    let o = op(MAX, INT8, (2, 2), (2, 2), [0; 4]);
    for (src, dst) in [(big.clone(), small.clone()), (small.clone(), big)] {
        let surf = PdpSurfaceDesc {
            src_data: src,
            dst_data: dst,
        };
        let mut ctx = OpCtx {
            mem: mem.task(&[0, 1], At::default()),
            luts: &[],
            hw: &hw,
        };
        assert!(pdp::run(&o, &surf, None, &mut ctx).is_err());
    }
}

/// NVIDIA's PDP_L0_0 (nv_full, MAX 1×1, INT8 8×8×32): the destination
/// surface read as the 2018 DIMG writer reads it equals the golden payload.
#[test]
fn golden_pdp_l0_0() {
    let root = format!(
        "{}/../../test/data/nvdla-golden",
        env!("CARGO_MANIFEST_DIR")
    );
    let l = Loadable::read(&std::fs::read(format!("{root}/PDP_L0_0_fbuf")).unwrap()).unwrap();
    let dimg = std::fs::read(format!("{root}/golden/PDP_L0_0_e21636/dla/o_000000.dimg")).unwrap();
    let abi = detect_abi(&l).abi;
    let mut mem = Memory::load(&l).unwrap();
    let hw = Hw::NV_FULL;
    let mut checked = 0;
    for (t, task) in l.task_list.iter().enumerate() {
        let TaskDescs::Dla(d) = task_descs(&l, task, abi) else {
            continue;
        };
        let (ops, surfs) = (d.ops.value.unwrap(), d.surfaces.value.unwrap());
        for (i, (o, s)) in ops.iter().zip(&surfs).enumerate() {
            let (OpDesc::Pdp(o), SurfaceDesc::Pdp(s)) = (&o.desc, &s.desc) else {
                continue;
            };
            let at = At {
                task: t,
                op: Some(i),
                engine: "PDP",
            };
            let mut ctx = OpCtx {
                mem: mem.task(&task.address_list, at),
                luts: &[],
                hw: &hw,
            };
            pdp::run(o, s, None, &mut ctx).unwrap();
            let dst = &s.dst_data;
            let view = mem.task(&task.address_list, At::default());
            let mut got = Vec::new();
            for c in 0..usize::from(dst.channel) {
                for y in 0..u64::from(dst.height) {
                    for x in 0..u64::from(dst.width) {
                        let off = (c / 32) as u64 * u64::from(dst.surf_stride)
                            + y * u64::from(dst.line_stride)
                            + x * 32
                            + (c % 32) as u64;
                        got.extend_from_slice(view.read("dst", dst.address, off, 1).unwrap());
                    }
                }
            }
            assert_eq!(got, &dimg[36..]);
            checked += 1;
        }
    }
    assert_eq!(checked, 1);
}
