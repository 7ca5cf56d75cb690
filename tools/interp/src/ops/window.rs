//! Sliding-window geometry shared by `Conv`, `MaxPool`, `AveragePool` and
//! `LpPool`: kernel, strides, dilations and pads resolved from attributes
//! (`auto_pad`, `ceil_mode`) into begin pads and output extents.
//!
//! In: the input's spatial extents and the op's attributes. Out: a
//! [`Window`]. Example: a 3×3 kernel, stride 2, `SAME_UPPER` on 7×7 gives an
//! output of 4×4 with begin pads 1.

use crate::call::{Call, MAX_ELEMENTS, MAX_WINDOW_VALUE};
use crate::Result;

/// Resolved window geometry over `r` spatial dimensions.
#[derive(Debug, Clone)]
pub(crate) struct Window {
    /// Kernel extent per dimension.
    pub kernel: Vec<usize>,
    /// Stride per dimension.
    pub strides: Vec<usize>,
    /// Dilation per dimension.
    pub dilations: Vec<usize>,
    /// Padding before each dimension.
    pub pad_begin: Vec<usize>,
    /// Padding after each dimension (as given or derived; `ceil_mode` may
    /// read past it).
    pub pad_end: Vec<usize>,
    /// Input extents.
    pub input: Vec<usize>,
    /// Output extents.
    pub output: Vec<usize>,
}

/// Reads an optional list attribute of `r` positive values, defaulting to `default`.
fn positive_list(c: &Call, name: &str, r: usize, default: usize) -> Result<Vec<usize>> {
    match c.ints(name)? {
        None => Ok(vec![default; r]),
        Some(v) if v.len() == r && v.iter().all(|&x| (1..=MAX_WINDOW_VALUE).contains(&x)) => {
            Ok(v.iter().map(|&x| x as usize).collect())
        }
        Some(v) => Err(c.attr_err(
            name,
            format!("expected {r} values in 1..={MAX_WINDOW_VALUE}, got {v:?}"),
        )),
    }
}

/// Resolves the geometry. `kernel` is the kernel extent (from the weight for
/// `Conv`, from `kernel_shape` for pools); `ceil_mode` is the pools' flag.
pub(crate) fn resolve(
    c: &Call,
    input: &[usize],
    kernel: Vec<usize>,
    ceil_mode: bool,
) -> Result<Window> {
    let r = input.len();
    if kernel.len() != r {
        return Err(c.attr_err(
            "kernel_shape",
            format!("expected {r} values, got {kernel:?}"),
        ));
    }
    if kernel
        .iter()
        .any(|&k| k == 0 || k as i64 > MAX_WINDOW_VALUE)
        || kernel
            .iter()
            .try_fold(1usize, |a, &k| a.checked_mul(k))
            .is_none_or(|n| n > MAX_ELEMENTS)
    {
        return Err(c.attr_err("kernel_shape", format!("extents must be in 1..={MAX_WINDOW_VALUE} with a product ≤ {MAX_ELEMENTS}, got {kernel:?}")));
    }
    let strides = positive_list(c, "strides", r, 1)?;
    let dilations = positive_list(c, "dilations", r, 1)?;
    let auto_pad = c.string("auto_pad", "NOTSET")?;
    let mut pad_begin = vec![0; r];
    let mut pad_end = vec![0; r];
    let mut output = vec![0; r];
    for d in 0..r {
        let eff = (kernel[d] - 1) * dilations[d] + 1;
        let (i, s) = (input[d], strides[d]);
        match auto_pad {
            "NOTSET" => {}
            "VALID" => {
                output[d] = if i >= eff { (i - eff) / s + 1 } else { 0 };
                continue;
            }
            "SAME_UPPER" | "SAME_LOWER" => {
                let o = i.div_ceil(s);
                let total = ((o.max(1) - 1) * s + eff).saturating_sub(i);
                let small = total / 2;
                let (b, e) = if auto_pad == "SAME_UPPER" {
                    (small, total - small)
                } else {
                    (total - small, small)
                };
                pad_begin[d] = b;
                pad_end[d] = e;
                output[d] = o;
                continue;
            }
            other => return Err(c.attr_err("auto_pad", format!("unknown value `{other}`"))),
        }
        // NOTSET: explicit pads.
        let (b, e) = match c.ints("pads")? {
            None => (0, 0),
            Some(p)
                if p.len() == 2 * r && p.iter().all(|&x| (0..=MAX_WINDOW_VALUE).contains(&x)) =>
            {
                (p[d] as usize, p[d + r] as usize)
            }
            Some(p) => {
                return Err(c.attr_err(
                    "pads",
                    format!(
                        "expected {} values in 0..={MAX_WINDOW_VALUE}, got {p:?}",
                        2 * r
                    ),
                ))
            }
        };
        pad_begin[d] = b;
        pad_end[d] = e;
        let padded = i + b + e;
        if padded < eff {
            return Err(c.attr_err(
                "kernel_shape",
                format!("window of extent {eff} does not fit the padded input extent {padded}"),
            ));
        }
        let span = padded - eff;
        let mut o = if ceil_mode {
            span.div_ceil(s) + 1
        } else {
            span / s + 1
        };
        // A window must start inside the input or its begin padding.
        if ceil_mode && (o - 1) * s >= i + b {
            o -= 1;
        }
        output[d] = o;
    }
    c.checked_numel(&output, 0)?;
    Ok(Window {
        kernel,
        strides,
        dilations,
        pad_begin,
        pad_end,
        input: input.to_vec(),
        output,
    })
}
