//! Helpers of the integration tests: a seeded random source, small graphs,
//! a `.npy` writer, data folders, and the onnx package's light model zoo.

#![allow(dead_code)] // each test file uses a part

use std::path::{Path, PathBuf};

use onnc_onnx::{Graph, Node, ValueInfo};
use onnc_tensor::{Attr, Tensor};

/// xorshift64* with Box–Muller: reproducible samples.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
    pub fn f32s(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n)
            .map(|_| lo + (hi - lo) * self.uniform() as f32)
            .collect()
    }
}

pub fn vi(name: &str, dims: &[usize]) -> ValueInfo {
    ValueInfo::f32(name, dims)
}

/// A small CNN on `[1, 3, 8, 8]`: Conv(3→4, 3×3, pad 1) → Relu → Conv(4→4)
/// → Add (residual) → GlobalAveragePool → Flatten → Gemm(4→3), seeded weights.
pub fn tiny_cnn(seed: u64) -> Graph {
    let mut r = Rng::new(seed);
    let w1 = Tensor::from_f32(vec![4, 3, 3, 3], r.f32s(108, -0.5, 0.5)).unwrap();
    let b1 = Tensor::from_f32(vec![4], r.f32s(4, -0.1, 0.1)).unwrap();
    let w2 = Tensor::from_f32(vec![4, 4, 3, 3], r.f32s(144, -0.4, 0.4)).unwrap();
    let fc = Tensor::from_f32(vec![3, 4], r.f32s(12, -1.0, 1.0)).unwrap();
    let conv = |name: &str, ins: &[&str], out: &str| {
        Node::new(name, "Conv", ins, &[out])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
    };
    Graph {
        name: "tiny".into(),
        inputs: vec![vi("image", &[1, 3, 8, 8])],
        outputs: vec![vi("logits", &[1, 3])],
        initializers: vec![
            ("w1".into(), w1),
            ("b1".into(), b1),
            ("w2".into(), w2),
            ("fc".into(), fc),
        ],
        nodes: vec![
            conv("conv1", &["image", "w1", "b1"], "c1"),
            Node::new("relu1", "Relu", &["c1"], &["r1"]),
            conv("conv2", &["r1", "w2"], "c2"),
            Node::new("add", "Add", &["c2", "r1"], &["sum"]),
            Node::new("gap", "GlobalAveragePool", &["sum"], &["pooled"]),
            Node::new("flat", "Flatten", &["pooled"], &["flat"]).with_attr("axis", Attr::Int(1)),
            Node::new("fc", "Gemm", &["flat", "fc"], &["logits"]).with_attr("transB", Attr::Int(1)),
        ],
    }
}

/// A fresh empty folder under the system temp dir.
pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("onnc-calib-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `n` sets in the ONNX test-data layout for a one-input graph.
pub fn write_test_data(dir: &Path, input: &ValueInfo, n: usize, seed: u64) {
    let shape: Vec<usize> = input.dims.iter().map(|d| d.fixed().unwrap()).collect();
    let count = shape.iter().product();
    let mut r = Rng::new(seed);
    for k in 0..n {
        let set = dir.join(format!("test_data_set_{k}"));
        std::fs::create_dir_all(&set).unwrap();
        let t = Tensor::from_f32(shape.clone(), r.f32s(count, -1.0, 1.0)).unwrap();
        onnc_onnx::write_tensor_pb(set.join("input_0.pb"), &input.name, &t).unwrap();
    }
}

/// A `.npy` (format 1.0, little-endian) of `descr` (`<f4`, `<f8`) values.
pub fn write_npy(path: &Path, shape: &[usize], values: &[f64], descr: &str) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {tuple}, }}");
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((dict.len() as u16).to_le_bytes());
    bytes.extend(dict.as_bytes());
    for &v in values {
        match descr {
            "<f4" => bytes.extend((v as f32).to_le_bytes()),
            "<f8" => bytes.extend(v.to_le_bytes()),
            other => panic!("descr {other}"),
        }
    }
    std::fs::write(path, bytes).unwrap();
}

/// `.../onnx/backend/test/data/light` of the installed onnx package
/// (tools/bootstrap.sh installs it; a missing zoo fails, never skips).
pub fn zoo_dir() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}); run tools/bootstrap.sh"));
    let dir =
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("backend/test/data/light");
    assert!(
        dir.is_dir(),
        "the onnx package's light model zoo is missing ({}); run tools/bootstrap.sh",
        dir.display()
    );
    dir
}
