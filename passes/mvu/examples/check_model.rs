//! Compiles a real ONNX model for the MVU and checks the functional model of
//! the emitted jobs against `onnc-interp` on the same integer network.
//!
//! In: `check_model [--legalize] MODEL.onnx BITS [SEED [QUANT_MSB | calib]]`
//! (`--legalize`: run `onnc-legalize{target=mvu}` on the loaded graph first,
//! as `onnc compile --target mvu` does, so BatchNormalizations, channel
//! Slices and shuffles are in reach; the reference is the legalized graph;
//! `QUANT_MSB`:
//! the quantizer MSB of every layer, as `--quant-msb`; default `BITS − 1`;
//! `calib`: each layer's MSB calibrated on one input of seed `SEED + 100`;
//! `calib=CODES.npy`: calibrated on those input codes, an f32 `.npy`). The model's Conv/Gemm biases are
//! kept: the program adds them through the MVU's bias RAM, in accumulator
//! units, and the functional model and the reference graph add the same
//! integers.
//! Out: one line with the pieces, the output size, whether the two agree
//! exactly (and how many are one LSB below) and how long each step took;
//! with windowed splits, a line per split layer comparing its pieces with the
//! layer run whole on the same input;
//! exit 1 when they differ without a windowed split, or a step fails (with
//! the reason).
//!
//! Used for the full-size measurements in docs/targets/mvu.md (torchvision
//! AlexNet and VGG-16 exported by tools/support_table.py); run it in release:
//! `cargo run --release -p onnc-mvu --example check_model -- alexnet.onnx 2`.

use std::process::ExitCode;
use std::time::Instant;

use onnc_mvu::frontend::{
    accumulator_bias, check_splits, compile, random_codes, reference_codes, simulate,
    CompileOptions, PieceKind,
};

#[path = "common/cli.rs"]
mod cli;
#[path = "common/npy.rs"]
mod npy;
use npy::npy_f32;

fn run(args: &[String]) -> Result<String, String> {
    let (legalize, args) = match args {
        [flag, rest @ ..] if flag == "--legalize" => (true, rest),
        _ => (false, args),
    };
    let [path, bits, rest @ ..] = args else {
        return Err(
            "usage: check_model [--legalize] MODEL.onnx BITS [SEED [QUANT_MSB | calib | calib=CODES.npy]]"
                .into(),
        );
    };
    let bits: u32 = bits.parse().map_err(|e| format!("BITS '{bits}': {e}"))?;
    let seed: u64 = match rest.first() {
        Some(s) => s.parse().map_err(|e| format!("SEED '{s}': {e}"))?,
        None => 1,
    };
    let calib_file = rest.get(1).and_then(|s| s.strip_prefix("calib="));
    let calib = rest.get(1).is_some_and(|s| s == "calib") || calib_file.is_some();
    let quant_msb: Option<u32> = match rest.get(1) {
        Some(s) if !calib => Some(s.parse().map_err(|e| format!("QUANT_MSB '{s}': {e}"))?),
        _ => None,
    };
    let t = Instant::now();
    let g = onnc_onnx::load(path, &onnc_onnx::Options::default())
        .map_err(|e| format!("{path}: {e}"))?
        .graph;
    let g = if legalize {
        let o = onnc_legalize::Options::default();
        onnc_legalize::legalize(g, onnc_legalize::Target::Mvu, &o)
            .map_err(|e| format!("{path}: {e}"))?
            .graph
    } else {
        g
    };
    let load_s = t.elapsed().as_secs_f64();
    let shape = g.inputs[0]
        .type_info()
        .static_shape()
        .ok_or("the input has no static shape")?;
    let n: usize = shape.iter().product();
    let calibration = if let Some(f) = calib_file {
        vec![npy_f32(f)?.into_iter().map(|v| v as i64).collect()]
    } else if calib {
        vec![random_codes(n, bits, seed + 100)
            .into_iter()
            .map(|v| v as i64)
            .collect()]
    } else {
        Vec::new()
    };
    let o = CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        test_vectors: false,
        quant_msb,
        calibration,
        ..CompileOptions::default()
    };
    let t = Instant::now();
    let c = compile(&g, &o).map_err(|e| format!("{path} at {bits} bits: {e}"))?;
    let compile_s = t.elapsed().as_secs_f64();
    let x = random_codes(n, bits, seed);
    let t = Instant::now();
    let mvu = simulate(&c, &x).map_err(|e| format!("functional model: {e}"))?;
    let sim_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let want = reference_codes(&g, &c, &x)?;
    let interp_s = t.elapsed().as_secs_f64();
    let differ =
        mvu.iter().zip(&want).filter(|(a, b)| a != b).count() + mvu.len().abs_diff(want.len());
    let nonzero = mvu.iter().filter(|&&v| v != 0).count();
    // Layers split with windowed partials (each within one output LSB of the
    // unsplit layer; later layers carry such differences on, so the network's
    // outputs are compared but not required to be equal).
    let windowed = c
        .pieces()
        .iter()
        .filter(|ps| {
            ps.iter()
                .any(|p| p.kind == PieceKind::Partial && p.layer.quant_msb > Some(15))
        })
        .count();
    let below = mvu
        .iter()
        .zip(&want)
        .filter(|(a, b)| (**a + 1) % (1 << bits) == **b)
        .count();
    // Per split layer: its pieces against the layer run whole on the same input.
    let mut per_layer = String::new();
    if windowed > 0 {
        for k in check_splits(&c, &x).map_err(|e| format!("functional model: {e}"))? {
            per_layer += &format!(
                "\n  {}: {} equal, {} one LSB below, {} other",
                k.node, k.equal, k.below, k.other
            );
        }
    }
    // Layers adding a bias through the bias RAM, and its largest |c|.
    let biases: Vec<Vec<i64>> = c.lowered().iter().filter_map(accumulator_bias).collect();
    let c_max = biases.iter().flatten().map(|v| v.abs()).max().unwrap_or(0);
    let line = format!(
        "{path} at {bits} bits: {} layers with a bias (max |c| {c_max} accumulator units), ",
        biases.len()
    ) + &format!(
        "{} pieces, {windowed} layers with windowed partials, {} outputs \
         ({nonzero} nonzero), {differ} differ ({below} by one LSB below); \
         load {load_s:.1}s, compile {compile_s:.1}s, model {sim_s:.1}s, interpreter {interp_s:.1}s",
        c.table().rows.len(),
        mvu.len()
    ) + &per_layer;
    if differ == 0 || windowed > 0 {
        Ok(line)
    } else {
        Err(line)
    }
}

fn main() -> ExitCode {
    cli::main_with(run)
}
