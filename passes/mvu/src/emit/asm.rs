//! `mvu_program.s`: a PITO (RV32I) assembly listing that runs every layer.
//!
//! In: a [`Table`] and [`AsmOptions`] (base addresses, symbol names). Out: GNU
//! `as` / `llvm-mc` syntax; CSRs are named through `.equ` with the RTL addresses
//! of [`crate::csr`]. Per layer, a function `<prefix><i>` that
//! 1. writes `mvuprecision`, `mvuquant`, `mvuomvusel` ([`OutputMvus`]), `mvuilength_1..4`, `mvuijump_0..4`,
//!    `mvuwlength_1..4`, `mvuwjump_0..4` (`csrwi` for 0..=31, else `li` + `csrw`),
//!    and, in a program where a layer adds a bias, `mvuscaler`,
//!    `mvuusescaler_mem`, `mvuusebias_mem`, `mvubbaseptr`, `mvublength_1`,
//!    `mvubjump_0..4` (see `bias_csrs`);
//! 2. kicks the layer's jobs ([`ConvJobs`]; default: [`Row::jobs`]): per job it writes `mvuwbaseptr`, `mvuibaseptr`,
//!    `mvuobaseptr` and `mvucommand = (1 << 30) | countdown` (MulMode 01, as in
//!    BARVINN's programs), calls the wait routine, then advances the input and
//!    output pointers by the layer's [`crate::MemoryUse`] steps.
//!
//! `<entry>` calls the layers in order. The listing does not define the wait
//! routine: the runtime provides it (BARVINN's is `wait_for_mvu_irq` in
//! `csrc/conv/asm/CorrectedSimpleConv.S`, which needs the MVU interrupt enabled).
//! Default placement: weights at 0 (reloaded per layer), activations ping-pong
//! between data-RAM word 0 and the upper half.
//!
//! ```
//! use onnc_mvu::{emit, generate, ConvShape, Layer, Options, Precision};
//! let t = generate(&[Layer::conv("Conv_0", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1),
//!                                Precision::new(2, 2, 2))], &Options::default()).unwrap();
//! let s = emit::asm(&t, &emit::AsmOptions::default()).unwrap();
//! assert!(s.contains(".equ mvuijump_0, 0xf2a"));
//! assert!(s.contains("li t0, -132\n    csrw mvuijump_0, t0"));
//! assert!(s.contains("li s4, 0x40000438"));
//! ```

use std::fmt::Write as _;

use crate::config::{Row, Table};
use crate::csr::{self, Csr};
use crate::error::{Error, Result};
use crate::layer::LayerOp;
use crate::limits::{unsigned_range, MvuLimits, DATA_ADDR_BITS, WEIGHT_ADDR_BITS};

/// Base addresses of one layer's tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerBases {
    /// First data-RAM word of the input.
    pub input: u32,
    /// First data-RAM word of the output.
    pub output: u32,
    /// First weight-RAM word.
    pub weight: u32,
    /// Output words skipped after each output pixel of a pooled layer (the
    /// other parts of a Concat buffer its words interleave with); 0 otherwise.
    pub pixel_skip: u32,
}

/// How many jobs the program kicks for a convolution. BARVINN's programs use
/// one job per output row; the other counts are there because the hardware
/// behaviour at the padded border is not established (see the crate README).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConvJobs {
    /// ONNX output rows `oH` = [`Row::jobs`] (what `CorrectedSimpleConv.S`
    /// loops over, 32, and what BARVINN's `csrc/conv/src/main.c` splits over
    /// its 8 harts).
    #[default]
    OutputRows,
    /// BARVINN's total-countdown row count `ceil((iW + pads[0] + pads[1]) /
    /// strides[1])`, so the program runs exactly the cycles the table's total
    /// countdown accounts for.
    Barvinn,
    /// Vertical valid windows over the stored (unpadded) input,
    /// `ceil((iH − fH + 1) / sH)`, mirroring the countdown's column count.
    ValidWindows,
}

/// Jobs to kick for `r` under `mode` (matmul: always `rows`).
pub fn job_count(r: &Row, mode: ConvJobs) -> u64 {
    match (r.layer.op, mode) {
        (LayerOp::Conv(_), ConvJobs::Barvinn) => r.total_layer_countdown / r.countdown.max(1),
        (LayerOp::Conv(c), ConvJobs::ValidWindows) => {
            let (ih, fh, sh) = (
                u64::from(c.in_height),
                u64::from(c.kernel[0]),
                u64::from(c.strides[0]).max(1),
            );
            (ih + 1).saturating_sub(fh).div_ceil(sh)
        }
        _ => r.jobs,
    }
}

/// Which MVUs receive a layer's results (`mvuomvusel`). In the pinned RTL an
/// MVU writes its own data RAM only when its own bit is set, so this must be
/// programmed (BARVINN's `conv2d.c` writes `1 << hart_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputMvus {
    /// `1 << mhartid`: the MVU of the hart running the program.
    #[default]
    OwnHart,
    /// An explicit mask (bit k = MVU k).
    Mask(u8),
}

/// Assembly options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmOptions {
    /// Job count policy for convolutions.
    pub conv_jobs: ConvJobs,
    /// Destination MVUs of the results.
    pub output_mvus: OutputMvus,
    /// Bases per layer; layers without an entry use [`default_bases`].
    pub bases: Vec<LayerBases>,
    /// Routine called after each kick; must return once the MVU job is done.
    pub wait_symbol: String,
    /// Global entry point that runs all layers.
    pub entry_symbol: String,
    /// Prefix of the per-layer functions (`<prefix><index>`).
    pub layer_prefix: String,
    /// RAM sizes for the default placement.
    pub limits: MvuLimits,
}

impl Default for AsmOptions {
    fn default() -> Self {
        AsmOptions {
            conv_jobs: ConvJobs::OutputRows,
            output_mvus: OutputMvus::OwnHart,
            bases: Vec::new(),
            wait_symbol: "wait_for_mvu_irq".into(),
            entry_symbol: "onnc_mvu_run".into(),
            layer_prefix: "onnc_mvu_l".into(),
            limits: MvuLimits::BARVINN,
        }
    }
}

/// Default placement of layer `index`: weights at 0; even layers read word 0
/// and write the upper half of the data RAM, odd layers the other way round.
pub fn default_bases(index: usize, limits: &MvuLimits) -> LayerBases {
    let half = u32::try_from(limits.data_ram_words / 2).unwrap_or(u32::MAX);
    if index & 1 == 0 {
        LayerBases {
            input: 0,
            output: half,
            weight: 0,
            pixel_skip: 0,
        }
    } else {
        LayerBases {
            input: half,
            output: 0,
            weight: 0,
            pixel_skip: 0,
        }
    }
}

fn write_csr(s: &mut String, c: Csr, value: i64) {
    if (0..=31).contains(&value) {
        let _ = writeln!(s, "    csrwi {}, {value}", c.name);
    } else {
        let _ = writeln!(s, "    li t0, {value}\n    csrw {}, t0", c.name);
    }
}

/// Checks that every pointer value a layer's loop produces fits its field.
fn check_pointers(r: &Row, jobs: u64, b: &LayerBases) -> Result<()> {
    let last = jobs.saturating_sub(1);
    let checks = [
        (
            "mvuibaseptr",
            u64::from(b.input),
            r.memory.input_step,
            DATA_ADDR_BITS,
        ),
        (
            "mvuobaseptr",
            u64::from(b.output),
            r.memory.output_step,
            DATA_ADDR_BITS,
        ),
        ("mvuwbaseptr", u64::from(b.weight), 0, WEIGHT_ADDR_BITS),
    ];
    for (field, base, step, bits) in checks {
        let value = base.saturating_add(step.saturating_mul(last));
        let (min, max) = unsigned_range(bits);
        if i128::from(value) > max {
            return Err(Error::RegisterOverflow {
                layer: r.name.clone(),
                field: format!("{field} (last job)"),
                value: value.into(),
                bits,
                min,
                max,
            });
        }
    }
    Ok(())
}

/// Pointer steps of a pooled layer: per pooled row and column (input words),
/// per filter block (weight words), and the loop counts `[rows, cols, blocks]`.
struct PooledSteps {
    row: u64,
    col: u64,
    block: u64,
    counts: [u64; 3],
}

fn pooled_steps(r: &Row) -> Option<PooledSteps> {
    let (pool, LayerOp::Conv(c)) = (r.pool.as_ref()?, &r.layer.op) else {
        return None;
    };
    let [_, ph, pw] = r.layer.output_chw()?;
    let [ic, _, iw] = r.i_shape;
    let [fc, fh, fw] = r.f_shape;
    let ip = u64::from(r.aprec);
    Some(PooledSteps {
        row: u64::from(pool.strides[0]) * u64::from(c.strides[0]) * iw * ic * ip,
        col: u64::from(pool.strides[1]) * u64::from(c.strides[1]) * ic * ip,
        block: ic * fh * fw * u64::from(r.wprec),
        counts: [ph.into(), pw.into(), fc],
    })
}

/// Checks the last pointers of a pooled layer's nested job loops.
fn check_pooled_pointers(r: &Row, p: &PooledSteps, b: &LayerBases) -> Result<()> {
    let [rows, cols, blocks] = p.counts.map(|n| n.saturating_sub(1));
    let jobs = p.counts.iter().product::<u64>().saturating_sub(1);
    let checks = [
        (
            "mvuibaseptr",
            u64::from(b.input) + rows * p.row + cols * p.col,
            DATA_ADDR_BITS,
        ),
        (
            "mvuobaseptr",
            u64::from(b.output)
                + jobs * u64::from(r.oprec)
                + (p.counts[0] * p.counts[1]).saturating_sub(1) * u64::from(b.pixel_skip),
            DATA_ADDR_BITS,
        ),
        (
            "mvuwbaseptr",
            u64::from(b.weight) + blocks * p.block,
            WEIGHT_ADDR_BITS,
        ),
    ];
    for (field, value, bits) in checks {
        let (min, max) = unsigned_range(bits);
        if i128::from(value) > max {
            return Err(Error::RegisterOverflow {
                layer: r.name.clone(),
                field: format!("{field} (last job)"),
                value: value.into(),
                bits,
                min,
                max,
            });
        }
    }
    Ok(())
}

/// The job loops of a pooled layer: pooled rows, pooled columns, filter
/// blocks (innermost); one job per pooled pixel and block.
fn pooled_jobs(s: &mut String, f: &str, r: &Row, p: &PooledSteps, b: &LayerBases, o: &AsmOptions) {
    let [rows, cols, blocks] = p.counts;
    let _ = writeln!(s, "    li s0, {rows}    # pooled rows");
    let _ = writeln!(s, "    li s1, {}    # output base", b.output);
    let _ = writeln!(
        s,
        "    li s3, {}    # input base of the pooled row",
        b.input
    );
    let _ = writeln!(
        s,
        "    li s4, 0x{:08x}    # MulMode 01 | {} | countdown {}",
        r.command_word(),
        if r.uses_pooler() {
            "max-pool"
        } else {
            "pooler off"
        },
        r.countdown
    );
    let _ = writeln!(s, "    beqz s0, .L{f}_done\n.L{f}_row:");
    let _ = writeln!(s, "    li s5, {cols}    # pooled columns\n    mv s7, s3");
    let _ = writeln!(
        s,
        ".L{f}_col:\n    li s6, {blocks}    # filter blocks\n    li s2, {}    # weight base",
        b.weight
    );
    let _ = writeln!(s, ".L{f}_job:");
    if let Some(base) = r.bias_base {
        // The block's bias word: base + (blocks − blocks left).
        let _ = writeln!(
            s,
            "    li t0, {}\n    sub t0, t0, s6\n    csrw {}, t0    # bias word of this block",
            u64::from(base) + blocks,
            csr::MVUBBASEPTR.name
        );
    }
    for (c, reg) in [
        (csr::MVUWBASEPTR, "s2"),
        (csr::MVUIBASEPTR, "s7"),
        (csr::MVUOBASEPTR, "s1"),
        (csr::MVUCOMMAND, "s4"),
    ] {
        let _ = writeln!(s, "    csrw {}, {reg}", c.name);
    }
    let _ = writeln!(s, "    call {}", o.wait_symbol);
    let _ = writeln!(s, "    addi s1, s1, {}", r.oprec);
    let _ = writeln!(s, "    li t0, {}\n    add s2, s2, t0", p.block);
    let _ = writeln!(s, "    addi s6, s6, -1\n    bnez s6, .L{f}_job");
    if b.pixel_skip > 0 {
        let _ = writeln!(
            s,
            "    li t0, {}\n    add s1, s1, t0    # the other Concat parts' words of this pixel",
            b.pixel_skip
        );
    }
    let _ = writeln!(s, "    li t0, {}\n    add s7, s7, t0", p.col);
    let _ = writeln!(s, "    addi s5, s5, -1\n    bnez s5, .L{f}_col");
    let _ = writeln!(s, "    li t0, {}\n    add s3, s3, t0", p.row);
    let _ = writeln!(
        s,
        "    addi s0, s0, -1\n    bnez s0, .L{f}_row\n.L{f}_done:"
    );
}

/// The scaler and bias CSRs of a layer in a program where some layer adds a
/// bias (`mvu.v`/`mvutop.sv` at `bfab134`): the scaler multiplies by
/// `mvuscaler = 1` (not the scaler RAM); `mvuusebias_mem` selects the bias
/// RAM. The bias address generator (an `agu` cleared at each job's start and
/// stepped once per accumulator result) is programmed through `mvubjump_0..4`
/// and `mvublength_1` only: BARVINN's `mvutop_wrapper.sv` decodes
/// `mvublength_2..4` into `blength[1]` too, so they are never written (they
/// would overwrite `mvublength_1`). A plain job's results come pixel by pixel,
/// `fC` blocks each, so the address runs `base, base + 1, ..., base + fC − 1`
/// and back (`blength_1 = fC − 1`, `bjump_1 = 1`, `bjump_0 = −(fC − 1)`); a
/// pooled job is one block, so every jump is 0 and the job's base pointer
/// selects the block.
fn bias_csrs(s: &mut String, r: &Row, pooled: bool) {
    write_csr(s, csr::MVUSCALER, 1);
    write_csr(s, csr::MVUUSESCALER_MEM, 0);
    let Some(base) = r.bias_base else {
        write_csr(s, csr::MVUUSEBIAS_MEM, 0);
        return;
    };
    let fc = if pooled {
        1
    } else {
        r.f_shape[0].max(1) as i64
    };
    write_csr(s, csr::MVUUSEBIAS_MEM, 1);
    write_csr(s, csr::MVUBBASEPTR, base.into());
    write_csr(s, csr::MVUBLENGTH_1, fc - 1);
    for (k, v) in [-(fc - 1), i64::from(fc > 1), 0, 0, 0]
        .into_iter()
        .enumerate()
    {
        write_csr(s, csr::bjump(k), v);
    }
}

fn layer(s: &mut String, i: usize, r: &Row, b: &LayerBases, o: &AsmOptions, biased_table: bool) {
    let f = format!("{}{i}", o.layer_prefix);
    let jobs = job_count(r, o.conv_jobs);
    let p = &r.layer.precision;
    let _ = writeln!(s, "\n# {}", "-".repeat(70));
    let _ = writeln!(
        s,
        "# layer {i}: {} ({})",
        r.name.replace('\n', " "),
        r.kind.as_str()
    );
    let _ = writeln!(
        s,
        "#   iShape {:?}  fShape {:?}  aprec {}  wprec {}  oprec {}",
        r.i_shape, r.f_shape, r.aprec, r.wprec, r.oprec
    );
    let _ = writeln!(
        s,
        "#   countdown {} x {jobs} jobs (BARVINN total {})",
        r.countdown, r.total_layer_countdown
    );
    let _ = writeln!(s, "# {}", "-".repeat(70));
    let _ = writeln!(s, "    .globl {f}\n{f}:");
    let pooled = pooled_steps(r);
    if pooled.is_some() {
        s.push_str("    addi sp, sp, -48\n    sw ra, 44(sp)\n    sw s0, 40(sp)\n    sw s1, 36(sp)\n    sw s2, 32(sp)\n    sw s3, 28(sp)\n    sw s4, 24(sp)\n    sw s5, 20(sp)\n    sw s6, 16(sp)\n    sw s7, 12(sp)\n");
    } else {
        s.push_str("    addi sp, sp, -32\n    sw ra, 28(sp)\n    sw s0, 24(sp)\n    sw s1, 20(sp)\n    sw s2, 16(sp)\n    sw s3, 12(sp)\n    sw s4, 8(sp)\n");
    }
    let sign = |b: bool| if b { "signed" } else { "unsigned" };
    let _ = writeln!(
        s,
        "    li t0, 0x{:x}    # wprec {} ({}), aprec {} ({}), oprec {}",
        r.precision_word(),
        p.weight,
        sign(p.weight_signed),
        p.act,
        sign(p.act_signed),
        p.out
    );
    let _ = writeln!(s, "    csrw {}, t0", csr::MVUPRECISION.name);
    write_csr(s, csr::MVUQUANT, r.quant_word().into());
    match o.output_mvus {
        OutputMvus::OwnHart => {
            let _ = writeln!(s, "    csrr t0, mhartid\n    li t1, 1\n    sll t1, t1, t0\n    csrw {}, t1    # results to this hart's MVU", csr::MVUOMVUSEL.name);
        }
        OutputMvus::Mask(m) => write_csr(s, csr::MVUOMVUSEL, m.into()),
    }
    for k in 1..=4 {
        write_csr(s, csr::ilength(k), r.ilength[k]);
    }
    for k in 0..=4 {
        write_csr(s, csr::ijump(k), r.ijump[k]);
    }
    for k in 1..=4 {
        write_csr(s, csr::wlength(k), r.wlength[k]);
    }
    for k in 0..=4 {
        write_csr(s, csr::wjump(k), r.wjump[k]);
    }
    if biased_table {
        bias_csrs(s, r, pooled.is_some());
    }
    if let Some(p) = &pooled {
        pooled_jobs(s, &f, r, p, b, o);
        s.push_str("    lw s7, 12(sp)\n    lw s6, 16(sp)\n    lw s5, 20(sp)\n    lw s4, 24(sp)\n    lw s3, 28(sp)\n    lw s2, 32(sp)\n    lw s1, 36(sp)\n    lw s0, 40(sp)\n    lw ra, 44(sp)\n    addi sp, sp, 48\n    ret\n");
    } else {
        plain_jobs(s, &f, r, jobs, b, o);
        s.push_str("    lw s4, 8(sp)\n    lw s3, 12(sp)\n    lw s2, 16(sp)\n    lw s1, 20(sp)\n    lw s0, 24(sp)\n    lw ra, 28(sp)\n    addi sp, sp, 32\n    ret\n");
    }
}

/// The job loop of an unpooled layer: constant pointer steps.
fn plain_jobs(s: &mut String, f: &str, r: &Row, jobs: u64, b: &LayerBases, o: &AsmOptions) {
    let _ = writeln!(s, "    li s0, {jobs}    # jobs");
    let _ = writeln!(s, "    li s1, {}    # output base", b.output);
    let _ = writeln!(s, "    li s2, {}    # weight base", b.weight);
    let _ = writeln!(s, "    li s3, {}    # input base", b.input);
    let _ = writeln!(
        s,
        "    li s4, 0x{:08x}    # MulMode 01 | countdown {}",
        r.command_word(),
        r.countdown
    );
    let _ = writeln!(s, "    beqz s0, .L{f}_done\n.L{f}_job:");
    for (c, reg) in [
        (csr::MVUWBASEPTR, "s2"),
        (csr::MVUIBASEPTR, "s3"),
        (csr::MVUOBASEPTR, "s1"),
        (csr::MVUCOMMAND, "s4"),
    ] {
        let _ = writeln!(s, "    csrw {}, {reg}", c.name);
    }
    let _ = writeln!(s, "    call {}", o.wait_symbol);
    s.push_str("    addi s0, s0, -1\n");
    let _ = writeln!(s, "    li t0, {}\n    add s3, s3, t0", r.memory.input_step);
    let _ = writeln!(s, "    li t0, {}\n    add s1, s1, t0", r.memory.output_step);
    let _ = writeln!(s, "    bnez s0, .L{f}_job\n.L{f}_done:");
}

/// Renders the assembly listing for `table`.
pub fn asm(table: &Table, opts: &AsmOptions) -> Result<String> {
    let bases: Vec<LayerBases> = (0..table.rows.len())
        .map(|i| {
            opts.bases
                .get(i)
                .copied()
                .unwrap_or_else(|| default_bases(i, &opts.limits))
        })
        .collect();
    for (r, b) in table.rows.iter().zip(&bases) {
        let jobs = job_count(r, opts.conv_jobs);
        if jobs == 0 {
            continue;
        }
        match pooled_steps(r) {
            Some(p) => check_pooled_pointers(r, &p, b)?,
            None => check_pointers(r, jobs, b)?,
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "# mvu_program.s - PITO (RV32I) program for {} MVU layer(s), generated by onnc-mvu. Do not edit.", table.rows.len());
    let _ = writeln!(s, "# Total countdown: {} cycles.", table.total_countdown);
    let _ = writeln!(
        s,
        "# Needs `{}` from the runtime (returns when the MVU job is done).",
        opts.wait_symbol
    );
    s.push_str("# CSR addresses: obilaniu/MVU verification/lib/mvu/mvu_pkg.sv @ bfab134.\n\n");
    for c in csr::ALL {
        let _ = writeln!(s, "    .equ {}, 0x{:03x}", c.name, c.addr);
    }
    let e = &opts.entry_symbol;
    let _ = writeln!(s, "\n    .text\n    .globl {e}\n{e}:");
    s.push_str("    addi sp, sp, -16\n    sw ra, 12(sp)\n");
    for i in 0..table.rows.len() {
        let _ = writeln!(s, "    call {}{i}", opts.layer_prefix);
    }
    s.push_str("    lw ra, 12(sp)\n    addi sp, sp, 16\n    ret\n");
    let biased = table.rows.iter().any(|r| r.bias_base.is_some());
    for (i, (r, b)) in table.rows.iter().zip(&bases).enumerate() {
        layer(&mut s, i, r, b, opts, biased);
    }
    Ok(s)
}
