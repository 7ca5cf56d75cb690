//! Each method on synthetic distributions with known answers.

mod common;

use common::{vi, Rng};
use onnc_calib::{Method, Statistics};
use onnc_onnx::Graph;

fn stats_of(chunks: &[Vec<f32>]) -> Statistics {
    let g = Graph {
        inputs: vec![vi("x", &[1])],
        ..Graph::default()
    };
    let mut s = Statistics::for_graph(&g);
    for c in chunks {
        s.observe("x", c).unwrap();
    }
    s
}

fn amax(s: &Statistics, m: Method) -> f32 {
    s.calibration(m).threshold("x").unwrap()
}

/// 1 000 000 samples of N(0, 1), in 10 chunks, plus `outliers` at ±40.
fn gaussian_with_outliers(outliers: usize) -> Statistics {
    let mut r = Rng::new(7);
    let mut chunks: Vec<Vec<f32>> = (0..10)
        .map(|_| (0..100_000).map(|_| r.normal() as f32).collect())
        .collect();
    for k in 0..outliers {
        chunks[k % 10].push(if k % 2 == 0 { 40.0 } else { -40.0 });
    }
    stats_of(&chunks)
}

#[test]
fn max_keeps_the_outliers_and_the_others_clip_them() {
    let s = gaussian_with_outliers(10);
    assert_eq!(amax(&s, Method::Max), 40.0);
    // P(|N(0,1)| > 3.89) = 1e-4: the 99.99th percentile of |x|.
    let p = amax(&s, Method::Percentile(99.99));
    assert!((3.6..4.2).contains(&p), "percentile {p}");
    let e = amax(&s, Method::Entropy);
    assert!((2.0..8.0).contains(&e), "entropy {e}");
    // MSE weighs the bulk's rounding noise, 10^6·(a/127)²/12, against the
    // clipped outliers' error, 10·(40 − a)²: the minimum is at
    // a = 800 / (2·10^6/(127²·12) + 20) ≈ 26.4 — a partial clip.
    let m = amax(&s, Method::Mse);
    assert!((24.0..29.0).contains(&m), "mse {m}");
    // With one outlier in 10^6 the same balance gives a ≈ 6.5.
    let one = gaussian_with_outliers(1);
    let m1 = amax(&one, Method::Mse);
    assert!((5.0..8.0).contains(&m1), "mse, one outlier: {m1}");
    eprintln!("gaussian+outliers: max 40, percentile {p}, entropy {e}, mse {m}");
}

#[test]
fn on_a_uniform_distribution_every_method_keeps_nearly_the_whole_range() {
    let mut r = Rng::new(3);
    let chunks: Vec<Vec<f32>> = (0..4)
        .map(|_| {
            (0..250_000)
                .map(|_| (2.0 * r.uniform() - 1.0) as f32)
                .collect()
        })
        .collect();
    let s = stats_of(&chunks);
    let max = amax(&s, Method::Max);
    assert!(max > 0.9999 && max <= 1.0, "{max}");
    let p = amax(&s, Method::Percentile(99.0));
    assert!((p - 0.99).abs() < 2e-3, "percentile 99 {p}");
    for m in [Method::Entropy, Method::Mse, Method::Percentile(99.99)] {
        let t = amax(&s, m);
        assert!(t > 0.95 && t <= max, "{m}: {t}");
    }
}

#[test]
fn thresholds_never_exceed_the_max_and_scales_are_amax_over_127() {
    let s = gaussian_with_outliers(0);
    let max = amax(&s, Method::Max);
    for m in [
        Method::Percentile(100.0),
        Method::Percentile(50.0),
        Method::Entropy,
        Method::Mse,
    ] {
        let c = s.calibration(m);
        let t = c.threshold("x").unwrap();
        assert!(t > 0.0 && t <= max, "{m}: {t} vs {max}");
        assert_eq!(c.scales["x"] * 127.0, t);
        assert_eq!(c.method, m);
    }
    assert_eq!(amax(&s, Method::Percentile(100.0)), max);
    // The median of |N(0,1)| is 0.674.
    let med = amax(&s, Method::Percentile(50.0));
    assert!((med - 0.674).abs() < 0.01, "{med}");
}

#[test]
fn relu_like_data_ignores_the_zero_spike_in_entropy() {
    // Half exact zeros (a ReLU output), half |N(0, 1)|.
    let mut r = Rng::new(11);
    let xs: Vec<f32> = (0..400_000)
        .map(|i| {
            if i % 2 == 0 {
                0.0
            } else {
                r.normal().abs() as f32
            }
        })
        .collect();
    let s = stats_of(&[xs]);
    let e = amax(&s, Method::Entropy);
    assert!((2.0..5.0).contains(&e), "entropy {e}");
}

#[test]
fn all_zero_tensors_get_a_harmless_scale_and_are_listed() {
    let s = stats_of(&[vec![0.0; 100]]);
    for m in [
        Method::Max,
        Method::Entropy,
        Method::Mse,
        Method::Percentile(99.99),
    ] {
        let c = s.calibration(m);
        assert_eq!(c.scales["x"], 1.0 / 127.0);
        assert_eq!(c.all_zero, ["x"]);
    }
}
