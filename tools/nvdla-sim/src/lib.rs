//! A bit-exact functional simulator of NVDLA loadables.
//!
//! In: loadable bytes and the bound input tensors. Out: the bound output
//! tensors (and, for NVIDIA's regression goldens, the output in the 2018
//! DIMG layout). Timing is not modelled; arithmetic is, bit for bit, from
//! the formulas in NVIDIA's C-model (docs/simulator.md).
//!
//! Modules:
//! * [`error`] — [`Error`], naming task, op, surface and address.
//! * [`memory`] — the address space and the per-op [`memory::TaskMem`] view.
//! * [`engine`] — [`engine::OpCtx`], [`engine::Hw`], [`engine::Flying`]: the engine interface.
//! * [`num`] — the shared numeric primitives (RHAZ shifts, saturation, the C-model floats).
//! * [`conv`] — the convolution pipeline (CDMA, CSC, CMAC, CACC).
//! * [`sdp`] — the single-point data processor.
//! * [`pdp`] — the planar data processor (pooling).
//! * [`cdp`] — the channel data processor (LRN).
//! * [`bdma`], [`rubik`] — the bridge DMA and the Rubik reshapes.
//! * [`emu`] — the CPU ops between DLA tasks (power, softmax).
//! * [`mod@load`] — loadable bytes → [`load::Network`] (ABI, hardware, bindings, firmware checks).
//! * [`sched`] — the firmware scheduler of a DLA task, fused pipelines.
//! * [`dimg`] — the regression test app's DIMG output file.
//! * [`run`] — the public API: [`simulate`], [`golden_dimg`].
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod bdma;
pub mod cdp;
pub mod conv;
pub mod dimg;
pub mod emu;
pub mod engine;
pub mod error;
pub mod load;
pub mod memory;
pub mod num;
pub mod pdp;
pub mod rubik;
pub mod run;
pub mod sched;
pub mod sdp;

pub use engine::{Engines, Hw};
pub use error::{At, Error, Result};
pub use load::{load, LoadOptions, Network};
pub use run::{
    golden_dimg, layer_count, simulate, simulate_with_dump, simulate_with_layers, Layer, Options,
    OutTensor, Outputs, Tensor, TensorData,
};
pub use sched::Dump;
