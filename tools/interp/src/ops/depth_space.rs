//! `DepthToSpace` and `SpaceToDepth` (modes `DCR`, `CRD`), as a reshape to
//! 6-D, a transpose and a reshape back.
//!
//! In: `[N, C, H, W]` of any type and `blocksize` b. Out: `[N, C/b², H·b, W·b]`
//! (`DepthToSpace`) or `[N, C·b², H/b, W/b]` (`SpaceToDepth`).
//! Example: `DepthToSpace{blocksize=2}` of `[1, 4, 1, 1]` holding 0..4 is
//! `[[[[0, 1], [2, 3]]]]`.

use crate::call::{out, Call};
use crate::layout::{take_data, transpose_index};
use crate::Result;
use onnc_tensor::Tensor;

fn blocksize(c: &Call, x: &Tensor) -> Result<usize> {
    if x.rank() != 4 {
        return Err(c.shape_err(0, "rank 4 ([N, C, H, W])", x.shape()));
    }
    match c.int("blocksize", 0)? {
        b if (1..=1 << 16).contains(&b) => Ok(b as usize),
        b => Err(c.attr_err("blocksize", format!("required and ≥ 1, got {b}"))),
    }
}

/// `DepthToSpace`.
pub(crate) fn depth_to_space(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let b = blocksize(c, x)?;
    let (n, ch, h, w) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    if ch % (b * b) != 0 {
        return Err(c.shape_err(0, format!("channels divisible by {}", b * b), x.shape()));
    }
    let cc = ch / (b * b);
    let (six, perm) = match c.string("mode", "DCR")? {
        "DCR" => ([n, b, b, cc, h, w], [0, 3, 4, 1, 5, 2]),
        "CRD" => ([n, cc, b, b, h, w], [0, 1, 4, 2, 5, 3]),
        m => return Err(c.attr_err("mode", format!("expected DCR or CRD, got `{m}`"))),
    };
    let idx = transpose_index(&six, &perm);
    Ok(vec![out(
        vec![n, cc, h * b, w * b],
        take_data(x.data(), &idx),
    )?])
}

/// `SpaceToDepth`.
pub(crate) fn space_to_depth(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let b = blocksize(c, x)?;
    let (n, ch, h, w) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    if h % b != 0 || w % b != 0 {
        return Err(c.shape_err(0, format!("H and W divisible by {b}"), x.shape()));
    }
    let perm = match c.string("mode", "DCR")? {
        "DCR" => [0, 3, 5, 1, 2, 4],
        "CRD" => [0, 1, 3, 5, 2, 4],
        m => return Err(c.attr_err("mode", format!("expected DCR or CRD, got `{m}`"))),
    };
    let idx = transpose_index(&[n, ch, h / b, b, w / b, b], &perm);
    Ok(vec![out(
        vec![n, ch * b * b, h / b, w / b],
        take_data(x.data(), &idx),
    )?])
}
