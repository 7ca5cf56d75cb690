//! Weights as `dense_resource` blobs: zero-copy in, zero-copy out.
//!
//! In: an owned [`Tensor`]. Out: `dense_resource<name> : tensor<…>`, whose
//! bytes are the tensor's own buffer (the context frees it through a deleter
//! when the blob dies). Printing a module writes the bytes into a
//! `{-# dialect_resources: { builtin: { name: "0x04000000…" } } #-}` section,
//! which parses back into an equal blob.

use melior::{
    ir::{attribute::AttributeLike, r#type::TypeLike, Attribute, Type},
    Context, StringRef,
};
use mlir_sys::*;
use onnc_tensor::{DType, Tensor};
use std::ffi::c_void;

extern "C" {
    fn onncDenseResourceBytes(
        attr: MlirAttribute,
        data: *mut *const c_void,
        size: *mut usize,
    ) -> bool;
}

/// `tensor<2x3xf32>`-style type for a shape and element type.
pub fn tensor_type<'c>(context: &'c Context, shape: &[usize], dtype: DType) -> Type<'c> {
    let mut text = String::from("tensor<");
    for d in shape {
        text.push_str(&format!("{d}x"));
    }
    text.push_str(dtype.mlir_name());
    text.push('>');
    Type::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' is a valid builtin type"))
}

unsafe extern "C" fn drop_tensor(
    user: *mut c_void,
    _data: *const c_void,
    _size: usize,
    _align: usize,
) {
    // SAFETY: `user` is the `Box<Tensor>` leaked by `dense_resource`; MLIR calls this once.
    drop(unsafe { Box::from_raw(user as *mut Tensor) });
}

/// Wraps `tensor` as a `dense_resource` attribute named `name` (MLIR makes the
/// name unique within the context, e.g. `conv1_w_1`). No bytes are copied
/// (unless the tensor's shared bytes are misaligned for its element type).
pub fn dense_resource<'c>(context: &'c Context, name: &str, tensor: Tensor) -> Attribute<'c> {
    let ty = tensor_type(context, tensor.shape(), tensor.dtype());
    let align = tensor.dtype().size();
    let boxed = Box::new(tensor);
    // A tensor over a slice of the model file is used where it is when
    // aligned for its element type, else decoded into aligned storage.
    let shared = boxed.le_bytes();
    let bytes = if (shared.as_ptr() as usize) % align.max(1) == 0 {
        shared
    } else {
        boxed.data().as_bytes()
    };
    let (ptr, len) = (bytes.as_ptr() as *mut c_void, bytes.len());
    let user = Box::into_raw(boxed) as *mut c_void;
    // SAFETY: `ptr` points into the boxed tensor, which lives until the
    // deleter runs; the type matches the data's element type and count.
    unsafe {
        Attribute::from_raw(mlirUnmanagedDenseResourceElementsAttrGet(
            ty.to_raw(),
            StringRef::new(name).to_raw(),
            ptr,
            len,
            align,
            false,
            Some(drop_tensor),
            user,
        ))
    }
}

/// The tensor held by a `dense_resource` attribute (copied out), or `None`
/// when `attr` is not one, its blob is absent (elided text), or its element
/// type is not one we store.
pub fn resource_to_tensor(attr: Attribute) -> Option<Tensor> {
    // SAFETY: plain queries on a valid attribute.
    unsafe {
        if !mlirAttributeIsADenseResourceElements(attr.to_raw()) {
            return None;
        }
        let mut data: *const c_void = std::ptr::null();
        let mut size = 0usize;
        if !onncDenseResourceBytes(attr.to_raw(), &mut data, &mut size) {
            return None;
        }
        let ty = mlirAttributeGetType(attr.to_raw());
        let rank = mlirShapedTypeGetRank(ty);
        let shape: Vec<usize> = (0..rank)
            .map(|i| mlirShapedTypeGetDimSize(ty, i as isize).max(0) as usize)
            .collect();
        let elem = Type::from_raw(mlirShapedTypeGetElementType(ty)).to_string();
        let dtype = DType::from_mlir_name(&elem)?;
        let bytes: &[u8] = if size == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(data as *const u8, size)
        };
        Tensor::from_le_bytes(dtype, shape, bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{new_context, parse_module, print_op, PrintOptions};
    use melior::ir::{operation::OperationLike, Location};

    #[test]
    fn resource_round_trips_through_text() {
        let ctx = new_context().unwrap();
        let t = Tensor::from_f32(vec![2, 2], vec![1.0, -2.0, 3.5, 4.0]).unwrap();
        let attr = dense_resource(&ctx, "w", t.clone());
        assert_eq!(resource_to_tensor(attr), Some(t.clone()));
        // Build `arith.constant` holding it, print, parse back, read it again.
        let op =
            melior::ir::operation::OperationBuilder::new("arith.constant", Location::unknown(&ctx))
                .add_attributes(&[(melior::ir::Identifier::new(&ctx, "value"), attr)])
                .add_results(&[tensor_type(&ctx, &[2, 2], DType::F32)])
                .build()
                .unwrap();
        let module = melior::ir::Module::new(Location::unknown(&ctx));
        use melior::ir::block::BlockLike;
        module.body().append_operation(op);
        let text = print_op(&module.as_operation(), &PrintOptions::default());
        assert!(text.contains("dense_resource<w>"), "{text}");
        assert!(
            text.contains("0x04000000"),
            "alignment header then data: {text}"
        );
        let ctx2 = new_context().unwrap();
        let again = parse_module(&ctx2, &text, "t.mlir").unwrap();
        let c = again.body().first_operation().unwrap();
        assert_eq!(resource_to_tensor(c.attribute("value").unwrap()), Some(t));
    }
}
