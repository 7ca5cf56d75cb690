//! The `mvu` level's text round trip on the fixtures of `passes/mvu/tests/data`
//! at 2, 4 and 8 bits: write → read gives the same configuration and
//! test-vector files, and write → read → write the same text.

use super::{convert, from_ir::module_from_func};
use crate::onnx::functions::functions;
use crate::pipeline::{text, Diags, Manager, Module, MvuModule};
use onnc_dialects::{ir, verify};

fn fixtures() -> Vec<std::path::PathBuf> {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/mvu/tests/data");
    let mut v = vec![std::path::Path::new(data).join("simple_conv.onnx")];
    let mut plain: Vec<_> = std::fs::read_dir(format!("{data}/plain"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    plain.sort();
    v.extend(plain);
    v
}

/// The mvu level of `model` at `bits` everywhere, with test vectors; `None`
/// when the network does not compile at that precision.
fn level(model: &std::path::Path, bits: u32) -> Option<MvuModule> {
    let m = onnc_onnx::load(model, &onnc_onnx::Options::default()).unwrap();
    let mut module = Module::Onnx(m.graph);
    let mut diags = Diags::new();
    Manager::new()
        .add("t", "onnx-simplify,onnc-legalize{target=mvu}")
        .unwrap()
        .run(&mut module, &mut diags, |_, _, _| Ok(()))
        .ok()?;
    let opts = onnc_mvu::CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        ..Default::default()
    };
    convert::with_options(opts)
        .run(&mut module, &mut diags)
        .ok()?;
    match module {
        Module::Mvu(m) => Some(m),
        _ => None,
    }
}

fn print(context: &melior::Context, m: &MvuModule) -> Result<String, Vec<String>> {
    text::print(context, &Module::Mvu(m.clone()), "t.onnx")
}

fn read(context: &melior::Context, text: &str) -> MvuModule {
    let parsed = ir::parse_module_bytes(context, text.as_bytes(), "t.mlir").unwrap();
    assert!(verify::verify_module(&parsed), "the printed level verifies");
    let funcs = functions(&parsed.as_operation());
    assert_eq!(funcs.len(), 1);
    module_from_func(&funcs[0])
        .map_err(|e| e.into_iter().map(|(_, m)| m).collect::<Vec<_>>())
        .unwrap()
}

#[test]
fn text_round_trip_keeps_every_file_and_the_text() {
    // A fresh context for each print: resource blob names are unique per context.
    let fresh = || ir::new_context().unwrap();
    let mut checked = 0;
    for model in fixtures() {
        for bits in [2, 4, 8] {
            let Some(m) = level(&model, bits) else {
                continue;
            };
            let name = format!("{} at {bits} bits", model.display());
            // A register beyond its dialect field: the level has no text form
            // (convert-onnx-to-mvu refuses it in onnc-opt).
            let Ok(t) = print(&fresh(), &m) else {
                continue;
            };
            let back = read(&fresh(), &t);
            assert!(
                back.compiled.vectors().is_some(),
                "{name}: test vectors carried"
            );
            assert_eq!(back.input, m.input, "{name}");
            assert_eq!(back.compiled.table(), m.compiled.table(), "{name}");
            let names = |m: &MvuModule| -> Vec<String> {
                m.compiled.files().iter().map(|f| f.name.clone()).collect()
            };
            assert_eq!(names(&back), names(&m), "{name}");
            for (a, b) in back.compiled.files().iter().zip(m.compiled.files()) {
                assert!(a.bytes == b.bytes, "{name}: {} differs", a.name);
            }
            assert!(
                print(&fresh(), &back).unwrap() == t,
                "{name}: the text changed"
            );
            checked += 1;
        }
    }
    // simple_conv and the plain CNNs that compile, at three precisions.
    assert!(checked >= 20, "only {checked} networks compiled");
}
