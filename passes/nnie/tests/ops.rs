//! The ONNX forms torchvision CNNs use that NNIE runs through exact
//! rewrites (`tests/data/make_nnie_ops.py`): floor-mode pooling, ReLU6,
//! SiLU, HardSwish, HardSigmoid, Tanh, channel and row Slices. Each fixture
//! compiles for NNIE; the legalized float graph computes the reference
//! interpreter's numbers on the original model, and the simulated 8-bit run
//! (`quant_run`) stays close to them.

mod common;
use common::{data, graph};

use onnc_nnie::caffe::from_prototxt;
use onnc_nnie::frontend::{compile, load_test_data, quant_run, CalibSource, CompileOptions};

/// Cosine similarity of two equally long vectors.
fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let n = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (n(a) * n(b))
}

/// Compiles `name` for NNIE and checks, on every calibration set: the
/// legalized graph in float equals the interpreter on the original within
/// `float_tol` (relative to 1 + |ref|), and the simulated 8-bit run has
/// cosine > `min_cos` with it. Returns the Caffe layers (name, type).
fn compiles_exactly(name: &str, float_tol: f32, min_cos: f64) -> Vec<(String, String)> {
    let g = graph(name);
    let calib = data("nnie_cnn_calib");
    let c = compile(
        &g,
        &CompileOptions::new(CalibSource::TestData(calib.clone())),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let sets = load_test_data(&calib, &g).unwrap();
    assert_eq!(sets.len(), 3);
    for set in &sets {
        let reference = onnc_interp::run_graph(&g, &set.inputs).unwrap();
        let legalized = onnc_interp::run_graph(c.graph(), &set.inputs).unwrap();
        let simulated = quant_run(c.graph(), c.layers(), set).unwrap();
        let r = reference[0].1.as_f32().unwrap();
        let l = legalized[0].1.as_f32().unwrap();
        let q = simulated[0].1.as_f32().unwrap();
        assert_eq!(reference[0].1.shape(), simulated[0].1.shape(), "{name}");
        for (i, (a, b)) in r.iter().zip(l).enumerate() {
            assert!(
                (a - b).abs() <= float_tol * (1.0 + a.abs()),
                "{name}: element {i}: interpreter {a}, legalized {b}"
            );
        }
        let cos = cosine(r, q);
        assert!(cos > min_cos && cos <= 1.0 + 1e-9, "{name}: cosine {cos}");
        assert!(
            r.iter().zip(q).any(|(a, b)| a != b),
            "{name}: quantization changed nothing"
        );
    }
    let proto = c
        .package()
        .file(&format!("{}.prototxt", g.name))
        .map(|b| String::from_utf8(b.to_vec()).unwrap())
        .unwrap();
    from_prototxt(&proto)
        .unwrap()
        .layer
        .iter()
        .map(|l| (l.name.clone().unwrap(), l.r#type.clone().unwrap()))
        .collect()
}

fn types(layers: &[(String, String)]) -> Vec<&str> {
    layers.iter().map(|(_, t)| t.as_str()).collect()
}

#[test]
fn floor_mode_pooling_is_round_up_pooling_and_a_crop() {
    let layers = compiles_exactly("nnie_floor_pool.onnx", 0.0, 0.99);
    assert_eq!(
        types(&layers),
        [
            "Convolution",
            "ReLU",
            "Pooling",
            "Slice",
            "Slice",
            "Convolution",
            "Pooling",
            "Slice",
            "Slice"
        ]
    );
    // The stem pool rounds up to 9×9; the crops keep rows and columns [0, 8).
    let proto = prototxt("nnie_floor_pool.onnx");
    let crop = &proto.layer[3];
    assert_eq!(crop.slice_param.as_ref().unwrap().axis, Some(2));
    assert_eq!(crop.slice_param.as_ref().unwrap().slice_point, [8]);
    assert_eq!(crop.top.len(), 2);
    assert_eq!(proto.layer[4].bottom, crop.top[..1]);
}

#[test]
fn relu6_silu_hardswish_hardsigmoid_tanh_compile() {
    let layers = compiles_exactly("nnie_activations.onnx", 1e-5, 0.98);
    let t = types(&layers);
    for want in ["Sigmoid", "TanH", "Power", "ReLU", "Eltwise"] {
        assert!(t.contains(&want), "{want} missing from {t:?}");
    }
    // ReLU6 = 6 − Relu(6 − Relu(x)): ReLU, Power(−1), Power(+6), ReLU, Power(−1), Power(+6).
    let relu6: Vec<&str> = layers
        .iter()
        .filter(|(n, _)| n.starts_with("relu6"))
        .map(|(_, t)| t.as_str())
        .collect();
    assert_eq!(relu6, ["ReLU", "Power", "Power", "ReLU", "Power", "Power"]);
}

#[test]
fn channel_and_row_slices_and_split_are_caffe_slices() {
    let layers = compiles_exactly("nnie_slice.onnx", 0.0, 0.99);
    let proto = prototxt("nnie_slice.onnx");
    let split = proto
        .layer
        .iter()
        .find(|l| l.name.as_deref() == Some("split"))
        .unwrap();
    assert_eq!(split.top, ["sp3", "sp5"]);
    assert_eq!(split.slice_param.as_ref().unwrap().slice_point, [3]);
    let chunk1 = proto
        .layer
        .iter()
        .find(|l| l.name.as_deref() == Some("chunk1"))
        .unwrap();
    assert_eq!(chunk1.top, ["chunk1_unused_before", "bb"]);
    assert_eq!(chunk1.slice_param.as_ref().unwrap().slice_point, [4]);
    assert_eq!(
        types(&layers),
        [
            "Convolution",
            "ReLU",
            "Slice",
            "Convolution",
            "Slice",
            "Convolution",
            "Concat",
            "Slice",
            "Concat",
            "Slice"
        ]
    );
}

#[test]
fn squeeze_excitation_batch_norm_and_wide_concat_compile() {
    let layers = compiles_exactly("nnie_se.onnx", 1e-5, 0.99);
    let find = |name: &str| {
        layers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    };
    // The gate is flattened to N×C and scales the map per channel.
    assert_eq!(find("excite/flatten"), Some("Flatten"));
    assert_eq!(find("excite"), Some("Scale"));
    assert_eq!(find("bn"), Some("Scale"));
    // 17 inputs: the first 16 concatenated, then with the 17th.
    assert_eq!(find("concat17/head"), Some("Concat"));
    assert_eq!(find("concat17"), Some("Concat"));
    let c = compile(
        &graph("nnie_se.onnx"),
        &CompileOptions::new(CalibSource::TestData(data("nnie_cnn_calib"))),
    )
    .unwrap();
    let model =
        onnc_nnie::caffe::from_caffemodel(c.package().file("nnie_se.caffemodel").unwrap()).unwrap();
    let excite = model
        .layer
        .iter()
        .find(|l| l.name.as_deref() == Some("excite"))
        .unwrap();
    assert_eq!(excite.bottom, ["r1", "excite/gate"]);
    assert_eq!(excite.scale_param.as_ref().unwrap().axis, Some(0));
    // BatchNorm as Scale: scale = γ/√(σ²+ε), bias = β − μ·scale.
    let g = graph("nnie_se.onnx");
    let v = |n: &str| g.initializer(n).unwrap().as_f32().unwrap().to_vec();
    let (gamma, beta, mean, var) = (v("bn_g"), v("bn_b"), v("bn_m"), v("bn_v"));
    let bn = model
        .layer
        .iter()
        .find(|l| l.name.as_deref() == Some("bn"))
        .unwrap();
    for i in 0..8 {
        let s = gamma[i] / (var[i] + 1e-5).sqrt();
        assert!((bn.blobs[0].data[i] - s).abs() < 1e-6);
        assert!((bn.blobs[1].data[i] - (beta[i] - mean[i] * s)).abs() < 1e-6);
    }
}

#[test]
fn option_a_shortcut_is_selection_convolutions() {
    let layers = compiles_exactly("nnie_shortcut.onnx", 0.0, 0.99);
    let find = |name: &str| {
        layers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    };
    // x[:, :, ::2, ::2] is two strided 1-tap Convs, the channel pad a 1×1 Conv.
    assert_eq!(find("short_slice"), Some("Convolution"));
    assert_eq!(find("short_pad"), Some("Convolution"));
    assert_eq!(
        layers.iter().filter(|(_, t)| t == "Convolution").count(),
        5,
        "{layers:?}"
    );
}

/// Fixture `file` compiled for NNIE (calibrated on `nnie_cnn_calib`): its prototxt.
fn prototxt(file: &str) -> onnc_nnie::caffe::proto::NetParameter {
    let g = graph(file);
    let c = compile(
        &g,
        &CompileOptions::new(CalibSource::TestData(data("nnie_cnn_calib"))),
    )
    .unwrap();
    let text = c.package().file(&format!("{}.prototxt", g.name)).unwrap();
    from_prototxt(std::str::from_utf8(text).unwrap()).unwrap()
}

/// The Caffe layer named `name` of fixture `file`'s prototxt.
fn caffe_layer(file: &str, name: &str) -> onnc_nnie::caffe::proto::LayerParameter {
    prototxt(file)
        .layer
        .into_iter()
        .find(|l| l.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no layer {name} in {file}"))
}

#[test]
fn bilinear_and_nearest_upsampling_by_powers_of_two_are_upsamples_and_a_conv() {
    let layers = compiles_exactly("nnie_resize.onnx", 1e-5, 0.98);
    let find = |name: &str| {
        layers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    };
    // ×2 bilinear: one Upsample; ×8: three; nearest ×4: two (the last keeps the name).
    let ups = layers.iter().filter(|(_, t)| t == "Upsample").count();
    assert_eq!(ups, 1 + 3 + 2, "{layers:?}");
    assert_eq!(find("nearest4"), Some("Upsample"));
    assert_eq!(find("bilinear2/edge2"), Some("Concat"));
    assert_eq!(find("bilinear8/edge3"), Some("Concat"));
    // The smoothing conv: depthwise, (s+1)×(s+1), no padding.
    let conv = caffe_layer("nnie_resize.onnx", "bilinear8");
    assert_eq!(conv.r#type.as_deref(), Some("Convolution"));
    let p = conv.convolution_param.unwrap();
    assert_eq!((p.group, p.num_output), (Some(8), Some(8)));
    assert_eq!((p.kernel_h, p.kernel_w), (Some(9), Some(9)));
    assert_eq!((p.pad_h, p.pad_w), (Some(0), Some(0)));
}

#[test]
fn sixteen_by_sixteen_patch_conv_is_space_to_depth_and_an_eight_by_eight_conv() {
    let layers = compiles_exactly("nnie_patch.onnx", 1e-5, 0.98);
    let s2d = caffe_layer("nnie_patch.onnx", "patch/space_to_depth");
    let p = s2d.convolution_param.unwrap();
    assert_eq!(
        (p.num_output, p.kernel_h, p.stride_h),
        (Some(16), Some(2), Some(2))
    );
    let conv = caffe_layer("nnie_patch.onnx", "patch");
    let p = conv.convolution_param.unwrap();
    assert_eq!(
        (p.num_output, p.kernel_h, p.stride_h),
        (Some(8), Some(8), Some(8))
    );
    assert_eq!((p.kernel_w, p.stride_w), (Some(8), Some(8)));
    assert_eq!(
        layers.iter().filter(|(_, t)| t == "Convolution").count(),
        3,
        "{layers:?}"
    );
}

#[test]
fn factors_other_than_powers_of_two_use_a_depthwise_deconvolution() {
    let layers = compiles_exactly("nnie_resize_odd.onnx", 1e-5, 0.98);
    // Bilinear ×3: Deconvolution of ones (3×3, stride 3), edges of 1, 3×3 box Conv.
    let up = caffe_layer("nnie_resize_odd.onnx", "bilinear3/nearest");
    assert_eq!(up.r#type.as_deref(), Some("Deconvolution"));
    let p = up.convolution_param.unwrap();
    assert_eq!(
        (p.kernel_h, p.stride_h, p.group),
        (Some(3), Some(3), Some(8))
    );
    let conv = caffe_layer("nnie_resize_odd.onnx", "bilinear3");
    let p = conv.convolution_param.unwrap();
    assert_eq!(
        (p.kernel_h, p.kernel_w, p.group),
        (Some(3), Some(3), Some(8))
    );
    // Nearest ×6: one Deconvolution, kernel and stride 6.
    let near = caffe_layer("nnie_resize_odd.onnx", "nearest6");
    assert_eq!(near.r#type.as_deref(), Some("Deconvolution"));
    let p = near.convolution_param.unwrap();
    assert_eq!((p.kernel_w, p.stride_w), (Some(6), Some(6)));
    assert!(!layers.iter().any(|(_, t)| t == "Upsample"), "{layers:?}");
}

#[test]
fn convnext_layer_norms_gelu_and_channels_last_linears_become_caffe_layers() {
    // GELU's Erf is a tanh cubic (|error| ≤ 3.6e-4), the rest exact up to
    // f32 summation order.
    let layers = compiles_exactly("nnie_convnext.onnx", 2e-3, 0.98);
    let t = types(&layers);
    assert!(!t.contains(&"Permute"), "every Transpose cancels: {t:?}");
    for want in [
        "TanH",
        "Power",
        "Eltwise",
        "Scale",
        "Convolution",
        "Pooling",
    ] {
        assert!(t.contains(&want), "{want} missing from {t:?}");
    }
    // One Power raises to −½ per layer norm (three of them).
    let proto = prototxt("nnie_convnext.onnx");
    let rsqrt: Vec<&str> = proto
        .layer
        .iter()
        .filter(|l| l.power_param.as_ref().and_then(|p| p.power) == Some(-0.5))
        .map(|l| l.name.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(rsqrt.len(), 3, "{rsqrt:?}");
    // Power layers of the affine maps keep Caffe's default power (omitted).
    assert!(proto
        .layer
        .iter()
        .filter_map(|l| l.power_param.as_ref())
        .all(|p| p.power.is_none() || p.power == Some(-0.5)));
}
