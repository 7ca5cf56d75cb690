//! The in-memory pipeline: one IR per level, passes that edit it in place.
//!
//! A compile holds one [`Module`] — the ONNX level's [`onnc_onnx::Graph`]
//! or the NVDLA level's [`onnc_nvdla::Program`] — and runs [`Pass`]es over
//! it with the [`Manager`]. A pass edits the module where it stands; only a
//! `convert-<a>-to-<b>` pass changes its level, once, one way. MLIR is the
//! text form at the edges: printed only when asked ([`text`]: `--emit
//! mlir`, `--dump-ir-after-all`), and read by `onnc-opt`, which converts a
//! module's functions once into one [`Module`] each ([`functions`]), runs
//! each run of consecutive in-memory passes on them ([`opt`]) and converts
//! back once; it crosses to MLIR only around upstream passes.
//!
//! ```text
//! let passes = pipeline::parse("onnx-simplify,onnc-legalize{target=nv_full},convert-onnx-to-nvdla{config=nv_full}")?;
//! let mut m = Module::Onnx(graph);
//! Manager::new(passes).run(&mut m, &mut diags, |flag, m| { /* progress, dumps */ Ok(()) })?;
//! ```
//!
//! Each pass file (`onnx/simplify.rs`, `legalize/pass.rs`, `nvdla/*.rs`)
//! holds its one registration (flag, options, docs) and its in-memory
//! [`Pass`]; an MLIR pass manager that names it runs the one adapter
//! [`mlir_face`].

pub mod diags;
pub mod functions;
pub mod manager;
pub mod mlir_face;
pub mod module;
pub mod names;
pub mod opt;
pub mod parse;
pub mod pass;
pub mod program_order;
pub mod registry;
pub mod text;

pub use diags::Diags;
pub use manager::Manager;
pub use module::{Module, MvuModule, NnieModule, NvdlaModule};
pub use parse::parse;
pub use pass::Pass;
