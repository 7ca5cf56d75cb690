//! The attributes of an `mvu.conv` / `mvu.matmul` op for one layer, named and
//! typed exactly as `dialects/mvu.irdl.mlir` declares them.
//!
//! In: a [`Layer`] (and the MVU it runs on, 0 by default through
//! [`dialect_attrs`]). Out: `(name, value)` pairs in the dialect file's order:
//! `mvu, aprec, wprec, oprec, asigned, wsigned, ishape, fshape, [strides, pads,
//! maxpool, [pool_kernel, pool_strides, pool_pads, pool_ceil_mode,]] ilength,
//! ijump, wlength, wjump, countdown, mul_mode, quant_msb, omvu_mask` (conv has
//! the bracketed three, a pooled conv the four `pool_*` too: the window the
//! verifier needs for the pooled registers and output shape). The layer's BARVINN total
//! countdown is not a dialect attribute; it is in [`crate::Row`].
//!
//! Conv `ishape`/`fshape` are the table's `iShape`/`fShape`; a matmul's are
//! the dialect's `[⌈K/64⌉, 1, 1]` and `[⌈out/64⌉, out, in]` (the table prints
//! BARVINN's `[1, rows, in]` for `iShape`). `mul_mode` is 1 ({0, +1}, what
//! BARVINN's programs use), `maxpool` (1 for a pooled layer), `omvu_mask` `1 << mvu`.
//!
//! ```
//! use onnc_mvu::frontend::{dialect_attrs, DialectValue};
//! use onnc_mvu::{ConvShape, Layer, Precision};
//! let l = Layer::conv("Conv_0", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1), Precision::new(8, 8, 8));
//! let a = dialect_attrs(&l).unwrap();
//! assert_eq!(a.iter().find(|(n, _)| *n == "ijump").unwrap().1, DialectValue::Ints(vec![-528, -528, 240, 8, 0]));
//! assert_eq!(a.iter().find(|(n, _)| *n == "countdown").unwrap().1, DialectValue::Int(17280));
//! assert_eq!(a.iter().find(|(n, _)| *n == "quant_msb").unwrap().1, DialectValue::Int(7));
//! let names: Vec<&str> = a.iter().map(|(n, _)| *n).collect();
//! assert_eq!(names, ["mvu", "aprec", "wprec", "oprec", "asigned", "wsigned", "ishape", "fshape", "strides", "pads",
//!                    "maxpool", "ilength", "ijump", "wlength", "wjump", "countdown", "mul_mode", "quant_msb", "omvu_mask"]);
//! ```

use crate::config::{configure, Options};
use crate::error::Error;
use crate::layer::{Layer, LayerOp};
use crate::registers::{blocks, FractionalColumns};

/// An attribute value as the dialect types it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialectValue {
    /// `N : i64`.
    Int(i64),
    /// A string attribute.
    Str(String),
    /// `array<i64: ...>`.
    Ints(Vec<i64>),
}

/// The op's attributes for `layer` on MVU 0 (see [`dialect_attrs_on`]).
pub fn dialect_attrs(layer: &Layer) -> Result<Vec<(&'static str, DialectValue)>, Error> {
    dialect_attrs_on(layer, 0)
}

/// The op's attributes for `layer` on MVU `mvu` (0..=7). Registers are
/// computed without the RAM check (the dialect verifier has its own) and
/// with the window count of a strided row (`FractionalColumns::RoundUp`),
/// as [`super::compile`] computes them, so the dialect holds the registers
/// the configuration files hold.
pub fn dialect_attrs_on(
    layer: &Layer,
    mvu: u32,
) -> Result<Vec<(&'static str, DialectValue)>, Error> {
    use DialectValue::{Int, Ints};
    let opts = Options {
        check_capacity: false,
        fractional_columns: FractionalColumns::RoundUp,
        ..Options::default()
    };
    let r = configure(layer, &opts)?;
    let p = &layer.precision;
    let ints = |v: &[i64]| Ints(v.to_vec());
    let u = |v: &[u64]| Ints(v.iter().map(|&x| x as i64).collect());
    let mut a: Vec<(&'static str, DialectValue)> = vec![
        ("mvu", Int(mvu.into())),
        ("aprec", Int(p.act.into())),
        ("wprec", Int(p.weight.into())),
        ("oprec", Int(p.out.into())),
        ("asigned", Int(p.act_signed.into())),
        ("wsigned", Int(p.weight_signed.into())),
    ];
    match layer.op {
        LayerOp::Conv(c) => {
            a.push(("ishape", u(&r.i_shape)));
            a.push(("fshape", u(&r.f_shape)));
            a.push((
                "strides",
                Ints(c.strides.iter().map(|&s| s.into()).collect()),
            ));
            a.push(("pads", Ints(c.pads.iter().map(|&s| s.into()).collect())));
            a.push(("maxpool", Int(layer.pool.is_some().into())));
            if let Some(pool) = &layer.pool {
                let v = |x: &[u32]| Ints(x.iter().map(|&s| s.into()).collect());
                a.push(("pool_kernel", v(&pool.kernel)));
                a.push(("pool_strides", v(&pool.strides)));
                a.push(("pool_pads", v(&pool.pads)));
                a.push(("pool_ceil_mode", Int(pool.ceil_mode.into())));
            }
        }
        LayerOp::MatMul(m) => {
            a.push(("ishape", u(&[blocks(m.in_features.into()), 1, 1])));
            a.push(("fshape", u(&r.f_shape)));
        }
    }
    a.extend([
        ("ilength", ints(&r.ilength)),
        ("ijump", ints(&r.ijump)),
        ("wlength", ints(&r.wlength)),
        ("wjump", ints(&r.wjump)),
        ("countdown", Int(r.countdown as i64)),
        ("mul_mode", Int(1)),
        ("quant_msb", Int(r.quant_word().into())),
        ("omvu_mask", Int(1 << mvu.min(7))),
    ]);
    Ok(a)
}
