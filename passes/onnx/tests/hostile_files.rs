//! Hostile input files (issue 15, R13/R14): a FIFO or other non-regular file
//! named as the model, as a `.pb` tensor or as external data is refused
//! before it is opened (it used to block forever), and external data is read
//! as a slice (a 64 GiB sparse file used to be read whole).

mod common;

use common::*;
use onnc_onnx::onnc_proto::onnx::{StringStringEntryProto, TensorProto};
use onnc_onnx::onnc_proto::prost::Message;
use onnc_onnx::{load, read_tensor_pb, Options};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The campaign's reproducer: `Add(x, w)`, `w` = 8 floats in `weights.bin`.
fn r18_in(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/r18_external_weights.onnx");
    let dst = dir.join("r18_external_weights.onnx");
    std::fs::copy(src, &dst).unwrap();
    dst
}

fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `f` on a thread and fails the test if it does not return in 10 s
/// (a FIFO that is opened blocks forever).
fn within_10s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(Duration::from_secs(10))
        .expect("blocked: a FIFO was opened")
}

#[test]
fn r13_fifo_as_external_data_is_refused() {
    let d = scratch("hostile_fifo_ext");
    let model = r18_in(&d);
    if !mkfifo(&d.join("weights.bin")) {
        return;
    }
    let msg = within_10s(move || load(&model, &Options::default()).unwrap_err().to_string());
    assert!(
        msg.contains("'w'")
            && msg.contains("weights.bin")
            && msg.contains("a FIFO")
            && msg.contains("regular file"),
        "{msg}"
    );
}

#[test]
fn fifo_as_model_or_pb_is_refused() {
    let d = scratch("hostile_fifo_model");
    let (m, pb) = (d.join("m.onnx"), d.join("input_0.pb"));
    if !(mkfifo(&m) && mkfifo(&pb)) {
        return;
    }
    let (m2, pb2) = (m.clone(), pb.clone());
    let msg = within_10s(move || load(&m2, &Options::default()).unwrap_err().to_string());
    assert!(
        msg.contains(&m.display().to_string()) && msg.contains("a FIFO"),
        "{msg}"
    );
    let msg = within_10s(move || read_tensor_pb(&pb2).unwrap_err().to_string());
    assert!(
        msg.contains(&pb.display().to_string()) && msg.contains("a FIFO"),
        "{msg}"
    );
    let msg = load(&d, &Options::default()).unwrap_err().to_string();
    assert!(msg.contains("a directory"), "{msg}");
}

/// The reproducer as it was: no length, so the whole 64 GiB file would be
/// the tensor. Refused from the size alone, without reading it.
#[test]
fn r14_sparse_64_gib_without_length_is_refused_without_reading() {
    let d = scratch("hostile_sparse_whole");
    let model = r18_in(&d);
    let f = std::fs::File::create(d.join("weights.bin")).unwrap();
    if f.set_len(64 << 30).is_err() {
        return;
    }
    let t = Instant::now();
    let msg = load(&model, &Options::default()).unwrap_err().to_string();
    assert!(
        msg.contains("'w'") && msg.contains("68719476736 bytes") && msg.contains("needs 32"),
        "{msg}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// With `offset`/`length` naming 32 bytes at the end of the 64 GiB file,
/// only those 32 bytes are read.
#[test]
fn r14_sparse_64_gib_with_length_32_loads_the_slice() {
    let d = scratch("hostile_sparse_slice");
    let f = std::fs::File::create(d.join("weights.bin")).unwrap();
    if f.set_len(64 << 30).is_err() {
        return;
    }
    let kv = |k: &str, v: String| StringStringEntryProto {
        key: k.into(),
        value: v,
    };
    let w = TensorProto {
        name: "w".into(),
        dims: vec![8],
        data_type: 1,
        data_location: 1,
        external_data: vec![
            kv("location", "weights.bin".into()),
            kv("offset", ((64u64 << 30) - 32).to_string()),
            kv("length", "32".into()),
        ],
        ..Default::default()
    };
    let m = one_node(
        13,
        &[8],
        vec![w],
        node("a", "Add", &["x", "w"], &["y"], vec![]),
    );
    std::fs::write(d.join("m.onnx"), m.encode_to_vec()).unwrap();
    let t = Instant::now();
    let model = load(d.join("m.onnx"), &Options::default()).unwrap();
    assert_eq!(
        model.graph.initializer("w").unwrap().as_f32().unwrap(),
        &[0.0; 8]
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    // A length that does not match the tensor is refused before reading.
    let mut m2 = m.clone();
    let g = m2.graph.as_mut().unwrap();
    g.initializer[0].external_data[2].value = (1u64 << 36).to_string();
    g.initializer[0].external_data[1].value = "0".into();
    std::fs::write(d.join("m2.onnx"), m2.encode_to_vec()).unwrap();
    let msg = load(d.join("m2.onnx"), &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("68719476736 bytes at offset 0") && msg.contains("needs 32"),
        "{msg}"
    );
}
