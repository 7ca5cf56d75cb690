//! `AttributeProto` ⇄ [`Attr`].
//!
//! In: a node's `AttributeProto`s. Out: [`Attrs`] (by name), or a note for
//! attributes [`Attr`] cannot hold (graphs, sparse tensors, type protos), which
//! the loader drops with a warning. Errors name the node and the attribute.

use crate::tensor_proto::{tensor_from_proto, tensor_to_proto};
use crate::{Error, Result};
use onnc_proto::onnx::{attribute_proto::AttributeType, AttributeProto};
use onnc_tensor::Attr;
use std::path::Path;

/// Converts one attribute. `Ok(None)` means "not representable, dropped".
pub(crate) fn attr_from_proto(
    a: &AttributeProto,
    node: &str,
    op: &str,
    base_dir: &Path,
) -> Result<Option<Attr>> {
    let bad = |reason: String| Error::BadAttr {
        node: node.into(),
        op: op.into(),
        attr: a.name.clone(),
        reason,
    };
    let utf8 =
        |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|_| bad("string is not UTF-8".into()));
    let kind = AttributeType::try_from(a.r#type).unwrap_or(AttributeType::Undefined);
    let kind = if kind == AttributeType::Undefined {
        guess_kind(a)
    } else {
        kind
    };
    Ok(Some(match kind {
        AttributeType::Float => Attr::Float(a.f),
        AttributeType::Int => Attr::Int(a.i),
        AttributeType::String => Attr::String(utf8(&a.s)?),
        AttributeType::Tensor => {
            let t =
                a.t.as_ref()
                    .ok_or_else(|| bad("tensor attribute has no tensor".into()))?;
            Attr::Tensor(tensor_from_proto(t, base_dir).map_err(|e| bad(e.to_string()))?)
        }
        AttributeType::Floats => Attr::Floats(a.floats.clone()),
        AttributeType::Ints => Attr::Ints(a.ints.clone()),
        AttributeType::Strings => {
            Attr::Strings(a.strings.iter().map(|s| utf8(s)).collect::<Result<_>>()?)
        }
        AttributeType::Undefined => return Err(bad("attribute has no type and no value".into())),
        _ => return Ok(None),
    }))
}

/// Old files may leave `type` unset; pick the kind from the field that is set.
fn guess_kind(a: &AttributeProto) -> AttributeType {
    if !a.floats.is_empty() {
        AttributeType::Floats
    } else if !a.ints.is_empty() {
        AttributeType::Ints
    } else if !a.strings.is_empty() {
        AttributeType::Strings
    } else if a.t.is_some() {
        AttributeType::Tensor
    } else if a.g.is_some() || !a.graphs.is_empty() {
        AttributeType::Graph
    } else if !a.s.is_empty() {
        AttributeType::String
    } else if a.f != 0.0 {
        AttributeType::Float
    } else {
        AttributeType::Int
    }
}

/// Encodes one attribute.
pub(crate) fn attr_to_proto(name: &str, a: &Attr) -> AttributeProto {
    let mut p = AttributeProto {
        name: name.to_string(),
        ..Default::default()
    };
    let kind = match a {
        Attr::Int(v) => {
            p.i = *v;
            AttributeType::Int
        }
        Attr::Float(v) => {
            p.f = *v;
            AttributeType::Float
        }
        Attr::String(v) => {
            p.s = v.as_bytes().to_vec();
            AttributeType::String
        }
        Attr::Ints(v) => {
            p.ints = v.clone();
            AttributeType::Ints
        }
        Attr::Floats(v) => {
            p.floats = v.clone();
            AttributeType::Floats
        }
        Attr::Strings(v) => {
            p.strings = v.iter().map(|s| s.as_bytes().to_vec()).collect();
            AttributeType::Strings
        }
        Attr::Tensor(t) => {
            p.t = Some(tensor_to_proto("", t));
            AttributeType::Tensor
        }
    };
    p.r#type = kind as i32;
    p
}
