//! The FP16 CMAC: one block-floating-point dot product of up to 64
//! (data, weight) fp16 pairs (nvdla-arith.md §5.5, NVIDIA cmod
//! `NV_NVDLA_cmac.h` `calculation_fp16`).
//!
//! In: fp16 bit patterns. Out: a 44-bit MAC word — a 6-bit exponent field
//! above a 38-bit two's-complement mantissa, value = mant · 2^(exp − 50);
//! exponent 63 marks a NaN (sign at bit 37, fraction at bits 36..27).
//!
//! Per active pair (both operands non-zero): with 5-bit exponents Ed, Ew,
//! `sft = (E == 0) ? 1 : E & 3`, mantissa `m = (frac | implied) << sft`,
//! group `S = (Ed >> 2) + (Ew >> 2)`; the block exponent is 4·max S and every
//! product is the radix-4 Booth product of the two mantissas shifted right
//! by 4·(max − S), with the sum and carry vectors truncated separately
//! ([`booth`]). The block mantissa is the exact sum of the products.

/// An fp16 operand decoded for the MAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Operand {
    /// Mantissa with the implied bit, shifted left by `E & 3` (1 for E = 0).
    pub mts: u32,
    /// Exponent group `E >> 2`.
    pub grp: u8,
    /// Sign bit.
    pub sign: bool,
    /// Non-zero (the data / weight mask bit).
    pub nonzero: bool,
    /// NaN (exponent 31, fraction ≠ 0).
    pub nan: bool,
}

impl Operand {
    /// Decodes fp16 bits.
    pub fn new(bits: u16) -> Operand {
        let e = (bits >> 10) & 31;
        let frac = (bits & 0x3FF) as u32;
        let sft = if e == 0 { 1 } else { e & 3 };
        let implied = if e != 0 { 1 << 10 } else { 0 };
        Operand {
            mts: (frac | implied) << sft,
            grp: (e >> 2) as u8,
            sign: bits >> 15 == 1,
            nonzero: bits & 0x7FFF != 0,
            nan: e == 31 && frac != 0,
        }
    }
    /// The fraction bits of a NaN (bits 9..0 of the encoding).
    fn frac(&self) -> u64 {
        // mts = (frac | 1 << 10) << 3 for E = 31.
        ((self.mts >> 3) & 0x3FF) as u64
    }
}

/// `cal_fp16_booth`: the product of the mantissas `wt` and `dat` (≤ 14 bits
/// each) with sign `neg`, shifted right by `sft` (a multiple of 4) the way
/// the hardware does: radix-4 Booth partial products with the sign folded
/// into the codes, a carry-save tree reduced to a sum and a carry vector,
/// both shifted right by `sft`, then added with a sign-compensation
/// constant, modulo 2^32. Within ±1 of ⌊±wt·dat / 2^sft⌋; 0 for sft ≥ 32.
pub fn booth(neg: bool, wt: u32, dat: u32, sft: u32) -> i32 {
    if sft >= 32 {
        return 0;
    }
    let rev = if neg { 7 } else { 0 };
    let mut w = wt << 1;
    let mut pp = [0u32; 8];
    let mut inv = [0u32; 8];
    for i in 0..8 {
        let code = (w & 7) ^ rev;
        w >>= 2;
        (pp[i], inv[i]) = match code {
            1 | 2 => (dat | 0x10000, 0),
            3 => ((dat << 1) | 0x10000, 0),
            4 => (!(dat << 1) & 0xFFFF, 1),
            5 | 6 => (!dat & 0xFFFF, 1),
            _ => (0x10000, 0), // 0 and 7
        };
    }
    let mut csa = [
        pp[0],
        (pp[1] << 2) | inv[0],
        (pp[2] << 4) | (inv[1] << 2),
        (pp[3] << 6) | (inv[2] << 4),
        inv[3] << 6,
        pp[4] << 8,
        (pp[5] << 10) | (inv[4] << 8),
        (pp[6] << 12) | (inv[5] << 10),
        (pp[7] << 14) | (inv[6] << 12),
        inv[7] << 14,
    ];
    // Three carry-save reductions: entries 0..5, entries 5..10, then the
    // four results together.
    for round in 0..3 {
        let (mut cur, st) = match round {
            0 => (5usize, 0usize),
            1 => (5, 5),
            _ => {
                csa[2] = csa[5];
                csa[3] = csa[6];
                (4, 0)
            }
        };
        while cur >= 3 {
            let groups = cur / 3;
            for j in 0..groups {
                let (a, b, c) = (csa[st + j * 3], csa[st + j * 3 + 1], csa[st + j * 3 + 2]);
                csa[st + j * 2] = a ^ b ^ c;
                csa[st + j * 2 + 1] = ((a & b) | (b & c) | (a & c)) << 1;
            }
            for j in groups * 3..cur {
                csa[st + j - groups] = csa[st + j];
            }
            cur -= groups;
        }
    }
    let comp: u32 = match sft {
        0 => 0xAAAB_0000,
        4 => 0xFAAA_B000,
        8 => 0xFFAA_AB00,
        12 => 0xFFFA_AAB0,
        16 => 0xFFFF_AAAB,
        20 => 0xFFFF_FAAB,
        24 => 0xFFFF_FFAB,
        28 => 0xFFFF_FFFB,
        _ => 0,
    };
    (csa[0] >> sft)
        .wrapping_add(csa[1] >> sft)
        .wrapping_add(comp) as i32
}

/// Mask of the 38-bit block mantissa.
const MANT38: u64 = (1 << 38) - 1;

/// One block: the pairs `(data[i], weight[i])`, at most 64 (the channel
/// index is the position in the slices: it decides which NaN wins —
/// weights first, then data, lowest channel first). Returns the 44-bit word.
pub fn block(data: &[Operand], weight: &[Operand]) -> u64 {
    let n = data.len().min(weight.len());
    let (data, weight) = (&data[..n], &weight[..n]);
    let nan = weight
        .iter()
        .find(|o| o.nan)
        .or_else(|| data.iter().find(|o| o.nan));
    if let Some(o) = nan {
        return (0x3F << 38) | ((o.sign as u64) << 37) | (o.frac() << 27);
    }
    let mut max = 0u32;
    for (d, w) in data.iter().zip(weight) {
        if d.nonzero && w.nonzero {
            max = max.max(d.grp as u32 + w.grp as u32);
        }
    }
    let mut sum: i64 = 0;
    for (d, w) in data.iter().zip(weight) {
        if d.nonzero && w.nonzero {
            let sft = (max - (d.grp as u32 + w.grp as u32)) << 2;
            sum += booth(d.sign ^ w.sign, w.mts, d.mts, sft) as i64;
        }
    }
    (((max << 2) as u64 & 0x3F) << 38) | (sum as u64 & MANT38)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booth_is_exact_without_shift_and_close_with_shift() {
        let mut x: u32 = 7;
        for _ in 0..20_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let wt = (x >> 3) & 0x3FFF;
            let dat = (x >> 17) & 0x3FFF;
            let neg = x & 1 == 1;
            let p = (wt * dat) as i64 * if neg { -1 } else { 1 };
            assert_eq!(booth(neg, wt, dat, 0) as i64, p, "{wt} {dat} {neg}");
            for sft in [4, 8, 12, 16, 20, 24, 28] {
                let b = booth(neg, wt, dat, sft) as i64;
                let exact = p >> sft;
                assert!(
                    (b - exact).abs() <= 1,
                    "{wt} {dat} {neg} {sft}: {b} vs {exact}"
                );
            }
            assert_eq!(booth(neg, wt, dat, 32), 0);
        }
    }

    #[test]
    fn one_times_one() {
        // 1.0 · 1.0: E = 15 → grp 3, sft 3, mts = 1024 << 3; block exp 24,
        // mantissa 2^26: value 2^26 · 2^(24 − 50) = 1.
        let one = Operand::new(0x3C00);
        let w = block(&[one], &[one]);
        assert_eq!(w >> 38, 24);
        assert_eq!(w & MANT38, 1 << 26);
        // −2 · 1.5 = −3 in two's complement.
        let w = block(&[Operand::new(0xC000)], &[Operand::new(0x3E00)]);
        let m = ((w & MANT38) << 26) as i64 >> 26;
        let v = m as f64 * 2f64.powi((w >> 38) as i32 - 50);
        assert_eq!(v, -3.0);
    }

    #[test]
    fn nan_wins() {
        let nan = Operand::new(0xFE01);
        let one = Operand::new(0x3C00);
        let w = block(&[one, nan], &[one, one]);
        assert_eq!(w >> 38, 0x3F);
        assert_eq!((w >> 37) & 1, 1);
        assert_eq!((w >> 27) & 0x3FF, 0x201);
        // Zero operands are masked.
        assert_eq!(block(&[Operand::new(0x8000)], &[one]), 0);
    }
}
