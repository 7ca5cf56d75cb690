//! CDP engine tests: the LUT (linear and exponential tables, hits with
//! interpolation, underflow and overflow with their slopes, priorities),
//! the converters, the LRN square sum on small cubes (window sizes, cube
//! edges, padded channels), descriptor checks, and NVIDIA's goldens
//! CDP_L0_0 (INT16) and CDP_L0_0_small (INT8, nv_small) run at engine level.

use onnc_nvdla_loadable::desc::{
    CdpOpDesc, CdpSurfaceDesc, CvtParam, DataCube, LutParam, OpDesc, Slope, SurfaceDesc,
};
use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
use onnc_nvdla_loadable::{detect_abi, Loadable};
use onnc_nvdla_sim::engine::{Hw, OpCtx};
use onnc_nvdla_sim::memory::Memory;
use onnc_nvdla_sim::{cdp, At, Error};

const INT8: u8 = 0;
const INT16: u8 = 1;
const FP16: u8 = 2;

fn bpe(p: u8) -> usize {
    if p == INT8 {
        1
    } else {
        2
    }
}

fn cube(address: i16, (w, h, c): (usize, usize, usize), p: u8, hw: &Hw) -> DataCube {
    let cpa = hw.atom_bytes / bpe(p);
    let ls = w * hw.atom_bytes;
    let ss = ls * h;
    DataCube {
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

fn offset(cb: &DataCube, p: u8, hw: &Hw, (c, y, x): (usize, usize, usize)) -> usize {
    let cpa = hw.atom_bytes / bpe(p);
    (c / cpa) * cb.surf_stride as usize
        + y * cb.line_stride as usize
        + x * hw.atom_bytes
        + (c % cpa) * bpe(p)
}

/// Runs a CDP op on `input` (values in C, H, W order), returns the outputs
/// of all channels up to `read_c` (padded channels included when larger).
fn run(
    op: &CdpOpDesc,
    lut: &LutParam,
    dims: (usize, usize, usize),
    input: &[i32],
    hw: &Hw,
    read_c: usize,
) -> Result<Vec<i32>, Error> {
    let p = op.in_precision;
    let src = cube(0, dims, p, hw);
    let dst = cube(1, dims, p, hw);
    let (w, h, c) = dims;
    let mut bytes = vec![0u8; src.size as usize];
    for ci in 0..c {
        for y in 0..h {
            for x in 0..w {
                let v = input[(ci * h + y) * w + x];
                let o = offset(&src, p, hw, (ci, y, x));
                if p == INT8 {
                    bytes[o] = v as i8 as u8;
                } else {
                    bytes[o..o + 2].copy_from_slice(&(v as i16).to_le_bytes());
                }
            }
        }
    }
    let mut mem = Memory {
        mems: vec![bytes, vec![0; dst.size as usize]],
        addresses: vec![(0, 0, u64::from(src.size)), (1, 0, u64::from(dst.size))],
    };
    let surf = CdpSurfaceDesc {
        src_data: src,
        dst_data: dst.clone(),
    };
    let luts = [lut.clone()];
    let mut ctx = OpCtx {
        mem: mem.task(&[0, 1], At::default()),
        luts: &luts,
        hw,
    };
    cdp::run(op, &surf, &mut ctx)?;
    let out = &mem.mems[1];
    let mut vals = Vec::new();
    for ci in 0..read_c {
        for y in 0..h {
            for x in 0..w {
                let o = offset(&dst, p, hw, (ci, y, x));
                vals.push(if p == INT8 {
                    i32::from(out[o] as i8)
                } else {
                    i32::from(i16::from_le_bytes([out[o], out[o + 1]]))
                });
            }
        }
    }
    Ok(vals)
}

fn identity() -> CvtParam {
    CvtParam {
        scale: 1,
        truncate: 0,
        enable: 1,
        offset: 0,
    }
}

fn op(p: u8, local_size: u8, bypass_sqsum: bool, bypass_mul: bool) -> CdpOpDesc {
    CdpOpDesc {
        in_precision: p,
        out_precision: p,
        lut_index: 0,
        in_cvt: identity(),
        out_cvt: identity(),
        local_size,
        bypass_sqsum: u8::from(bypass_sqsum),
        bypass_out_mul: u8::from(bypass_mul),
        reserved0: 0,
    }
}

fn slope(scale: i16, shifter: i8) -> Slope {
    Slope {
        scale,
        shifter,
        reserved: 0,
    }
}

/// A LUT whose LO table gives RHAZ(x / 4) for 0 < x < 65536 (entries
/// 64·i, 256 inputs per entry) and whose LE table always underflows.
fn quarter_lut() -> LutParam {
    let mut l = LutParam::default();
    for (i, v) in l.linear_only_table.iter_mut().enumerate() {
        *v = (64 * i) as i16;
    }
    l.linear_only_offset = 8; // index_select: 8 fraction bits
    l.linear_only_start = 0;
    l.linear_only_end = 65536;
    l.linear_exp_start = 1 << 36; // LE: every input underflows
    l.method = 1;
    l.underflow_priority = 1; // both under: LO
    l.overflow_priority = 1;
    l.hybrid_priority = 1;
    l
}

#[test]
fn lo_linear_table_interpolates() {
    // sqsum bypass + mul bypass: the output is the LUT of the converted input.
    let o = op(INT16, 3, true, true);
    let x = [1, 2, 3, 4, 6, 255, 256, 257, 1000, 4097];
    let y = run(&o, &quarter_lut(), (x.len(), 1, 1), &x, &Hw::NV_FULL, 1).unwrap();
    // RHAZ(x/4): 0.25→0, 0.5→1, 0.75→1, 1, 1.5→2, 63.75→64, 64, 64.25→64, 250, 1024.25→1024.
    assert_eq!(y, [0, 1, 1, 1, 2, 64, 64, 64, 250, 1024]);
}

#[test]
fn lo_underflow_and_overflow_slopes() {
    let mut l = quarter_lut();
    l.linear_only_table[0] = 7;
    l.linear_only_table[256] = 16000;
    l.linear_only_underflow_slope = slope(3, 1); // (x − start)·3 / 2
    l.linear_only_overflow_slope = slope(-1, -2); // (x − end)·−1 · 4
    let o = op(INT16, 3, true, true);
    let x = [0, -5, -1000, 32767];
    let y = run(&o, &l, (x.len(), 1, 1), &x, &Hw::NV_FULL, 1).unwrap();
    // 0 → underflow (x − start ≤ 0): 7 + 0; −5 → 7 + RHAZ(−7.5) = 7 − 8 = −1;
    // −1000 → 7 − 1500; 32767 hits (32767 >> 8 = 127).
    assert_eq!(y[..3], [7, -1, -1493]);
    assert_eq!(y[3], 8192);
    // Overflow: end 2^15 with 7 fraction bits (index ≥ 256 from 32768); the
    // input converter scales by 4 to get there.
    let mut o = o;
    o.in_cvt.scale = 4;
    l.linear_only_offset = 7;
    l.linear_only_end = 32768;
    let y = run(&o, &l, (2, 1, 1), &[8191, 10000], &Hw::NV_FULL, 1).unwrap();
    // 32764 >> 7 = 255: entry 255 (16320) + (16000 − 16320)·(124/128) = 16010.
    // 40000: overflow, 16000 + (40000 − 32768)·(−1)·2^2 = −12928.
    assert_eq!(y, [16010, -12928]);
}

/// An exponential LE table with entries 1000·i, start 0, index offset 2
/// (entry 0 covers [4, 8)); LO always underflows and has priority only
/// when both overflow.
fn exp_lut(offset: i8) -> LutParam {
    let mut l = LutParam::default();
    for (i, v) in l.linear_exp_table.iter_mut().enumerate() {
        *v = (1000 * i as i32).min(32767) as i16;
    }
    l.method = 0;
    l.linear_exp_offset = u16::from(offset as u8);
    l.linear_exp_start = 0;
    l.linear_exp_end = 1 << 20;
    l.linear_exp_underflow_slope = slope(10, 0);
    l.linear_exp_overflow_slope = slope(1, 3);
    l.linear_only_start = 1 << 36;
    l.linear_only_end = (1 << 36) + 256;
    l.linear_only_table = [-1; 257];
    l
}

#[test]
fn le_exponential_table() {
    let o = op(INT16, 3, true, true);
    let x = [4, 6, 12, 3, 0, -2, 1 << 14];
    let y = run(&o, &exp_lut(2), (x.len(), 1, 1), &x, &Hw::NV_FULL, 1).unwrap();
    // 4: log 2 → entry 0, fraction 0 → 0. 6: entry 0 + 1000·2/4 = 500.
    // 12: log 3 → entry 1 + 1000·4/8 = 1500. 3: log 1 < offset → underflow:
    // 0 + (3 − 0 − 2^2)·10 = −10. 0 and −2: underflow, (x − 4)·10.
    // 2^14: log 14 → entry 12 = 12000.
    assert_eq!(y, [0, 500, 1500, -10, -40, -60, 12000]);
    // Negative offset −62: log 2 gives index 64 → overflow from entry 64
    // (clamped to 32767) with (x − end)·1 / 8.
    let y = run(&o, &exp_lut(-62), (1, 1, 1), &[4], &Hw::NV_FULL, 1).unwrap();
    let want = (32767 + ((4 - (1 << 20)) as f64 / 8.0 - 0.5) as i32).clamp(-32768, 32767);
    assert_eq!(y, [want]);
}

#[test]
fn priorities_choose_between_tables() {
    // LE hits (entries 1000·i), LO hits too (quarter LUT): hybrid priority.
    let mut l = quarter_lut();
    for (i, v) in l.linear_exp_table.iter_mut().enumerate() {
        *v = (1000 * i as i32).min(32767) as i16;
    }
    l.method = 0;
    l.linear_exp_start = 0;
    l.linear_exp_offset = 2;
    let o = op(INT16, 3, true, true);
    l.hybrid_priority = 1;
    assert_eq!(run(&o, &l, (1, 1, 1), &[6], &Hw::NV_FULL, 1).unwrap(), [2]);
    l.hybrid_priority = 0;
    assert_eq!(
        run(&o, &l, (1, 1, 1), &[6], &Hw::NV_FULL, 1).unwrap(),
        [500]
    );
    // Both underflow (x = −4): underflow priority; LO: 0 + (−4)·0 = 0, LE: (−4 − 4)·0.
    l.linear_exp_underflow_slope = slope(1, 0);
    l.underflow_priority = 0;
    assert_eq!(
        run(&o, &l, (1, 1, 1), &[-4], &Hw::NV_FULL, 1).unwrap(),
        [-8]
    );
    l.underflow_priority = 1;
    assert_eq!(run(&o, &l, (1, 1, 1), &[-4], &Hw::NV_FULL, 1).unwrap(), [0]);
    // LE underflows, LO hits (x = 3): the hit wins whatever the priorities.
    l.hybrid_priority = 0;
    l.underflow_priority = 0;
    assert_eq!(run(&o, &l, (1, 1, 1), &[3], &Hw::NV_FULL, 1).unwrap(), [1]);
}

#[test]
fn square_sum_windows_and_cube_edges() {
    // Square sums over 3, 5, 7, 9 channels; LUT = RHAZ(sqsum/4), no multiply.
    let c = 6;
    let x: Vec<i32> = (0..c as i32).map(|i| 3 * i - 7).collect();
    for (local, n) in [(3u8, 1i32), (5, 2), (7, 3), (9, 4)] {
        let o = op(INT16, local, false, true);
        let y = run(&o, &quarter_lut(), (1, 1, c), &x, &Hw::NV_FULL, 16).unwrap();
        for ch in 0..16i32 {
            let s: i64 = (ch - n..=ch + n)
                .filter(|&j| (0..c as i32).contains(&j))
                .map(|j| i64::from(x[j as usize]).pow(2))
                .sum();
            let want = if s == 0 { 0 } else { ((s + 2) / 4) as i32 };
            assert_eq!(y[ch as usize], want, "local size {local}, channel {ch}");
        }
    }
}

#[test]
fn converters_and_the_output_multiply() {
    // in: (x − 10)·3 >> 1, out: (v − 100)·1 >> 2; LUT = RHAZ(x/4) on the
    // bypassed square sum d, out = lut·d.
    let mut o = op(INT16, 3, true, false);
    o.in_cvt = CvtParam {
        scale: 3,
        truncate: 1,
        enable: 1,
        offset: 10,
    };
    o.out_cvt = CvtParam {
        scale: 1,
        truncate: 2,
        enable: 1,
        offset: 100,
    };
    let x = [30, 11, 1000];
    let y = run(&o, &quarter_lut(), (3, 1, 1), &x, &Hw::NV_FULL, 1).unwrap();
    let rhaz = |v: i64, s: u32| {
        let h = 1i64 << (s - 1);
        if v >= 0 {
            (v + h) >> s
        } else {
            -((-v + h) >> s)
        }
    };
    let want: Vec<i32> = x
        .iter()
        .map(|&v| {
            let d = rhaz((i64::from(v) - 10) * 3, 1);
            let l = if d <= 0 { 0 } else { rhaz(d, 2) };
            rhaz(l * d - 100, 2).clamp(-32768, 32767) as i32
        })
        .collect();
    assert_eq!(y, want);
}

#[test]
fn int8_on_nv_small() {
    // INT8, 8 channels per atom, 12 channels: sums over 3 channels, d is
    // 9 bits (x − offset with offset −128 reaches 255), output saturates to 8 bits.
    let c = 12;
    let x: Vec<i32> = (0..c as i32).map(|i| 10 * i - 60).collect();
    let o = op(INT8, 3, false, true);
    let y = run(&o, &quarter_lut(), (1, 1, c), &x, &Hw::NV_SMALL, 16).unwrap();
    for ch in 0..16i32 {
        let s: i64 = (ch - 1..=ch + 1)
            .filter(|&j| (0..c as i32).contains(&j))
            .map(|j| i64::from(x[j as usize]).pow(2))
            .sum();
        let want = if s == 0 {
            0
        } else {
            ((s + 2) / 4).min(127) as i32
        };
        assert_eq!(y[ch as usize], want, "channel {ch}");
    }
    // The input offset shifts the data and fills the channels outside the cube:
    // x − (−128) for x = 127 is 255 (fits the 9-bit converter output).
    let mut o = op(INT8, 3, true, true);
    o.in_cvt.offset = -128;
    let y = run(&o, &quarter_lut(), (1, 1, 1), &[127], &Hw::NV_SMALL, 8).unwrap();
    // Centre 255 → RHAZ(255/4) = 64 → saturated to 8 bits: 64. Padded
    // channels hold the fill value −128 → d = 0 → LUT underflow → 0.
    assert_eq!(y, [64, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn bad_descriptors_are_errors() {
    let hw = Hw::NV_FULL;
    let mut o = op(INT16, 3, false, false);
    o.out_precision = INT8;
    assert!(matches!(
        run(&o, &quarter_lut(), (1, 1, 1), &[1], &hw, 1),
        Err(Error::Rejected(_))
    ));
    let mut o = op(INT16, 3, false, false);
    o.lut_index = 3;
    assert!(run(&o, &quarter_lut(), (1, 1, 1), &[1], &hw, 1).is_err());
    let mut l = quarter_lut();
    l.method = 5;
    assert!(run(&op(INT16, 3, false, false), &l, (1, 1, 1), &[1], &hw, 1).is_err());
}

fn h(x: f32) -> i32 {
    i32::from(half::f16::from_f32(x).to_bits() as i16)
}

fn f(bits: i32) -> f32 {
    half::f16::from_bits(bits as u16).to_f32()
}

/// FP16 LUT: LO entries i (as fp16), start 0.0, end 256.0 (fp32 bits),
/// one unit per entry; LE exponential with entries i, offset 0; hybrid
/// priority selects `lo_first`.
fn fp16_lut(lo_first: bool) -> LutParam {
    let mut l = LutParam::default();
    for (i, v) in l.linear_only_table.iter_mut().enumerate() {
        *v = h(i as f32) as i16;
    }
    for (i, v) in l.linear_exp_table.iter_mut().enumerate() {
        *v = h(i as f32) as i16;
    }
    l.linear_only_start = 0;
    l.linear_only_end = u64::from(256f32.to_bits());
    l.linear_exp_start = 0;
    l.linear_exp_end = u64::from(2f32.powi(64).to_bits());
    l.method = 0;
    l.hybrid_priority = u8::from(lo_first);
    l.underflow_priority = 1;
    l.overflow_priority = 1;
    l.linear_only_underflow_slope = slope(h(0.5) as i16, 0);
    l.linear_only_overflow_slope = slope(h(2.0) as i16, 0);
    l
}

#[test]
fn fp16_lut_tables() {
    let o = op(FP16, 3, true, true);
    // LO linear: 2.5 → entry 2 + (3 − 2)·0.5; 100.25 → 100.25.
    // LE index offset −60 makes every LE lookup from 2^4 on overflow (a
    // hit in either table beats an overflow in the other).
    let mut l = fp16_lut(true);
    l.linear_exp_offset = u16::from(-60i8 as u8);
    let x = [h(2.5), h(100.25), h(0.0), h(-4.0), h(300.0)];
    let y = run(&o, &l, (5, 1, 1), &x, &Hw::NV_FULL, 1).unwrap();
    let y: Vec<f32> = y.iter().map(|&v| f(v)).collect();
    // 0 and −4 underflow: entry 0 + (x − 0)·0.5; 300 overflows:
    // entry 256 + (300 − 256)·2 = 344.
    assert_eq!(y, [2.5, 100.25, 0.0, -2.0, 344.0]);
    // LE exponential: 6 = 2^2 · 1.5 → entry 2 + 0.5; 1.0 → entry 0.
    let y = run(
        &o,
        &fp16_lut(false),
        (2, 1, 1),
        &[h(6.0), h(1.0)],
        &Hw::NV_FULL,
        1,
    )
    .unwrap();
    assert_eq!([f(y[0]), f(y[1])], [2.5, 0.0]);
}

#[test]
fn fp16_lrn_multiplies_the_centre() {
    // Square sum over 3 channels 1, 2, 3 at channel 1: 14 → LUT 14 → · 2 = 28.
    // Channel 0: 1 + 4 = 5 → 5 · 1; channel 2: 4 + 9 = 13 → 13 · 3 = 39.
    let o = op(FP16, 3, false, false);
    let x = [h(1.0), h(2.0), h(3.0)];
    let y = run(&o, &fp16_lut(true), (1, 1, 3), &x, &Hw::NV_FULL, 3).unwrap();
    assert_eq!([f(y[0]), f(y[1]), f(y[2])], [5.0, 28.0, 39.0]);
}

/// Runs the CDP op of golden test `name` alone and compares the
/// destination, read with the 2018 DIMG writer's addressing (x16 for INT16,
/// x32 for INT8 even on nv_small), with the golden payload.
fn golden(name: &str, dir: &str, hw: &Hw) {
    let root = format!(
        "{}/../../test/data/nvdla-golden",
        env!("CARGO_MANIFEST_DIR")
    );
    let l = Loadable::read(&std::fs::read(format!("{root}/{name}_fbuf")).unwrap()).unwrap();
    let dimg = std::fs::read(format!("{root}/golden/{dir}/dla/o_000000.dimg")).unwrap();
    let word = |i: usize| u32::from_le_bytes(dimg[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    let (format, ls, ss) = (word(0), u64::from(word(4)), u64::from(word(5)));
    let (x, bpe) = if format == 40 { (32, 1) } else { (16, 2) };
    let abi = detect_abi(&l).abi;
    let mut mem = Memory::load(&l).unwrap();
    let mut checked = 0;
    for (t, task) in l.task_list.iter().enumerate() {
        let TaskDescs::Dla(d) = task_descs(&l, task, abi) else {
            continue;
        };
        let (ops, surfs) = (d.ops.value.unwrap(), d.surfaces.value.unwrap());
        let luts = d.luts.value.unwrap();
        for (i, (o, s)) in ops.iter().zip(&surfs).enumerate() {
            let (OpDesc::Cdp(o), SurfaceDesc::Cdp(s)) = (&o.desc, &s.desc) else {
                continue;
            };
            let at = At {
                task: t,
                op: Some(i),
                engine: "CDP",
            };
            let mut ctx = OpCtx {
                mem: mem.task(&task.address_list, at),
                luts: &luts,
                hw,
            };
            cdp::run(o, s, &mut ctx).unwrap();
            let dst = &s.dst_data;
            let view = mem.task(&task.address_list, At::default());
            let mut got = Vec::new();
            for c in 0..usize::from(dst.channel) {
                for y in 0..u64::from(dst.height) {
                    for xi in 0..u64::from(dst.width) {
                        let off = (c / x) as u64 * ss
                            + y * ls
                            + xi * (x * bpe) as u64
                            + ((c % x) * bpe) as u64;
                        got.extend_from_slice(view.read("dst", dst.address, off, bpe).unwrap());
                    }
                }
            }
            assert_eq!(got, &dimg[36..], "{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 1, "{name}");
}

#[test]
fn golden_cdp_l0_0() {
    golden("CDP_L0_0", "CDP_L0_0_66cb25", &Hw::NV_FULL);
}

#[test]
fn golden_cdp_l0_0_small() {
    golden("CDP_L0_0_small", "CDP_L0_0_small_4531af", &Hw::NV_SMALL);
}
