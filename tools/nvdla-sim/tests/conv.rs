//! Convolution engine on hand-made cubes: known integer results, rounding
//! and saturation of the accumulator, padding / stride / dilation against a
//! naive reference, weight groups and channel cubes, FP16 against exact
//! values and a float reference.

mod common;

use common::*;
use onnc_nvdla_sim::engine::Hw;

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

/// FP16 speed on ResNet-50-sized layers (56×56×64 → 64, 3×3): dense, and
/// grouped (32 groups, as ResNeXt) and depthwise (block-diagonal weights),
/// fast loops (`conv::run`) against the reference loops:
/// `cargo test --release -p onnc-nvdla-sim --test conv -- --ignored --nocapture fp16_speed`.
#[test]
#[ignore]
fn fp16_speed() {
    for groups in [1, 32, 64] {
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
        let (cg, kg) = (p.c / groups, p.k / groups);
        for (i, w) in p.weights.iter_mut().enumerate() {
            let (k, c) = (i / (p.c * 9), i / 9 % p.c);
            if k / kg != c / cg {
                *w = 0;
            }
        }
        let macs = (p.k * p.c * p.r * p.s * 56 * 56) as f64;
        let time = |f: onnc_nvdla_sim::engine::ConvFn| {
            let t = std::time::Instant::now();
            let out = run_with(&p, &Hw::NV_FULL, f);
            (t.elapsed().as_secs_f64(), out)
        };
        let (tr, r) = time(onnc_nvdla_sim::conv::run_reference);
        let (tf, f) = time(onnc_nvdla_sim::conv::run);
        assert_eq!(r, f);
        println!(
            "groups {groups}: {:.0} MMAC (with zeros): reference {tr:.3} s ({:.2} ns/MAC), fast {tf:.3} s, ratio {:.1}",
            macs / 1e6,
            tr * 1e9 / macs,
            tr / tf
        );
    }
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
