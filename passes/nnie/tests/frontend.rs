//! ONNX → NNIE package, end to end on the fixtures of
//! `tests/data/make_nnie_models.py`: a small CNN (Conv, Relu, MaxPool ceil,
//! 2× nearest Resize, Add, Flatten, Gemm) with three calibration sets; a 3×
//! upsample (a depthwise Deconvolution, warned); a 2.5× one
//! (`make_nnie_resize.py`; refused, nothing written); a depthwise Conv (warned).

mod common;
use common::{data, graph};
use std::path::{Path, PathBuf};

use onnc_nnie::caffe::{from_caffemodel, from_prototxt};
use onnc_nnie::frontend::{compile, dialect_attrs, CalibSource, CompileOptions, DialectValue};
use onnc_nnie::{ClipTable, MapperConfig, NnieError};

fn calib() -> CompileOptions {
    CompileOptions::new(CalibSource::TestData(data("nnie_cnn_calib")))
}

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("onnc-nnie-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn text(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn small_cnn_becomes_a_mapper_package() {
    let c = compile(&graph("nnie_cnn.onnx"), &calib()).unwrap();
    assert!(c.warnings().is_empty(), "{:?}", c.warnings());
    let dir = out_dir("cnn");
    let written = c.write_dir(&dir).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| {
            p.strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    assert_eq!(
        names,
        [
            "nnie_cnn.prototxt",
            "nnie_cnn.caffemodel",
            "nnie_cnn.cfg",
            "image_list.txt",
            "nnie_cnn_gfpq_param_dict.json",
            "calibration_data/test_data_set_0/input_0.pb",
            "calibration_data/test_data_set_1/input_0.pb",
            "calibration_data/test_data_set_2/input_0.pb",
            "quant_report.json"
        ]
    );

    // prototxt: the layer list, no weights
    let proto = from_prototxt(&text(&dir, "nnie_cnn.prototxt")).unwrap();
    let layers: Vec<(&str, &str)> = proto
        .layer
        .iter()
        .map(|l| (l.name.as_deref().unwrap(), l.r#type.as_deref().unwrap()))
        .collect();
    assert_eq!(
        layers,
        [
            ("conv1", "Convolution"),
            ("relu1", "ReLU"),
            ("pool1", "Pooling"),
            ("conv2", "Convolution"),
            ("relu2", "ReLU"),
            ("up1", "Upsample"),
            ("add1", "Eltwise"),
            ("conv3", "Convolution"),
            // onnc-legalize prefers Flatten+Gemm as a whole-map Conv + Reshape on NNIE
            ("relu3", "ReLU"),
            ("pool2", "Pooling"),
            ("fc/conv", "Convolution"),
            ("fc", "Reshape"),
        ]
    );
    assert_eq!(proto.input, ["x"]);
    assert_eq!(proto.input_shape[0].dim, [1, 3, 16, 16]);
    assert!(proto.layer.iter().all(|l| l.blobs.is_empty()));
    assert_eq!(proto.layer[6].bottom, ["u2", "r1"]);

    // caffemodel: the weights (clipped to ±c, so equal to ONNX's where |w| ≤ c)
    let model = from_caffemodel(&std::fs::read(dir.join("nnie_cnn.caffemodel")).unwrap()).unwrap();
    let onnx_w = graph("nnie_cnn.onnx")
        .initializer("conv1_w")
        .unwrap()
        .as_f32()
        .unwrap()
        .to_vec();
    let conv1 = &model.layer[0];
    assert_eq!(conv1.blobs.len(), 2);
    assert_eq!(conv1.blobs[0].shape.as_ref().unwrap().dim, [8, 3, 3, 3]);
    let c1 = c.layers()[0].weight_clip.unwrap().value_f32();
    for (a, b) in conv1.blobs[0].data.iter().zip(&onnx_w) {
        assert_eq!(*a, b.clamp(-c1, c1));
    }
    let fc = model
        .layer
        .iter()
        .find(|l| l.name.as_deref() == Some("fc/conv"))
        .unwrap();
    assert_eq!(fc.blobs[0].shape.as_ref().unwrap().dim, [10, 4, 4, 4]);
    assert_eq!(fc.blobs[1].data.len(), 10);

    // cfg names the package's files
    let cfg = MapperConfig::parse(&text(&dir, "nnie_cnn.cfg")).unwrap();
    assert_eq!(cfg.prototxt_file, "nnie_cnn.prototxt");
    assert_eq!(cfg.caffemodel_file, "nnie_cnn.caffemodel");
    assert_eq!(cfg.image_list, "image_list.txt");
    // tensor sets are fed as they are: feature maps, no normalisation
    assert_eq!((cfg.image_type, cfg.norm_type, cfg.data_scale), (0, 0, 1.0));
    // the list names the copies inside the package, relative to it, with the same bytes
    let images = text(&dir, "image_list.txt");
    assert_eq!(images.lines().count(), 3);
    for (k, l) in images.lines().enumerate() {
        assert_eq!(l, format!("calibration_data/test_data_set_{k}/input_0.pb"));
        let original = data("nnie_cnn_calib").join(format!("test_data_set_{k}/input_0.pb"));
        assert_eq!(
            std::fs::read(dir.join(l)).unwrap(),
            std::fs::read(original).unwrap()
        );
    }

    // clip table: MQBench's shape, every clip on the grid, upsample alias
    let json = text(&dir, "nnie_cnn_gfpq_param_dict.json");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let dict = v["nnie"]["gfpq_param_dict"].as_object().unwrap();
    let keys: Vec<&str> = dict.keys().map(String::as_str).collect();
    for k in [
        "conv1",
        "pool1",
        "conv2",
        "up1",
        "up1_permute_0",
        "add1",
        "conv3",
        "pool2",
        "fc/conv",
    ] {
        assert!(keys.contains(&k), "{k} missing from {keys:?}");
    }
    assert!(!keys.contains(&"relu1") && !keys.contains(&"fc"));
    assert_eq!(dict["add1"].as_array().unwrap().len(), 2);
    for (_, clips) in dict {
        for c in clips.as_array().unwrap() {
            let k = 16.0 * c.as_f64().unwrap().log2();
            assert!((k - k.round()).abs() < 1e-9, "{c} is off the grid");
        }
    }
    assert_eq!(
        ClipTable::from_json(&json)
            .unwrap()
            .grid_clips()
            .unwrap()
            .len(),
        dict.len()
    );

    // report: cosine of the simulated quantized network
    let r: serde_json::Value = serde_json::from_str(&text(&dir, "quant_report.json")).unwrap();
    let cos = r["outputs"]["y"]["cosine"].as_f64().unwrap();
    assert!(cos > 0.99 && cos < 1.0, "cosine {cos}");
    assert!(r["outputs"]["y"]["max_abs_err"].as_f64().unwrap() > 0.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gemm_becomes_inner_product_without_legalization() {
    let mut opts = calib();
    opts.legalize = false;
    let c = compile(&graph("nnie_cnn.onnx"), &opts).unwrap();
    let net = from_caffemodel(c.package().file("nnie_cnn.caffemodel").unwrap()).unwrap();
    let tail: Vec<_> = net.layer[10..]
        .iter()
        .map(|l| (l.name.clone().unwrap(), l.r#type.clone().unwrap()))
        .collect();
    assert_eq!(
        tail,
        [
            ("flatten".to_string(), "Reshape".to_string()),
            ("fc".into(), "InnerProduct".into())
        ]
    );
    assert_eq!(
        net.layer[10]
            .reshape_param
            .as_ref()
            .unwrap()
            .shape
            .as_ref()
            .unwrap()
            .dim,
        [0, 64, 1, 1]
    );
    let fc = &net.layer[11];
    assert_eq!(fc.blobs[0].shape.as_ref().unwrap().dim, [10, 64]);
    assert_eq!(fc.blobs[1].data.len(), 10);
    let names: Vec<&str> = dialect_attrs(&c.layers()[11])
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(
        names,
        [
            "layer_name",
            "input_clip",
            "input_z",
            "weight_clip",
            "weight_z"
        ]
    );
    assert!(c.report().outputs["y"].cosine > 0.99);
    // One quality entry per layer, in layer order; the last layer's output is
    // the graph output, so its entry is the output's.
    let names: Vec<&str> = c.report().layers.iter().map(|l| l.name.as_str()).collect();
    let layers: Vec<&str> = c.layers().iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, layers);
    let last = &c.report().layers.last().unwrap().quality;
    assert_eq!(*last, c.report().outputs["y"]);
    assert!(c
        .report()
        .layers
        .iter()
        .all(|l| l.quality.cosine > 0.9 && l.quality.elements > 0));
}

#[test]
fn dialect_attrs_carry_the_grid_clips() {
    let c = compile(&graph("nnie_cnn.onnx"), &calib()).unwrap();
    let conv1 = &c.layers()[0];
    let a = dialect_attrs(conv1);
    let names: Vec<&str> = a.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "layer_name",
            "kernel",
            "stride",
            "pad",
            "dilation",
            "group",
            "input_clip",
            "input_z",
            "weight_clip",
            "weight_z"
        ]
    );
    let (DialectValue::F32Array(clip), DialectValue::I64Array(z)) = (&a[6].1, &a[7].1) else {
        panic!("{a:?}")
    };
    let k = 16.0 * f64::from(clip[0]).log2();
    assert_eq!(z[0], k.round() as i64 - 127);
    // the input is uniform [0, 1): the clip snaps near 1
    assert!(clip[0] > 0.9 && clip[0] <= 1.05, "{clip:?}");
}

#[test]
fn mqbench_table_gives_exactly_its_clips() {
    let g = graph("nnie_cnn.onnx");
    let first = compile(&g, &calib()).unwrap();
    let dir = out_dir("mq");
    first.write_dir(&dir).unwrap();
    let table = dir.join("nnie_cnn_gfpq_param_dict.json");
    let mut opts = CompileOptions::new(CalibSource::Mqbench(table.clone()));
    opts.eval = Some(data("nnie_cnn_calib"));
    let second = compile(&g, &opts).unwrap();
    let clips = |c: &onnc_nnie::frontend::Compiled| -> Vec<(String, Vec<i64>)> {
        c.layers()
            .iter()
            .map(|l| {
                (
                    l.name.clone(),
                    l.input_clips.iter().map(|c| c.index()).collect(),
                )
            })
            .collect()
    };
    assert_eq!(clips(&first), clips(&second));
    let net_files = |c: &onnc_nnie::frontend::Compiled| -> Vec<Vec<u8>> {
        [
            "nnie_cnn.prototxt",
            "nnie_cnn.caffemodel",
            "nnie_cnn_gfpq_param_dict.json",
        ]
        .iter()
        .map(|f| c.package().file(f).unwrap().to_vec())
        .collect()
    };
    assert_eq!(net_files(&first), net_files(&second));
    assert_eq!(first.report(), second.report());
    // no calibration data to copy: a placeholder, and a warning saying so
    assert_eq!(
        second.package().file("image_list.txt").unwrap(),
        b"calibration_images/REPLACE_ME.jpg\n"
    );
    assert!(second
        .warnings()
        .iter()
        .any(|w| w.contains("no calibration images")));

    // keys may be the ONNX output tensor names instead of the node names
    // (fc's output `y` stands for the layer legalization named `fc/conv`)
    let by_tensor = text(&dir, "nnie_cnn_gfpq_param_dict.json")
        .replace("\"conv1\"", "\"c1\"")
        .replace("\"pool1\"", "\"p1\"")
        .replace("\"conv2\"", "\"c2\"")
        .replace("\"up1\"", "\"u2\"")
        .replace("\"up1_permute_0\"", "\"u2_permute_0\"")
        .replace("\"add1\"", "\"a1\"")
        .replace("\"conv3\"", "\"c3\"")
        .replace("\"pool2\"", "\"p3\"")
        .replace("\"fc/conv\"", "\"y\"");
    let tensor_table = dir.with_extension("by_tensor.json");
    std::fs::write(&tensor_table, &by_tensor).unwrap();
    let third = compile(
        &g,
        &CompileOptions {
            calib: CalibSource::Mqbench(tensor_table.clone()),
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(clips(&first), clips(&third));
    assert_eq!(net_files(&first), net_files(&third));
    std::fs::remove_file(&tensor_table).unwrap();

    // a layer missing from the table is named
    std::fs::write(&table, r#"{"nnie": {"gfpq_param_dict": {"conv1": [1.0]}}}"#).unwrap();
    let e = compile(&g, &opts).unwrap_err();
    let NnieError::Refused(p) = &e else {
        panic!("{e}")
    };
    assert!(
        p.iter()
            .any(|p| p.node == "conv2" && p.what.contains("no clip value")),
        "{e}"
    );

    // keys naming no node are refused, as CTable refuses unknown layers
    // (issue 15, item 6: they used to be ignored): a few listed, the rest counted
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    let dict = v["nnie"]["gfpq_param_dict"].as_object_mut().unwrap();
    dict.insert("conv_2".into(), serde_json::json!([1.0]));
    for i in 0..9 {
        dict.insert(format!("ghost{i}"), serde_json::json!([1.0]));
    }
    std::fs::write(&table, serde_json::to_string(&v).unwrap()).unwrap();
    let e = compile(&g, &opts).unwrap_err().to_string();
    assert!(
        e.contains("10 key(s) of gfpq_param_dict name no node of the model")
            && e.contains("'conv_2' (did you mean 'conv2'?)")
            && e.contains("and 5 more")
            && e.contains("nnie_cnn_gfpq_param_dict.json"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fractional_upsampling_is_refused_and_nothing_is_written() {
    let dir = out_dir("up2_5");
    let e = compile(&graph("nnie_resize_frac.onnx"), &calib())
        .and_then(|c| c.write_dir(&dir))
        .unwrap_err();
    let NnieError::Refused(p) = &e else {
        panic!("{e}")
    };
    assert_eq!(p.len(), 1, "{e}");
    assert_eq!((p[0].node.as_str(), p[0].op.as_str()), ("up", "Resize"));
    assert!(
        p[0].what
            .contains("Resize factor 20/8 = 2.5 on rows is not an integer"),
        "{e}"
    );
    assert!(
        p[0].fix.contains("NNIE upsamples by integer factors"),
        "{e}"
    );
    assert!(e.to_string().contains("node 'up' (Resize)"), "{e}");
    assert!(!dir.exists());
}

#[test]
fn three_times_nearest_upsampling_is_a_deconvolution() {
    let g = graph("nnie_upsample3.onnx");
    let c = compile(&g, &calib()).unwrap();
    let text = c.package().file(&format!("{}.prototxt", g.name)).unwrap();
    let proto = from_prototxt(std::str::from_utf8(text).unwrap()).unwrap();
    let up = proto
        .layer
        .iter()
        .find(|l| l.name.as_deref() == Some("up1"))
        .unwrap();
    assert_eq!(up.r#type.as_deref(), Some("Deconvolution"));
    let p = up.convolution_param.as_ref().unwrap();
    assert_eq!((p.kernel_h, p.stride_h), (Some(3), Some(3)));
    assert!(c
        .warnings()
        .iter()
        .any(|w| w.contains("depthwise deconvolution")));
}

#[test]
fn depthwise_conv_is_a_warning() {
    let c = compile(&graph("nnie_depthwise.onnx"), &calib()).unwrap();
    assert_eq!(c.warnings().len(), 1, "{:?}", c.warnings());
    assert!(
        c.warnings()[0].starts_with("node 'dw' (Conv): depthwise convolution"),
        "{:?}",
        c.warnings()
    );
    // MQBench writes no clip for group convolutions
    let table = std::str::from_utf8(
        c.package()
            .file("nnie_depthwise_gfpq_param_dict.json")
            .unwrap(),
    )
    .unwrap();
    assert!(
        table.contains("\"conv1\"") && !table.contains("\"dw\""),
        "{table}"
    );
    assert!(c.report().outputs["y"].cosine > 0.99);
}

#[test]
fn sixteen_bits_is_a_clear_error() {
    let mut opts = calib();
    opts.bits = 16;
    let e = compile(&graph("nnie_cnn.onnx"), &opts).unwrap_err();
    assert!(matches!(e, NnieError::Unsupported(_)));
    assert!(
        e.to_string().contains("16-bit") && e.to_string().contains("use --bits 8"),
        "{e}"
    );
}

#[test]
fn bad_calibration_data_names_the_file() {
    let dir = out_dir("badcalib");
    std::fs::create_dir_all(&dir).unwrap();
    let t = onnc_tensor::Tensor::from_f32(vec![1, 3, 8, 8], vec![0.5; 192]).unwrap();
    onnc_onnx::write_tensor_pb(dir.join("input_0.pb"), "x", &t).unwrap();
    let opts = CompileOptions::new(CalibSource::TestData(dir.clone()));
    let e = compile(&graph("nnie_cnn.onnx"), &opts).unwrap_err();
    assert!(
        e.to_string().contains("input_0.pb") && e.to_string().contains("1x3x16x16"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_is_deterministic() {
    let a = compile(&graph("nnie_cnn.onnx"), &calib()).unwrap();
    let b = compile(&graph("nnie_cnn.onnx"), &calib()).unwrap();
    assert_eq!(a.package().files(), b.package().files());
    assert_eq!(a.report().to_json(), b.report().to_json());
}

#[test]
fn print_numbers() {
    // `cargo test --test frontend print_numbers -- --nocapture` shows the measured quality
    let c = compile(&graph("nnie_cnn.onnx"), &calib()).unwrap();
    println!("{}", c.report().to_json());
    assert_eq!(c.report().outputs.len(), 1);
}
