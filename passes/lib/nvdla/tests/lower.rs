//! Lowering the light model-zoo nets (from the `onnx` Python package) and a
//! ResNet-18 for CIFAR-10 to NVDLA, with structural checks on the fusion.
//! Zoo tests skip (with a message) when Python or the package is missing.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::lower::{engine_counts, lower, LowerOptions};
use onnc_nvdla::{ConfigName, Engine, Program};

fn zoo_dir() -> Option<PathBuf> {
    let out = Command::new("python3").args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"]).output().ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim()).join("backend/test/data/light");
    dir.is_dir().then_some(dir)
}

fn lower_file(path: &std::path::Path, target: Target, config: ConfigName) -> Result<Program, onnc_nvdla::lower::LowerError> {
    let g = onnc_onnx::load(path, &Default::default()).unwrap().graph;
    let l = legalize(g, target, &Options::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    lower(&l.graph, config, &LowerOptions::default())
}

fn zoo(name: &str) -> Option<Program> {
    let Some(dir) = zoo_dir() else {
        eprintln!("skipping: python3 with the onnx package not found");
        return None;
    };
    let p = lower_file(&dir.join(format!("light_{name}.onnx")), Target::NvFull, ConfigName::NvFull).unwrap_or_else(|e| panic!("{name}: {e}"));
    let counts = engine_counts(&p);
    eprintln!("{name}: {:?} dla/emu {:?}", counts, p.op_counts());
    Some(p)
}

fn count(p: &Program, e: Engine) -> usize {
    engine_counts(p).get(&e).copied().unwrap_or(0)
}

#[test]
fn every_light_net_lowers_for_nv_full() {
    for n in ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50", "shufflenet", "squeezenet", "vgg19", "zfnet512"] {
        let Some(p) = zoo(n) else { return };
        let _ = BTreeMap::<u8, u8>::new();
        assert!(!p.ops.is_empty());
    }
}
