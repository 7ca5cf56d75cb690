//! `TensorProto` ⇄ [`Tensor`], including external data and the ONNX test-data
//! files (`input_<k>.pb`, one serialized `TensorProto` each).
//!
//! In: a `TensorProto` (inline `raw_data`, typed fields, or
//! `data_location = EXTERNAL` with `location`/`offset`/`length` relative to
//! the model's folder). Out: an owned [`Tensor`], or an [`Error::Tensor`]
//! naming the tensor. Never allocates more than the bytes actually present.

use crate::{Error, Result};
use half::f16;
use onnc_proto::onnx::{tensor_proto, TensorProto};
use onnc_tensor::{DType, Data, Tensor};
use prost::bytes::Bytes;
use prost::Message;
use std::path::{Component, Path};

fn bad(name: &str, reason: impl Into<String>) -> Error {
    Error::Tensor {
        name: name.to_string(),
        reason: reason.into(),
    }
}

/// The element count of `dims`, or an error for negative or overflowing dims.
fn shape_of(name: &str, dims: &[i64]) -> Result<(Vec<usize>, usize)> {
    let mut numel: usize = 1;
    let mut shape = Vec::with_capacity(dims.len());
    for &d in dims {
        let d = usize::try_from(d)
            .map_err(|_| bad(name, format!("negative dimension {d} in {dims:?}")))?;
        numel = numel
            .checked_mul(d)
            .ok_or_else(|| bad(name, format!("shape {dims:?} overflows")))?;
        shape.push(d);
    }
    Ok((shape, numel))
}

/// The element type for an ONNX code, or an error naming the tensor.
pub(crate) fn dtype_of(name: &str, code: i32) -> Result<DType> {
    DType::from_onnx(code).ok_or_else(|| {
        let what = tensor_proto::DataType::try_from(code)
            .map(|d| d.as_str_name().to_string())
            .unwrap_or_else(|_| format!("code {code}"));
        bad(name, format!("element type {what} is not supported"))
    })
}

/// Decodes a `TensorProto`; external data is read relative to `base_dir`.
pub fn tensor_from_proto(p: &TensorProto, base_dir: &Path) -> Result<Tensor> {
    let name = p.name.as_str();
    let dtype = dtype_of(name, p.data_type)?;
    let (shape, numel) = shape_of(name, &p.dims)?;
    if p.segment.is_some() {
        return Err(bad(name, "segmented tensors are not supported"));
    }
    let external = p.data_location == tensor_proto::DataLocation::External as i32;
    if external {
        let want = numel.checked_mul(dtype.size()).map(|w| w as u64);
        let bytes = read_external(p, base_dir, want)?;
        return raw(name, dtype, shape, numel, Bytes::from(bytes));
    }
    if !p.raw_data.is_empty() {
        return raw(name, dtype, shape, numel, p.raw_data.clone());
    }
    let data = typed(p, dtype)?;
    if data.len() != numel {
        return Err(bad(
            name,
            format!(
                "has {} elements but shape {:?} needs {numel}",
                data.len(),
                shape
            ),
        ));
    }
    Tensor::new(shape, data).map_err(|e| bad(name, e.to_string()))
}

/// A tensor over `bytes` (shared, not copied), checked against its shape.
fn raw(name: &str, dtype: DType, shape: Vec<usize>, numel: usize, bytes: Bytes) -> Result<Tensor> {
    let want = numel.checked_mul(dtype.size());
    if want != Some(bytes.len()) {
        return Err(bad(
            name,
            format!(
                "raw data has {} bytes but {numel} {dtype} elements need {}",
                bytes.len(),
                want.map_or("more than usize".to_string(), |w| w.to_string())
            ),
        ));
    }
    Tensor::from_shared_le_bytes(dtype, shape, bytes).map_err(|e| bad(name, e.to_string()))
}

fn typed(p: &TensorProto, dtype: DType) -> Result<Data> {
    let i32s = &p.int32_data;
    Ok(match dtype {
        DType::F32 => Data::F32(p.float_data.clone()),
        DType::F64 => Data::F64(p.double_data.clone()),
        DType::I64 => Data::I64(p.int64_data.clone()),
        DType::I32 => Data::I32(i32s.clone()),
        DType::I16 => Data::I16(i32s.iter().map(|&v| v as i16).collect()),
        DType::I8 => Data::I8(i32s.iter().map(|&v| v as i8).collect()),
        DType::U16 => Data::U16(i32s.iter().map(|&v| v as u16).collect()),
        DType::U8 => Data::U8(i32s.iter().map(|&v| v as u8).collect()),
        DType::Bool => Data::Bool(i32s.iter().map(|&v| u8::from(v != 0)).collect()),
        DType::F16 => Data::F16(i32s.iter().map(|&v| f16::from_bits(v as u16)).collect()),
        DType::U32 => Data::U32(p.uint64_data.iter().map(|&v| v as u32).collect()),
        DType::U64 => Data::U64(p.uint64_data.clone()),
    })
}

/// Reads the bytes of an external tensor. The location must be a relative
/// path inside `base_dir` (no `..`, no absolute path, no symlink escaping).
/// `want` is the byte count the tensor's shape and type need: a slice of
/// another size is refused before anything is read or allocated.
fn read_external(p: &TensorProto, base_dir: &Path, want: Option<u64>) -> Result<Vec<u8>> {
    let name = p.name.as_str();
    let (mut location, mut offset, mut length) = (None, 0u64, None);
    for kv in &p.external_data {
        let num = || {
            kv.value.parse::<u64>().map_err(|_| {
                bad(
                    name,
                    format!("external data {} '{}' is not a number", kv.key, kv.value),
                )
            })
        };
        match kv.key.as_str() {
            "location" => location = Some(kv.value.as_str()),
            "offset" => offset = num()?,
            "length" => length = Some(num()?),
            _ => {}
        }
    }
    let location = location.ok_or_else(|| bad(name, "external data has no 'location'"))?;
    let rel = Path::new(location);
    if location.is_empty()
        || !rel
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(bad(
            name,
            format!("external data location '{location}' escapes the model directory"),
        ));
    }
    let path = base_dir.join(rel);
    let io = |e: std::io::Error| {
        bad(
            name,
            format!("cannot read external data {}: {e}", path.display()),
        )
    };
    let (real, root) = (
        path.canonicalize().map_err(io)?,
        base_dir.canonicalize().map_err(io)?,
    );
    if !real.starts_with(&root) {
        return Err(bad(
            name,
            format!("external data location '{location}' escapes the model directory"),
        ));
    }
    // A FIFO or device is refused before it is opened; the slice is checked
    // against the file's size and the tensor's byte count before anything
    // is allocated, and only the slice is read (a 64 GiB sparse file with
    // length 32 costs 32 bytes).
    let past_end = |size: u64| {
        bad(
            name,
            match length {
                None => format!("external data offset {offset} is past the end of {location} ({size} bytes)"),
                Some(l) => format!("external data offset {offset} + length {l} is past the end of {location} ({size} bytes)"),
            },
        )
    };
    let size = crate::input_file::open_regular(&real).map_err(io)?.1;
    let l = match length {
        Some(l) => l,
        None => size.checked_sub(offset).ok_or_else(|| past_end(size))?,
    };
    if offset.checked_add(l).is_none_or(|end| end > size) {
        return Err(past_end(size));
    }
    if Some(l) != want {
        let need = want.map_or("more than 2^64".to_string(), |w| w.to_string());
        return Err(bad(
            name,
            format!(
                "external data in {location} has {l} bytes at offset {offset} but shape {:?} of that type needs {need}",
                p.dims
            ),
        ));
    }
    match crate::input_file::read_slice(&real, offset, Some(l)).map_err(io)? {
        Ok(bytes) => Ok(bytes),
        Err(crate::input_file::OutOfRange { size }) => Err(past_end(size)),
    }
}

/// Encodes a tensor as a `TensorProto` with `raw_data` (little-endian).
pub fn tensor_to_proto(name: &str, t: &Tensor) -> TensorProto {
    TensorProto {
        name: name.to_string(),
        dims: t.shape().iter().map(|&d| d as i64).collect(),
        data_type: t.dtype().onnx_code(),
        raw_data: Bytes::copy_from_slice(t.le_bytes()),
        ..Default::default()
    }
}

/// Reads a serialized `TensorProto` file (ONNX test data `input_<k>.pb`):
/// its name and value. External data is read relative to the file's folder.
pub fn read_tensor_pb(path: impl AsRef<Path>) -> Result<(String, Tensor)> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let bytes = crate::input_file::read_regular(path).map_err(|source| Error::Io {
        path: file.clone(),
        source,
    })?;
    let p = TensorProto::decode(bytes).map_err(|e| {
        Error::Decode {
            reason: format!("not a TensorProto: {e}"),
        }
        .in_file(&file)
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let t = tensor_from_proto(&p, base).map_err(|e| e.in_file(&file))?;
    Ok((p.name, t))
}

/// The bytes of a `TensorProto` file holding `t` named `name`.
pub fn tensor_pb_bytes(name: &str, t: &Tensor) -> Vec<u8> {
    tensor_to_proto(name, t).encode_to_vec()
}

/// Writes `t` as a serialized `TensorProto` named `name`.
pub fn write_tensor_pb(path: impl AsRef<Path>, name: &str, t: &Tensor) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, tensor_to_proto(name, t).encode_to_vec()).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}
