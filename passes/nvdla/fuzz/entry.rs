//! The entry points shared by the `ctable` and `calibtable` cargo-fuzz
//! targets (`fuzz/fuzz_targets/`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`): included in both with `#[path]`, so the fuzzer
//! and the ordinary suite run exactly the same code.
//!
//! Both readers apply a JSON text to a [`Program`]; the program is fixed
//! (`data → conv1(+SDP) → pool1 → norm1 → flat → prob`, INT8, every
//! register-carrying engine but RUBIK/BDMA, plus a scale-preserving reshape)
//! and the fuzzer mutates the text.

#![allow(dead_code)] // each target uses one entry

use onnc_nvdla::ctable;
use onnc_nvdla::registers;
use onnc_nvdla::{ConfigName, Engine, Op, Precision, Program, Tensor, TensorKind, Value};

/// ONNC's CTable reader: `ctable::load` on the fixed program; on success the
/// regenerated table must load again (gen → load is a fixed point, so a
/// register value that cannot be written back as JSON is a bug).
pub fn ctable(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut p = program();
    if ctable::load(&mut p, &text, "fuzz.json").is_ok() {
        let again = ctable::gen(&p);
        let mut q = program();
        if let Err(e) = ctable::load(&mut q, &again, "gen.json") {
            panic!("a loaded table does not reload after gen: {e}\n{again}");
        }
    }
}

/// NVIDIA's calibtable reader: `ctable::load_nvidia_calibtable` on the fixed
/// program; on success the registers it set must survive gen → load.
pub fn calibtable(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut p = program();
    if ctable::load_nvidia_calibtable(&mut p, &text, "fuzz.json").is_ok() {
        let again = ctable::gen(&p);
        let mut q = program();
        if let Err(e) = ctable::load(&mut q, &again, "gen.json") {
            panic!("calibrated registers do not reload after gen: {e}\n{again}");
        }
    }
}

fn tensor(p: &mut Program, name: &str, shape: &[usize], kind: TensorKind) -> usize {
    p.add_tensor(Tensor {
        name: name.into(),
        shape: shape.to_vec(),
        precision: Precision::Int8,
        kind,
        place: None,
    })
}

fn op(p: &mut Program, engine: Engine, layer: &str, inputs: Vec<Option<usize>>, output: usize) {
    let mut attrs = registers::defaults(engine);
    match engine {
        Engine::Pdp => {
            attrs.insert("pool_width".into(), Value::Int(2));
            attrs.insert("stride_x".into(), Value::Int(2));
        }
        Engine::Emu => {
            attrs.insert("axis".into(), Value::Int(1));
        }
        _ => {}
    }
    p.ops.push(Op {
        engine,
        hw_layer: layer.into(),
        attrs,
        inputs,
        output,
        onnx_nodes: vec![layer.into()],
    });
}

/// `data → conv1(+SDP) → pool1 → norm1 → flat → prob`, all INT8 (the
/// program of `tests/ctable.rs`, plus a reshape).
pub fn program() -> Program {
    let mut p = Program::new(ConfigName::NvSmall);
    let x = tensor(&mut p, "data", &[1, 2, 4, 4], TensorKind::Input(0));
    let w = tensor(
        &mut p,
        "conv1_w",
        &[3, 2, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(vec![
            0.5, -1.27, 0.1, 0.2, 0.3, 0.4,
        ])),
    );
    let acc = tensor(&mut p, "conv1_acc", &[1, 3, 4, 4], TensorKind::Fused);
    let c1 = tensor(&mut p, "conv1", &[1, 3, 4, 4], TensorKind::Activation);
    let p1 = tensor(&mut p, "pool1", &[1, 3, 2, 2], TensorKind::Activation);
    let n1 = tensor(&mut p, "norm1", &[1, 3, 2, 2], TensorKind::Activation);
    let f1 = tensor(&mut p, "flat", &[1, 12, 1, 1], TensorKind::Activation);
    let y = tensor(&mut p, "prob", &[1, 12, 1, 1], TensorKind::Output(0));
    p.inputs = vec![x];
    p.outputs = vec![y];
    op(&mut p, Engine::Conv, "conv1", vec![Some(x), Some(w)], acc);
    op(
        &mut p,
        Engine::Sdp,
        "conv1",
        vec![Some(acc), None, None, None],
        c1,
    );
    op(&mut p, Engine::Pdp, "pool1", vec![Some(c1)], p1);
    op(&mut p, Engine::Cdp, "norm1", vec![Some(p1)], n1);
    op(&mut p, Engine::Reshape, "flat", vec![Some(n1)], f1);
    op(&mut p, Engine::Emu, "prob", vec![Some(f1)], y);
    p
}
