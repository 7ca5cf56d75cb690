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

use super::error::CompileError;
use super::vectors::TestVectors;
use super::CompileOptions;
use crate::emit::OutputFile;

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
        GeneratedFile { name: f.name, bytes: f.contents.into_bytes() }
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
        GeneratedFile { name: INPUT_BIN.into(), bytes: f32_bytes(&v.input) },
        GeneratedFile { name: INPUT_HEX.into(), bytes: ram.into_bytes() },
        GeneratedFile { name: EXPECTED_OUTPUT_BIN.into(), bytes: f32_bytes(&v.output) },
        GeneratedFile {
            name: TEST_VECTORS_JSON.into(),
            bytes: format!("{}\n", serde_json::to_string_pretty(&desc).unwrap_or_default()).into_bytes(),
        },
    ]
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CompileError + '_ {
    move |source| CompileError::Io { path: path.to_path_buf(), source }
}

/// A sibling of `dir` named `.<dir name>.<what>-<pid>`.
fn sibling(dir: &Path, what: &str) -> PathBuf {
    let name = dir.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    dir.with_file_name(format!(".{name}.{what}-{}", std::process::id()))
}

fn write_all(tmp: &Path, files: &[GeneratedFile]) -> Result<(), CompileError> {
    std::fs::create_dir_all(tmp).map_err(io(tmp))?;
    for f in files {
        let p = tmp.join(&f.name);
        std::fs::write(&p, &f.bytes).map_err(io(&p))?;
    }
    Ok(())
}

/// `dir` may be replaced: an empty directory or an earlier output.
fn is_replaceable(dir: &Path) -> bool {
    dir.is_dir()
        && (dir.join(crate::emit::CONFIG_JSON).is_file()
            || std::fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(false))
}

/// Writes `files` into `dir`, replacing it as a whole; returns the final paths.
pub fn write_dir_atomic(dir: &Path, files: &[GeneratedFile]) -> Result<Vec<PathBuf>, CompileError> {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let tmp = sibling(dir, "tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    if let Err(e) = write_all(&tmp, files) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = sibling(dir, "old");
    let had_old = dir.exists();
    if had_old && !is_replaceable(dir) {
        let _ = std::fs::remove_dir_all(&tmp);
        let e = std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "exists and is neither empty nor an earlier MVU output (no mvu_config.json); choose a new or empty directory",
        );
        return Err(io(dir)(e));
    }
    if had_old {
        let _ = std::fs::remove_dir_all(&old);
        if let Err(e) = std::fs::rename(dir, &old) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(io(dir)(e));
        }
    }
    if let Err(e) = std::fs::rename(&tmp, dir) {
        if had_old {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(io(dir)(e));
    }
    if had_old {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(files.iter().map(|f| dir.join(&f.name)).collect())
}
