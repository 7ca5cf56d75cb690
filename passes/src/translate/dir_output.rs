//! Translations whose output is a directory (`-o DIR`): the files travel
//! from the translation to the tool as one byte string, which the tool
//! unpacks and writes with `onnc_io::write_dir` (built beside `DIR`, then
//! renamed into place: `DIR` is never half written, and an existing `DIR` is
//! replaced only when it is empty or an earlier output of the same kind).
//!
//! The byte string: `ONNC-DIR 1\n`, then per file its name, `\n`, its length
//! in decimal, `\n` and its bytes.
//!
//! ```
//! use onnc_passes::translate::dir_output::{pack, unpack};
//! let files = vec![onnc_io::DirFile { name: "a.txt".into(), bytes: b"x\n".to_vec() }];
//! assert_eq!(unpack(&pack(&files)).unwrap(), files);
//! assert!(unpack(b"not packed").is_err());
//! ```

/// The flags whose output is a directory, each with the file that marks
/// an earlier output of its kind (what `onnc_io::write_dir` may replace).
const DIR_OUTPUTS: &[(&str, &str)] = &[("to-mvu-config", onnc_mvu::emit::CONFIG_JSON)];

const MAGIC: &[u8] = b"ONNC-DIR 1\n";

/// The marker file of `flag`'s output directory, when its output is one.
pub fn marker(flag: &str) -> Option<&'static str> {
    DIR_OUTPUTS
        .iter()
        .find(|(f, _)| *f == flag)
        .map(|(_, m)| *m)
}

/// `files` as one byte string.
pub fn pack(files: &[onnc_io::DirFile]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for f in files {
        out.extend_from_slice(f.name.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(f.bytes.len().to_string().as_bytes());
        out.push(b'\n');
        out.extend_from_slice(&f.bytes);
    }
    out
}

/// The files of a byte string made by [`pack`], or why it is not one.
pub fn unpack(mut bytes: &[u8]) -> Result<Vec<onnc_io::DirFile>, String> {
    bytes = bytes
        .strip_prefix(MAGIC)
        .ok_or("the translation's output is not a packed directory")?;
    let line = |b: &mut &[u8]| -> Result<String, String> {
        let n = b
            .iter()
            .position(|&c| c == b'\n')
            .ok_or("a packed directory entry is cut short")?;
        let s = String::from_utf8(b[..n].to_vec()).map_err(|_| "a file name is not UTF-8")?;
        *b = &b[n + 1..];
        Ok(s)
    };
    let mut files = Vec::new();
    while !bytes.is_empty() {
        let name = line(&mut bytes)?;
        let len: usize = line(&mut bytes)?
            .parse()
            .map_err(|_| format!("'{name}' has no length"))?;
        if bytes.len() < len {
            return Err(format!("'{name}' is cut short"));
        }
        files.push(onnc_io::DirFile {
            name,
            bytes: bytes[..len].to_vec(),
        });
        bytes = &bytes[len..];
    }
    Ok(files)
}
