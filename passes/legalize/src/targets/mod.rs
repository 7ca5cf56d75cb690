//! Per-target legality: which operators each target runs natively, under
//! which limits, and how much work they are.
//!
//! In: an application e-node with known, static result shape. Out:
//! `Ok(Verdict)` or `Err(reason)` naming the violated limit.
//! One file per hardware family: [`nvdla`], [`nnie`], [`mvu`].

pub mod mvu;
pub mod nnie;
pub mod nnie_resize;
pub mod nnie_slice;
pub mod nvdla;
pub mod nvdla_moves;
pub mod nvdla_transformer;
pub mod nvdla_upsample;
pub mod slice_args;
