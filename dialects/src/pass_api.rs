//! What a pass of ours declares: its flag, summary, anchor, typed options and
//! a factory. The `ir` layer turns a [`PassRegistration`] into an MLIR pass
//! that textual pipelines can name; `onnc-opt --help` and `docs/passes.md`
//! read the same records.
//!
//! Options use MLIR's pipeline syntax: `onnc-dce{keep-names=true}` gives the
//! factory the raw text `keep-names=true`, which [`parse_options`] checks
//! against the pass's [`OptionSpec`]s.
//!
//! ```
//! use onnc_dialects::pass_api::{parse_options, OptionKind, OptionSpec};
//! const SPECS: &[OptionSpec] = &[OptionSpec {
//!     name: "max-iterations", kind: OptionKind::Int { min: 1, max: 100 }, default: "10", help: "rounds",
//! }];
//! let o = parse_options("demo", SPECS, "max-iterations=3").unwrap();
//! assert_eq!(o.int("max-iterations"), 3);
//! assert!(parse_options("demo", SPECS, "max-iteration=3").unwrap_err().contains("did you mean 'max-iterations'"));
//! ```

use melior::ir::OperationRef;
use std::collections::BTreeMap;

/// The type and range of one option.
#[derive(Debug, Clone, Copy)]
pub enum OptionKind {
    /// `true`/`false` (`name` alone means true).
    Bool,
    /// An integer in `[min, max]`.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A floating-point number.
    Float,
    /// Any string.
    Str,
    /// One of the listed words.
    Enum(&'static [&'static str]),
}

/// One option of a pass.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// kebab-case name.
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
    /// The default, written as a user would write it.
    pub default: &'static str,
    /// One line of help.
    pub help: &'static str,
}

impl OptionSpec {
    /// How the type is shown in `--help` (`int in [1, 100]`, `nv_full|nv_small`, …).
    pub fn type_text(&self) -> String {
        match self.kind {
            OptionKind::Bool => "bool".into(),
            OptionKind::Int { min, max } => format!("int in [{min}, {max}]"),
            OptionKind::Float => "float".into(),
            OptionKind::Str => "string".into(),
            OptionKind::Enum(words) => words.join("|"),
        }
    }
}

/// A parsed option value.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    /// From [`OptionKind::Bool`].
    Bool(bool),
    /// From [`OptionKind::Int`].
    Int(i64),
    /// From [`OptionKind::Float`].
    Float(f64),
    /// From [`OptionKind::Str`] and [`OptionKind::Enum`].
    Str(String),
}

/// The options of one pass instance, every declared option present (defaults filled).
#[derive(Debug, Clone, Default)]
pub struct PassOptions {
    values: BTreeMap<&'static str, OptionValue>,
}

impl PassOptions {
    /// A boolean option. Panics only if the pass asks for an option it did not declare (a bug).
    pub fn bool(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(OptionValue::Bool(b)) => *b,
            other => panic!("pass bug: option '{name}' is not a declared bool ({other:?})"),
        }
    }

    /// An integer option.
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptionValue::Int(v)) => *v,
            other => panic!("pass bug: option '{name}' is not a declared int ({other:?})"),
        }
    }

    /// A float option.
    pub fn float(&self, name: &str) -> f64 {
        match self.values.get(name) {
            Some(OptionValue::Float(v)) => *v,
            other => panic!("pass bug: option '{name}' is not a declared float ({other:?})"),
        }
    }

    /// A string or enum option.
    pub fn str(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(OptionValue::Str(v)) => v,
            other => panic!("pass bug: option '{name}' is not a declared string ({other:?})"),
        }
    }
}

/// Splits `a=1 b={x y} c="q r"` into `[("a","1"), ("b","x y"), ("c","q r")]`.
fn split_pairs(raw: &str) -> Result<Vec<(String, Option<String>)>, String> {
    let mut out = Vec::new();
    let mut chars = raw.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        if chars.peek() != Some(&'=') {
            out.push((key, None));
            continue;
        }
        chars.next();
        let mut value = String::new();
        match chars.peek() {
            Some('{') | Some('"') | Some('\'') => {
                let open = chars.next().unwrap_or('{');
                let close = if open == '{' { '}' } else { open };
                let mut depth = 1;
                loop {
                    match chars.next() {
                        None => return Err(format!("option '{key}': missing closing '{close}'")),
                        Some(c) if c == close && open == '{' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            value.push(c);
                        }
                        Some(c) if c == close => break,
                        Some('{') if open == '{' => {
                            depth += 1;
                            value.push('{');
                        }
                        Some(c) => value.push(c),
                    }
                }
            }
            _ => {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
            }
        }
        out.push((key, Some(value)));
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != *cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest of `candidates` to `word`, if any is close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(2))
        .min()
        .map(|(_, c)| c)
}

fn parse_value(pass: &str, spec: &OptionSpec, text: Option<&str>) -> Result<OptionValue, String> {
    let bad = |what: &str| {
        format!(
            "pass '{pass}': option '{}' expects {what}, got '{}'",
            spec.name,
            text.unwrap_or("")
        )
    };
    match spec.kind {
        OptionKind::Bool => match text {
            None | Some("true") | Some("1") => Ok(OptionValue::Bool(true)),
            Some("false") | Some("0") => Ok(OptionValue::Bool(false)),
            _ => Err(bad("true or false")),
        },
        OptionKind::Int { min, max } => {
            let v: i64 = text
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| bad(&format!("an integer in [{min}, {max}]")))?;
            if v < min || v > max {
                return Err(bad(&format!("an integer in [{min}, {max}]")));
            }
            Ok(OptionValue::Int(v))
        }
        OptionKind::Float => text
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .map(OptionValue::Float)
            .ok_or_else(|| bad("a finite number")),
        OptionKind::Str => text
            .map(|t| OptionValue::Str(t.to_string()))
            .ok_or_else(|| bad("a value")),
        OptionKind::Enum(words) => match text {
            Some(t) if words.contains(&t) => Ok(OptionValue::Str(t.to_string())),
            _ => Err(bad(&format!("one of {}", words.join(", ")))),
        },
    }
}

/// Parses a pass's raw option text against its specs; every spec gets its
/// default first. Errors name the pass, the option and what is allowed, and
/// suggest the nearest option name for a typo.
pub fn parse_options(pass: &str, specs: &[OptionSpec], raw: &str) -> Result<PassOptions, String> {
    let mut values = BTreeMap::new();
    for spec in specs {
        let v = parse_value(pass, spec, Some(spec.default))
            .map_err(|e| format!("pass bug: default of '{}' is invalid: {e}", spec.name))?;
        values.insert(spec.name, v);
    }
    let mut seen: Vec<String> = Vec::new();
    for (key, text) in split_pairs(raw).map_err(|e| format!("pass '{pass}': {e}"))? {
        if seen.contains(&key) {
            return Err(format!(
                "pass '{pass}': option '{key}' is given twice; give it once"
            ));
        }
        seen.push(key.clone());
        let Some(spec) = specs.iter().find(|s| s.name == key) else {
            let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
            let hint = match suggest(&key, names.iter().copied()) {
                Some(s) => format!("; did you mean '{s}'?"),
                None if names.is_empty() => "; it takes no options".to_string(),
                None => format!("; valid options: {}", names.join(", ")),
            };
            return Err(format!("pass '{pass}' has no option '{key}'{hint}"));
        };
        values.insert(spec.name, parse_value(pass, spec, text.as_deref())?);
    }
    Ok(PassOptions { values })
}

/// Returned by a pass that failed; the reasons were already emitted as
/// diagnostics at the offending ops' locations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassFailed;

/// The body of a pass instance, run once per anchored operation.
pub trait PassBody: Send + Sync {
    /// Runs on `op` (an op of the pass's anchor). On failure, emit diagnostics
    /// (`ir::emit_error`) first, then return `Err(PassFailed)`.
    fn run(&self, op: OperationRef<'_, '_>) -> Result<(), PassFailed>;
}

/// Makes a pass instance from its parsed options, or explains why the options
/// do not make sense together.
pub type PassFactory = fn(&PassOptions) -> Result<Box<dyn PassBody>, String>;

/// Everything about one pass: the single source for registration, `--help`
/// and `docs/passes.md`.
#[derive(Debug)]
pub struct PassRegistration {
    /// The flag used in pipelines, kebab-case with an area prefix.
    pub flag: &'static str,
    /// One line.
    pub summary: &'static str,
    /// The op it runs on: `func.func`, `builtin.module`, or `""` for any op.
    pub anchor: &'static str,
    /// Its options.
    pub options: &'static [OptionSpec],
    /// Builds an instance.
    pub factory: PassFactory,
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "target",
            kind: OptionKind::Enum(&["nv_full", "nv_small"]),
            default: "nv_full",
            help: "",
        },
        OptionSpec {
            name: "limit",
            kind: OptionKind::Int { min: 1, max: 9 },
            default: "3",
            help: "",
        },
        OptionSpec {
            name: "verbose",
            kind: OptionKind::Bool,
            default: "false",
            help: "",
        },
        OptionSpec {
            name: "label",
            kind: OptionKind::Str,
            default: "",
            help: "",
        },
    ];

    #[test]
    fn defaults_then_overrides() {
        let o = parse_options("p", SPECS, "").unwrap();
        assert_eq!(
            (o.str("target"), o.int("limit"), o.bool("verbose")),
            ("nv_full", 3, false)
        );
        let o = parse_options("p", SPECS, "target=nv_small limit=9 verbose label={a b}").unwrap();
        assert_eq!(
            (
                o.str("target"),
                o.int("limit"),
                o.bool("verbose"),
                o.str("label")
            ),
            ("nv_small", 9, true, "a b")
        );
    }

    #[test]
    fn errors_say_what_is_allowed() {
        let e = parse_options("p", SPECS, "limit=10").unwrap_err();
        assert_eq!(
            e,
            "pass 'p': option 'limit' expects an integer in [1, 9], got '10'"
        );
        let e = parse_options("p", SPECS, "target=nv_large").unwrap_err();
        assert!(e.contains("one of nv_full, nv_small"), "{e}");
        let e = parse_options("p", SPECS, "targte=nv_full").unwrap_err();
        assert!(e.ends_with("did you mean 'target'?"), "{e}");
        let e = parse_options("p", SPECS, "zzzzzzzz=1").unwrap_err();
        assert!(
            e.contains("valid options: target, limit, verbose, label"),
            "{e}"
        );
        let e = parse_options("p", &[], "x=1").unwrap_err();
        assert!(e.ends_with("it takes no options"), "{e}");
        let e = parse_options("p", SPECS, "label={a b").unwrap_err();
        assert!(e.contains("missing closing"), "{e}");
    }
}
