//! Typed access to an op's dialect attributes, with errors that name the op.
//!
//! In: an [`Op`] and an attribute name spelled as in
//! `dialects/nvdla.irdl.mlir` (`x1_op.mode`, `in_cvt.scale`, ...). Out: the
//! value as the descriptor field wants it (`u8`, `i16`, an enumerator
//! number), or an [`Error::Attr`] saying what is missing or out of
//! range. Example: `A::new(op).reg("conv_stride_x")` → `Ok(1)` (checked
//! against the register table's 1..=8).

use crate::program::{Op, Precision};
use crate::registers::Kind;
use crate::{Error, Result};

/// Attribute reader for one op.
pub(crate) struct A<'a> {
    pub(crate) op: &'a Op,
}

impl<'a> A<'a> {
    pub(crate) fn new(op: &'a Op) -> Self {
        A { op }
    }

    pub(crate) fn err(&self, attr: &str, problem: impl Into<String>) -> Error {
        Error::Attr {
            engine: self.op.engine.op_name().to_string(),
            hw_layer: self.op.hw_layer.clone(),
            attr: attr.to_string(),
            problem: problem.into(),
        }
    }

    /// An `Error::Op` for this op.
    pub(crate) fn op_err(&self, problem: impl Into<String>) -> Error {
        Error::Op {
            engine: self.op.engine.op_name().to_string(),
            hw_layer: self.op.hw_layer.clone(),
            problem: problem.into(),
        }
    }

    /// Integer register `name` of this op's engine, checked against its
    /// range in the register table (`onnc_nvdla_hw::registers`, the one
    /// statement of every register's range).
    pub(crate) fn reg(&self, name: &str) -> Result<i64> {
        match crate::registers::spec(self.op.engine, name).map(|s| s.kind) {
            Some(Kind::Int { min, max }) => self.int_in(name, min, max),
            _ => Err(self.err(
                name,
                "is not an integer register of this op in the register table (internal error)",
            )),
        }
    }

    /// Integer attribute in `lo..=hi`.
    pub(crate) fn int_in(&self, name: &str, lo: i64, hi: i64) -> Result<i64> {
        let v = match self.op.attrs.get(name) {
            None => return Err(self.err(name, "is missing; the legalizer writes every register")),
            Some(v) => v
                .as_int()
                .ok_or_else(|| self.err(name, format!("is {v}, expected an integer")))?,
        };
        if v < lo || v > hi {
            return Err(self.err(name, format!("is {v}, expected {lo}..={hi}")));
        }
        Ok(v)
    }

    pub(crate) fn i16(&self, name: &str) -> Result<i16> {
        Ok(self.int_in(name, i16::MIN.into(), i16::MAX.into())? as i16)
    }

    pub(crate) fn i32(&self, name: &str) -> Result<i32> {
        Ok(self.int_in(name, i32::MIN.into(), i32::MAX.into())? as i32)
    }

    /// Float attribute (integers widen).
    pub(crate) fn float(&self, name: &str) -> Result<f64> {
        match self.op.attrs.get(name) {
            None => Err(self.err(name, "is missing")),
            Some(v) => v
                .as_float()
                .ok_or_else(|| self.err(name, format!("is {v}, expected a number"))),
        }
    }

    /// String attribute.
    pub(crate) fn str(&self, name: &str) -> Result<&'a str> {
        match self.op.attrs.get(name) {
            None => Err(self.err(name, "is missing")),
            Some(v) => v
                .as_str()
                .ok_or_else(|| self.err(name, format!("is {v}, expected a string"))),
        }
    }

    /// Enumeration: the position of the attribute's string in `names`.
    pub(crate) fn pick(&self, name: &str, names: &[&str]) -> Result<u8> {
        let s = self.str(name)?;
        names
            .iter()
            .position(|n| *n == s)
            .map(|i| i as u8)
            .ok_or_else(|| self.err(name, format!("is \"{s}\", expected one of {names:?}")))
    }

    /// Precision attribute.
    pub(crate) fn precision(&self, name: &str) -> Result<Precision> {
        let s = self.str(name)?;
        Precision::parse(s).ok_or_else(|| {
            self.err(
                name,
                format!("is \"{s}\", expected \"int8\", \"int16\" or \"fp16\""),
            )
        })
    }
}

/// The firmware's `PRECISION_*` number.
pub(crate) fn precision_code(p: Precision) -> u8 {
    match p {
        Precision::Int8 => 0,
        Precision::Int16 => 1,
        Precision::Fp16 => 2,
    }
}
