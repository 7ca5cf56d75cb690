//! The quality report (`quant_report.json`'s content) as the function
//! attribute `nnie.quant_report`, and back.
//!
//! In (writing): a [`QuantReport`]. Out: the attribute
//!
//! ```text
//! {outputs = [{name = "y", elements = 40 : i64, cosine = 9.9990000000000001E-1 : f64,
//!              max_abs_err = .. : f64, max_rel_err = .. : f64, rmse = .. : f64}, ...],
//!  layers = [{name = "conv1", elements = .., ...}, ...],               (when there are some)
//!  accuracy = {samples = 10 : i64, float_correct = .., nnie_correct = .., agree = ..}}  (when measured)
//! ```
//!
//! Outputs are listed in name order (the report's map order), layers in
//! report order. Metrics are `f64` float attributes: MLIR prints a value
//! that does not read back from decimal (NaN, ±infinity) in hex
//! (`0x7FF8000000000000 : f64`), so every metric — non-finite ones
//! included — reads back bit for bit, which JSON text (where NaN is
//! `null`) cannot do. Back (reading): the same report, or a message naming
//! the entry and field that is missing or ill-typed.

use super::package_attrs::{dict, int};
use melior::ir::{
    attribute::{ArrayAttribute, DictionaryAttribute, FloatAttribute, StringAttribute},
    Attribute, Type,
};
use onnc_dialects::ir;
use onnc_nnie::frontend::Accuracy;
use onnc_nnie::{Quality, QuantReport};

/// The fields of one metrics entry besides its name, in print order.
const METRICS: [&str; 5] = ["elements", "cosine", "max_abs_err", "max_rel_err", "rmse"];

fn float(context: &melior::Context, v: f64) -> Attribute<'_> {
    FloatAttribute::new(context, Type::float64(context), v).into()
}

fn entry<'c>(context: &'c melior::Context, name: &str, q: &Quality) -> Attribute<'c> {
    dict(
        context,
        vec![
            ("name", StringAttribute::new(context, name).into()),
            ("elements", int(context, q.elements as i64)),
            ("cosine", float(context, q.cosine)),
            ("max_abs_err", float(context, q.max_abs_err)),
            ("max_rel_err", float(context, q.max_rel_err)),
            ("rmse", float(context, q.rmse)),
        ],
    )
}

/// The attribute for `report` (see the module doc).
pub fn write<'c>(context: &'c melior::Context, report: &QuantReport) -> Attribute<'c> {
    let outputs: Vec<Attribute> = report
        .outputs
        .iter()
        .map(|(name, q)| entry(context, name, q))
        .collect();
    let mut fields = vec![("outputs", ArrayAttribute::new(context, &outputs).into())];
    if !report.layers.is_empty() {
        let layers: Vec<Attribute> = report
            .layers
            .iter()
            .map(|l| entry(context, &l.name, &l.quality))
            .collect();
        fields.push(("layers", ArrayAttribute::new(context, &layers).into()));
    }
    if let Some(a) = &report.accuracy {
        let count = |v: usize| int(context, v as i64);
        fields.push((
            "accuracy",
            dict(
                context,
                vec![
                    ("samples", count(a.samples)),
                    ("float_correct", count(a.float_correct)),
                    ("nnie_correct", count(a.nnie_correct)),
                    ("agree", count(a.agree)),
                ],
            ),
        ));
    }
    dict(context, fields)
}

/// A non-negative integer field `k` of `d`; `what` names `d` in messages.
fn count(d: &DictionaryAttribute, k: &str, what: &str) -> Result<usize, String> {
    d.element_by_name(k)
        .and_then(ir::int_attr)
        .and_then(|(v, _)| usize::try_from(v).ok())
        .ok_or(format!("{what} has no non-negative integer '{k}'"))
}

/// A float field `k` of `d`, exactly as stored.
fn metric(d: &DictionaryAttribute, k: &str, what: &str) -> Result<f64, String> {
    d.element_by_name(k)
        .and_then(ir::float_attr)
        .ok_or(format!("{what} has no float '{k}'"))
}

/// One `{name, elements, cosine, ...}` entry of list `list`, index `i`.
fn read_entry(a: Attribute, list: &str, i: usize) -> Result<(String, Quality), String> {
    let what = format!("{list}[{i}]");
    let d = DictionaryAttribute::try_from(a).map_err(|_| {
        format!(
            "{what} is not a dictionary {{name, {}}}",
            METRICS.join(", ")
        )
    })?;
    let name = d
        .element_by_name("name")
        .and_then(ir::str_attr)
        .ok_or(format!("{what} has no string 'name'"))?;
    let q = Quality {
        elements: count(&d, "elements", &what)?,
        cosine: metric(&d, "cosine", &what)?,
        max_abs_err: metric(&d, "max_abs_err", &what)?,
        max_rel_err: metric(&d, "max_rel_err", &what)?,
        rmse: metric(&d, "rmse", &what)?,
    };
    Ok((name, q))
}

/// The entries of list `k` of `d` (absent: none, unless `required`).
fn entries(
    d: &DictionaryAttribute,
    k: &str,
    required: bool,
) -> Result<Vec<(String, Quality)>, String> {
    let Some(a) = d.element_by_name(k) else {
        return if required {
            Err(format!("it has no '{k}' list"))
        } else {
            Ok(Vec::new())
        };
    };
    let arr = ArrayAttribute::try_from(a).map_err(|_| format!("'{k}' is not a list"))?;
    (0..arr.len())
        .map(|i| {
            let e = arr.element(i).map_err(|e| e.to_string())?;
            read_entry(e, k, i)
        })
        .collect()
}

/// The report `a` holds (see the module doc); Err names what is wrong.
pub fn read(a: Attribute) -> Result<QuantReport, String> {
    let d = DictionaryAttribute::try_from(a)
        .map_err(|_| "it is not a dictionary {outputs, [layers], [accuracy]}".to_string())?;
    let mut report = QuantReport::default();
    for (name, q) in entries(&d, "outputs", true)? {
        if report.outputs.insert(name.clone(), q).is_some() {
            return Err(format!("output '{name}' is listed twice"));
        }
    }
    for (name, q) in entries(&d, "layers", false)? {
        report.push(&name, q);
    }
    if let Some(a) = d.element_by_name("accuracy") {
        let a = DictionaryAttribute::try_from(a).map_err(|_| {
            "'accuracy' is not a dictionary {samples, float_correct, nnie_correct, agree}"
                .to_string()
        })?;
        report.accuracy = Some(Accuracy {
            samples: count(&a, "samples", "'accuracy'")?,
            float_correct: count(&a, "float_correct", "'accuracy'")?,
            nnie_correct: count(&a, "nnie_correct", "'accuracy'")?,
            agree: count(&a, "agree", "'accuracy'")?,
        });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{operation::OperationLike, Location, Module};

    fn quality(cosine: f64, max_abs_err: f64, max_rel_err: f64, rmse: f64) -> Quality {
        Quality {
            elements: 12,
            cosine,
            max_abs_err,
            max_rel_err,
            rmse,
        }
    }

    /// The bits of every metric, in report order.
    fn bits(r: &QuantReport) -> Vec<(String, usize, [u64; 4])> {
        let row = |n: &str, q: &Quality| {
            let m = [q.cosine, q.max_abs_err, q.max_rel_err, q.rmse].map(f64::to_bits);
            (n.to_string(), q.elements, m)
        };
        r.outputs
            .iter()
            .map(|(n, q)| row(n, q))
            .chain(r.layers.iter().map(|l| row(&l.name, &l.quality)))
            .collect()
    }

    /// `report` written on a module, printed, parsed in a fresh context and read.
    fn through_text(report: &QuantReport) -> (String, QuantReport) {
        let context = ir::new_context().unwrap();
        let module = Module::new(Location::unknown(&context));
        ir::set_attribute(
            &module.as_operation(),
            "nnie.quant_report",
            write(&context, report),
        );
        let text = ir::print_op(&module.as_operation(), &Default::default());
        let context = ir::new_context().unwrap();
        let parsed = ir::parse_module(&context, &text, "report.mlir").expect("parses");
        let a = parsed
            .as_operation()
            .attribute("nnie.quant_report")
            .expect("the attribute is printed");
        (text, read(a).expect("reads back"))
    }

    #[test]
    fn nan_and_infinities_survive_write_parse_read() {
        let mut report = QuantReport::default();
        report.set_output("y", quality(f64::NAN, f64::INFINITY, 0.25, 1e-300));
        report.set_output("a", quality(0.999_999_9, 0.1, f64::NEG_INFINITY, -0.0));
        report.push(
            "conv1",
            quality(-f64::NAN, 3.0, f64::INFINITY, f64::MIN_POSITIVE),
        );
        report.accuracy = Some(Accuracy {
            samples: 10,
            float_correct: 9,
            nnie_correct: 8,
            agree: 7,
        });
        let (text, back) = through_text(&report);
        assert!(text.contains("0x7FF8000000000000 : f64"), "{text}");
        assert!(text.contains("0x7FF0000000000000 : f64"), "{text}");
        assert!(text.contains("0xFFF0000000000000 : f64"), "{text}");
        assert_eq!(bits(&back), bits(&report));
        assert_eq!(back.accuracy, report.accuracy);
        // JSON text would not have carried them: NaN and infinity become null.
        assert!(QuantReport::from_json(&report.to_json()).is_err());
    }

    #[test]
    fn an_empty_report_round_trips() {
        let (text, back) = through_text(&QuantReport::default());
        assert!(
            text.contains("nnie.quant_report = {outputs = []}"),
            "{text}"
        );
        assert_eq!(back, QuantReport::default());
    }

    #[test]
    fn bad_entries_are_named() {
        let context = ir::new_context().unwrap();
        let cases = [
            ("{layers = []}", "it has no 'outputs' list"),
            (
                "{outputs = [{name = \"y\", elements = 1 : i64, cosine = 1.0 : f64, max_abs_err = 0.0 : f64, max_rel_err = 0.0 : f64}]}",
                "outputs[0] has no float 'rmse'",
            ),
            (
                "{outputs = [{name = \"y\", elements = -1 : i64, cosine = 1.0 : f64, max_abs_err = 0.0 : f64, max_rel_err = 0.0 : f64, rmse = 0.0 : f64}]}",
                "outputs[0] has no non-negative integer 'elements'",
            ),
            ("{outputs = [], accuracy = {samples = 1 : i64}}", "'accuracy' has no non-negative integer 'float_correct'"),
            ("\"{}\"", "it is not a dictionary"),
        ];
        for (text, why) in cases {
            let a = Attribute::parse(&context, text).expect(text);
            let e = read(a).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
