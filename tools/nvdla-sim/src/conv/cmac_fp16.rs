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
    /// [`booth_codes`] of `mts` for a positive product (used when this is
    /// the weight; XOR 0o77777777 for a negative one).
    pub codes: u32,
    /// `mts` with the operand's sign (the exact product of two is the
    /// unaligned Booth product).
    pub smts: i32,
}

impl Operand {
    /// Decodes fp16 bits.
    pub fn new(bits: u16) -> Operand {
        let e = (bits >> 10) & 31;
        let frac = (bits & 0x3FF) as u32;
        let sft = if e == 0 { 1 } else { e & 3 };
        let implied = if e != 0 { 1 << 10 } else { 0 };
        let mts = (frac | implied) << sft;
        Operand {
            mts,
            codes: booth_codes(mts, false),
            smts: if bits >> 15 == 1 {
                -(mts as i32)
            } else {
                mts as i32
            },
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
/// constant, modulo 2^32. Within ±1 of ⌊±wt·dat / 2^sft⌋; exact for
/// sft = 0; 0 for sft ≥ 32.
pub fn booth(neg: bool, wt: u32, dat: u32, sft: u32) -> i32 {
    booth_coded(booth_codes(wt, neg), dat, sft)
}

/// The eight 3-bit Booth codes of multiplier `wt` (windows of `wt << 1`),
/// each XOR 7 for a negative product, packed 3 bits apiece.
pub fn booth_codes(wt: u32, neg: bool) -> u32 {
    let w = wt << 1;
    let rev = if neg { 0o77777777 } else { 0 };
    let mut codes = 0;
    for i in 0..8 {
        codes |= ((w >> (2 * i)) & 7) << (3 * i);
    }
    codes ^ rev
}

/// [`booth`] with the multiplier given by its packed [`booth_codes`].
#[inline]
pub fn booth_coded(codes: u32, dat: u32, sft: u32) -> i32 {
    if sft >= 32 {
        return 0;
    }
    let (s, c) = booth_vectors(codes, dat);
    // Sign compensation of the eight rows, per alignment shift.
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
    (s >> sft).wrapping_add(c >> sft).wrapping_add(comp) as i32
}

/// The sign-compensation constant of [`booth_coded`] for shift `sft`.
fn comp(sft: u32) -> u32 {
    match sft {
        0 => 0xAAAB_0000,
        4 => 0xFAAA_B000,
        8 => 0xFFAA_AB00,
        12 => 0xFFFA_AAB0,
        16 => 0xFFFF_AAAB,
        20 => 0xFFFF_FAAB,
        24 => 0xFFFF_FFAB,
        28 => 0xFFFF_FFFB,
        _ => 0,
    }
}

/// [`booth_coded`] computed from the low `sft` bits of the carry-save tree
/// only. With `Q = ±wt·dat − 0xAAAB0000`, the sum and carry vectors add up
/// to Q modulo 2^32, so `⌊S/2^k⌋ + ⌊C/2^k⌋ = ⌊Q/2^k⌋ − cy` modulo
/// 2^(32−k), where `cy` is the carry out of the low k bits of S + C; the
/// multiple of 2^(32−k) is the one that puts the result within 1 of
/// `⌊±wt·dat/2^k⌋` (the hardware's accuracy, checked by the cmod and
/// exhaustively against [`booth_coded`] in the tests). The low bits of
/// the tree depend on few rows, so this is several times cheaper.
/// `wt`/`dat` are the mantissas, `codes` the packed codes of `wt` for the
/// product's sign.
#[inline]
pub fn booth_fast(codes: u32, neg: bool, wt: u32, dat: u32, sft: u32) -> i32 {
    let p = signed_product(neg, wt, dat);
    match sft {
        0 => p as i32,
        4 => booth_k::<4>(codes, p, dat),
        8 => booth_k::<8>(codes, p, dat),
        12 => booth_k::<12>(codes, p, dat),
        16 => booth_k::<16>(codes, p, dat),
        20 => booth_k::<20>(codes, p, dat),
        24 => booth_k::<24>(codes, p, dat),
        28 => booth_k::<28>(codes, p, dat),
        _ if sft >= 32 => 0,
        _ => booth_coded(codes, dat, sft),
    }
}

/// ±wt·dat (branch-free: the sign is random data).
#[inline(always)]
fn signed_product(neg: bool, wt: u32, dat: u32) -> i64 {
    let n = neg as i64;
    (((wt * dat) as i64) ^ -n) + n
}

/// [`booth_fast`] for alignment K (4..=28, a multiple of 4) and the signed
/// exact product `p`.
#[inline(always)]
fn booth_k<const K: u32>(codes: u32, p: i64, dat: u32) -> i32 {
    let cy = low_carry::<K>(codes, dat);
    let q = p - 0xAAAB_0000;
    let r = (q >> K) - cy as i64 + comp(K) as i32 as i64;
    let e = p >> K;
    // (r − e) modulo 2^(32−K), centred on 0.
    let bits = 64 - (32 - K);
    let d = ((r - e) << bits) >> bits;
    (e + d) as i32
}

/// The carry out of bit K of (S mod 2^K) + (C mod 2^K) for the tree of
/// [`booth_vectors`]: the same rows and adders, masked to K bits (rows
/// that start at or above bit K vanish at compile time).
#[inline(always)]
fn low_carry<const K: u32>(codes: u32, dat: u32) -> u32 {
    let m = (1u32 << K) - 1;
    let d2 = dat << 1;
    let pp_of = [
        0x10000,
        dat | 0x10000,
        dat | 0x10000,
        d2 | 0x10000,
        !d2 & 0xFFFF,
        !dat & 0xFFFF,
        !dat & 0xFFFF,
        0x10000,
    ];
    let code = |i: u32| ((codes >> (3 * i)) & 7) as usize;
    let pp = |i: u32, sh: u32| {
        if sh >= K {
            0
        } else {
            (pp_of[code(i)] << sh) & m
        }
    };
    let inv = |i: u32, sh: u32| if sh >= K { 0 } else { (INV[code(i)] << sh) & m };
    let csa = |a: u32, b: u32, c: u32| (a ^ b ^ c, (((a & b) | (b & c) | (a & c)) << 1) & m);
    let (s, c) = csa(pp(0, 0), pp(1, 2) | inv(0, 0), pp(2, 4) | inv(1, 2));
    let (s, c) = csa(s, c, pp(3, 6) | inv(2, 4));
    let (s0, c0) = csa(s, c, inv(3, 6));
    let (s, c) = csa(pp(4, 8), pp(5, 10) | inv(4, 8), pp(6, 12) | inv(5, 10));
    let (s, c) = csa(s, c, pp(7, 14) | inv(6, 12));
    let (s1, c1) = csa(s, c, inv(7, 14));
    let (s, c) = csa(s0, c0, s1);
    let (s, c) = csa(s, c, c1);
    (s + c) >> K
}

/// `inv` bit of each code: codes 4, 5, 6 select a negative row.
const INV: [u32; 8] = [0, 0, 0, 0, 1, 1, 1, 0];

/// A 3:2 carry-save adder (the carry vector shifted left, modulo 2^32).
#[inline(always)]
fn csa(a: u32, b: u32, c: u32) -> (u32, u32) {
    (a ^ b ^ c, ((a & b) | (b & c) | (a & c)) << 1)
}

/// The sum and carry vectors of the CMAC's Booth multiplier tree
/// (cmod `cal_fp16_booth`). Each code selects a partial product: 0 and 7
/// → 0, 1 and 2 → dat, 3 → 2·dat (all with the sign-extension bit
/// 0x10000), 4 → the 16-bit complement of 2·dat, 5 and 6 → that of dat
/// (with an `inv` bit, the +1 of the two's complement, placed in the next
/// row). The ten rows are reduced by two trees of three carry-save adders
/// (rows 0..5 and 5..10) and two more adders joining them.
#[inline(always)]
pub fn booth_vectors(codes: u32, dat: u32) -> (u32, u32) {
    let d2 = dat << 1;
    let pp_of = [
        0x10000,
        dat | 0x10000,
        dat | 0x10000,
        d2 | 0x10000,
        !d2 & 0xFFFF,
        !dat & 0xFFFF,
        !dat & 0xFFFF,
        0x10000,
    ];
    let code = |i: u32| ((codes >> (3 * i)) & 7) as usize;
    let pp = |i: u32| pp_of[code(i)];
    let inv = |i: u32| INV[code(i)];
    let (s, c) = csa(pp(0), (pp(1) << 2) | inv(0), (pp(2) << 4) | (inv(1) << 2));
    let (s, c) = csa(s, c, (pp(3) << 6) | (inv(2) << 4));
    let (s0, c0) = csa(s, c, inv(3) << 6);
    let (s, c) = csa(
        pp(4) << 8,
        (pp(5) << 10) | (inv(4) << 8),
        (pp(6) << 12) | (inv(5) << 10),
    );
    let (s, c) = csa(s, c, (pp(7) << 14) | (inv(6) << 12));
    let (s1, c1) = csa(s, c, inv(7) << 14);
    let (s, c) = csa(s0, c0, s1);
    csa(s, c, c1)
}

/// Mask of the 38-bit block mantissa.
const MANT38: u64 = (1 << 38) - 1;

/// One block: the pairs `(data[i], weight[i])`, at most 64 (the channel
/// index is the position in the slices: it decides which NaN wins —
/// weights first, then data, lowest channel first). Returns the 44-bit word.
pub fn block(data: &[Operand], weight: &[Operand]) -> u64 {
    let n = data.len().min(weight.len());
    let (data, weight) = (&data[..n], &weight[..n]);
    if let Some(w) = nan_word(data, weight) {
        return w;
    }
    block_finite(data, weight)
}

/// The NaN word of a block that has a NaN operand, else `None`.
pub fn nan_word(data: &[Operand], weight: &[Operand]) -> Option<u64> {
    let o = weight
        .iter()
        .find(|o| o.nan)
        .or_else(|| data.iter().find(|o| o.nan))?;
    Some((0x3F << 38) | ((o.sign as u64) << 37) | (o.frac() << 27))
}

/// [`block`] for operands known to hold no NaN (the caller checked).
///
/// Pairs are bucketed by alignment first, so that each bucket runs the
/// Booth evaluation specialised for its shift without data-dependent
/// branches (the products are summed exactly, so the order is free).
pub fn block_finite(data: &[Operand], weight: &[Operand]) -> u64 {
    let n = data.len().min(weight.len()).min(64);
    let (data, weight) = (&data[..n], &weight[..n]);
    // Exponent group sum per pair, 0xFF for a masked (zero) pair.
    let mut grp = [0xFFu8; 64];
    let mut max = 0u8;
    for ((g, d), w) in grp.iter_mut().zip(data).zip(weight) {
        let active = (d.nonzero & w.nonzero) as u8;
        let s = d.grp + w.grp;
        *g = s | active.wrapping_sub(1); // 0xFF when masked
        max = max.max(s & active.wrapping_neg());
    }
    // Bucket of each lane: alignment / 4 (0..=7); 8 for masked pairs (0xFF
    // wraps to a huge difference) and alignments ≥ 32, which contribute 0.
    let mut bucket_of = [8u8; 64];
    for (t, &g) in bucket_of.iter_mut().zip(&grp[..n]) {
        *t = (max as u32).wrapping_sub(g as u32).min(8) as u8;
    }
    let sum = bucket_sum(&bucket_of, data, weight, true);
    (((max as u64) << 2 & 0x3F) << 38) | (sum as u64 & MANT38)
}

/// The key of an operand for [`block_keyed`]: its exponent group, or
/// [`MASKED`] for a zero.
pub fn key(o: &Operand) -> u8 {
    if o.nonzero {
        o.grp
    } else {
        MASKED
    }
}

/// Above this many aligned lanes in a block, [`block_keyed`] evaluates them
/// bucket by bucket rather than one by one.
const FEW_ALIGNED: u32 = 8;

/// [`key`] of a zero operand: a sum of two keys is a group sum (≤ 14)
/// when both operands are non-zero, at least `MASKED` otherwise.
pub const MASKED: u8 = 0x40;

/// [`block_finite`] with the operands' [`key`]s given as byte arrays
/// (`dk[i]`, `wk[i]` for `data[i]`, `weight[i]`): the same word (no NaN
/// operand allowed), computed for blocks whose pairs are mostly unaligned
/// (93 % of the lanes of ResNet-50): the exponent bookkeeping on contiguous
/// bytes (vectorisable), the unaligned products summed branch-free over all
/// lanes, and the aligned lanes evaluated one by one ([`booth_fast`]) when
/// they are few, else bucket by bucket as [`block_finite`] does.
pub fn block_keyed(dk: &[u8], wk: &[u8], data: &[Operand], weight: &[Operand]) -> u64 {
    let n = data
        .len()
        .min(weight.len())
        .min(dk.len())
        .min(wk.len())
        .min(64);
    // Fixed-length loops over all 64 lanes (they vectorise); lanes past `n`
    // are masked. Sums of a masked pair lie in [MASKED, 2·MASKED].
    let mut sums = [2 * MASKED; 64];
    for ((g, &a), &b) in sums.iter_mut().zip(&dk[..n]).zip(&wk[..n]) {
        *g = a + b;
    }
    let max = sums
        .iter()
        .fold(0u8, |m, &g| m.max(g & ((g < MASKED) as u8).wrapping_neg()));
    // max − g wraps to at least 256 − 2·MASKED for a masked pair: bucket 8.
    let mut bucket_of = [8u8; 64];
    for (t, &g) in bucket_of.iter_mut().zip(&sums) {
        *t = max.wrapping_sub(g).min(8);
    }
    let (data, weight) = (&data[..n], &weight[..n]);
    // Unaligned pairs (most of them in real layers): the exact products,
    // branch-free over all lanes (a zero operand has mantissa 0).
    let mut sum: i64 = data
        .iter()
        .zip(weight)
        .zip(&bucket_of)
        .map(|((d, w), &t)| ((d.smts * w.smts) & ((t == 0) as i32).wrapping_neg()) as i64)
        .sum();
    // Aligned pairs (buckets 1..=7), one by one: a bit set of the lanes
    // whose bucket has a bit among 0b111 (bucket 8 has none).
    let mut shifted = 0u64;
    for (c, w) in bucket_of.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        // High bit of each byte: its low three bits are not all zero.
        let nz = ((w & 0x0707_0707_0707_0707) + 0x7F7F_7F7F_7F7F_7F7F) >> 7;
        let bytes = nz & 0x0101_0101_0101_0101;
        shifted |= (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * c);
    }
    if shifted.count_ones() > FEW_ALIGNED {
        // Many: bucket by bucket, without data-dependent branches.
        sum += bucket_sum(&bucket_of, data, weight, false);
        shifted = 0;
    }
    while shifted != 0 {
        let i = shifted.trailing_zeros() as usize;
        shifted &= shifted - 1;
        let (d, w) = (&data[i], &weight[i]);
        let neg = d.sign ^ w.sign;
        let codes = w.codes ^ (0o7777_7777 * neg as u32);
        sum += booth_fast(codes, neg, w.mts, d.mts, (bucket_of[i] as u32) << 2) as i64;
    }
    (((max as u64) << 2 & 0x3F) << 38) | (sum as u64 & MANT38)
}

/// The block mantissa: the sum over lanes of the Booth products aligned by
/// `bucket_of[i]` · 4 bits (bucket 8: masked or shifted out, 0). Lanes are
/// `data.len()` (≤ 64, = `weight.len()`).
///
/// With `aligned0` false, bucket 0 (no alignment) is left out (the caller
/// adds it).
fn bucket_sum(bucket_of: &[u8; 64], data: &[Operand], weight: &[Operand], aligned0: bool) -> i64 {
    let n = data.len();
    // Lanes of bucket `t` as a bit set: four bit planes of the bucket
    // numbers, eight lanes per 64-bit word (the multiply gathers the low
    // bit of each byte into the top byte), then one AND per plane.
    let mut planes = [0u64; 4];
    for (c, w) in bucket_of.chunks_exact(8).take(n.div_ceil(8)).enumerate() {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        for (b, plane) in planes.iter_mut().enumerate() {
            let bytes = (w >> b) & 0x0101_0101_0101_0101;
            *plane |= (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * c);
        }
    }
    let valid = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let lanes_of = |t: u8| {
        planes.iter().enumerate().fold(valid, |m, (b, &p)| {
            m & if (t >> b) & 1 == 1 { p } else { !p }
        })
    };
    let lanes = |t: u8| {
        let mut m = lanes_of(t);
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                i
            })
        })
    };
    let pair = |i: u8| (&data[i as usize], &weight[i as usize]);
    let mut sum: i64 = 0;
    for i in lanes(0).filter(|_| aligned0) {
        // The Booth tree is exact without alignment.
        let (d, w) = pair(i);
        sum += (d.smts * w.smts) as i64;
    }
    macro_rules! bucket {
        ($t:expr, $k:expr) => {
            for i in lanes($t) {
                let (d, w) = pair(i);
                let neg = d.sign ^ w.sign;
                let codes = w.codes ^ (0o7777_7777 * neg as u32);
                let p = signed_product(neg, w.mts, d.mts);
                sum += booth_k::<$k>(codes, p, d.mts) as i64;
            }
        };
    }
    bucket!(1, 4);
    bucket!(2, 8);
    bucket!(3, 12);
    bucket!(4, 16);
    bucket!(5, 20);
    bucket!(6, 24);
    bucket!(7, 28);
    sum
}

/// [`block_finite`] for a few pairs (the compacted blocks of grouped and
/// depthwise convolutions): the channel loop of the cmod, with the Booth
/// product of each active pair evaluated by [`booth_fast`] for its
/// alignment. Same word as [`block_finite`] (an exact sum, so the lane
/// order is free); no NaN operand allowed.
pub fn block_few(data: &[Operand], weight: &[Operand]) -> u64 {
    let n = data.len().min(weight.len()).min(64);
    let (data, weight) = (&data[..n], &weight[..n]);
    if let ([d], [w]) = (data, weight) {
        // One pair: no alignment, the exact product (or a masked 0).
        if !(d.nonzero & w.nonzero) {
            return 0;
        }
        let max = d.grp + w.grp;
        let p = (d.smts * w.smts) as i64;
        return (((max as u64) << 2 & 0x3F) << 38) | (p as u64 & MANT38);
    }
    let mut max = 0u8;
    for (d, w) in data.iter().zip(weight) {
        if d.nonzero & w.nonzero {
            max = max.max(d.grp + w.grp);
        }
    }
    let mut sum: i64 = 0;
    for (d, w) in data.iter().zip(weight) {
        if d.nonzero & w.nonzero {
            let neg = d.sign ^ w.sign;
            let codes = w.codes ^ (0o7777_7777 * neg as u32);
            let sft = ((max - (d.grp + w.grp)) as u32) << 2;
            sum += booth_fast(codes, neg, w.mts, d.mts, sft) as i64;
        }
    }
    (((max as u64) << 2 & 0x3F) << 38) | (sum as u64 & MANT38)
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
    fn booth_exact_at_shift_zero_for_every_data_mantissa() {
        for wt in [
            0x3FFF, 0x2000, 0x1555, 0x0801, 0x0400, 0x3A5C, 0x0001, 0x2AAA,
        ] {
            for dat in 0..0x4000u32 {
                for neg in [false, true] {
                    let p = (wt * dat) as i32;
                    assert_eq!(booth(neg, wt, dat, 0), if neg { -p } else { p });
                }
            }
        }
    }

    #[test]
    fn booth_fast_equals_the_full_tree() {
        // Every normal/denormal mantissa shape of the data against a spread
        // of weights, both signs, every alignment (the `fp16_exhaustive`
        // example in the tests covers all pairs).
        let mts = |i: u32| {
            let frac = i & 0x3FF;
            match i >> 10 {
                0 => frac << 1,
                e => (frac | 0x400) << (e - 1),
            }
        };
        let mut x: u32 = 1;
        for _ in 0..64 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let wt = mts((x >> 8) % 5120);
            for i in (0..5120).step_by(3) {
                let dat = mts(i);
                for neg in [false, true] {
                    let codes = booth_codes(wt, neg);
                    for sft in (0..=32).step_by(4) {
                        assert_eq!(
                            booth_fast(codes, neg, wt, dat, sft),
                            booth_coded(codes, dat, sft),
                            "{wt} {dat} {neg} {sft}"
                        );
                    }
                }
            }
        }
    }

    /// The cmod's per-channel loop, with the plain Booth evaluation.
    fn block_reference(data: &[Operand], weight: &[Operand]) -> u64 {
        let mut max = 0;
        for (d, w) in data.iter().zip(weight) {
            if d.nonzero && w.nonzero {
                max = max.max(d.grp as u32 + w.grp as u32);
            }
        }
        let mut sum = 0i64;
        for (d, w) in data.iter().zip(weight) {
            if d.nonzero && w.nonzero {
                let sft = (max - (d.grp as u32 + w.grp as u32)) << 2;
                sum += booth(d.sign ^ w.sign, w.mts, d.mts, sft) as i64;
            }
        }
        ((((max << 2) & 0x3F) as u64) << 38) | (sum as u64 & MANT38)
    }

    #[test]
    fn bucketed_block_equals_the_channel_loop() {
        let mut x: u64 = 99;
        let mut bits = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly finite values of all magnitudes, some zeros.
            let b = (x >> 20) as u16;
            if b & 0x7C00 == 0x7C00 || x & 7 == 0 {
                b & 0x8000
            } else {
                b
            }
        };
        for n in [1, 2, 7, 64] {
            for _ in 0..2000 {
                let d: Vec<Operand> = (0..n).map(|_| Operand::new(bits())).collect();
                let w: Vec<Operand> = (0..n).map(|_| Operand::new(bits())).collect();
                assert_eq!(block_finite(&d, &w), block_reference(&d, &w));
                assert_eq!(block(&d, &w), block_reference(&d, &w));
                assert_eq!(block_few(&d, &w), block_reference(&d, &w));
                let dk: Vec<u8> = d.iter().map(key).collect();
                let wk: Vec<u8> = w.iter().map(key).collect();
                assert_eq!(block_keyed(&dk, &wk, &d, &w), block_reference(&d, &w));
            }
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
