//! NNIE `Resize`: which upsamplings have an exact form in the layers
//! `nnie_mapper` takes (Upsample 2× nearest, Deconvolution, Slice, Concat,
//! depthwise Convolution), and a precise reason for the others.
//!
//! In: the `Resize` attributes (`mode`, `coordinate_transformation_mode`,
//! `nearest_mode`), its 4-D input and output shapes and the largest
//! Convolution kernel. Out: a [`ResizePlan`] or the reason there is none.
//!
//! * nearest, integer factors `sh × sw`, source index `⌊o/s⌋` →
//!   `sh = sw = 2`: the Resize itself (one Upsample); `sh = sw = 2^k`:
//!   `k` chained Upsamples; otherwise a depthwise Deconvolution with a
//!   `sh × sw` kernel of ones and stride `sh × sw` (each input copied to its
//!   `s × s` block);
//! * linear with `half_pixel` / `pytorch_half_pixel` (PyTorch
//!   `align_corners=False`), integer factors → that nearest upsampling, edge
//!   replication by `⌊s/2⌋` and a depthwise smoothing Convolution of
//!   `s + 1` (even `s`) or `s` (odd `s`) taps per axis (`rules::nnie_resize`).
//!
//! ```
//! use onnc_legalize::targets::nnie_resize::{plan, ResizePlan};
//! let p = plan("linear", "half_pixel", "floor", &[1, 21, 28, 28], &[1, 21, 224, 224], 15);
//! assert_eq!(p, Ok(ResizePlan::Bilinear { s: [8, 8] }));
//! let e = plan("linear", "half_pixel", "floor", &[1, 2, 14, 14], &[1, 2, 35, 35], 15).unwrap_err();
//! assert!(e.contains("35/14 = 2.5"), "{e}");
//! ```

/// The exact NNIE form of a `Resize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResizePlan {
    /// 2× nearest: one Upsample layer.
    Upsample2,
    /// Nearest by integer factors (rows, columns), not both 2.
    Nearest {
        /// The factors of rows and columns.
        s: [usize; 2],
    },
    /// Bilinear (half-pixel) by integer factors (rows, columns): nearest,
    /// edge replication, depthwise smoothing Convolution.
    Bilinear {
        /// The factors of rows and columns.
        s: [usize; 2],
    },
}

/// Whether nearest upsampling by `s` is a chain of 2× Upsamples (else a
/// Deconvolution).
pub fn by_upsamples(s: [usize; 2]) -> bool {
    s[0] == s[1] && s[0] >= 2 && s[0].is_power_of_two()
}

/// Taps of the bilinear smoothing kernel of one axis: `s + 1` for even `s`,
/// `s` for odd `s`.
pub fn smoothing_taps(s: usize) -> usize {
    if s % 2 == 0 {
        s + 1
    } else {
        s
    }
}

/// The plan for a `Resize` from `x` to `out` (both 4-D), or why NNIE cannot
/// run it. `kernel_max` bounds the Deconvolution and smoothing kernels.
pub fn plan(
    mode: &str,
    coord: &str,
    nearest_mode: &str,
    x: &[usize],
    out: &[usize],
    kernel_max: usize,
) -> Result<ResizePlan, String> {
    let s = factor(x, out)?;
    if s == [1, 1] {
        return Err("Resize by 1 (a copy); remove it".into());
    }
    let deconv_fits = |what: &str| -> Result<(), String> {
        if by_upsamples(s) || s.iter().all(|&f| f <= kernel_max) {
            Ok(())
        } else {
            Err(format!(
                "{what} Resize by {}×{} needs a Deconvolution kernel of that size; NNIE's kernels are at most {kernel_max}; fix: resize in two steps or on the host",
                s[0], s[1]
            ))
        }
    };
    match mode {
        "nearest" => {
            for (&n, &f) in x[2..].iter().zip(&s) {
                nearest_is_floor(coord, nearest_mode, n, f)?;
            }
            deconv_fits("nearest")?;
            Ok(if s == [2, 2] {
                ResizePlan::Upsample2
            } else {
                ResizePlan::Nearest { s }
            })
        }
        "linear" => {
            if coord != "half_pixel" && coord != "pytorch_half_pixel" {
                return Err(format!(
                    "bilinear Resize with coordinate_transformation_mode={coord} has no exact NNIE form (only half_pixel, PyTorch's align_corners=False, is a fixed-kernel upsample); fix: export with align_corners=False"
                ));
            }
            deconv_fits("bilinear")?;
            if let Some(&f) = s.iter().find(|&&f| smoothing_taps(f) > kernel_max) {
                let t = smoothing_taps(f);
                return Err(format!(
                    "bilinear Resize by {f} needs a {t}-tap smoothing kernel; NNIE's Convolution kernel is at most {kernel_max}; fix: resize in two steps or on the host"
                ));
            }
            Ok(ResizePlan::Bilinear { s })
        }
        m => Err(format!(
            "Resize mode {m} has no NNIE form (nearest and half-pixel bilinear by integer factors do)"
        )),
    }
}

/// The integer factors of rows and columns, or which one is not.
fn factor(x: &[usize], out: &[usize]) -> Result<[usize; 2], String> {
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
    Ok(f)
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
            Ok(ResizePlan::Nearest { s: [4, 4] })
        );
        assert_eq!(
            p("nearest", "asymmetric", "floor", 4, 12),
            Ok(ResizePlan::Nearest { s: [3, 3] })
        );
        assert_eq!(
            p("linear", "pytorch_half_pixel", "floor", 14, 28),
            Ok(ResizePlan::Bilinear { s: [2, 2] })
        );
        assert_eq!(
            plan(
                "linear",
                "half_pixel",
                "floor",
                &[1, 3, 4, 4],
                &[1, 3, 8, 12],
                15
            ),
            Ok(ResizePlan::Bilinear { s: [2, 3] })
        );
        assert!(by_upsamples([8, 8]) && !by_upsamples([2, 4]) && !by_upsamples([3, 3]));
        assert_eq!((smoothing_taps(8), smoothing_taps(3)), (9, 3));
        let e = p("nearest", "align_corners", "floor", 4, 8).unwrap_err();
        assert!(e.contains("reads input"), "{e}");
        let e = p("linear", "align_corners", "floor", 4, 8).unwrap_err();
        assert!(e.contains("align_corners"), "{e}");
        let e = p("linear", "half_pixel", "floor", 2, 32).unwrap_err();
        assert!(e.contains("17-tap"), "{e}");
        let e = p("nearest", "asymmetric", "floor", 1, 17).unwrap_err();
        assert!(e.contains("by 17×17 needs a Deconvolution kernel"), "{e}");
        let e = p("cubic", "half_pixel", "floor", 4, 8).unwrap_err();
        assert!(e.contains("mode cubic"), "{e}");
        let e = p("linear", "half_pixel", "floor", 14, 35).unwrap_err();
        assert!(e.contains("35/14 = 2.5 on rows"), "{e}");
    }
}
