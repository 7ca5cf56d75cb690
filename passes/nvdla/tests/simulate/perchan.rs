//! Per-output-channel INT8 weight scales against per-tensor ones, measured
//! through the simulator.
//!
//! In: convolutions and a fully connected layer whose output channels have
//! very different weight magnitudes (kernel `k` scaled by `2^(−k/2)`, so
//! the smallest is 1/181 of the largest), each followed by a per-channel
//! `Mul` by the inverse (an unfolded batch-norm scale: the outputs have
//! similar magnitudes, as after a BN). Out: each case is compiled for
//! nv_small and nv_large twice (per-channel: the default; per-tensor:
//! `ApplyOptions { per_channel: false }`), simulated, and compared with
//! the FP32 reference: the max error over max |ref| and the RMS error over
//! the RMS of the reference. Per-channel must be within 1 % (max) and
//! 2 % (RMS) and at least 10× closer than per-tensor on both measures.

use onnc_legalize::Target;
use onnc_nvdla::ctable::ApplyOptions;
use onnc_nvdla::ConfigName;

use crate::harness::Check;
use crate::int8::run_int8;
use crate::net::Net;

/// `(max |s − r| / max |r|, rms(s − r) / rms(r))` over every output.
fn errors(pairs: &[crate::int8::Pair]) -> (f64, f64) {
    let (mut worst, mut max_ref, mut se, mut sr, mut n) = (0f64, 0f64, 0f64, 0f64, 0usize);
    for (r, s) in pairs {
        for (&a, &b) in r.iter().zip(s) {
            let (a, b) = (f64::from(a), f64::from(b));
            worst = worst.max((a - b).abs());
            max_ref = max_ref.max(a.abs());
            se += (a - b) * (a - b);
            sr += a * a;
            n += 1;
        }
    }
    assert!(n > 0 && max_ref > 0.0);
    (worst / max_ref, (se / sr).sqrt())
}

/// A conv `cin → cout` (kernel `k`) whose kernel `c` is scaled by
/// `2^(−c/2)`, then `Mul` by `2^(c/2)` per channel.
fn spread_conv(name: &str, cin: usize, cout: usize, k: usize, seed: u64) -> Net {
    let mut n = Net::new(name, &[1, cin, 8, 8], seed);
    let fan_in = cin * k * k;
    let s = (3.0 / fan_in as f32).sqrt();
    let mut w = n.rand(cout * fan_in, -s, s);
    for (c, kernel) in w.chunks_mut(fan_in).enumerate() {
        let g = 2f32.powf(-(c as f32) / 2.0);
        kernel.iter_mut().for_each(|v| *v *= g);
    }
    let w = n.constant(&[cout, cin, k, k], w);
    let b = n.init(&[cout], -0.02, 0.02);
    let p = (k / 2) as i64;
    let y = n.op(
        "Conv",
        &["x", &w, &b],
        &[
            ("kernel_shape", crate::net::ints(&[k as i64, k as i64])),
            ("pads", crate::net::ints(&[p, p, p, p])),
        ],
    );
    let inv: Vec<f32> = (0..cout).map(|c| 2f32.powf(c as f32 / 2.0)).collect();
    let inv = n.constant(&[1, cout, 1, 1], inv);
    let y = n.op("Mul", &[&y, &inv], &[]);
    n.output(&y);
    n
}

/// The same spread on a fully connected layer (Gemm, lowered to a conv).
fn spread_fc(name: &str, cin: usize, cout: usize, seed: u64) -> Net {
    let mut n = Net::new(name, &[1, cin], seed);
    let s = (3.0 / cin as f32).sqrt();
    let mut w = n.rand(cout * cin, -s, s);
    for (c, row) in w.chunks_mut(cin).enumerate() {
        let g = 2f32.powf(-(c as f32) / 2.0);
        row.iter_mut().for_each(|v| *v *= g);
    }
    let w = n.constant(&[cout, cin], w);
    let b = n.init(&[cout], -0.02, 0.02);
    let y = n.op(
        "Gemm",
        &["x", &w, &b],
        &[("transB", onnc_tensor::Attr::Int(1))],
    );
    let inv: Vec<f32> = (0..cout).map(|c| 2f32.powf(c as f32 / 2.0)).collect();
    let inv = n.constant(&[1, cout], inv);
    let y = n.op("Mul", &[&y, &inv], &[]);
    n.output(&y);
    n
}

fn on(config: ConfigName) -> Check {
    Check {
        target: match config {
            ConfigName::NvSmall => Target::NvSmall,
            _ => Target::NvLarge,
        },
        config,
        // Per-tensor is expected to be far off: measured, not asserted by
        // the harness.
        tol: 10.0,
        ..Check::full()
    }
}

/// Per-channel and per-tensor errors of `n` on `config`.
fn measure(n: &Net, config: ConfigName) -> [(f64, f64); 2] {
    [true, false].map(|per_channel| {
        let (_, pairs) = run_int8(
            n.g.clone(),
            on(config),
            false,
            &ApplyOptions { per_channel },
        );
        errors(&pairs)
    })
}

#[test]
fn per_channel_weights_are_closer_to_fp32_than_per_tensor() {
    let cases = [
        spread_conv("pc_conv3x3", 16, 16, 3, 71),
        spread_conv("pc_conv1x1", 32, 16, 1, 72),
    ];
    let mut lines = Vec::new();
    for n in &cases {
        for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
            let [(pc_max, pc_rms), (pt_max, pt_rms)] = measure(n, config);
            lines.push(format!(
                "{:<12} {:<8} per-channel max {pc_max:.4} rms {pc_rms:.4} | per-tensor max {pt_max:.4} rms {pt_rms:.4}",
                n.g.name,
                config.as_str()
            ));
            assert!(
                pc_max <= 0.01 && pc_rms <= 0.02,
                "{}: per-channel error max {pc_max} rms {pc_rms}",
                n.g.name
            );
            assert!(
                pt_max >= 10.0 * pc_max && pt_rms >= 10.0 * pc_rms,
                "{}: per-tensor max {pt_max} rms {pt_rms} vs per-channel {pc_max} {pc_rms}",
                n.g.name
            );
        }
    }
    println!("{}", lines.join("\n"));
}

/// A fully connected layer gets per-channel weights too; its `Mul` is a
/// separate SDP (the Gemm's result is reshaped in between), so the FC's
/// own INT8 output, one scale for all channels, bounds both modes: the
/// small channels are lost there. Per-channel must not be worse.
#[test]
fn fully_connected_layers_are_per_channel() {
    let n = spread_fc("pc_fc", 64, 16, 73);
    for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
        let g = crate::harness::through_the_loader(&n.g);
        let inputs = crate::harness::inputs_for(&g, 1);
        let (p, _, _) = crate::int8::compile_int8(&g, &inputs, on(config), false);
        let modes: Vec<&str> = p
            .ops
            .iter()
            .filter_map(|o| o.str("quant.weight_scale_mode"))
            .collect();
        assert_eq!(modes, ["per_channel"], "{config}");
        let [(pc_max, pc_rms), (pt_max, pt_rms)] = measure(&n, config);
        println!(
            "pc_fc {config}: per-channel max {pc_max:.4} rms {pc_rms:.4} | per-tensor max {pt_max:.4} rms {pt_rms:.4}"
        );
        assert!(pc_max <= pt_max * 1.01 && pc_rms <= pt_rms * 1.01);
    }
}
