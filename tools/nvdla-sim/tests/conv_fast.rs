//! The fast convolution loops (`conv::run`, which skip zero weights) against
//! the reference loops (`conv::run_reference`, every block over every lane):
//! bit-identical CACC outputs on random problems with all-zero blocks,
//! block-diagonal (grouped, depthwise) weights, denormals, infinities and
//! NaNs, in INT8, INT16 and FP16; and identical outputs for 1 and 2 threads.

mod common;

use common::*;
use onnc_nvdla_sim::conv;
use onnc_nvdla_sim::engine::{Flying, FlyingData, Hw};

/// xorshift64 stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Kinds of FP16 values a test draws from.
#[derive(Clone, Copy)]
struct Fp16Mix {
    /// Per mille of denormals.
    denormal: u64,
    /// Per mille of ±Inf.
    inf: u64,
    /// Per mille of NaNs.
    nan: u64,
}

fn fp16_value(rng: &mut Rng, mix: Fp16Mix) -> i32 {
    let sign = ((rng.next() & 1) << 15) as i32;
    let frac = (rng.next() & 0x3FF) as i32;
    let roll = rng.below(1000);
    if roll < mix.nan {
        0x7C00 | frac.max(1) | sign
    } else if roll < mix.nan + mix.inf {
        0x7C00 | sign
    } else if roll < mix.nan + mix.inf + mix.denormal {
        frac | sign
    } else {
        // Normal numbers over the whole exponent range, some ±0.
        match rng.below(16) {
            0 => sign,
            _ => ((1 + rng.below(30) as i32) << 10) | frac | sign,
        }
    }
}

fn int_value(rng: &mut Rng, prec: u8) -> i32 {
    let lim = if prec == 0 { 128 } else { 32768 };
    rng.below(2 * lim) as i32 - lim as i32
}

/// A random problem: `groups` block-diagonal groups of channels (1 = dense),
/// then a fraction of the remaining weights zeroed lane by lane and whole
/// (k, r, s, super-channel) blocks zeroed, random stride, dilation, padding.
fn random_problem(rng: &mut Rng, prec: u8, groups: usize, mix: Fp16Mix, hw: &Hw) -> Problem {
    let cg = 1 + rng.below(6) as usize;
    let kg = 1 + rng.below(4) as usize;
    let c = cg * groups;
    let k = kg * groups;
    let r = 1 + rng.below(3) as usize;
    let s = 1 + rng.below(3) as usize;
    let h = r + rng.below(5) as usize;
    let w = s + rng.below(5) as usize;
    let mut p = problem(prec, c, (h, w), k, (r, s));
    p.stride = (1 + rng.below(2) as usize, 1 + rng.below(2) as usize);
    p.dil = (1 + rng.below(2) as usize, 1 + rng.below(2) as usize);
    let (eh, ew) = ((r - 1) * p.dil.1 + 1, (s - 1) * p.dil.0 + 1);
    let pads: Vec<usize> = (0..4).map(|_| rng.below(2) as usize).collect();
    p.pad = (pads[0], pads[1], pads[2], pads[3]);
    if h + p.pad.2 + p.pad.3 < eh || w + p.pad.0 + p.pad.1 < ew {
        p.dil = (1, 1);
    }
    let draw = |rng: &mut Rng| {
        if prec == 2 {
            fp16_value(rng, mix)
        } else {
            int_value(rng, prec)
        }
    };
    p.pad_val = if prec == 2 { 0x3C00 } else { 3 };
    p.truncate = if prec == 2 { 0 } else { rng.below(4) as u8 };
    p.data = (0..c * h * w).map(|_| draw(rng)).collect();
    let zero_lane = rng.below(3); // out of 4: 0, 25 or 50 % more zero lanes
    let zero_block = rng.below(3);
    let blk = hw.atomic_c;
    let mut blocks_zero = vec![false; k * r * s * c.div_ceil(blk)];
    for z in blocks_zero.iter_mut() {
        *z = rng.below(4) < zero_block;
    }
    let mut weights = Vec::with_capacity(k * c * r * s);
    for ki in 0..k {
        for ci in 0..c {
            for ri in 0..r {
                for si in 0..s {
                    let v = draw(rng);
                    let bi = ((ki * r + ri) * s + si) * c.div_ceil(blk) + ci / blk;
                    let zero = ki / kg != ci / cg || rng.below(4) < zero_lane || blocks_zero[bi];
                    // FP16 zeros of both signs.
                    weights.push(if zero {
                        v & (0x8000 * (prec == 2) as i32)
                    } else {
                        v
                    });
                }
            }
        }
    }
    p.weights = weights;
    p
}

/// The output as comparable bits.
fn bits(f: &Flying) -> (usize, usize, usize, Vec<u32>) {
    let v = match &f.data {
        FlyingData::Int(v) => v.iter().map(|&x| x as u32).collect(),
        FlyingData::Float(v) => v.iter().map(|x| x.to_bits()).collect(),
    };
    (f.width, f.height, f.channel, v)
}

fn check(p: &Problem, hw: &Hw, what: &str) {
    let fast = run_with(p, hw, conv::run);
    let reference = run_with(p, hw, conv::run_reference);
    assert_eq!(
        bits(&fast),
        bits(&reference),
        "{what}: c {} k {} r {} s {} h {} w {}",
        p.c,
        p.k,
        p.r,
        p.s,
        p.h,
        p.w
    );
}

const FINITE: Fp16Mix = Fp16Mix {
    denormal: 100,
    inf: 0,
    nan: 0,
};

#[test]
fn int_fast_equals_reference() {
    let mut rng = Rng(0x1234_5678);
    for (hw, precs) in [(Hw::NV_FULL, &[0u8, 1][..]), (Hw::NV_SMALL, &[0][..])] {
        for &prec in precs {
            for groups in [1, 2, 5, 13] {
                for _ in 0..6 {
                    let p = random_problem(&mut rng, prec, groups, FINITE, &hw);
                    check(&p, &hw, &format!("{} prec {prec} groups {groups}", hw.name));
                }
            }
        }
    }
}

#[test]
fn fp16_fast_equals_reference() {
    let mut rng = Rng(0x9876_5431);
    for groups in [1, 3, 12, 40] {
        for _ in 0..8 {
            let p = random_problem(&mut rng, 2, groups, FINITE, &Hw::NV_FULL);
            check(&p, &Hw::NV_FULL, &format!("fp16 groups {groups}"));
        }
    }
}

#[test]
fn fp16_with_infinities_and_nans_equals_reference() {
    let mut rng = Rng(0x0BAD_CAFE);
    let mixes = [
        Fp16Mix {
            denormal: 50,
            inf: 30,
            nan: 0,
        },
        Fp16Mix {
            denormal: 50,
            inf: 30,
            nan: 5,
        },
    ];
    for mix in mixes {
        for groups in [1, 7, 30] {
            for _ in 0..6 {
                let p = random_problem(&mut rng, 2, groups, mix, &Hw::NV_FULL);
                check(&p, &Hw::NV_FULL, &format!("fp16 groups {groups}"));
            }
        }
    }
}

/// Depthwise 3×3 over 70 channels (two super-channels): one non-zero lane
/// per block.
fn depthwise(data: impl Fn(usize) -> i32) -> Problem {
    let (c, h, w) = (70, 6, 5);
    let mut p = problem(2, c, (h, w), c, (3, 3));
    p.pad = (1, 1, 1, 1);
    p.data = (0..c * h * w).map(&data).collect();
    for k in 0..c {
        for t in 0..9 {
            // fp16 values 0.5 .. 2 with varied exponents.
            p.weights[(k * c + k) * 9 + t] = 0x3800 + ((k * 37 + t * 101) % 0x800) as i32;
        }
    }
    p
}

#[test]
fn nan_times_zero_weight_is_a_nan_block() {
    // Channel 3 holds a NaN at one pixel; only kernel 3 has a non-zero
    // weight on channel 3, but the C-model's block word is NaN for every
    // kernel whose block reads that pixel (NaN × 0 is not masked).
    let p = depthwise(|i| if i == 3 * 30 + 7 { 0x7E01 } else { 0x3C00 });
    check(&p, &Hw::NV_FULL, "depthwise with a NaN");
    let out = run_with(&p, &Hw::NV_FULL, conv::run);
    let nans = floats(&out).iter().filter(|v| v.is_nan()).count();
    // Every kernel of the first super-channel (0..64) sees the NaN in the
    // outputs whose 3×3 window covers pixel 7.
    assert!(nans > 64, "{nans} NaN outputs");
}

#[test]
fn inf_times_zero_weight_is_inert() {
    // Channel 5 is +Inf everywhere and only kernel 5 weights it; every other
    // kernel's outputs equal those with channel 5 set to 0 (Inf × 0 is
    // masked like 0 × 0).
    let c5 = |v: i32| {
        move |i: usize| {
            if i / 30 == 5 {
                v
            } else {
                0x3C00 + (i % 50) as i32
            }
        }
    };
    let p_inf = depthwise(c5(0x7C00));
    let p_zero = depthwise(c5(0));
    check(&p_inf, &Hw::NV_FULL, "depthwise with Inf");
    let a = run_with(&p_inf, &Hw::NV_FULL, conv::run);
    let b = run_with(&p_zero, &Hw::NV_FULL, conv::run);
    let plane = 30;
    let (a, b) = (floats(&a), floats(&b));
    for k in (0..70).filter(|&k| k != 5) {
        assert_eq!(a[k * plane..(k + 1) * plane], b[k * plane..(k + 1) * plane]);
    }
    // Where the weight is not zero the C-model multiplies Inf as the
    // finite 2^16 (exponent 31, mantissa 1.0): kernel 5 differs.
    assert!(a[5 * plane..6 * plane]
        .iter()
        .zip(&b[5 * plane..6 * plane])
        .all(|(x, y)| x.is_finite() && x != y));
}

#[test]
fn same_output_for_one_and_two_threads() {
    let mut rng = Rng(77);
    for prec in [0u8, 2] {
        let p = random_problem(&mut rng, prec, 9, FINITE, &Hw::NV_FULL);
        let outs: Vec<_> = [1, 2]
            .iter()
            .map(|&n| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap();
                pool.install(|| bits(&run_with(&p, &Hw::NV_FULL, conv::run)))
            })
            .collect();
        assert_eq!(outs[0], outs[1]);
    }
}
