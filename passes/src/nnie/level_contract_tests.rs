//! The `nnie` level's attribute lists, written in three places, held to
//! one another: the IRDL file (each op's declared attributes; its header's
//! level attributes), the Rust reader ([`super::from_ir::required_attributes`],
//! [`super::package_attrs::FUNCTION_ATTRS`] and `PACKAGE_KEYS`) and
//! `docs/dialects/nnie.md` (the ops table's "Required attributes" column;
//! the function attribute table).

use super::from_ir::required_attributes;
use super::package_attrs::{FUNCTION_ATTRS, PACKAGE, PACKAGE_KEYS};
use onnc_dialects::schema::parse_irdl;
use std::collections::BTreeMap;

const IRDL: &str = include_str!("../../../dialects/nnie.irdl.mlir");
const DOC: &str = include_str!("../../../docs/dialects/nnie.md");

/// The backquoted names in `cell` (`` `a`, `b` `` → `[a, b]`).
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The docs' ops table: op name (without `nnie.`) → required attributes.
fn doc_ops() -> BTreeMap<String, Vec<String>> {
    DOC.lines()
        .filter(|l| l.starts_with("| `nnie.") && l.split(" | ").count() == 5)
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let op = ticked(cells[0])[0].trim_start_matches("nnie.").to_string();
            (op, ticked(cells[3]))
        })
        .collect()
}

/// `{a, [b], c}` → `[(a, true), (b, false), (c, true)]` (brackets: optional).
fn keys(braced: &str) -> Vec<(String, bool)> {
    let inner = braced
        .split_once('{')
        .and_then(|(_, r)| r.split_once('}'))
        .map_or("", |(i, _)| i);
    inner
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| match k.strip_prefix('[') {
            Some(k) => (k.trim_end_matches(']').to_string(), false),
            None => (k.to_string(), true),
        })
        .collect()
}

/// The IRDL header's level attributes: `(name, required, text after "required"/"optional")`.
fn irdl_function_attrs() -> Vec<(String, bool, String)> {
    let mut out: Vec<(String, bool, String)> = Vec::new();
    let header = IRDL.split("irdl.dialect @nnie").next().unwrap_or("");
    let block = header
        .split_once("// Level attributes")
        .map_or("", |(_, b)| b);
    for line in block.lines() {
        let body = line.trim_start_matches("//").trim();
        let mut words = body.split_whitespace();
        match (words.next(), words.next()) {
            (Some(name), Some(kind @ ("required" | "optional"))) if name.starts_with("nnie.") => {
                let rest = body.split_once(kind).map_or("", |(_, r)| r).to_string();
                out.push((name.to_string(), kind == "required", rest));
            }
            _ => {
                if let Some(last) = out.last_mut() {
                    last.2.push(' ');
                    last.2.push_str(body);
                }
            }
        }
    }
    out
}

/// The docs' function attribute table: `(name, required, holds)`.
fn doc_function_attrs() -> Vec<(String, bool, String)> {
    DOC.lines()
        .filter(|l| l.starts_with("| `nnie.") && l.split(" | ").count() == 3)
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (
                ticked(cells[0])[0].clone(),
                cells[1] == "yes",
                cells[2].to_string(),
            )
        })
        .collect()
}

#[test]
fn each_ops_required_attributes_agree_in_irdl_reader_and_docs() {
    let declared: BTreeMap<String, Vec<String>> = parse_irdl(IRDL)
        .into_iter()
        .map(|s| (s.name.trim_start_matches("nnie.").to_string(), s.attributes))
        .collect();
    assert_eq!(declared.len(), 18, "{declared:?}");
    let doc = doc_ops();
    assert_eq!(
        doc.keys().collect::<Vec<_>>(),
        declared.keys().collect::<Vec<_>>(),
        "docs/dialects/nnie.md's ops table lists other ops than the IRDL file"
    );
    for (op, attrs) in &declared {
        assert!(
            attrs.iter().any(|a| a == "tops"),
            "nnie.{op} declares no tops"
        );
        assert_eq!(
            required_attributes(op).map(<[String]>::to_vec).as_ref(),
            Some(attrs),
            "the reader's required attributes of nnie.{op}"
        );
        assert_eq!(&doc[op], attrs, "docs/dialects/nnie.md's row of nnie.{op}");
    }
}

#[test]
fn the_function_attributes_agree_in_irdl_header_reader_and_docs() {
    let reader: Vec<(String, bool)> = FUNCTION_ATTRS
        .iter()
        .map(|(k, r)| (k.to_string(), *r))
        .collect();
    let package_keys: Vec<(String, bool)> = PACKAGE_KEYS
        .iter()
        .map(|(k, r)| (k.to_string(), *r))
        .collect();
    for (place, attrs) in [
        ("dialects/nnie.irdl.mlir's header", irdl_function_attrs()),
        ("docs/dialects/nnie.md", doc_function_attrs()),
    ] {
        let names: Vec<(String, bool)> = attrs.iter().map(|(n, r, _)| (n.clone(), *r)).collect();
        assert_eq!(names, reader, "{place}: the level attributes");
        let (_, _, holds) = attrs
            .iter()
            .find(|(n, _, _)| n == PACKAGE)
            .expect("nnie.package is listed");
        assert_eq!(keys(holds), package_keys, "{place}: the keys of {PACKAGE}");
    }
}

/// One layer of every kind, calibrated as a compile leaves it (input clips
/// on quantized layers, a weight clip on layers with weights).
fn one_of_each_kind() -> Vec<onnc_nnie::frontend::Layer> {
    use onnc_nnie::frontend::{EltwiseOp, Layer, LayerKind as K};
    let hw = [1, 1];
    let kinds = [
        K::Conv {
            num_output: 4,
            kernel: hw,
            stride: hw,
            pad: [0, 0],
            dilation: hw,
            group: 1,
        },
        K::Deconv {
            num_output: 4,
            kernel: hw,
            stride: hw,
            pad: [0, 0],
            group: 1,
        },
        K::Fc { num_output: 4 },
        K::Pool {
            max: true,
            kernel: hw,
            stride: hw,
            pad: [0, 0],
            global: false,
        },
        K::Eltwise { op: EltwiseOp::Sum },
        K::Concat { axis: 1 },
        K::Upsample { scale: 2 },
        K::Relu {
            negative_slope: 0.0,
        },
        K::Softmax { axis: 1 },
        K::Reshape {
            shape: [0, -1, 1, 1],
        },
        K::Permute,
        K::Slice {
            axis: 1,
            start: 0,
            end: 1,
            len: 2,
        },
        K::Split {
            axis: 1,
            points: vec![1],
            tops: vec!["a".into(), "b".into()],
        },
        K::ChannelScale,
        K::Affine,
        K::Sigmoid,
        K::Tanh,
        K::Power {
            scale: 1.0,
            shift: 0.0,
            power: -0.5,
        },
    ];
    let clip = onnc_nnie::ClipValue::from_index(32).unwrap();
    kinds
        .into_iter()
        .map(|kind| {
            let mut l = Layer::new("l", "", kind, vec!["x".into()], "y");
            if l.is_quantized() {
                l.input_clips = vec![clip];
            }
            if l.has_weights() {
                l.weight_clip = Some(clip);
            }
            l
        })
        .collect()
}

#[test]
fn the_writer_writes_each_ops_declared_attributes() {
    let layers = one_of_each_kind();
    let ops: std::collections::BTreeSet<&str> = layers.iter().map(|l| l.dialect_op()).collect();
    assert_eq!(ops.len(), parse_irdl(IRDL).len(), "one layer per op");
    for l in &layers {
        let op = l.dialect_op().trim_start_matches("nnie.");
        // `tops` is written by the level's text writer (to_ir.rs), beside these.
        let mut written: Vec<&str> = onnc_nnie::frontend::dialect_attrs(l)
            .iter()
            .map(|(k, _)| *k)
            .chain(["tops"])
            .collect();
        let mut declared: Vec<&str> = required_attributes(op)
            .unwrap()
            .iter()
            .map(String::as_str)
            .collect();
        written.sort_unstable();
        declared.sort_unstable();
        assert_eq!(written, declared, "nnie.{op}");
    }
}
