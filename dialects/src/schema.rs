//! The op signatures declared in our IRDL files, read back as data.
//!
//! The IRDL files are the one definition of each op; builders (the ONNX
//! importer, lowerings) need to know, per op, the declared operands and
//! results and whether each is single, optional or variadic — to know when
//! `operandSegmentSizes`/`resultSegmentSizes` is required and what goes in
//! it. This module reads that from the IRDL text.
//!
//! In: `dialects/*.irdl.mlir` (compiled in). Out: [`OpSchema`] per op name.
//!
//! ```
//! let s = onnc_dialects::schema::lookup("onnx.conv").unwrap();
//! let names: Vec<&str> = s.operands.iter().map(|o| o.name.as_str()).collect();
//! assert_eq!(names, ["x", "w", "b"]);
//! assert!(!s.needs_operand_segments());
//! ```

use std::{collections::BTreeMap, sync::OnceLock};

/// How many values a declared operand or result stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variadicity {
    /// Exactly one.
    Single,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// One declared operand or result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// Its name in the IRDL declaration (`x`, `w`, `b`).
    pub name: String,
    /// Single, optional or variadic.
    pub variadicity: Variadicity,
}

/// The signature of one op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpSchema {
    /// Full op name, `onnx.conv`.
    pub name: String,
    /// Declared operands, in order.
    pub operands: Vec<Slot>,
    /// Declared results, in order.
    pub results: Vec<Slot>,
    /// Required attribute names.
    pub attributes: Vec<String>,
    /// The external operator name from the op's doc block (`Spec: onnx__Conv`
    /// gives `Conv`), when it has one.
    pub spec_name: Option<String>,
}

impl OpSchema {
    /// Whether the op needs `operandSegmentSizes` (two or more non-single operands).
    pub fn needs_operand_segments(&self) -> bool {
        self.operands
            .iter()
            .filter(|s| s.variadicity != Variadicity::Single)
            .count()
            >= 2
    }

    /// Whether the op needs `resultSegmentSizes`.
    pub fn needs_result_segments(&self) -> bool {
        self.results
            .iter()
            .filter(|s| s.variadicity != Variadicity::Single)
            .count()
            >= 2
    }
}

fn parse_slots(text: &str) -> Vec<Slot> {
    // `x: %x, b: optional %b, inputs: variadic %in`
    text.split(',')
        .filter_map(|part| {
            let (name, rest) = part.split_once(':')?;
            let rest = rest.trim();
            let variadicity = if rest.starts_with("optional") {
                Variadicity::Optional
            } else if rest.starts_with("variadic") {
                Variadicity::Variadic
            } else {
                Variadicity::Single
            };
            Some(Slot {
                name: name.trim().to_string(),
                variadicity,
            })
        })
        .collect()
}

/// Text between the parenthesis after `key` and its matching close.
fn group_after<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let start = body.find(key)? + key.len();
    let rest = &body[start..];
    let open = rest.find('(')?;
    let mut depth = 0;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&rest[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Strips `//` comments so that examples in doc blocks are not read as declarations.
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `Spec: onnx__<Name>` lines in the doc block before each op, by op name.
fn spec_names(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("//") {
            if let Some(i) = rest.find("Spec: onnx__") {
                let name: String = rest[i + 12..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                pending = Some(name);
            }
        } else if let Some(rest) = t.strip_prefix("irdl.operation @") {
            let op: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if let Some(name) = pending.take() {
                out.insert(op, name);
            }
        } else if !t.is_empty() && !t.starts_with('%') {
            // A declaration line between blocks: a Spec line only names the next op.
        }
    }
    out
}

/// Parses the ops of one IRDL file.
pub fn parse_irdl(text: &str) -> Vec<OpSchema> {
    let specs = spec_names(text);
    let text = strip_comments(text);
    let mut out = Vec::new();
    let Some(d) = text.find("irdl.dialect @") else {
        return out;
    };
    let dialect: String = text[d + 14..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let mut rest = text.as_str();
    while let Some(p) = rest.find("irdl.operation @") {
        let after = &rest[p + 16..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let end = after.find("irdl.operation @").unwrap_or(after.len());
        let body = &after[..end];
        let operands = group_after(body, "irdl.operands")
            .map(parse_slots)
            .unwrap_or_default();
        let results = group_after(body, "irdl.results")
            .map(parse_slots)
            .unwrap_or_default();
        let attributes = body
            .find("irdl.attributes")
            .and_then(|i| {
                let b = &body[i..];
                let open = b.find('{')?;
                let close = b.find('}')?;
                Some(
                    b[open + 1..close]
                        .split(',')
                        .filter_map(|kv| {
                            Some(kv.split('=').next()?.trim().trim_matches('"').to_string())
                        })
                        .filter(|s| !s.is_empty())
                        .collect(),
                )
            })
            .unwrap_or_default();
        let spec_name = specs.get(&name).cloned();
        out.push(OpSchema {
            name: format!("{dialect}.{name}"),
            operands,
            results,
            attributes,
            spec_name,
        });
        rest = &after[end..];
    }
    out
}

/// The op of our dialects whose doc block names external operator `spec`
/// (`"Conv"` → `onnx.conv`).
pub fn by_spec_name(spec: &str) -> Option<&'static OpSchema> {
    all().find(|s| s.spec_name.as_deref() == Some(spec))
}

fn all_schemas() -> &'static BTreeMap<String, OpSchema> {
    static ALL: OnceLock<BTreeMap<String, OpSchema>> = OnceLock::new();
    ALL.get_or_init(|| {
        crate::ir::dialect_sources()
            .iter()
            .flat_map(|(_, text)| parse_irdl(text))
            .map(|s| (s.name.clone(), s))
            .collect()
    })
}

/// The schema of `op` (`onnx.conv`), if one of our dialects declares it.
pub fn lookup(op: &str) -> Option<&'static OpSchema> {
    all_schemas().get(op)
}

/// Every declared op, sorted by name.
pub fn all() -> impl Iterator<Item = &'static OpSchema> {
    all_schemas().values()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_op_has_a_schema_and_back() {
        let ctx = crate::ir::new_context().unwrap();
        let mut n = 0;
        for s in all() {
            assert!(
                ctx.is_registered_operation(&s.name),
                "{} parsed but not registered",
                s.name
            );
            n += 1;
        }
        assert!(n > 60, "only {n} ops parsed");
    }

    #[test]
    fn optional_operands_are_seen() {
        let clip = lookup("onnx.clip").unwrap();
        assert_eq!(
            clip.operands
                .iter()
                .map(|s| s.variadicity)
                .collect::<Vec<_>>(),
            [
                Variadicity::Single,
                Variadicity::Optional,
                Variadicity::Optional
            ]
        );
        assert!(clip.needs_operand_segments());
        assert!(lookup("onnx.custom").unwrap().needs_result_segments());
        assert!(lookup("onnx.conv")
            .unwrap()
            .attributes
            .contains(&"kernel_shape".to_string()));
    }

    #[test]
    fn every_onnx_op_names_its_onnx_operator() {
        for s in all().filter(|s| s.name.starts_with("onnx.") && s.name != "onnx.custom") {
            assert!(
                s.spec_name.is_some(),
                "{} has no 'Spec: onnx__X' line",
                s.name
            );
        }
        assert_eq!(
            lookup("onnx.mat_mul").unwrap().spec_name.as_deref(),
            Some("MatMul")
        );
        assert_eq!(
            by_spec_name("BatchNormalization").unwrap().name,
            "onnx.batch_normalization"
        );
    }
}
