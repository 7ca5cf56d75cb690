//! Where each placed feature tensor of a [`Program`] sits in the loadable
//! [`emit()`](super::emit) writes for it: for tools that read intermediate
//! surfaces out of a simulated memory (`onnc-run --compare-target`'s
//! per-layer table).
//!
//! In: a planned [`Program`]. Out: per tensor id, `None` for fused streams
//! and weights, else the memory id and a tensor descriptor (offset, size,
//! dims, strides, element type) in the same form as a bindable tensor's.
//! The memory ids are those of the emitted memory list (the same
//! `MemPlan` numbering the emitter uses).
//!
//! ```text
//! program: x (bind input), c1 (act @ 0), y (bind output)
//! locate → [Some((3, x @ 0)), Some((2, c1 @ 0)), Some((4, y @ 0))]
//! ```

use onnc_nvdla_loadable::TensorDescListEntry;

use super::memory::{feature_desc, place, MemPlan};
use crate::config::Config;
use crate::program::{Program, TensorKind};
use crate::Result;

/// A feature tensor's bytes: memory id and descriptor.
pub type Located = (u16, TensorDescListEntry);

/// The memory location of every placed 4-D feature tensor (see the module doc).
pub fn locate(p: &Program) -> Result<Vec<Option<Located>>> {
    let cfg = Config::get(p.config);
    let mem = MemPlan::new(p, &cfg)?;
    let mut out = Vec::with_capacity(p.tensors.len());
    for (t, tensor) in p.tensors.iter().enumerate() {
        let feature = matches!(
            tensor.kind,
            TensorKind::Activation | TensorKind::Input(_) | TensorKind::Output(_)
        );
        if !feature || tensor.shape.len() != 4 {
            out.push(None);
            continue;
        }
        let pl = place(p, t)?;
        let mem_id = mem.mem_of(p, t)?;
        out.push(Some((
            mem_id,
            feature_desc(tensor, pl, t as u16, mem_id, &cfg),
        )));
    }
    Ok(out)
}
