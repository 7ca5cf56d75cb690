//! The NNIE frontend runs its calibration and quality runs in parallel over
//! the sets (rayon); the package bytes and `quant_report.json` must not
//! depend on the thread count. Each model is compiled in pools of 1, 2 and
//! 3 threads (so the sets are cut into different chunks: 2, 4 and 6 sets in
//! flight) and every written file is compared byte for byte.

use std::path::{Path, PathBuf};

use onnc_nnie::frontend::{compile, CalibSource, CompileOptions};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Every file `compile` writes (package and report), in package order.
fn files_with(threads: usize, model: &Path, opts: &CompileOptions) -> Vec<(String, Vec<u8>)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let g = onnc_onnx::load(model, &Default::default()).unwrap().graph;
    let c = pool.install(|| compile(&g, opts)).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "onnc-nnie-threads-{threads}-{}-{}",
        model.file_stem().unwrap().to_string_lossy(),
        std::process::id()
    ));
    let written = c.write_dir(&dir).unwrap();
    let files = written
        .iter()
        .map(|p| {
            let name = p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    files
}

fn assert_same_across_threads(model: &Path, opts: &CompileOptions) {
    let one = files_with(1, model, opts);
    assert!(one.iter().any(|(n, _)| n == "quant_report.json"));
    for threads in [2, 3] {
        let many = files_with(threads, model, opts);
        let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&one), names(&many), "{threads} threads");
        for ((name, a), (_, b)) in one.iter().zip(&many) {
            assert!(a == b, "{name} differs between 1 and {threads} threads");
        }
    }
}

#[test]
fn small_cnn_package_is_the_same_whatever_the_thread_count() {
    // three test-data sets: with 1 thread they run as 2 + 1
    let opts = CompileOptions::new(CalibSource::TestData(repo("tests/data/nnie_cnn_calib")));
    assert_same_across_threads(&repo("tests/data/nnie_cnn.onnx"), &opts);
}

#[test]
fn classifier_with_100_sets_and_labelled_eval_is_the_same_whatever_the_thread_count() {
    let data = repo("../../test/data/int8-classifiers");
    let mut opts = CompileOptions::new(CalibSource::Npy(data.join("calib")));
    opts.eval = Some(data.clone());
    assert_same_across_threads(&data.join("residual.onnx"), &opts);
}
