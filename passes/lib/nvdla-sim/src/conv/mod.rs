//! The convolution pipeline (CDMA → CSC → CMAC → CACC).
use crate::engine::{Flying, OpCtx};
use crate::error::{Result, SimError};
use onnc_nvdla_loadable::desc::{ConvOpDesc, ConvSurfaceDesc};

/// Runs one convolution op; the CACC output flows to the SDP.
pub fn run(_op: &ConvOpDesc, _surf: &ConvSurfaceDesc, ctx: &mut OpCtx) -> Result<Flying> {
    Err(SimError::Unsupported {
        at: ctx.mem.at.clone(),
        what: "convolution is not modelled yet".into(),
    })
}
