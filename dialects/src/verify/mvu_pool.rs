//! The pooled form of `mvu.conv` (`maxpool = 1`): the pool window
//! attributes, the pooled output shape and the pooled job's registers
//! ([`onnc_mvu_hw::pooled_registers`], the formulas the MVU back end
//! computes them with).
//!
//! In: the op and the values the conv rules already read. Out: messages
//! appended to `out`.
//!
//! | rule |
//! |---|
//! | `maxpool = 1` needs `pool_kernel` (2 entries ≥ 1), `pool_strides` (2 entries ≥ 1), `pool_pads` (4 entries ≥ 0) and `pool_ceil_mode` (0 or 1); `maxpool = 0` has none of them |
//! | every pool window lies inside the conv's output (no padded or cut window: one job shape serves them all) |
//! | output N×O×PH×PW, PH/PW the ONNX pooled size of the conv's output grid |
//! | `ilength`, `ijump`, `wlength`, `wjump`, `countdown` as [`onnc_mvu_hw::pooled_registers`] (one job per pooled pixel and filter block) |

use super::common::*;
use melior::ir::{operation::OperationLike, OperationRef};
use onnc_mvu_hw::formulas::{Array, ConvJob};
use onnc_mvu_hw::{pooled_registers, PoolWindow};

/// The pool attribute names.
pub(super) const POOL_ATTRS: [&str; 4] =
    ["pool_kernel", "pool_strides", "pool_pads", "pool_ceil_mode"];

/// A conv op's pool window.
pub(super) struct PoolAttrs {
    kernel: [i64; 2],
    strides: [i64; 2],
    pads: [i64; 4],
    ceil_mode: bool,
}

/// `Ok(None)` for an unpooled conv, `Ok(Some)` for a pooled one whose pool
/// attributes are well formed, `Err(())` when a rule failed (reported).
pub(super) fn pool_attrs(
    op: &OperationRef,
    out: &mut Vec<String>,
) -> Result<Option<PoolAttrs>, ()> {
    let present: Vec<&str> = POOL_ATTRS
        .into_iter()
        .filter(|n| op.attribute(n).is_ok())
        .collect();
    if int(op, "maxpool") != Some(1) {
        if present.is_empty() {
            return Ok(None);
        }
        out.push(format!(
            "{} given but maxpool is not 1 (an unpooled conv has no pool window)",
            present.join(", ")
        ));
        return Err(());
    }
    let missing: Vec<&str> = POOL_ATTRS
        .into_iter()
        .filter(|n| !present.contains(n))
        .collect();
    if !missing.is_empty() {
        out.push(format!(
            "maxpool = 1 needs the pool window: missing {}",
            missing.join(", ")
        ));
        return Err(());
    }
    let kernel = check_i64_list(op, "pool_kernel", 2, 1, i64::MAX, out);
    let strides = check_i64_list(op, "pool_strides", 2, 1, i64::MAX, out);
    let pads = check_i64_list(op, "pool_pads", 4, 0, i64::MAX, out);
    let ceil = int(op, "pool_ceil_mode");
    if !matches!(ceil, Some(0 | 1)) {
        out.push("pool_ceil_mode must be 0 : i64 or 1 : i64".into());
    }
    let (Some(k), Some(s), Some(p), Some(c)) = (kernel, strides, pads, ceil) else {
        return Err(());
    };
    let two = |v: &[i64]| [v[0], v[1]];
    Ok(Some(PoolAttrs {
        kernel: two(&k),
        strides: two(&s),
        pads: [p[0], p[1], p[2], p[3]],
        ceil_mode: c == 1,
    }))
}

impl PoolAttrs {
    /// Pooled size of one axis of a conv output of `n` (ONNX: in ceil mode
    /// a window starting in the end padding is dropped).
    fn axis(&self, axis: usize, n: i64) -> Option<i64> {
        let (k, s) = (self.kernel[axis], self.strides[axis]);
        let (p0, p1) = (self.pads[axis], self.pads[axis + 2]);
        let mut m = window_out(n, p0 + p1, k, s, self.ceil_mode)?;
        if self.ceil_mode && (m - 1) * s >= n + p0 {
            m -= 1;
        }
        Some(m)
    }

    /// The pooled `[PH, PW]` of a conv output `[h, w]`, after checking that
    /// every window lies inside it; `None` (reported) otherwise.
    pub(super) fn output(&self, hw: [i64; 2], out: &mut Vec<String>) -> Option<[i64; 2]> {
        let mut pooled = [0; 2];
        for (axis, n) in hw.into_iter().enumerate() {
            let Some(m) = self.axis(axis, n) else {
                out.push(format!(
                    "pool_kernel {:?} does not fit the conv's {}x{} output",
                    self.kernel, hw[0], hw[1]
                ));
                return None;
            };
            let last_end = (m - 1) * self.strides[axis] - self.pads[axis] + self.kernel[axis];
            if self.pads[axis] > 0 || last_end > n {
                out.push(format!(
                    "pool window {:?} with pads {:?}{} has edge windows cut short on the conv's {}x{} output; the MVU pools whole windows only",
                    self.kernel,
                    self.pads,
                    if self.ceil_mode { " and ceil_mode" } else { "" },
                    hw[0],
                    hw[1]
                ));
                return None;
            }
            pooled[axis] = m;
        }
        Some(pooled)
    }

    /// Checks the four register arrays and `countdown` against the pooled
    /// job's formulas (`sh`: the conv's vertical stride).
    pub(super) fn check_registers(
        &self,
        op: &OperationRef,
        job: &ConvJob,
        sh: i64,
        out: &mut Vec<String>,
    ) {
        let window = PoolWindow {
            kh: self.kernel[0].into(),
            kw: self.kernel[1].into(),
        };
        let (regs, countdown) = pooled_registers(job, sh.into(), &window);
        let arrays: [(&str, Array, &str); 4] = [
            (
                "ilength",
                regs.ilength,
                "[0, kW - 1, ip*wp - 1, fH - 1, iC*fW - 1]",
            ),
            ("ijump", regs.ijump, "the pooled input jumps"),
            (
                "wlength",
                regs.wlength,
                "[0, kW - 1, ip*wp - 1, 0, iC*fW*fH - 1]",
            ),
            (
                "wjump",
                regs.wjump,
                "[r, r, r, 0, wp], r = -wp*(iC*fW*fH - 1)",
            ),
        ];
        for (name, want, formula) in arrays {
            let got = ints(op, name);
            let want: Option<Vec<i128>> = want.into_iter().collect();
            if let (Some(got), Some(want)) = (got, want) {
                if got.len() == want.len()
                    && got.iter().map(|&g| i128::from(g)).ne(want.iter().copied())
                {
                    out.push(format!(
                        "{name} = {got:?} does not match the pooled job's {formula} = {want:?}"
                    ));
                }
            }
        }
        if let (Some(c), Some(want)) = (int(op, "countdown"), countdown) {
            if i128::from(c) != want {
                out.push(format!(
                    "countdown = {c} does not match the pooled job's kH*kW*ip*wp*iC*fW*fH = {want}"
                ));
            }
        }
    }
}
