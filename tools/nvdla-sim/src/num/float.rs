//! The custom floating-point arithmetic of the NVDLA C-model
//! (`nvdla_float.h`: `FpAdd`, `FpMul`, `FpCmp`, `FpRelu`, `FpEql`).
//!
//! Values are bit patterns (sign, biased exponent, fraction) in the low
//! `1 + exp + man` bits of a `u32`, in a format [`Fmt`]. The rules differ
//! from IEEE 754 on purpose:
//! * there is no infinity arithmetic: results that overflow become the
//!   largest finite value with the right sign ([`Fmt::max_finite`]);
//! * denormal operands get an implied 1 (only an exact zero gets 0) and
//!   results with a zero exponent are flushed to zero;
//! * addition keeps M+2 extra bits of the smaller operand and drops the rest
//!   without a sticky bit; rounding is to nearest, ties to even;
//! * a NaN operand is returned unchanged (the first one wins).

/// A binary floating-point format: `exp` exponent bits, `man` fraction bits,
/// bias 2^(exp−1) − 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fmt {
    /// Exponent width.
    pub exp: u32,
    /// Fraction (stored mantissa) width.
    pub man: u32,
}

/// IEEE half precision: 1 + 5 + 10.
pub const FP16: Fmt = Fmt { exp: 5, man: 10 };
/// NVDLA's fp17: 1 + 6 + 10, bias 31 (1.0 = 0x7C00).
pub const FP17: Fmt = Fmt { exp: 6, man: 10 };
/// IEEE single precision layout: 1 + 8 + 23.
pub const FP32: Fmt = Fmt { exp: 8, man: 23 };

/// A value split into its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    /// Sign bit (0 or 1).
    pub sign: u32,
    /// Biased exponent.
    pub exp: u32,
    /// Fraction without the implied bit.
    pub man: u64,
}

impl Fmt {
    /// Largest biased exponent (all ones).
    pub const fn exp_max(self) -> u32 {
        (1 << self.exp) - 1
    }
    /// Exponent bias.
    pub const fn bias(self) -> u32 {
        (1 << (self.exp - 1)) - 1
    }
    /// Mask of the whole encoding.
    pub const fn mask(self) -> u32 {
        if 1 + self.exp + self.man >= 32 {
            u32::MAX
        } else {
            (1 << (1 + self.exp + self.man)) - 1
        }
    }
    /// Splits `bits` into sign, exponent and fraction.
    pub fn split(self, bits: u32) -> Parts {
        Parts {
            sign: (bits >> (self.exp + self.man)) & 1,
            exp: (bits >> self.man) & self.exp_max(),
            man: (bits & ((1u32 << self.man) - 1)) as u64,
        }
    }
    /// Joins fields into bits (fields are masked to their widths).
    pub fn join(self, p: Parts) -> u32 {
        ((p.sign & 1) << (self.exp + self.man))
            | ((p.exp & self.exp_max()) << self.man)
            | (p.man as u32 & ((1u32 << self.man) - 1))
    }
    /// `SetToInf`: the largest finite value with sign `sign`.
    pub fn max_finite(self, sign: u32) -> u32 {
        self.join(Parts {
            sign,
            exp: self.exp_max() - 1,
            man: (1u64 << self.man) - 1,
        })
    }
    /// Whether `bits` is a NaN (exponent all ones, fraction ≠ 0).
    pub fn is_nan(self, bits: u32) -> bool {
        let p = self.split(bits);
        p.exp == self.exp_max() && p.man != 0
    }
    /// Whether `bits` is ±0.
    pub fn is_zero(self, bits: u32) -> bool {
        let p = self.split(bits);
        p.exp == 0 && p.man == 0
    }
}

/// Rounds the `iw`-bit value `x` to its top `ow` bits, nearest-even
/// (`FpMantRNE`). Returns the rounded `ow`-bit value (wrapped to 0 on
/// overflow) and whether rounding carried out of `ow` bits.
pub fn mant_rne(x: u128, iw: u32, ow: u32) -> (u64, bool) {
    if iw <= ow {
        return ((x << (ow - iw)) as u64, false);
    }
    let t = iw - ow;
    let top = (x >> t) & ((1u128 << ow) - 1);
    let guard = (x >> (t - 1)) & 1 == 1;
    let sticky = x & ((1u128 << (t - 1)) - 1) != 0;
    let lsb = top & 1 == 1;
    let carry = guard && (sticky || lsb);
    let all_ones = top == (1u128 << ow) - 1;
    let sum = (top + carry as u128) & ((1u128 << ow) - 1);
    (sum as u64, carry && all_ones)
}

/// Leading zeros of `x` in a `w`-bit field (`w` for zero).
fn lead_zero(x: u128, w: u32) -> u32 {
    if x == 0 {
        w
    } else {
        x.leading_zeros() - (128 - w)
    }
}

/// `FpAdd<E,M>`: a + b in format `f`, as described in the module doc.
pub fn add(f: Fmt, a: u32, b: u32) -> u32 {
    let m = f.man;
    let pa = f.split(a);
    let pb = f.split(b);
    let implied = |p: &Parts| -> u128 {
        let one = if p.exp == 0 && p.man == 0 {
            0
        } else {
            1u128 << m
        };
        one | p.man as u128
    };
    let (ma, mb) = (implied(&pa), implied(&pb));
    let a_greater = pa.exp > pb.exp || (pa.exp == pb.exp && pa.man >= pb.man);
    let (big, small, mbig, msmall) = if a_greater {
        (pa, pb, ma, mb)
    } else {
        (pb, pa, mb, ma)
    };
    let more = m + 2; // kMantMoreWidth
    let iw = more + m + 1; // InternalMantWidth = 2M+3
    let diff = big.exp - small.exp;
    let big_i = mbig << more;
    let small_i = if diff <= more {
        msmall << (more - diff)
    } else {
        let r = diff - more;
        if r >= 128 {
            0
        } else {
            msmall >> r
        }
    };
    let sign = big.sign;
    let mut exp = big.exp;
    let sum = if big.sign == small.sign {
        big_i + small_i
    } else {
        big_i - small_i
    };
    let mut inf = false;
    let mut int_mant: u128;
    if sum >> iw & 1 == 1 {
        if exp < f.exp_max() - 1 {
            exp += 1;
            int_mant = sum >> 1;
        } else {
            inf = true;
            int_mant = 0;
        }
    } else {
        int_mant = sum;
        // FpNormalize
        let zc = lead_zero(int_mant, iw);
        if exp <= zc || int_mant == 0 {
            exp = 0;
            int_mant = 0;
        } else {
            exp -= zc;
            int_mant <<= zc;
        }
    }
    let (om, ovf) = mant_rne(int_mant, iw, m + 1);
    if ovf {
        if exp < f.exp_max() - 1 {
            exp += 1;
        } else {
            inf = true;
        }
    }
    let mut out = f.join(Parts { sign, exp, man: om });
    if inf {
        out = f.max_finite(sign);
    }
    if f.is_nan(a) {
        out = a & f.mask();
    } else if f.is_nan(b) {
        out = b & f.mask();
    }
    out
}

/// `FpSub`: a − b = a + (−b).
pub fn sub(f: Fmt, a: u32, b: u32) -> u32 {
    add(f, a, b ^ (1 << (f.exp + f.man)))
}

/// `FpMul<E,M>`: a · b in format `f`: exact product, rounded nearest-even;
/// a zero operand or exponent underflow gives a signed zero, overflow the
/// largest finite value, NaNs propagate.
pub fn mul(f: Fmt, a: u32, b: u32) -> u32 {
    let m = f.man;
    let pa = f.split(a);
    let pb = f.split(b);
    let za = pa.exp == 0 && pa.man == 0;
    let zb = pb.exp == 0 && pb.man == 0;
    let ma = if za { 0 } else { 1u128 << m } | pa.man as u128;
    let mb = if zb { 0 } else { 1u128 << m } | pb.man as u128;
    let prod = ma * mb; // 2M+2 bits
    let sign = pa.sign ^ pb.sign;
    let bias = f.bias();
    let esum = pa.exp + pb.exp;
    let pmw = 2 * m + 1; // pMantWidth
    let mut zero = false;
    let mut inf = false;
    let mut pexp = 0u32;
    let mut pman = 0u128; // pmw bits, no implied one
    if za || zb || esum < bias {
        zero = true;
    } else if esum >= f.exp_max() + bias {
        inf = true;
    } else {
        pexp = esum - bias;
        if prod >> pmw & 1 == 1 {
            if pexp < f.exp_max() - 1 {
                pexp += 1;
                pman = prod & ((1u128 << pmw) - 1);
            } else {
                inf = true;
            }
        } else {
            pman = (prod << 1) & ((1u128 << pmw) - 1);
        }
    }
    // FpMantWidthDec<E, 2M+1, M, DENORM_NO, NAN_NO>
    let mut exp = pexp & f.exp_max();
    let (om1, ovf) = mant_rne(pman | (1u128 << pmw), pmw + 1, m + 1);
    let mut man = om1 & ((1u64 << m) - 1);
    if ovf {
        exp += 1;
        if exp == f.exp_max() {
            inf = true;
        }
    }
    if inf {
        let p = f.split(f.max_finite(sign));
        exp = p.exp;
        man = p.man;
    }
    if zero || exp == 0 {
        exp = 0;
        man = 0;
    }
    if f.is_nan(a) {
        return a & f.mask();
    }
    if f.is_nan(b) {
        return b & f.mask();
    }
    f.join(Parts { sign, exp, man })
}

/// `FpCmp`: whether `a` is strictly greater than `b` by sign, exponent, then
/// fraction (so +0 > −0, and of two equal values `b` is "not smaller").
fn a_greater(f: Fmt, a: u32, b: u32) -> bool {
    let pa = f.split(a);
    let pb = f.split(b);
    let abs_a_greater = pa.exp > pb.exp || (pa.exp == pb.exp && pa.man > pb.man);
    match (pa.sign == 0, pb.sign == 0) {
        (true, true) => abs_a_greater,
        (true, false) => true,
        (false, true) => false,
        (false, false) => !abs_a_greater,
    }
}

/// `FpMax`: the larger of a and b (`b` on ties); a NaN operand is returned
/// (a first).
pub fn max(f: Fmt, a: u32, b: u32) -> u32 {
    let o = if a_greater(f, a, b) { a } else { b };
    nan_first(f, a, b, o)
}

/// `FpMin`: the smaller of a and b (`a` on ties); a NaN operand is returned
/// (a first).
pub fn min(f: Fmt, a: u32, b: u32) -> u32 {
    let o = if a_greater(f, a, b) { b } else { a };
    nan_first(f, a, b, o)
}

fn nan_first(f: Fmt, a: u32, b: u32, o: u32) -> u32 {
    if f.is_nan(a) {
        a & f.mask()
    } else if f.is_nan(b) {
        b & f.mask()
    } else {
        o & f.mask()
    }
}

/// `FpRelu`: a negative value (including −0) becomes +0; NaN and
/// non-negative values pass.
pub fn relu(f: Fmt, x: u32) -> u32 {
    if f.is_nan(x) || f.split(x).sign == 0 {
        x & f.mask()
    } else {
        0
    }
}

/// `FpEql` as used by the SDP X units: 1 (the integer bit pattern) when the
/// bit patterns differ, 0 when equal (`sdp.h`: EQL outputs `a != b`).
pub fn neq_bits(f: Fmt, a: u32, b: u32) -> u32 {
    u32::from((a & f.mask()) != (b & f.mask()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn fp32_add_matches_ieee_on_simple_values() {
        assert_eq!(add(FP32, f(1.5), f(2.25)), f(3.75));
        assert_eq!(add(FP32, f(1.0), f(-0.25)), f(0.75));
        assert_eq!(add(FP32, f(1e30), f(1e-30)), f(1e30));
        assert_eq!(add(FP32, 0, 0), 0);
        // x + (−x): sign of the first (larger on ties) operand.
        assert_eq!(add(FP32, f(-2.0), f(2.0)), 0x8000_0000);
        assert_eq!(add(FP32, f(2.0), f(-2.0)), 0);
        // Overflow saturates to the largest finite value.
        assert_eq!(add(FP32, f(f32::MAX), f(f32::MAX)), f(f32::MAX));
        // 1 + 2^-24 is a tie: RNE keeps 1.0; 1 + 3·2^-25 rounds up (sticky).
        assert_eq!(add(FP32, f(1.0), f(2f32.powi(-24))), f(1.0));
        assert_eq!(
            add(FP32, f(1.0), f(3.0 * 2f32.powi(-25))),
            f(1.0 + 2f32.powi(-23))
        );
        // NaN propagates.
        assert_eq!(add(FP32, 0x7FC0_0001, f(1.0)), 0x7FC0_0001);
    }

    #[test]
    fn fp32_mul() {
        assert_eq!(mul(FP32, f(1.5), f(-2.0)), f(-3.0));
        assert_eq!(mul(FP32, f(0.1), f(0.1)), f(0.1 * 0.1));
        assert_eq!(mul(FP32, f(1e30), f(1e30)), f(f32::MAX));
        assert_eq!(mul(FP32, f(-1e-30), f(1e-30)), 0x8000_0000);
        assert_eq!(mul(FP32, f(-0.0), f(5.0)), 0x8000_0000);
    }

    #[test]
    fn compare_and_relu() {
        assert_eq!(max(FP32, f(0.0), f(-0.0)), f(0.0));
        assert_eq!(max(FP32, f(-0.0), f(0.0)), f(0.0));
        assert_eq!(min(FP32, f(0.0), f(-0.0)), f(-0.0));
        assert_eq!(max(FP32, f(-3.0), f(-2.0)), f(-2.0));
        assert_eq!(min(FP16, 0x3C00, 0xBC00), 0xBC00);
        assert_eq!(relu(FP32, f(-0.0)), 0);
        assert_eq!(relu(FP32, f(-1.0)), 0);
        assert_eq!(relu(FP32, f(1.0)), f(1.0));
    }

    #[test]
    fn fp17_add_and_mul() {
        // fp17 1.0 = 0x7C00; 1 + 1 = 2 = 0x7C00 + (1 << 10).
        assert_eq!(add(FP17, 0x7C00, 0x7C00), 0x8000);
        assert_eq!(mul(FP17, 0x8000, 0x8000), 0x8400);
    }

    /// Random normal fp32 values with exponents in a narrow range.
    fn rand_f32(x: &mut u64, spread: u32) -> f32 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        let e = 127 - spread / 2 + (*x >> 40) as u32 % spread;
        f32::from_bits(((*x as u32) & 0x807F_FFFF) | (e << 23))
    }

    #[test]
    fn fp32_add_equals_ieee_when_no_bit_is_dropped() {
        // With exponents at most M+2 apart nothing is discarded before the
        // rounding, so FpAdd must agree with IEEE round-to-nearest-even.
        let mut x = 17;
        for _ in 0..200_000 {
            let a = rand_f32(&mut x, 20);
            let b = rand_f32(&mut x, 20);
            let ea = (a.to_bits() >> 23) & 0xFF;
            let eb = (b.to_bits() >> 23) & 0xFF;
            if ea.abs_diff(eb) > 25 {
                continue;
            }
            let got = add(FP32, a.to_bits(), b.to_bits());
            let want = a + b;
            if want == 0.0 {
                assert_eq!(f32::from_bits(got), 0.0);
            } else {
                assert_eq!(got, want.to_bits(), "{a} + {b}");
            }
        }
    }

    #[test]
    fn fp32_mul_equals_ieee_for_normal_results() {
        let mut x = 23;
        for _ in 0..200_000 {
            let a = rand_f32(&mut x, 60);
            let b = rand_f32(&mut x, 60);
            assert_eq!(
                mul(FP32, a.to_bits(), b.to_bits()),
                (a * b).to_bits(),
                "{a} * {b}"
            );
        }
    }
}
