//! Weight blobs kept by name when a pass rebuilds a function from text.
//!
//! An in-memory pass run on MLIR text rebuilds the function in the context
//! the text was parsed into, where the old function's `dense_resource`
//! blobs still hold their names: a new blob of a taken name would be
//! renamed `conv1_weight_1` (and back to `conv1_weight` on the next round
//! trip, where the name is free again). So the rebuild looks up the old
//! function's blobs ([`blobs_of_func`]) and reuses the attribute of a
//! weight whose bytes are unchanged ([`Blobs::weight_attr`]); a weight the
//! pass changed gets a new blob. Every level (onnx, nvdla, mvu, nnie)
//! builds its weights through this, so text → pass → text keeps the names.

use melior::ir::{
    attribute::{ArrayAttribute, DictionaryAttribute},
    operation::OperationLike,
    Attribute, OperationRef, RegionLike,
};
use melior::Context;
use onnc_dialects::ir;
use onnc_tensor::Tensor;
use std::collections::HashMap;

/// How many `<name>_<n>` renamings of one blob name are looked at: MLIR
/// numbers a taken name's next use `_1`, `_2`, …
const RENAMINGS: usize = 16;

/// The `dense_resource` attributes of a function about to be rebuilt, by
/// blob name.
#[derive(Default)]
pub struct Blobs<'c> {
    by_name: HashMap<String, Attribute<'c>>,
}

impl<'c> Blobs<'c> {
    /// No blobs: every weight gets a new one.
    pub fn new() -> Self {
        Self::default()
    }

    /// `tensor` as an elements attribute whose blob is named `blob` (inline
    /// `dense<…>` when small, as [`ir::tensor_attr`]): a known attribute
    /// holding the same bytes under `blob` or a renaming of it
    /// (`blob_1`, …) when there is one, else a new one.
    pub fn weight_attr(&self, context: &'c Context, tensor: Tensor, blob: &str) -> Attribute<'c> {
        match self.same(&tensor, blob) {
            Some(a) => a,
            None => ir::tensor_attr(context, tensor, blob),
        }
    }

    /// [`Self::weight_attr`] for a tensor that is always a `dense_resource`
    /// whatever its size (the NNIE package's file bytes).
    pub fn resource_attr(&self, context: &'c Context, tensor: Tensor, blob: &str) -> Attribute<'c> {
        match self.same(&tensor, blob) {
            Some(a) => a,
            None => ir::dense_resource(context, blob, tensor),
        }
    }

    /// The known attribute named `blob` or `blob_<n>` that holds `tensor`'s
    /// type, shape and bytes.
    fn same(&self, tensor: &Tensor, blob: &str) -> Option<Attribute<'c>> {
        let candidates =
            std::iter::once(blob.to_string()).chain((1..=RENAMINGS).map(|n| format!("{blob}_{n}")));
        candidates
            .filter_map(|name| self.by_name.get(&name).copied())
            .find(|a| ir::resource_to_tensor(*a).is_some_and(|t| same_bytes(&t, tensor)))
    }

    /// Records `a` when it is a `dense_resource`, or every one inside it
    /// when it is an array or a dictionary.
    fn collect(&mut self, a: Attribute<'c>) {
        if let Ok(arr) = ArrayAttribute::try_from(a) {
            for i in 0..arr.len() {
                if let Ok(e) = arr.element(i) {
                    self.collect(e);
                }
            }
        } else if let Ok(dict) = DictionaryAttribute::try_from(a) {
            for i in 0..dict.len() {
                if let Ok((_, e)) = dict.element(i) {
                    self.collect(e);
                }
            }
        } else if let Some(name) = resource_name(a) {
            self.by_name.insert(name, a);
        }
    }
}

/// The blob name of a `dense_resource<name>` attribute.
fn resource_name(a: Attribute) -> Option<String> {
    let text = a.to_string();
    let rest = text.strip_prefix("dense_resource<")?;
    rest.split_once('>').map(|(n, _)| n.to_string())
}

/// The `dense_resource` attributes of `func` (a `func.func` read from MLIR):
/// those among its own attributes and its body's ops' attributes, also
/// inside arrays and dictionaries.
pub fn blobs_of_func<'c>(func: &OperationRef<'c, '_>) -> Blobs<'c> {
    let mut out = Blobs::new();
    for (_, a) in func.attributes() {
        out.collect(a);
    }
    if let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) {
        for op in crate::walk::ops_of(block) {
            for (_, a) in op.attributes() {
                out.collect(a);
            }
        }
    }
    out
}

/// Whether two tensors have the same type, shape and bytes (NaNs included).
fn same_bytes(a: &Tensor, b: &Tensor) -> bool {
    a.dtype() == b.dtype() && a.shape() == b.shape() && a.le_bytes() == b.le_bytes()
}
