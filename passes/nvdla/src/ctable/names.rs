//! CTable spellings: layer keys, JSON register names, nearest-name hints.
//!
//! In: an op (engine, hw_layer) and a register spec. Out: `"conv1.SDP"`,
//! `"out_cvt.scale"`; CDP's block registers get ONNC's prefix
//! (`in_cvt.offset` → `"cdp:in_cvt.offset"`, `lut_index` → `"cdp.lut_index"`).

use crate::program::{Engine, Program};
use crate::registers::{self, RegSpec};

/// `qinfo` as [`gen()`](super::gen) writes it: (key, value) in schema order.
pub const QINFO_DEFAULTS: [(&str, &str); 3] = [
    ("qstrategy", "sls"),
    ("qerror", "default"),
    ("qthreshold", "max"),
];

/// The CTable spelling of register `s` of `engine`.
pub fn json_register_name(engine: Engine, s: &RegSpec) -> String {
    match (engine, s.ctable_block) {
        (Engine::Cdp, Some("CDP")) if s.name == "lut_index" => "cdp.lut_index".to_string(),
        (Engine::Cdp, Some("CDP")) => format!("cdp:{}", s.name),
        _ => s.name.to_string(),
    }
}

/// The registers of `engine` in CTable `block`, in dialect order.
pub(crate) fn block_specs(
    engine: Engine,
    block: &str,
) -> impl Iterator<Item = &'static RegSpec> + '_ {
    registers::specs(engine)
        .iter()
        .filter(move |s| s.ctable_block == Some(block))
}

/// Every `(key, op index)` of the program's blocks, in op order.
pub(crate) fn layer_keys(p: &Program) -> Vec<(String, usize, &'static str)> {
    let mut keys = Vec::new();
    for (i, op) in p.ops.iter().enumerate() {
        for block in op.engine.ctable_blocks() {
            keys.push((format!("{}.{block}", op.hw_layer), i, *block));
        }
    }
    keys
}

/// Longest name for which [`nearest`] looks for suggestions.
const MAX_SUGGEST_LEN: usize = 256;

/// Up to three of `candidates` nearest to `name` (edit distance within a
/// third of the length, or a Jaro-Winkler similarity of 0.9 for shared
/// prefixes; closest first, then by name). None for names longer than
/// [`MAX_SUGGEST_LEN`].
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    // Edit distance is quadratic in time and memory: a 50 MB key gets no
    // suggestion rather than a 750 M-cell table.
    if name.len() > MAX_SUGGEST_LEN {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|(d, c)| {
            *d <= (c.len().max(name.len()) / 3).max(2) || strsim::jaro_winkler(name, c) >= 0.9
        })
        .collect();
    scored.sort();
    scored.dedup();
    scored
        .into_iter()
        .take(3)
        .map(|(_, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdp_keeps_onnc_spelling_and_others_are_the_dialect_names() {
        let cdp: Vec<_> = block_specs(Engine::Cdp, "CDP")
            .map(|s| json_register_name(Engine::Cdp, s))
            .collect();
        assert_eq!(cdp.first().map(String::as_str), Some("cdp:in_cvt.offset"));
        assert_eq!(cdp.last().map(String::as_str), Some("cdp.lut_index"));
        let lut = block_specs(Engine::Cdp, "LUT").next().unwrap();
        assert_eq!(
            json_register_name(Engine::Cdp, lut),
            "lut_param.linear_exp_offset.exp_offset"
        );
        let sdp = block_specs(Engine::Sdp, "SDP").next().unwrap();
        assert_eq!(json_register_name(Engine::Sdp, sdp), "x1_op.shift_value");
    }

    #[test]
    fn nearest_names_are_close_and_ordered() {
        let c = [
            "out_cvt.scale",
            "out_cvt.offset",
            "out_cvt.truncate",
            "in_cvt.scale",
        ];
        assert_eq!(
            nearest("out_cvt.scal", c),
            vec!["out_cvt.scale", "in_cvt.scale"]
        );
        assert!(nearest("zzz", c).is_empty());
    }
}
