//! `NonMaxSuppression`: greedy per (batch, class) selection of boxes by
//! descending score (ties: lower index first), dropping any box whose IoU
//! with an already selected one exceeds `iou_threshold`.
//!
//! In: `boxes [B, S, 4]` (`center_point_box` = 0: two opposite corners
//! `[y1, x1, y2, x2]`; 1: `[x_c, y_c, w, h]`), `scores [B, C, S]`, optional
//! scalars `max_output_boxes_per_class` (default 0: none), `iou_threshold`
//! (0), `score_threshold` (kept when strictly greater; absent: all).
//! Out: int64 `selected_indices [n, 3]` rows `(batch, class, box)`.
//! Example: two identical boxes with scores 0.9 and 0.8 select only the first.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// A box as `(y_min, x_min, y_max, x_max)`.
fn corners(b: &[f64], center: bool) -> (f64, f64, f64, f64) {
    if center {
        let (xc, yc, w, h) = (b[0], b[1], b[2], b[3]);
        (yc - h / 2.0, xc - w / 2.0, yc + h / 2.0, xc + w / 2.0)
    } else {
        (
            b[0].min(b[2]),
            b[1].min(b[3]),
            b[0].max(b[2]),
            b[1].max(b[3]),
        )
    }
}

fn iou(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> f64 {
    let ih = (a.2.min(b.2) - a.0.max(b.0)).max(0.0);
    let iw = (a.3.min(b.3) - a.1.max(b.1)).max(0.0);
    let inter = ih * iw;
    let union = (a.2 - a.0) * (a.3 - a.1) + (b.2 - b.0) * (b.3 - b.1) - inter;
    if union <= 0.0 {
        0.0
    } else {
        inter / union
    }
}

/// `NonMaxSuppression`.
pub(crate) fn nms(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 5)?;
    let (boxes, scores) = (c.input(0)?, c.input(1)?);
    if boxes.rank() != 3 || boxes.shape()[2] != 4 {
        return Err(c.shape_err(0, "[B, S, 4]", boxes.shape()));
    }
    let (nb, ns) = (boxes.shape()[0], boxes.shape()[1]);
    if scores.rank() != 3 || scores.shape()[0] != nb || scores.shape()[2] != ns {
        return Err(c.shape_err(1, format!("[{nb}, C, {ns}]"), scores.shape()));
    }
    let nc = scores.shape()[1];
    let max_out = c.scalar_input(2)?.unwrap_or(0.0).max(0.0) as usize;
    let iou_t = c.scalar_input(3)?.unwrap_or(0.0);
    let score_t = c.scalar_input(4)?;
    let center = c.int("center_point_box", 0)? != 0;
    let bv = boxes.data().to_f64_vec();
    let sv = scores.data().to_f64_vec();
    let mut sel = Vec::new();
    for b in 0..nb {
        let bx: Vec<_> = (0..ns)
            .map(|i| corners(&bv[(b * ns + i) * 4..(b * ns + i + 1) * 4], center))
            .collect();
        for k in 0..nc {
            let s = &sv[(b * nc + k) * ns..(b * nc + k + 1) * ns];
            let mut order: Vec<usize> = (0..ns)
                .filter(|&i| score_t.is_none_or(|t| s[i] > t))
                .collect();
            order.sort_by(|&p, &q| s[q].total_cmp(&s[p]).then(p.cmp(&q)));
            let mut kept: Vec<usize> = Vec::new();
            for i in order {
                if kept.len() >= max_out {
                    break;
                }
                if kept.iter().all(|&j| iou(bx[i], bx[j]) <= iou_t) {
                    kept.push(i);
                    sel.extend([b as i64, k as i64, i as i64]);
                }
            }
        }
    }
    let n = sel.len() / 3;
    Ok(vec![out(vec![n, 3], Data::I64(sel))?])
}
