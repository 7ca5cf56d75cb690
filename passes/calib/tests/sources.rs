//! Calibration inputs: .npy layouts, image folders with preprocessing, and
//! the layout detection of a `--calib DIR`.

mod common;

use common::{temp_dir, vi, write_npy};
use onnc_calib::{
    calibrate, CalibSource, ChannelOrder, Layout, Method, Options, Preprocess, Resize,
};
use onnc_onnx::{Graph, Node};

/// `y = Relu(x)` on `[1, 2, 2, 2]`, or two inputs `a + b`.
fn relu_graph() -> Graph {
    Graph {
        inputs: vec![vi("in/x:0", &[1, 2, 2, 2])],
        outputs: vec![vi("y", &[1, 2, 2, 2])],
        nodes: vec![Node::new("r", "Relu", &["in/x:0"], &["y"])],
        ..Graph::default()
    }
}

fn add_graph() -> Graph {
    Graph {
        inputs: vec![vi("a", &[2]), vi("b", &[2])],
        outputs: vec![vi("s", &[2])],
        nodes: vec![Node::new("add", "Add", &["a", "b"], &["s"])],
        ..Graph::default()
    }
}

fn max_of(g: &Graph, src: &CalibSource) -> onnc_calib::Calibration {
    calibrate(
        g,
        src,
        &Options {
            method: Method::Max,
            progress: false,
        },
    )
    .unwrap()
}

#[test]
fn npy_files_one_set_each_in_natural_order_with_or_without_the_batch_axis() {
    let dir = temp_dir("npy-flat");
    let vals = |k: f64| (0..8).map(|i| i as f64 * k).collect::<Vec<_>>();
    write_npy(&dir.join("sample_2.npy"), &[1, 2, 2, 2], &vals(1.0), "<f4");
    write_npy(&dir.join("sample_10.npy"), &[2, 2, 2], &vals(-2.0), "<f4"); // no batch axis
    std::fs::write(dir.join("README.txt"), "ignored").unwrap();
    let src = CalibSource::detect(&dir, Preprocess::default()).unwrap();
    assert_eq!(src, CalibSource::Npy(dir.clone()));
    let g = relu_graph();
    let plan = src.plan(&g).unwrap();
    let names: Vec<String> = plan
        .iter()
        .map(|p| match p {
            onnc_calib::SetPlan::Npy(f) => f[0].file_name().unwrap().to_string_lossy().into_owned(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["sample_2.npy", "sample_10.npy"]);
    let c = max_of(&g, &src);
    assert_eq!(c.sets, 2);
    assert_eq!(c.scales["in/x:0"], 14.0 / 127.0);
    assert_eq!(c.scales["y"], 7.0 / 127.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn npy_sets_in_sub_folders_name_their_inputs() {
    let dir = temp_dir("npy-sets");
    for (k, set) in ["set_1", "set_2"].iter().enumerate() {
        let d = dir.join(set);
        std::fs::create_dir_all(&d).unwrap();
        write_npy(&d.join("input_0.npy"), &[2], &[1.0, k as f64], "<f4");
        write_npy(
            &d.join("b.npy"),
            &[2],
            &[-3.0 * (k as f64 + 1.0), 0.5],
            "<f4",
        );
    }
    let g = add_graph();
    let c = max_of(
        &g,
        &CalibSource::detect(&dir, Preprocess::default()).unwrap(),
    );
    assert_eq!(c.sets, 2);
    assert_eq!(c.scales["b"], 6.0 / 127.0);
    assert_eq!(c.scales["s"], 5.0 / 127.0);
    // Flat files of a two-input model form one set.
    let flat = temp_dir("npy-one-set");
    write_npy(&flat.join("a.npy"), &[2], &[1.0, 2.0], "<f4");
    write_npy(&flat.join("input_1.npy"), &[2], &[1.0, 2.0], "<f4");
    assert_eq!(
        max_of(&g, &CalibSource::Npy(flat.clone())).scales["s"],
        4.0 / 127.0
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&flat).unwrap();
}

fn write_png(path: &std::path::Path, w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 3]) {
    let mut img = image::RgbImage::new(w, h);
    for y in 0..h {
        for x in 0..w {
            img.put_pixel(x, y, image::Rgb(f(x, y)));
        }
    }
    img.save(path).unwrap();
}

#[test]
fn images_with_mean_std_bgr_and_nhwc() {
    let dir = temp_dir("images");
    write_png(&dir.join("a.png"), 2, 2, |_, _| [255, 0, 51]);
    let src = CalibSource::detect(&dir, Preprocess::default()).unwrap();
    assert!(matches!(src, CalibSource::Images(..)));
    let g = Graph {
        inputs: vec![vi("img", &[1, 3, 2, 2])],
        outputs: vec![vi("img", &[1, 3, 2, 2])],
        ..Graph::default()
    };
    // Default: p/255, RGB, NCHW.
    let set = src.load(&src.plan(&g).unwrap()[0], &g).unwrap();
    assert_eq!(
        set.inputs[0].1.as_f32().unwrap(),
        &[1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.2, 0.2, 0.2]
    );
    // Caffe style: BGR, mean subtracted, NHWC.
    let pre = Preprocess {
        scale: 1.0,
        mean: [50.0, 0.0, 200.0],
        std: [1.0, 1.0, 2.0],
        order: ChannelOrder::Bgr,
        layout: Layout::Nhwc,
        resize: Resize::Stretch,
    };
    let nhwc = Graph {
        inputs: vec![vi("img", &[1, 2, 2, 3])],
        outputs: vec![vi("img", &[1, 2, 2, 3])],
        ..Graph::default()
    };
    let src = CalibSource::Images(dir.clone(), pre);
    let set = src.load(&src.plan(&nhwc).unwrap()[0], &nhwc).unwrap();
    // pixel (B, G, R) = (51, 0, 255): (51 − 50)/1, (0 − 0)/1, (255 − 200)/2
    assert_eq!(&set.inputs[0].1.as_f32().unwrap()[..3], &[1.0, 0.0, 27.5]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn centre_crop_keeps_the_middle_of_a_wide_image() {
    let dir = temp_dir("crop");
    // 8x4: left quarter black, middle white, right quarter black.
    write_png(&dir.join("wide.png"), 8, 4, |x, _| {
        if (2..6).contains(&x) {
            [255; 3]
        } else {
            [0; 3]
        }
    });
    let g = Graph {
        inputs: vec![vi("img", &[1, 3, 4, 4])],
        outputs: vec![vi("img", &[1, 3, 4, 4])],
        ..Graph::default()
    };
    let pre = Preprocess {
        resize: Resize::CenterCrop(4),
        ..Preprocess::default()
    };
    let src = CalibSource::Images(dir.clone(), pre);
    let t = src.load(&src.plan(&g).unwrap()[0], &g).unwrap().inputs[0]
        .1
        .clone();
    let v = t.as_f32().unwrap();
    assert!(v.iter().all(|&x| x > 0.9), "{v:?}");
    // Stretching the same image keeps the black borders.
    let src = CalibSource::Images(dir.clone(), Preprocess::default());
    let t = src.load(&src.plan(&g).unwrap()[0], &g).unwrap().inputs[0]
        .1
        .clone();
    assert!(t.as_f32().unwrap()[0] < 0.3, "{:?}", t.as_f32());
    std::fs::remove_dir_all(&dir).unwrap();
}
