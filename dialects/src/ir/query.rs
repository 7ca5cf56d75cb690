//! Read-only questions about types and attributes that melior does not
//! answer conveniently: tensor shapes with dynamic dims, integer widths,
//! dense arrays.
//!
//! In: a `Type` or `Attribute`. Out: plain Rust values, or `None` when the
//! value is not of the asked kind.

use melior::ir::{attribute::AttributeLike, r#type::TypeLike, Attribute, Type};
use mlir_sys::*;

/// The shape and element type of a tensor type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorShape {
    /// Dims, `None` for `?`; `None` for the whole shape when unranked.
    pub dims: Option<Vec<Option<usize>>>,
    /// The element type as MLIR prints it (`f32`, `i64`, …).
    pub element: String,
}

impl TensorShape {
    /// The rank, if ranked.
    pub fn rank(&self) -> Option<usize> {
        self.dims.as_ref().map(|d| d.len())
    }

    /// All dims when the tensor is ranked and fully static.
    pub fn static_dims(&self) -> Option<Vec<usize>> {
        self.dims.as_ref()?.iter().copied().collect()
    }
}

/// The shape of a `tensor<…>` type, or `None` for any other type.
pub fn tensor_shape(ty: Type) -> Option<TensorShape> {
    // SAFETY: queries on a valid type.
    unsafe {
        let raw = ty.to_raw();
        if !mlirTypeIsATensor(raw) {
            return None;
        }
        let element = Type::from_raw(mlirShapedTypeGetElementType(raw)).to_string();
        if !mlirShapedTypeHasRank(raw) {
            return Some(TensorShape {
                dims: None,
                element,
            });
        }
        let rank = mlirShapedTypeGetRank(raw);
        let dims = (0..rank)
            .map(|i| {
                let d = mlirShapedTypeGetDimSize(raw, i as isize);
                if mlirShapedTypeIsDynamicSize(d) {
                    None
                } else {
                    Some(d as usize)
                }
            })
            .collect();
        Some(TensorShape {
            dims: Some(dims),
            element,
        })
    }
}

/// An integer attribute's value and bit width (`3 : i64` → `(3, 64)`).
pub fn int_attr(attr: Attribute) -> Option<(i64, u32)> {
    // SAFETY: queries on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsAInteger(raw) {
            return None;
        }
        let ty = mlirAttributeGetType(raw);
        let width = if mlirTypeIsAInteger(ty) {
            mlirIntegerTypeGetWidth(ty)
        } else {
            64
        };
        Some((mlirIntegerAttrGetValueInt(raw), width))
    }
}

/// A float attribute's value (`1.0 : f32` → `1.0`).
pub fn float_attr(attr: Attribute) -> Option<f64> {
    // SAFETY: queries on a valid attribute.
    unsafe {
        mlirAttributeIsAFloat(attr.to_raw()).then(|| mlirFloatAttrGetValueDouble(attr.to_raw()))
    }
}

/// A string attribute's value.
pub fn str_attr(attr: Attribute) -> Option<String> {
    // SAFETY: queries on a valid attribute; the string is copied out.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsAString(raw) {
            return None;
        }
        let s = mlirStringAttrGetValue(raw);
        let bytes = if s.data.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(s.data as *const u8, s.length)
        };
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// The elements of an `array<i64: …>` attribute; `None` for any other kind
/// (including `array<i32: …>`).
pub fn i64_array_attr(attr: Attribute) -> Option<Vec<i64>> {
    // SAFETY: queries on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsADenseI64Array(raw) {
            return None;
        }
        Some(
            (0..mlirDenseArrayGetNumElements(raw))
                .map(|i| mlirDenseI64ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// The elements of an `array<i32: …>` attribute (segment sizes).
pub fn i32_array_attr(attr: Attribute) -> Option<Vec<i32>> {
    // SAFETY: queries on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsADenseI32Array(raw) {
            return None;
        }
        Some(
            (0..mlirDenseArrayGetNumElements(raw))
                .map(|i| mlirDenseI32ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// The elements of an `array<f32: …>` attribute.
pub fn f32_array_attr(attr: Attribute) -> Option<Vec<f32>> {
    // SAFETY: queries on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsADenseF32Array(raw) {
            return None;
        }
        Some(
            (0..mlirDenseArrayGetNumElements(raw))
                .map(|i| mlirDenseF32ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// Whether `attr` is any dense array (`array<T: …>`), whatever its element type.
pub fn is_dense_array(attr: Attribute) -> bool {
    // SAFETY: query on a valid attribute.
    unsafe {
        let raw = attr.to_raw();
        mlirAttributeIsADenseBoolArray(raw)
            || mlirAttributeIsADenseI8Array(raw)
            || mlirAttributeIsADenseI16Array(raw)
            || mlirAttributeIsADenseI32Array(raw)
            || mlirAttributeIsADenseI64Array(raw)
            || mlirAttributeIsADenseF32Array(raw)
            || mlirAttributeIsADenseF64Array(raw)
    }
}

/// The string `key` of each dictionary in a func's `arg_attrs` (or
/// `res_attrs`) array, e.g. the ONNX tensor names the importer stores as
/// `{onnx.name = "data_0"}`; `None` where absent.
pub fn func_arg_strings(
    func: &melior::ir::OperationRef,
    results: bool,
    key: &str,
) -> Vec<Option<String>> {
    use melior::ir::operation::OperationLike;
    let Ok(attr) = func.attribute(if results { "res_attrs" } else { "arg_attrs" }) else {
        return Vec::new();
    };
    // SAFETY: queries on valid attributes; strings are copied out.
    unsafe {
        let raw = attr.to_raw();
        if !mlirAttributeIsAArray(raw) {
            return Vec::new();
        }
        let key = melior::StringRef::new(key);
        (0..mlirArrayAttrGetNumElements(raw))
            .map(|i| {
                let d = mlirArrayAttrGetElement(raw, i);
                if !mlirAttributeIsADictionary(d) {
                    return None;
                }
                let v = mlirDictionaryAttrGetElementByName(d, key.to_raw());
                if v.ptr.is_null() {
                    return None;
                }
                str_attr(Attribute::from_raw(v))
            })
            .collect()
    }
}
