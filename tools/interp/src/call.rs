//! [`Call`]: one operator invocation as a kernel sees it — type, attributes,
//! inputs, opset and requested output count — with checked accessors that
//! turn every bad operand into an [`Error`] naming the input or attribute.
//!
//! Attribute accessors take the ONNX default, so kernels work whether or not
//! the importer filled defaults in.

use crate::{Error, Result};
use onnc_tensor::{Attr, Attrs, DType, Data, Tensor};

/// Most elements one output (or scratch buffer) may hold: 2^28, 1 GiB of
/// f32. Larger shapes computed from a model's values are rejected as bad
/// input rather than exhausting memory.
pub const MAX_ELEMENTS: usize = 1 << 28;

/// Largest value accepted for window attributes (pads, strides, dilations,
/// kernel extents) so their arithmetic cannot overflow.
pub const MAX_WINDOW_VALUE: i64 = 1 << 28;

/// One operator invocation.
pub(crate) struct Call<'a> {
    /// Operator type, e.g. `"Conv"`.
    pub op: &'a str,
    /// Attributes by name.
    pub attrs: &'a Attrs,
    /// Inputs in ONNX order; `None` is an absent optional input.
    pub inputs: &'a [Option<&'a Tensor>],
    /// The default-domain opset the node was written against.
    pub opset: i64,
    /// How many outputs the node declares, when known.
    pub num_outputs: Option<usize>,
}

impl<'a> Call<'a> {
    /// Fails unless `min <= inputs.len() <= max`.
    pub fn arity(&self, min: usize, max: usize) -> Result<()> {
        let n = self.inputs.len();
        if n < min || n > max {
            let expected = match (min, max) {
                (a, b) if a == b => a.to_string(),
                (a, usize::MAX) => format!("at least {a}"),
                (a, b) => format!("{a}..={b}"),
            };
            return Err(Error::InputCount {
                op: self.op.into(),
                expected,
                actual: n,
            });
        }
        Ok(())
    }

    /// Input `i`, which must be present.
    pub fn input(&self, i: usize) -> Result<&'a Tensor> {
        self.opt(i).ok_or_else(|| Error::MissingInput {
            op: self.op.into(),
            index: i,
        })
    }

    /// Input `i` if given (absent and out-of-range both read as `None`).
    pub fn opt(&self, i: usize) -> Option<&'a Tensor> {
        self.inputs.get(i).copied().flatten()
    }

    /// Input `i` as `f32` elements.
    pub fn f32_input(&self, i: usize) -> Result<&'a [f32]> {
        let t = self.input(i)?;
        t.as_f32().map_err(|_| self.type_err(i, "f32", t.dtype()))
    }

    /// Input `i`, if present, as integers (int64 or int32), e.g. `axes` or `pads`.
    pub fn ints_input(&self, i: usize) -> Result<Option<Vec<i64>>> {
        match self.opt(i) {
            None => Ok(None),
            Some(t) => match t.data() {
                Data::I64(v) => Ok(Some(v.clone())),
                Data::I32(v) => Ok(Some(v.iter().map(|&x| x as i64).collect())),
                _ => Err(self.type_err(i, "int64 or int32", t.dtype())),
            },
        }
    }

    /// The integers of input `i` if given, else of attribute `name` (older opsets).
    pub fn ints_input_or_attr(&self, i: usize, name: &str) -> Result<Option<Vec<i64>>> {
        match self.ints_input(i)? {
            Some(v) => Ok(Some(v)),
            None => Ok(self.ints(name)?.map(<[i64]>::to_vec)),
        }
    }

    /// Input `i` as one scalar converted to `f64`, if given.
    pub fn scalar_input(&self, i: usize) -> Result<Option<f64>> {
        match self.opt(i) {
            None => Ok(None),
            Some(t) if t.numel() == 1 => Ok(Some(t.data().to_f64_vec()[0])),
            Some(t) => Err(self.shape_err(i, "one element", t.shape())),
        }
    }

    fn attr(&self, name: &str) -> Option<&'a Attr> {
        self.attrs.get(name)
    }

    /// Integer attribute `name`, or `default` when absent.
    pub fn int(&self, name: &str, default: i64) -> Result<i64> {
        match self.attr(name) {
            None => Ok(default),
            Some(a) => a.as_int().ok_or_else(|| self.kind_err(name, "int", a)),
        }
    }

    /// Float attribute `name`, or `default` when absent.
    pub fn float(&self, name: &str, default: f32) -> Result<f32> {
        match self.attr(name) {
            None => Ok(default),
            Some(a) => a.as_float().ok_or_else(|| self.kind_err(name, "float", a)),
        }
    }

    /// String attribute `name`, or `default` when absent.
    pub fn string(&self, name: &str, default: &'a str) -> Result<&'a str> {
        match self.attr(name) {
            None => Ok(default),
            Some(a) => a.as_str().ok_or_else(|| self.kind_err(name, "string", a)),
        }
    }

    /// Integer-list attribute `name`, if present.
    pub fn ints(&self, name: &str) -> Result<Option<&'a [i64]>> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::Int(v)) => Ok(Some(std::slice::from_ref(v))),
            Some(a) => a
                .as_ints()
                .map(Some)
                .ok_or_else(|| self.kind_err(name, "ints", a)),
        }
    }

    /// Float-list attribute `name`, if present.
    pub fn floats(&self, name: &str) -> Result<Option<&'a [f32]>> {
        match self.attr(name) {
            None => Ok(None),
            Some(a) => a
                .as_floats()
                .map(Some)
                .ok_or_else(|| self.kind_err(name, "floats", a)),
        }
    }

    /// Tensor attribute `name`, if present.
    pub fn tensor(&self, name: &str) -> Result<Option<&'a Tensor>> {
        match self.attr(name) {
            None => Ok(None),
            Some(a) => a
                .as_tensor()
                .map(Some)
                .ok_or_else(|| self.kind_err(name, "tensor", a)),
        }
    }

    /// Whether attribute `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.attrs.contains_key(name)
    }

    /// The element count of `shape`, failing (naming input `index`) when it
    /// overflows or exceeds [`MAX_ELEMENTS`].
    pub fn checked_numel(&self, shape: &[usize], index: usize) -> Result<usize> {
        shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .filter(|&n| n <= MAX_ELEMENTS)
            .ok_or_else(|| {
                self.shape_err(
                    index,
                    format!("an output of at most {MAX_ELEMENTS} elements (would be {shape:?})"),
                    &self
                        .opt(index)
                        .map(|t| t.shape().to_vec())
                        .unwrap_or_default(),
                )
            })
    }

    /// The multidirectional broadcast of two input shapes, checked for size;
    /// errors name input `index` (the second operand).
    pub fn broadcast(&self, a: &[usize], b: &[usize], index: usize) -> Result<Vec<usize>> {
        let s = crate::layout::broadcast_shape(a, b)
            .ok_or_else(|| self.shape_err(index, format!("broadcastable with {a:?}"), b))?;
        self.checked_numel(&s, index)?;
        Ok(s)
    }

    /// Normalizes a possibly negative axis against `rank`.
    pub fn axis(&self, name: &str, axis: i64, rank: usize) -> Result<usize> {
        let r = rank as i64;
        if axis < -r || axis >= r {
            return Err(self.attr_err(name, format!("axis {axis} is out of range for rank {rank}")));
        }
        Ok(if axis < 0 {
            (axis + r) as usize
        } else {
            axis as usize
        })
    }

    /// A bad-attribute error.
    pub fn attr_err(&self, name: &str, reason: impl Into<String>) -> Error {
        Error::BadAttr {
            op: self.op.into(),
            name: name.into(),
            reason: reason.into(),
        }
    }

    /// A wrong-shape error for input `index`.
    pub fn shape_err(&self, index: usize, expected: impl Into<String>, actual: &[usize]) -> Error {
        Error::InputShape {
            op: self.op.into(),
            index,
            expected: expected.into(),
            actual: actual.to_vec(),
        }
    }

    /// A wrong-type error for input `index`.
    pub fn type_err(&self, index: usize, expected: impl Into<String>, actual: DType) -> Error {
        Error::InputType {
            op: self.op.into(),
            index,
            expected: expected.into(),
            actual,
        }
    }

    /// An unsupported-feature error.
    pub fn unsupported(&self, what: impl Into<String>) -> Error {
        Error::Unsupported {
            op: self.op.into(),
            what: what.into(),
        }
    }

    fn kind_err(&self, name: &str, want: &str, got: &Attr) -> Error {
        self.attr_err(name, format!("expected {want}, got {}", got.kind()))
    }
}

/// Builds an output tensor from a shape and storage (lengths are the kernel's invariant).
pub(crate) fn out(shape: Vec<usize>, data: Data) -> Result<Tensor> {
    Ok(Tensor::new(shape, data)?)
}

/// An `f32` output.
pub(crate) fn out_f32(shape: Vec<usize>, data: Vec<f32>) -> Result<Tensor> {
    out(shape, Data::F32(data))
}
