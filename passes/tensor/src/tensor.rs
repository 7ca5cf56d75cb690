//! [`Tensor`]: a typed, row-major array with a shape, over shared storage.

use crate::{DType, Error, Result};
use bytes::Bytes;
use half::f16;
use std::sync::{Arc, OnceLock};

use crate::scaled::Scaled;
use crate::view::LeBytes;

/// Typed element storage. `Bool` is one byte per element, 0 or 1.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum Data {
    F32(Vec<f32>),
    F16(Vec<f16>),
    F64(Vec<f64>),
    I8(Vec<i8>),
    U8(Vec<u8>),
    I16(Vec<i16>),
    U16(Vec<u16>),
    I32(Vec<i32>),
    U32(Vec<u32>),
    I64(Vec<i64>),
    U64(Vec<u64>),
    Bool(Vec<u8>),
}

/// Applies `$body` to the vector inside any [`Data`] variant.
macro_rules! with_vec {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F32($v) => $body,
            Data::F16($v) => $body,
            Data::F64($v) => $body,
            Data::I8($v) => $body,
            Data::U8($v) => $body,
            Data::I16($v) => $body,
            Data::U16($v) => $body,
            Data::I32($v) => $body,
            Data::U32($v) => $body,
            Data::I64($v) => $body,
            Data::U64($v) => $body,
            Data::Bool($v) => $body,
        }
    };
}

impl Data {
    /// The element type of this storage.
    pub fn dtype(&self) -> DType {
        match self {
            Data::F32(_) => DType::F32,
            Data::F16(_) => DType::F16,
            Data::F64(_) => DType::F64,
            Data::I8(_) => DType::I8,
            Data::U8(_) => DType::U8,
            Data::I16(_) => DType::I16,
            Data::U16(_) => DType::U16,
            Data::I32(_) => DType::I32,
            Data::U32(_) => DType::U32,
            Data::I64(_) => DType::I64,
            Data::U64(_) => DType::U64,
            Data::Bool(_) => DType::Bool,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        with_vec!(self, v => v.len())
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decodes little-endian bytes (ONNX `raw_data`, MLIR blobs) into typed storage.
    pub fn from_le_bytes(dtype: DType, bytes: &[u8]) -> Result<Data> {
        let size = dtype.size();
        if bytes.len() % size != 0 {
            return Err(Error::RaggedBytes {
                dtype,
                size,
                len: bytes.len(),
            });
        }
        // The host is little-endian (lib.rs), so decoding is a copy into
        // aligned storage.
        fn read<T: bytemuck::Pod>(b: &[u8]) -> Vec<T> {
            bytemuck::pod_collect_to_vec(b)
        }
        Ok(match dtype {
            DType::F32 => Data::F32(read(bytes)),
            DType::F16 => Data::F16(read(bytes)),
            DType::F64 => Data::F64(read(bytes)),
            DType::I8 => Data::I8(read(bytes)),
            DType::U8 => Data::U8(bytes.to_vec()),
            DType::I16 => Data::I16(read(bytes)),
            DType::U16 => Data::U16(read(bytes)),
            DType::I32 => Data::I32(read(bytes)),
            DType::U32 => Data::U32(read(bytes)),
            DType::I64 => Data::I64(read(bytes)),
            DType::U64 => Data::U64(read(bytes)),
            DType::Bool => Data::Bool(bytes.iter().map(|&b| u8::from(b != 0)).collect()),
        })
    }

    /// Little-endian bytes of the elements, the inverse of [`Data::from_le_bytes`].
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            Data::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::F16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::F64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::I8(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::U8(v) | Data::Bool(v) => v.clone(),
            Data::I16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::U16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::U32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::I64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::U64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// The elements' bytes in memory (little-endian on every supported host), without copying.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Data::F32(v) => bytemuck::cast_slice(v),
            Data::F16(v) => bytemuck::cast_slice(v),
            Data::F64(v) => bytemuck::cast_slice(v),
            Data::I8(v) => bytemuck::cast_slice(v),
            Data::U8(v) | Data::Bool(v) => v,
            Data::I16(v) => bytemuck::cast_slice(v),
            Data::U16(v) => bytemuck::cast_slice(v),
            Data::I32(v) => bytemuck::cast_slice(v),
            Data::U32(v) => bytemuck::cast_slice(v),
            Data::I64(v) => bytemuck::cast_slice(v),
            Data::U64(v) => bytemuck::cast_slice(v),
        }
    }

    /// Every element converted to `f64` (exact for all stored types but 64-bit integers beyond 2^53).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        match self {
            Data::F32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::F16(v) => v.iter().map(|x| x.to_f64()).collect(),
            Data::F64(v) => v.clone(),
            Data::I8(v) => v.iter().map(|&x| x as f64).collect(),
            Data::U8(v) | Data::Bool(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I16(v) => v.iter().map(|&x| x as f64).collect(),
            Data::U16(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::U32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I64(v) => v.iter().map(|&x| x as f64).collect(),
            Data::U64(v) => v.iter().map(|&x| x as f64).collect(),
        }
    }

    /// Every element converted to `i64` (floats truncate toward zero, as ONNX Cast does).
    pub fn to_i64_vec(&self) -> Vec<i64> {
        match self {
            Data::I64(v) => v.clone(),
            Data::I32(v) => v.iter().map(|&x| x as i64).collect(),
            Data::U64(v) => v.iter().map(|&x| x as i64).collect(),
            other => other.to_f64_vec().into_iter().map(|x| x as i64).collect(),
        }
    }

    /// Storage of `dtype` holding `values` converted (saturating, truncating toward zero for ints).
    pub fn from_f64s(dtype: DType, values: &[f64]) -> Data {
        let it = values.iter().copied();
        match dtype {
            DType::F32 => Data::F32(it.map(|x| x as f32).collect()),
            DType::F16 => Data::F16(it.map(f16::from_f64).collect()),
            DType::F64 => Data::F64(it.collect()),
            DType::I8 => Data::I8(it.map(|x| x as i8).collect()),
            DType::U8 => Data::U8(it.map(|x| x as u8).collect()),
            DType::I16 => Data::I16(it.map(|x| x as i16).collect()),
            DType::U16 => Data::U16(it.map(|x| x as u16).collect()),
            DType::I32 => Data::I32(it.map(|x| x as i32).collect()),
            DType::U32 => Data::U32(it.map(|x| x as u32).collect()),
            DType::I64 => Data::I64(it.map(|x| x as i64).collect()),
            DType::U64 => Data::U64(it.map(|x| x as u64).collect()),
            DType::Bool => Data::Bool(it.map(|x| u8::from(x != 0.0)).collect()),
        }
    }
}

/// A tensor: element type, shape (row-major, NCHW for images) and data.
///
/// A rank-0 tensor has shape `[]` and one element.
///
/// The data is shared, never copied, by [`Clone`]: the importer, the
/// lowering and the emitter hold the same weights. A tensor made with
/// [`Tensor::from_shared_le_bytes`] refers to bytes it does not own (a slice
/// of the model file's buffer) and decodes them into typed storage only when
/// [`Tensor::data`] is first asked for; [`Tensor::le_bytes`] reads them
/// without decoding.
#[derive(Debug, Clone)]
pub struct Tensor {
    shape: Vec<usize>,
    dtype: DType,
    store: Arc<Store>,
}

/// The shared storage of a [`Tensor`]: typed elements, little-endian
/// bytes (contiguous, or runs at a stride) decoded on first use, or
/// another tensor's values times a per-row scale, computed on first use.
#[derive(Debug)]
struct Store {
    /// The elements' bytes as the model holds them; `None` for typed data.
    raw: Option<Bytes>,
    /// Runs of bytes at a stride inside a model's bytes (a slice along an
    /// inner axis, [`Tensor::slice_axis`]); `None` otherwise.
    strided: Option<Strided>,
    /// Another tensor's values scaled per row ([`Tensor::scale_rows`]);
    /// `None` otherwise.
    scaled: Option<Scaled>,
    /// The typed elements (set from the start, or decoded from `raw` or
    /// `strided`, or computed from `scaled`).
    typed: OnceLock<Data>,
}

impl Store {
    /// The typed elements of storage that has none yet: bytes decoded,
    /// strided runs gathered, or scaled values computed.
    fn decode(&self, dtype: DType) -> Data {
        if let Some(s) = &self.scaled {
            return s.compute();
        }
        let decoded = match (&self.raw, &self.strided) {
            (Some(raw), _) => Data::from_le_bytes(dtype, raw),
            (None, Some(v)) => Data::from_le_bytes(dtype, &v.view().to_vec()),
            (None, None) => Data::from_le_bytes(dtype, &[]),
        };
        decoded.expect("shared bytes were checked against the type when the tensor was made")
    }
}

/// `count` runs of `run` bytes, `stride` apart, from the start of `base`.
#[derive(Debug)]
pub(crate) struct Strided {
    pub(crate) base: Bytes,
    pub(crate) run: usize,
    pub(crate) stride: usize,
    pub(crate) count: usize,
}

impl Strided {
    fn view(&self) -> LeBytes<'_> {
        LeBytes::strided(&self.base, self.run, self.stride, self.count)
            .expect("the runs were checked against the bytes when the view was made")
    }
}

impl PartialEq for Tensor {
    fn eq(&self, other: &Tensor) -> bool {
        self.dtype == other.dtype
            && self.shape == other.shape
            && (Arc::ptr_eq(&self.store, &other.store) || self.data() == other.data())
    }
}

impl Tensor {
    /// A tensor from a shape and storage; fails when the element count does not match.
    pub fn new(shape: Vec<usize>, data: Data) -> Result<Tensor> {
        let expected: usize = shape.iter().product();
        if expected != data.len() {
            return Err(Error::ShapeMismatch {
                shape,
                expected,
                actual: data.len(),
            });
        }
        Ok(Tensor {
            shape,
            dtype: data.dtype(),
            store: Arc::new(Store {
                raw: None,
                strided: None,
                scaled: None,
                typed: OnceLock::from(data),
            }),
        })
    }

    /// An `f32` tensor.
    pub fn from_f32(shape: Vec<usize>, values: Vec<f32>) -> Result<Tensor> {
        Tensor::new(shape, Data::F32(values))
    }

    /// An `i64` tensor.
    pub fn from_i64(shape: Vec<usize>, values: Vec<i64>) -> Result<Tensor> {
        Tensor::new(shape, Data::I64(values))
    }

    /// A tensor decoded from little-endian bytes (copied into typed storage).
    pub fn from_le_bytes(dtype: DType, shape: Vec<usize>, bytes: &[u8]) -> Result<Tensor> {
        Tensor::new(shape, Data::from_le_bytes(dtype, bytes)?)
    }

    /// A tensor over little-endian `bytes` it shares, not copies (a slice
    /// of a model file). In: the element type, the shape and exactly
    /// `numel · size` bytes. Out: the tensor, or an error when the byte count
    /// does not match. The bytes are decoded only if [`Tensor::data`] is
    /// asked for; `Bool` is decoded at once (its bytes are normalized to 0/1).
    pub fn from_shared_le_bytes(dtype: DType, shape: Vec<usize>, bytes: Bytes) -> Result<Tensor> {
        let size = dtype.size();
        if bytes.len() % size != 0 {
            return Err(Error::RaggedBytes {
                dtype,
                size,
                len: bytes.len(),
            });
        }
        let expected: usize = shape.iter().product();
        if expected != bytes.len() / size {
            return Err(Error::ShapeMismatch {
                shape,
                expected,
                actual: bytes.len() / size,
            });
        }
        if dtype == DType::Bool {
            return Tensor::from_le_bytes(dtype, shape, &bytes);
        }
        Ok(Tensor {
            shape,
            dtype,
            store: Arc::new(Store {
                raw: Some(bytes),
                strided: None,
                scaled: None,
                typed: OnceLock::new(),
            }),
        })
    }

    /// A tensor of `dtype` filled with `value`.
    pub fn full(dtype: DType, shape: Vec<usize>, value: f64) -> Tensor {
        let n = shape.iter().product();
        let data = Data::from_f64s(dtype, &vec![value; n]);
        Tensor::new(shape, data).expect("the data has the shape's element count")
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// The typed storage (decoded from shared bytes, or computed from a
    /// lazily scaled tensor, on first use, then kept).
    pub fn data(&self) -> &Data {
        let s = &*self.store;
        s.typed.get_or_init(|| s.decode(self.dtype))
    }

    /// The elements' little-endian bytes, without decoding or copying —
    /// except for a strided slice ([`Tensor::slice_axis`]), whose elements
    /// this gathers and keeps (a copy; [`Tensor::le_view`] reads them in
    /// place), and a lazily scaled tensor ([`Tensor::scale_rows`]), whose
    /// values this computes and keeps.
    pub fn le_bytes(&self) -> &[u8] {
        match &self.store.raw {
            Some(raw) => raw,
            None => self.data().as_bytes(),
        }
    }

    /// The elements' little-endian bytes where they lie (row-major order):
    /// one run for contiguous storage, one run per outer index for a
    /// strided slice of a model's bytes. Never copies or decodes, except a
    /// lazily scaled tensor's values, which this computes and keeps (read
    /// them unmaterialized with [`Tensor::row_scaled`]).
    pub fn le_view(&self) -> LeBytes<'_> {
        match (&self.store.raw, &self.store.strided) {
            (Some(raw), _) => LeBytes::contiguous(raw),
            (None, Some(v)) => v.view(),
            (None, None) => LeBytes::contiguous(self.data().as_bytes()),
        }
    }

    /// A tensor of `shape` whose values are `scaled`'s, computed on first
    /// use (see [`Tensor::scale_rows`]).
    pub(crate) fn from_scaled(shape: Vec<usize>, scaled: Scaled) -> Tensor {
        Tensor {
            shape,
            dtype: DType::F32,
            store: Arc::new(Store {
                raw: None,
                strided: None,
                scaled: Some(scaled),
                typed: OnceLock::new(),
            }),
        }
    }

    /// The lazy per-row scaling this tensor's values come from, if any.
    pub(crate) fn scaled_store(&self) -> Option<&Scaled> {
        self.store.scaled.as_ref()
    }

    /// Whether this tensor's values are a strided slice or a lazy scaling
    /// (storage that [`Tensor::scale_rows`] does not take as its base).
    pub(crate) fn is_derived(&self) -> bool {
        self.store.strided.is_some() || self.store.scaled.is_some()
    }

    /// A tensor over runs of `base`'s bytes (see [`Strided`]); the caller
    /// checked the geometry against `base` and the element count.
    pub(crate) fn from_strided(dtype: DType, shape: Vec<usize>, strided: Strided) -> Tensor {
        debug_assert!(strided.view().len() == shape.iter().product::<usize>() * dtype.size());
        Tensor {
            shape,
            dtype,
            store: Arc::new(Store {
                raw: None,
                strided: Some(strided),
                scaled: None,
                typed: OnceLock::new(),
            }),
        }
    }

    /// The model-file bytes this tensor refers to, when it was made over
    /// shared bytes (see [`Tensor::from_shared_le_bytes`]).
    pub(crate) fn shared_raw(&self) -> Option<&Bytes> {
        self.store.raw.as_ref()
    }

    /// Whether the typed elements have not been decoded (tests of the
    /// no-decode paths).
    #[cfg(test)]
    pub(crate) fn store_is_undecoded(&self) -> bool {
        self.store.typed.get().is_none()
    }

    /// Whether the elements of a tensor over shared bytes (a model file's,
    /// or runs of them) have been decoded or gathered into a copy of their
    /// own ([`Tensor::data`], [`Tensor::as_f32`], or [`Tensor::le_bytes`] of
    /// a strided slice), or a lazily scaled tensor's values computed. Always
    /// false for a tensor made from typed data. Lets tests check that a path
    /// reads weights where they lie.
    pub fn is_copied_out(&self) -> bool {
        let s = &*self.store;
        (s.raw.is_some() || s.strided.is_some() || s.scaled.is_some()) && s.typed.get().is_some()
    }

    /// Whether both tensors share one storage (a clone, or a reshape of one).
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.store, &other.store)
    }

    /// Takes the storage (copied if another tensor shares it).
    pub fn into_data(self) -> Data {
        match Arc::try_unwrap(self.store) {
            Ok(mut s) => s.typed.take().unwrap_or_else(|| s.decode(self.dtype)),
            Err(shared) => {
                let t = Tensor {
                    shape: self.shape,
                    dtype: self.dtype,
                    store: shared,
                };
                t.data().clone()
            }
        }
    }

    /// The same data under another shape with the same element count (shared, not copied).
    pub fn reshape(self, shape: Vec<usize>) -> Result<Tensor> {
        let expected: usize = shape.iter().product();
        let actual = self.numel();
        if expected != actual {
            return Err(Error::ShapeMismatch {
                shape,
                expected,
                actual,
            });
        }
        Ok(Tensor { shape, ..self })
    }

    /// The `f32` elements, or an error for any other type.
    pub fn as_f32(&self) -> Result<&[f32]> {
        match self.data() {
            Data::F32(v) => Ok(v),
            d => Err(Error::WrongDType {
                expected: DType::F32,
                actual: d.dtype(),
            }),
        }
    }

    /// The `i64` elements, or an error for any other type.
    pub fn as_i64(&self) -> Result<&[i64]> {
        match self.data() {
            Data::I64(v) => Ok(v),
            d => Err(Error::WrongDType {
                expected: DType::I64,
                actual: d.dtype(),
            }),
        }
    }

    /// Little-endian bytes of the elements (a copy; see [`Tensor::le_bytes`]).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        self.le_bytes().to_vec()
    }

    /// The tensor converted to another element type (ONNX `Cast` semantics
    /// for numbers); the same type shares the data.
    pub fn cast(&self, dtype: DType) -> Tensor {
        if dtype == self.dtype() {
            return self.clone();
        }
        let data = match dtype {
            DType::I64 => Data::I64(self.data().to_i64_vec()),
            _ => Data::from_f64s(dtype, &self.data().to_f64_vec()),
        };
        Tensor::new(self.shape.clone(), data).expect("a cast keeps the element count")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_must_match_data() {
        let e = Tensor::from_f32(vec![2, 3], vec![0.0; 5]).unwrap_err();
        assert_eq!(
            e,
            Error::ShapeMismatch {
                shape: vec![2, 3],
                expected: 6,
                actual: 5
            }
        );
        assert!(
            Tensor::from_f32(vec![], vec![1.0]).is_ok(),
            "rank 0 holds one element"
        );
    }

    #[test]
    fn bytes_round_trip_every_type() {
        for code in 0..16 {
            let Some(dt) = DType::from_onnx(code) else {
                continue;
            };
            let t = Tensor::full(dt, vec![3], 1.0);
            let b = t.to_le_bytes();
            assert_eq!(b.len(), 3 * dt.size());
            assert_eq!(
                t.data().as_bytes(),
                &b[..],
                "in-memory bytes are the LE bytes"
            );
            assert_eq!(Tensor::from_le_bytes(dt, vec![3], &b).unwrap(), t, "{dt}");
        }
    }

    #[test]
    fn shared_bytes_are_decoded_on_demand_and_shared_by_clones() {
        let b = Bytes::from(vec![0u8, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64]);
        let raw = b.slice(4..12);
        let t = Tensor::from_shared_le_bytes(DType::F32, vec![2], raw.clone()).unwrap();
        assert_eq!(t.le_bytes().as_ptr(), raw.as_ptr(), "no copy of the bytes");
        let c = t.clone().reshape(vec![1, 2]).unwrap();
        assert!(c.shares_storage(&t));
        assert_eq!(c.as_f32().unwrap(), &[2.0, 3.0]);
        assert_eq!(t, Tensor::from_f32(vec![2], vec![2.0, 3.0]).unwrap());
        assert_eq!(t.into_data(), Data::F32(vec![2.0, 3.0]));
        let e = Tensor::from_shared_le_bytes(DType::F32, vec![3], raw.clone()).unwrap_err();
        assert_eq!(
            e,
            Error::ShapeMismatch {
                shape: vec![3],
                expected: 3,
                actual: 2
            }
        );
        let e = Tensor::from_shared_le_bytes(DType::F32, vec![2], b.slice(0..7)).unwrap_err();
        assert!(matches!(e, Error::RaggedBytes { len: 7, .. }), "{e:?}");
        let flags = Tensor::from_shared_le_bytes(DType::Bool, vec![2], Bytes::from_static(&[0, 7]));
        assert_eq!(
            flags.unwrap().le_bytes(),
            &[0, 1],
            "bools normalized to 0/1"
        );
    }

    #[test]
    fn ragged_bytes_are_rejected() {
        let e = Data::from_le_bytes(DType::F32, &[0; 7]).unwrap_err();
        assert_eq!(
            e,
            Error::RaggedBytes {
                dtype: DType::F32,
                size: 4,
                len: 7
            }
        );
    }

    #[test]
    fn cast_truncates_toward_zero() {
        let t = Tensor::from_f32(vec![3], vec![-1.7, 0.2, 2.9]).unwrap();
        assert_eq!(t.cast(DType::I64).as_i64().unwrap(), &[-1, 0, 2]);
        assert_eq!(t.cast(DType::Bool).data(), &Data::Bool(vec![1, 1, 1]));
    }
}
