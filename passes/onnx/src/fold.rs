//! Constant propagation of small shape arithmetic (`Shape`, `Size`, `Gather`,
//! `Unsqueeze`, `Squeeze`, `Concat`, `Slice`, `Cast`, `Reshape`, `Flatten`,
//! `Identity`, int64 `Add`/`Sub`/`Mul`/`Div`/`Mod`/`Max`/`Min`/`Neg`, small
//! `ConstantOfShape`), so that shape-computing
//! subgraphs (`Shape` → `Gather` → `Unsqueeze` → `Concat` → `Reshape`, as
//! PyTorch exports them) infer to static shapes.
//!
//! In: a normalized node, its inferred output types and the values of its
//! inputs. Out: the values of its outputs when every input is known and the
//! result is small (≤ [`MAX_FOLD_ELEMENTS`]); otherwise `None`. The graph is
//! not changed — folding happens for inference only; the `onnx-simplify`
//! pass does real constant folding.

use crate::{Node, TypeInfo};
use onnc_tensor::{Attr, DType, Data, Tensor};

/// Largest result (in elements) propagated as a known value.
pub const MAX_FOLD_ELEMENTS: usize = 1024;

/// The output values of `node`, if it is foldable and its inputs are known.
pub(crate) fn fold(
    node: &Node,
    outs: &[TypeInfo],
    inputs: &[Option<&Tensor>],
    in_types: &[Option<TypeInfo>],
) -> Option<Vec<Tensor>> {
    if !node.domain.is_empty() || outs.len() != 1 {
        return None;
    }
    let shape = outs[0].static_shape()?;
    if shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))? > MAX_FOLD_ELEMENTS {
        return None;
    }
    // `Shape` needs only the input's type.
    if node.op_type == "Shape" {
        let dims = in_types.first()?.as_ref()?.static_shape()?;
        let r = dims.len() as i64;
        let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) } as usize;
        let start = clamp(node.attrs.get("start").and_then(Attr::as_int).unwrap_or(0));
        let end = clamp(node.attrs.get("end").and_then(Attr::as_int).unwrap_or(r));
        let v: Vec<i64> = dims
            .get(start..end.max(start))?
            .iter()
            .map(|&d| d as i64)
            .collect();
        return Some(vec![Tensor::from_i64(vec![v.len()], v).ok()?]);
    }
    if node.op_type == "Size" {
        let dims = in_types.first()?.as_ref()?.static_shape()?;
        let n = dims
            .iter()
            .try_fold(1i64, |a, &d| a.checked_mul(i64::try_from(d).ok()?))?;
        return Some(vec![Tensor::from_i64(vec![], vec![n]).ok()?]);
    }
    let all: Vec<&Tensor> = node
        .inputs
        .iter()
        .zip(inputs)
        .filter(|(n, _)| n.is_some())
        .map(|(_, v)| *v)
        .collect::<Option<_>>()?;
    let x = *all.first()?;
    let t = match node.op_type.as_str() {
        "Identity" | "Unsqueeze" | "Squeeze" | "Reshape" | "Flatten" => {
            x.clone().reshape(shape).ok()?
        }
        "Cast" => x.cast(outs[0].dtype).reshape(shape).ok()?,
        "Neg" if x.dtype() == DType::I64 => {
            let v = x
                .as_i64()
                .ok()?
                .iter()
                .map(|v| v.checked_neg())
                .collect::<Option<Vec<_>>>()?;
            Tensor::from_i64(shape, v).ok()?
        }
        "ConstantOfShape" => match node.attrs.get("value") {
            Some(Attr::Tensor(v)) => {
                Tensor::new(shape.clone(), repeat(v.data(), shape.iter().product())?).ok()?
            }
            _ => Tensor::full(DType::F32, shape, 0.0),
        },
        "Concat" if x.rank() == 1 => {
            let mut v = Vec::new();
            for t in &all {
                if t.dtype() != DType::I64 {
                    return None;
                }
                v.extend_from_slice(t.as_i64().ok()?);
            }
            Tensor::from_i64(shape, v).ok()?
        }
        "Gather" if x.rank() == 1 && x.dtype() == DType::I64 => {
            let data = x.as_i64().ok()?;
            let n = data.len() as i64;
            let idx = all.get(1)?.data().to_i64_vec();
            let v = idx
                .iter()
                .map(|&i| {
                    data.get(usize::try_from(if i < 0 { i + n } else { i }).ok()?)
                        .copied()
                })
                .collect::<Option<Vec<_>>>()?;
            Tensor::from_i64(shape, v).ok()?
        }
        "Slice" if x.rank() == 1 && x.dtype() == DType::I64 => {
            let data = x.as_i64().ok()?;
            let n = data.len() as i64;
            let get = |i: usize| all.get(i).map(|t| t.data().to_i64_vec());
            let (s, e) = (*get(1)?.first()?, *get(2)?.first()?);
            let step = node
                .input(4)
                .map_or(Some(1), |_| get(4).and_then(|v| v.first().copied()))?;
            if step != 1
                || node.input(3).is_some_and(|_| {
                    get(3)
                        .and_then(|v| v.first().copied())
                        .is_none_or(|a| a != 0 && a != -1)
                })
            {
                return None;
            }
            let c = |v: i64| (if v < 0 { v.saturating_add(n) } else { v }).clamp(0, n) as usize;
            let v = data.get(c(s)..c(e).max(c(s)))?.to_vec();
            Tensor::from_i64(shape, v).ok()?
        }
        "Add" | "Sub" | "Mul" | "Div" | "Mod" | "Max" | "Min"
            if all.iter().all(|t| t.dtype() == DType::I64) && all.len() == 2 =>
        {
            let (a, b) = (all[0].as_i64().ok()?, all[1].as_i64().ok()?);
            let n = shape.iter().product::<usize>();
            let pick = |v: &[i64], i: usize| {
                if v.len() == 1 {
                    v.first().copied()
                } else {
                    v.get(i).copied()
                }
            };
            if !(a.len() == n || a.len() == 1) || !(b.len() == n || b.len() == 1) {
                return None;
            }
            let v = (0..n)
                .map(|i| {
                    let (p, q) = (pick(a, i)?, pick(b, i)?);
                    match node.op_type.as_str() {
                        "Add" => p.checked_add(q),
                        "Sub" => p.checked_sub(q),
                        "Mul" => p.checked_mul(q),
                        "Max" => Some(p.max(q)),
                        "Min" => Some(p.min(q)),
                        "Mod" if node.attrs.get("fmod").and_then(Attr::as_int) == Some(1) => {
                            p.checked_rem(q)
                        }
                        // Python's `%`: the result takes the divisor's sign.
                        "Mod" => p.checked_rem(q).map(|r| {
                            if r != 0 && (r < 0) != (q < 0) {
                                r + q
                            } else {
                                r
                            }
                        }),
                        _ => p.checked_div(q),
                    }
                })
                .collect::<Option<Vec<_>>>()?;
            Tensor::from_i64(shape, v).ok()?
        }
        _ => return None,
    };
    (t.dtype() == outs[0].dtype).then_some(vec![t])
}

fn repeat(d: &Data, n: usize) -> Option<Data> {
    let v = d.to_f64_vec();
    let x = *v.first()?;
    Some(Data::from_f64s(d.dtype(), &vec![x; n]))
}
