//! Convolution buffer (CBUF) allotment and row bands of a convolution that
//! does not fit it.
//!
//! In: a [`ConvGeom`] (entries per input line, lines, weight sizes in CBUF
//! entries, kernel height, stride, dilation, pads) and the CBUF shape (banks,
//! entries per bank). Out: a [`ConvPlan`]: data and weight banks and one
//! [`Band`] per descriptor pair (one band when the input fits).
//!
//! Rules (research/nvdla.md §6, `ConvCoreNode::splitNodesInternal` and
//! `determineSplitDataRatios` of the official compiler):
//! * the whole input fits beside the weights: full weights, else two kernel
//!   groups (ping-pong), else one kernel group; one band;
//! * else the input is cut into bands of output rows (partial-H). For each
//!   weight mode that leaves room for at least one kernel height of input
//!   lines, the data banks are the rest of the CBUF and a band holds as many
//!   output rows as its input lines fit; the mode with the least CBUF traffic
//!   (input entries of all bands + weight entries, once with full weights
//!   since the bands reuse them, once per band otherwise) wins, ties going to
//!   the earlier mode;
//! * a band's input lines are the receptive field of its output rows clipped
//!   to the tensor; the clipped part is its padding (so only the first band
//!   has top padding and only the last bottom padding);
//! * with full weights the bands keep them in the CBUF: the first skips the
//!   weight release, the middle ones reuse and skip, the last reuses and
//!   releases (as the official compiler does);
//! * nothing fits (one kernel group and one kernel height of input exceed
//!   the CBUF): an error here; the emitter then splits the conv into
//!   channel chunks when its kernels read few input channels
//!   ([`super::chan_split`]), else reports it.
//!
//! Example: ResNet-50's first conv on nv_full (3×224×224 fp16 → 64×112×112,
//! 7×7 stride 2 pad 3; 56 entries per line, 256 entries per bank) needs 49
//! banks of input; its weights (147 entries) stay whole in 1 bank, leaving
//! 15 data banks = 68 lines = 31 output rows per band: 4 bands of 31, 31, 31
//! and 19 rows, the first reading lines 0..64 with pad_top 3, the last
//! padded at the bottom.

/// What the planner needs to know about one direct convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConvGeom {
    /// CBUF entries per input line (`entry_per_slice`).
    pub(crate) eps: usize,
    /// Input lines (height).
    pub(crate) in_h: usize,
    /// Output rows.
    pub(crate) out_h: usize,
    /// Kernel height, vertical stride and dilation.
    pub(crate) r: usize,
    pub(crate) stride: usize,
    pub(crate) dilation: usize,
    /// Top and bottom padding of the whole convolution.
    pub(crate) pad_top: usize,
    pub(crate) pad_bottom: usize,
    /// CBUF entries of all the weights and of one kernel group.
    pub(crate) weight_entries: usize,
    pub(crate) group_entries: usize,
}

/// CBUF shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cbuf {
    pub(crate) banks: usize,
    pub(crate) entries_per_bank: usize,
}

/// One descriptor pair's share of the output rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Band {
    /// First output row and number of output rows.
    pub(crate) out_top: usize,
    pub(crate) out_rows: usize,
    /// First input line and number of input lines read.
    pub(crate) in_top: usize,
    pub(crate) in_rows: usize,
    /// Padding of this band.
    pub(crate) pad_top: usize,
    pub(crate) pad_bottom: usize,
    /// Keep the weights in the CBUF for the next band / use those of the previous.
    pub(crate) skip_weight_release: bool,
    pub(crate) reuse_weights: bool,
    /// The channel chunk this band belongs to, when the convolution is
    /// split along channels ([`super::chan_split`]); `None`: all channels.
    pub(crate) chunk: Option<Chunk>,
}

/// One channel chunk of a convolution split along channels: kernels
/// `[k0, k0 + k)` (output channels) reading input channels `[c0, c0 + c)`,
/// their weights at `w_off` (`w_bytes` bytes) in the conv's weight blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chunk {
    pub(crate) k0: usize,
    pub(crate) k: usize,
    pub(crate) c0: usize,
    pub(crate) c: usize,
    pub(crate) w_off: usize,
    pub(crate) w_bytes: usize,
}

/// Bank allotment and bands of one convolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConvPlan {
    /// CBUF entries per input line.
    pub(crate) eps: usize,
    pub(crate) data_bank: usize,
    pub(crate) weight_bank: usize,
    pub(crate) bands: Vec<Band>,
}

fn banks(entries: usize, per_bank: usize) -> usize {
    entries.div_ceil(per_bank.max(1)).max(1)
}

/// The band of output rows `[o0, o1)`.
fn band(g: &ConvGeom, o0: usize, o1: usize) -> Band {
    let kh = (g.r - 1) * g.dilation + 1;
    let first = (o0 * g.stride) as isize - g.pad_top as isize;
    let last = ((o1 - 1) * g.stride + kh - 1) as isize - g.pad_top as isize;
    let top = first.max(0) as usize;
    let bottom = (last.min(g.in_h as isize - 1)).max(0) as usize;
    Band {
        out_top: o0,
        out_rows: o1 - o0,
        in_top: top,
        in_rows: bottom + 1 - top,
        pad_top: (-first).max(0) as usize,
        pad_bottom: (last - (g.in_h as isize - 1)).max(0) as usize,
        skip_weight_release: false,
        reuse_weights: false,
        chunk: None,
    }
}

/// Most row bands (descriptor pairs) one convolution may be split into.
/// A real network needs a few hundred at most; a hostile height (2^62 rows)
/// would need 2^57 and used to abort on the allocation of the band list.
pub(crate) const MAX_BANDS: usize = 1 << 16;

/// Plans the CBUF use of `g`; the error says what does not fit.
pub(crate) fn plan(g: &ConvGeom, cbuf: &Cbuf) -> Result<ConvPlan, String> {
    let epb = cbuf.entries_per_bank.max(1);
    let input_entries = g.eps.checked_mul(g.in_h).ok_or_else(|| {
        format!(
            "the input ({} lines of {} CBUF entries) is too large to address",
            g.in_h, g.eps
        )
    })?;
    let data = banks(input_entries, epb);
    let (full, group) = (banks(g.weight_entries, epb), banks(g.group_entries, epb));
    let modes = [full, 2 * group, group];
    if let Some(&wb) = modes.iter().find(|&&wb| data + wb <= cbuf.banks) {
        // One band reads the whole input with the conv's own pads (a strided
        // conv may not need the last lines; the hardware skips them).
        let mut b = band(g, 0, g.out_h);
        (b.in_top, b.in_rows, b.pad_top, b.pad_bottom) = (0, g.in_h, g.pad_top, g.pad_bottom);
        return Ok(ConvPlan {
            eps: g.eps,
            data_bank: data,
            weight_bank: wb,
            bands: vec![b],
        });
    }
    let kh = (g.r - 1) * g.dilation + 1;
    let mut best: Option<(usize, ConvPlan)> = None;
    for (m, &wb) in modes.iter().enumerate() {
        if wb >= cbuf.banks {
            continue;
        }
        let db = cbuf.banks - wb;
        let lines = db * epb / g.eps.max(1);
        if lines < kh {
            continue;
        }
        let rows = (lines - kh) / g.stride.max(1) + 1;
        let n = g.out_h.div_ceil(rows);
        if n > MAX_BANDS {
            return Err(format!(
                "{} output rows would need {n} row bands of {rows} rows; at most {MAX_BANDS} are supported (check the input height)",
                g.out_h
            ));
        }
        let mut bands: Vec<Band> = (0..g.out_h)
            .step_by(rows)
            .map(|o| band(g, o, (o + rows).min(g.out_h)))
            .collect();
        let n = bands.len();
        if m == 0 && n > 1 {
            for (i, b) in bands.iter_mut().enumerate() {
                b.reuse_weights = i > 0;
                b.skip_weight_release = i + 1 < n;
            }
        }
        let input: usize = bands
            .iter()
            .map(|b| b.in_rows.saturating_mul(g.eps))
            .fold(0, usize::saturating_add);
        let cost =
            input.saturating_add(g.weight_entries.saturating_mul(if m == 0 { 1 } else { n }));
        if best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((
                cost,
                ConvPlan {
                    eps: g.eps,
                    data_bank: db,
                    weight_bank: wb,
                    bands,
                },
            ));
        }
    }
    best.map(|(_, p)| p).ok_or_else(|| {
        format!(
            "one kernel group needs {group} CBUF banks and one kernel height ({kh} lines) of input {} more, more than the {} banks",
            banks(g.eps * kh, epb),
            cbuf.banks
        )
    })
}

/// A recorded plan ([`crate::cbuf::CbufPlan`], from `nvdla-split-conv` or
/// the text) checked against the convolution it is for: banks within the
/// CBUF and holding one kernel group, bands covering every output row once,
/// each band's lines inside the input, within its data banks and the
/// receptive field of its rows, and weights kept or reused only with full
/// weights. Out: the plan as emission uses it, or what is wrong.
pub(crate) fn check(
    g: &ConvGeom,
    cbuf: &Cbuf,
    rec: &crate::cbuf::CbufPlan,
) -> Result<ConvPlan, String> {
    let epb = cbuf.entries_per_bank.max(1);
    let (db, wb) = (rec.data_bank, rec.weight_bank);
    if db == 0 || wb == 0 || db.saturating_add(wb) > cbuf.banks {
        return Err(format!(
            "data_bank {db} + weight_bank {wb} must be at least 1 each and at most the {} banks together",
            cbuf.banks
        ));
    }
    let group = banks(g.group_entries, epb);
    if wb < group {
        return Err(format!(
            "weight_bank {wb} is less than one kernel group ({group} banks)"
        ));
    }
    let full = wb >= banks(g.weight_entries, epb);
    if rec.bands.is_empty() || rec.bands.len() > MAX_BANDS {
        return Err(format!(
            "{} bands: a plan has 1 to {MAX_BANDS}",
            rec.bands.len()
        ));
    }
    let kh = (g.r - 1) * g.dilation + 1;
    let mut next = 0usize;
    let mut kept = false;
    let mut bands = Vec::with_capacity(rec.bands.len());
    for (i, b) in rec.bands.iter().enumerate() {
        let fail = |m: String| Err(format!("band {i}: {m}"));
        if b.out_top != next || b.out_rows == 0 {
            return fail(format!(
                "starts at output row {} with {} rows; it must start at row {next} with at least one",
                b.out_top, b.out_rows
            ));
        }
        next = next.saturating_add(b.out_rows);
        if b.in_rows == 0 || b.in_top.checked_add(b.in_rows).is_none_or(|e| e > g.in_h) {
            return fail(format!(
                "input lines {}..+{} are not inside the {} lines of the input",
                b.in_top, b.in_rows, g.in_h
            ));
        }
        if b.in_rows.saturating_mul(g.eps) > db.saturating_mul(epb) {
            return fail(format!(
                "{} lines of {} entries do not fit {db} data banks",
                b.in_rows, g.eps
            ));
        }
        let span = b.in_rows + b.pad_top + b.pad_bottom;
        let rows = if span >= kh {
            (span - kh) / g.stride.max(1) + 1
        } else {
            0
        };
        let first = b.out_top as i128 * g.stride as i128 - g.pad_top as i128;
        if rows != b.out_rows || b.in_top as i128 - b.pad_top as i128 != first {
            return fail(format!(
                "lines {}..+{} padded {} above and {} below do not give output rows {}..+{}",
                b.in_top, b.in_rows, b.pad_top, b.pad_bottom, b.out_top, b.out_rows
            ));
        }
        if b.reuse_weights != kept || ((b.reuse_weights || b.keep_weights) && !full) {
            return fail(
                "reuses weights the previous band did not keep, or keeps weights without holding all of them"
                    .into(),
            );
        }
        kept = b.keep_weights;
        bands.push(Band {
            out_top: b.out_top,
            out_rows: b.out_rows,
            in_top: b.in_top,
            in_rows: b.in_rows,
            pad_top: b.pad_top,
            pad_bottom: b.pad_bottom,
            skip_weight_release: b.keep_weights,
            reuse_weights: b.reuse_weights,
            chunk: None,
        });
    }
    if next != g.out_h || kept {
        return Err(format!(
            "the bands cover {next} of {} output rows{}",
            g.out_h,
            if kept {
                " and the last keeps its weights"
            } else {
                ""
            }
        ));
    }
    Ok(ConvPlan {
        eps: g.eps,
        data_bank: db,
        weight_bank: wb,
        bands,
    })
}

/// The recorded form of a computed plan (its bands' chunks dropped).
pub(crate) fn record(p: &ConvPlan) -> crate::cbuf::CbufPlan {
    crate::cbuf::CbufPlan {
        data_bank: p.data_bank,
        weight_bank: p.weight_bank,
        bands: p
            .bands
            .iter()
            .map(|b| crate::cbuf::RowBand {
                out_top: b.out_top,
                out_rows: b.out_rows,
                in_top: b.in_top,
                in_rows: b.in_rows,
                pad_top: b.pad_top,
                pad_bottom: b.pad_bottom,
                reuse_weights: b.reuse_weights,
                keep_weights: b.skip_weight_release,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: Cbuf = Cbuf {
        banks: 16,
        entries_per_bank: 256,
    };

    fn resnet_stem() -> ConvGeom {
        ConvGeom {
            eps: 56,
            in_h: 224,
            out_h: 112,
            r: 7,
            stride: 2,
            dilation: 1,
            pad_top: 3,
            pad_bottom: 3,
            weight_entries: 147 * 64 * 2 / 128 + 1,
            group_entries: 147 * 16 * 2 / 128 + 1,
        }
    }

    /// R04 (issue 15): `--input-shape x=1x3x4611686018427387904x8` made a
    /// 2^62-line cube whose band list aborted on allocation.
    #[test]
    fn a_hostile_height_is_an_error_not_an_allocation() {
        let g = ConvGeom {
            in_h: 1 << 62,
            out_h: 1 << 62,
            r: 3,
            stride: 1,
            pad_top: 1,
            pad_bottom: 1,
            eps: 1,
            ..resnet_stem()
        };
        let e = plan(&g, &FULL).unwrap_err();
        assert!(
            e.contains("4611686018427387904 output rows") && e.contains("at most 65536"),
            "{e}"
        );
        let g = ConvGeom {
            in_h: 1 << 62,
            out_h: 1 << 62,
            r: 3,
            stride: 1,
            eps: 56,
            ..resnet_stem()
        };
        let e = plan(&g, &FULL).unwrap_err();
        assert!(e.contains("too large to address"), "{e}");
    }

    #[test]
    fn a_fitting_conv_is_one_band_with_its_own_pads() {
        let g = ConvGeom {
            in_h: 8,
            out_h: 8,
            pad_top: 1,
            pad_bottom: 1,
            r: 3,
            stride: 1,
            ..resnet_stem()
        };
        let p = plan(&g, &FULL).unwrap();
        assert_eq!((p.data_bank, p.weight_bank, p.bands.len()), (2, 1, 1));
        let b = p.bands[0];
        assert_eq!(
            (b.in_top, b.in_rows, b.pad_top, b.pad_bottom, b.out_rows),
            (0, 8, 1, 1, 8)
        );
    }

    #[test]
    fn the_resnet_stem_is_cut_into_bands_that_cover_every_row_once() {
        let g = resnet_stem();
        let p = plan(&g, &FULL).unwrap();
        let rows: Vec<usize> = p.bands.iter().map(|b| b.out_rows).collect();
        assert_eq!(rows, [31, 31, 31, 19]);
        assert_eq!((p.bands[0].in_top, p.bands[0].in_rows), (0, 64));
        assert_eq!(p.data_bank + p.weight_bank, 16);
        let mut next = 0;
        for (i, b) in p.bands.iter().enumerate() {
            assert_eq!(b.out_top, next, "band {i} starts where the previous ended");
            next += b.out_rows;
            // The hardware's row count from the band's lines and pads.
            assert_eq!(
                (b.in_rows + b.pad_top + b.pad_bottom - 7) / 2 + 1,
                b.out_rows,
                "band {i}"
            );
            assert!(
                b.in_rows * g.eps <= p.data_bank * 256,
                "band {i} fits its banks"
            );
            assert_eq!(
                b.pad_top > 0,
                i == 0,
                "only the first band is padded on top"
            );
            assert_eq!(
                b.pad_bottom > 0,
                i + 1 == p.bands.len(),
                "only the last band is padded below"
            );
            assert_eq!(b.in_top, (b.out_top * 2).saturating_sub(3));
        }
        assert_eq!(next, 112);
        let first = p.bands[0];
        assert_eq!((first.in_top, first.pad_top), (0, 3));
    }

    #[test]
    fn full_weights_are_kept_across_bands() {
        let p = plan(&resnet_stem(), &FULL).unwrap();
        let n = p.bands.len();
        let flags: Vec<(bool, bool)> = p
            .bands
            .iter()
            .map(|b| (b.reuse_weights, b.skip_weight_release))
            .collect();
        assert_eq!(flags[0], (false, true));
        assert_eq!(flags[n - 1], (true, false));
        assert!(flags[1..n - 1].iter().all(|&f| f == (true, true)));
    }

    #[test]
    fn a_kernel_group_that_leaves_no_room_is_an_error() {
        let g = ConvGeom {
            weight_entries: 16 * 256 * 4,
            group_entries: 16 * 256,
            ..resnet_stem()
        };
        let e = plan(&g, &FULL).unwrap_err();
        assert!(e.contains("one kernel group needs 16 CBUF banks"), "{e}");
    }

    #[test]
    fn a_recorded_plan_checks_out_and_a_bent_one_is_refused() {
        let g = resnet_stem();
        let p = plan(&g, &FULL).unwrap();
        let rec = record(&p);
        assert_eq!(check(&g, &FULL, &rec).unwrap(), p);
        let bent = |f: &dyn Fn(&mut crate::cbuf::CbufPlan)| {
            let mut r = rec.clone();
            f(&mut r);
            check(&g, &FULL, &r).unwrap_err()
        };
        assert!(bent(&|r| r.data_bank = 16).contains("at most the 16 banks"));
        assert!(bent(&|r| r.bands[1].out_rows = 30).contains("band 1"));
        assert!(bent(&|r| {
            r.bands.pop();
        })
        .contains("cover 93 of 112"));
        assert!(bent(&|r| r.bands[0].in_rows = 70).contains("band 0"));
        assert!(bent(&|r| r.bands[2].reuse_weights = false).contains("band 2: reuses"));
        assert!(bent(&|r| r.bands[3].in_top = 300).contains("not inside"));
    }
}
