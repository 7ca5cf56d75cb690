//! Element types the kernels compute in: the [`Elem`] trait and macros that
//! dispatch over the variants of [`onnc_tensor::Data`].
//!
//! Integer arithmetic wraps and division by zero yields 0 (ONNX leaves it
//! undefined; the interpreter must not panic). Floats follow IEEE.

/// Arithmetic every numeric element type supports.
pub(crate) trait Elem: Copy + PartialOrd + Default + Send + Sync + 'static {
    /// `a + b`.
    fn add(self, o: Self) -> Self;
    /// `a - b`.
    fn sub(self, o: Self) -> Self;
    /// `a * b`.
    fn mul(self, o: Self) -> Self;
    /// `a / b` (integers: truncating, 0 on division by zero).
    fn div(self, o: Self) -> Self;
    /// `a ^ b`.
    fn pow(self, o: Self) -> Self;
    /// `-a` (wrapping for integers).
    fn neg(self) -> Self;
    /// Widened to `f64`.
    fn to_f64(self) -> f64;
    /// Narrowed from `f64` (saturating for integers).
    fn from_f64(v: f64) -> Self;
    /// Whether this is NaN (always false for integers).
    fn is_nan(self) -> bool;
    /// Whether this is a floating-point type.
    const FLOAT: bool;
}

macro_rules! float_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn add(self, o: Self) -> Self { self + o }
            fn sub(self, o: Self) -> Self { self - o }
            fn mul(self, o: Self) -> Self { self * o }
            fn div(self, o: Self) -> Self { self / o }
            fn pow(self, o: Self) -> Self { self.powf(o) }
            fn neg(self) -> Self { -self }
            fn to_f64(self) -> f64 { self as f64 }
            fn from_f64(v: f64) -> Self { v as $t }
            fn is_nan(self) -> bool { <$t>::is_nan(self) }
            const FLOAT: bool = true;
        }
    )*};
}

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            fn div(self, o: Self) -> Self { self.checked_div(o).unwrap_or(0) }
            fn pow(self, o: Self) -> Self { (self as f64).powf(o as f64) as $t }
            fn neg(self) -> Self { (0 as $t).wrapping_sub(self) }
            fn to_f64(self) -> f64 { self as f64 }
            fn from_f64(v: f64) -> Self { v as $t }
            fn is_nan(self) -> bool { false }
            const FLOAT: bool = false;
        }
    )*};
}

float_elem!(f32, f64);

/// Half precision computes in f32 and rounds once, as numpy does.
impl Elem for half::f16 {
    fn add(self, o: Self) -> Self {
        half::f16::from_f32(self.to_f32() + o.to_f32())
    }
    fn sub(self, o: Self) -> Self {
        half::f16::from_f32(self.to_f32() - o.to_f32())
    }
    fn mul(self, o: Self) -> Self {
        half::f16::from_f32(self.to_f32() * o.to_f32())
    }
    fn div(self, o: Self) -> Self {
        half::f16::from_f32(self.to_f32() / o.to_f32())
    }
    fn pow(self, o: Self) -> Self {
        half::f16::from_f32(self.to_f32().powf(o.to_f32()))
    }
    fn neg(self) -> Self {
        -self
    }
    fn to_f64(self) -> f64 {
        self.into()
    }
    fn from_f64(v: f64) -> Self {
        half::f16::from_f64(v)
    }
    fn is_nan(self) -> bool {
        half::f16::is_nan(self)
    }
    const FLOAT: bool = true;
}
int_elem!(i8, u8, i16, u16, i32, u32, i64, u64);

/// Builds a `Data` of the same variant as `$data` from `$body` (a `Vec` of
/// the same element type), for any variant.
macro_rules! map_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F32($v) => Data::F32($body),
            Data::F16($v) => Data::F16($body),
            Data::F64($v) => Data::F64($body),
            Data::I8($v) => Data::I8($body),
            Data::U8($v) => Data::U8($body),
            Data::I16($v) => Data::I16($body),
            Data::U16($v) => Data::U16($body),
            Data::I32($v) => Data::I32($body),
            Data::U32($v) => Data::U32($body),
            Data::I64($v) => Data::I64($body),
            Data::U64($v) => Data::U64($body),
            Data::Bool($v) => Data::Bool($body),
        }
    };
}

/// Builds a `Data` of the same numeric variant (not bool) from
/// `$body`, where `$v` has an [`Elem`] element type; `None` for bool.
macro_rules! map_numeric {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F32($v) => Some(Data::F32($body)),
            Data::F64($v) => Some(Data::F64($body)),
            Data::I8($v) => Some(Data::I8($body)),
            Data::U8($v) => Some(Data::U8($body)),
            Data::I16($v) => Some(Data::I16($body)),
            Data::U16($v) => Some(Data::U16($body)),
            Data::I32($v) => Some(Data::I32($body)),
            Data::U32($v) => Some(Data::U32($body)),
            Data::I64($v) => Some(Data::I64($body)),
            Data::U64($v) => Some(Data::U64($body)),
            Data::F16($v) => Some(Data::F16($body)),
            Data::Bool(_) => None,
        }
    };
}

/// Two numeric operands of the same variant; `$body` yields a value whose
/// type does not depend on the element type. `None` on mismatch or bool.
macro_rules! each_numeric2 {
    ($a:expr, $b:expr, ($x:ident, $y:ident) => $body:expr) => {
        match ($a, $b) {
            (Data::F32($x), Data::F32($y)) => Some($body),
            (Data::F64($x), Data::F64($y)) => Some($body),
            (Data::I8($x), Data::I8($y)) => Some($body),
            (Data::U8($x), Data::U8($y)) => Some($body),
            (Data::I16($x), Data::I16($y)) => Some($body),
            (Data::U16($x), Data::U16($y)) => Some($body),
            (Data::I32($x), Data::I32($y)) => Some($body),
            (Data::U32($x), Data::U32($y)) => Some($body),
            (Data::I64($x), Data::I64($y)) => Some($body),
            (Data::U64($x), Data::U64($y)) => Some($body),
            (Data::F16($x), Data::F16($y)) => Some($body),
            _ => None,
        }
    };
}

/// Like [`map_numeric!`] over two operands of the same numeric variant.
macro_rules! zip_numeric {
    ($a:expr, $b:expr, ($x:ident, $y:ident) => $body:expr) => {
        match ($a, $b) {
            (Data::F32($x), Data::F32($y)) => Some(Data::F32($body)),
            (Data::F64($x), Data::F64($y)) => Some(Data::F64($body)),
            (Data::I8($x), Data::I8($y)) => Some(Data::I8($body)),
            (Data::U8($x), Data::U8($y)) => Some(Data::U8($body)),
            (Data::I16($x), Data::I16($y)) => Some(Data::I16($body)),
            (Data::U16($x), Data::U16($y)) => Some(Data::U16($body)),
            (Data::I32($x), Data::I32($y)) => Some(Data::I32($body)),
            (Data::U32($x), Data::U32($y)) => Some(Data::U32($body)),
            (Data::I64($x), Data::I64($y)) => Some(Data::I64($body)),
            (Data::U64($x), Data::U64($y)) => Some(Data::U64($body)),
            (Data::F16($x), Data::F16($y)) => Some(Data::F16($body)),
            _ => None,
        }
    };
}

pub(crate) use {each_numeric2, map_data, map_numeric, zip_numeric};

/// Picks the element slice of the [`Data`](onnc_tensor::Data) variant that
/// stores `Self` (for `u8`: `U8` or `Bool`). Callers check dtypes agree first.
pub(crate) trait Pick: Copy + Sized {
    /// The elements, when `d` stores this type.
    fn pick(d: &onnc_tensor::Data) -> Option<&[Self]>;
}

macro_rules! pick {
    ($($t:ty => $($var:ident)|+),*) => {$(
        impl Pick for $t {
            fn pick(d: &onnc_tensor::Data) -> Option<&[Self]> {
                match d {
                    $(onnc_tensor::Data::$var(v) => Some(v),)+
                    _ => None,
                }
            }
        }
    )*};
}

pick!(f32 => F32, half::f16 => F16, f64 => F64, i8 => I8, u8 => U8 | Bool, i16 => I16,
      u16 => U16, i32 => I32, u32 => U32, i64 => I64, u64 => U64);
