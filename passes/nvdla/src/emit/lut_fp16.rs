//! The SDP lookup table of a function for FP16 processing: where its 65 LE
//! and 257 LO entries sample the function, chosen to minimise the error.
//!
//! In: a [`LutFn`]. Out: a [`Table`]: the `dla_lut_param` the SDP reads
//! (entries are FP16 bit patterns, start/end registers FP32 bit patterns,
//! out-of-range slopes FP16) and the [`Layout`] it was built from.
//!
//! How the hardware reads it (nvdla-arith.md §6.3; the simulator's
//! `sdp::lut` is the bit-exact model): the Y unit's result `x` indexes both
//! tables. LO is linear: entry `i` is `f(lo_start + i·2^s)`, 256 intervals.
//! LE is linear the same way (64 intervals of `2^t`) or exponential (entry
//! `i` is `f(le_start + 2^(o+i))`, one interval per octave). Between two
//! entries the value is interpolated linearly; below / above a table it is
//! extrapolated from the first / last entry with an FP16 slope. LO answers
//! where it hits; elsewhere LE where it hits; where neither does, the
//! under/overflow priority picks the table reaching further out.
//!
//! The layout is searched: LO steps 2^-8 … 2^1 placed from centred to
//! one-sided; LE linear 2 … 64 times coarser, centred on LO or extending it
//! to either side, or LE exponential continuing LO to the right; the
//! extrapolation slopes are the function's slopes at ±∞
//! ([`LutFn::tail_slopes`]). Each candidate is scored by a model of the
//! lookup (exact interpolation of the FP16-rounded entries) on a sample of
//! FP16 inputs, and the best is checked on every finite FP16 input. The
//! error of an output `y` is `|y − f(x)| / max(1, |f(x)|)`: absolute below
//! 1, relative above (what FP16 itself keeps). Ties keep the first
//! candidate, so the table is a pure function of `f`.
//!
//! Measured with the bit-exact simulator on every finite FP16 input
//! (`tests/lut_error.rs` asserts these bounds): sigmoid 7.3e-4, tanh
//! 7.3e-4, SiLU 1.05e-3, HardSwish 1.09e-3, softplus 1.18e-3, mish
//! 1.18e-3 — one to two FP16 ulps of 1, most of it the FP16 rounding of the
//! entries, of the FP17 interpolation and of the output (the model, exact
//! arithmetic on the FP16 entries, stays below 5e-4).
//!
//! ```
//! use onnc_nvdla::emit::{lut_fn::LutFn, lut_fp16::fp16_table};
//! let t = fp16_table(LutFn::Sigmoid);
//! assert!(t.model_error < 2e-3, "{}", t.model_error);
//! assert_eq!(t.param.hybrid_priority, 1); // LO answers where it hits
//! ```

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use half::f16;
use onnc_nvdla_loadable::desc::{LutParam, Slope};

use super::lut_fn::LutFn;

/// LE entries.
const LE: usize = 65;
/// LO entries.
const LO: usize = 257;
/// `LUT_PRI_LINEAR_EXP` / `LUT_PRI_LINEAR_ONLY`.
const PRI_LE: u8 = 0;
const PRI_LO: u8 = 1;

/// How the LE table samples the function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LeLayout {
    /// Entry `i` at `start + i · 2^step_log2`.
    Linear {
        /// First sample.
        start: f64,
        /// log2 of the step (the index select).
        step_log2: i32,
    },
    /// Entry `i` at `start + 2^(offset + i)`.
    Exponential {
        /// Origin.
        start: f64,
        /// The index offset.
        offset: i32,
    },
}

/// Where both tables sample the function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// First LO sample.
    pub lo_start: f64,
    /// log2 of the LO step (the index select).
    pub lo_step_log2: i32,
    /// The LE table.
    pub le: LeLayout,
}

impl Layout {
    fn lo_step(&self) -> f64 {
        2f64.powi(self.lo_step_log2)
    }

    fn lo_end(&self) -> f64 {
        self.lo_start + (LO - 1) as f64 * self.lo_step()
    }

    /// Where LE entry `i` samples.
    fn le_at(&self, i: usize) -> f64 {
        match self.le {
            LeLayout::Linear { start, step_log2 } => start + i as f64 * 2f64.powi(step_log2),
            LeLayout::Exponential { start, offset } => start + 2f64.powi(offset + i as i32),
        }
    }

    /// The lowest point LE covers (its underflow extrapolates from here).
    fn le_first(&self) -> f64 {
        self.le_at(0)
    }

    fn le_end(&self) -> f64 {
        self.le_at(LE - 1)
    }
}

/// A built table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The descriptor.
    pub param: LutParam,
    /// The layout it samples.
    pub layout: Layout,
    /// The model's worst error over every finite FP16 input.
    pub model_error: f64,
}

fn fp16(v: f64) -> f64 {
    f16::from_f64(v.clamp(-65504.0, 65504.0)).to_f64()
}

/// The entries of `l` for `f`, FP16-rounded, as `f64`.
fn entries(f: LutFn, l: &Layout) -> (Vec<f64>, Vec<f64>) {
    let le = (0..LE).map(|i| fp16(f.value(l.le_at(i)))).collect();
    let lo = (0..LO)
        .map(|i| fp16(f.value(l.lo_start + i as f64 * l.lo_step())))
        .collect();
    (le, lo)
}

/// Which side of a table `x` falls on, with the entry and fraction on a hit.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Hit {
    Under,
    In(usize, f64),
    Over,
}

fn linear_index(x: f64, start: f64, step: f64, depth: usize) -> Hit {
    let d = x - start;
    if d <= 0.0 {
        return Hit::Under;
    }
    let q = d / step;
    let i = q.floor();
    if i >= (depth - 1) as f64 {
        Hit::Over
    } else {
        Hit::In(i as usize, q - i)
    }
}

fn le_index(x: f64, l: &Layout) -> Hit {
    match l.le {
        LeLayout::Linear { start, step_log2 } => linear_index(x, start, 2f64.powi(step_log2), LE),
        LeLayout::Exponential { start, offset } => {
            let d = x - start;
            if d <= 0.0 {
                return Hit::Under;
            }
            let e = d.log2().floor() as i32;
            // log2 rounding near a power of two: settle on the octave holding d.
            let e = if 2f64.powi(e) > d {
                e - 1
            } else if 2f64.powi(e + 1) <= d {
                e + 1
            } else {
                e
            };
            if e < offset {
                Hit::Under
            } else if (e - offset) as usize >= LE - 1 {
                Hit::Over
            } else {
                Hit::In((e - offset) as usize, d / 2f64.powi(e) - 1.0)
            }
        }
    }
}

/// The model of the lookup: `entries` of layout `l`, tail slopes `slopes`
/// (FP16-rounded), priorities as [`build`] sets them.
fn lookup(x: f64, l: &Layout, le: &[f64], lo: &[f64], slopes: (f64, f64)) -> f64 {
    let lo_hit = linear_index(x, l.lo_start, l.lo_step(), LO);
    let le_hit = le_index(x, l);
    let interp = |t: &[f64], i: usize, fr: f64| t[i] + (t[i + 1] - t[i]) * fr;
    let lo_under = || lo[0] + (x - l.lo_start) * slopes.0;
    let lo_over = || lo[LO - 1] + (x - l.lo_end()) * slopes.1;
    let le_under = || le[0] + (x - l.le_first()) * slopes.0;
    let le_over = || le[LE - 1] + (x - l.le_end()) * slopes.1;
    match (lo_hit, le_hit) {
        (Hit::In(i, fr), _) => interp(lo, i, fr),
        (_, Hit::In(i, fr)) => interp(le, i, fr),
        (Hit::Under, Hit::Under) => {
            if under_priority_lo(l) {
                lo_under()
            } else {
                le_under()
            }
        }
        (Hit::Over, Hit::Over) => {
            if over_priority_lo(l) {
                lo_over()
            } else {
                le_over()
            }
        }
        // Neither hits and they disagree: the hybrid priority (LO).
        (Hit::Under, _) => lo_under(),
        (Hit::Over, _) => lo_over(),
    }
}

/// Underflow goes to the table that starts further left.
fn under_priority_lo(l: &Layout) -> bool {
    l.lo_start < l.le_first()
}

/// Overflow goes to the table that ends further right.
fn over_priority_lo(l: &Layout) -> bool {
    l.lo_end() > l.le_end()
}

fn error(y: f64, exact: f64) -> f64 {
    (y - exact).abs() / exact.abs().max(1.0)
}

/// Every finite FP16 value, ascending.
fn all_fp16() -> Vec<f64> {
    (0u16..=0xFFFF)
        .map(f16::from_bits)
        .filter(|h| h.is_finite())
        .map(f16::to_f64)
        .collect()
}

/// The search sample: FP16 values with magnitude in [2^-8, 2^12), every
/// fourth mantissa, and 0.
fn sample() -> Vec<f64> {
    all_fp16()
        .into_iter()
        .filter(|x| {
            let a = x.abs();
            a == 0.0 || ((1.0 / 256.0..4096.0).contains(&a) && f16::from_f64(*x).to_bits() % 4 == 0)
        })
        .collect()
}

/// The worst model error of layout `l` for `f` over `xs` (exact values `ys`).
fn worst(f: LutFn, l: &Layout, xs: &[f64], ys: &[f64], slopes: (f64, f64)) -> f64 {
    let (le, lo) = entries(f, l);
    xs.iter()
        .zip(ys)
        .map(|(&x, &y)| error(lookup(x, l, &le, &lo, slopes), y))
        .fold(0.0, f64::max)
}

/// The worst model error inside the LO range only (a lower bound for every
/// layout with this LO).
fn worst_lo(f: LutFn, l: &Layout, xs: &[f64], ys: &[f64]) -> f64 {
    let (_, lo) = entries(f, l);
    xs.iter()
        .zip(ys)
        .filter_map(
            |(&x, &y)| match linear_index(x, l.lo_start, l.lo_step(), LO) {
                Hit::In(i, fr) => Some(error(lo[i] + (lo[i + 1] - lo[i]) * fr, y)),
                _ => None,
            },
        )
        .fold(0.0, f64::max)
}

/// The candidate layouts, in a fixed order (LO candidates; for each, its LE
/// candidates).
fn candidates() -> Vec<(Layout, Vec<LeLayout>)> {
    let mut out = Vec::new();
    for s in -8..=1 {
        let h = 2f64.powi(s);
        for k in 0..=8 {
            let lo_start = -(k as f64) * 32.0 * h;
            let lo_end = lo_start + 256.0 * h;
            let centre = lo_start + 128.0 * h;
            let mut les = Vec::new();
            for t in s + 1..=s + 6 {
                let w = 64.0 * 2f64.powi(t);
                for start in [centre - w / 2.0, lo_start, lo_end - w] {
                    les.push(LeLayout::Linear {
                        start,
                        step_log2: t,
                    });
                }
            }
            for offset in s..=s + 4 {
                les.push(LeLayout::Exponential {
                    start: lo_end - 2f64.powi(offset),
                    offset,
                });
            }
            let base = Layout {
                lo_start,
                lo_step_log2: s,
                le: les[0],
            };
            out.push((base, les));
        }
    }
    out
}

/// The best layout for `f` and its model error on every finite FP16 input.
pub fn best_layout(f: LutFn) -> (Layout, f64) {
    let slopes = {
        let (a, b) = f.tail_slopes();
        (fp16(a), fp16(b))
    };
    let xs = sample();
    let ys: Vec<f64> = xs.iter().map(|&x| f.value(x)).collect();
    let mut los: Vec<(f64, usize, Layout, Vec<LeLayout>)> = candidates()
        .into_iter()
        .enumerate()
        .map(|(i, (l, les))| (worst_lo(f, &l, &xs, &ys), i, l, les))
        .collect();
    los.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut best: Option<(f64, Layout)> = None;
    for (bound, _, base, les) in los {
        if best.as_ref().is_some_and(|b| bound >= b.0) {
            break;
        }
        for le in les {
            let l = Layout { le, ..base };
            let e = worst(f, &l, &xs, &ys, slopes);
            if best.as_ref().is_none_or(|b| e < b.0) {
                best = Some((e, l));
            }
        }
    }
    let (_, l) = best.expect("at least one candidate");
    let all = all_fp16();
    let exact: Vec<f64> = all.iter().map(|&x| f.value(x)).collect();
    (l, worst(f, &l, &all, &exact, slopes))
}

fn bits16(v: f64) -> i16 {
    f16::from_f64(v.clamp(-65504.0, 65504.0)).to_bits() as i16
}

fn bits32(v: f64) -> u64 {
    u64::from((v as f32).to_bits())
}

/// The descriptor of layout `l` for `f`.
pub fn build(f: LutFn, l: &Layout) -> LutParam {
    let (le, lo) = entries(f, l);
    let (a, b) = f.tail_slopes();
    let slope = |v: f64| Slope {
        scale: bits16(v),
        shifter: 0,
        reserved: 0,
    };
    let mut p = LutParam::default();
    for (e, v) in p.linear_exp_table.iter_mut().zip(&le) {
        *e = bits16(*v);
    }
    for (e, v) in p.linear_only_table.iter_mut().zip(&lo) {
        *e = bits16(*v);
    }
    let (method, le_select, le_start) = match l.le {
        LeLayout::Linear { start, step_log2 } => (1, step_log2, start),
        LeLayout::Exponential { start, offset } => (0, offset, start),
    };
    p.method = method;
    p.linear_exp_offset = u16::from(le_select as i8 as u8);
    p.linear_only_offset = u16::from(l.lo_step_log2 as i8 as u8);
    p.linear_exp_start = bits32(le_start);
    p.linear_exp_end = bits32(l.le_end());
    p.linear_only_start = bits32(l.lo_start);
    p.linear_only_end = bits32(l.lo_end());
    p.linear_exp_underflow_slope = slope(a);
    p.linear_only_underflow_slope = slope(a);
    p.linear_exp_overflow_slope = slope(b);
    p.linear_only_overflow_slope = slope(b);
    p.hybrid_priority = PRI_LO;
    p.underflow_priority = if under_priority_lo(l) { PRI_LO } else { PRI_LE };
    p.overflow_priority = if over_priority_lo(l) { PRI_LO } else { PRI_LE };
    p
}

/// The layout of the `rsqrt` table and its model error, relative, over
/// every positive finite FP16 input. 1/√x spans 2^-8 … 2^12 over the
/// positive FP16 range, which one table of 65 + 257 linearly interpolated
/// entries cannot follow to FP16 precision everywhere: LE is exponential
/// from 0 (one entry per octave 2^-24 … 2^40, where linear interpolation of
/// 1/√x errs up to 6 %), LO linear over [1/4, 8.25) in steps of 1/32
/// (1.4e-3 at 1/4, 1e-5 at 8). The lowering follows the lookup with two
/// Newton steps `r ← r·(1.5 − 0.5·x·r²)`, which take a relative error `e`
/// to about `1.5·e²` each: 6 % → 5.4e-3 → 4.4e-5, below FP16's rounding.
pub fn rsqrt_layout() -> (Layout, f64) {
    let l = Layout {
        lo_start: 0.25,
        lo_step_log2: -5,
        le: LeLayout::Exponential {
            start: 0.0,
            offset: -24,
        },
    };
    let f = LutFn::Rsqrt;
    let slopes = (0.0, 0.0);
    let xs: Vec<f64> = all_fp16().into_iter().filter(|&x| x > 0.0).collect();
    let ys: Vec<f64> = xs.iter().map(|&x| f.value(x)).collect();
    let (le, lo) = entries(f, &l);
    let rel = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| (lookup(x, &l, &le, &lo, slopes) - y).abs() / y)
        .fold(0.0, f64::max);
    (l, rel)
}

/// The table for `f` (searched once per process and function).
pub fn fp16_table(f: LutFn) -> Table {
    static CACHE: OnceLock<Mutex<BTreeMap<String, Table>>> = OnceLock::new();
    let key = format!("{}:{:e}:{:e}", f.name(), f.alpha(), f.beta());
    let cache = CACHE.get_or_init(|| Mutex::new(BTreeMap::new()));
    if let Some(t) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return t;
    }
    let (layout, model_error) = if f == LutFn::Rsqrt {
        rsqrt_layout()
    } else {
        best_layout(f)
    };
    let t = Table {
        param: build(f, &layout),
        layout,
        model_error,
    };
    if let Ok(mut c) = cache.lock() {
        c.insert(key, t.clone());
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lo_entries_sample_the_function_on_the_chosen_grid() {
        let t = fp16_table(LutFn::Tanh);
        let l = t.layout;
        for i in [0usize, 100, 256] {
            let x = l.lo_start + i as f64 * l.lo_step();
            assert_eq!(t.param.linear_only_table[i], bits16(x.tanh()));
        }
        assert_eq!(
            f32::from_bits(t.param.linear_only_end as u32) as f64,
            l.lo_end()
        );
    }

    #[test]
    fn the_search_is_no_worse_than_hand_layouts() {
        let f = LutFn::Swish { alpha: 1.0 };
        let all = all_fp16();
        let ys: Vec<f64> = all.iter().map(|&x| f.value(x)).collect();
        let hand = |lo_start: f64, lo_step_log2: i32, start: f64, step_log2: i32| {
            let l = Layout {
                lo_start,
                lo_step_log2,
                le: LeLayout::Linear { start, step_log2 },
            };
            worst(f, &l, &all, &ys, f.tail_slopes())
        };
        let (_, best) = best_layout(f);
        // What one would write by hand: LO over [-8, 8], LE over [-32, 32].
        assert!(best <= hand(-8.0, -4, -32.0, 0), "{best}");
        // A coarse LO over [-16, 16] is strictly worse.
        let coarse = hand(-16.0, -3, -64.0, 1);
        assert!(best < coarse, "searched {best} vs coarse {coarse}");
    }

    #[test]
    fn model_errors_are_small() {
        for f in [
            LutFn::Sigmoid,
            LutFn::Tanh,
            LutFn::Swish { alpha: 1.0 },
            LutFn::HardSwish {
                alpha: 1.0 / 6.0,
                beta: 0.5,
            },
            LutFn::Softplus,
            LutFn::Mish,
            LutFn::Erf,
        ] {
            let t = fp16_table(f);
            assert!(
                t.model_error < 1.5e-3,
                "{f:?}: {} {:?}",
                t.model_error,
                t.layout
            );
        }
    }
}
