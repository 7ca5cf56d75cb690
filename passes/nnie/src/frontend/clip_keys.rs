//! Unknown keys of an MQBench clip table are refused — the same policy as
//! NVDLA's CTable (docs/reliability.md, "Policies").
//!
//! In: the clip table, the NNIE layers and the model's ONNX names. Out:
//! `Ok`, or an [`NnieError::ClipTable`] listing the first few keys that name
//! no node of the model (with the nearest node name where one is close) and
//! the count. A key is known when it is a layer's name, one of the ONNX
//! nodes the layer came from, an ONNX node or output tensor name of the
//! model ([`OnnxNames`]), or MQBench's Upsample alias `<known>_permute_<n>`.
//! A silently ignored key used to hide a typo or a table made for another
//! model.

use std::collections::HashSet;

use super::layer::Layer;
use super::names::OnnxNames;
use crate::error::{NnieError, Result};
use crate::ClipTable;

/// How many unknown keys the message lists by name.
const LISTED: usize = 5;
/// Longest key for which a "did you mean" is computed (edit distance is quadratic).
const MAX_SUGGEST_LEN: usize = 256;
/// Longest key text shown.
const MAX_SHOWN: usize = 80;

/// Refuses keys of `table` (read from `file`) that name no node of `layers`.
pub(crate) fn check_known(
    table: &ClipTable,
    layers: &[Layer],
    names: &OnnxNames,
    file: &str,
) -> Result<()> {
    let known: HashSet<&str> = layers
        .iter()
        .flat_map(|l| std::iter::once(l.name.as_str()).chain(l.sources.iter().map(String::as_str)))
        .collect();
    let is_known = |k: &str| {
        known.contains(k)
            || names.node(k).is_some()
            || k.rsplit_once("_permute_").is_some_and(|(base, n)| {
                (known.contains(base) || names.node(base).is_some())
                    && !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_digit())
            })
    };
    let unknown: Vec<&str> = table
        .iter()
        .map(|(k, _)| k)
        .filter(|k| !is_known(k))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = unknown
        .iter()
        .take(LISTED)
        .map(|k| match nearest(k, &known) {
            Some(n) => format!("'{}' (did you mean '{n}'?)", clip(k)),
            None => format!("'{}'", clip(k)),
        })
        .collect();
    let more = if unknown.len() > LISTED {
        format!(" and {} more", unknown.len() - LISTED)
    } else {
        String::new()
    };
    Err(NnieError::ClipTable(format!(
        "{file}: {} key(s) of gfpq_param_dict name no node of the model: {}{more}; fix the names or use the table made for this model",
        unknown.len(),
        shown.join(", ")
    )))
}

fn clip(k: &str) -> String {
    match k.char_indices().nth(MAX_SHOWN) {
        None => k.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &k[..cut], k.len()),
    }
}

/// The known name nearest to `k`, if close (edit distance within a third).
fn nearest<'a>(k: &str, known: &HashSet<&'a str>) -> Option<&'a str> {
    if k.len() > MAX_SUGGEST_LEN {
        return None;
    }
    known
        .iter()
        .map(|n| (strsim::levenshtein(k, n), *n))
        .filter(|(d, n)| *d <= (n.len().max(k.len()) / 3).max(1))
        .min()
        .map(|(_, n)| n)
}
