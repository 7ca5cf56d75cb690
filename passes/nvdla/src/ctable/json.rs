//! JSON reading shared by the CTable and NVIDIA calibtable loaders: strict
//! about duplicate keys, and short when it echoes a value.
//!
//! * [`parse`]: the text → a `serde_json::Value`, refusing a key that appears
//!   twice in one object ([`Error::DuplicateKey`], with the line and
//!   column of both). serde_json's map keeps the last one silently, so the
//!   text is scanned for keys once it is known to be valid JSON.
//! * [`key_lines`]: the line of every top-level key, for messages.
//! * [`shown`]: a value as JSON text, cut to [`MAX_SHOWN`] characters with
//!   the full size appended, so a 50 MB string is not echoed in an error.

use std::collections::HashMap;

use serde_json::Value as Json;

use crate::Error;

/// Longest value text echoed in a message, in characters.
pub const MAX_SHOWN: usize = 80;

/// `text` cut to [`MAX_SHOWN`] characters: `"aaaa…" … (52428802 bytes)`.
pub fn clip(text: &str) -> String {
    clip_to(text, MAX_SHOWN)
}

/// `text` cut to `n` characters, with its full size appended when cut.
pub(crate) fn clip_to(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// A JSON value as text, clipped (see [`clip`]).
pub fn shown(v: &Json) -> String {
    clip(&v.to_string())
}

/// Parses JSON, reporting line and column; refuses duplicate keys.
pub(crate) fn parse(json: &str, file: &str) -> Result<Json, Error> {
    let value: Json = serde_json::from_str(json).map_err(|e| Error::Json {
        file: file.into(),
        line: e.line(),
        column: e.column(),
        message: clip(&e.to_string()),
    })?;
    let mut dups = Vec::new();
    scan(json, |_, key, pos, seen| {
        if let Some(first) = seen.get(key) {
            dups.push(Error::DuplicateKey {
                file: file.into(),
                key: clip(key),
                first: *first,
                second: pos,
            });
        }
    });
    Error::collect(file, dups)?;
    Ok(value)
}

/// The `(line, column)` of each top-level key (the first, if repeated).
pub(crate) fn key_lines(json: &str) -> HashMap<String, (usize, usize)> {
    let mut out = HashMap::new();
    scan(json, |depth, key, pos, _| {
        if depth == 1 {
            out.entry(key.to_string()).or_insert(pos);
        }
    });
    out
}

/// One open bracket while scanning.
enum Frame {
    Object {
        keys: HashMap<String, (usize, usize)>,
        expect_key: bool,
    },
    Array,
}

/// Walks valid JSON text and calls `f(depth, key, (line, column), keys
/// already seen in that object)` for every object key, in order. Strings are
/// decoded (so `"a"` and `"\u0061"` are the same key). Iterative: no depth
/// limit beyond serde_json's, which parsed the text first.
fn scan(
    json: &str,
    mut f: impl FnMut(usize, &str, (usize, usize), &HashMap<String, (usize, usize)>),
) {
    let b = json.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'{' => stack.push(Frame::Object {
                keys: HashMap::new(),
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = true;
                }
            }
            b':' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = false;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let depth = stack.len();
                if let Some(Frame::Object {
                    keys,
                    expect_key: true,
                }) = stack.last_mut()
                {
                    let raw = &json[start..=i.min(b.len() - 1)];
                    let key: String = serde_json::from_str(raw).unwrap_or_else(|_| raw.to_string());
                    let column = json[line_start..start].chars().count() + 1;
                    f(depth, &key, (line, column), keys);
                    keys.entry(key).or_insert((line, column));
                }
            }
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_found_with_both_places() {
        let text = "{\n  \"a\": {\"x\": 1, \"y\": 2},\n  \"b\": 1,\n  \"\\u0061\": {\"x\": 1, \"x\": 3}\n}";
        let e = parse(text, "t.json").unwrap_err();
        let Error::Several { errors, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!(errors.len(), 2, "{e}");
        assert_eq!(
            errors[0],
            Error::DuplicateKey {
                file: "t.json".into(),
                key: "a".into(),
                first: (2, 3),
                second: (4, 3)
            }
        );
        assert_eq!(
            errors[1],
            Error::DuplicateKey {
                file: "t.json".into(),
                key: "x".into(),
                first: (4, 14),
                second: (4, 22)
            }
        );
        // The same key in different objects, or in arrays of objects, is fine.
        assert!(parse(
            r#"{"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}], "d": "{\"k\""}"#,
            "t"
        )
        .is_ok());
    }

    #[test]
    fn long_values_are_clipped() {
        let big = Json::String("a".repeat(50 << 20));
        let s = shown(&big);
        assert!(s.len() < 200 && s.ends_with("(52428802 bytes)"), "{s}");
        assert_eq!(shown(&Json::from(12)), "12");
        assert_eq!(
            clip(&"é".repeat(100)).chars().count(),
            MAX_SHOWN + " (200 bytes)".len() + 1
        );
    }

    #[test]
    fn top_level_key_lines() {
        let l = key_lines("{\"a\": {\"z\": 1},\n \"b\": 2}");
        assert_eq!((l["a"], l["b"]), ((1, 2), (2, 2)));
        assert!(!l.contains_key("z"));
    }
}
