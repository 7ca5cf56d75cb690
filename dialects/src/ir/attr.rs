//! Attribute conversion: [`Attr`] (ONNX attribute values) ↔ MLIR attributes.
//!
//! In → out, per kind:
//! | `Attr` | MLIR |
//! |---|---|
//! | `Int(3)` | `3 : i64` |
//! | `Float(0.5)` | `5.000000e-01 : f32` |
//! | `String("NOTSET")` | `"NOTSET"` |
//! | `Ints([1, 1])` | `array<i64: 1, 1>` |
//! | `Floats([1.0])` | `array<f32: 1.0>` |
//! | `Strings(["a"])` | `["a"]` |
//! | `Tensor(t)` | `dense<…> : tensor<…>` when small, else `dense_resource<name>` (zero-copy) |

use super::{
    query::{f32_array_attr, float_attr, i64_array_attr, int_attr, str_attr},
    resource::{dense_resource, resource_to_tensor, tensor_type},
};
use melior::{
    ir::{
        attribute::{
            ArrayAttribute, AttributeLike, DenseI64ArrayAttribute, FloatAttribute,
            IntegerAttribute, StringAttribute,
        },
        r#type::IntegerType,
        Attribute, Type,
    },
    Context,
};
use mlir_sys::*;
use onnc_tensor::{Attr, DType, Data, Tensor};

/// Tensors with at most this many elements become `dense<…>` (readable,
/// foldable); larger ones become `dense_resource` blobs.
pub const INLINE_TENSOR_LIMIT: usize = 16;

/// Converts an attribute value. `resource_name` names the blob when a tensor
/// is large enough to become a `dense_resource`.
pub fn attr_to_mlir<'c>(context: &'c Context, value: &Attr, resource_name: &str) -> Attribute<'c> {
    match value {
        Attr::Int(v) => IntegerAttribute::new(IntegerType::new(context, 64).into(), *v).into(),
        Attr::Float(v) => FloatAttribute::new(context, Type::float32(context), *v as f64).into(),
        Attr::String(s) => StringAttribute::new(context, s).into(),
        Attr::Ints(v) => DenseI64ArrayAttribute::new(context, v).into(),
        Attr::Floats(v) => {
            // SAFETY: builds a dense f32 array from a valid slice in a live context.
            unsafe {
                Attribute::from_raw(mlirDenseF32ArrayGet(
                    context.to_raw(),
                    v.len() as isize,
                    v.as_ptr(),
                ))
            }
        }
        Attr::Strings(v) => {
            let items: Vec<Attribute> = v
                .iter()
                .map(|s| StringAttribute::new(context, s).into())
                .collect();
            ArrayAttribute::new(context, &items).into()
        }
        Attr::Tensor(t) => tensor_attr(context, t.clone(), resource_name),
    }
}

/// A tensor as an elements attribute: inline `dense<…>` up to
/// [`INLINE_TENSOR_LIMIT`] elements, a `dense_resource` blob above.
pub fn tensor_attr<'c>(context: &'c Context, tensor: Tensor, resource_name: &str) -> Attribute<'c> {
    if tensor.numel() > INLINE_TENSOR_LIMIT {
        return dense_resource(context, resource_name, tensor);
    }
    let ty = tensor_type(context, tensor.shape(), tensor.dtype());
    let elems: Vec<String> = element_texts(tensor.data());
    // A tensor with no elements (a 0 in its shape) is `dense<>`.
    let body = if tensor.numel() == 0 {
        String::new()
    } else if tensor.rank() == 0 {
        elems.first().cloned().unwrap_or_default()
    } else {
        nested(&elems, tensor.shape())
    };
    let text = format!("dense<{body}> : {ty}");
    match Attribute::parse(context, &text) {
        Some(a) => a,
        // Never expected; a blob holds any tensor without parsing.
        None => dense_resource(context, resource_name, tensor),
    }
}

/// `[[a, b], [c, d]]` for shape [2, 2]: MLIR's literal nests one bracket per dim.
fn nested(elems: &[String], shape: &[usize]) -> String {
    match shape {
        [] => elems.first().cloned().unwrap_or_default(),
        [_] => format!("[{}]", elems.join(", ")),
        [n, rest @ ..] => {
            let inner: usize = rest.iter().product();
            let parts: Vec<String> = (0..*n)
                .map(|i| nested(&elems[i * inner..(i + 1) * inner], rest))
                .collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

fn element_texts(data: &Data) -> Vec<String> {
    fn float(v: f64, bits: u64, width: usize) -> String {
        if v.is_finite() {
            // MLIR's float literal needs a '.' in the mantissa: 5e-1 -> 5.0e-1.
            let t = format!("{v:e}");
            match t.split_once('e') {
                Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
                _ => t,
            }
        } else {
            format!("0x{bits:0width$X}")
        }
    }
    match data {
        Data::F32(v) => v
            .iter()
            .map(|x| float(*x as f64, x.to_bits() as u64, 8))
            .collect(),
        Data::F64(v) => v.iter().map(|x| float(*x, x.to_bits(), 16)).collect(),
        Data::F16(v) => v
            .iter()
            .map(|x| float(x.to_f64(), x.to_bits() as u64, 4))
            .collect(),
        Data::Bool(v) => v
            .iter()
            .map(|b| {
                if *b != 0 {
                    "true".into()
                } else {
                    "false".into()
                }
            })
            .collect(),
        other => other.to_i64_vec().iter().map(|x| x.to_string()).collect(),
    }
}

/// Converts an MLIR attribute back, or `None` for kinds that have no [`Attr`]
/// form (e.g. a type attribute, an elided resource).
pub fn mlir_to_attr(attr: Attribute) -> Option<Attr> {
    if let Some((v, _)) = int_attr(attr) {
        return Some(Attr::Int(v));
    }
    if let Some(v) = float_attr(attr) {
        return Some(Attr::Float(v as f32));
    }
    if let Some(s) = str_attr(attr) {
        return Some(Attr::String(s));
    }
    if let Some(v) = i64_array_attr(attr) {
        return Some(Attr::Ints(v));
    }
    if let Some(v) = f32_array_attr(attr) {
        return Some(Attr::Floats(v));
    }
    if let Some(t) = elements_to_tensor(attr) {
        return Some(Attr::Tensor(t));
    }
    // SAFETY: queries on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        if mlirAttributeIsAArray(raw) {
            let n = mlirArrayAttrGetNumElements(raw);
            let items: Option<Vec<String>> = (0..n)
                .map(|i| str_attr(Attribute::from_raw(mlirArrayAttrGetElement(raw, i))))
                .collect();
            return items.map(Attr::Strings);
        }
    }
    None
}

/// The tensor of a `dense<…>` or `dense_resource<…>` attribute.
pub fn elements_to_tensor(attr: Attribute) -> Option<Tensor> {
    elements_to_tensor_or_why(attr).ok()
}

/// [`elements_to_tensor`] with the reason when there is no tensor: not an
/// elements attribute, an elided resource, or an element count whose bytes
/// exceed `onnc_tensor::limits::MAX_TENSOR_BYTES` (a `dense<1.0> :
/// tensor<1099511627776xf32>` splat is refused, not materialised).
pub fn elements_to_tensor_or_why(attr: Attribute) -> Result<Tensor, String> {
    const NOT: &str = "its value is not a tensor we can read (an elided dense_resource? print without --mlir-elide-resource-strings-if-larger)";
    if let Some(t) = resource_to_tensor(attr) {
        return Ok(t);
    }
    // SAFETY: queries on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsADenseElements(raw) {
            return Err(NOT.into());
        }
        let ty = mlirAttributeGetType(raw);
        let rank = mlirShapedTypeGetRank(ty);
        let shape: Vec<usize> = (0..rank)
            .map(|i| mlirShapedTypeGetDimSize(ty, i as isize).max(0) as usize)
            .collect();
        let elem = Type::from_raw(mlirShapedTypeGetElementType(ty)).to_string();
        let dtype = DType::from_mlir_name(&elem)
            .ok_or_else(|| format!("element type {elem} is not supported"))?;
        onnc_tensor::limits::checked_bytes(
            &shape,
            dtype.size().max(1),
            onnc_tensor::limits::MAX_TENSOR_BYTES,
        )?;
    }
    elements_to_tensor_unchecked(attr).ok_or_else(|| NOT.into())
}

fn elements_to_tensor_unchecked(attr: Attribute) -> Option<Tensor> {
    // SAFETY: queries on a valid attribute; raw data is copied out.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsADenseElements(raw) {
            return None;
        }
        let ty = mlirAttributeGetType(raw);
        let rank = mlirShapedTypeGetRank(ty);
        let shape: Vec<usize> = (0..rank)
            .map(|i| mlirShapedTypeGetDimSize(ty, i as isize).max(0) as usize)
            .collect();
        let n: usize = shape.iter().product();
        let elem = Type::from_raw(mlirShapedTypeGetElementType(ty)).to_string();
        let dtype = DType::from_mlir_name(&elem)?;
        if dtype == DType::Bool {
            let v = (0..n)
                .map(|i| u8::from(mlirDenseElementsAttrGetBoolValue(raw, i as isize)))
                .collect();
            return Tensor::new(shape, Data::Bool(v)).ok();
        }
        if n == 0 {
            return Tensor::from_le_bytes(dtype, shape, &[]).ok();
        }
        let size = dtype.size();
        let data = mlirDenseElementsAttrGetRawData(raw) as *const u8;
        if mlirDenseElementsAttrIsSplat(raw) {
            let one = std::slice::from_raw_parts(data, size);
            let bytes: Vec<u8> = one.iter().copied().cycle().take(n * size).collect();
            return Tensor::from_le_bytes(dtype, shape, &bytes).ok();
        }
        Tensor::from_le_bytes(dtype, shape, std::slice::from_raw_parts(data, n * size)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::new_context;

    #[test]
    fn every_kind_round_trips() {
        let ctx = new_context().unwrap();
        let cases = vec![
            Attr::Int(-3),
            Attr::Float(0.25),
            Attr::Tensor(Tensor::from_f32(vec![], vec![0.5]).unwrap()),
            Attr::Tensor(Tensor::from_f32(vec![3], vec![1e-7, 3.0, -2.5e10]).unwrap()),
            Attr::String("SAME_UPPER".into()),
            Attr::Ints(vec![1, 2, 3]),
            Attr::Floats(vec![0.5, -1.0]),
            Attr::Strings(vec!["a".into(), "b".into()]),
            Attr::Tensor(Tensor::from_f32(vec![2], vec![1.5, f32::NEG_INFINITY]).unwrap()),
            Attr::Tensor(Tensor::from_i64(vec![], vec![7]).unwrap()),
            Attr::Tensor(Tensor::new(vec![3], Data::Bool(vec![1, 0, 1])).unwrap()),
            Attr::Tensor(Tensor::from_f32(vec![2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap()),
            Attr::Tensor(Tensor::from_i64(vec![2, 1, 2], vec![1, 2, 3, 4]).unwrap()),
            Attr::Tensor(Tensor::from_i64(vec![0], vec![]).unwrap()),
            Attr::Tensor(
                Tensor::from_f32(vec![4, 8], (0..32).map(|i| i as f32 * 0.1).collect()).unwrap(),
            ),
        ];
        for a in cases {
            let m = attr_to_mlir(&ctx, &a, "blob");
            assert_eq!(mlir_to_attr(m), Some(a.clone()), "{a:?} printed as {m}");
        }
    }

    #[test]
    fn splat_and_large_tensors() {
        let ctx = new_context().unwrap();
        let splat = Attribute::parse(&ctx, "dense<2.0> : tensor<2x2xf32>").unwrap();
        assert_eq!(
            elements_to_tensor(splat),
            Some(Tensor::from_f32(vec![2, 2], vec![2.0; 4]).unwrap())
        );
        let big = Tensor::from_f32(vec![100], vec![1.0; 100]).unwrap();
        let a = tensor_attr(&ctx, big.clone(), "w");
        assert!(a.to_string().starts_with("dense_resource<w"), "{a}");
        assert_eq!(elements_to_tensor(a), Some(big));
    }
}
