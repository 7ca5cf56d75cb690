//! The NNIE code table of the seed (`nnie.rst`, "Quantization Scheme"), typed
//! in row by row, checked at both edges of every row for many offsets `z`;
//! plus round-trip, monotonicity and nearest-level properties of the quantizer.

use onnc_nnie::{code_to_int, fake_quantize, ClipValue, LogQuantizer, Z_MAX, Z_MIN};

/// `sign · 2^((z + a)/16 + b)`.
#[derive(Clone, Copy, Debug)]
struct Pow {
    sign: f64,
    a: f64,
    b: f64,
}

impl Pow {
    fn at(self, z: i64) -> f64 {
        self.sign * ((z as f64 + self.a) / 16.0 + self.b).exp2()
    }
}

const fn p(sign: f64, a: f64, b: f64) -> Pow {
    Pow { sign, a, b }
}

/// One row: the interval of floats, the integer, the hex code, the dequantized value.
#[derive(Clone, Copy, Debug)]
struct Row {
    lo: Option<Pow>, // None = -inf
    lo_closed: bool,
    hi: Option<Pow>, // None = +inf
    hi_closed: bool,
    int: i16,
    hex: u8,
    deq: Option<Pow>, // None = 0
}

/// The seed's table, in its order (the "..." rows are covered by `generic_rows`).
/// Columns: floating interval (lo, closed?, hi, closed?), integer, hex, dequantized.
#[rustfmt::skip]
const SEED_TABLE: [Row; 7] = [
    // (-inf, -2^((z+126.5)/16)]              -127  0xFF  -2^((z+127)/16)
    Row { lo: None,                      lo_closed: false, hi: Some(p(-1.0, 126.5, 0.0)), hi_closed: true,  int: -127, hex: 0xFF, deq: Some(p(-1.0, 127.0, 0.0)) },
    // (-2^((z+2.5)/16), -2^((z+1.5)/16)]     -2    0x82  -2^((z+2)/16)
    Row { lo: Some(p(-1.0, 2.5, 0.0)),   lo_closed: false, hi: Some(p(-1.0, 1.5, 0.0)),   hi_closed: true,  int: -2,   hex: 0x82, deq: Some(p(-1.0, 2.0, 0.0)) },
    // (-2^((z+1.5)/16), -2^((z+1)/16 - 1))   -1    0x81  -2^((z+1)/16)
    Row { lo: Some(p(-1.0, 1.5, 0.0)),   lo_closed: false, hi: Some(p(-1.0, 1.0, -1.0)),  hi_closed: false, int: -1,   hex: 0x81, deq: Some(p(-1.0, 1.0, 0.0)) },
    // [-2^((z+1)/16 - 1), 2^(z/16 - 1))      -0    0x80  0
    Row { lo: Some(p(-1.0, 1.0, -1.0)),  lo_closed: true,  hi: Some(p(1.0, 0.0, -1.0)),   hi_closed: false, int: 0,    hex: 0x80, deq: None },
    // [2^(z/16 - 1), 2^((z+0.5)/16))         0     0x00  2^(z/16)
    Row { lo: Some(p(1.0, 0.0, -1.0)),   lo_closed: true,  hi: Some(p(1.0, 0.5, 0.0)),    hi_closed: false, int: 0,    hex: 0x00, deq: Some(p(1.0, 0.0, 0.0)) },
    // [2^((z+0.5)/16), 2^((z+1.5)/16))       1     0x01  2^((z+1)/16)
    Row { lo: Some(p(1.0, 0.5, 0.0)),    lo_closed: true,  hi: Some(p(1.0, 1.5, 0.0)),    hi_closed: false, int: 1,    hex: 0x01, deq: Some(p(1.0, 1.0, 0.0)) },
    // [2^((z+126.5)/16), +inf)               127   0x7F  2^((z+127)/16)
    Row { lo: Some(p(1.0, 126.5, 0.0)),  lo_closed: true,  hi: None,                      hi_closed: false, int: 127,  hex: 0x7F, deq: Some(p(1.0, 127.0, 0.0)) },
];

/// The rows the seed elides with "...": negative k = 2..=126 and positive k = 1..=126.
fn generic_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for k in 2..=126u8 {
        let kf = f64::from(k);
        rows.push(Row {
            lo: Some(p(-1.0, kf + 0.5, 0.0)),
            lo_closed: false,
            hi: Some(p(-1.0, kf - 0.5, 0.0)),
            hi_closed: true,
            int: -i16::from(k),
            hex: 0x80 | k,
            deq: Some(p(-1.0, kf, 0.0)),
        });
    }
    for k in 1..=126u8 {
        let kf = f64::from(k);
        rows.push(Row {
            lo: Some(p(1.0, kf - 0.5, 0.0)),
            lo_closed: true,
            hi: Some(p(1.0, kf + 0.5, 0.0)),
            hi_closed: false,
            int: i16::from(k),
            hex: k,
            deq: Some(p(1.0, kf, 0.0)),
        });
    }
    rows
}

fn next_up(x: f32) -> f32 {
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// The f32 values just inside and just outside a bound `t` (exact real given
/// as an f64 that is within 1 ulp of it). `inside_is_above` tells the side.
fn probe(t: f64, closed: bool, inside_is_above: bool) -> (f32, f32) {
    let t32 = t as f32;
    let exact = f64::from(t32) == t && (t.abs().log2().fract() == 0.0);
    if exact {
        // powers of two are the only representable bounds
        return match (closed, inside_is_above) {
            (true, true) => (t32, next_down(t32)),
            (true, false) => (t32, next_up(t32)),
            (false, true) => (next_up(t32), t32),
            (false, false) => (next_down(t32), t32),
        };
    }
    // irrational bound: make sure f64 rounding cannot flip the side
    assert!(
        (f64::from(t32) - t).abs() > t.abs() * 1e-13,
        "bound {t} too close to an f32"
    );
    let (below, above) = if f64::from(t32) < t {
        (t32, next_up(t32))
    } else {
        (next_down(t32), t32)
    };
    if inside_is_above {
        (above, below)
    } else {
        (below, above)
    }
}

fn offsets() -> Vec<i64> {
    let mut zs: Vec<i64> = (-400..=200).step_by(37).collect();
    // z ≡ 0 and z ≡ -1 (mod 16) make the zero thresholds exact powers of two
    zs.extend([
        -128,
        -129,
        -144,
        -145,
        -127,
        0,
        -1,
        16,
        -63,
        Z_MIN,
        Z_MIN + 15,
        Z_MIN + 16,
        Z_MIN + 31,
        Z_MAX,
    ]);
    zs
}

fn check_row(q: LogQuantizer, row: &Row) {
    let z = q.z();
    assert_eq!(
        code_to_int(row.hex),
        row.int,
        "integer column of {:#04x}",
        row.hex
    );
    let want = row.deq.map_or(0.0, |d| d.at(z));
    assert_eq!(
        f64::from(q.decode(row.hex)),
        f64::from(want as f32),
        "dequantized value of {:#04x}, z = {z}",
        row.hex
    );
    if let Some(lo) = row.lo {
        let (inside, outside) = probe(lo.at(z), row.lo_closed, true);
        assert_eq!(
            q.encode(inside).unwrap(),
            row.hex,
            "z = {z}: {inside:e} just above the lower bound of {:#04x}",
            row.hex
        );
        assert_ne!(
            q.encode(outside).unwrap(),
            row.hex,
            "z = {z}: {outside:e} just below the lower bound of {:#04x}",
            row.hex
        );
    } else {
        assert_eq!(q.encode(f32::NEG_INFINITY).unwrap(), row.hex);
        assert_eq!(q.encode(f32::MIN).unwrap(), row.hex);
    }
    if let Some(hi) = row.hi {
        let (inside, outside) = probe(hi.at(z), row.hi_closed, false);
        assert_eq!(
            q.encode(inside).unwrap(),
            row.hex,
            "z = {z}: {inside:e} just below the upper bound of {:#04x}",
            row.hex
        );
        assert_ne!(
            q.encode(outside).unwrap(),
            row.hex,
            "z = {z}: {outside:e} just above the upper bound of {:#04x}",
            row.hex
        );
    } else {
        assert_eq!(q.encode(f32::INFINITY).unwrap(), row.hex);
        assert_eq!(q.encode(f32::MAX).unwrap(), row.hex);
    }
}

#[test]
fn every_row_of_the_seed_table() {
    for z in offsets() {
        let q = LogQuantizer::new(z).unwrap();
        for row in &SEED_TABLE {
            check_row(q, row);
        }
    }
}

#[test]
fn the_elided_rows() {
    for z in [-300i64, -127, -64, 0, 77] {
        let q = LogQuantizer::new(z).unwrap();
        for row in &generic_rows() {
            check_row(q, row);
        }
    }
}

#[test]
fn rows_tile_the_real_line() {
    // adjacent rows share bounds with complementary closedness
    let mut rows: Vec<Row> = SEED_TABLE.to_vec();
    rows.extend(generic_rows());
    let key = |r: &Row| r.deq.map_or(0.0, |d| d.sign * (d.a + 1000.0));
    rows.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap());
    rows.dedup_by_key(|r| r.hex);
    assert_eq!(rows.len(), 256);
    for w in rows.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (ah, bl) = (a.hi.unwrap().at(-100), b.lo.unwrap().at(-100));
        assert_eq!(ah, bl, "{:#04x} / {:#04x}", a.hex, b.hex);
        assert_ne!(a.hi_closed, b.lo_closed);
    }
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A value with log-uniform magnitude around the quantizer's range and a random sign.
    fn value(&mut self, z: i64) -> f32 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        let e = (z as f64 - 40.0 + u * 200.0) / 16.0;
        let s = if self.next() & 1 == 0 { 1.0 } else { -1.0 };
        (s * e.exp2()) as f32
    }
}

/// MQBench's formula in f64 (with the seed's `>=` at the positive zero threshold).
fn mqbench_reference(x: f32, z: i64) -> f32 {
    let x = f64::from(x);
    let z = z as f64;
    let y = if x >= ((z - 16.0) / 16.0).exp2() {
        ((((16.0 * x.log2()).round() - z).clamp(0.0, 127.0) + z) / 16.0).exp2()
    } else if x < -((z + 1.0 - 16.0) / 16.0).exp2() {
        -((((16.0 * (-x).log2()).round() - z).clamp(1.0, 127.0) + z) / 16.0).exp2()
    } else {
        0.0
    };
    y as f32
}

#[test]
fn agrees_with_the_float_formula_away_from_boundaries() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for z in offsets() {
        let q = LogQuantizer::new(z).unwrap();
        for _ in 0..2000 {
            let x = rng.value(z);
            let t = 16.0 * f64::from(x.abs()).log2();
            if (t - t.floor() - 0.5).abs() < 1e-6 {
                continue; // within float noise of a rounding boundary
            }
            assert_eq!(
                q.fake_quant(x).unwrap(),
                mqbench_reference(x, z),
                "x = {x:e}, z = {z}"
            );
        }
    }
}

/// The representable values, ascending.
fn levels_sorted(q: LogQuantizer) -> Vec<f32> {
    let mut v: Vec<f32> = (0u8..=255).map(|c| q.decode(c)).collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.dedup();
    v
}

#[test]
fn representable_set_is_256_values() {
    for z in offsets() {
        let q = LogQuantizer::new(z).unwrap();
        let v = levels_sorted(q);
        assert_eq!(v.len(), 256, "z = {z}");
        assert_eq!(v[127], 0.0); // 127 negatives (k = 1..127), zero, 128 positives (k = 0..127)
        assert_eq!(v[128], q.min_positive());
        assert_eq!(v[126], -q.decode(0x01));
    }
}

#[test]
fn result_is_the_nearest_level() {
    // Between two non-zero levels of the same sign the cut is their geometric
    // mean (nearest in the log domain); between 0 and the smallest level of
    // each sign it is the arithmetic midpoint (nearest in the linear domain);
    // at the two zero cuts the value goes up (toward +inf); the log-domain cuts
    // are irrational, so no float sits on them. Beyond ±c it saturates.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for z in offsets() {
        let q = LogQuantizer::new(z).unwrap();
        let levels = levels_sorted(q);
        for _ in 0..2000 {
            let x = rng.value(z);
            let xf = f64::from(x);
            let got = q.fake_quant(x).unwrap();
            let i = levels.partition_point(|&l| f64::from(l) <= xf);
            let want = if i == 0 {
                levels[0]
            } else if i == levels.len() {
                levels[i - 1]
            } else {
                let (lo, hi) = (f64::from(levels[i - 1]), f64::from(levels[i]));
                let cut = if lo == 0.0 || hi == 0.0 {
                    (lo + hi) / 2.0
                } else if lo > 0.0 {
                    (lo * hi).sqrt()
                } else {
                    -(lo * hi).sqrt()
                };
                if (xf - cut).abs() <= cut.abs() * 1e-12 {
                    continue; // too close to call in f64
                }
                if xf >= cut {
                    levels[i]
                } else {
                    levels[i - 1]
                }
            };
            assert_eq!(got, want, "x = {x:e}, z = {z}");
        }
    }
}

#[test]
fn monotone_idempotent_and_odd_above_the_smallest_level() {
    let mut rng = Rng(7);
    for z in offsets() {
        let q = LogQuantizer::new(z).unwrap();
        let mut xs: Vec<f32> = (0..4000).map(|_| rng.value(z)).collect();
        xs.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
        ]);
        xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let y = fake_quantize(q, &xs).unwrap();
        assert!(
            y.windows(2).all(|w| w[0] <= w[1]),
            "not monotone for z = {z}"
        );
        assert_eq!(
            fake_quantize(q, &y).unwrap(),
            y,
            "not idempotent for z = {z}"
        );
        let odd_from = ((z as f64 + 0.5) / 16.0).exp2();
        for &x in &xs {
            if f64::from(x.abs()) > odd_from * (1.0 + 1e-6) {
                assert_eq!(
                    q.fake_quant(-x).unwrap(),
                    -q.fake_quant(x).unwrap(),
                    "x = {x:e}"
                );
            }
        }
    }
}

#[test]
fn clip_value_is_the_largest_level() {
    for k in [-1000i64, -127, 0, 41, 500] {
        let c = ClipValue::from_index(k).unwrap();
        let q = LogQuantizer::from_clip(c);
        assert_eq!(q.max_level(), c.value_f32());
        assert_eq!(q.fake_quant(c.value_f32() * 10.0).unwrap(), c.value_f32());
        assert_eq!(q.fake_quant(-c.value_f32() * 10.0).unwrap(), -c.value_f32());
    }
}
