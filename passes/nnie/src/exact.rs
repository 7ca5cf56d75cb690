//! Exact `floor(32·log2 x)` for positive floating-point numbers.
//!
//! In: a positive, finite `f32` or `f64`. Out: [`Log2x32`], the integer
//! `floor(32·log2 x)` and whether `32·log2 x` is itself an integer.
//!
//! Every threshold of NNIE's code table is a power `2^(q/32)` with integer `q`
//! (`2^((z+k+0.5)/16)`, `2^(z/16 - 1)`, `2^((z+1)/16 - 1)`), so comparing
//! `x` with a threshold is comparing `floor(32·log2 x)` with `q` — exactly,
//! with no floating-point `log2` rounding at the table's boundaries.
//!
//! How: write `x = m·2^e` with an odd integer `m`; then
//! `floor(32·log2 x) = floor(32·log2 m) + 32e`. A fast `f64` estimate of
//! `32·log2 m` decides unless it lies within `1e-6` of an integer; then the
//! bit length of the big integer `m^32` decides (`floor(32·log2 m) =
//! bitlen(m^32) - 1`). `32·log2 x` is an integer exactly when `m == 1`.
//!
//! ```text
//! // crate-private, tested in this file's unit tests:
//! assert_eq!(log2x32_f32(2.0), Log2x32 { floor: 32, exact: true });
//! ```

/// `floor(32·log2 x)` and whether `32·log2 x` is an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Log2x32 {
    /// `floor(32·log2 x)`.
    pub floor: i64,
    /// `32·log2 x == floor` (only for exact powers of two).
    pub exact: bool,
}

impl Log2x32 {
    /// `x ≥ 2^(q/32)`.
    pub fn ge(self, q: i64) -> bool {
        self.floor >= q
    }

    /// `x ≤ 2^(q/32)`.
    pub fn le(self, q: i64) -> bool {
        self.floor < q || (self.floor == q && self.exact)
    }

    /// `round(16·log2 x)`. Ties (`16·log2 x = n + 1/2`) cannot occur: they
    /// would need `32·log2 x` to be an odd integer, but it is an integer only
    /// for powers of two, where it is a multiple of 32.
    pub fn round16(self) -> i64 {
        (self.floor + 1).div_euclid(2)
    }

    /// `ceil(16·log2 x)`.
    pub fn ceil16(self) -> i64 {
        if self.exact {
            self.floor.div_euclid(2) + self.floor.rem_euclid(2)
        } else {
            self.floor.div_euclid(2) + 1
        }
    }

    /// `floor(16·log2 x)`.
    pub fn floor16(self) -> i64 {
        self.floor.div_euclid(2)
    }
}

/// Exact `floor(32·log2 x)` for a positive finite `f32` (subnormals included).
pub(crate) fn log2x32_f32(x: f32) -> Log2x32 {
    let bits = x.abs().to_bits();
    let exp = i64::from((bits >> 23) & 0xff);
    let frac = u64::from(bits & 0x7f_ffff);
    let (m, e) = if exp == 0 {
        (frac, -149)
    } else {
        (frac | (1 << 23), exp - 150)
    };
    log2x32_parts(m, e)
}

/// Exact `floor(32·log2 x)` for a positive finite `f64` (subnormals included).
pub(crate) fn log2x32_f64(x: f64) -> Log2x32 {
    let bits = x.abs().to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & 0x000f_ffff_ffff_ffff;
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    log2x32_parts(m, e)
}

/// `floor(32·log2(m·2^e))` for `0 < m < 2^53`.
fn log2x32_parts(mut m: u64, mut e: i64) -> Log2x32 {
    if m == 0 {
        // Not reachable for positive inputs; answer something total.
        return Log2x32 {
            floor: i64::MIN / 4,
            exact: false,
        };
    }
    let tz = m.trailing_zeros();
    m >>= tz;
    e += i64::from(tz);
    if m == 1 {
        return Log2x32 {
            floor: 32 * e,
            exact: true,
        };
    }
    Log2x32 {
        floor: floor_32_log2_odd(m) + 32 * e,
        exact: false,
    }
}

/// `floor(32·log2 m)` for an odd `m > 1`, `m < 2^53`.
fn floor_32_log2_odd(m: u64) -> i64 {
    // m < 2^53 converts to f64 exactly; log2 is accurate to a few ulps, so the
    // estimate is off by far less than 1e-6 and only near-integers need care.
    let y = 32.0 * (m as f64).log2();
    let f = y.floor();
    let frac = y - f;
    if frac > 1e-6 && frac < 1.0 - 1e-6 {
        return f as i64;
    }
    pow32_bit_length(m) - 1
}

/// Bit length of `m^32`, computed exactly with five big-integer squarings.
pub(crate) fn pow32_bit_length(m: u64) -> i64 {
    let mut n = vec![m];
    for _ in 0..5 {
        n = square(&n);
    }
    let top = n.last().copied().unwrap_or(0);
    64 * (n.len() as i64 - 1) + i64::from(64 - top.leading_zeros())
}

/// Square of a little-endian base-2^64 natural number, without leading zero limbs.
fn square(a: &[u64]) -> Vec<u64> {
    let mut r = vec![0u64; 2 * a.len()];
    for (i, &ai) in a.iter().enumerate() {
        let mut carry: u128 = 0;
        for (j, &aj) in a.iter().enumerate() {
            let t = u128::from(ai) * u128::from(aj) + u128::from(r[i + j]) + carry;
            r[i + j] = t as u64;
            carry = t >> 64;
        }
        r[i + a.len()] = carry as u64;
    }
    while r.len() > 1 && r.last() == Some(&0) {
        r.pop();
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_two_are_exact() {
        assert_eq!(
            log2x32_f32(1.0),
            Log2x32 {
                floor: 0,
                exact: true
            }
        );
        assert_eq!(
            log2x32_f32(2.0),
            Log2x32 {
                floor: 32,
                exact: true
            }
        );
        assert_eq!(
            log2x32_f32(0.25),
            Log2x32 {
                floor: -64,
                exact: true
            }
        );
        assert_eq!(
            log2x32_f64(1024.0),
            Log2x32 {
                floor: 320,
                exact: true
            }
        );
        // smallest subnormal f32 = 2^-149
        assert_eq!(
            log2x32_f32(f32::from_bits(1)),
            Log2x32 {
                floor: -149 * 32,
                exact: true
            }
        );
    }

    #[test]
    fn values_near_grid_points() {
        // sqrt(2) in f32 is just below 2^(1/2): 32*log2 = 15.99999...
        let s = std::f32::consts::SQRT_2;
        assert!((s as f64) < 2f64.sqrt());
        assert_eq!(log2x32_f32(s).floor, 15);
        assert_eq!(log2x32_f32(f32::from_bits(s.to_bits() + 1)).floor, 16);
        assert_eq!(log2x32_f32(3.0).floor, (32.0 * 3f64.log2()).floor() as i64);
    }

    #[test]
    fn slow_path_agrees_with_fast_path() {
        // Deterministic pseudo-random odd mantissas.
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let m = (s >> 11) | 1; // < 2^53, odd
            if m == 1 {
                continue;
            }
            let y = 32.0 * (m as f64).log2();
            if (y - y.round()).abs() > 1e-6 {
                assert_eq!(pow32_bit_length(m) - 1, y.floor() as i64, "m = {m}");
            }
        }
    }

    #[test]
    fn big_square_is_right() {
        // (2^64 - 1)^2 = 2^128 - 2^65 + 1
        assert_eq!(square(&[u64::MAX]), vec![1, u64::MAX - 1]);
        // 3^32 = 1853020188851841 < 2^51 -> bit length 51
        assert_eq!(pow32_bit_length(3), 51);
    }

    #[test]
    fn rounding_helpers() {
        let x = Log2x32 {
            floor: 5,
            exact: false,
        }; // 32log2 in (5,6): 16log2 in (2.5,3)
        assert_eq!((x.round16(), x.floor16(), x.ceil16()), (3, 2, 3));
        let x = Log2x32 {
            floor: 4,
            exact: false,
        }; // 16log2 in (2, 2.5)
        assert_eq!((x.round16(), x.floor16(), x.ceil16()), (2, 2, 3));
        let x = Log2x32 {
            floor: 64,
            exact: true,
        }; // 16log2 = 32
        assert_eq!((x.round16(), x.floor16(), x.ceil16()), (32, 32, 32));
        let x = Log2x32 {
            floor: -3,
            exact: false,
        }; // 16log2 in (-1.5, -1)
        assert_eq!((x.round16(), x.floor16(), x.ceil16()), (-1, -2, -1));
        assert!(x.ge(-3) && !x.ge(-2) && x.le(-2) && !x.le(-3));
    }
}
