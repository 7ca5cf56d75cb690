//! The SDP datapath in FP16 mode: X1, X2, Y sub-units over the input cube.
//!
//! In: the input values (the conv accumulator, or a cube), the op's
//! sub-unit registers and operand slots. Out: the output values (before the
//! f16 output rounding). Each enabled sub-unit computes, per element,
//! `type add: x alu a`, `mul: x · m`, `both: (x alu a) · m`, then `act`
//! (on Y, `lut` is the exact function named by `lut_fn`).
//!
//! ```text
//! x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", slot x1 = bias[1, K, 1, 1]
//! y[n, k, h, w] = max(acc[n, k, h, w] + bias[k], 0)
//! ```

use super::fp16::from_bits;
use super::Env;
use crate::emit::lut_fn::LutFn;
use crate::program::Op;
use crate::Error;

/// Where a sub-unit operand comes from.
enum Operand {
    Layer(f32),
    Kernel(Vec<f32>),
    Point(Vec<f32>),
}

impl Operand {
    fn at(&self, i: usize, k: usize) -> f32 {
        match self {
            Operand::Layer(v) => *v,
            Operand::Kernel(v) => v[k],
            Operand::Point(v) => v[i],
        }
    }
}

/// Runs the SDP `op` on `x` (shape `[N, C, H, W]` = `shape`).
pub(crate) fn run(env: &Env, op: &Op, mut x: Vec<f32>, shape: &[usize]) -> Result<Vec<f32>, Error> {
    for (unit, slot) in [("x1_op", 1), ("x2_op", 2), ("y_op", 3)] {
        let attr = |name: &str| format!("{unit}.{name}");
        let str_attr = |name: &str| {
            op.str(&attr(name))
                .ok_or_else(|| Error::program(op, format!("missing attribute '{}'", attr(name))))
        };
        let int_attr = |name: &str| {
            op.int(&attr(name))
                .ok_or_else(|| Error::program(op, format!("missing attribute '{}'", attr(name))))
        };
        if int_attr("enable")? == 0 {
            continue;
        }
        let (ty, mode, alu, act) = (
            str_attr("type")?,
            str_attr("mode")?,
            str_attr("alu_type")?,
            str_attr("act")?,
        );
        let (a, m) = operands(env, op, unit, slot, ty, mode, shape)?;
        let lut = if act == "lut" {
            Some(lut_fn(op)?)
        } else {
            None
        };
        let per_plane = shape[2] * shape[3];
        let channels = shape[1];
        for (i, v) in x.iter_mut().enumerate() {
            let k = (i / per_plane) % channels;
            let mut y = *v;
            if matches!(ty, "add" | "both") {
                let b = a.at(i, k);
                y = match alu {
                    "sum" => y + b,
                    "max" => y.max(b),
                    "min" => y.min(b),
                    "eql" => f32::from(u8::from(y == b)),
                    other => {
                        return Err(Error::program(
                            op,
                            format!("{unit}.alu_type = \"{other}\" is not max | min | sum | eql"),
                        ))
                    }
                };
            }
            if matches!(ty, "mul" | "both") && act != "prelu" {
                y *= m.at(i, k);
            }
            y = match act {
                "none" => y,
                "relu" => y.max(0.0),
                "prelu" if y < 0.0 => y * m.at(i, k),
                "prelu" => y,
                "lut" if unit == "y_op" => lut.map_or(y, |f| f.value(f64::from(y)) as f32),
                other => return Err(Error::not_modelled(op, format!("{unit}.act = \"{other}\""))),
            };
            *v = y;
        }
    }
    Ok(x)
}

/// The function of the op's lookup table (`lut_fn`, `lut_alpha`, `lut_beta`).
fn lut_fn(op: &Op) -> Result<LutFn, Error> {
    let name = op
        .str("lut_fn")
        .ok_or_else(|| Error::program(op, "y_op.act = \"lut\" without lut_fn".to_string()))?;
    let float = |k: &str| op.attrs.get(k).and_then(|v| v.as_float()).unwrap_or(0.0);
    LutFn::parse(name, float("lut_alpha"), float("lut_beta")).map_err(|e| Error::program(op, e))
}

/// The ALU and MUL operands of one sub-unit.
fn operands(
    env: &Env,
    op: &Op,
    unit: &str,
    slot: usize,
    ty: &str,
    mode: &str,
    shape: &[usize],
) -> Result<(Operand, Operand), Error> {
    if mode == "per_layer" {
        let imm = |name: &str| {
            op.int(&format!("{unit}.{name}"))
                .map(from_bits)
                .ok_or_else(|| Error::program(op, format!("missing attribute '{unit}.{name}'")))
        };
        return Ok((
            Operand::Layer(imm("alu_operand")?),
            Operand::Layer(imm("mul_operand")?),
        ));
    }
    let Some(t) = op.inputs.get(slot).copied().flatten() else {
        return Err(Error::program(
            op,
            format!("{unit}.mode = \"{mode}\" needs operand slot {slot}, which is empty"),
        ));
    };
    let values = env.get(op, t)?;
    let (k, point) = (shape[1], shape.iter().product::<usize>());
    let rows = if ty == "both" { 2 } else { 1 };
    let (unit_len, wrap): (usize, fn(Vec<f32>) -> Operand) = match mode {
        "per_kernel" => (k, Operand::Kernel),
        "per_point" => (point, Operand::Point),
        other => {
            return Err(Error::program(
                op,
                format!("{unit}.mode = \"{other}\" is not per_layer | per_kernel | per_point"),
            ))
        }
    };
    if values.len() != rows * unit_len {
        return Err(Error::program(
            op,
            format!(
                "{unit} operand '{}' has {} values; {mode} {ty} needs {}",
                env.p.tensors[t].name,
                values.len(),
                rows * unit_len
            ),
        ));
    }
    Ok(match ty {
        "both" => (
            wrap(values[..unit_len].to_vec()),
            wrap(values[unit_len..].to_vec()),
        ),
        "mul" => (Operand::Layer(0.0), wrap(values)),
        _ => (wrap(values), Operand::Layer(1.0)),
    })
}
