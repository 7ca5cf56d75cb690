//! Ascend AMCT quantization-factor records ↔ [`TensorScales`], and the
//! binary protobuf encoding.
//!
//! Both variants of the record (`proto/amct/`) are read as
//! `InnerScaleOffsetRecord`, whose field numbers are a superset of the
//! `convert_model` `ScaleOffsetRecord`'s.
//!
//! Mapping (AMCT keys records by *quantized layer*, onnc by tensor):
//! * `record.key` is an ONNX node name (a node legalization split into
//!   `name/<part>` ops is found by its first part); its `scale_d`/`offset_d`
//!   quantize that layer's **input data**, so the entry goes to
//!   [`TensorScales::layer_inputs`]: it gives the scale of the layer's first input when applied
//!   ([`super::super::apply_scales`]). A key `tensor:<name>` (onnc's
//!   convention, [`TENSOR_PREFIX`]) gives tensor `<name>`'s scale: that is
//!   how onnc writes the scale of a graph output, which no layer reads. A
//!   key that names no layer but a tensor is read as that tensor.
//! * Convention `real = scale_d · (q − offset_d)`. NVDLA's tables are
//!   symmetric: an `offset_d ≠ 0`, or an `INT4` `dst_type` (codes −8..7),
//!   becomes `scale = scale_d · max(|qmin − offset_d|, |qmax − offset_d|) / 127`
//!   (the same range in symmetric INT8 codes), min/max kept, and a note.
//! * `scale_w` (one, or one per output channel) is kept in
//!   [`TensorScale::weight_scales`] for writing back; the registers are
//!   derived from the weight values. `offset_w` must be 0.
//! * `shift_bit` is reserved by AMCT and ignored; `cluster` (non-uniform
//!   quantization), `prune_producer`/`prune_consumer` and `prune_record`
//!   are not applied and are listed in the notes.
//!
//! Writing: each tensor entry becomes one record per layer that reads it
//! (the first op starting with that ONNX node), `offset_d` its offset and,
//! for the inner variant, `dst_type: "INT8"`; an entry no layer reads is
//! written under `tensor:<name>`.

use std::collections::BTreeMap;

use onnc_proto::amct::{
    InnerMapFiledEntry, InnerScaleOffsetRecord, InnerSingleLayerRecord, MapFiledEntry,
    ScaleOffsetRecord, SingleLayerRecord,
};
use onnc_proto::prost::Message;

use super::super::apply::{layer_input, layer_of};
use super::super::json::clip;
use super::super::scales::{check_scale, TensorScale, TensorScales};
use crate::program::Program;
use crate::Error;

/// The key prefix of a record that gives a tensor's scale directly
/// (`tensor:prob`): onnc writes graph outputs, which no layer reads, so.
pub const TENSOR_PREFIX: &str = "tensor:";

/// Reads a binary AMCT record (either variant).
pub(super) fn read(bytes: &[u8], file: &str) -> Result<TensorScales, Error> {
    let r = InnerScaleOffsetRecord::decode(bytes).map_err(|e| Error::Entry {
        file: file.into(),
        place: "<protobuf>".into(),
        message: format!(
            "not a valid AMCT record (binary protobuf ScaleOffsetRecord or \
             InnerScaleOffsetRecord): {e}"
        ),
    })?;
    from_records(&r, file, "amct", &[])
}

/// `r` as [`TensorScales`]; `lines[i]` is the line of record `i` when known
/// (text format), for messages.
pub(super) fn from_records(
    r: &InnerScaleOffsetRecord,
    file: &str,
    format: &str,
    lines: &[usize],
) -> Result<TensorScales, Error> {
    let mut out = TensorScales::new(file, format);
    let mut errors = Vec::new();
    for (i, entry) in r.record.iter().enumerate() {
        let key = entry.key.as_deref().unwrap_or("");
        let place = match lines.get(i) {
            Some(l) => format!("record {} (line {l})", i + 1),
            None => format!("record {}", i + 1),
        };
        let fail = |message: String| Error::Entry {
            file: file.into(),
            place: place.clone(),
            message,
        };
        if key.is_empty() {
            errors.push(fail("the record has no key (the layer name)".into()));
            continue;
        }
        let Some(v) = &entry.value else {
            errors.push(fail(format!(
                "layer '{}': the record has no value",
                clip(key)
            )));
            continue;
        };
        match layer_scale(key, v, &mut out.notes) {
            Ok(s) => {
                let added = match key.strip_prefix(TENSOR_PREFIX) {
                    Some(tensor) => out.insert(tensor, s, &place),
                    None => out.insert_layer(key, s, &place),
                };
                if let Err(e) = added {
                    errors.push(e);
                }
            }
            Err(m) => errors.push(fail(format!("layer '{}': {m}", clip(key)))),
        }
    }
    if !r.prune_record.is_empty() {
        out.notes.push(format!(
            "{} prune record{} not applied (channel pruning is done by AMCT on the model)",
            r.prune_record.len(),
            if r.prune_record.len() == 1 { "" } else { "s" }
        ));
    }
    Error::collect(file, errors)?;
    Ok(out)
}

/// The scale one layer record gives its input.
fn layer_scale(
    key: &str,
    v: &InnerSingleLayerRecord,
    notes: &mut Vec<String>,
) -> Result<TensorScale, String> {
    let Some(scale_d) = v.scale_d else {
        return Err("the record has no scale_d (the data scale)".into());
    };
    check_scale(scale_d).map_err(|m| format!("scale_d: {m}"))?;
    for (j, &w) in v.scale_w.iter().enumerate() {
        check_scale(w).map_err(|m| format!("scale_w[{j}]: {m}"))?;
    }
    if let Some(j) = v.offset_w.iter().position(|&o| o != 0) {
        return Err(format!(
            "offset_w[{j}] is {}: weights are symmetric (AMCT writes 0)",
            v.offset_w[j]
        ));
    }
    let (qmin, qmax) = match v.dst_type() {
        "INT8" => (-128i64, 127i64),
        "INT4" => (-8, 7),
        other => return Err(format!("dst_type '{}' is not INT8 or INT4", clip(other))),
    };
    let offset = i64::from(v.offset_d.unwrap_or(0));
    let mut s = TensorScale::new(scale_d);
    s.weight_scales = v.scale_w.clone();
    if offset != 0 || qmax != 127 {
        let codes = (qmin - offset).abs().max((qmax - offset).abs());
        let scale = (f64::from(scale_d) * codes as f64 / 127.0) as f32;
        check_scale(scale).map_err(|m| format!("scale_d {scale_d} with offset_d {offset}: {m}"))?;
        s.scale = scale;
        s.min = Some((f64::from(scale_d) * (qmin - offset) as f64) as f32);
        s.max = Some((f64::from(scale_d) * (qmax - offset) as f64) as f32);
        notes.push(format!(
            "layer '{}': {} scale_d {scale_d} offset_d {offset} read as the symmetric INT8 \
             scale {scale} (range {} .. {})",
            clip(key),
            v.dst_type(),
            s.min.unwrap_or(0.0),
            s.max.unwrap_or(0.0)
        ));
    }
    if !v.cluster.is_empty() {
        notes.push(format!(
            "layer '{}': {} cluster centres not applied (non-uniform quantization)",
            clip(key),
            v.cluster.len()
        ));
    }
    if !v.prune_producer.is_empty() || !v.prune_consumer.is_empty() {
        notes.push(format!(
            "layer '{}': prune producers/consumers not applied",
            clip(key)
        ));
    }
    Ok(s)
}

/// The inner-variant records for `t`: layer-keyed entries as they are,
/// tensor-keyed ones under every layer that reads the tensor (needs
/// `program`), or under `tensor:<name>` when no layer reads it.
pub(super) fn records(
    t: &TensorScales,
    program: Option<&Program>,
) -> Result<InnerScaleOffsetRecord, Error> {
    let mut by_layer: BTreeMap<String, (TensorScale, String)> = BTreeMap::new();
    let mut put = |layer: &str, e: &TensorScale, from: &str| -> Result<(), Error> {
        if let Some((old, old_from)) = by_layer.get(layer) {
            if old.scale != e.scale || old.offset != e.offset {
                return Err(Error::Entry {
                    file: t.file.clone(),
                    place: format!("layer '{}'", clip(layer)),
                    message: format!(
                        "entries '{}' and '{}' both become its AMCT record with different scales",
                        clip(old_from),
                        clip(from)
                    ),
                });
            }
        }
        by_layer.insert(layer.to_string(), (e.clone(), from.to_string()));
        Ok(())
    };
    for (name, e) in &t.layer_inputs {
        put(name, e, name)?;
    }
    for (name, e) in &t.entries {
        let Some(p) = program else {
            return Err(Error::Entry {
                file: t.file.clone(),
                place: format!("tensor '{}'", clip(name)),
                message: "AMCT records are keyed by layer: writing them needs the program to \
                          find the layers that read each tensor"
                    .into(),
            });
        };
        let readers = readers(p, name);
        if readers.is_empty() {
            put(&format!("{TENSOR_PREFIX}{name}"), e, name)?;
        }
        for layer in readers {
            put(&layer, e, name)?;
        }
    }
    let record = by_layer
        .into_iter()
        .map(|(key, (e, _))| InnerMapFiledEntry {
            key: Some(key),
            value: Some(InnerSingleLayerRecord {
                scale_d: Some(e.scale),
                offset_d: Some(e.offset),
                scale_w: e.weight_scales.clone(),
                offset_w: vec![0; e.weight_scales.len()],
                dst_type: Some("INT8".into()),
                ..Default::default()
            }),
        })
        .collect();
    Ok(InnerScaleOffsetRecord {
        record,
        prune_record: Vec::new(),
    })
}

/// The layers (ONNX nodes starting an op, [`layer_of`]) whose data input
/// is tensor `name`, in op order, each once.
fn readers(p: &Program, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for op in &p.ops {
        let Some(first) = op.onnx_nodes.first() else {
            continue;
        };
        let layer = layer_of(p, first);
        let reads = layer_input(p, &layer).is_some_and(|t| p.tensors[t].name == name);
        if reads && !out.contains(&layer) {
            out.push(layer);
        }
    }
    out
}

/// Binary AMCT record for `t`: `InnerScaleOffsetRecord` if `inner`, else
/// the `convert_model` `ScaleOffsetRecord`.
pub(super) fn write_binary(
    t: &TensorScales,
    program: Option<&Program>,
    inner: bool,
) -> Result<Vec<u8>, Error> {
    let r = records(t, program)?;
    if inner {
        return Ok(r.encode_to_vec());
    }
    Ok(ScaleOffsetRecord {
        record: r
            .record
            .into_iter()
            .map(|e| MapFiledEntry {
                key: e.key,
                value: e.value.map(|v| SingleLayerRecord {
                    scale_d: v.scale_d,
                    offset_d: v.offset_d,
                    scale_w: v.scale_w,
                    offset_w: v.offset_w,
                    ..Default::default()
                }),
            })
            .collect(),
    }
    .encode_to_vec())
}

/// `t` with every layer-keyed entry moved to the tensor the layer reads
/// (entries whose layer is not in `p` keep their name, as a tensor key;
/// several layers reading one tensor: the largest scale).
pub(super) fn to_tensor_keys(t: &TensorScales, p: &Program) -> TensorScales {
    let mut out = TensorScales {
        layer_inputs: BTreeMap::new(),
        ..t.clone()
    };
    for (name, e) in &t.layer_inputs {
        let target = layer_input(p, name)
            .map(|id| p.tensors[id].name.clone())
            .unwrap_or_else(|| name.clone());
        match out.entries.get(&target) {
            Some(old) if old.scale >= e.scale => {}
            _ => {
                out.entries.insert(target, e.clone());
            }
        }
    }
    out
}
