//! The measured error of the SDP lookup tables: every table
//! (`emit::lut_fp16`) run through the simulator's bit-exact model of the Y
//! unit's LUT (`onnc_nvdla_sim::sdp::lut::fp`) and the FP16 output
//! converter, on every finite FP16 input, against the exact function.
//!
//! In: the seven functions. Out: assertions that the worst error
//! `|y − f(x)| / max(1, |f(x)|)` stays within the bound the docs state
//! (`docs/targets/nvdla.md`); `--nocapture` prints the measurements.

use onnc_nvdla::emit::lut_fn::LutFn;
use onnc_nvdla::emit::lut_fp16::fp16_table;
use onnc_nvdla_sim::num::cvt;
use onnc_nvdla_sim::sdp::lut::{fp, Lut};

/// The worst error of `f`'s table and where it occurs.
fn measure(f: LutFn) -> (f64, f64) {
    let lut = Lut::from_param(&fp16_table(f).param);
    let mut worst = (0.0, 0.0);
    for bits in 0u16..=0xFFFF {
        let h = half::f16::from_bits(bits);
        if !h.is_finite() {
            continue;
        }
        let x = h.to_f32();
        let y = half::f16::from_bits(cvt::fp32_to_fp16(fp(x.to_bits(), &lut))).to_f64();
        let exact = f.value(f64::from(x));
        let e = (y - exact).abs() / exact.abs().max(1.0);
        assert!(e.is_finite(), "{f:?} at {x}: {y} vs {exact}");
        if e > worst.0 {
            worst = (e, f64::from(x));
        }
    }
    worst
}

#[test]
fn every_table_is_within_its_documented_bound() {
    let hard_swish = LutFn::HardSwish {
        alpha: f64::from(1.0f32 / 6.0),
        beta: 0.5,
    };
    let cases = [
        (LutFn::Sigmoid, 8e-4),
        (LutFn::Tanh, 8e-4),
        (LutFn::Swish { alpha: 1.0 }, 1.1e-3),
        (hard_swish, 1.1e-3),
        (LutFn::Softplus, 1.2e-3),
        (LutFn::Mish, 1.2e-3),
        (LutFn::Erf, 8e-4),
    ];
    for (f, bound) in cases {
        let (e, at) = measure(f);
        println!("{:<10} worst {e:.2e} at x = {at}", f.name());
        assert!(e <= bound, "{f:?}: {e:.3e} at x = {at} exceeds {bound:e}");
    }
}

#[test]
fn far_tails_follow_the_asymptotes() {
    let lut = Lut::from_param(&fp16_table(LutFn::Swish { alpha: 1.0 }).param);
    let at = |x: f32| half::f16::from_bits(cvt::fp32_to_fp16(fp(x.to_bits(), &lut))).to_f32();
    // Below the table: its first entry, swish(start) ≈ −1e-5, then slope 0.
    assert!(at(-60000.0).abs() < 2e-5, "{}", at(-60000.0));
    assert_eq!(at(60000.0), 60000.0);
    let lut = Lut::from_param(&fp16_table(LutFn::Tanh).param);
    let at = |x: f32| half::f16::from_bits(cvt::fp32_to_fp16(fp(x.to_bits(), &lut))).to_f32();
    assert_eq!((at(-1000.0), at(1000.0)), (-1.0, 1.0));
}

#[test]
#[ignore = "prints the chosen layouts for docs/targets/nvdla.md"]
fn print_layouts() {
    for n in LutFn::NAMES {
        let f = LutFn::parse(n, 1.0, 0.5).unwrap();
        println!("{n}: {:?}", fp16_table(f).layout);
    }
}

/// LayerNorm's `rsqrt` table (`emit::lut_fp16::rsqrt_layout`), measured as
/// the lowering uses it: the relative error of the lookup on every positive
/// finite FP16 input, and after the two Newton steps
/// `r ← r·(1.5 − 0.5·(x·r)·r)` with every intermediate rounded to FP16 as the
/// SDP writes it (each step one SDP pass over `[N, 1, T, 1]`).
#[test]
fn rsqrt_table_and_its_newton_steps() {
    let lut = Lut::from_param(&fp16_table(LutFn::Rsqrt).param);
    let r16 = |v: f64| half::f16::from_f64(v).to_f64();
    let (mut table, mut refined) = ((0.0f64, 0.0), (0.0f64, 0.0));
    for bits in 1u16..0x7C00 {
        let x = half::f16::from_bits(bits).to_f32();
        let exact = LutFn::Rsqrt.value(f64::from(x));
        let mut r = half::f16::from_bits(cvt::fp32_to_fp16(fp(x.to_bits(), &lut))).to_f64();
        let e = (r - exact).abs() / exact;
        if e > table.0 {
            table = (e, f64::from(x));
        }
        for _ in 0..2 {
            let vr = r16(f64::from(x) * r);
            let g = r16(r16(r16(vr * r) * -0.5) + 1.5);
            r = r16(g * r);
        }
        // LayerNorm's x = var + ε ≥ ε (1e-5 or 1e-6 in the exporters).
        if x < 1e-6 {
            continue;
        }
        let e = (r - exact).abs() / exact;
        if e > refined.0 {
            refined = (e, f64::from(x));
        }
    }
    println!("rsqrt table worst {:.2e} at x = {}", table.0, table.1);
    println!(
        "rsqrt after two Newton steps worst {:.2e} at x = {}",
        refined.0, refined.1
    );
    assert!(table.0 < 0.07, "{table:?}");
    assert!(refined.0 < 2e-3, "{refined:?}");
}
