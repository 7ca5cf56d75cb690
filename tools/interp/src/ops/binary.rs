//! Elementwise binary operators with multidirectional (numpy) broadcasting:
//! arithmetic `Add`, `Sub`, `Mul`, `Div`, `Pow`, `Mod`; comparisons `Equal`,
//! `Less`, `LessOrEqual`, `Greater`, `GreaterOrEqual`; logic `And`, `Or`, `Xor`.
//!
//! In: `A`, `B` of one numeric type (`Pow`'s exponent may differ; it is cast
//! to the base's type). Out: `C` with the broadcast shape — same type for
//! arithmetic, bool for comparisons and logic.
//! Example: `Add([[1],[2]], [10, 20]) = [[11, 21], [12, 22]]`.

use crate::call::{out, Call};
use crate::elem::{each_numeric2, zip_numeric, Elem};
use crate::layout::zip_broadcast;
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// An arithmetic operator.
#[derive(Clone, Copy)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Max,
    Min,
    Mod,
    FMod,
}

impl Arith {
    /// Applies the operator to two elements.
    pub(crate) fn apply<T: Elem>(self, a: T, b: T) -> T {
        match self {
            Arith::Add => a.add(b),
            Arith::Sub => a.sub(b),
            Arith::Mul => a.mul(b),
            Arith::Div => a.div(b),
            Arith::Pow => a.pow(b),
            // NaN propagates, as numpy's maximum/minimum do.
            Arith::Max => {
                if a.is_nan() || a >= b {
                    a
                } else {
                    b
                }
            }
            Arith::Min => {
                if a.is_nan() || a <= b {
                    a
                } else {
                    b
                }
            }
            Arith::FMod => {
                let (x, y) = (a.to_f64(), b.to_f64());
                // numpy: x fmod 0 is NaN for floats, 0 for integers.
                if y == 0.0 {
                    T::from_f64(if T::FLOAT { f64::NAN } else { 0.0 })
                } else {
                    T::from_f64(x % y)
                }
            }
            Arith::Mod => {
                // Python-style: the result has the sign of the divisor.
                let (x, y) = (a.to_f64(), b.to_f64());
                if y == 0.0 {
                    return T::from_f64(if T::FLOAT { f64::NAN } else { 0.0 });
                }
                let r = x % y;
                T::from_f64(if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                    r + y
                } else {
                    r
                })
            }
        }
    }
}

/// Broadcasts `a` and `b` and applies `op`; errors name the offending input.
pub(crate) fn arith_tensors(
    c: &Call,
    op: Arith,
    a: &Tensor,
    b: &Tensor,
    ib: usize,
) -> Result<Tensor> {
    let shape = c.broadcast(a.shape(), b.shape(), ib)?;
    let (sa, sb) = (a.shape(), b.shape());
    let data = zip_numeric!(a.data(), b.data(), (x, y) => if sa == sb {
        // Same shapes (residual adds): element by element, in parallel.
        super::par::zip(x, y, |p, q| op.apply(p, q))
    } else {
        zip_broadcast(x, sa, y, sb, &shape, |p, q| op.apply(p, q))
    });
    match data {
        Some(d) => out(shape, d),
        None if a.dtype() != b.dtype() => {
            Err(c.type_err(ib, format!("{} like input 0", a.dtype()), b.dtype()))
        }
        None => Err(c.type_err(0, "a numeric type", a.dtype())),
    }
}

/// A two-input arithmetic kernel.
pub(crate) fn arith(c: &Call, op: Arith) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    Ok(vec![arith_tensors(c, op, c.input(0)?, c.input(1)?, 1)?])
}

/// `Pow`: the exponent is cast to the base's type first.
pub(crate) fn pow(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let a = c.input(0)?;
    let b = c.input(1)?;
    if a.dtype() == b.dtype() {
        return Ok(vec![arith_tensors(c, Arith::Pow, a, b, 1)?]);
    }
    if b.dtype() == onnc_tensor::DType::F16 || b.dtype() == onnc_tensor::DType::Bool {
        return Err(c.type_err(1, "a numeric type", b.dtype()));
    }
    let shape = c.broadcast(a.shape(), b.shape(), 1)?;
    if let Data::F32(x) = a.data() {
        // An integer exponent on a float base: compute in f64 to stay exact.
        let y = b.data().to_f64_vec();
        let v = zip_broadcast(x, a.shape(), &y, b.shape(), &shape, |p, q| {
            (p as f64).powf(q) as f32
        });
        return Ok(vec![out(shape, Data::F32(v))?]);
    }
    Ok(vec![arith_tensors(
        c,
        Arith::Pow,
        a,
        &b.cast(a.dtype()),
        1,
    )?])
}

/// `Mod` (`fmod` = 0: sign of the divisor; 1: C `fmod`).
pub(crate) fn modulo(c: &Call) -> Result<Vec<Tensor>> {
    let op = if c.int("fmod", 0)? != 0 {
        Arith::FMod
    } else {
        Arith::Mod
    };
    arith(c, op)
}

/// A comparison.
#[derive(Clone, Copy)]
pub(crate) enum Cmp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// `Equal`, `Less`, … → bool.
pub(crate) fn compare(c: &Call, op: Cmp) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let a = c.input(0)?;
    let b = c.input(1)?;
    let shape = c.broadcast(a.shape(), b.shape(), 1)?;
    let f = |p: f64, q: f64| -> u8 {
        u8::from(match op {
            Cmp::Eq => p == q,
            Cmp::Lt => p < q,
            Cmp::Le => p <= q,
            Cmp::Gt => p > q,
            Cmp::Ge => p >= q,
        })
    };
    let (sa, sb) = (a.shape(), b.shape());
    let v = match (a.data(), b.data()) {
        (Data::Bool(x), Data::Bool(y)) => Some(zip_broadcast(x, sa, y, sb, &shape, |p, q| {
            f(p as f64, q as f64)
        })),
        (Data::I64(x), Data::I64(y)) => Some(zip_broadcast(x, sa, y, sb, &shape, |p, q| {
            u8::from(match op {
                Cmp::Eq => p == q,
                Cmp::Lt => p < q,
                Cmp::Le => p <= q,
                Cmp::Gt => p > q,
                Cmp::Ge => p >= q,
            })
        })),
        (x, y) => {
            each_numeric2!(x, y, (x, y) => zip_broadcast(x, sa, y, sb, &shape, |p, q| f(p.to_f64(), q.to_f64())))
        }
    };
    match v {
        Some(v) => Ok(vec![out(shape, Data::Bool(v))?]),
        None if a.dtype() != b.dtype() => {
            Err(c.type_err(1, format!("{} like input 0", a.dtype()), b.dtype()))
        }
        None => Err(c.type_err(0, "a numeric or bool type", a.dtype())),
    }
}

/// A boolean connective.
#[derive(Clone, Copy)]
pub(crate) enum Logic {
    And,
    Or,
    Xor,
}

/// `And`, `Or`, `Xor` on bool tensors.
pub(crate) fn logic(c: &Call, op: Logic) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let a = c.input(0)?;
    let b = c.input(1)?;
    let (Data::Bool(x), Data::Bool(y)) = (a.data(), b.data()) else {
        let (i, t) = if a.dtype() != onnc_tensor::DType::Bool {
            (0, a)
        } else {
            (1, b)
        };
        return Err(c.type_err(i, "bool", t.dtype()));
    };
    let shape = c.broadcast(a.shape(), b.shape(), 1)?;
    let v = zip_broadcast(x, a.shape(), y, b.shape(), &shape, |p, q| {
        let (p, q) = (p != 0, q != 0);
        u8::from(match op {
            Logic::And => p && q,
            Logic::Or => p || q,
            Logic::Xor => p != q,
        })
    });
    Ok(vec![out(shape, Data::Bool(v))?])
}

/// A bitwise operator on integers.
#[derive(Clone, Copy)]
pub(crate) enum Bits {
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// Applies a bitwise operator to integers widened to `u64` bit patterns.
fn bits(op: Bits, a: u64, b: u64, width: u32) -> u64 {
    match op {
        Bits::And => a & b,
        Bits::Or => a | b,
        Bits::Xor => a ^ b,
        Bits::Shl => {
            if b >= width as u64 {
                0
            } else {
                a << b
            }
        }
        Bits::Shr => {
            if b >= width as u64 {
                0
            } else {
                a >> b
            }
        }
    }
}

/// `BitwiseAnd`, `BitwiseOr`, `BitwiseXor`, and `BitShift` (`direction`).
pub(crate) fn bitwise(c: &Call, op: Bits) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let (a, b) = (c.input(0)?, c.input(1)?);
    let op = match (op, c.string("direction", "")?) {
        (Bits::Shl | Bits::Shr, "LEFT") => Bits::Shl,
        (Bits::Shl | Bits::Shr, "RIGHT") => Bits::Shr,
        (Bits::Shl | Bits::Shr, d) => {
            return Err(c.attr_err("direction", format!("expected LEFT or RIGHT, got `{d}`")))
        }
        (op, _) => op,
    };
    let shape = c.broadcast(a.shape(), b.shape(), 1)?;
    let (sa, sb) = (a.shape(), b.shape());
    macro_rules! go {
        ($x:expr, $y:expr, $t:ty, $u:ty, $var:ident) => {
            Data::$var(zip_broadcast($x, sa, $y, sb, &shape, |p: $t, q: $t| {
                bits(op, p as $u as u64, q as $u as u64, <$t>::BITS) as $u as $t
            }))
        };
    }
    // Signed shifts: arithmetic right shift; a shift that is negative or at
    // least the width gives 0 (left) or the sign fill (right).
    macro_rules! signed {
        ($x:expr, $y:expr, $t:ty, $u:ty, $var:ident) => {
            Data::$var(zip_broadcast($x, sa, $y, sb, &shape, |p: $t, q: $t| {
                let out_of_range = q < 0 || q as i64 >= <$t>::BITS as i64;
                match op {
                    Bits::Shl if out_of_range => 0,
                    Bits::Shl => p.wrapping_shl(q as u32),
                    Bits::Shr if out_of_range => {
                        if p < 0 {
                            -1
                        } else {
                            0
                        }
                    }
                    Bits::Shr => p >> q,
                    _ => bits(op, p as $u as u64, q as $u as u64, <$t>::BITS) as $u as $t,
                }
            }))
        };
    }
    let data = match (a.data(), b.data()) {
        (Data::U8(x), Data::U8(y)) => go!(x, y, u8, u8, U8),
        (Data::U16(x), Data::U16(y)) => go!(x, y, u16, u16, U16),
        (Data::U32(x), Data::U32(y)) => go!(x, y, u32, u32, U32),
        (Data::U64(x), Data::U64(y)) => go!(x, y, u64, u64, U64),
        (Data::I8(x), Data::I8(y)) => signed!(x, y, i8, u8, I8),
        (Data::I16(x), Data::I16(y)) => signed!(x, y, i16, u16, I16),
        (Data::I32(x), Data::I32(y)) => signed!(x, y, i32, u32, I32),
        (Data::I64(x), Data::I64(y)) => signed!(x, y, i64, u64, I64),
        _ if a.dtype() != b.dtype() => {
            return Err(c.type_err(1, format!("{} like input 0", a.dtype()), b.dtype()))
        }
        _ => return Err(c.type_err(0, "an integer type", a.dtype())),
    };
    Ok(vec![out(shape, data)?])
}
