//! A bit-exact functional simulator of NVDLA loadables.
//!
//! In: loadable bytes and the bound input tensors. Out: the bound output
//! tensors (and, for NVIDIA's regression goldens, the output in the 2018
//! DIMG layout). Timing is not modelled; arithmetic is, bit for bit, from
//! the formulas in NVIDIA's C-model (docs/simulator.md).
//!
//! Modules:
//! * [`error`] — [`SimError`], naming task, op, surface and address.
//! * [`memory`] — the address space and the per-op [`memory::TaskMem`] view.
//! * [`engine`] — [`engine::OpCtx`], [`engine::Hw`], [`engine::Flying`]: the engine interface.
//! * [`num`] — the shared numeric primitives (RHAZ shifts, saturation, the C-model floats).
//! * [`conv`] — the convolution pipeline (CDMA, CSC, CMAC, CACC).
//! * [`sdp`] — the single-point data processor.
//! * [`pdp`] — the planar data processor (pooling).
//! * [`cdp`] — the channel data processor (LRN).
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod conv;
pub mod engine;
pub mod error;
pub mod memory;
pub mod num;
pub mod sdp;
pub mod pdp;
pub mod cdp;

pub use error::{At, Result, SimError};
