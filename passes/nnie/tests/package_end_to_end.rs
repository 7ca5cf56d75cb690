//! From float weights and calibration batches to a written `nnie_mapper`
//! package, read back file by file.

use onnc_nnie::caffe::proto::{
    self, pooling_parameter::PoolMethod, BlobProto, BlobShape, LayerParameter, NetParameter,
};
use onnc_nnie::caffe::{from_caffemodel, from_prototxt};
use onnc_nnie::{
    compare, fake_quantize, weight_clip, CalibConfig, CalibMethod, Calibrator, ClipTable,
    LogQuantizer, MapperConfig, Package, PackageOptions, QuantReport, SnapMode,
};

fn blob(dims: &[i64], data: Vec<f32>) -> BlobProto {
    BlobProto {
        shape: Some(BlobShape { dim: dims.to_vec() }),
        data,
        ..Default::default()
    }
}

fn layer(name: &str, ty: &str, bottom: &str, top: &str) -> LayerParameter {
    LayerParameter {
        name: Some(name.into()),
        r#type: Some(ty.into()),
        bottom: if bottom.is_empty() {
            vec![]
        } else {
            vec![bottom.into()]
        },
        top: vec![top.into()],
        ..Default::default()
    }
}

fn tiny_net(weights: Vec<f32>) -> NetParameter {
    let mut input = layer("data", "Input", "", "data");
    input.input_param = Some(proto::InputParameter {
        shape: vec![BlobShape {
            dim: vec![1, 3, 8, 8],
        }],
    });
    let mut conv = layer("conv1", "Convolution", "data", "conv1");
    conv.convolution_param = Some(proto::ConvolutionParameter {
        num_output: Some(4),
        kernel_size: vec![3],
        pad: vec![1],
        ..Default::default()
    });
    conv.blobs = vec![
        blob(&[4, 3, 3, 3], weights),
        blob(&[4], vec![0.1, -0.2, 0.3, 0.0]),
    ];
    let relu = layer("relu1", "ReLU", "conv1", "conv1");
    let mut pool = layer("pool1", "Pooling", "conv1", "pool1");
    pool.pooling_param = Some(proto::PoolingParameter {
        pool: Some(PoolMethod::Max as i32),
        kernel_size: Some(2),
        stride: Some(2),
        ..Default::default()
    });
    NetParameter {
        name: Some("tiny".into()),
        layer: vec![input, conv, relu, pool],
        ..Default::default()
    }
}

#[test]
fn calibrate_package_and_read_back() {
    let weights: Vec<f32> = (0..108)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) / 60.0)
        .collect();
    let net = tiny_net(weights.clone());

    // calibration: inputs of conv1 and pool1 over three batches
    let mut cal = Calibrator::new(CalibConfig::default()).unwrap();
    for b in 0..3 {
        let x: Vec<f32> = (0..192)
            .map(|i| ((i + 17 * b) % 29) as f32 / 7.0 - 2.0)
            .collect();
        let y: Vec<f32> = x.iter().map(|v| (v * 1.5).max(0.0)).collect();
        cal.observe("conv1", &x).unwrap();
        cal.observe("pool1", &y).unwrap();
    }
    let mut table = ClipTable::new();
    for (name, clip) in cal.clips(CalibMethod::MaxAbs, SnapMode::Nearest).unwrap() {
        table.insert_clips(&name, &[clip]).unwrap();
    }
    let w_clip = weight_clip(&weights, SnapMode::Nearest).unwrap();

    // quality of the weights under NNIE's code
    let wq = fake_quantize(LogQuantizer::from_clip(w_clip), &weights).unwrap();
    let mut report = QuantReport::default();
    report.push("conv1.weight", compare(&weights, &wq).unwrap());
    assert!(
        report.layers[0].quality.cosine > 0.99,
        "{:?}",
        report.layers[0]
    );

    let pkg = Package::build(
        "tiny",
        &net,
        &table,
        &["calib/0.jpg", "calib/1.jpg"],
        &PackageOptions::default(),
    )
    .unwrap();
    // deterministic
    assert_eq!(
        pkg,
        Package::build(
            "tiny",
            &net,
            &table,
            &["calib/0.jpg", "calib/1.jpg"],
            &PackageOptions::default()
        )
        .unwrap()
    );

    let dir = std::env::temp_dir().join(format!("onnc-nnie-e2e-{}", std::process::id()));
    pkg.write_to(&dir).unwrap();
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap();

    let deploy = from_prototxt(std::str::from_utf8(&read("tiny.prototxt")).unwrap()).unwrap();
    assert_eq!(deploy.layer.len(), 4);
    assert!(deploy.layer.iter().all(|l| l.blobs.is_empty()));
    let model = from_caffemodel(&read("tiny.caffemodel")).unwrap();
    assert_eq!(model, net);
    let cfg = MapperConfig::parse(std::str::from_utf8(&read("tiny.cfg")).unwrap()).unwrap();
    assert_eq!(
        (cfg.prototxt_file.as_str(), cfg.instruction_name.as_str()),
        ("tiny.prototxt", "tiny")
    );
    assert_eq!(read("image_list.txt"), b"calib/0.jpg\ncalib/1.jpg\n");
    let back =
        ClipTable::from_json(std::str::from_utf8(&read("tiny_gfpq_param_dict.json")).unwrap())
            .unwrap();
    assert_eq!(back, table);
    assert_eq!(back.grid_clips().unwrap().len(), 2);

    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reads_an_mqbench_style_table_and_snaps_it() {
    // As MQBench writes it: raw float32 clips, graph order, an Upsample alias.
    let json = r#"{
    "nnie": {
        "gfpq_param_dict": {
            "Conv_0": [
                2.6400001049041748
            ],
            "Add_7": [
                5.123456954956055,
                3.0
            ],
            "Upsample_9": [
                1.5
            ],
            "Upsample_9_permute_0": [
                1.5
            ]
        }
    }
}"#;
    let raw = ClipTable::from_json(json).unwrap();
    let names: Vec<&str> = raw.iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        ["Conv_0", "Add_7", "Upsample_9", "Upsample_9_permute_0"]
    );
    assert!(raw.grid_clips().is_err());
    let snapped = raw.snapped(SnapMode::Nearest).unwrap();
    let grid = snapped.grid_clips().unwrap();
    // 16*log2(2.64) = 22.40 -> 22; 16*log2(5.1235) = 37.73 -> 38; 16*log2(3) = 25.36 -> 25
    assert_eq!(grid[0].1[0].index(), 22);
    assert_eq!(
        grid[1].1.iter().map(|c| c.index()).collect::<Vec<_>>(),
        [38, 25]
    );
    assert_eq!(ClipTable::from_json(&snapped.to_json()).unwrap(), snapped);
}
