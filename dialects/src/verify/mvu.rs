//! Rules for the `mvu` dialect (doc blocks in `dialects/mvu.irdl.mlir`).
//! Every range, RAM size and register formula comes from `onnc_mvu_hw`
//! (`dialects/mvu-hw`), the one place the MVU back end reads them too.
//!
//! | op | rule |
//! |---|---|
//! | every op | integer attributes are `i64`; the scalars of [`onnc_mvu_hw::ranges::SCALARS`] lie in their ranges |
//! | every op | the register arrays of [`onnc_mvu_hw::ranges::ARRAYS`] (`ilength`, `wlength`, `ijump`, `wjump`) have their entry count and each entry lies in its range; `ishape`, `fshape`: 3 entries ≥ 1 |
//! | every op | scaler and bias (when present) have one entry per output channel |
//! | conv | `strides` 2 entries ≥ 1, `pads` 4 entries ≥ 0; input N×C×H×W gives `ishape` = [⌈C/64⌉, H, W]; weight O×C×kH×kW gives `fshape` = [⌈O/64⌉, kH, kW]; output N×O×OH×OW, OH = ⌊(H + top + bottom − kH)/sH⌋ + 1 |
//! | pooled conv (`maxpool = 1`) | pool window, pooled output shape, all four arrays and `countdown`: see [`super::mvu_pool`] |
//! | unpooled conv | `ilength`, `wlength` as [`onnc_mvu_hw::conv_registers`]; `countdown` = [`onnc_mvu_hw::conv_countdown`] of (iW − fW + 1)/sW columns, the quotient rounded down or up |
//! | matmul | input 1×K, or 1×C×H×W read flattened (K = C·H·W); weight d0×d1 with d1 = K; `ishape` = [⌈K/64⌉, 1, 1]; `fshape` = [⌈d0/64⌉, d0, d1]; output 1×d0 |
//! | matmul | with m_h = ⌈d0/64⌉, m_w = ⌈d1/64⌉: the four arrays and `countdown` as [`onnc_mvu_hw::matmul_registers`] |
//! | both | the writer's attributes (`onnx_op`, `weight_name`, `relu`, `weight_scales`, `bias_values`, `weight_layout`, `output_end`, `sum_of`), when present: see [`super::mvu_layer`] |
//! | both | RAM capacity of one MVU ([`onnc_mvu_hw::fields`]): input and output activations ≤ `DATA_RAM_WORDS` (conv: iC·iH·iW·ip and fC·OH·OW·op; matmul: m_w·ip and m_h·op); weights ≤ `WEIGHT_RAM_WORDS` (conv: fC·iC·fH·fW·wp; matmul: m_h·m_w·wp); scaler/bias ≤ `SCALER_RAM_WORDS` (fC or m_h) |
//!
//! ip = `aprec`, wp = `wprec`, op = `oprec`. The conv jump formulas are not in
//! the doc block (research targets.md §A.3 has them) and are only range-checked.

use super::common::*;
use super::{mvu_layer, mvu_pool};
use melior::ir::OperationRef;

use onnc_mvu_hw::fields::{DATA_RAM_WORDS, SCALER_RAM_WORDS, WEIGHT_RAM_WORDS};
use onnc_mvu_hw::formulas::{self, ConvJob};
use onnc_mvu_hw::ranges::{self, ARRAYS, SCALARS};

/// The operand segments of scaler and bias.
const SCALER_SEGMENT: usize = 2;
const BIAS_SEGMENT: usize = 3;

/// The attributes the formulas read, once they passed their own checks.
struct Job {
    ip: i64,
    wp: i64,
    op: i64,
    ishape: [i64; 3],
    fshape: [i64; 3],
}

pub(super) fn check(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    check_int_widths(op, out);
    check_ranges(op, SCALARS, out);
    let [ilength, ijump, wlength, wjump] =
        ARRAYS.map(|(n, len, lo, hi)| check_i64_list(op, n, len, lo, hi, out));
    let lengths = [ilength, wlength];
    let jumps = [ijump, wjump];
    let job = job(op, out);
    mvu_layer::check(op_name, op, out);
    match op_name {
        "conv" => check_conv(op, job.as_ref(), lengths, out),
        "matmul" => check_matmul(op, job.as_ref(), lengths, jumps, out),
        _ => {}
    }
}

fn job(op: &OperationRef, out: &mut Vec<String>) -> Option<Job> {
    let ishape = triple(op, "ishape", out);
    let fshape = triple(op, "fshape", out);
    let (lo, hi) = ranges::PRECISION;
    let prec = |n: &str| int(op, n).filter(|p| (lo..=hi).contains(p));
    Some(Job {
        ip: prec("aprec")?,
        wp: prec("wprec")?,
        op: prec("oprec")?,
        ishape: ishape?,
        fshape: fshape?,
    })
}

fn triple(op: &OperationRef, name: &str, out: &mut Vec<String>) -> Option<[i64; 3]> {
    let v = check_i64_list(op, name, 3, 1, i64::MAX, out)?;
    Some([*v.first()?, *v.get(1)?, *v.get(2)?])
}

/// `⌈n / 64⌉`.
fn blocks(n: usize) -> i64 {
    onnc_mvu_hw::blocks(n as u64) as i64
}

/// The product of `xs`, `None` on overflow.
fn product(xs: &[i64]) -> Option<i128> {
    xs.iter()
        .try_fold(1i128, |a, &x| a.checked_mul(i128::from(x)))
}

fn fmt_list(v: &[i128]) -> String {
    let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// A formula's array, `None` when an entry overflowed (then no value can match it).
fn all(a: formulas::Array) -> Option<[i128; 5]> {
    let mut out = [0; 5];
    for (o, v) in out.iter_mut().zip(a) {
        *o = v?;
    }
    Some(out)
}

/// Compares a register array with its formula.
fn check_formula(
    name: &str,
    got: Option<&Vec<i64>>,
    formula: &str,
    want: Option<[i128; 5]>,
    out: &mut Vec<String>,
) {
    let (Some(got), Some(want)) = (got, want) else {
        return;
    };
    if got.iter().map(|&x| i128::from(x)).ne(want.iter().copied()) {
        out.push(format!(
            "{name} = {got:?} does not match {formula} = {}",
            fmt_list(&want)
        ));
    }
}

/// Compares `got` (an attribute) with the value the operands give; `false`
/// when they disagree.
fn check_shape_attr(
    name: &str,
    got: Option<[i64; 3]>,
    formula: &str,
    want: [Option<i64>; 3],
    out: &mut Vec<String>,
) -> bool {
    let Some(got) = got else { return true };
    if got
        .iter()
        .zip(want)
        .any(|(g, w)| w.is_some_and(|w| w != *g))
    {
        let parts: Vec<String> = want
            .iter()
            .map(|w| w.map_or("?".into(), |w| w.to_string()))
            .collect();
        out.push(format!(
            "{name} = {got:?} does not match the operands: {formula} = [{}]",
            parts.join(", ")
        ));
        return false;
    }
    true
}

/// `countdown` when it lies in its range (else its range rule reported it).
fn countdown(op: &OperationRef) -> Option<i64> {
    let (lo, hi) = ranges::scalar("countdown")?;
    int(op, "countdown").filter(|c| (lo..=hi).contains(c))
}

/// Scaler and bias, when present, hold `o` entries.
fn check_per_channel(op: &OperationRef, o: Option<usize>, out: &mut Vec<String>) {
    let Some(segments) = operand_segments(op) else {
        return;
    };
    for (name, seg) in [("scaler", SCALER_SEGMENT), ("bias", BIAS_SEGMENT)] {
        let Some(d) = segment_operand(&segments, seg).and_then(|i| operand_dims(op, i)) else {
            continue;
        };
        if !dims_agree(&d, &[o]) {
            let want = o.map_or("?".into(), |o| o.to_string());
            out.push(format!(
                "{name} must have shape [{want}] (one entry per output channel), got {}",
                dims_str(&d)
            ));
        }
    }
}

/// Checks `needed` words against a RAM of `capacity` words.
fn capacity(what: &str, formula: &str, needed: Option<i128>, capacity: u64, out: &mut Vec<String>) {
    if let Some(n) = needed.filter(|&n| n > i128::from(capacity)) {
        out.push(format!(
            "{what} need {n} words ({formula}) but one MVU has {capacity}"
        ));
    }
}

/// Whether scaler or bias is present.
fn has_per_channel(op: &OperationRef) -> bool {
    operand_segments(op).is_some_and(|s| {
        s.get(SCALER_SEGMENT).copied().unwrap_or(0) + s.get(BIAS_SEGMENT).copied().unwrap_or(0) > 0
    })
}

fn check_conv(
    op: &OperationRef,
    job: Option<&Job>,
    [ilength, wlength]: [Option<Vec<i64>>; 2],
    out: &mut Vec<String>,
) {
    let strides = check_i64_list(op, "strides", 2, 1, i64::MAX, out);
    let pads = check_i64_list(op, "pads", 4, 0, i64::MAX, out);
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let w = ranked(operand_dims(op, 1), 4, "weight", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(w)) = (x, w) else { return };
    if let (Some(c), Some(wc)) = (x[1], w[1]) {
        if c != wc {
            out.push(format!(
                "weight has {wc} input channels but the input has {c}"
            ));
        }
    }
    let dim = |d: Option<usize>| d.map(|v| v as i64);
    let ishape_ok = check_shape_attr(
        "ishape",
        job.map(|j| j.ishape),
        "[ceil(C/64), H, W]",
        [x[1].map(blocks), dim(x[2]), dim(x[3])],
        out,
    );
    let fshape_ok = check_shape_attr(
        "fshape",
        job.map(|j| j.fshape),
        "[ceil(O/64), kH, kW]",
        [w[0].map(blocks), dim(w[2]), dim(w[3])],
        out,
    );
    check_per_channel(op, w[0], out);
    let pool = mvu_pool::pool_attrs(op, out);
    if let (Some(y), Some(s), Some(p), Ok(pool)) = (&y, &strides, &pads, &pool) {
        let extent = |axis: usize, pad: i64| -> Option<usize> {
            let s = *s.get(axis)?;
            window_out(x[axis + 2]? as i64, pad, w[axis + 2]? as i64, s, false).map(|v| v as usize)
        };
        let pad_h = p.first().zip(p.get(2)).map(|(a, b)| a + b);
        let pad_w = p.get(1).zip(p.get(3)).map(|(a, b)| a + b);
        let mut expect = [
            x[0],
            w[0],
            pad_h.and_then(|ph| extent(0, ph)),
            pad_w.and_then(|pw| extent(1, pw)),
        ];
        let mut what = "convolution's";
        if let (Some(pool), Some(h), Some(w)) = (pool, expect[2], expect[3]) {
            let pooled = pool.output([h as i64, w as i64], out);
            expect[2] = pooled.map(|p| p[0] as usize);
            expect[3] = pooled.map(|p| p[1] as usize);
            what = "pooled convolution's";
        }
        if !dims_agree(y, &expect) {
            out.push(format!(
                "output shape {} does not match the {what} {}",
                dims_str(y),
                dims_str(&expect)
            ));
        }
    }
    // The formulas read ishape/fshape: only meaningful when those match the operands.
    let Some(j) = job.filter(|_| ishape_ok && fshape_ok) else {
        return;
    };
    match pool {
        Ok(None) => check_conv_registers(
            op,
            j,
            strides.as_ref().and_then(|s| s.get(1).copied()),
            ilength.as_ref(),
            wlength.as_ref(),
            out,
        ),
        Ok(Some(pool)) => {
            if let Some(s) = &strides {
                pool.check_registers(op, &conv_job(j, s[1]), s[0], out);
            }
        }
        Err(()) => {}
    }
    check_conv_capacity(op, j, y.as_deref(), out);
}

/// The formulas' view of a conv op with horizontal stride `sw`.
fn conv_job(j: &Job, sw: i64) -> ConvJob {
    let [ic, _ih, iw] = j.ishape.map(i128::from);
    let [fc, fh, fw] = j.fshape.map(i128::from);
    ConvJob {
        ip: i128::from(j.ip),
        wp: i128::from(j.wp),
        ic,
        fc,
        fh,
        fw,
        iw,
        sw: i128::from(sw),
    }
}

fn check_conv_registers(
    op: &OperationRef,
    j: &Job,
    sw: Option<i64>,
    ilength: Option<&Vec<i64>>,
    wlength: Option<&Vec<i64>>,
    out: &mut Vec<String>,
) {
    let job = conv_job(j, sw.unwrap_or(1));
    let (iw, fw) = (job.iw, job.fw);
    let regs = formulas::conv_registers(&job);
    check_formula(
        "ilength",
        ilength,
        "[0, ip*wp*fC - 1, fH - 1, iC*fW - 1, 0]",
        all(regs.ilength),
        out,
    );
    check_formula(
        "wlength",
        wlength,
        "[0, fC - 1, ip*wp - 1, iC*fW*fH - 1, 0]",
        all(regs.wlength),
        out,
    );
    let (Some(sw), Some(countdown), Some(per_column)) =
        (sw, countdown(op), formulas::conv_countdown(&job, 1))
    else {
        return;
    };
    let span = iw - fw + 1;
    if span < 1 {
        out.push(format!("fshape width {fw} exceeds ishape width {iw}"));
        return;
    }
    let sw = i128::from(sw);
    let (lo, hi) = (span / sw, (span + sw - 1) / sw);
    let c = i128::from(countdown);
    if c != per_column * lo && c != per_column * hi {
        let cols = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} or {hi}")
        };
        out.push(format!("countdown = {countdown} does not match iC*fW*fH*ip*wp*fC * (iW - fW + 1)/sW = {per_column} * {cols}"));
    }
}

fn check_conv_capacity(
    op: &OperationRef,
    j: &Job,
    y: Option<&[Option<usize>]>,
    out: &mut Vec<String>,
) {
    let [ic, ih, iw] = j.ishape;
    let [fc, fh, fw] = j.fshape;
    capacity(
        "input activations",
        "iC*iH*iW*aprec",
        product(&[ic, ih, iw, j.ip]),
        DATA_RAM_WORDS,
        out,
    );
    let spatial = y.and_then(|y| Some((y.get(2).copied()?? as i64, y.get(3).copied()?? as i64)));
    if let Some((oh, ow)) = spatial {
        capacity(
            "output activations",
            "fC*OH*OW*oprec",
            product(&[fc, oh, ow, j.op]),
            DATA_RAM_WORDS,
            out,
        );
    }
    capacity(
        "weights",
        "fC*iC*fH*fW*wprec",
        product(&[fc, ic, fh, fw, j.wp]),
        WEIGHT_RAM_WORDS,
        out,
    );
    if has_per_channel(op) {
        capacity(
            "scaler/bias",
            "fC",
            Some(i128::from(fc)),
            SCALER_RAM_WORDS,
            out,
        );
    }
}

/// A matmul's input as `[N, K]`: rank 2, or a conv's N×C×H×W output that
/// the Gemm reads flattened (K = C·H·W, ONNX `Flatten`).
fn matmul_input(
    dims: Option<Vec<Option<usize>>>,
    out: &mut Vec<String>,
) -> Option<Vec<Option<usize>>> {
    let d = dims?;
    match d.len() {
        2 => Some(d),
        4 => {
            let k = d[1..].iter().try_fold(1usize, |a, x| a.checked_mul((*x)?));
            Some(vec![d[0], k])
        }
        r => {
            out.push(format!(
                "input must have rank 2 (1 x K) or 4 (1 x C x H x W, read flattened), got rank {r} {}",
                dims_str(&d)
            ));
            None
        }
    }
}

fn check_matmul(
    op: &OperationRef,
    job: Option<&Job>,
    [ilength, wlength]: [Option<Vec<i64>>; 2],
    [ijump, wjump]: [Option<Vec<i64>>; 2],
    out: &mut Vec<String>,
) {
    let x = matmul_input(operand_dims(op, 0), out);
    let w = ranked(operand_dims(op, 1), 2, "weight", out);
    let y = ranked(result_dims(op, 0), 2, "output", out);
    if let Some(n) = x.as_ref().and_then(|x| x[0]).filter(|&n| n != 1) {
        out.push(format!(
            "input batch is {n} but an MVU matmul takes one vector (1 x K)"
        ));
    }
    let (Some(x), Some(w)) = (x, w) else { return };
    if let (Some(k), Some(d1)) = (x[1], w[1]) {
        if k != d1 {
            out.push(format!(
                "weight is {} x {d1} but the input has K = {k}",
                w[0].map_or("?".into(), |d| d.to_string())
            ));
        }
    }
    let dim = |d: Option<usize>| d.map(|v| v as i64);
    let ishape_ok = check_shape_attr(
        "ishape",
        job.map(|j| j.ishape),
        "[ceil(K/64), 1, 1]",
        [x[1].map(blocks), Some(1), Some(1)],
        out,
    );
    let fshape_ok = check_shape_attr(
        "fshape",
        job.map(|j| j.fshape),
        "[ceil(d0/64), d0, d1]",
        [w[0].map(blocks), dim(w[0]), dim(w[1])],
        out,
    );
    check_per_channel(op, w[0], out);
    if let Some(y) = &y {
        let expect = [Some(1), w[0]];
        if !dims_agree(y, &expect) {
            out.push(format!(
                "output shape {} does not match 1 x d0 = {}",
                dims_str(y),
                dims_str(&expect)
            ));
        }
    }
    let Some(j) = job.filter(|_| ishape_ok && fshape_ok) else {
        return;
    };
    let ip = i128::from(j.ip);
    let wp = i128::from(j.wp);
    let mh = i128::from(onnc_mvu_hw::blocks(j.fshape[1] as u64));
    let mw = i128::from(onnc_mvu_hw::blocks(j.fshape[2] as u64));
    let (regs, want) = formulas::matmul_registers(ip, wp, mh, mw);
    check_formula(
        "ilength",
        ilength.as_ref(),
        "[0, m_h - 1, 0, 0, 0]",
        all(regs.ilength),
        out,
    );
    check_formula(
        "ijump",
        ijump.as_ref(),
        "[-ip*(m_w - 1), ip, 0, 0, 0]",
        all(regs.ijump),
        out,
    );
    check_formula(
        "wlength",
        wlength.as_ref(),
        "[0, wp*ip - 1, m_w - 1, 0, 0]",
        all(regs.wlength),
        out,
    );
    check_formula(
        "wjump",
        wjump.as_ref(),
        "[wp, -wp*(m_w - 1), wp, 0, 0]",
        all(regs.wjump),
        out,
    );
    if let (Some(c), Some(want)) = (countdown(op), want) {
        if i128::from(c) != want {
            out.push(format!(
                "countdown = {c} does not match m_w*m_h*ip*wp = {want}"
            ));
        }
    }
    capacity(
        "input activations",
        "m_w*aprec",
        Some(mw * ip),
        DATA_RAM_WORDS,
        out,
    );
    capacity(
        "output activations",
        "m_h*oprec",
        Some(mh * i128::from(j.op)),
        DATA_RAM_WORDS,
        out,
    );
    capacity(
        "weights",
        "m_h*m_w*wprec",
        Some(mh * mw * wp),
        WEIGHT_RAM_WORDS,
        out,
    );
    if has_per_channel(op) {
        capacity("scaler/bias", "m_h", Some(mh), SCALER_RAM_WORDS, out);
    }
}
