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

    /// Whether the firmware enables BDMA and Rubik on this configuration
    /// (`bdma_enable` / `rubik_enable`: nv_full only).
    pub fn has_bdma(&self) -> bool {
        self.name == "nv_full"
    }

    /// Whether the configuration has a Rubik engine (nv_full only).
    pub fn has_rubik(&self) -> bool {
        self.name == "nv_full"
    }

    /// The configuration called `name` (`nv_full`, `nv_large`, `nv_small`).
    pub fn by_name(name: &str) -> Option<Hw> {
        match name {
            "nv_full" => Some(Hw::NV_FULL),
            "nv_large" => Some(Hw::NV_LARGE),
            "nv_small" => Some(Hw::NV_SMALL),
            _ => None,
        }
    }
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

use onnc_nvdla_loadable::desc::{
    BdmaOpDesc, BdmaSurfaceDesc, CdpOpDesc, CdpSurfaceDesc, ConvOpDesc, ConvSurfaceDesc, PdpOpDesc,
    PdpSurfaceDesc, RubikOpDesc, RubikSurfaceDesc, SdpOpDesc, SdpSurfaceDesc,
};

/// `conv::run`.
pub type ConvFn = fn(&ConvOpDesc, &ConvSurfaceDesc, &mut OpCtx) -> crate::Result<Flying>;
/// `sdp::run`.
pub type SdpFn =
    fn(&SdpOpDesc, &SdpSurfaceDesc, Option<Flying>, &mut OpCtx) -> crate::Result<Option<Flying>>;
/// `pdp::run`.
pub type PdpFn = fn(&PdpOpDesc, &PdpSurfaceDesc, Option<Flying>, &mut OpCtx) -> crate::Result<()>;
/// `cdp::run`.
pub type CdpFn = fn(&CdpOpDesc, &CdpSurfaceDesc, &mut OpCtx) -> crate::Result<()>;
/// `rubik::run`.
pub type RubikFn = fn(&RubikOpDesc, &RubikSurfaceDesc, &mut OpCtx) -> crate::Result<()>;
/// `bdma::run`.
pub type BdmaFn = fn(&BdmaOpDesc, &BdmaSurfaceDesc, &mut OpCtx) -> crate::Result<()>;

/// The engine models the scheduler dispatches to, one per processor. `None`
/// means "not modelled": an op of that processor fails with
/// [`Error::Unsupported`](crate::Error::Unsupported) naming the op.
/// Tests may replace entries (e.g. to observe the schedule).
#[derive(Debug, Clone, Copy)]
pub struct Engines {
    /// Convolution pipeline.
    pub conv: Option<ConvFn>,
    /// SDP.
    pub sdp: Option<SdpFn>,
    /// PDP.
    pub pdp: Option<PdpFn>,
    /// CDP.
    pub cdp: Option<CdpFn>,
    /// Rubik.
    pub rubik: Option<RubikFn>,
    /// BDMA.
    pub bdma: Option<BdmaFn>,
}

impl Engines {
    /// Every engine model this crate has.
    pub fn builtin() -> Engines {
        Engines {
            conv: Some(crate::conv::run),
            sdp: Some(crate::sdp::run),
            pdp: Some(crate::pdp::run),
            cdp: Some(crate::cdp::run),
            rubik: Some(crate::rubik::run),
            bdma: Some(crate::bdma::run),
        }
    }
}

impl Default for Engines {
    fn default() -> Self {
        Engines::builtin()
    }
}

/// Bytes per element of a precision (`INT8` 0 → 1, `INT16` 1 / `FP16` 2 → 2).
pub fn bytes_per_element(precision: u8) -> Option<usize> {
    match precision {
        0 => Some(1),
        1 | 2 => Some(2),
        _ => None,
    }
}
