//! The output directory: file names, the test-vector files, and the atomic write.
//!
//! In: the engine's text files ([`crate::emit::bundle`]) and the
//! [`TestVectors`]. Out: [`GeneratedFile`]s (name + bytes) and
//! [`write_dir_atomic`], which builds the directory beside the target and
//! renames it into place, so the target is never half written.
//!
//! Test-vector files (when made):
//! * `input_0.bin`, `expected_output_0.bin`: raw little-endian f32, row-major
//!   (NCHW), no header; shapes and names in `test_vectors.json`;
//! * `input_0.hex`: the input's data-RAM image (see [`super::vectors`]);
//! * `test_vectors.json`: `{"seed", "aprec", "input": {"name", "shape", "file", "ram_image"},
//!   "expected_output": {"name", "shape", "file"}, "computed": "..."}`.
//!
//! ```
//! use onnc_mvu::frontend::GeneratedFile;
//! let f = GeneratedFile { name: "a.txt".into(), bytes: b"x\n".to_vec() };
//! assert_eq!(f.name, "a.txt");
//! ```

use std::path::{Path, PathBuf};

use super::vectors::TestVectors;
use super::CompileOptions;
use crate::emit::OutputFile;
use crate::error::Error;

/// Test input, raw f32.
pub const INPUT_BIN: &str = "input_0.bin";
/// Test input as a data-RAM image.
pub const INPUT_HEX: &str = "input_0.hex";
/// Expected output, raw f32.
pub const EXPECTED_OUTPUT_BIN: &str = "expected_output_0.bin";
/// Description of the test vectors.
pub const TEST_VECTORS_JSON: &str = "test_vectors.json";

/// One output file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// File name (no directory).
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl From<OutputFile> for GeneratedFile {
    fn from(f: OutputFile) -> Self {
        GeneratedFile {
            name: f.name,
            bytes: f.contents.into_bytes(),
        }
    }
}

fn f32_bytes(t: &onnc_tensor::Tensor) -> Vec<u8> {
    t.cast(onnc_tensor::DType::F32).to_le_bytes()
}

/// The four test-vector files.
pub fn vector_files(v: &TestVectors, opts: &CompileOptions) -> Vec<GeneratedFile> {
    let desc = serde_json::json!({
        "seed": opts.seed,
        "aprec": opts.aprec,
        "input": {"name": v.input_name, "shape": v.input.shape(), "dtype": "f32le", "file": INPUT_BIN, "ram_image": INPUT_HEX},
        "expected_output": {"name": v.output_name, "shape": v.output.shape(), "dtype": "f32le", "file": EXPECTED_OUTPUT_BIN},
        "computed": "input: integer codes uniform in 0..=2^aprec-1 (ChaCha8, seed); expected_output: onnc-interp on the \
                     graph with every layer's weights replaced by q*scale (the .hex integers times their scales), \
                     biases and ReLUs as in the graph, activations not re-quantized between layers",
    });
    let mut ram = String::new();
    for l in &v.input_lines {
        ram.push_str(l);
        ram.push('\n');
    }
    vec![
        GeneratedFile {
            name: INPUT_BIN.into(),
            bytes: f32_bytes(&v.input),
        },
        GeneratedFile {
            name: INPUT_HEX.into(),
            bytes: ram.into_bytes(),
        },
        GeneratedFile {
            name: EXPECTED_OUTPUT_BIN.into(),
            bytes: f32_bytes(&v.output),
        },
        GeneratedFile {
            name: TEST_VECTORS_JSON.into(),
            bytes: format!(
                "{}\n",
                serde_json::to_string_pretty(&desc).unwrap_or_default()
            )
            .into_bytes(),
        },
    ]
}

/// Writes `files` into `dir`, replacing it as a whole; returns the final
/// paths. The rules are onnc-io's (`onnc_io::write_dir`): an existing
/// directory is replaced only when it is empty or an earlier MVU output
/// (it holds `mvu_config.json`); nothing is left behind on failure.
pub fn write_dir_atomic(dir: &Path, files: &[GeneratedFile]) -> Result<Vec<PathBuf>, Error> {
    let files: Vec<onnc_io::DirFile> = files
        .iter()
        .map(|f| onnc_io::DirFile {
            name: f.name.clone(),
            bytes: f.bytes.clone(),
        })
        .collect();
    onnc_io::write_dir(dir, crate::emit::CONFIG_JSON, &files).map_err(|e| match e {
        onnc_io::Error::Io { path, source } => Error::Io {
            path,
            source: source.into(),
        },
        onnc_io::Error::Refused { path, why } | onnc_io::Error::Unreadable { path, why } => {
            Error::Io {
                path,
                source: std::io::Error::other(why).into(),
            }
        }
    })
}
