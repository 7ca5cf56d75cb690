//! ONNC's single-layer NVDLA anchors: every model runs through the reference
//! interpreter on its PGM input and must match the `.dimg` that
//! nvdla_runtime dumped on the nv_full virtual platform (FP16), at
//! [`FP16_RTOL`] / [`FP16_ATOL`].
//!
//! Also checks that the anchors pin the facts down: the other candidate dump
//! orders (feature-cube memory order) and pixel mappings (`p / 255`) are
//! each refuted by at least one anchor.

use onnc_interp::{compare, Tolerance};
use onnc_nvdla_dimg::{dimg_to_nchw, load_dimg, DumpOrder, Pgm, PixelMap, FP16_ATOL, FP16_RTOL};
use onnc_tensor::Tensor;
use std::path::{Path, PathBuf};

/// Every anchor, `<Op>/<id>_<Op>`. Listed so that none can go missing
/// unnoticed. `Concat/5436_Concat` is really a GlobalAveragePool model
/// (misnamed upstream).
const CASES: &[&str] = &[
    "Add/4983_Add",
    "Add/4984_Add",
    "Add/4991_Add",
    "AveragePool/5116_AveragePool",
    "AveragePool/5120_AveragePool",
    "AveragePool/5128_AveragePool",
    "BatchNormalization/5226_BatchNormalization",
    "BatchNormalization/5236_BatchNormalization",
    "BatchNormalization/5247_BatchNormalization",
    "Concat/5328_Concat",
    "Concat/5330_Concat",
    "Concat/5436_Concat",
    "Conv/4781_Conv",
    "Conv/4783_Conv",
    "Conv/4791_Conv",
    "Gemm/5384_Gemm",
    "Gemm/5385_Gemm",
    "Gemm/5386_Gemm",
    "GlobalAveragePool/5415_GlobalAveragePool",
    "GlobalAveragePool/5420_GlobalAveragePool",
    "GlobalAveragePool/5423_GlobalAveragePool",
    "LRN/5439_LRN",
    "LRN/5442_LRN",
    "LRN/5452_LRN",
    "MaxPool/5488_MaxPool",
    "MaxPool/5492_MaxPool",
    "MaxPool/5500_MaxPool",
    "Mul/5599_Mul",
    "Mul/5600_Mul",
    "Mul/5606_Mul",
    "Relu/5731_Relu",
    "Relu/5737_Relu",
    "Relu/5742_Relu",
    "Reshape/5805_Reshape",
    "Reshape/5811_Reshape",
    "Reshape/5816_Reshape",
    "Softmax/5834_Softmax",
    "Softmax/5835_Softmax",
    "Softmax/5841_Softmax",
    "Transpose/5917_Transpose",
    "Transpose/5922_Transpose",
    "Transpose/5952_Transpose",
    "Unsqueeze/5967_Unsqueeze",
    "Unsqueeze/5970_Unsqueeze",
];

const TOL: Tolerance = Tolerance {
    rtol: FP16_RTOL,
    atol: FP16_ATOL,
};

fn anchors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/data/onnc-single-layer")
}

/// `<Op>/<stem>` of every `.onnx` under the anchor folder, sorted.
fn discovered() -> Vec<String> {
    let mut found = Vec::new();
    let dirs = std::fs::read_dir(anchors()).expect("anchor folder (test/data/onnc-single-layer)");
    for dir in dirs
        .map(|d| d.expect("dir entry").path())
        .filter(|p| p.is_dir())
    {
        let op = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        for file in std::fs::read_dir(&dir)
            .expect("op folder")
            .map(|f| f.expect("entry").path())
        {
            if file.extension().is_some_and(|e| e == "onnx") {
                let stem = file
                    .file_stem()
                    .expect("stem")
                    .to_string_lossy()
                    .into_owned();
                found.push(format!("{op}/{stem}"));
            }
        }
    }
    found.sort();
    found
}

/// One anchor's files, loaded: the image, the model graph and the dump.
struct Run {
    pgm: Pgm,
    graph: onnc_onnx::Graph,
    dimg: Vec<f32>,
}

impl Run {
    fn load(case: &str) -> Run {
        let base = anchors().join(case);
        let model = onnc_onnx::load(base.with_extension("onnx"), &onnc_onnx::Options::default())
            .unwrap_or_else(|e| panic!("{case}: load: {e}"));
        let pgm = Pgm::load(&base.with_extension("pgm")).unwrap_or_else(|e| panic!("{case}: {e}"));
        let dimg =
            load_dimg(&base.with_extension("dimg")).unwrap_or_else(|e| panic!("{case}: {e}"));
        Run {
            pgm,
            graph: model.graph,
            dimg,
        }
    }

    /// The interpreter's (only) output for the PGM mapped by `map`.
    fn interp(&self, case: &str, map: PixelMap) -> Tensor {
        let input = &self.graph.inputs[0];
        assert_eq!(input.name, "IMAGE", "{case}: input name");
        let shape: Vec<usize> = input.dims.iter().filter_map(|d| d.fixed()).collect();
        assert_eq!(
            shape,
            [1, 1, self.pgm.height, self.pgm.width],
            "{case}: IMAGE shape vs PGM"
        );
        let feed = self.pgm.to_tensor(map).expect("input tensor");
        let mut outs = onnc_interp::run_graph(&self.graph, &[("IMAGE".into(), feed)])
            .unwrap_or_else(|e| panic!("{case}: interp: {e}"));
        assert_eq!(outs.len(), 1, "{case}: one output");
        outs.remove(0).1
    }

    /// Whether the interpreter (input mapped by `map`) matches the dump read
    /// in `order`.
    fn matches(&self, case: &str, map: PixelMap, order: DumpOrder) -> bool {
        let actual = self.interp(case, map);
        let expected = dimg_to_nchw(&self.dimg, actual.shape(), order)
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        TOL.check(&expected, &actual).is_ok()
    }
}

#[test]
fn every_anchor_is_listed() {
    let mut listed: Vec<String> = CASES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(discovered(), listed);
}

#[test]
fn interpreter_matches_every_nvdla_dump() {
    let mut failures = Vec::new();
    println!(
        "{:<45} {:>18} {:>11} {:>11}",
        "case", "output", "max_abs", "max_rel"
    );
    for case in CASES {
        let run = Run::load(case);
        let actual = run.interp(case, PixelMap::NVDLA_RUNTIME);
        let expected = dimg_to_nchw(&run.dimg, actual.shape(), DumpOrder::Chw)
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        let d = compare(&expected, &actual);
        println!(
            "{case:<45} {:>18} {:>11.3e} {:>11.3e}",
            format!("{:?}", actual.shape()),
            d.max_abs,
            d.max_rel
        );
        if let Err(m) = TOL.check(&expected, &actual) {
            failures.push(format!("{case}: {m}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} anchors fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The feature-cube memory order (16 FP16 channels per 32-byte atom, and
/// the int8 / nv_small groupings 32 and 8) is refuted: some anchors only
/// match in channel-major order.
#[test]
fn feature_cube_order_is_refuted() {
    let runs: Vec<(&str, Run)> = CASES.iter().map(|c| (*c, Run::load(c))).collect();
    for atom_channels in [8, 16, 32] {
        let order = DumpOrder::FeatureCube { atom_channels };
        let refuting: Vec<&str> = runs
            .iter()
            .filter(|(case, run)| !run.matches(case, PixelMap::NVDLA_RUNTIME, order))
            .map(|(case, _)| *case)
            .collect();
        println!(
            "{order:?} refuted by {} anchors: {refuting:?}",
            refuting.len()
        );
        assert!(
            refuting.len() >= 10,
            "{order:?} should be refuted widely, only {refuting:?}"
        );
    }
}

/// All anchor images are constant 1. Scaling to `[0, 1]` (`p / 255`) is
/// refuted by every anchor whose output is not scale-invariant: all but
/// Softmax/5841 (a softmax over one element, always 1).
#[test]
fn normalised_pixels_are_refuted() {
    let scaled = PixelMap {
        mean: 0.0,
        divisor: 255.0,
    };
    let matching: Vec<&str> = CASES
        .iter()
        .filter(|case| Run::load(case).matches(case, scaled, DumpOrder::Chw))
        .copied()
        .collect();
    assert_eq!(matching, ["Softmax/5841_Softmax"]);
}

/// Within a channel the dump is row-major (`h` outer, `w` inner): reading
/// it column-major (`C×W×H`) is refuted by the anchors whose output varies
/// along both `h` and `w` — and only those can tell; the rest are
/// symmetric under that swap.
#[test]
fn column_major_within_a_channel_is_refuted() {
    let mut refuting = Vec::new();
    for case in CASES {
        let run = Run::load(case);
        let actual = run.interp(case, PixelMap::NVDLA_RUNTIME);
        let s = actual.shape();
        if s.len() != 4 {
            continue;
        }
        let (c, h, w) = (s[1], s[2], s[3]);
        // Dump index (ch, x, y) ↦ NCHW (ch, y, x).
        let mut values = vec![0.0f32; run.dimg.len()];
        for (i, &v) in run.dimg.iter().enumerate() {
            let (ch, x, y) = (i / (w * h), (i / h) % w, i % h);
            values[(ch * h + y) * w + x] = v;
        }
        assert_eq!(values.len(), c * h * w, "{case}");
        let expected = Tensor::from_f32(s.to_vec(), values).expect("tensor");
        if TOL.check(&expected, &actual).is_err() {
            refuting.push(*case);
        }
    }
    assert_eq!(
        refuting,
        [
            "Reshape/5805_Reshape",
            "Unsqueeze/5967_Unsqueeze",
            "Unsqueeze/5970_Unsqueeze"
        ]
    );
}
