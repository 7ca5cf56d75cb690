//! The clip table `*_gfpq_param_dict.json` (MQBench's NNIE deploy format).
//!
//! In: the JSON MQBench's `deploy_nnie.py` writes, or per-layer clip values
//! from calibration. Out: a [`ClipTable`] (layer name → one clip value per
//! quantized input, in file order) and the same JSON back.
//!
//! Shape (MQBench `mqbench/deploy/deploy_nnie.py`, `json.dump(..., indent=4)`):
//!
//! ```json
//! {
//!     "nnie": {
//!         "gfpq_param_dict": {
//!             "<node name>": [c_in0, c_in1, ...]
//!         }
//!     }
//! }
//! ```
//!
//! Keys are the *consuming* node's name; each value lists the clip of every
//! quantized input of that node. MQBench also adds, for the n-th Upsample
//! node `U`, an alias `U_permute_<n>` with the same list, because NNIE lowers
//! Upsample to Upsample + Permute ([`ClipTable::push_upsample`]).
//!
//! The reader keeps the file's key order, ignores unknown keys beside
//! `"nnie"`/`"gfpq_param_dict"`, and rejects duplicate names, non-lists, and
//! clips that are not finite and positive. Layer names the model does not
//! have are refused by the front end (`frontend::clip_keys`), as CTable
//! refuses unknown layer keys. MQBench writes raw (unsnapped)
//! calibrated values; [`ClipTable::snapped`] moves them onto the grid. The
//! writer is deterministic: insertion order, 4-space indentation, shortest
//! round-trip decimals.
//!
//! ```
//! use onnc_nnie::{ClipTable, ClipValue, SnapMode};
//! let json = r#"{"nnie": {"gfpq_param_dict": {"conv1": [2.5], "add1": [4.0, 3.0]}}}"#;
//! let t = ClipTable::from_json(json).unwrap();
//! assert_eq!(t.get("add1"), Some(&[4.0, 3.0][..]));
//! let s = t.snapped(SnapMode::Nearest).unwrap();
//! assert_eq!(s.get("conv1").unwrap()[0], ClipValue::snap(2.5, SnapMode::Nearest).unwrap().value());
//! assert_eq!(ClipTable::from_json(&s.to_json()).unwrap(), s);
//! ```

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::error::{NnieError, Result};
use crate::grid::{ClipValue, SnapMode};

/// Outer key of the document.
pub const NNIE_KEY: &str = "nnie";
/// Inner key of the document.
pub const DICT_KEY: &str = "gfpq_param_dict";

/// Per-layer clip values, in insertion (file) order, names unique.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClipTable {
    entries: Vec<(String, Vec<f64>)>,
    upsamples: usize,
}

impl ClipTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Append a layer's clip list; names must be unique and clips finite, > 0.
    pub fn insert(&mut self, layer: &str, clips: Vec<f64>) -> Result<()> {
        if self.entries.iter().any(|(n, _)| n == layer) {
            return Err(NnieError::DuplicateLayer(layer.to_string()));
        }
        if let Some(&bad) = clips.iter().find(|c| !(c.is_finite() && **c > 0.0)) {
            return Err(NnieError::ClipTable(format!(
                "layer {layer:?}: clip {bad} must be finite and > 0"
            )));
        }
        self.entries.push((layer.to_string(), clips));
        Ok(())
    }

    /// Append a layer's grid clips (stored as their `f64` values).
    pub fn insert_clips(&mut self, layer: &str, clips: &[ClipValue]) -> Result<()> {
        self.insert(layer, clips.iter().map(|c| c.value()).collect())
    }

    /// Append an Upsample node and, like MQBench, its alias
    /// `<layer>_permute_<n>` (`n` counts Upsample nodes pushed so far, from 0).
    pub fn push_upsample(&mut self, layer: &str, clips: Vec<f64>) -> Result<()> {
        let alias = format!("{layer}_permute_{}", self.upsamples);
        if self.entries.iter().any(|(n, _)| *n == alias) {
            return Err(NnieError::DuplicateLayer(alias));
        }
        self.insert(layer, clips.clone())?;
        self.insert(&alias, clips)?;
        self.upsamples += 1;
        Ok(())
    }

    /// The clip list of a layer.
    pub fn get(&self, layer: &str) -> Option<&[f64]> {
        self.entries
            .iter()
            .find(|(n, _)| n == layer)
            .map(|(_, c)| c.as_slice())
    }

    /// Entries in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[f64])> {
        self.entries.iter().map(|(n, c)| (n.as_str(), c.as_slice()))
    }

    /// Number of layers.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No layers.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The same table with every clip snapped to the `2^(k/16)` grid.
    pub fn snapped(&self, mode: SnapMode) -> Result<Self> {
        let mut out = Self {
            entries: Vec::with_capacity(self.entries.len()),
            upsamples: self.upsamples,
        };
        for (name, clips) in &self.entries {
            let snapped = clips
                .iter()
                .map(|&c| ClipValue::snap_f64(c, mode).map(ClipValue::value))
                .collect::<Result<Vec<f64>>>()
                .map_err(|e| NnieError::ClipTable(format!("layer {name:?}: {e}")))?;
            out.entries.push((name.clone(), snapped));
        }
        Ok(out)
    }

    /// Every clip as a grid value; fails on the first clip that is not exactly
    /// on the grid (use [`ClipTable::snapped`] first for raw tables).
    pub fn grid_clips(&self) -> Result<Vec<(String, Vec<ClipValue>)>> {
        self.entries
            .iter()
            .map(|(name, clips)| {
                let g = clips
                    .iter()
                    .map(|&c| {
                        ClipValue::exact_from_f64(c).ok_or_else(|| {
                            NnieError::ClipTable(format!(
                                "layer {name:?}: clip {c} is not on the 2^(k/16) grid"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok((name.clone(), g))
            })
            .collect()
    }

    /// Parse MQBench's JSON.
    pub fn from_json(text: &str) -> Result<Self> {
        let doc: Document =
            serde_json::from_str(text).map_err(|e| NnieError::ClipTable(e.to_string()))?;
        let mut table = Self::new();
        for (name, clips) in doc.nnie.dict.0 {
            table.insert(&name, clips)?;
        }
        table.upsamples = table
            .entries
            .iter()
            .filter(|(n, _)| is_permute_alias(n))
            .count();
        Ok(table)
    }

    /// Write MQBench's JSON (4-space indent, trailing newline).
    pub fn to_json(&self) -> String {
        let mut buf = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
        // Serializing plain strings and finite f64 into memory cannot fail.
        if DocumentRef(self).serialize(&mut ser).is_err() {
            return String::new();
        }
        buf.push(b'\n');
        String::from_utf8(buf).unwrap_or_default()
    }
}

fn is_permute_alias(name: &str) -> bool {
    name.rsplit_once("_permute_")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

// ---- writer -------------------------------------------------------------

struct DocumentRef<'a>(&'a ClipTable);
struct NnieRef<'a>(&'a ClipTable);
struct DictRef<'a>(&'a ClipTable);

impl Serialize for DocumentRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(NNIE_KEY, &NnieRef(self.0))?;
        m.end()
    }
}

impl Serialize for NnieRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(DICT_KEY, &DictRef(self.0))?;
        m.end()
    }
}

impl Serialize for DictRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.entries.len()))?;
        for (name, clips) in &self.0.entries {
            m.serialize_entry(name, clips)?;
        }
        m.end()
    }
}

// ---- reader -------------------------------------------------------------

// serde's derive skips unknown keys of these two sections.
#[derive(Deserialize)]
struct Document {
    nnie: NnieSection,
}

#[derive(Deserialize)]
struct NnieSection {
    #[serde(rename = "gfpq_param_dict")]
    dict: OrderedDict,
}

/// A JSON object read in document order, rejecting duplicate keys.
struct OrderedDict(Vec<(String, Vec<f64>)>);

impl<'de> Deserialize<'de> for OrderedDict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrderedDict;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object mapping layer names to lists of clip values")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<OrderedDict, A::Error> {
                let mut seen = HashSet::new();
                let mut out = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if !seen.insert(name.clone()) {
                        return Err(de::Error::custom(format!("duplicate layer name {name:?}")));
                    }
                    let clips: Vec<f64> = map.next_value()?;
                    out.push((name, clips));
                }
                Ok(OrderedDict(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_mqbench_layout() {
        let mut t = ClipTable::new();
        t.insert("conv1", vec![2.0]).unwrap();
        t.insert("add", vec![1.5, 0.25]).unwrap();
        let expected = "{\n    \"nnie\": {\n        \"gfpq_param_dict\": {\n            \"conv1\": [\n                2.0\n            ],\n            \"add\": [\n                1.5,\n                0.25\n            ]\n        }\n    }\n}\n";
        assert_eq!(t.to_json(), expected);
    }

    #[test]
    fn round_trip_keeps_order_and_values() {
        let mut t = ClipTable::new();
        for (i, name) in ["z_last", "a_first", "m_mid"].iter().enumerate() {
            t.insert_clips(name, &[ClipValue::from_index(i as i64 * 7 - 3).unwrap()])
                .unwrap();
        }
        t.push_upsample("up", vec![ClipValue::from_index(5).unwrap().value()])
            .unwrap();
        t.push_upsample("up2", vec![1.0]).unwrap();
        let back = ClipTable::from_json(&t.to_json()).unwrap();
        assert_eq!(back, t);
        let names: Vec<&str> = back.iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "z_last",
                "a_first",
                "m_mid",
                "up",
                "up_permute_0",
                "up2",
                "up2_permute_1"
            ]
        );
        assert_eq!(back.grid_clips().unwrap()[0].1[0].index(), -3);
    }

    #[test]
    fn reader_rejects_bad_documents() {
        for bad in [
            "",
            "[]",
            r#"{"nnie": {}}"#,
            r#"{"nnie": {"gfpq_param_dict": {"a": 1.0}}}"#,
            r#"{"nnie": {"gfpq_param_dict": {"a": [1.0], "a": [2.0]}}}"#,
            r#"{"nnie": {"gfpq_param_dict": {"a": [0.0]}}}"#,
            r#"{"nnie": {"gfpq_param_dict": {"a": [-1.0]}}}"#,
            r#"{"nnie": {"gfpq_param_dict": {"a": ["x"]}}}"#,
        ] {
            assert!(ClipTable::from_json(bad).is_err(), "{bad}");
        }
        // unknown sibling keys are ignored
        let t = ClipTable::from_json(
            r#"{"other": 1, "nnie": {"x": 2, "gfpq_param_dict": {"a": [1.0]}}}"#,
        )
        .unwrap();
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn raw_tables_need_snapping_for_grid_clips() {
        let t = ClipTable::from_json(r#"{"nnie": {"gfpq_param_dict": {"a": [3.0]}}}"#).unwrap();
        assert!(t.grid_clips().is_err());
        let s = t.snapped(SnapMode::Up).unwrap();
        assert_eq!(s.grid_clips().unwrap()[0].1[0].index(), 26); // 16*log2(3) = 25.36
        let mut t2 = t.clone();
        assert!(matches!(
            t2.insert("a", vec![1.0]),
            Err(NnieError::DuplicateLayer(_))
        ));
        assert!(!t2.is_empty());
    }
}
