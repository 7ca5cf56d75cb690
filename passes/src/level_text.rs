//! Pieces the level writers share (`mvu::to_ir`, `nnie::to_ir`): a weight
//! as an `arith.constant` over a `dense_resource` blob.
//!
//! In: a tensor, its MLIR type, the layer's name and what the tensor is
//! (`weight`, `bias`). Out: the constant appended to a block, located at
//! `<layer>_<what>`, its blob named after the layer with every character
//! outside `[A-Za-z0-9_]` replaced by `_` (the old function's blob when the
//! bytes are the same, [`Blobs`]).

use crate::blobs::Blobs;
use melior::ir::{
    operation::OperationBuilder, Block, BlockLike, Identifier, Location, Type, Value,
};
use onnc_tensor::Tensor;

/// Appends `arith.constant` of `value` (type `ty`, a `dense_resource` named
/// `<layer>_<what>`, located at `<layer>_<what>`) to `block`; returns its
/// result, or MLIR's message when the op does not build.
pub(crate) fn constant<'c, 'b>(
    context: &'c melior::Context,
    block: &'b Block<'c>,
    value: Tensor,
    ty: Type<'c>,
    layer: &str,
    what: &str,
    weights: &Blobs<'c>,
) -> Result<Value<'c, 'b>, String> {
    let op = OperationBuilder::new(
        "arith.constant",
        Location::name(
            context,
            &format!("{layer}_{what}"),
            Location::unknown(context),
        ),
    )
    .add_attributes(&[(
        Identifier::new(context, "value"),
        weights.weight_attr(context, value, &format!("{}_{what}", sanitize(layer))),
    )])
    .add_results(&[ty])
    .build()
    .map_err(|e| e.to_string())?;
    Ok(block
        .append_operation(op)
        .result(0)
        .map_err(|e| e.to_string())?
        .into())
}

/// `s` with every character outside `[A-Za-z0-9_]` replaced by `_` (a
/// resource blob name).
pub(crate) fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn blob_names_keep_only_identifier_characters() {
        assert_eq!(super::sanitize("/layer1/conv.0"), "_layer1_conv_0");
    }
}
