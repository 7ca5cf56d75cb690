//! The single-point data processor (SDP).
use crate::engine::{Flying, OpCtx};
use crate::error::{Result, SimError};
use onnc_nvdla_loadable::desc::{SdpOpDesc, SdpSurfaceDesc};

/// Runs one SDP op.
pub fn run(
    _op: &SdpOpDesc,
    _surf: &SdpSurfaceDesc,
    _input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<Option<Flying>> {
    Err(SimError::Unsupported {
        at: ctx.mem.at.clone(),
        what: "SDP is not modelled yet".into(),
    })
}
