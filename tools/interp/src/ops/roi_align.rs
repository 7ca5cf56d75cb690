//! `RoiAlign`: bilinear-sampled average (or max) pooling of regions of
//! interest into fixed `output_height × output_width` bins.
//!
//! In: `X [N, C, H, W]`, `rois [R, 4]` as `(x1, y1, x2, y2)` in input
//! coordinates scaled by `spatial_scale`, int64 `batch_indices [R]`;
//! `coordinate_transformation_mode` (`half_pixel` shifts by −0.5;
//! `output_half_pixel` does not and keeps regions ≥ 1), `mode` (`avg` |
//! `max`), `sampling_ratio` (samples per bin side; 0: `ceil(bin size)`).
//! Out: `[R, C, output_height, output_width]`.
//! Example: a constant image gives that constant in every `avg` bin.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `RoiAlign`.
pub(crate) fn roi_align(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let (x, rois) = (c.input(0)?, c.input(1)?);
    if x.rank() != 4 || !x.dtype().is_float() {
        return Err(c.shape_err(0, "float [N, C, H, W]", x.shape()));
    }
    let (n, ch, h, w) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    if rois.rank() != 2 || rois.shape()[1] != 4 {
        return Err(c.shape_err(1, "[R, 4]", rois.shape()));
    }
    let nr = rois.shape()[0];
    let bi = c.ints_input(2)?.unwrap_or_default();
    if bi.len() != nr || bi.iter().any(|&b| b < 0 || b as usize >= n) {
        return Err(c.shape_err(
            2,
            format!("[{nr}] batch indices in 0..{n}"),
            c.input(2)?.shape(),
        ));
    }
    let half = match c.string("coordinate_transformation_mode", "half_pixel")? {
        "half_pixel" => true,
        "output_half_pixel" => false,
        m => {
            return Err(c.attr_err(
                "coordinate_transformation_mode",
                format!("unknown value `{m}`"),
            ))
        }
    };
    let max_mode = match c.string("mode", "avg")? {
        "avg" => false,
        "max" => true,
        m => return Err(c.attr_err("mode", format!("unknown value `{m}`"))),
    };
    let (oh, ow) = (c.int("output_height", 1)?, c.int("output_width", 1)?);
    if oh < 1 || ow < 1 {
        return Err(c.attr_err(
            "output_height",
            format!("output extents must be ≥ 1, got {oh}×{ow}"),
        ));
    }
    let (oh, ow) = (oh as usize, ow as usize);
    c.checked_numel(&[nr, ch, oh, ow], 1)?;
    let ratio = c.int("sampling_ratio", 0)?.clamp(0, 1 << 16);
    let scale = c.float("spatial_scale", 1.0)? as f64;
    let xv = x.data().to_f64_vec();
    let rv = rois.data().to_f64_vec();
    let mut y = vec![0f64; nr * ch * oh * ow];
    for r in 0..nr {
        let off = if half { 0.5 } else { 0.0 };
        let [x1, y1, x2, y2] = [0, 1, 2, 3].map(|k| rv[r * 4 + k] * scale - off);
        let (mut rw, mut rh) = (x2 - x1, y2 - y1);
        if !half {
            rw = rw.max(1.0);
            rh = rh.max(1.0);
        }
        let (bh, bw) = (rh / oh as f64, rw / ow as f64);
        let gh = if ratio > 0 {
            ratio as usize
        } else {
            bh.ceil().clamp(0.0, 1e9) as usize
        };
        let gw = if ratio > 0 {
            ratio as usize
        } else {
            bw.ceil().clamp(0.0, 1e9) as usize
        };
        c.checked_numel(&[oh, ow, gh, gw], 1)?;
        let count = (gh * gw).max(1) as f64;
        // Bilinear taps (flat offset, weight) of every sample of every bin.
        let mut taps: Vec<[(usize, f64); 4]> = Vec::with_capacity(oh * ow * gh * gw);
        for ph in 0..oh {
            for pw in 0..ow {
                for iy in 0..gh {
                    let yy = y1 + ph as f64 * bh + (iy as f64 + 0.5) * bh / gh as f64;
                    for ix in 0..gw {
                        let xx = x1 + pw as f64 * bw + (ix as f64 + 0.5) * bw / gw as f64;
                        taps.push(bilinear(yy, xx, h, w));
                    }
                }
            }
        }
        let base = bi[r] as usize * ch;
        for cc in 0..ch {
            let img = &xv[(base + cc) * h * w..(base + cc + 1) * h * w];
            for bin in 0..oh * ow {
                let samples = &taps[bin * gh * gw..(bin + 1) * gh * gw];
                let v = if max_mode {
                    samples
                        .iter()
                        .map(|t| {
                            t.iter()
                                .map(|&(p, wt)| wt * img[p])
                                .fold(f64::NEG_INFINITY, f64::max)
                        })
                        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
                        .unwrap_or(0.0)
                } else {
                    samples
                        .iter()
                        .map(|t| t.iter().map(|&(p, wt)| wt * img[p]).sum::<f64>())
                        .sum::<f64>()
                        / count
                };
                y[(r * ch + cc) * oh * ow + bin] = v;
            }
        }
    }
    Ok(vec![out(
        vec![nr, ch, oh, ow],
        Data::from_f64s(x.dtype(), &y),
    )?])
}

/// The four bilinear taps at `(y, x)`; zero weights outside `[-1, H] × [-1, W]`.
fn bilinear(y: f64, x: f64, h: usize, w: usize) -> [(usize, f64); 4] {
    if y < -1.0 || y > h as f64 || x < -1.0 || x > w as f64 || h == 0 || w == 0 {
        return [(0, 0.0); 4];
    }
    let (mut y, mut x) = (y.max(0.0), x.max(0.0));
    let (mut yl, mut xl) = (y as usize, x as usize);
    let yh = if yl >= h - 1 {
        yl = h - 1;
        y = yl as f64;
        yl
    } else {
        yl + 1
    };
    let xh = if xl >= w - 1 {
        xl = w - 1;
        x = xl as f64;
        xl
    } else {
        xl + 1
    };
    let (ly, lx) = (y - yl as f64, x - xl as f64);
    let (hy, hx) = (1.0 - ly, 1.0 - lx);
    [
        (yl * w + xl, hy * hx),
        (yl * w + xh, hy * lx),
        (yh * w + xl, ly * hx),
        (yh * w + xh, ly * lx),
    ]
}
