//! What every engine model receives and passes on.
//!
//! Engines are functions of their decoded descriptors:
//! * `conv::run(&ConvOpDesc, &ConvSurfaceDesc, &mut OpCtx) -> Result<Flying>` — CDMA/CSC/CMAC/CACC; the
//!   CACC output always flows on the fly to the SDP.
//! * `sdp::run(&SdpOpDesc, &SdpSurfaceDesc, Option<Flying>, &mut OpCtx) -> Result<Option<Flying>>` —
//!   input on the fly from CACC (`Some`) or from memory (`None`); returns `Some` when the destination
//!   cube's `mem_type` is HW (fused PDP), otherwise writes memory and returns `None`.
//! * `pdp::run(&PdpOpDesc, &PdpSurfaceDesc, Option<Flying>, &mut OpCtx) -> Result<()>`.
//! * `cdp::run`, `rubik::run`, `bdma::run(op, surf, &mut OpCtx) -> Result<()>`.
//!
//! The scheduler (`sched`) decodes the task, builds an [`OpCtx`] for each op and
//! chains fused producers to consumers through [`Flying`].

use crate::memory::TaskMem;
use onnc_nvdla_loadable::desc::LutParam;

/// The hardware configuration the loadable was built for. It fixes the
/// feature-cube layout in memory (channels per atom) and which engines exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hw {
    /// `nv_full`, `nv_large` or `nv_small`.
    pub name: &'static str,
    /// Memory atom in bytes: 32 (nv_full, nv_large) or 8 (nv_small).
    pub atom_bytes: usize,
    /// Atomic C of the convolution core (channels per MAC step): 64 nv_full, 32 nv_large, 8 nv_small.
    pub atomic_c: usize,
    /// Atomic K (kernels per MAC step): 16 nv_full, 32 nv_large, 8 nv_small.
    pub atomic_k: usize,
}

impl Hw {
    /// nv_full.
    pub const NV_FULL: Hw = Hw {
        name: "nv_full",
        atom_bytes: 32,
        atomic_c: 64,
        atomic_k: 16,
    };
    /// nv_large.
    pub const NV_LARGE: Hw = Hw {
        name: "nv_large",
        atom_bytes: 32,
        atomic_c: 64,
        atomic_k: 32,
    };
    /// nv_small.
    pub const NV_SMALL: Hw = Hw {
        name: "nv_small",
        atom_bytes: 8,
        atomic_c: 8,
        atomic_k: 8,
    };
}

/// What an engine model gets for one op.
pub struct OpCtx<'a> {
    /// The task's memory, resolved as the KMD resolves addresses.
    pub mem: TaskMem<'a>,
    /// The task's LUT list (`lut_index` of SDP/CDP descriptors points here).
    pub luts: &'a [LutParam],
    /// The hardware configuration.
    pub hw: &'a Hw,
}

/// A cube passed between fused engines without touching memory
/// (`DLA_MEM_HW`): CACC → SDP, SDP → PDP.
#[derive(Debug, Clone, PartialEq)]
pub struct Flying {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Channels.
    pub channel: usize,
    /// The elements in C, H, W order: index `(c * height + h) * width + w`.
    pub data: FlyingData,
}

/// Element values of a [`Flying`] cube.
#[derive(Debug, Clone, PartialEq)]
pub enum FlyingData {
    /// Integer datapath: CACC output (saturated to 32 bits) or SDP output (INT8/INT16 values).
    Int(Vec<i32>),
    /// Floating datapath: CACC's fp32 output, or SDP's FP16 output held exactly in f32.
    Float(Vec<f32>),
}
