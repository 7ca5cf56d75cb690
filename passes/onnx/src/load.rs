//! [`load`] and [`decode`]: the loading pipeline.
//!
//! Phases, in order (each in its own module):
//! 1. **decode** (here) — bytes → `ModelProto`; empty, text and garbage
//!    inputs are rejected with [`Error::Empty`] / [`Error::Decode`].
//! 2. **convert** ([`crate::convert`]) — IR/opset checks, tensors (external
//!    data too), initializers removed from inputs, `Constant` → initializer,
//!    unique node names, `--input-shape` overrides.
//! 3. **validate** ([`crate::validate`]) — no nodes, duplicate definitions,
//!    dangling names, cycles; nodes sorted topologically.
//! 4. **normalize** ([`crate::normalize`]) — modern operand forms, defaults
//!    materialized, shapes inferred.
//! 5. **outputs** (here) — graph output types completed from inference.
//!
//! Every error is wrapped in [`Error::File`] with the path (or `<memory>`).

use crate::convert::convert;
use crate::normalize::normalize_model;
use crate::validate::validate;
use crate::{Error, Model, Options, Result, TypeInfo};
use onnc_proto::onnx::ModelProto;
use prost::bytes::Bytes;
use prost::Message;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Loads, validates and normalizes the ONNX model at `path`. External data is
/// read relative to the model's folder.
///
/// The file is read once into one buffer and the weights stay there: every
/// initializer's tensor refers to its `raw_data` in that buffer (no copy),
/// and the buffer lives as long as any of them.
pub fn load(path: impl AsRef<Path>, opts: &Options) -> Result<Model> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let bytes = crate::input_file::read_regular(path).map_err(|source| Error::Io {
        path: file.clone(),
        source,
    })?;
    let base = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let proto = parse(bytes).map_err(|e| e.in_file(&file))?;
    build(proto, base, opts).map_err(|e| e.in_file(file))
}

/// Like [`load`], from bytes already in memory (copied once into a shared
/// buffer; see [`decode_shared`] to avoid that); external data is read
/// relative to `base_dir`. Errors name the file as `<memory>`.
pub fn decode(bytes: &[u8], base_dir: &Path, opts: &Options) -> Result<Model> {
    decode_shared(Bytes::copy_from_slice(bytes), base_dir, opts)
}

/// Like [`decode`], from a shared buffer the model's tensors then refer to
/// (no copy of the weights).
pub fn decode_shared(bytes: Bytes, base_dir: &Path, opts: &Options) -> Result<Model> {
    parse(bytes)
        .and_then(|p| build(p, base_dir, opts))
        .map_err(|e| e.in_file("<memory>"))
}

/// Whether the bytes start like a text file (a binary ModelProto never does).
fn looks_like_text(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64)];
    head.iter()
        .all(|&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b))
}

/// Phase 1: bytes → `ModelProto` (each `raw_data` a slice of `bytes`).
fn parse(bytes: Bytes) -> Result<ModelProto> {
    if bytes.is_empty() {
        return Err(Error::Empty);
    }
    if looks_like_text(&bytes) {
        return Err(Error::Decode {
            reason: "the file looks like text (ONNX text/JSON formats are not supported); expected a binary protobuf".into(),
        });
    }
    ModelProto::decode(bytes).map_err(|e| Error::Decode {
        reason: e.to_string(),
    })
}

/// Phases 2–5 on a decoded model (consumed, to free weights as they convert).
fn build(proto: ModelProto, base_dir: &Path, opts: &Options) -> Result<Model> {
    let converted = convert(proto, base_dir, opts)?;
    let mut model = converted.model;
    validate(&mut model.graph)?;
    let types = normalize_model(&mut model)?;
    complete_outputs(&mut model, &types, &converted.untyped_outputs)?;
    Ok(model)
}

/// Fills untyped outputs from inference and refreshes dims inference knows
/// better (e.g. after an `--input-shape` override).
fn complete_outputs(
    model: &mut Model,
    types: &HashMap<String, TypeInfo>,
    untyped: &HashSet<String>,
) -> Result<()> {
    for out in &mut model.graph.outputs {
        let inferred = types.get(&out.name);
        if untyped.contains(&out.name) {
            let t = inferred.ok_or_else(|| Error::ValueType {
                name: out.name.clone(),
                reason: "graph output has no type in the file and inference cannot reach it".into(),
            })?;
            out.dtype = t.dtype;
            out.dims = t.dims.clone();
            continue;
        }
        let Some(t) = inferred else { continue };
        if t.dtype != out.dtype {
            return Err(Error::ValueType {
                name: out.name.clone(),
                reason: format!(
                    "the file declares {} but the graph computes {}",
                    out.dtype, t.dtype
                ),
            });
        }
        if t.rank() != out.dims.len() {
            model.warnings.push(format!(
                "graph output '{}': the file declares rank {} but the graph computes {t}; using the latter",
                out.name,
                out.dims.len()
            ));
            out.dims = t.dims.clone();
            continue;
        }
        for (d, i) in out.dims.iter_mut().zip(&t.dims) {
            if i.fixed().is_some() {
                *d = i.clone();
            }
        }
    }
    Ok(())
}
