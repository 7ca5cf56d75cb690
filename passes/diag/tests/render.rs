//! The renderer on the cases users meet: graph order, grouping of
//! repeated causes, the summary, JSON Lines, colour on and off.

use onnc_diag::{graph_order, json, text, ColorChoice, Diagnostic, Severity};

fn at(node: &str, op: &str, msg: &str) -> Diagnostic {
    Diagnostic::error(msg).file("m.onnx").node(node, op)
}

#[test]
fn graph_order_puts_n9_before_n16_and_model_level_first() {
    let mut d = vec![
        at("n16", "Relu", "b"),
        at("n9", "Relu", "a"),
        Diagnostic::error("whole model"),
        at("n2+n3", "Conv", "merged"),
        at("elsewhere", "Conv", "unknown"),
        at("n12_split0", "Conv", "derived"),
    ];
    let names: Vec<String> = (0..20).map(|i| format!("n{i}")).collect();
    graph_order(&mut d, names.iter().map(String::as_str));
    let order: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        order,
        ["whole model", "merged", "a", "derived", "b", "unknown"]
    );
}

#[test]
fn one_diagnostic_has_the_documented_form() {
    let d = at("c1", "Conv", "needs 3 banks").fix("split it");
    assert_eq!(
        text::render(&[d], None, false),
        "m.onnx: node 'c1' (Conv): error: needs 3 banks; fix: split it\n"
    );
    let d = Diagnostic::error("bad value")
        .file("t.json")
        .note("keys are tensor names");
    assert_eq!(
        text::render(&[d], None, false),
        "t.json: error: bad value\nnote: keys are tensor names\n"
    );
}

#[test]
fn same_op_and_message_are_grouped_where_the_first_stood() {
    let mut d = vec![at("a0", "Sigmoid", "no LUT")];
    d.push(at("c", "Conv", "too wide"));
    for i in 1..13 {
        d.push(at(&format!("a{i}"), "Sigmoid", "no LUT"));
    }
    d.push(at("r", "Relu", "no LUT")); // another op: not grouped
    let out = text::render(&d, Some("stopped before emission"), false);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "m.onnx: 13 × Sigmoid, e.g. 'a0': error: no LUT");
    assert_eq!(
        lines[1],
        "note: also at 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', and 2 more"
    );
    assert_eq!(lines[2], "m.onnx: node 'c' (Conv): error: too wide");
    assert_eq!(lines[3], "m.onnx: node 'r' (Relu): error: no LUT");
    assert_eq!(lines[4], "error: 15 problems; stopped before emission");
    assert_eq!(lines.len(), 5);
}

#[test]
fn different_fixes_are_not_grouped() {
    let d = [at("a", "Add", "x").fix("f1"), at("b", "Add", "x").fix("f2")];
    assert_eq!(text::render(&d, None, false).lines().count(), 3);
}

#[test]
fn summary_counts_errors_and_warnings() {
    let mut d = vec![at("a", "Add", "x"), at("b", "Mul", "y")];
    d.push(Diagnostic::warning("w").file("m.onnx"));
    assert_eq!(
        text::summary(&d, Some("stopped in legalization")).as_deref(),
        Some("2 problems, 1 warning; stopped in legalization")
    );
    // One error and no stage: the error says it all.
    assert_eq!(text::summary(&d[..1], None), None);
    assert_eq!(
        text::summary(&d[..1], Some("stopped in lowering")).as_deref(),
        Some("1 problem; stopped in lowering")
    );
    assert_eq!(text::summary(&d[2..], Some("x")), None);
}

#[test]
fn a_span_is_shown_under_its_line() {
    let src = "{\n  \"conv1\": \"x\"\n}\n";
    let start = src.find("\"x\"").unwrap();
    let d = Diagnostic::error("the scale is not a number")
        .file("t.json")
        .span(src, start, start + 3);
    assert_eq!(
        text::render(&[d], None, false),
        "t.json:2:12: error: the scale is not a number\n    \"conv1\": \"x\"\n             ^^^\n"
    );
}

#[test]
fn colour_only_when_asked() {
    let d = [at("c", "Conv", "x")];
    let plain = text::render(&d, None, false);
    assert!(!plain.contains('\x1b'), "{plain:?}");
    let coloured = text::render(&d, None, true);
    assert!(coloured.contains("\x1b[1;31merror:\x1b[0m"), "{coloured:?}");
    // Non-terminals and NO_COLOR turn `auto` off.
    assert!(!ColorChoice::Auto.resolve(false, None));
    assert!(!ColorChoice::Auto.resolve(true, Some("1")));
}

#[test]
fn json_lines_follow_the_schema() {
    let src = "{\"k\": 1}";
    let d = vec![
        at("c1", "Conv", "too wide").fix("split"),
        at("c2", "Conv", "too wide").fix("split"),
        Diagnostic::warning("odd").file("t.json").span(src, 1, 4),
    ];
    let out = json::render(&d, Some("stopped before emission"));
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "each diagnostic, then the summary: {out}");
    assert_eq!(lines[0]["kind"], "diagnostic");
    assert_eq!(lines[0]["version"], 1);
    assert_eq!(lines[0]["severity"], "error");
    assert_eq!(lines[0]["file"], "m.onnx");
    assert_eq!(lines[0]["node"], "c1");
    assert_eq!(lines[0]["op"], "Conv");
    assert_eq!(lines[0]["message"], "too wide");
    assert_eq!(lines[0]["fix"], "split");
    assert!(lines[0].get("span").is_none());
    assert_eq!(lines[1]["node"], "c2", "JSON is never grouped");
    assert_eq!(lines[2]["severity"], "warning");
    assert_eq!(lines[2]["span"]["start"], 1);
    assert_eq!(lines[2]["span"]["end"], 4);
    assert_eq!(
        (lines[2]["line"].clone(), lines[2]["col"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(lines[3]["kind"], "summary");
    assert_eq!(lines[3]["errors"], 2);
    assert_eq!(lines[3]["warnings"], 1);
    assert_eq!(lines[3]["stopped"], "stopped before emission");
    // Nothing failed: no summary.
    assert_eq!(json::render(&d[2..], None).lines().count(), 1);
    assert_eq!(d[2].severity, Severity::Warning);
}

#[test]
fn a_span_in_a_long_line_shows_a_window_around_it() {
    let mut src = String::from("{");
    for i in 0..200 {
        src.push_str(&format!("\"k{i}\": 1, "));
    }
    src.push('}');
    let start = src.find("\"k150\"").unwrap();
    let d = Diagnostic::error("bad")
        .file("t.json")
        .span(&src, start, start + 6);
    let out = text::render(&[d], None, false);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].chars().count() <= 2 + 122, "{}", lines[1]);
    assert!(lines[1].starts_with("  …") && lines[1].ends_with('…'));
    let caret = lines[2].find('^').unwrap();
    let shown: String = lines[1].chars().skip(caret).take(6).collect();
    assert_eq!(shown, "\"k150\"");
    assert_eq!(lines[2].trim(), "^^^^^^");
}
