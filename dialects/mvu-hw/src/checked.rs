//! [`N`]: an `i128` whose arithmetic reports overflow instead of wrapping,
//! so the register formulas read as written in the hardware docs and still
//! never overflow on unchecked attribute values.
//!
//! In: `i128` operands. Out: `N(Some(v))`, or `N(None)` once any step overflowed.
//!
//! ```
//! use onnc_mvu_hw::checked::N;
//! assert_eq!((N::from(3) * 4 - 1).get(), Some(11));
//! assert_eq!((N::from(i128::MAX) + 1).get(), None);
//! ```

use std::ops::{Add, Mul, Neg, Sub};

/// A checked `i128`; `None` after an overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct N(pub Option<i128>);

impl N {
    /// The value, `None` if a step overflowed.
    pub fn get(self) -> Option<i128> {
        self.0
    }
}

impl From<i128> for N {
    fn from(v: i128) -> N {
        N(Some(v))
    }
}

macro_rules! op {
    ($tr:ident, $f:ident, $checked:ident) => {
        impl $tr for N {
            type Output = N;
            fn $f(self, rhs: N) -> N {
                N(self.0.zip(rhs.0).and_then(|(a, b)| a.$checked(b)))
            }
        }
        impl $tr<i128> for N {
            type Output = N;
            fn $f(self, rhs: i128) -> N {
                self.$f(N::from(rhs))
            }
        }
    };
}

op!(Add, add, checked_add);
op!(Sub, sub, checked_sub);
op!(Mul, mul, checked_mul);

impl Neg for N {
    type Output = N;
    fn neg(self) -> N {
        N(self.0.and_then(i128::checked_neg))
    }
}

#[cfg(test)]
mod tests {
    use super::N;

    #[test]
    fn overflow_sticks() {
        let big = N::from(i128::MAX);
        assert_eq!((big * 2 - big).get(), None);
        assert_eq!((-N::from(i128::MIN)).get(), None);
        assert_eq!((-(N::from(5) - 7)).get(), Some(2));
    }
}
