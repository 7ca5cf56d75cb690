//! `detect`: which calibration format some bytes are, from the content.
//!
//! In: the file's bytes. Out: the format, or `None` for none of them.
//! Rules, in order (leading UTF-8 BOM and whitespace ignored):
//! 1. text starting with `{`: JSON. ONNC's CTable if a top-level key is
//!    `version` or `qinfo` or ends with a register block (`.CONV`, `.SDP`,
//!    `.PDP`, `.CDP`, `.LUT`, `.EMU`, `.RUBIK`, `.BDMA`); else NVIDIA's
//!    calibtable. Malformed JSON is classified by the same keys found in the
//!    text, so its reader reports the syntax error with line and column.
//! 2. text whose first line is `TRT-<digits>-<algorithm>`: TensorRT cache.
//! 3. text whose first token (after `#` comments) is `record` or
//!    `prune_record` followed by `{`, `<` or `:`: AMCT text format.
//! 4. bytes starting with `0x0a` or `0x12` (field 1 or 2, length-delimited)
//!    that decode as an AMCT `InnerScaleOffsetRecord` with at least one
//!    record or prune record: AMCT binary.
//!
//! ```
//! use onnc_nvdla::ctable::{detect, CalibFormat};
//! assert_eq!(detect(br#"{"conv1.SDP": {}}"#), Some(CalibFormat::Ctable));
//! assert_eq!(detect(br#"{"conv1": {"scale": 0.1}}"#), Some(CalibFormat::Calibtable));
//! assert_eq!(detect(b"# made by AMCT\nrecord {\n key: \"c\"\n}"), Some(CalibFormat::AmctText));
//! assert_eq!(detect(b"hello"), None);
//! ```

use onnc_proto::amct::InnerScaleOffsetRecord;
use onnc_proto::prost::Message;

use super::CalibFormat;

/// Register blocks of CTable keys (`<hw_layer>.<BLOCK>`).
const BLOCKS: [&str; 8] = [
    ".CONV", ".SDP", ".PDP", ".CDP", ".LUT", ".EMU", ".RUBIK", ".BDMA",
];

/// The format of `bytes`, or `None`.
pub fn detect(bytes: &[u8]) -> Option<CalibFormat> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let text = text.trim_start_matches('\u{feff}').trim_start();
        if text.starts_with('{') {
            return Some(json_kind(text));
        }
        let first = text.lines().next().unwrap_or("").trim_end();
        if is_trt_header(first) {
            return Some(CalibFormat::TrtCache);
        }
        if starts_with_record(text) {
            return Some(CalibFormat::AmctText);
        }
    }
    if matches!(bytes.first(), Some(0x0a | 0x12)) {
        if let Ok(r) = InnerScaleOffsetRecord::decode(bytes) {
            if !r.record.is_empty() || !r.prune_record.is_empty() {
                return Some(CalibFormat::Amct);
            }
        }
    }
    None
}

/// `TRT-<digits>-<algorithm>` (algorithm: letters and digits).
pub(super) fn is_trt_header(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("TRT-") else {
        return false;
    };
    let Some((version, algo)) = rest.split_once('-') else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_digit())
        && !algo.is_empty()
        && algo.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// ONNC's CTable or NVIDIA's calibtable, for JSON text.
fn json_kind(text: &str) -> CalibFormat {
    let is_ctable_key =
        |k: &str| k == "version" || k == "qinfo" || BLOCKS.iter().any(|b| k.ends_with(b));
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(m)) => {
            if m.keys().any(|k| is_ctable_key(k)) {
                CalibFormat::Ctable
            } else {
                CalibFormat::Calibtable
            }
        }
        _ => {
            let quoted = |k: &str| text.contains(&format!("\"{k}\""));
            if quoted("version")
                || quoted("qinfo")
                || BLOCKS.iter().any(|b| text.contains(&format!("{b}\"")))
            {
                CalibFormat::Ctable
            } else {
                CalibFormat::Calibtable
            }
        }
    }
}

/// The first token, past whitespace and `#` comments, is `record` or
/// `prune_record`, followed by `{`, `<` or `:`.
fn starts_with_record(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        match rest.strip_prefix('#') {
            Some(comment) => rest = comment.split_once('\n').map_or("", |(_, r)| r),
            None => break,
        }
    }
    ["record", "prune_record"].iter().any(|w| {
        rest.strip_prefix(w)
            .is_some_and(|r| r.trim_start().starts_with(['{', '<', ':']))
    })
}
