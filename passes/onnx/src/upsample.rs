//! Which `Resize` upsamplings are transposed convolutions, and their kernels.
//!
//! In: a 4-D `Resize` (its normalized attributes as a [`ResizeAttrs`], the
//! input and output shapes, the constant `scales` if given). Out: for the
//! height and width axes an [`AxisDeconv`] — a stride-`s` transposed
//! convolution (taps and begin padding) and a factor per output position —
//! whose result equals ONNX's at **every** output position, or the reason
//! there is none.
//!
//! How: the coordinate transformation and rounding are evaluated as the
//! ONNX specification defines them; the kernel is read off the first `s`
//! outputs with unclamped input indices, then every output position is
//! checked against the specification's taps (indices clamped to the input).
//! Where a linear tap falls outside the input, ONNX clamps the index (the
//! edge sample takes the tap's weight); a transposed convolution drops the
//! tap, and since a 2-tap linear interpolation then has only the edge sample
//! left, dividing by the remaining weight (`factor`) gives the same value.
//! Nearest neighbours never need a factor: a nearest mode whose rounding
//! shifts between phases and clamps at the border (asymmetric with
//! `round_prefer_floor` at factor 3) is refused at the first position that
//! differs. Cubic (negative clamped weights), `tf_crop_and_resize`,
//! `antialias` and non-integer factors are refused.
//!
//! ```
//! use onnc_onnx::upsample::{spatial_deconv, ResizeAttrs};
//! let a = ResizeAttrs { mode: "linear", ctm: "half_pixel", ..ResizeAttrs::default() };
//! let [h, _] = spatial_deconv(&a, &[1, 3, 4, 4], &[1, 3, 8, 8], Some(&[1.0, 1.0, 2.0, 2.0])).unwrap();
//! assert_eq!((h.stride, h.pad_begin), (2, 1));
//! assert_eq!(h.kernel, [0.25, 0.75, 0.75, 0.25]);
//! assert_eq!(h.factor[0], 1.0 / 0.75); // the clamped border
//! let nearest = ResizeAttrs { ctm: "asymmetric", nearest_mode: "floor", ..ResizeAttrs::default() };
//! let [h, w] = spatial_deconv(&nearest, &[1, 3, 4, 4], &[1, 3, 8, 12], None).unwrap();
//! assert_eq!((h.kernel.len(), w.kernel.len(), w.stride), (2, 3, 3));
//! ```

/// The upsamplings that map, for messages: what a refused `Resize` can use instead.
pub const EXACT_MODES: &str = "integer factors with mode=nearest and asymmetric+floor, asymmetric+round_prefer_floor at factor 2, tf_half_pixel_for_nn+floor, or half_pixel/pytorch_half_pixel with round_prefer_floor/round_prefer_ceil; mode=linear with half_pixel, pytorch_half_pixel or asymmetric (PyTorch align_corners=False), or align_corners when the output size is s·(in−1)+1";

/// The `Resize` attributes that decide the mapping (ONNX names; defaults
/// are opset 11+'s).
#[derive(Debug, Clone, Copy)]
pub struct ResizeAttrs<'a> {
    /// `mode`: `nearest`, `linear` or `cubic`.
    pub mode: &'a str,
    /// `coordinate_transformation_mode`.
    pub ctm: &'a str,
    /// `nearest_mode`.
    pub nearest_mode: &'a str,
    /// `antialias`.
    pub antialias: i64,
    /// `axes` (opset 18), when given.
    pub axes: Option<&'a [i64]>,
    /// `keep_aspect_ratio_policy`.
    pub policy: &'a str,
}

impl Default for ResizeAttrs<'_> {
    fn default() -> Self {
        ResizeAttrs {
            mode: "nearest",
            ctm: "half_pixel",
            nearest_mode: "round_prefer_floor",
            antialias: 0,
            axes: None,
            policy: "stretch",
        }
    }
}

/// One axis of an upsampling as a transposed convolution:
/// `y[o] = factor[o] · Σ_i x[i] · kernel[o + pad_begin − i·stride]`.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisDeconv {
    /// The stride `s` (the integer factor).
    pub stride: usize,
    /// The taps, ConvTranspose order.
    pub kernel: Vec<f64>,
    /// The begin padding (may be negative: the output starts later).
    pub pad_begin: i64,
    /// The output length.
    pub out_len: usize,
    /// Per output position, the factor that restores ONNX's clamped border
    /// (1 everywhere for nearest and where every tap is inside the input).
    pub factor: Vec<f64>,
}

impl AxisDeconv {
    /// Whether the axis is left as it is.
    pub fn is_identity(&self) -> bool {
        self.stride == 1 && self.kernel == [1.0] && self.pad_begin == 0
    }

    /// Whether any output position needs its factor.
    pub fn needs_factor(&self) -> bool {
        self.factor.iter().any(|&f| f != 1.0)
    }
}

/// The input coordinate of output `o` (ONNX's formulas; `scale` as given,
/// or `out_len / in_len` for `sizes`).
fn source_coord(o: usize, in_len: usize, out_len: usize, scale: f64, ctm: &str) -> f64 {
    let (x, n, m) = (o as f64, in_len as f64, scale * in_len as f64);
    match ctm {
        "asymmetric" => x / scale,
        "align_corners" if m == 1.0 => 0.0,
        "align_corners" => x * (n - 1.0) / (m - 1.0),
        "pytorch_half_pixel" if m <= 1.0 => 0.0,
        "tf_half_pixel_for_nn" => (x + 0.5) / scale,
        "half_pixel_symmetric" => {
            let adjustment = out_len as f64 / m;
            n / 2.0 * (1.0 - adjustment) + (x + 0.5) / scale - 0.5
        }
        _ => (x + 0.5) / scale - 0.5,
    }
}

/// The unclamped (input index, weight) taps of output `o`.
fn raw_taps(x: f64, mode: &str, nearest: &str) -> Vec<(i64, f64)> {
    let x0 = x.floor();
    let r = x - x0;
    let x0 = x0 as i64;
    if mode == "nearest" {
        let i = match nearest {
            "floor" => x0,
            "ceil" => x.ceil() as i64,
            "round_prefer_ceil" => x0 + i64::from(r >= 0.5),
            _ => x0 + i64::from(r > 0.5),
        };
        return vec![(i, 1.0)];
    }
    vec![(x0, 1.0 - r), (x0 + 1, r)]
}

/// Taps with indices clamped to `[0, n)`, merged and without zero weights, by index.
fn clamped(taps: &[(i64, f64)], n: usize) -> Vec<(usize, f64)> {
    let mut v: Vec<(usize, f64)> = Vec::new();
    for &(i, w) in taps {
        let i = i.clamp(0, n as i64 - 1) as usize;
        match v.iter_mut().find(|t| t.0 == i) {
            Some(t) => t.1 += w,
            None => v.push((i, w)),
        }
    }
    v.retain(|t| t.1 != 0.0);
    v.sort_by_key(|t| t.0);
    v
}

fn describe(taps: &[(usize, f64)], nearest: bool) -> String {
    if taps.is_empty() {
        return "nothing".into();
    }
    let parts: Vec<String> = taps
        .iter()
        .map(|&(i, w)| {
            if nearest {
                format!("input {i}")
            } else {
                format!("{w:.4}·x[{i}]")
            }
        })
        .collect();
    parts.join(" + ")
}

/// The stride of one axis, or why it is not an integer upsampling.
fn stride(a: &ResizeAttrs, in_len: usize, out_len: usize, scale: f64) -> Result<usize, String> {
    if a.ctm == "align_corners" {
        // x = o·(n − 1)/(m − 1) with m = scale·n: a fixed stride when m − 1 = s·(n − 1).
        let m = scale * in_len as f64;
        if in_len == 1 {
            return Ok(out_len.max(1));
        }
        let s = (m - 1.0) / (in_len - 1) as f64;
        if s >= 1.0 && s.fract() == 0.0 && out_len == s as usize * (in_len - 1) + 1 {
            return Ok(s as usize);
        }
        return Err(format!(
            "align_corners maps output o to input o·{}/{}, not a whole step per output (a fixed stride needs an output size s·(in−1)+1, here in = {in_len})",
            in_len - 1,
            m - 1.0
        ));
    }
    if scale < 1.0 {
        return Err(format!(
            "scale {scale} shrinks the axis (only upsampling maps)"
        ));
    }
    if scale.fract() != 0.0 || out_len != scale as usize * in_len {
        return Err(format!(
            "scale {scale} ({in_len} → {out_len}) is not an integer factor"
        ));
    }
    Ok(scale as usize)
}

/// One axis as a transposed convolution.
pub fn axis_deconv(
    a: &ResizeAttrs,
    in_len: usize,
    out_len: usize,
    scale: f64,
) -> Result<AxisDeconv, String> {
    if in_len == 0 || out_len == 0 {
        return Err("an empty axis".into());
    }
    let s = stride(a, in_len, out_len, scale)?;
    let nearest = a.mode == "nearest";
    let coord = |o: usize| source_coord(o, in_len, out_len, scale, a.ctm);
    // Kernel taps by d = o − i·s, from the first s outputs (unclamped).
    let mut by_d: Vec<(i64, f64)> = Vec::new();
    for o in 0..s {
        for (i, w) in raw_taps(coord(o), a.mode, a.nearest_mode) {
            let d = o as i64 - i * s as i64;
            match by_d.iter_mut().find(|t| t.0 == d) {
                Some(t) if t.1 != w => {
                    return Err(format!(
                        "output phase {o} weighs one kernel tap twice ({} and {w})",
                        t.1
                    ))
                }
                Some(_) => {}
                None => by_d.push((d, w)),
            }
        }
    }
    by_d.retain(|t| t.1 != 0.0);
    let lo = by_d.iter().map(|t| t.0).min().unwrap_or(0);
    let hi = by_d.iter().map(|t| t.0).max().unwrap_or(0);
    let mut kernel = vec![0.0; (hi - lo + 1) as usize];
    for &(d, w) in &by_d {
        kernel[(d - lo) as usize] = w;
    }
    let pad_begin = -lo;
    let mut factor = vec![1.0; out_len];
    for (o, f) in factor.iter_mut().enumerate() {
        let want = clamped(&raw_taps(coord(o), a.mode, a.nearest_mode), in_len);
        let got: Vec<(usize, f64)> = (0..in_len)
            .filter_map(|i| {
                let t = o as i64 + pad_begin - (i * s) as i64;
                let w = *kernel.get(usize::try_from(t).ok()?)?;
                (w != 0.0).then_some((i, w))
            })
            .collect();
        let sum: f64 = got.iter().map(|t| t.1).sum();
        if !nearest && sum > 0.0 && (sum - 1.0).abs() > 1e-12 {
            *f = 1.0 / sum;
        }
        let same = want.len() == got.len()
            && want
                .iter()
                .zip(&got)
                .all(|(x, y)| x.0 == y.0 && (x.1 - y.1 * *f).abs() <= 1e-9);
        if !same {
            return Err(format!(
                "output {o} reads {}, but a stride-{s} transposed convolution reads {}",
                describe(&want, nearest),
                describe(&got, nearest)
            ));
        }
    }
    Ok(AxisDeconv {
        stride: s,
        kernel,
        pad_begin,
        out_len,
        factor,
    })
}

/// The height and width axes of a 4-D `Resize` as transposed convolutions
/// (batch and channels unchanged), or why not (the message names the axis
/// and the attributes that decide it).
pub fn spatial_deconv(
    a: &ResizeAttrs,
    in_shape: &[usize],
    out_shape: &[usize],
    scales: Option<&[f64]>,
) -> Result<[AxisDeconv; 2], String> {
    if in_shape.len() != 4 || out_shape.len() != 4 {
        return Err(format!(
            "resizes a {}-D tensor (an [N, C, H, W] cube is needed)",
            in_shape.len()
        ));
    }
    if in_shape[..2] != out_shape[..2] {
        return Err(format!(
            "resizes the batch or channel axis ({in_shape:?} → {out_shape:?})"
        ));
    }
    match a.mode {
        "nearest" | "linear" => {}
        "cubic" => return Err("mode=cubic: its clamped border taps carry negative weights, which no transposed convolution reproduces".into()),
        m => return Err(format!("mode={m}")),
    }
    if a.ctm == "tf_crop_and_resize" {
        return Err("coordinate_transformation_mode=tf_crop_and_resize (a crop box)".into());
    }
    if a.antialias != 0 {
        return Err("antialias=1".into());
    }
    let axes: Vec<usize> = match a.axes {
        Some(v) => v
            .iter()
            .map(|&x| if x < 0 { x + 4 } else { x } as usize)
            .collect(),
        None => (0..4).collect(),
    };
    let mut scale: Vec<f64> = (0..4)
        .map(|d| out_shape[d] as f64 / in_shape[d].max(1) as f64)
        .collect();
    match scales.filter(|s| !s.is_empty()) {
        Some(s) => {
            for (j, &d) in axes.iter().enumerate() {
                if let (Some(&v), true) = (s.get(j), d < 4) {
                    scale[d] = v;
                }
            }
        }
        None if a.policy != "stretch" && scale[2] != scale[3] => {
            return Err(format!(
                "keep_aspect_ratio_policy={} with different factors per axis",
                a.policy
            ))
        }
        None => {}
    }
    let axis = |d: usize| {
        axis_deconv(a, in_shape[d], out_shape[d], scale[d]).map_err(|e| {
            let rounding = if a.mode == "nearest" {
                format!(", nearest_mode={}", a.nearest_mode)
            } else {
                String::new()
            };
            format!(
                "mode={}, coordinate_transformation_mode={}{rounding} on axis {d}: {e}",
                a.mode, a.ctm
            )
        })
    };
    Ok([axis(2)?, axis(3)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ONNX's result along one axis (clamped taps), for comparison.
    fn onnx(a: &ResizeAttrs, x: &[f64], out_len: usize, scale: f64) -> Vec<f64> {
        (0..out_len)
            .map(|o| {
                let c = source_coord(o, x.len(), out_len, scale, a.ctm);
                clamped(&raw_taps(c, a.mode, a.nearest_mode), x.len())
                    .iter()
                    .map(|&(i, w)| w * x[i])
                    .sum()
            })
            .collect()
    }

    /// The transposed convolution of `d` on `x`, with its factors.
    fn deconv(d: &AxisDeconv, x: &[f64]) -> Vec<f64> {
        (0..d.out_len)
            .map(|o| {
                let s: f64 = (0..x.len())
                    .filter_map(|i| {
                        let t = o as i64 + d.pad_begin - (i * d.stride) as i64;
                        Some(d.kernel.get(usize::try_from(t).ok()?)? * x[i])
                    })
                    .sum();
                s * d.factor[o]
            })
            .collect()
    }

    fn attrs<'a>(mode: &'a str, ctm: &'a str, nearest: &'a str) -> ResizeAttrs<'a> {
        ResizeAttrs {
            mode,
            ctm,
            nearest_mode: nearest,
            ..ResizeAttrs::default()
        }
    }

    #[test]
    fn mapped_modes_equal_onnx_everywhere() {
        let x: Vec<f64> = (0..7).map(|i| ((i * 37) % 11) as f64 - 4.0).collect();
        let cases = [
            ("nearest", "asymmetric", "floor", 2),
            ("nearest", "asymmetric", "floor", 3),
            ("nearest", "asymmetric", "round_prefer_floor", 2),
            ("nearest", "half_pixel", "round_prefer_floor", 3),
            ("nearest", "pytorch_half_pixel", "round_prefer_ceil", 4),
            ("nearest", "tf_half_pixel_for_nn", "floor", 2),
            ("linear", "half_pixel", "", 2),
            ("linear", "pytorch_half_pixel", "", 3),
            ("linear", "half_pixel_symmetric", "", 4),
            ("linear", "asymmetric", "", 2),
        ];
        for (mode, ctm, nearest, s) in cases {
            for n in [1, 2, 7] {
                let a = attrs(mode, ctm, nearest);
                let d = axis_deconv(&a, n, s * n, s as f64)
                    .unwrap_or_else(|e| panic!("{mode}/{ctm}/{nearest} ×{s} n={n}: {e}"));
                let want = onnx(&a, &x[..n], s * n, s as f64);
                let got = deconv(&d, &x[..n]);
                for (w, g) in want.iter().zip(&got) {
                    assert!(
                        (w - g).abs() < 1e-12,
                        "{mode}/{ctm}/{nearest} ×{s}: {want:?} vs {got:?}"
                    );
                }
                // Linear modes clamp a tap at a border; nearest never needs a factor.
                assert_eq!(d.needs_factor(), mode == "linear");
            }
        }
    }

    #[test]
    fn align_corners_maps_when_the_corners_are_a_whole_stride_apart() {
        let a = attrs("linear", "align_corners", "");
        let x = [1.0, -2.0, 4.0, 3.0];
        // 4 → 7: stride 2, no factor; 4 → 8 (PyTorch's scale_factor=2) is not a stride.
        let d = axis_deconv(&a, 4, 7, 7.0 / 4.0).unwrap();
        assert_eq!((d.stride, d.needs_factor()), (2, false));
        let want = onnx(&a, &x, 7, 7.0 / 4.0);
        assert_eq!(deconv(&d, &x), want);
        let e = axis_deconv(&a, 4, 8, 2.0).unwrap_err();
        assert!(
            e.contains("align_corners maps output o to input o·3/7"),
            "{e}"
        );
    }

    #[test]
    fn refusals_name_the_first_differing_output() {
        // round(o/3): the phase shifts, and the last output clamps.
        let a = attrs("nearest", "asymmetric", "round_prefer_floor");
        let e = axis_deconv(&a, 4, 12, 3.0).unwrap_err();
        assert_eq!(
            e,
            "output 11 reads input 3, but a stride-3 transposed convolution reads nothing"
        );
        let e = axis_deconv(&attrs("nearest", "half_pixel", "floor"), 4, 8, 2.0).unwrap_err();
        assert!(e.starts_with("output 0 reads input 0, but"), "{e}");
        assert!(axis_deconv(&attrs("linear", "half_pixel", ""), 4, 6, 1.5)
            .unwrap_err()
            .contains("not an integer factor"));
        assert!(axis_deconv(&attrs("linear", "half_pixel", ""), 4, 2, 0.5)
            .unwrap_err()
            .contains("shrinks"));
        let cubic = attrs("cubic", "half_pixel", "");
        assert!(spatial_deconv(&cubic, &[1, 1, 2, 2], &[1, 1, 4, 4], None)
            .unwrap_err()
            .starts_with("mode=cubic"));
    }
}
