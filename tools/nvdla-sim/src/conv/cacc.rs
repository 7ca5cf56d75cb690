//! The convolution accumulator (CACC), nvdla-arith.md §5.4–5.5.
//!
//! * Integer: blocks are added into a 48-bit register saturating after each
//!   add ([`acc48_add`]); the output is `clip_truncate`: RHAZ(x / 2^t) then
//!   sat(32) ([`clip_truncate`]).
//! * FP16: blocks (44-bit MAC words, see [`super::cmac_fp16`]) are added into
//!   a custom 48-bit float ([`Fp48`]: 8-bit exponent, 40-bit two's-complement
//!   mantissa, value = mant · 2^(exp − 101)) by [`Fp48::accumulate`], and the result
//!   is rounded to fp32 bits by [`Fp48::to_fp32`] (cmod `cacc_fp16_add`,
//!   `cacc_fp48_to_fp32`).

use crate::num::int;

/// 48-bit saturating accumulation.
pub fn acc48_add(acc: i64, block: i64) -> i64 {
    int::sat(acc as i128 + block as i128, 48)
}

/// `clip_truncate` with the 5-bit `D_CLIP_CFG` truncate `t`.
pub fn clip_truncate(acc: i64, t: u8) -> i32 {
    int::shr_rhaz_sat(acc as i128, (t & 31) as u32, 32) as i32
}

const M40: u64 = (1 << 40) - 1;

/// Sign-extends the low `bits` bits.
fn sx(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

fn bit(v: i64, b: u32) -> bool {
    (v >> b) & 1 == 1
}

/// The CACC FP16 accumulator word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fp48 {
    /// 8-bit exponent (255 = NaN).
    pub exp: u32,
    /// 40-bit two's-complement mantissa, sign-extended.
    pub mant: i64,
}

impl Fp48 {
    /// `cacc_fp16_add`: the accumulator plus one 44-bit MAC word.
    pub fn accumulate(self, mac: u64) -> Fp48 {
        let mac_exp = ((mac >> 38) & 0x3F) as i64;
        let mac_m = sx(mac, 38);
        if mac_m == 0 {
            return self;
        }
        if self.exp == 255 {
            return Fp48 {
                exp: 255,
                mant: self.mant & !((1i64 << 29) - 1),
            };
        }
        if mac_exp == 63 {
            let top = ((mac_m >> 27) & 0x7FF) as u64;
            return Fp48 {
                exp: 255,
                mant: sx(top << 29, 40),
            };
        }
        // Normalise the MAC mantissa to bits [39:2].
        // Bits below bit 37 equal to it (the cmod scans down from bit 36).
        let s37 = bit(mac_m, 37);
        let u = (if s37 { !mac_m } else { mac_m }) as u64 & ((1 << 38) - 1);
        let shift0 = u.leading_zeros() - 27;
        let reg = sx((mac_m << shift0) as u64, 38);
        let mut mac_ext = reg << 2;
        let mac_exp_reg = (mac_exp - shift0 as i64 + 49) & 0xFF;
        let acc_exp = if self.mant == 0 { 0 } else { self.exp as i64 };
        let mut acc_ext = self.mant;
        // Align.
        let mut shift_out: u64 = 0;
        let mut bigger = mac_exp_reg;
        if mac_exp_reg > acc_exp {
            let d = (mac_exp_reg - acc_exp) as u32;
            if d <= 40 {
                shift_out = ((acc_ext as u64) & ((1u64 << d) - 1)) << (40 - d);
                acc_ext >>= d;
            } else {
                acc_ext = 0;
            }
        } else if mac_exp_reg < acc_exp {
            bigger = acc_exp;
            let d = (acc_exp - mac_exp_reg) as u32;
            if d <= 40 {
                shift_out = ((mac_ext as u64) & ((1u64 << d) - 1)) << (40 - d);
                mac_ext >>= d;
            } else {
                mac_ext = 0;
            }
        }
        // Add and normalise.
        let tmp = sx((acc_ext.wrapping_add(mac_ext)) as u64, 40);
        let mut high1 = false;
        let overflow;
        let sum;
        let mut exp;
        if bit(mac_ext, 39) == bit(acc_ext, 39) && bit(mac_ext, 39) != bit(tmp, 39) {
            overflow = true;
            high1 = bit(tmp, 0);
            let top = (bit(mac_ext, 39) as u64) << 39;
            sum = sx(top | (((tmp as u64) & M40) >> 1), 40);
            exp = bigger + 1;
        } else if bit(tmp, 38) == bit(tmp, 39) {
            overflow = false;
            // Bits below bit 39 equal to it (the cmod scans down from bit 38).
            let s39 = bit(tmp, 39);
            let u = (if s39 { !tmp } else { tmp }) as u64 & M40;
            let n = u.leading_zeros() - 25; // 1..=39
            let hi = ((tmp as u64) << n) & M40;
            let lo = shift_out >> (40 - n);
            sum = sx(hi | lo, 40);
            shift_out = (shift_out << n) & M40;
            exp = bigger - n as i64;
        } else {
            overflow = false;
            sum = tmp;
            exp = bigger;
        }
        // Round back the shifted-out bits.
        let guard0 = (shift_out >> 39) & 1 == 1;
        let sticky0 = shift_out & ((1u64 << 39) - 1) != 0;
        let sticky1 = shift_out != 0;
        let neg = bit(sum, 39);
        let need = match (overflow, neg) {
            (true, true) => high1 && sticky1,
            (true, false) => high1,
            (false, true) => guard0 && sticky0,
            (false, false) => guard0,
        };
        let round = if need {
            sx((sum as u64).wrapping_add(1), 40)
        } else {
            sum
        };
        let fin = if bit(round, 39) != neg {
            exp += 1;
            sx(((neg as u64) << 39) | (((round as u64) & M40) >> 1), 40)
        } else {
            round
        };
        let exp = if fin == 0 { 0 } else { (exp & 0xFF) as u32 };
        Fp48 { exp, mant: fin }
    }

    /// `cacc_fp48_to_fp32`: fp32 bits for the SDP (guard-only rounding of
    /// the magnitude, i.e. round half away from zero).
    pub fn to_fp32(self) -> u32 {
        let m = (self.mant as u64) & M40;
        let sign = ((m >> 39) & 1) as u32;
        if self.exp == 255 {
            return (sign << 31) | (255 << 23) | ((m >> 29) & 0x3FF) as u32;
        }
        if m == 1 << 39 {
            return (1 << 31) | (((self.exp + 65) & 0xFF) << 23);
        }
        let mo = if sign == 1 {
            (1u64 << 39) | ((!m).wrapping_add(1) & ((1u64 << 39) - 1))
        } else {
            m
        };
        let mut exp = if m == 0 { 0 } else { (self.exp + 64) & 0xFF };
        let frac = if (mo >> 14) & 1 == 1 {
            let mut t = (((mo >> 15) & ((1 << 25) - 1)) + 1) & ((1 << 25) - 1);
            if (t >> 24) & 1 != (mo >> 39) & 1 {
                t = ((sign as u64) << 24) | (t >> 1);
                exp = (exp + 1) & 0xFF;
            }
            (t & ((1 << 23) - 1)) as u32
        } else {
            ((mo >> 15) & ((1 << 23) - 1)) as u32
        };
        (sign << 31) | (exp << 23) | frac
    }

    /// The exact value (for tests).
    pub fn value(self) -> f64 {
        self.mant as f64 * 2f64.powi(self.exp as i32 - 101)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mac_word(exp: u64, mant: i64) -> u64 {
        (exp << 38) | (mant as u64 & ((1 << 38) - 1))
    }

    #[test]
    fn int_accumulator() {
        assert_eq!(acc48_add((1 << 47) - 10, 100), (1 << 47) - 1);
        assert_eq!(acc48_add(-(1 << 47) + 10, -100), -(1 << 47));
        assert_eq!(clip_truncate(5, 1), 3);
        assert_eq!(clip_truncate(-5, 1), -3);
        assert_eq!(clip_truncate(1 << 40, 0), i32::MAX);
        assert_eq!(clip_truncate(-(1 << 40), 3), i32::MIN);
    }

    #[test]
    fn fp48_exact_small_sums() {
        // 1.0 (exp 24, mant 2^26) three times, then −0.5.
        let one = mac_word(24, 1 << 26);
        let half = mac_word(24, -(1 << 25));
        let mut acc = Fp48::default();
        for _ in 0..3 {
            acc = acc.accumulate(one);
        }
        assert_eq!(acc.value(), 3.0);
        acc = acc.accumulate(half);
        assert_eq!(acc.value(), 2.5);
        assert_eq!(f32::from_bits(acc.to_fp32()), 2.5);
        let neg = Fp48::default().accumulate(mac_word(24, -(3 << 26)));
        assert_eq!(f32::from_bits(neg.to_fp32()), -3.0);
        assert_eq!(Fp48::default().to_fp32(), 0);
    }

    #[test]
    fn fp48_to_fp32_rounds_half_away() {
        // 1 + 2^-24 (a tie at fp32 precision) → 1 + 2^-23.
        let acc = Fp48 {
            exp: 63,
            mant: (1 << 38) + (1 << 14),
        };
        assert_eq!(acc.value(), 1.0 + 2f64.powi(-24));
        assert_eq!(f32::from_bits(acc.to_fp32()), 1.0 + 2f32.powi(-23));
        let acc = Fp48 {
            exp: 63,
            mant: -((1 << 38) + (1 << 14)),
        };
        assert_eq!(f32::from_bits(acc.to_fp32()), -(1.0 + 2f32.powi(-23)));
    }

    /// The cmod's bit-scanning normalisation, for comparison.
    fn lead_equal(v: i64, top: u32) -> u32 {
        let s = bit(v, top);
        let mut i = top as i32 - 1;
        while i >= 0 && bit(v, i as u32) == s {
            i -= 1;
        }
        (top as i32 - 1 - i) as u32
    }

    #[test]
    fn leading_sign_counts_match_the_bit_scan() {
        let mut x: u64 = 5;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x as i64) >> (x % 60);
            let m38 = sx(v as u64, 38);
            let u = (if bit(m38, 37) { !m38 } else { m38 }) as u64 & ((1 << 38) - 1);
            assert_eq!(u.leading_zeros() - 27, lead_equal(m38, 37));
            let m40 = sx(v as u64, 40);
            if bit(m40, 38) == bit(m40, 39) {
                let u = (if bit(m40, 39) { !m40 } else { m40 }) as u64 & M40;
                assert_eq!(u.leading_zeros() - 25, lead_equal(m40, 39));
            }
        }
        assert_eq!(lead_equal(-1, 37), 37);
        assert_eq!(lead_equal(0, 39), 39);
    }

    #[test]
    fn fp48_add_within_an_ulp_of_exact() {
        // The cmod's own checker: each add is within 1 ulp of the exact sum.
        let mut x: u64 = 3;
        for _ in 0..2000 {
            let mut acc = Fp48::default();
            for _ in 0..20 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let e = ((x >> 40) % 15) * 4;
                let m = (x as i64) >> 30; // 34-bit signed
                let exact = acc.value() + m as f64 * 2f64.powi(e as i32 - 50);
                acc = acc.accumulate(mac_word(e, m));
                let ulp = 2f64.powi(acc.exp as i32 - 101);
                assert!((acc.value() - exact).abs() <= ulp, "{acc:?} {exact}");
                assert!(acc.mant == 0 || (acc.mant >> 38) & 1 != (acc.mant >> 39) & 1);
            }
        }
    }
}
