//! NNIE `Resize`: which upsamplings have an exact form in the layers
//! `nnie_mapper` documents (Upsample 2× nearest, Slice, Concat, depthwise
//! Convolution), and a precise reason for the others.
//!
//! In: the `Resize` attributes (`mode`, `coordinate_transformation_mode`,
//! `nearest_mode`), its 4-D input and output shapes and the largest
//! Convolution kernel. Out: a [`ResizePlan`] or the reason there is none.
//!
//! * nearest, factor `s = 2^k` on both axes, source index `⌊o/s⌋` → `k`
//!   chained 2× Upsample layers (`s = 2`: the Resize itself, an Upsample);
//! * linear with `half_pixel` / `pytorch_half_pixel` (PyTorch
//!   `align_corners=False`), factor `s = 2^k` on both axes, `s + 1 ≤` the
//!   kernel limit → nearest `s×` upsample, edge replication by `s/2` and a
//!   depthwise `(s+1)×(s+1)` smoothing Convolution (`rules::nnie_resize`).
//!
//! ```
//! use onnc_legalize::targets::nnie_resize::{plan, ResizePlan};
//! let p = plan("linear", "half_pixel", "floor", &[1, 21, 28, 28], &[1, 21, 224, 224], 15);
//! assert_eq!(p, Ok(ResizePlan::Bilinear { s: 8 }));
//! let e = plan("linear", "half_pixel", "floor", &[1, 2, 14, 14], &[1, 2, 35, 35], 15).unwrap_err();
//! assert!(e.contains("35/14 = 2.5"), "{e}");
//! ```

/// The exact NNIE form of a `Resize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResizePlan {
    /// 2× nearest: one Upsample layer.
    Upsample2,
    /// Nearest by `s = 2^k`, `k ≥ 2`: `k` chained 2× Upsample layers.
    NearestPow2 {
        /// The factor on both axes.
        s: usize,
    },
    /// Bilinear (half-pixel) by `s = 2^k`: nearest `s×`, edge replication,
    /// depthwise smoothing Convolution.
    Bilinear {
        /// The factor on both axes.
        s: usize,
    },
}

/// The plan for a `Resize` from `x` to `out` (both 4-D), or why NNIE cannot
/// run it. `kernel_max` bounds the bilinear smoothing kernel (`s + 1` taps).
pub fn plan(
    mode: &str,
    coord: &str,
    nearest_mode: &str,
    x: &[usize],
    out: &[usize],
    kernel_max: usize,
) -> Result<ResizePlan, String> {
    let s = factor(x, out)?;
    match mode {
        "nearest" => {
            for &n in &x[2..] {
                nearest_is_floor(coord, nearest_mode, n, s)?;
            }
            if !s.is_power_of_two() || s < 2 {
                return Err(format!(
                    "nearest Resize by {s}; NNIE's Upsample doubles, so only factors 2, 4, 8, … (chained Upsamples) have a form"
                ));
            }
            Ok(if s == 2 {
                ResizePlan::Upsample2
            } else {
                ResizePlan::NearestPow2 { s }
            })
        }
        "linear" => {
            if coord != "half_pixel" && coord != "pytorch_half_pixel" {
                return Err(format!(
                    "bilinear Resize with coordinate_transformation_mode={coord} has no exact NNIE form (only half_pixel, PyTorch's align_corners=False, is a fixed-kernel upsample); fix: export with align_corners=False"
                ));
            }
            if !s.is_power_of_two() || s < 2 {
                return Err(format!(
                    "bilinear Resize by {s}; the exact NNIE form needs a factor 2, 4, 8, … (a chain of 2× Upsamples then a smoothing Convolution)"
                ));
            }
            if s + 1 > kernel_max {
                return Err(format!(
                    "bilinear Resize by {s} needs a {}×{} smoothing kernel; NNIE's Convolution kernel is at most {kernel_max}; fix: resize in two steps or on the host",
                    s + 1,
                    s + 1
                ));
            }
            Ok(ResizePlan::Bilinear { s })
        }
        m => Err(format!(
            "Resize mode {m} has no NNIE form (nearest by 2^k and half-pixel bilinear by 2^k do)"
        )),
    }
}

/// The common integer factor of rows and columns, or which one is not.
fn factor(x: &[usize], out: &[usize]) -> Result<usize, String> {
    if x.len() != 4 || out.len() != 4 || x[..2] != out[..2] {
        return Err(format!(
            "Resize from {x:?} to {out:?}; NNIE resizes only rows and columns of a 4-D map"
        ));
    }
    let mut f = [0usize; 2];
    for (i, name) in [(2, "rows"), (3, "columns")] {
        let (n, m) = (x[i], out[i]);
        if n == 0 || m % n != 0 {
            return Err(format!(
                "Resize factor {m}/{n} = {} on {name} is not an integer; NNIE upsamples only by integer factors",
                m as f64 / n.max(1) as f64
            ));
        }
        f[i - 2] = m / n;
    }
    if f[0] != f[1] {
        return Err(format!(
            "Resize by {} on rows and {} on columns; NNIE's Upsample scales both by the same factor",
            f[0], f[1]
        ));
    }
    Ok(f[0])
}

/// Checks that nearest sampling with these modes reads input `⌊o/s⌋` for
/// every output `o` of an axis of length `n` (what Upsample computes).
fn nearest_is_floor(coord: &str, nearest_mode: &str, n: usize, s: usize) -> Result<(), String> {
    let m = n * s;
    for o in 0..m {
        let src = match coord {
            "asymmetric" => o as f64 / s as f64,
            "half_pixel" => (o as f64 + 0.5) / s as f64 - 0.5,
            "pytorch_half_pixel" if m > 1 => (o as f64 + 0.5) / s as f64 - 0.5,
            "pytorch_half_pixel" => 0.0,
            "align_corners" if m > 1 => o as f64 * (n - 1) as f64 / (m - 1) as f64,
            "align_corners" => 0.0,
            c => {
                return Err(format!(
                    "nearest Resize with coordinate_transformation_mode={c} has no NNIE form"
                ))
            }
        };
        let i = match nearest_mode {
            "floor" => src.floor(),
            "ceil" => src.ceil(),
            "round_prefer_ceil" => (src + 0.5).floor(),
            _ => (src - 0.5).ceil(),
        };
        let i = i.clamp(0.0, (n - 1) as f64) as usize;
        if i != o / s {
            return Err(format!(
                "nearest Resize ({coord}, {nearest_mode}) reads input {i} for output {o}, not {} as NNIE's Upsample does",
                o / s
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_refusals() {
        let p = |m: &str, c: &str, n: &str, a: usize, b: usize| {
            plan(m, c, n, &[1, 3, a, a], &[1, 3, b, b], 15)
        };
        assert_eq!(
            p("nearest", "asymmetric", "floor", 5, 10),
            Ok(ResizePlan::Upsample2)
        );
        assert_eq!(
            p("nearest", "half_pixel", "round_prefer_floor", 5, 20),
            Ok(ResizePlan::NearestPow2 { s: 4 })
        );
        assert_eq!(
            p("linear", "pytorch_half_pixel", "floor", 14, 28),
            Ok(ResizePlan::Bilinear { s: 2 })
        );
        let e = p("nearest", "asymmetric", "floor", 4, 12).unwrap_err();
        assert!(e.contains("nearest Resize by 3"), "{e}");
        let e = p("nearest", "align_corners", "floor", 4, 8).unwrap_err();
        assert!(e.contains("reads input"), "{e}");
        let e = p("linear", "align_corners", "floor", 4, 8).unwrap_err();
        assert!(e.contains("align_corners"), "{e}");
        let e = p("linear", "half_pixel", "floor", 2, 32).unwrap_err();
        assert!(e.contains("17×17"), "{e}");
        let e = plan(
            "linear",
            "half_pixel",
            "floor",
            &[1, 3, 4, 4],
            &[1, 3, 8, 16],
            15,
        )
        .unwrap_err();
        assert!(e.contains("2 on rows and 4 on columns"), "{e}");
        let e = p("cubic", "half_pixel", "floor", 4, 8).unwrap_err();
        assert!(e.contains("mode cubic"), "{e}");
    }
}
