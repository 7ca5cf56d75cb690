//! `Pad`: modes `constant`, `reflect`, `edge`, `wrap`; `pads`, optional
//! `constant_value` and `axes` as inputs (opset ≥ 11/18) or the `pads` /
//! `value` attributes (older). Negative pads crop.
//!
//! In: `data` of any type. Out: the padded tensor.
//! Example: `Pad([1, 2], pads=[1, 2], mode=reflect) = [2, 1, 2, 1, 2]`.

use crate::call::{out, Call};
use crate::layout::{product_index, strides, take_data_or, FILL};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `Pad`.
pub(crate) fn pad(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 4)?;
    let x = c.input(0)?;
    let r = x.rank();
    let mode = c.string("mode", "constant")?;
    if !matches!(mode, "constant" | "reflect" | "edge" | "wrap") {
        return Err(c.attr_err("mode", format!("unknown mode `{mode}`")));
    }
    let raw = c
        .ints_input_or_attr(1, "pads")?
        .ok_or_else(|| c.attr_err("pads", "missing (input 1)"))?;
    let axes: Vec<usize> = match c.ints_input(3)? {
        None => (0..r).collect(),
        Some(a) => a
            .iter()
            .map(|&v| c.axis("axes", v, r))
            .collect::<Result<_>>()?,
    };
    let k = axes.len();
    if raw.len() != 2 * k {
        return Err(c.attr_err(
            "pads",
            format!("expected {} values, got {}", 2 * k, raw.len()),
        ));
    }
    let mut begin = vec![0i64; r];
    let mut end = vec![0i64; r];
    for (i, &a) in axes.iter().enumerate() {
        begin[a] = raw[i];
        end[a] = raw[i + k];
    }
    let value = match c.opt(2) {
        Some(v) if v.numel() == 1 && v.dtype() == x.dtype() => v.data().clone(),
        Some(v) if v.numel() == 1 => v.cast(x.dtype()).into_data(),
        Some(v) => return Err(c.shape_err(2, "one element", v.shape())),
        None => Data::from_f64s(x.dtype(), &[c.float("value", 0.0)? as f64]),
    };
    let mut coords = Vec::with_capacity(r);
    let mut shape = Vec::with_capacity(r);
    for d in 0..r {
        let n = x.shape()[d] as i64;
        let len = n
            .checked_add(begin[d])
            .and_then(|v| v.checked_add(end[d]))
            .unwrap_or(-1);
        if len < 0 || len > crate::call::MAX_ELEMENTS as i64 {
            return Err(c.attr_err(
                "pads",
                format!(
                    "axis {d} of extent {n} padded by {}/{} is out of range",
                    begin[d], end[d]
                ),
            ));
        }
        if n == 0 && len > 0 && mode != "constant" {
            return Err(c.shape_err(
                0,
                format!("a non-empty axis {d} to pad in `{mode}` mode"),
                x.shape(),
            ));
        }
        let v: Vec<usize> = (0..len)
            .map(|o| {
                let p = o - begin[d];
                if (0..n).contains(&p) {
                    return p as usize;
                }
                match mode {
                    "edge" => p.clamp(0, n - 1) as usize,
                    "wrap" => p.rem_euclid(n) as usize,
                    "reflect" if n > 1 => {
                        let period = 2 * (n - 1);
                        let q = p.rem_euclid(period);
                        (if q < n { q } else { period - q }) as usize
                    }
                    "reflect" => 0,
                    _ => FILL,
                }
            })
            .collect();
        shape.push(len as usize);
        coords.push(v);
    }
    c.checked_numel(&shape, 0)?;
    let idx = product_index(&coords, &strides(x.shape()));
    Ok(vec![out(shape, take_data_or(x.data(), &idx, &value))?])
}
