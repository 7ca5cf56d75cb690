//! Real networks calibrated from data folders: a tiny residual CNN built
//! here, and SqueezeNet from the onnx package's light model zoo.

mod common;

use common::{temp_dir, tiny_cnn, write_test_data, Rng};
use onnc_calib::{calibrate, CalibSource, Method, Options, Preprocess};
use onnc_tensor::Tensor;

/// max|x| of every value of `g` over the sets, by running the interpreter here.
fn reference_max(
    g: &onnc_onnx::Graph,
    dir: &std::path::Path,
) -> std::collections::BTreeMap<String, f32> {
    let mut out = std::collections::BTreeMap::new();
    for set in onnc_calib::load_test_data(dir, g).unwrap() {
        let mut note = |name: &str, t: &Tensor| {
            if let Ok(v) = t.as_f32() {
                let m = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
                let e = out.entry(name.to_string()).or_insert(0.0f32);
                *e = e.max(m);
            }
        };
        for (n, t) in &set.inputs {
            note(n, t);
        }
        onnc_interp::run_graph_observed(g, &set.inputs, &mut |node, res| {
            for (n, t) in node.outputs.iter().zip(res) {
                note(n, t);
            }
        })
        .unwrap();
    }
    out
}

#[test]
fn a_tiny_residual_cnn_from_a_test_data_folder() {
    let g = tiny_cnn(2);
    let dir = temp_dir("tiny");
    write_test_data(&dir, &g.inputs[0], 6, 4);
    let src = CalibSource::detect(&dir, Preprocess::default()).unwrap();
    assert_eq!(src, CalibSource::TestData(dir.clone()));
    let max = calibrate(
        &g,
        &src,
        &Options {
            method: Method::Max,
            progress: true,
        },
    )
    .unwrap();
    assert_eq!(max.sets, 6);
    let names: Vec<&str> = max.scales.keys().map(String::as_str).collect();
    // Every activation, and the range of the Gemm's partial sums
    // (`onnc_calib::psum`, for targets that split its reduction).
    assert_eq!(
        names,
        ["c1", "c2", "fc#psum", "flat", "image", "logits", "pooled", "r1", "sum"]
    );
    let reference = reference_max(&g, &dir);
    for (name, scale) in max.scales.iter().filter(|(n, _)| !n.ends_with("#psum")) {
        assert_eq!(*scale, reference[name] / 127.0, "{name}");
    }
    for m in [Method::Percentile(99.99), Method::Entropy, Method::Mse] {
        let c = calibrate(
            &g,
            &src,
            &Options {
                method: m,
                progress: false,
            },
        )
        .unwrap();
        assert_eq!(c.scales.len(), 9, "{m}");
        // A partial sum takes its maximum whatever the method.
        assert_eq!(c.scales["fc#psum"], max.scales["fc#psum"], "{m}");
        for (name, s) in &c.scales {
            assert!(
                *s > 0.0 && *s <= max.scales[name],
                "{m} {name}: {s} vs max {}",
                max.scales[name]
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn squeezenet_from_the_light_zoo() {
    let path = common::zoo_dir().join("light_squeezenet.onnx");
    let g = onnc_onnx::load(&path, &Default::default()).unwrap().graph;
    assert_eq!(g.inputs.len(), 1, "{:?}", g.inputs);
    let dir = temp_dir("squeezenet");
    write_test_data(&dir, &g.inputs[0], 3, 8);
    let src = CalibSource::TestData(dir.clone());
    let c = calibrate(
        &g,
        &src,
        &Options {
            method: Method::Entropy,
            progress: false,
        },
    )
    .unwrap();
    assert_eq!(c.sets, 3);
    // Every node's (first, float) output is calibrated but the
    // ConstantOfShape weights'; Dropout's mask is boolean and gets none.
    for n in &g.nodes {
        let is_weight = n.op_type == "ConstantOfShape";
        let o = &n.outputs[0];
        assert_eq!(
            c.scales.contains_key(o),
            !is_weight,
            "{} {} `{o}`",
            n.op_type,
            n.name
        );
        for mask in &n.outputs[1..] {
            assert!(!c.scales.contains_key(mask), "{} `{mask}`", n.op_type);
        }
    }
    assert!(c.scales.contains_key(&g.inputs[0].name));
    let max = calibrate(
        &g,
        &src,
        &Options {
            method: Method::Max,
            progress: false,
        },
    )
    .unwrap();
    let reference = reference_max(&g, &dir);
    for (name, s) in &max.scales {
        assert_eq!(*s, reference[name] / 127.0, "{name}");
        assert!(c.scales[name] <= *s, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weight_scales_of_the_tiny_cnn() {
    let g = tiny_cnn(3);
    let conv = g.node("conv1").unwrap();
    let w = g.initializer("w1").unwrap();
    let axis = onnc_calib::channel_axis(conv, 1, w.rank()).unwrap();
    let s = onnc_calib::weight_scales("w1", w, axis).unwrap();
    let v = w.as_f32().unwrap();
    assert_eq!(s.per_channel.len(), 4);
    for (k, chunk) in v.chunks(27).enumerate() {
        let m = chunk.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        assert_eq!(s.per_channel[k], m / 127.0);
    }
    let top = s.per_channel.iter().fold(0.0f32, |m, &x| m.max(x));
    assert_eq!(s.per_tensor, top);
    let _ = Rng::new(0);
}

/// A LayerNormalization over the channels-last features of a conv: the
/// calibrator observes its inner tensors (`onnc_calib::layer_norm`), keyed
/// `<node>#<part>`, with their maximum as threshold whatever the method —
/// the maximum of `1/√(v + ε)` computed here from the sets, independently.
#[test]
fn a_layer_norm_has_its_inner_tensors_observed() {
    let mut r = Rng::new(7);
    let w = Tensor::from_f32(vec![6, 3, 1, 1], r.f32s(18, -1.0, 1.0)).unwrap();
    let gamma = Tensor::from_f32(vec![6], r.f32s(6, 0.5, 1.5)).unwrap();
    let g = onnc_onnx::Graph {
        name: "ln".into(),
        inputs: vec![common::vi("image", &[1, 3, 4, 4])],
        outputs: vec![common::vi("y", &[1, 4, 4, 6])],
        initializers: vec![("w".into(), w), ("gamma".into(), gamma)],
        nodes: vec![
            onnc_onnx::Node::new("conv", "Conv", &["image", "w"], &["c"])
                .with_attr("kernel_shape", onnc_tensor::Attr::Ints(vec![1, 1])),
            onnc_onnx::Node::new("nhwc", "Transpose", &["c"], &["t"])
                .with_attr("perm", onnc_tensor::Attr::Ints(vec![0, 2, 3, 1])),
            onnc_onnx::Node::new("norm", "LayerNormalization", &["t", "gamma"], &["y"])
                .with_attr("epsilon", onnc_tensor::Attr::Float(1e-3)),
        ],
    };
    let dir = temp_dir("ln");
    write_test_data(&dir, &g.inputs[0], 4, 9);
    let src = CalibSource::detect(&dir, Preprocess::default()).unwrap();
    let cal = calibrate(
        &g,
        &src,
        &Options {
            method: Method::Entropy,
            progress: false,
        },
    )
    .unwrap();
    for part in onnc_calib::layer_norm::PARTS {
        assert!(
            cal.scales.contains_key(&format!("norm#{part}")),
            "{part}: {:?}",
            cal.scales.keys()
        );
    }
    // The largest 1/√(v + ε) over the sets, from the conv's output.
    let mut rho_max = 0.0f32;
    for set in onnc_calib::load_test_data(&dir, &g).unwrap() {
        onnc_interp::run_graph_observed(&g, &set.inputs, &mut |node, res| {
            if node.name != "nhwc" {
                return;
            }
            for row in res[0].as_f32().unwrap().chunks(6) {
                let mu = row.iter().sum::<f32>() / 6.0;
                let v = row.iter().map(|x| (x - mu) * (x - mu)).sum::<f32>() / 6.0;
                rho_max = rho_max.max(1.0 / (v + 1e-3).sqrt());
            }
        })
        .unwrap();
    }
    let got = cal.threshold("norm#rsqrt").unwrap();
    assert!(
        (got - rho_max).abs() <= 1e-4 * rho_max,
        "{got} vs {rho_max}"
    );
}
