//! Bad input gives an error naming the file, tensor or option, what is
//! wrong and what would fix it — never a panic.

mod common;

use common::{temp_dir, tiny_cnn, vi, write_npy, write_test_data};
use onnc_calib::{calibrate, CalibError, CalibSource, DataSet, Method, Options, Preprocess};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Tensor;

fn err(g: &Graph, src: &CalibSource) -> String {
    calibrate(g, src, &Options::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_test_data_tensor_of_the_wrong_shape_names_the_file() {
    let g = tiny_cnn(1);
    let dir = temp_dir("bad-shape");
    write_test_data(&dir, &vi("image", &[1, 3, 4, 4]), 2, 1);
    let e = err(&g, &CalibSource::TestData(dir.clone()));
    assert!(
        e.contains("test_data_set_0/input_0.pb") && e.contains("1x3x4x4") && e.contains("1x3x8x8"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_float64_npy_says_how_to_save_float32() {
    let g = Graph {
        inputs: vec![vi("x", &[2])],
        outputs: vec![vi("x", &[2])],
        ..Graph::default()
    };
    let dir = temp_dir("f64");
    write_npy(&dir.join("x.npy"), &[2], &[1.0, 2.0], "<f8");
    let e = err(&g, &CalibSource::Npy(dir.clone()));
    assert!(
        e.contains("x.npy") && e.contains("f64") && e.contains("astype(np.float32)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn npy_files_that_name_no_input_are_refused() {
    let g = Graph {
        inputs: vec![vi("a", &[2]), vi("b", &[2])],
        outputs: vec![vi("a", &[2])],
        ..Graph::default()
    };
    let dir = temp_dir("npy-names");
    write_npy(&dir.join("a.npy"), &[2], &[1.0, 2.0], "<f4");
    write_npy(&dir.join("c.npy"), &[2], &[1.0, 2.0], "<f4");
    let e = err(&g, &CalibSource::Npy(dir.clone()));
    assert!(
        e.contains("input_1.npy or b.npy") && e.contains("`b`"),
        "{e}"
    );
    write_npy(&dir.join("b.npy"), &[2], &[1.0, 2.0], "<f4");
    let e = err(&g, &CalibSource::Npy(dir.clone()));
    assert!(
        e.contains("c.npy") && e.contains("names no graph input"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unreadable_image_names_the_file() {
    let g = Graph {
        inputs: vec![vi("img", &[1, 3, 2, 2])],
        outputs: vec![vi("img", &[1, 3, 2, 2])],
        ..Graph::default()
    };
    let dir = temp_dir("bad-image");
    std::fs::write(dir.join("broken.jpg"), b"not a jpeg").unwrap();
    let src = CalibSource::detect(&dir, Preprocess::default()).unwrap();
    let e = err(&g, &src);
    assert!(
        e.contains("broken.jpg") && e.contains("cannot decode"),
        "{e}"
    );
    // An image folder for a model that does not take images.
    let e = err(&tiny_cnn_two_inputs(), &src);
    assert!(e.contains("exactly one input"), "{e}");
    let flat = Graph {
        inputs: vec![vi("v", &[1, 10])],
        outputs: vec![vi("v", &[1, 10])],
        ..Graph::default()
    };
    let e = err(&flat, &src);
    assert!(e.contains("`v`") && e.contains("[1, C, H, W]"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tiny_cnn_two_inputs() -> Graph {
    Graph {
        inputs: vec![vi("a", &[2]), vi("b", &[2])],
        ..Graph::default()
    }
}

#[test]
fn an_empty_or_missing_folder_says_what_it_expected() {
    let dir = temp_dir("empty");
    let e = CalibSource::detect(&dir, Preprocess::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("input_<k>.pb") && e.contains(".npy") && e.contains("images"),
        "{e}"
    );
    let e = CalibSource::detect(&dir.join("nope"), Preprocess::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("nope") && e.contains("not a folder"), "{e}");
    let e = err(&tiny_cnn(1), &CalibSource::TestData(dir.clone()));
    assert!(e.contains("test_data_set_*"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nan_activations_name_the_tensor_and_the_first_bad_set() {
    // y = Log(x): a negative input gives NaN.
    let g = Graph {
        inputs: vec![vi("x", &[2])],
        outputs: vec![vi("y", &[2])],
        nodes: vec![Node::new("log", "Log", &["x"], &["y"])],
        ..Graph::default()
    };
    let set = |v: [f32; 2]| DataSet {
        inputs: vec![("x".into(), Tensor::from_f32(vec![2], v.to_vec()).unwrap())],
        files: vec![],
    };
    let sets = vec![
        set([1.0, 2.0]),
        set([1.0, 2.0]),
        set([1.0, -1.0]),
        set([-1.0, 1.0]),
    ];
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let e = pool
            .install(|| calibrate(&g, &CalibSource::Sets(sets.clone()), &Options::default()))
            .unwrap_err();
        assert!(
            matches!(&e, CalibError::NonFinite { tensor, set: 2, index: 1, .. } if tensor == "y"),
            "{threads} threads: {e}"
        );
        assert!(e.to_string().contains("tensor `y` holds NaN"), "{e}");
    }
}

#[test]
fn interpreter_failures_name_the_set_and_node() {
    let g = Graph {
        inputs: vec![vi("x", &[2])],
        outputs: vec![vi("y", &[2])],
        nodes: vec![Node::new("mystery", "NoSuchOp", &["x"], &["y"])],
        ..Graph::default()
    };
    let dir = temp_dir("run-error");
    write_test_data(&dir, &g.inputs[0], 1, 1);
    let e = err(&g, &CalibSource::TestData(dir.clone()));
    assert!(
        e.contains("calibration set 0") && e.contains("input_0.pb") && e.contains("mystery"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_methods_are_options_errors() {
    let g = tiny_cnn(1);
    let opts = Options {
        method: Method::Percentile(0.0),
        progress: false,
    };
    let e = calibrate(&g, &CalibSource::Sets(vec![]), &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("percentile") && e.contains("(0, 100]"), "{e}");
    let e = "median".parse::<Method>().unwrap_err().to_string();
    assert!(e.contains("max, percentile[:P]"), "{e}");
    let e = calibrate(&g, &CalibSource::Sets(vec![]), &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("no set"), "{e}");
}
