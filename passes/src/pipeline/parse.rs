//! The pipeline text of `onnc compile` and `onnc-opt`, parsed into
//! in-memory passes.
//!
//! In: `a,b{k=v k2=v2}`, optionally wrapped in `builtin.module(...)` (the
//! form `--pass-pipeline` takes). Out: one [`Pass`] per entry, options
//! checked against the pass's registration (unknown pass or option, bad
//! value: an error naming it, with the nearest spelling).

use super::{
    registry::{self, Entry},
    Pass,
};
use onnc_dialects::pass_api::{parse_options, suggest};

/// The entries of a pipeline: `(flag, raw options)`.
fn entries(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut body = text.trim();
    if let Some(inner) = body
        .strip_prefix("builtin.module(")
        .and_then(|r| r.strip_suffix(')'))
    {
        body = inner;
    }
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' => depth += 1,
            '}' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("pipeline '{text}': unbalanced '}}'"))?
            }
            ',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 || quote.is_some() {
        return Err(format!("pipeline '{text}': unbalanced '{{' or quote"));
    }
    out.push(&body[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|e| match e.split_once('{') {
            Some((flag, rest)) => rest
                .strip_suffix('}')
                .map(|o| (flag.trim().to_string(), o.trim().to_string()))
                .ok_or_else(|| format!("pipeline '{text}': '{e}' has text after its options")),
            None => Ok((e.to_string(), String::new())),
        })
        .collect()
}

/// Parses `text` into passes.
pub fn parse(text: &str) -> Result<Vec<Box<dyn Pass>>, String> {
    Ok(parse_entries(text)?.into_iter().map(|(_, p)| p).collect())
}

/// A parsed pass with its registry entry (flag, level).
pub type Parsed = (&'static Entry, Box<dyn Pass>);

/// Parses `text` into passes, each with its registry entry.
pub fn parse_entries(text: &str) -> Result<Vec<Parsed>, String> {
    entries(text)?
        .into_iter()
        .map(|(flag, raw)| {
            let Some(entry) = registry::find(&flag) else {
                let hint = suggest(&flag, registry::flags())
                    .map(|s| format!("; did you mean '{s}'?"))
                    .unwrap_or_default();
                return Err(format!("'{flag}' is not a pass that runs in memory{hint}"));
            };
            let options = parse_options(&flag, entry.registration.options, &raw)?;
            Ok((entry, (entry.factory)(&options)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_top_level_commas_only() {
        let e = entries("builtin.module(onnx-simplify,onnc-legalize{target=nv_small node-limit=5},nvdla-plan-memory)").unwrap();
        assert_eq!(
            e,
            [
                ("onnx-simplify".to_string(), String::new()),
                (
                    "onnc-legalize".to_string(),
                    "target=nv_small node-limit=5".to_string()
                ),
                ("nvdla-plan-memory".to_string(), String::new()),
            ]
        );
    }

    #[test]
    fn names_what_is_wrong() {
        let e = parse("onnx-simplfy").err().unwrap();
        assert!(e.contains("did you mean 'onnx-simplify'"), "{e}");
        let e = parse("onnc-legalize{target=nv_tiny}").err().unwrap();
        assert!(e.contains("nv_full"), "{e}");
        assert!(parse("onnc-legalize{target=nv_small").is_err());
        let e = entries(r#"nvdla-load-ctable{file="a,b}{c\".json" format=auto},nvdla-plan-memory"#)
            .unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].1, r#"file="a,b}{c\".json" format=auto"#);
        assert_eq!(
            parse("builtin.module(onnx-simplify, nvdla-plan-memory)")
                .unwrap()
                .len(),
            2
        );
    }
}
