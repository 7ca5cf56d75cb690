//! The package is consistent with calibration and portable, and `eval`
//! measures accuracy on held-out labelled data:
//!
//! * images: the package holds them as calibration saw them (PNG, H × W),
//!   `image_list.txt` names them relative to the package, and the `.cfg`'s
//!   `[RGB_order]`, `[norm_type]`, `[data_scale]`, `[mean_file]` turn those
//!   pixels into exactly the tensors calibration used;
//! * `eval` with `test_x.npy`/`test_y.npy` (test/data/int8-classifiers): the
//!   float top-1 equals the one numpy measured when the model was trained
//!   (accuracy.txt), and the simulated NNIE network's is reported beside it.

use std::path::{Path, PathBuf};

use onnc_calib::{ChannelOrder, Preprocess};
use onnc_nnie::frontend::{compile, load_images_with, CalibSource, CompileOptions};
use onnc_nnie::MapperConfig;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn graph(path: &Path) -> onnc_onnx::Graph {
    onnc_onnx::load(path, &Default::default()).unwrap().graph
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("onnc-nnie-pp-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn images_are_packaged_as_calibration_saw_them() {
    let g = graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nnie_cnn.onnx"));
    // three 20x24 images with varied pixels, stretched to the 16x16 input
    let src = temp("img-src");
    std::fs::create_dir_all(&src).unwrap();
    for k in 0..3u32 {
        let img = image::RgbImage::from_fn(24, 20, |x, y| {
            image::Rgb([
                (x * 10 + k) as u8,
                (y * 12) as u8,
                ((x * y + 7 * k) % 256) as u8,
            ])
        });
        img.save(src.join(format!("img_{k}.jpg"))).unwrap();
    }
    let pre = Preprocess {
        mean: [0.5, 0.4, 0.3],
        std: [0.25; 3],
        order: ChannelOrder::Bgr,
        ..Preprocess::default()
    };
    let mut opts = CompileOptions::new(CalibSource::Images(src.clone()));
    opts.preprocess = pre;
    let c = compile(&g, &opts).unwrap();
    let out = temp("img-pkg");
    c.write_dir(&out).unwrap();

    let list = std::fs::read_to_string(out.join("image_list.txt")).unwrap();
    let entries: Vec<&str> = list.lines().collect();
    assert_eq!(
        entries,
        [
            "calibration_images/img_0.jpg.png",
            "calibration_images/img_1.jpg.png",
            "calibration_images/img_2.jpg.png"
        ]
    );
    let cfg =
        MapperConfig::parse(&std::fs::read_to_string(out.join("nnie_cnn.cfg")).unwrap()).unwrap();
    assert_eq!(
        (cfg.image_type, cfg.rgb_order.as_str(), cfg.norm_type),
        (1, "BGR", 5)
    );
    let means: Vec<f64> = std::fs::read_to_string(out.join(cfg.mean_file.as_deref().unwrap()))
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(means.len(), 3);

    // What the mapper computes from the packaged files, x = (p[order] − M)·D,
    // equals what calibration fed the network, to f32 rounding.
    let sets = load_images_with(&src, &g, &pre).unwrap();
    for (entry, set) in entries.iter().zip(&sets) {
        let png = image::open(out.join(entry)).unwrap().to_rgb8();
        assert_eq!(png.dimensions(), (16, 16));
        let want = set.inputs[0].1.as_f32().unwrap();
        for (x, y, px) in png.enumerate_pixels() {
            for ch in 0..3 {
                let p = f64::from(px[if cfg.rgb_order == "BGR" { 2 - ch } else { ch }]);
                let mapper = (p - means[ch]) * f64::from(cfg.data_scale);
                let calib = f64::from(want[ch * 256 + (y * 16 + x) as usize]);
                assert!(
                    (mapper - calib).abs() < 1e-5,
                    "{entry} ({x},{y}) ch {ch}: {mapper} vs {calib}"
                );
            }
        }
    }
    // the package names nothing outside itself
    assert!(!list.contains(src.to_str().unwrap()));
    std::fs::remove_dir_all(&src).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn per_channel_std_cannot_be_written_and_is_refused() {
    let g = graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nnie_cnn.onnx"));
    let src = temp("img-std");
    std::fs::create_dir_all(&src).unwrap();
    image::RgbImage::from_pixel(16, 16, image::Rgb([90, 120, 200]))
        .save(src.join("a.png"))
        .unwrap();
    let mut opts = CompileOptions::new(CalibSource::Images(src.clone()));
    opts.preprocess.std = [0.229, 0.224, 0.225];
    let e = compile(&g, &opts).unwrap_err().to_string();
    assert!(e.contains("one [data_scale]"), "{e}");
    std::fs::remove_dir_all(&src).unwrap();
}

#[test]
fn eval_reports_top1_of_float_and_simulated_nnie() {
    let dir = repo().join("test/data/int8-classifiers");
    let g = graph(&dir.join("plain.onnx"));
    let mut opts = CompileOptions::new(CalibSource::Npy(dir.join("calib")));
    opts.eval = Some(dir.clone());
    let c = compile(&g, &opts).unwrap();
    let a = c.accuracy().expect("labelled eval data gives an accuracy");
    assert_eq!(a.samples, 600);
    // accuracy.txt: "plain: FP32 top-1 98.17% on 600 held-out digits (numpy)"
    let recorded = std::fs::read_to_string(dir.join("accuracy.txt")).unwrap();
    assert!(
        recorded.contains(&format!("plain: FP32 top-1 {:.2}%", a.float_percent())),
        "{a:?}"
    );
    // 8-bit logarithmic codes keep a digit classifier within a few samples of float
    assert!(a.nnie_correct + 6 >= a.float_correct, "{a:?}");
    assert!(a.agree >= 590, "{a:?}");
    assert_eq!(c.report().accuracy, Some(a));
    assert!(c.report().to_json().contains("\"nnie_correct\""));

    // no labels file: a clear error naming both files
    let bad = temp("eval-nolabels");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::copy(dir.join("test_x.npy"), bad.join("test_x.npy")).unwrap();
    opts.eval = Some(bad.clone());
    let e = compile(&g, &opts).unwrap_err().to_string();
    assert!(e.contains("test_y.npy"), "{e}");
    std::fs::remove_dir_all(&bad).unwrap();
}
