//! Emitter tests at real sizes: the nine ONNX light model-zoo nets
//! (legalize → lower → plan → emit → verify) on nv_full, the INT8
//! configurations on the nets that lower there, and hand-built programs
//! whose convolutions do not fit the convolution buffer (row bands), wide
//! poolings (PDP `split_num`), bindable views and per-point weights.
//!
//! In: the light nets from the installed `onnx` package (skipped with a note
//! when python3/onnx is missing) and programs built here. Out: assertions on
//! the loadables (both ABIs verify with no errors; band geometry; addresses);
//! with `--nocapture` the per-net table `tasks, DLA ops, EMU ops, bytes`.

use std::path::{Path, PathBuf};

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::emit::{emit, Abi, EmitOptions};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions};
use onnc_nvdla::{Config, ConfigName, Program};
use onnc_nvdla_loadable::verify::VerifyOptions;
use onnc_nvdla_loadable::{verify_with, Loadable, Severity};

fn zoo_dir() -> Option<PathBuf> {
    let out = std::process::Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim()).join("backend/test/data/light");
    dir.is_dir().then_some(dir)
}

fn zoo_paths() -> Option<Vec<PathBuf>> {
    let Some(dir) = zoo_dir() else {
        eprintln!("skipping: python3 with the onnx package not found");
        return None;
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 9, "the nine light nets in {}", dir.display());
    Some(paths)
}

fn net_name(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().replace("light_", "")
}

/// Legalize, lower and plan `path` for `config`; `None` when the net does not lower there.
fn planned(path: &Path, target: Target, config: ConfigName) -> Result<Program, String> {
    let g = onnc_onnx::load(path, &Default::default()).map_err(|e| format!("load: {e}"))?.graph;
    let g = legalize(g, target, &Options::default()).map_err(|e| format!("legalize: {e}"))?.graph;
    let mut p = lower(&g, config, &LowerOptions::default()).map_err(|e| format!("lower: {e}"))?;
    plan(&mut p, &PlanOptions::default()).map_err(|e| format!("plan: {e}"))?;
    Ok(p)
}

/// Error-severity violations of `l` under `abi` (atom of `config`).
fn errors(l: &Loadable, abi: Abi, config: ConfigName) -> Vec<String> {
    let opts = VerifyOptions {
        abi,
        atom_size: Config::get(config).mem_atom_bytes as u32,
    };
    verify_with(l, &opts)
        .into_iter()
        .filter(|v| v.severity == Severity::Error)
        .map(|v| v.to_string())
        .collect()
}

/// Emits `p` in both ABIs, re-reads the bytes, verifies; returns
/// `(tasks, dla ops, emu ops, bytes of the current-ABI loadable)`.
fn emit_and_verify(name: &str, p: &Program) -> (usize, usize, usize, usize) {
    let mut row = (0, 0, 0, 0);
    for abi in [Abi::Current, Abi::Legacy] {
        let l = emit(p, &EmitOptions { abi }).unwrap_or_else(|e| panic!("{name} ({abi:?}): emit: {e}"));
        let bytes = l.write();
        let back = Loadable::read(&bytes).unwrap_or_else(|e| panic!("{name} ({abi:?}): read back: {e}"));
        let errs = errors(&back, abi, p.config);
        assert!(errs.is_empty(), "{name} ({abi:?}): {} verifier errors, first: {:?}", errs.len(), &errs[..errs.len().min(5)]);
        if abi == Abi::Current {
            let (dla, emu) = op_counts(&back);
            row = (back.task_list.len(), dla, emu, bytes.len());
        }
    }
    row
}

/// DLA and EMU op counts, decoded from the task descriptors.
fn op_counts(l: &Loadable) -> (usize, usize) {
    use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
    let (mut dla, mut emu) = (0, 0);
    for t in &l.task_list {
        match task_descs(l, t, Abi::Current) {
            TaskDescs::Dla(d) => dla += d.ops.value.as_ref().map_or(0, Vec::len),
            TaskDescs::Emu(d) => emu += d.ops.value.as_ref().map_or(0, Vec::len),
            TaskDescs::Other(_) => {}
        }
    }
    (dla, emu)
}

#[test]
fn the_nine_light_nets_emit_and_verify_on_nv_full() {
    let Some(paths) = zoo_paths() else { return };
    println!("{:<14} {:>6} {:>8} {:>8} {:>12}", "net (nv_full)", "tasks", "DLA ops", "EMU ops", "bytes");
    let mut failures = Vec::new();
    for path in paths {
        let name = net_name(&path);
        let p = planned(&path, Target::NvFull, ConfigName::NvFull).unwrap_or_else(|e| panic!("{name}: {e}"));
        match std::panic::catch_unwind(|| emit_and_verify(&name, &p)) {
            Ok((tasks, dla, emu, bytes)) => println!("{name:<14} {tasks:>6} {dla:>8} {emu:>8} {bytes:>12}"),
            Err(e) => failures.push(e.downcast_ref::<String>().cloned().unwrap_or_default()),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

