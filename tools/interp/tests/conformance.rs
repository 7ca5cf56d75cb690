//! ONNX backend conformance: runs every case of the test data shipped with
//! the `onnx` Python package (`backend/test/data/{node, pytorch-converted,
//! pytorch-operator, simple, light}`) whose operators the interpreter
//! supports, asserts each passes within tolerance, and writes
//! `conformance.md` (passing and skipped cases, with the reason for each skip).
//!
//! Data: `$ONNC_ONNX_TEST_DATA` (the `data` folder), else the installed
//! `onnx` package's. Recent `onnx` wheels do not ship `node/`;
//! `tools/bootstrap.sh` (→ `scripts/gen_onnx_node_data.py`) writes it. The
//! test fails, not skips, when the data is missing.
//!
//! Tolerances (numpy `assert_allclose` semantics, as the ONNX runner uses):
//! `rtol = 1e-3, atol = 1e-7` for every case (the ONNX runner's defaults),
//! except the `light` models, which use the runner's per-model values
//! (`rtol = 1e-3`, densenet121 `2e-3`; `atol = 1e-7`), and the inverse DFT
//! cases (`atol = 1e-5`: float32 FFT round-off in the reference) — see [`tolerance`].
//! f16 outputs allow `rtol = 2e-3` (two half-precision ulps). Integer and
//! bool outputs must match exactly.
//!
//! A case is skipped, with its reason recorded, when: the loader rejects the
//! model; it uses an operator without a kernel (or another domain); a
//! kernel rejects an element type outside the core scope (f32 compute;
//! int32/int64/bool for shapes and indices; see [`CORE`]) with
//! `Error::InputType`; the kernel reports `Error::Unsupported` (a valid ONNX
//! feature deliberately not implemented); or it is listed in [`KNOWN`].
//! Everything else must pass.

use onnc_interp::{is_supported, run_graph, Error, Tolerance};
use onnc_onnx::onnc_proto::onnx::ModelProto;
use onnc_onnx::{decode, read_tensor_pb, Model, Options, NEWEST_OPSETS};
use onnc_tensor::{DType, Tensor};
use prost::Message;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Folders of the ONNX backend test data, in report order.
const FOLDERS: &[&str] = &[
    "node",
    "pytorch-converted",
    "pytorch-operator",
    "simple",
    "light",
];

/// Element types every kernel must handle where ONNX allows them (f32
/// compute; int32/int64/bool for shapes and indices). Kernels may handle
/// more (elementwise ops take every numeric type); a kernel rejecting
/// another type with `Error::InputType` skips the case.
const CORE: &[DType] = &[DType::F32, DType::I64, DType::I32, DType::Bool];

/// Cases skipped on purpose, with the reason.
const KNOWN: &[(&str, &str)] = &[];

/// The tolerance for a case.
fn tolerance(folder: &str, case: &str) -> Tolerance {
    match (folder, case) {
        ("light", "densenet121") => Tolerance {
            rtol: 2e-3,
            atol: 1e-7,
        },
        // The reference inverse DFT runs a float32 FFT: entries that are
        // exactly 0 carry ~2e-6 of round-off next to values of ~15; the
        // interpreter's f64 sum gives ~0. atol 1e-7 cannot hold there.
        ("node", "test_dft_inverse" | "test_dft_inverse_opset19") => Tolerance {
            rtol: 1e-3,
            atol: 1e-5,
        },
        _ => Tolerance {
            rtol: 1e-3,
            atol: 1e-7,
        },
    }
}

thread_local! {
    /// The opset the last prepared model declared, when it was read as an older one.
    static CLAMPED: std::cell::Cell<Option<i64>> = const { std::cell::Cell::new(None) };
}

enum Outcome {
    Pass,
    Skip(String),
    Fail(String),
}

fn python_onnx() -> Option<(PathBuf, String)> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import onnx,os;print(os.path.dirname(onnx.__file__));print(onnx.__version__)",
        ])
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    let mut lines = s.lines();
    let dir = PathBuf::from(lines.next()?).join("backend/test/data");
    Some((dir, lines.next().unwrap_or("?").to_string()))
}

fn data_root() -> (PathBuf, String) {
    let found = match std::env::var_os("ONNC_ONNX_TEST_DATA") {
        Some(d) => Some((PathBuf::from(d), "from $ONNC_ONNX_TEST_DATA".to_string())),
        None => python_onnx(),
    };
    let hint =
        "run tools/bootstrap.sh (installs the onnx Python package and writes its node test data \
                with tools/interp/scripts/gen_onnx_node_data.py), or set ONNC_ONNX_TEST_DATA";
    let Some((dir, version)) = found else {
        panic!("ONNX backend test data not found: {hint}")
    };
    for f in FOLDERS {
        assert!(
            dir.join(f).is_dir(),
            "ONNX backend test data folder {} is missing: {hint}",
            dir.join(f).display()
        );
    }
    (dir, version)
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|it| it.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Loads the model. A default-domain opset newer than the loader's newest
/// ([`NEWEST_OPSETS`]) is read as that newest — the backend data declares
/// each operator's latest opset, and the kernels implement the latest
/// semantics — and the case is marked so in the report.
fn load_model(path: &Path) -> Result<(Model, Option<i64>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut proto = ModelProto::decode(&bytes[..]).map_err(|e| format!("not a ModelProto: {e}"))?;
    let newest = NEWEST_OPSETS
        .iter()
        .find(|(d, _)| d.is_empty())
        .map_or(i64::MAX, |&(_, v)| v);
    let mut clamped = None;
    for o in &mut proto.opset_import {
        if (o.domain.is_empty() || o.domain == "ai.onnx") && o.version > newest {
            clamped = Some(o.version);
            o.version = newest;
        }
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let model = decode(&proto.encode_to_vec(), base, &Options::default())
        .map_err(|e| format!("the loader rejects the model: {e}"))?;
    Ok((model, clamped))
}

/// Loads the model and checks operators and types; `Err` is a skip reason.
fn prepare(path: &Path) -> Result<Model, String> {
    let (model, clamped) = load_model(path)?;
    if let Some(v) = clamped {
        CLAMPED.with(|c| c.set(Some(v)));
    }
    let mut missing = BTreeSet::new();
    for n in &model.graph.nodes {
        if !(n.domain.is_empty() || n.domain == "ai.onnx") {
            missing.insert(format!("{}::{}", n.domain, n.op_type));
        } else if !is_supported(&n.op_type) {
            missing.insert(n.op_type.clone());
        }
    }
    if !missing.is_empty() {
        return Err(format!(
            "unsupported op: {}",
            missing.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(model)
}

/// Runs one data set and compares.
fn run_set(
    model: &Model,
    inputs: Vec<(String, Tensor)>,
    expected: &[Tensor],
    tol: Tolerance,
) -> Outcome {
    // Feed by the file's name when it names a graph input, else by position.
    let feed: Vec<(String, Tensor)> = inputs
        .into_iter()
        .enumerate()
        .filter_map(|(i, (name, t))| {
            if model.graph.inputs.iter().any(|v| v.name == name) {
                Some((name, t))
            } else {
                model.graph.inputs.get(i).map(|v| (v.name.clone(), t))
            }
        })
        .collect();
    let got = match run_graph(&model.graph, &feed) {
        Ok(v) => v,
        Err(e) => {
            let inner = match &e {
                Error::Node { source, .. } => source.as_ref(),
                other => other,
            };
            return match inner {
                Error::Unsupported { .. } => Outcome::Skip(format!("not implemented: {e}")),
                Error::InputType { actual, .. } if !CORE.contains(actual) => {
                    Outcome::Skip(format!("element type outside the kernel's scope: {e}"))
                }
                _ => Outcome::Fail(format!("error: {e}")),
            };
        }
    };
    if got.len() != expected.len() {
        return Outcome::Fail(format!(
            "{} outputs, expected {}",
            got.len(),
            expected.len()
        ));
    }
    for (k, ((name, a), e)) in got.iter().zip(expected).enumerate() {
        let t = match e.dtype() {
            // Half precision has an 11-bit significand (ulp 2^-10 ≈ 9.8e-4
            // relative): allow 2 ulps for graphs that round at every op.
            DType::F16 => Tolerance {
                rtol: tol.rtol.max(2e-3),
                atol: tol.atol,
            },
            d if d.is_float() => tol,
            _ => Tolerance::EXACT,
        };
        if let Err(m) = t.check(e, a) {
            return Outcome::Fail(format!("output {k} `{name}`: {m}"));
        }
    }
    Outcome::Pass
}

/// A data set: named inputs and expected outputs.
type DataSet = (Vec<(String, Tensor)>, Vec<Tensor>);

fn read_set(dir: &Path) -> Result<DataSet, String> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for k in 0.. {
        let p = dir.join(format!("input_{k}.pb"));
        if !p.exists() {
            break;
        }
        inputs.push(read_tensor_pb(&p).map_err(|e| format!("test data: {e}"))?);
    }
    for k in 0.. {
        let p = dir.join(format!("output_{k}.pb"));
        if !p.exists() {
            break;
        }
        outputs.push(read_tensor_pb(&p).map_err(|e| format!("test data: {e}"))?.1);
    }
    Ok((inputs, outputs))
}

/// A case in the `model.onnx` + `test_data_set_*` layout.
fn run_dir_case(folder: &str, dir: &Path) -> Outcome {
    let name = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let model = match prepare(&dir.join("model.onnx")) {
        Ok(m) => m,
        Err(why) => return Outcome::Skip(why),
    };
    let sets: Vec<PathBuf> = sorted_dirs(dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))
        })
        .collect();
    if sets.is_empty() {
        return Outcome::Skip("no test data sets".into());
    }
    for set in sets {
        let (inputs, expected) = match read_set(&set) {
            Ok(v) => v,
            Err(why) => return Outcome::Skip(why),
        };
        match run_set(&model, inputs, &expected, tolerance(folder, &name)) {
            Outcome::Pass => {}
            other => return other,
        }
    }
    Outcome::Pass
}

/// A `light` model: `light_<name>.onnx` and `light_<name>_output_0.pb`;
/// inputs are `arange(n) / n` in the input's shape, as the ONNX runner makes them.
fn run_light_case(model_path: &Path, name: &str) -> Outcome {
    let model = match prepare(model_path) {
        Ok(m) => m,
        Err(why) => return Outcome::Skip(why),
    };
    let mut feed = Vec::new();
    for v in &model.graph.inputs {
        let shape: Vec<usize> = v.dims.iter().map(|d| d.fixed().unwrap_or(1)).collect();
        let n: usize = shape.iter().product();
        let data = (0..n).map(|i| (i as f64 / n as f64) as f32).collect();
        feed.push((
            v.name.clone(),
            Tensor::from_f32(shape, data).expect("arange fits its shape"),
        ));
    }
    let dir = model_path.parent().expect("light models sit in a folder");
    let mut expected = Vec::new();
    for k in 0..model.graph.outputs.len() {
        match read_tensor_pb(dir.join(format!("light_{name}_output_{k}.pb"))) {
            Ok((_, t)) => expected.push(t),
            Err(e) => return Outcome::Skip(format!("test data: {e}")),
        }
    }
    run_set(&model, feed, &expected, tolerance("light", name))
}

fn cases(root: &Path, folder: &str) -> Vec<(String, Box<dyn Fn() -> Outcome>)> {
    let dir = root.join(folder);
    let mut v: Vec<(String, Box<dyn Fn() -> Outcome>)> = Vec::new();
    if folder == "light" {
        for p in sorted_dirs(&dir) {
            let file = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            if let Some(name) = file
                .strip_prefix("light_")
                .and_then(|f| f.strip_suffix(".onnx"))
            {
                let name = name.to_string();
                v.push((name.clone(), Box::new(move || run_light_case(&p, &name))));
            }
        }
    } else {
        for p in sorted_dirs(&dir).into_iter().filter(|p| p.is_dir()) {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            let folder = folder.to_string();
            v.push((name, Box::new(move || run_dir_case(&folder, &p))));
        }
    }
    v
}

#[test]
fn onnx_backend_conformance() {
    let (root, version) = data_root();
    let only = std::env::var("ONNC_CONFORMANCE_FILTER").ok();
    let mut report = String::new();
    let mut summary = String::new();
    let mut failures = Vec::new();
    for folder in FOLDERS {
        let (mut pass, mut skip, mut fail) = (Vec::new(), Vec::new(), Vec::new());
        for (name, run) in cases(&root, folder) {
            if only.as_deref().is_some_and(|f| !name.contains(f)) {
                continue;
            }
            CLAMPED.with(|c| c.set(None));
            let outcome = match KNOWN.iter().find(|(n, _)| *n == name) {
                Some((_, why)) => Outcome::Skip(why.to_string()),
                None => std::panic::catch_unwind(std::panic::AssertUnwindSafe(&run))
                    .unwrap_or_else(|_| Outcome::Fail("panicked".into())),
            };
            match outcome {
                Outcome::Pass => match CLAMPED.with(|c| c.get()) {
                    Some(v) => pass.push(format!(
                        "{name}` (opset {v} read as {})",
                        NEWEST_OPSETS[0].1
                    )),
                    None => pass.push(format!("{name}`")),
                },
                Outcome::Skip(why) => skip.push((name, why)),
                Outcome::Fail(why) => {
                    failures.push(format!("{folder}/{name}: {why}"));
                    fail.push((name, why));
                }
            }
        }
        writeln!(
            summary,
            "| {folder} | {} | {} | {} |",
            pass.len(),
            skip.len(),
            fail.len()
        )
        .unwrap();
        writeln!(report, "\n## {folder}\n").unwrap();
        if !fail.is_empty() {
            writeln!(report, "### Failing ({})\n", fail.len()).unwrap();
            for (n, why) in &fail {
                writeln!(report, "- `{n}` — {}", why.replace('\n', " ")).unwrap();
            }
            writeln!(report).unwrap();
        }
        writeln!(report, "### Passing ({})\n", pass.len()).unwrap();
        for n in &pass {
            writeln!(report, "- `{n}").unwrap();
        }
        writeln!(report, "\n### Skipped ({})\n", skip.len()).unwrap();
        for (n, why) in &skip {
            writeln!(report, "- `{n}` — {}", why.replace('\n', " ")).unwrap();
        }
    }
    if only.is_none() {
        let doc = format!(
            "# onnc-interp — ONNX backend conformance\n\n\
             Generated by `tools/interp/tests/conformance.rs` from the backend test data of \
             onnx {version} — edit the test, not this file.\n\n\
             Tolerances: `|actual − expected| ≤ atol + rtol·|expected|` with rtol = 1e-3, atol = 1e-7 \
             (the ONNX runner's defaults; light densenet121: rtol = 2e-3; test_dft_inverse*: atol = 1e-5, float32 FFT round-off in the reference; f16 outputs: rtol = 2e-3, two half-precision ulps); integer and bool outputs exact.\n\n\
             A case is skipped when the loader (`onnc-onnx`) rejects the model, an operator has no kernel, \
             a kernel rejects an element type outside f32/int32/int64/bool (`Error::InputType`), or a kernel \
             reports a deliberately unimplemented feature (`Error::Unsupported`). Models declaring a newer \
             default-domain opset than the loader's newest are read as that newest (marked \"read as\").\n\n\
             | folder | pass | skip | fail |\n|---|---|---|---|\n{summary}{report}"
        );
        // The report lives with the project's docs (docs/conformance.md).
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/conformance.md");
        if let Err(e) = std::fs::write(&path, doc) {
            eprintln!("note: could not write {}: {e}", path.display());
        }
    }
    eprintln!("| folder | pass | skip | fail |\n{summary}");
    assert!(
        failures.is_empty(),
        "{} conformance failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
