//! Memory planning: where every tensor of a [`Program`] lives.
//!
//! In: a lowered [`Program`]. Out: the same program with [`Tensor::place`]
//! set on every tensor except fused CONV→SDP accumulators, and a
//! [`PlanReport`]; or a [`Error`] naming the op or tensor that cannot be
//! placed and how the lowering should avoid it.
//!
//! * **Bindable buffers** (pool `bind`): every network input and output gets
//!   its own buffer at offset 0, laid out as a feature cube
//!   ([`cube_layout`]). An output that is a window of a larger cube (a concat
//!   member, a slice, a reshape) makes that whole cube its buffer, unless the
//!   cube already belongs to another input or output.
//! * **Weights** (pool `weights`): packed in tensor order, sized and aligned
//!   by use ([`WeightUse`]; conv kernels per [`weight_size`]).
//! * **Activations** (pool `act`): concat members, slices and reshapes are
//!   windows of one storage cube (module `views`); each storage cube lives
//!   from the first op that writes any of its windows to the last op that
//!   reads one; cubes whose lifetimes do not meet share bytes
//!   ([`Strategy::BestFit`]), or nothing is shared ([`Strategy::Naive`]).
//!   [`PlanReport::activation_lower_bound_bytes`] is the largest sum of
//!   storage cubes live at one op; no placement can do better.
//!
//! [`check`] re-derives every rule from the placements alone (per-tensor
//! lifetimes, no two live tensors on the same bytes) and is cheap enough to
//! run after every plan.
//!
//! ```
//! use onnc_nvdla::{ConfigName, Engine, Op, Pool, Precision, Program, Tensor, TensorKind};
//! use onnc_nvdla::plan::{check, plan, PlanOptions};
//! let cube = |name: &str, kind| Tensor { name: name.into(), shape: vec![1, 16, 8, 8], precision: Precision::Fp16, kind, place: None };
//! let mut p = Program::new(ConfigName::NvFull);
//! let ids: Vec<_> = [("x", TensorKind::Input(0)), ("a", TensorKind::Activation), ("b", TensorKind::Activation),
//!     ("c", TensorKind::Activation), ("y", TensorKind::Output(0))].into_iter().map(|(n, k)| p.add_tensor(cube(n, k))).collect();
//! for (i, w) in ids.windows(2).enumerate() {   // x → a → b → c → y, one PDP each
//!     p.ops.push(Op { engine: Engine::Pdp, hw_layer: format!("pool{i}"), attrs: Default::default(),
//!         inputs: vec![Some(w[0])], output: w[1], onnx_nodes: vec![] });
//! }
//! (p.inputs, p.outputs) = (vec![ids[0]], vec![ids[4]]);
//! let report = plan(&mut p, &PlanOptions::default()).unwrap();
//! check(&p).unwrap();
//! // a and c (2048 B each) take turns with b: two cubes are enough.
//! assert_eq!(report.activation_bytes, 4096);
//! assert_eq!(p.tensors[ids[1]].place.unwrap().offset, p.tensors[ids[3]].place.unwrap().offset);
//! assert_eq!(p.tensors[ids[4]].place.unwrap().pool, Some(Pool::Bind));
//! ```

mod alloc;
mod bind;
mod check;
mod error;
mod layout;
mod live_index;
mod liveness;
mod views;
mod weights;

use std::collections::BTreeMap;

pub use bind::bind_owners;
pub use check::check;

pub use layout::{align_up, cube_layout, group, nchw, weight_size, WeightUse, WEIGHT_ALIGN};

use crate::config::Config;
use crate::program::{Placement, Pool, Program, Tensor, TensorId, TensorKind};
use crate::{Error, Result};
use alloc::Item;
use layout::cube_bytes;
pub use liveness::tensor_lives;
use views::Views;

/// How activation cubes share the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Liveness-based reuse: greedy best fit over several orders, smallest pool kept.
    #[default]
    BestFit,
    /// No reuse: every storage cube gets its own bytes (for comparison).
    Naive,
}

/// Planner options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Activation placement strategy.
    pub strategy: Strategy,
}

/// What a plan costs, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanReport {
    /// Size of the activation pool.
    pub activation_bytes: u64,
    /// The largest sum of storage cubes live at one op (no plan can use less).
    pub activation_lower_bound_bytes: u64,
    /// Size of the weight pool.
    pub weight_bytes: u64,
    /// Sum of the bindable buffers (network inputs and outputs).
    pub bind_bytes: u64,
}

impl PlanReport {
    /// `activation_bytes / activation_lower_bound_bytes` (1.0 for an empty pool).
    pub fn ratio(&self) -> f64 {
        if self.activation_lower_bound_bytes == 0 {
            1.0
        } else {
            self.activation_bytes as f64 / self.activation_lower_bound_bytes as f64
        }
    }
}

/// Places every tensor of `p` (see the module doc). Deterministic; on error
/// `p` may hold the weight placements only.
pub fn plan(p: &mut Program, opts: &PlanOptions) -> Result<PlanReport> {
    let config = Config::get(p.config);
    let views = Views::build(p, &config)?;
    let weight_bytes = weights::place(p, &config)?;
    let lives = tensor_lives(p);
    let mut produced = vec![false; p.tensors.len()];
    for op in &p.ops {
        produced[op.output] = true;
    }

    // Storage cubes and the tensors that are windows of them.
    let mut trees: BTreeMap<TensorId, Vec<TensorId>> = BTreeMap::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        if matches!(tensor.kind, TensorKind::Weight(_) | TensorKind::Fused) {
            continue;
        }
        check_strides(tensor, &config)?;
        if !produced[t] && !matches!(tensor.kind, TensorKind::Input(_)) {
            return Err(Error::NoProducer {
                tensor: tensor.name.clone(),
            });
        }
        trees.entry(views.root[t].0).or_default().push(t);
    }

    let mut bind_bytes = 0;
    let mut act_roots: Vec<TensorId> = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    for (&root, members) in &trees {
        let root_size = cube_bytes(&p.tensors[root].shape, p.tensors[root].precision, &config).2;
        let io: Vec<TensorId> = members
            .iter()
            .copied()
            .filter(|&m| {
                matches!(
                    p.tensors[m].kind,
                    TensorKind::Input(_) | TensorKind::Output(_)
                )
            })
            .collect();
        if let [first, second, ..] = io[..] {
            return Err(Error::SharedBindBuffer {
                first: p.tensors[first].name.clone(),
                second: p.tensors[second].name.clone(),
            });
        }
        if io.is_empty() {
            let start = members.iter().map(|&m| lives[m].0).min().unwrap_or(0);
            let end = members.iter().map(|&m| lives[m].1).max().unwrap_or(0);
            act_roots.push(root);
            items.push(Item {
                size: align_up(root_size, WEIGHT_ALIGN),
                start,
                end,
            });
        } else {
            bind_bytes += root_size;
            place_tree(p, &views, &config, members, Pool::Bind, 0);
        }
    }

    let lower_bound = alloc::lower_bound(&items);
    let (offsets, activation_bytes) = match opts.strategy {
        Strategy::BestFit => alloc::best_fit(&items),
        Strategy::Naive => alloc::naive(&items),
    };
    for (i, &root) in act_roots.iter().enumerate() {
        place_tree(
            p,
            &views,
            &config,
            &trees[&root],
            Pool::Activations,
            offsets[i],
        );
    }
    Ok(PlanReport {
        activation_bytes,
        activation_lower_bound_bytes: lower_bound,
        weight_bytes,
        bind_bytes,
    })
}

/// Places the windows `members` of one storage cube placed at `base` in `pool`.
fn place_tree(
    p: &mut Program,
    views: &Views,
    config: &Config,
    members: &[TensorId],
    pool: Pool,
    base: u64,
) {
    for &m in members {
        let t = &mut p.tensors[m];
        let layout = cube_layout(&t.shape, t.precision, config);
        let g = views.geometry[m];
        t.place = Some(Placement {
            pool: Some(pool),
            offset: base + views.root[m].1,
            size: g.size,
            line_stride: u32::try_from(g.line).unwrap_or(layout.line_stride),
            surf_stride: u32::try_from(g.surf).unwrap_or(layout.surf_stride),
        });
    }
}

/// Strides must fit the 32-bit registers.
fn check_strides(t: &Tensor, config: &Config) -> Result<()> {
    let (line, surf, _) = cube_bytes(&t.shape, t.precision, config);
    for (what, bytes) in [("line stride", line), ("surface stride", surf)] {
        if bytes > u32::MAX as u64 {
            return Err(Error::TooLarge {
                tensor: t.name.clone(),
                shape: t.shape.clone(),
                what,
                bytes,
            });
        }
    }
    Ok(())
}
