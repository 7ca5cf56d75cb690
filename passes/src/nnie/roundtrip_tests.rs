//! The `nnie` level read back: write → read → write gives the same text and
//! the same package, on the NNIE fixtures (passes/nnie/tests/data); bad
//! text is refused at the op.

use super::{from_ir::module_from_func, to_ir::build_func};
use crate::pipeline::NnieModule;
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    Location, Module,
};
use onnc_dialects::ir;
use onnc_nnie::frontend::{compile, CalibSource, CompileOptions, Compiled};
use onnc_nnie::Quality;

fn data(rel: &str) -> String {
    format!("{}/nnie/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn compiled(model: &str, calib: CalibSource) -> NnieModule {
    let g = onnc_onnx::load(data(model), &Default::default())
        .unwrap()
        .graph;
    NnieModule::new(compile(&g, &CompileOptions::new(calib)).unwrap())
}

/// `m` as MLIR text, resources in full.
fn text(context: &melior::Context, m: &NnieModule) -> String {
    let module = Module::new(Location::unknown(context));
    module.body().append_operation(
        build_func(context, m, "main_graph", &crate::blobs::Blobs::new()).unwrap(),
    );
    ir::print_op(&module.as_operation(), &Default::default())
}

/// `text` read back; Err: the reader's messages.
fn read(context: &melior::Context, text: &str) -> Result<NnieModule, Vec<String>> {
    let capture = ir::DiagnosticCapture::attach(context);
    let Some(module) = ir::parse_module_bytes(context, text.as_bytes(), "t.mlir") else {
        return Err(capture.take().iter().map(|d| d.to_string()).collect());
    };
    let op = module.as_operation();
    let func = crate::onnx::functions::main_function(&op).unwrap();
    module_from_func(&func).map_err(|e| e.into_iter().map(|(_, m)| m).collect())
}

/// Every `nnie.*` op of `text` carries exactly the attributes the dialect
/// declares for it (besides the segment sizes of concat and split): what
/// the writer writes is what IRDL and the reader require.
fn assert_declared_attributes(text: &str) {
    let context = ir::new_context().unwrap();
    let module = ir::parse_module(&context, text, "t.mlir").expect("parses");
    let mut seen = 0;
    module.as_operation().walk(WalkOrder::PreOrder, |o| {
        let name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
        if let Some(op) = name.strip_prefix("nnie.") {
            let mut written: Vec<String> = o
                .attributes()
                .map(|(k, _)| k.as_string_ref().as_str().unwrap_or("").to_string())
                .filter(|k| !k.ends_with("SegmentSizes"))
                .collect();
            let mut declared = super::from_ir::required_attributes(op).unwrap().to_vec();
            written.sort();
            declared.sort();
            assert_eq!(written, declared, "{name}");
            seen += 1;
        }
        WalkResult::Advance
    });
    assert!(seen > 0, "{text}");
}

/// Writes `m`, reads it back and writes it again, each in a fresh context
/// (MLIR numbers resource names taken twice in one context).
fn round_trip(m: &NnieModule) -> String {
    let first = text(&ir::new_context().unwrap(), m);
    assert_declared_attributes(&first);
    let back = read(&ir::new_context().unwrap(), &first).unwrap();
    assert_eq!(back.compiled.package(), m.compiled.package());
    assert_eq!(back.compiled.report(), m.compiled.report());
    assert_eq!(back.compiled.warnings(), m.compiled.warnings());
    assert_eq!(back.compiled.layers().len(), m.compiled.layers().len());
    assert_eq!(text(&ir::new_context().unwrap(), &back), first);
    first
}

#[test]
fn calibrated_cnn_round_trips() {
    let m = compiled(
        "nnie_cnn.onnx",
        CalibSource::TestData(data("nnie_cnn_calib").into()),
    );
    let t = round_trip(&m);
    assert!(
        t.contains("nnie.files = [{bytes = dense_resource<file_calibration_data_"),
        "{t}"
    );
    assert!(t.contains("tops = ["), "{t}");
}

#[test]
fn split_and_depthwise_deconv_round_trip() {
    let calib = || CalibSource::TestData(data("nnie_cnn_calib").into());
    round_trip(&compiled("nnie_slice.onnx", calib()));
    let up3 = compiled("nnie_upsample3.onnx", calib());
    assert!(!up3.compiled.warnings().is_empty());
    round_trip(&up3);
}

#[test]
fn mqbench_table_round_trips() {
    let m = compiled(
        "nnie_cnn.onnx",
        CalibSource::TestData(data("nnie_cnn_calib").into()),
    );
    let (_, table) = m
        .compiled
        .package()
        .files()
        .iter()
        .find(|(n, _)| n.ends_with("_gfpq_param_dict.json"))
        .unwrap();
    let path = std::env::temp_dir().join(format!("nnie-rt-{}.json", std::process::id()));
    std::fs::write(&path, table).unwrap();
    let mq = compiled("nnie_cnn.onnx", CalibSource::Mqbench(path.clone()));
    std::fs::remove_file(&path).unwrap();
    let t = round_trip(&mq);
    assert!(t.contains("calibration_images/REPLACE_ME.jpg"), "{t}");
    assert!(t.contains("nnie.warnings"), "{t}");
}

#[test]
fn bad_text_is_refused_with_the_reason() {
    let m = compiled(
        "nnie_cnn.onnx",
        CalibSource::TestData(data("nnie_cnn_calib").into()),
    );
    let context = ir::new_context().unwrap();
    let good = text(&context, &m);
    let cases = [
        (
            good.replacen(
                "input_z = array<i64: -127>",
                "input_z = array<i64: -126>",
                1,
            ),
            "does not match its z",
        ),
        (
            good.replacen("tops = [\"c1\"]", "top = \"c1\"", 1),
            "attribute \"tops\" is expected but not provided",
        ),
        (
            good.replacen("layer_name = \"conv1\", ", "", 1),
            "layer_name",
        ),
        (
            good.replacen("weight_clip = ", "weight_clip = 1.0e0 : f32, x = ", 1),
            "weight_clip = 1 does not match its z",
        ),
        (
            good.replacen("nnie.package", "nnie.pkg", 1),
            "not at the nnie level",
        ),
        (
            good.replacen("nnie.package", "nnie.warning = [\"w\"], nnie.package", 1),
            "unknown attribute 'nnie.warning'",
        ),
        (
            good.replacen(
                "nnie.package = {",
                "nnie.package = {channel_mean = 1 : i64, ",
                1,
            ),
            "'nnie.package' has an unknown key 'channel_mean'",
        ),
    ];
    for (bad, why) in cases {
        assert_ne!(bad, good, "{why}: the edit applies");
        let e = read(&ir::new_context().unwrap(), &bad)
            .err()
            .unwrap_or_else(|| panic!("{why}: accepted"));
        assert!(e.iter().any(|m| m.contains(why)), "{why}: {e:?}");
    }
}

/// A quality report with NaN and ±infinity (a metric of a network whose
/// float output overflows) survives write → parse → read bit for bit, and
/// the package written from the text carries the same report.
#[test]
fn non_finite_metrics_round_trip_through_the_level() {
    let m = compiled(
        "nnie_cnn.onnx",
        CalibSource::TestData(data("nnie_cnn_calib").into()),
    );
    let c = &m.compiled;
    let mut report = c.report().clone();
    let odd = Quality {
        elements: 7,
        cosine: f64::NAN,
        max_abs_err: f64::INFINITY,
        max_rel_err: f64::NEG_INFINITY,
        rmse: -f64::NAN,
    };
    report.set_output("y", odd);
    report.push("conv1", odd);
    let compiled = Compiled::from_level(
        c.graph().clone(),
        c.layers().to_vec(),
        c.package_inputs().clone(),
        report,
        c.warnings().to_vec(),
    )
    .unwrap();
    let m = NnieModule {
        compiled,
        types: m.types.clone(),
    };
    let t = text(&ir::new_context().unwrap(), &m);
    let back = read(&ir::new_context().unwrap(), &t).unwrap();
    let bits = |q: &Quality| {
        (
            q.elements,
            [q.cosine, q.max_abs_err, q.max_rel_err, q.rmse].map(f64::to_bits),
        )
    };
    let (want, got) = (m.compiled.report(), back.compiled.report());
    assert_eq!(bits(&got.outputs["y"]), bits(&odd));
    assert_eq!(got.outputs.len(), want.outputs.len());
    assert_eq!(got.layers.len(), want.layers.len());
    for (g, w) in got.layers.iter().zip(&want.layers) {
        assert_eq!((&g.name, bits(&g.quality)), (&w.name, bits(&w.quality)));
    }
    assert_eq!(text(&ir::new_context().unwrap(), &back), t);
}
