//! `nvdla-split-conv`: decides the CBUF allotment and row bands of every
//! convolution that does not fit the convolution buffer whole, and records
//! them on the program for emission.
//!
//! In: a lowered [`Program`]. Out: [`Program::cbuf`] holding, for each conv
//! emitted whole (not in channel chunks, see [`super::chunking`]) that needs
//! more than one row band, its [`CbufPlan`](crate::cbuf::CbufPlan) (the
//! rules are [`super::split`]'s); the number of such convs. Convs that fit
//! whole get no plan: their allotment (one band, the whole input with the
//! conv's own pads, the first weight mode that fits) involves no cut, and
//! emission derives it. A conv that fits neither whole, in bands nor in
//! channel chunks is an error naming it. Idempotent: plans recorded before
//! are replaced.

use super::attrs::A;
use super::chunking::{cbuf_plan, chunked_weights};
use super::split::record;
use crate::config::Config;
use crate::program::{Engine, Program};
use crate::{Error, Result};
use std::collections::BTreeMap;

/// The hint added when a conv fits neither whole nor in row bands.
pub(crate) fn unsplittable(e: Error) -> Error {
    match e {
        Error::Op {
            engine,
            hw_layer,
            problem,
        } => Error::Op {
            engine,
            hw_layer,
            problem: format!(
                "{problem}; its kernels read (nearly) all its input channels, so it cannot be cut into independent channel chunks — split its input channels into partial sums before lowering (legalization's nvdla/conv-split-channels does) or use fewer input channels per conv"
            ),
        },
        other => other,
    }
}

/// Records the CBUF plan of every conv of `p` cut into row bands (see the
/// module doc) and returns how many there are.
pub fn split_convs(p: &mut Program) -> Result<usize> {
    let cfg = Config::get(p.config);
    let chunked = chunked_weights(p, &cfg);
    let mut plans = BTreeMap::new();
    for op in p.ops.iter().filter(|o| o.engine == Engine::Conv) {
        let w = op.inputs.get(1).copied().flatten();
        if w.is_some_and(|w| chunked.contains_key(&w)) {
            continue;
        }
        let plan = cbuf_plan(p, &cfg, op, None).map_err(unsplittable)?;
        if plan.bands.len() < 2 {
            continue;
        }
        if plans.insert(op.hw_layer.clone(), record(&plan)).is_some() {
            return Err(A::new(op).op_err(
                "another conv has the same hardware-layer name, so their CBUF plans cannot be told apart",
            ));
        }
    }
    let n = plans.len();
    p.cbuf = plans;
    Ok(n)
}
