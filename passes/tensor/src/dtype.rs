//! Element types, numbered as ONNX's `TensorProto.DataType`.

use std::fmt;

/// An element type. The discriminant is the ONNX `TensorProto.DataType` code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i32)]
pub enum DType {
    /// 32-bit float (ONNX 1).
    F32 = 1,
    /// Unsigned 8-bit (ONNX 2).
    U8 = 2,
    /// Signed 8-bit (ONNX 3).
    I8 = 3,
    /// Unsigned 16-bit (ONNX 4).
    U16 = 4,
    /// Signed 16-bit (ONNX 5).
    I16 = 5,
    /// Signed 32-bit (ONNX 6).
    I32 = 6,
    /// Signed 64-bit (ONNX 7).
    I64 = 7,
    /// Boolean, one byte each (ONNX 9).
    Bool = 9,
    /// IEEE half (ONNX 10).
    F16 = 10,
    /// 64-bit float (ONNX 11).
    F64 = 11,
    /// Unsigned 32-bit (ONNX 12).
    U32 = 12,
    /// Unsigned 64-bit (ONNX 13).
    U64 = 13,
}

impl DType {
    /// The type for an ONNX `DataType` code, or `None` for codes we do not store
    /// (undefined, string, complex, bfloat16, float8, int4).
    pub fn from_onnx(code: i32) -> Option<DType> {
        use DType::*;
        Some(match code {
            1 => F32,
            2 => U8,
            3 => I8,
            4 => U16,
            5 => I16,
            6 => I32,
            7 => I64,
            9 => Bool,
            10 => F16,
            11 => F64,
            12 => U32,
            13 => U64,
            _ => return None,
        })
    }

    /// The ONNX `DataType` code.
    pub fn onnx_code(self) -> i32 {
        self as i32
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        use DType::*;
        match self {
            U8 | I8 | Bool => 1,
            U16 | I16 | F16 => 2,
            F32 | I32 | U32 => 4,
            I64 | F64 | U64 => 8,
        }
    }

    /// The MLIR spelling of the element type (`f32`, `i64`, `ui8`, `i1`, …).
    pub fn mlir_name(self) -> &'static str {
        use DType::*;
        match self {
            F32 => "f32",
            U8 => "ui8",
            I8 => "i8",
            U16 => "ui16",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            Bool => "i1",
            F16 => "f16",
            F64 => "f64",
            U32 => "ui32",
            U64 => "ui64",
        }
    }

    /// The element type for an MLIR spelling, the inverse of [`DType::mlir_name`].
    pub fn from_mlir_name(name: &str) -> Option<DType> {
        use DType::*;
        [F32, U8, I8, U16, I16, I32, I64, Bool, F16, F64, U32, U64]
            .into_iter()
            .find(|d| d.mlir_name() == name)
    }

    /// Whether the type is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::F64)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn onnx_codes_round_trip() {
        for code in 0..20 {
            if let Some(d) = DType::from_onnx(code) {
                assert_eq!(d.onnx_code(), code);
                assert_eq!(DType::from_mlir_name(d.mlir_name()), Some(d));
            }
        }
        assert_eq!(DType::from_onnx(8), None, "string tensors are not stored");
        assert_eq!(DType::from_onnx(16), None, "bfloat16 is not stored");
    }
}
