//! `--split-input-file`: cut a source into chunks at `// -----` lines.
//!
//! In: the whole file. Out: chunks, each padded with blank lines in front so
//! that every line keeps its line number in the original file (diagnostics
//! and `expected-error @+1` directives then agree with what an editor shows).

/// One chunk of a split file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The chunk's text, preceded by as many newlines as lines came before it.
    pub text: String,
    /// 1-based number of the chunk's first line in the original file.
    pub first_line: usize,
    /// The whole input when it is MLIR bytecode (then `text` is empty).
    pub binary: Option<Vec<u8>>,
}

impl Chunk {
    /// A chunk holding a whole binary (bytecode) input.
    pub fn binary(bytes: Vec<u8>) -> Chunk {
        Chunk {
            text: String::new(),
            first_line: 1,
            binary: Some(bytes),
        }
    }

    /// The bytes to parse.
    pub fn bytes(&self) -> &[u8] {
        self.binary.as_deref().unwrap_or(self.text.as_bytes())
    }
}

/// Whether `line` is a split marker (`// -----`, as mlir-opt recognizes it).
fn is_marker(line: &str) -> bool {
    line.trim_start().starts_with("// -----")
}

/// Splits `source` at marker lines (markers themselves belong to no chunk).
pub fn split(source: &str) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut first_line = 1;
    for (i, line) in source.split_inclusive('\n').enumerate() {
        if is_marker(line) {
            chunks.push(Chunk {
                text: pad(first_line) + &current,
                first_line,
                binary: None,
            });
            current.clear();
            first_line = i + 2;
        } else {
            current.push_str(line);
        }
    }
    chunks.push(Chunk {
        text: pad(first_line) + &current,
        first_line,
        binary: None,
    });
    chunks
}

fn pad(first_line: usize) -> String {
    "\n".repeat(first_line - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_line_numbers() {
        let c = split("a\n// -----\nb\nc\n// -----\nd");
        assert_eq!(c.len(), 3);
        assert_eq!(
            c[0],
            Chunk {
                text: "a\n".into(),
                first_line: 1,
                binary: None
            }
        );
        assert_eq!(
            c[1],
            Chunk {
                text: "\n\nb\nc\n".into(),
                first_line: 3,
                binary: None
            }
        );
        assert_eq!(c[2].first_line, 6);
        assert_eq!(c[2].text.lines().nth(5), Some("d"));
    }

    #[test]
    fn no_marker_is_one_chunk() {
        assert_eq!(split("x\ny\n").len(), 1);
    }
}
