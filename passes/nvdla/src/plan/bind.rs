//! Which bindable buffer holds a tensor.
//!
//! In: a [`Program`]. Out: for every tensor that lives in a bindable buffer
//! (network inputs and outputs, and the windows of them: a reshape of an
//! input, the members of an output concat), the network input or output that
//! owns the buffer. The emitter uses it to give such a tensor the owner's
//! address (its placement offset is then relative to that buffer).
//!
//! ```text
//! concat(a, m) → y (output):  owner(a) = owner(m) = owner(y) = y;  a @0, m @surface·⌈C_a/g⌉
//! ```

use std::collections::BTreeMap;

use super::views::Views;
use crate::config::Config;
use crate::program::{Program, TensorId, TensorKind};
use crate::Result;

/// Every tensor that shares storage with a network input or output, mapped
/// to that input or output (itself included). Errors are those of the
/// virtual ops (see [`super::plan`]).
pub fn bind_owners(p: &Program) -> Result<BTreeMap<TensorId, TensorId>> {
    let views = Views::build(p, &Config::get(p.config))?;
    let mut owner_of_root: BTreeMap<TensorId, TensorId> = BTreeMap::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        if matches!(tensor.kind, TensorKind::Input(_) | TensorKind::Output(_)) {
            owner_of_root.entry(views.root[t].0).or_insert(t);
        }
    }
    Ok((0..p.tensors.len())
        .filter_map(|t| owner_of_root.get(&views.root[t].0).map(|&o| (t, o)))
        .filter(|&(t, _)| !matches!(p.tensors[t].kind, TensorKind::Weight(_) | TensorKind::Fused))
        .collect())
}
