//! The in-memory pipeline: one IR per level, passes that edit it in place.
//!
//! A compile holds one [`Module`] — the ONNX level's [`onnc_onnx::Graph`]
//! or the NVDLA level's [`onnc_nvdla::Program`] — and runs [`Pass`]es over
//! it with the [`Manager`]. A pass edits the module where it stands; only a
//! `convert-<a>-to-<b>` pass changes its level, once, one way. MLIR is the
//! text form at the edges ([`text`]): printed only when asked (`--emit
//! mlir`, `--dump-ir-after-all`).
//!
//! ```text
//! let passes = pipeline::parse("onnx-simplify,onnc-legalize{target=nv_full},convert-onnx-to-nvdla{config=nv_full}")?;
//! let mut m = Module::Onnx(graph);
//! Manager::new(passes).run(&mut m, &mut diags, |flag, m| { /* progress, dumps */ Ok(()) })?;
//! ```
//!
//! Each pass file (`onnx/simplify.rs`, `legalize/pass.rs`, `nvdla/*.rs`)
//! holds both forms of its pass: the MLIR registration `onnc-opt` runs and
//! the in-memory [`Pass`] `onnc compile` runs, over one shared body.

pub mod diags;
pub mod manager;
pub mod module;
pub mod names;
pub mod parse;
pub mod pass;
pub mod program_order;
pub mod registry;
pub mod text;

pub use diags::Diags;
pub use manager::Manager;
pub use module::{Module, NvdlaModule};
pub use parse::parse;
pub use pass::Pass;
