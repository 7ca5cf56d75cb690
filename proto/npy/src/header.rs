//! The `.npy` header: magic, version, length and the Python dict literal
//! `{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }`.
//!
//! In: the first bytes of a file. Out: a [`Header`] (element type, byte
//! order, layout, shape, where the data starts), or an error saying which
//! part is wrong. The dict is parsed by a small tolerant parser for the
//! literals numpy writes (strings, booleans, integers, tuples, lists);
//! anything else — an object or structured dtype — is refused by name.

use crate::NpyError;
use onnc_tensor::DType;

/// Largest header accepted: 1 MiB. numpy's own headers are under 100 bytes
/// unless the dtype is structured (which onnc refuses anyway); the limit
/// stops a v2 header length of 4 GiB from being allocated.
pub const MAX_HEADER_BYTES: usize = 1 << 20;

const MAGIC: &[u8] = b"\x93NUMPY";

/// A parsed `.npy` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Format version `(major, minor)`: (1, 0), (2, 0) or (3, 0).
    pub version: (u8, u8),
    /// Element type.
    pub dtype: DType,
    /// Whether elements are stored big-endian.
    pub big_endian: bool,
    /// Whether the array is stored in Fortran (column-major) order.
    pub fortran_order: bool,
    /// The shape, as declared (not yet checked against the data).
    pub shape: Vec<u64>,
    /// Offset of the first data byte in the file.
    pub data_start: usize,
}

/// Parses the preamble (at least 12 bytes, or the whole file when shorter):
/// returns the version and the dict's byte range.
pub(crate) fn preamble(head: &[u8]) -> Result<((u8, u8), usize, usize), NpyError> {
    if head.len() < 8 || &head[..6] != MAGIC {
        return Err(NpyError::new(
            "not a .npy file (it does not start with \\x93NUMPY); save it with numpy.save",
        ));
    }
    let version = (head[6], head[7]);
    let (start, len) = match version.0 {
        1 if head.len() >= 10 => (10, u16::from_le_bytes([head[8], head[9]]) as usize),
        2 | 3 if head.len() >= 12 => (
            12,
            u32::from_le_bytes([head[8], head[9], head[10], head[11]]) as usize,
        ),
        1..=3 => return Err(NpyError::new("the file ends inside the header")),
        _ => {
            return Err(NpyError::new(format!(
                ".npy format version {}.{} is not supported (1.0, 2.0 and 3.0 are)",
                version.0, version.1
            )))
        }
    };
    if len > MAX_HEADER_BYTES {
        return Err(NpyError::new(format!(
            "the header claims {len} bytes, more than the {MAX_HEADER_BYTES} accepted"
        )));
    }
    Ok((version, start, len))
}

/// Parses the header dict text (after the preamble) into a [`Header`].
pub(crate) fn parse_dict(
    version: (u8, u8),
    text: &[u8],
    data_start: usize,
) -> Result<Header, NpyError> {
    // v1/v2 headers are latin-1, v3 UTF-8; the keys and values we accept are ASCII.
    let text: String = if version.0 == 3 {
        String::from_utf8(text.to_vec())
            .map_err(|_| NpyError::new("the version 3.0 header is not UTF-8"))?
    } else {
        text.iter().map(|&b| b as char).collect()
    };
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let dict = match p.value()? {
        Value::Dict(d) => d,
        _ => return Err(NpyError::new("the header is not a Python dict")),
    };
    let get = |key: &str| {
        dict.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .ok_or_else(|| NpyError::new(format!("the header has no '{key}'")))
    };
    let fortran_order = match get("fortran_order")? {
        Value::Bool(b) => *b,
        _ => {
            return Err(NpyError::new(
                "'fortran_order' in the header is not True or False",
            ))
        }
    };
    let shape = match get("shape")? {
        Value::Seq(items) => items
            .iter()
            .map(|v| match v {
                Value::Int(n) => Ok(*n),
                _ => Err(NpyError::new(
                    "'shape' in the header holds something that is not a dimension",
                )),
            })
            .collect::<Result<Vec<u64>, _>>()?,
        _ => return Err(NpyError::new("'shape' in the header is not a tuple")),
    };
    let (dtype, big_endian) = match get("descr")? {
        Value::Str(s) => descr(s)?,
        _ => {
            return Err(NpyError::new(
                "structured dtypes (records) are not supported; save one plain array per input",
            ))
        }
    };
    Ok(Header {
        version,
        dtype,
        big_endian,
        fortran_order,
        shape,
        data_start,
    })
}

/// The element type and byte order of a dtype string such as `<f4`.
fn descr(s: &str) -> Result<(DType, bool), NpyError> {
    let (order, code) = match s.chars().next() {
        Some(c @ ('<' | '>' | '=' | '|')) => (c, &s[1..]),
        _ => ('=', s),
    };
    let dtype = match code {
        "f2" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        "i1" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "u1" => DType::U8,
        "u2" => DType::U16,
        "u4" => DType::U32,
        "u8" => DType::U64,
        "b1" => DType::Bool,
        "O" | "O8" | "O4" => {
            return Err(NpyError::new(
                "it holds Python objects (a pickle), which onnc never loads; save a numeric array",
            ))
        }
        _ => {
            let shown: String = s.chars().take(40).collect();
            return Err(NpyError::new(format!(
                "element type '{shown}' is not supported (use float16/32/64, int8/16/32/64, uint8/16/32/64 or bool)"
            )));
        }
    };
    // `=` is native order: onnc-tensor only builds on little-endian hosts.
    Ok((dtype, order == '>' && dtype.size() > 1))
}

/// A Python literal as numpy writes them in headers.
#[derive(Debug)]
enum Value {
    Str(String),
    Bool(bool),
    Int(u64),
    Seq(Vec<Value>),
    Dict(Vec<(String, Value)>),
    /// Anything we do not need to understand (`None`, negative numbers, …).
    Other,
}

/// Deepest nesting accepted in the dict (structured dtypes nest; we refuse them anyway).
const MAX_DEPTH: usize = 32;

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> NpyError {
        NpyError::new(format!(
            "the header is not a valid dict ({what} at byte {})",
            self.i
        ))
    }

    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Value, NpyError> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> Result<Value, NpyError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.skip_ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut items = Vec::new();
                while !self.eat(b'}') {
                    let key = match self.value_at(depth + 1)? {
                        Value::Str(k) => k,
                        _ => return Err(self.err("a key that is not a string")),
                    };
                    if !self.eat(b':') {
                        return Err(self.err("':' expected"));
                    }
                    items.push((key, self.value_at(depth + 1)?));
                    if !self.eat(b',') {
                        if !self.eat(b'}') {
                            return Err(self.err("',' or '}' expected"));
                        }
                        break;
                    }
                }
                Ok(Value::Dict(items))
            }
            Some(&open @ (b'(' | b'[')) => {
                self.i += 1;
                let close = if open == b'(' { b')' } else { b']' };
                let mut items = Vec::new();
                while !self.eat(close) {
                    items.push(self.value_at(depth + 1)?);
                    if !self.eat(b',') {
                        if !self.eat(close) {
                            return Err(self.err("',' or a closing bracket expected"));
                        }
                        break;
                    }
                }
                Ok(Value::Seq(items))
            }
            Some(&q @ (b'\'' | b'"')) => {
                self.i += 1;
                let start = self.i;
                while self.i < self.s.len() && self.s[self.i] != q {
                    if self.s[self.i] == b'\\' {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                if self.i >= self.s.len() {
                    return Err(self.err("unterminated string"));
                }
                let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                self.i += 1;
                Ok(Value::Str(text))
            }
            Some(c) if c.is_ascii_digit() => {
                let mut n: u64 = 0;
                while let Some(d) = self.s.get(self.i).filter(|c| c.is_ascii_digit()) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(u64::from(d - b'0')))
                        .ok_or_else(|| self.err("a number beyond 2^64"))?;
                    self.i += 1;
                }
                // numpy < 1.? wrote long integers as `3L`.
                if self.s.get(self.i) == Some(&b'L') {
                    self.i += 1;
                }
                Ok(Value::Int(n))
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'-' => {
                let start = self.i;
                while self.s.get(self.i).is_some_and(|c| {
                    c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-' || *c == b'.'
                }) {
                    self.i += 1;
                }
                Ok(match &self.s[start..self.i] {
                    b"True" => Value::Bool(true),
                    b"False" => Value::Bool(false),
                    _ => Value::Other,
                })
            }
            _ => Err(self.err("a value expected")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Header, NpyError> {
        parse_dict((1, 0), text.as_bytes(), 0)
    }

    #[test]
    fn numpy_headers_parse() {
        let h = parse("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }   \n")
            .unwrap();
        assert_eq!(
            (h.dtype, h.big_endian, h.fortran_order),
            (DType::F32, false, false)
        );
        assert_eq!(h.shape, vec![1, 3, 8, 8]);
        let h = parse("{'descr': '>i2', 'fortran_order': True, 'shape': (), }").unwrap();
        assert_eq!(
            (h.dtype, h.big_endian, h.fortran_order),
            (DType::I16, true, true)
        );
        assert!(h.shape.is_empty());
        let h = parse("{\"shape\": (5,), \"descr\": \"|b1\", \"fortran_order\": False}").unwrap();
        assert_eq!((h.dtype, h.shape), (DType::Bool, vec![5]));
        assert!(
            !parse("{'descr': '>u1', 'fortran_order': False, 'shape': (2L,), }")
                .unwrap()
                .big_endian
        );
    }

    #[test]
    fn refusals_say_what() {
        let cases = [
            (
                "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
                "pickle",
            ),
            (
                "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                "'<c8' is not supported",
            ),
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                "structured",
            ),
            ("{'descr': '<f4', 'shape': (1,), }", "no 'fortran_order'"),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }",
                "not a dimension",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
                "beyond 2^64",
            ),
            ("{'descr': '<f4'", "expected"),
            ("[1, 2]", "not a Python dict"),
        ];
        for (text, want) in cases {
            let e = parse(text).unwrap_err().why;
            assert!(e.contains(want), "{text}: {e}");
        }
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(parse(&deep).unwrap_err().why.contains("too deep"));
    }

    #[test]
    fn preambles() {
        assert!(preamble(b"PK\x03\x04")
            .unwrap_err()
            .why
            .contains("not a .npy"));
        assert!(preamble(b"\x93NUMPY\x04\x00\x00\x00\x00\x00")
            .unwrap_err()
            .why
            .contains("4.0"));
        assert!(preamble(b"\x93NUMPY\x02\x00\xff\xff\xff\xff")
            .unwrap_err()
            .why
            .contains("more than"));
        assert_eq!(
            preamble(b"\x93NUMPY\x01\x00\x10\x00").unwrap(),
            ((1, 0), 10, 16)
        );
        assert_eq!(
            preamble(b"\x93NUMPY\x03\x00\x10\x00\x00\x00").unwrap(),
            ((3, 0), 12, 16)
        );
    }
}
