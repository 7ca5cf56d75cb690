//! One op's computation: conv, SDP, PDP, CDP, EMU, BDMA and the virtual ops.
//!
//! In: the environment of computed tensors and an op. Out: the op's output
//! values (row-major over the output tensor's shape), before f16 rounding.
//!
//! ```text
//! pdp {pool_mode = "avg", 3x3, stride 1, pads 1}: y = Σ window (pads = 0) / 9
//! ```

use onnc_tensor::{Attr, Attrs};

use super::{sdp, Env};
use crate::program::{Engine, Op, TensorId};
use crate::Error;

pub(crate) fn run_op(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    match op.engine {
        Engine::Conv => conv(env, op),
        Engine::Sdp => {
            let x = input(env, op)?;
            sdp::run(env, op, env.get(op, x)?, &nchw(env, op, x)?)
        }
        Engine::Pdp => pdp(env, op),
        Engine::Cdp => cdp(env, op),
        Engine::Emu => emu(env, op),
        Engine::Bdma | Engine::Reshape => env.get(op, input(env, op)?),
        Engine::Concat => concat(env, op),
        Engine::Slice => slice(env, op),
        Engine::Rubik => Err(Error::not_modelled(
            op,
            "RUBIK contract/split/merge is not executed",
        )),
    }
}

fn input(_env: &Env, op: &Op) -> Result<TensorId, Error> {
    op.inputs
        .first()
        .copied()
        .flatten()
        .ok_or_else(|| Error::program(op, "operand slot 0 (input) is empty"))
}

fn nchw(env: &Env, op: &Op, t: TensorId) -> Result<[usize; 4], Error> {
    let s = &env.p.tensors[t].shape;
    <[usize; 4]>::try_from(s.as_slice()).map_err(|_| {
        Error::program(
            op,
            format!(
                "tensor '{}' has shape {s:?}, expected [N, C, H, W]",
                env.p.tensors[t].name
            ),
        )
    })
}

fn int(op: &Op, name: &str) -> Result<i64, Error> {
    op.int(name)
        .ok_or_else(|| Error::program(op, format!("missing integer attribute '{name}'")))
}

fn float(op: &Op, name: &str) -> Result<f32, Error> {
    op.float(name)
        .map(|v| v as f32)
        .ok_or_else(|| Error::program(op, format!("missing float attribute '{name}'")))
}

fn text<'a>(op: &'a Op, name: &str) -> Result<&'a str, Error> {
    op.str(name)
        .ok_or_else(|| Error::program(op, format!("missing attribute '{name}'")))
}

fn tensor(env: &Env, op: &Op, t: TensorId) -> Result<onnc_tensor::Tensor, Error> {
    onnc_tensor::Tensor::from_f32(env.p.tensors[t].shape.clone(), env.get(op, t)?)
        .map_err(|e| Error::program(op, e.to_string()))
}

/// Direct convolution, f32 accumulation (onnc-interp's kernel).
fn conv(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    if int(op, "pad_val")? != 0 {
        return Err(Error::not_modelled(op, "a non-zero pad_val"));
    }
    if text(op, "data_format")? != "feature" {
        return Err(Error::not_modelled(
            op,
            "image-mode input (data_format other than \"feature\")",
        ));
    }
    let x = tensor(env, op, input(env, op)?)?;
    let w = op
        .inputs
        .get(1)
        .copied()
        .flatten()
        .ok_or_else(|| Error::program(op, "operand slot 1 (weight) is empty"))?;
    let w = tensor(env, op, w)?;
    let mut attrs = Attrs::new();
    let ints = |names: &[&str]| {
        names
            .iter()
            .map(|n| int(op, n))
            .collect::<Result<Vec<_>, _>>()
    };
    attrs.insert(
        "strides".into(),
        Attr::Ints(ints(&["conv_stride_y", "conv_stride_x"])?),
    );
    attrs.insert(
        "dilations".into(),
        Attr::Ints(ints(&["dilation_y", "dilation_x"])?),
    );
    attrs.insert(
        "pads".into(),
        Attr::Ints(ints(&[
            "pad_y_top",
            "pad_x_left",
            "pad_y_bottom",
            "pad_x_right",
        ])?),
    );
    let group = crate::grouped_kernel::conv_group(op);
    if group > 1 {
        attrs.insert("group".into(), Attr::Int(group as i64));
    }
    let y = onnc_interp::run_op("Conv", &attrs, &[Some(&x), Some(&w)])
        .map_err(|e| Error::program(op, e.to_string()))?;
    Ok(y[0]
        .as_f32()
        .map_err(|e| Error::program(op, e.to_string()))?
        .to_vec())
}

/// Pooling; average over the full window with zero padding, max/min ignoring padding.
fn pdp(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    let x_id = input(env, op)?;
    let x = env.get(op, x_id)?;
    let [n, c, h, w] = nchw(env, op, x_id)?;
    let [_, _, oh, ow] = nchw(env, op, op.output)?;
    let mode = text(op, "pool_mode")?;
    let (kh, kw) = (
        int(op, "pool_height")? as usize,
        int(op, "pool_width")? as usize,
    );
    let (sy, sx) = (int(op, "stride_y")? as usize, int(op, "stride_x")? as usize);
    let (pt, pl) = (int(op, "pad_top")? as usize, int(op, "pad_left")? as usize);
    let (pb, pr) = (
        int(op, "pad_bottom")? as usize,
        int(op, "pad_right")? as usize,
    );
    let (eh, ew) = (
        (h + pt + pb - kh.min(h + pt + pb)) / sy + 1,
        (w + pl + pr - kw.min(w + pl + pr)) / sx + 1,
    );
    if (eh, ew) != (oh, ow) {
        return Err(Error::program(
            op,
            format!("a {kh}x{kw} window over {h}x{w} gives {eh}x{ew}, the output is {oh}x{ow}"),
        ));
    }
    let mut out = Vec::with_capacity(n * c * oh * ow);
    for plane in x.chunks(h * w) {
        for oy in 0..oh {
            for ox in 0..ow {
                let mut acc: Option<f32> = None;
                let mut sum = 0f32;
                for ky in 0..kh {
                    for kx in 0..kw {
                        let (iy, ix) = (
                            (oy * sy + ky) as isize - pt as isize,
                            (ox * sx + kx) as isize - pl as isize,
                        );
                        if iy < 0 || ix < 0 || iy >= h as isize || ix >= w as isize {
                            continue;
                        }
                        let v = plane[iy as usize * w + ix as usize];
                        sum += v;
                        acc = Some(match (mode, acc) {
                            (_, None) => v,
                            ("min", Some(a)) => a.min(v),
                            (_, Some(a)) => a.max(v),
                        });
                    }
                }
                out.push(match mode {
                    "avg" => sum / (kh * kw) as f32,
                    "max" | "min" => acc.unwrap_or(0.0),
                    other => {
                        return Err(Error::program(
                            op,
                            format!("pool_mode = \"{other}\" is not avg | max | min"),
                        ))
                    }
                });
            }
        }
    }
    Ok(out)
}

/// Local response normalization across channels.
fn cdp(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    let x_id = input(env, op)?;
    let x = env.get(op, x_id)?;
    let [n, c, h, w] = nchw(env, op, x_id)?;
    let size = int(op, "local_size")? as usize;
    let (alpha, beta, bias) = (float(op, "alpha")?, float(op, "beta")?, float(op, "bias")?);
    let (bypass_sqsum, bypass_mul) = (
        int(op, "bypass_sqsum")? != 0,
        int(op, "bypass_out_mul")? != 0,
    );
    let plane = h * w;
    let mut out = vec![0f32; x.len()];
    for b in 0..n {
        for ch in 0..c {
            let lo = ch.saturating_sub((size - 1) / 2);
            let hi = (ch + size / 2).min(c - 1);
            for i in 0..plane {
                let at = |k: usize| x[(b * c + k) * plane + i];
                let v = at(ch);
                let s: f32 = if bypass_sqsum {
                    v
                } else {
                    (lo..=hi).map(|k| at(k) * at(k)).sum()
                };
                let f = (bias + alpha / size as f32 * s).powf(-beta);
                out[(b * c + ch) * plane + i] = if bypass_mul { f } else { v * f };
            }
        }
    }
    Ok(out)
}

/// CPU emulator ops in f32.
fn emu(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    let x_id = input(env, op)?;
    let x = env.get(op, x_id)?;
    match text(op, "op_type")? {
        "softmax" => {
            if int(op, "axis")? != 1 {
                return Err(Error::not_modelled(op, "softmax over an axis other than 1"));
            }
            let [n, c, h, w] = nchw(env, op, x_id)?;
            let plane = h * w;
            let mut out = vec![0f32; x.len()];
            for b in 0..n {
                for i in 0..plane {
                    let idx = |k: usize| (b * c + k) * plane + i;
                    let max = (0..c).map(|k| x[idx(k)]).fold(f32::NEG_INFINITY, f32::max);
                    let sum: f32 = (0..c).map(|k| (x[idx(k)] - max).exp()).sum();
                    (0..c).for_each(|k| out[idx(k)] = (x[idx(k)] - max).exp() / sum);
                }
            }
            Ok(out)
        }
        "power" => {
            let (p, scale, shift) = (
                float(op, "power")?,
                float(op, "scale")?,
                float(op, "shift")?,
            );
            Ok(x.iter().map(|v| (shift + scale * v).powf(p)).collect())
        }
        "log" => Ok(x.iter().map(|v| v.ln()).collect()),
        other => Err(Error::program(
            op,
            format!("op_type = \"{other}\" is not softmax | power | log"),
        )),
    }
}

/// Concatenation of the members along `axis` (1 channels, 2 rows, 3
/// columns), in slot order.
fn concat(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    let dims = nchw(env, op, op.output)?;
    let axis = match op.attrs.get("axis").and_then(|v| v.as_int()).unwrap_or(1) {
        a @ 1..=3 => a as usize,
        a => return Err(Error::program(op, format!("axis {a} is not 1, 2 or 3"))),
    };
    // Blocks: the product of the dimensions before the axis; each member
    // contributes its contiguous run (its axis length times the inner size).
    let outer: usize = dims[..axis].iter().product();
    let inner: usize = dims[axis + 1..].iter().product();
    let members: Vec<(Vec<f32>, usize)> = op
        .operands()
        .map(|t| Ok((env.get(op, t)?, nchw(env, op, t)?[axis] * inner)))
        .collect::<Result<_, Error>>()?;
    let mut out = Vec::with_capacity(dims.iter().product());
    for b in 0..outer {
        for (values, run) in &members {
            out.extend_from_slice(&values[b * run..(b + 1) * run]);
        }
    }
    Ok(out)
}

/// The channel window `c_start .. c_start + C_out` of the input.
fn slice(env: &Env, op: &Op) -> Result<Vec<f32>, Error> {
    let x_id = input(env, op)?;
    let x = env.get(op, x_id)?;
    let [n, c, h, w] = nchw(env, op, x_id)?;
    let [_, oc, _, _] = nchw(env, op, op.output)?;
    let start = int(op, "c_start")? as usize;
    if start + oc > c {
        return Err(Error::program(
            op,
            format!("channels {start}..{} exceed the input's {c}", start + oc),
        ));
    }
    let plane = h * w;
    Ok((0..n)
        .flat_map(|b| {
            x[(b * c + start) * plane..(b * c + start + oc) * plane]
                .iter()
                .copied()
        })
        .collect())
}
