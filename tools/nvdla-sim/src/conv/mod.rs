//! The convolution pipeline: CDMA → CSC → CMAC → CACC (nvdla-arith.md §4–5).
//!
//! In: a `dla_conv_op_desc`, its surface descriptor and the task memory.
//! Out: the CACC output as a [`crate::engine::Flying`] cube for the fused
//! SDP — int32 (after `clip_truncate`) for INT8/INT16, fp32 values for FP16.
//!
//! Modelled: direct convolution of feature input (`FORMAT_FEATURE`), INT8,
//! INT16 and FP16, the CDMA input converter, padding with the pad value,
//! stride, dilation, uncompressed weights. Output channels are computed in
//! parallel (rayon); each output element is computed by the same sequence
//! of operations whatever the thread count.
//!
//! Not modelled (a [`crate::Error::Unsupported`] names them): image input
//! (pixel formats; the compiler emits feature input only), Winograd,
//! compressed weights, batch > 1.
//!
//! Modules:
//! * [`cube`] — feature-cube addressing and element precisions (also used
//!   by the SDP);
//! * [`weight`] — the direct-convolution weight layout;
//! * [`cdma`] — input conversion and padding;
//! * [`cmac_fp16`] — the FP16 block-floating-point MAC (Booth multiplier);
//! * [`cacc`] — the integer and fp48 accumulators;
//! * [`plan`] — a kernel's non-zero weights, and why skipping the zeros is
//!   exact;
//! * `direct` — geometry, checks and the reference per-output loops
//!   ([`run`], [`run_reference`]);
//! * `fast` — the per-output loops over the non-zero weights only;
//! * [`view`] — where each kernel's lanes sit, shared channel copies.

pub mod cacc;
pub mod cdma;
pub mod cmac_fp16;
pub mod cube;
mod direct;
mod fast;
pub mod plan;
pub mod view;
pub mod weight;

pub use direct::{run, run_reference};
