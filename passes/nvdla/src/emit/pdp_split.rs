//! PDP width split (`split_num`, `partial_*width*`): pooling whose output is
//! wider than the PDP line buffer holds is streamed by the hardware in
//! vertical stripes.
//!
//! In: the pooling geometry, the precision and the configuration's atomic-K.
//! Out: a [`PdpSplit`] (all zero widths and `split_num 1` when no split is
//! needed), or an error when more than 64 stripes would be needed (the
//! firmware's `MAX_SPLIT_NUM`).
//!
//! The limit is the official compiler's (`PDPNode::calculateMaxWidth`,
//! research/nvdla.md §2.5): a 7 KiB line buffer holds
//! `7168·8 / (overlap_lines · kernels_per_group · bits)` output columns, where
//! `overlap_lines = [1, 1, 2, 4, 4, 8, 8, 8, 8][⌈kernel_h / stride_y⌉]`,
//! `kernels_per_group` is atomic-K (int8) or atomic-K/2, `bits` 14 (int8) or
//! 28 (int16, fp16). Stripes are `first, mid…, last` output columns with
//! `first = mid = max`. The hardware starts stripe `i > 0` at input column
//! `in_first + (i−1)·in_mid − overlap` and reads `in_i + overlap` columns,
//! where `overlap = kernel_w − stride_x` is *signed* (negative when the
//! kernel is narrower than its stride: the stripes then skip columns), so
//! `in_first = (max−1)·sx + kw − pad_l`, `in_mid = max·sx` and
//! `in_last = out_last·sx − pad_r`; the first input stripe absorbs the left
//! padding, the last the right. Example: fp16 on nv_full, 3×3 stride 2 → 64
//! columns; a 150-wide output is `first 64, mid 64, last 22`, 3 stripes.

/// Output column limit, stripes and their widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PdpSplit {
    pub(crate) max_width: usize,
    pub(crate) split_num: usize,
    pub(crate) in_first: usize,
    pub(crate) in_mid: usize,
    pub(crate) in_last: usize,
    pub(crate) out_first: usize,
    pub(crate) out_mid: usize,
    pub(crate) out_last: usize,
}

/// Firmware limit on `split_num`.
pub(crate) const MAX_SPLIT_NUM: usize = 64;

/// The PDP line-buffer limit on output columns.
pub(crate) fn max_width(kernel_h: usize, stride_y: usize, int8: bool, atomic_k: usize) -> usize {
    const BUF_BITS: usize = 7 * 1024 * 8;
    const OVERLAP_LINES: [usize; 9] = [1, 1, 2, 4, 4, 8, 8, 8, 8];
    let logical = kernel_h.div_ceil(stride_y.max(1)).min(8);
    let kpg = if int8 { atomic_k } else { atomic_k / 2 }.max(1);
    let bits = if int8 { 14 } else { 28 };
    BUF_BITS / (OVERLAP_LINES[logical] * kpg * bits)
}

/// The stripes of a pooling with output width `out_w`, kernel `kw × kh`,
/// strides `sx, sy`, left/right padding.
#[allow(clippy::too_many_arguments)]
pub(crate) fn split(
    out_w: usize,
    kw: usize,
    kh: usize,
    sx: usize,
    sy: usize,
    pad_l: usize,
    pad_r: usize,
    int8: bool,
    atomic_k: usize,
) -> Result<PdpSplit, String> {
    let max = max_width(kh, sy, int8, atomic_k);
    if out_w <= max {
        return Ok(PdpSplit {
            max_width: max,
            split_num: 1,
            ..Default::default()
        });
    }
    let n = out_w.div_ceil(max);
    if n > MAX_SPLIT_NUM {
        return Err(format!(
            "output width {out_w} needs {n} line-buffer stripes of {max} columns, more than the firmware's {MAX_SPLIT_NUM}; split the pooling by width before lowering"
        ));
    }
    let out_mid = if n > 2 { max } else { 0 };
    let out_last = out_w - max * (n - 1);
    // Signed: a kernel narrower than its stride skips columns between stripes.
    let overlap = kw as i64 - sx as i64;
    let in_first = ((max - 1) * sx + kw).checked_sub(pad_l);
    // The last stripe's register, and the columns the hardware reads for it.
    let in_last = (out_last * sx)
        .checked_sub(pad_r)
        .filter(|&v| v > 0 && v as i64 + overlap > 0);
    let (Some(in_first), Some(in_last)) = (in_first, in_last) else {
        return Err(format!(
            "the last of {n} line-buffer stripes ({out_last} output columns) reads no input column after padding {pad_r}; pad less on the right"
        ));
    };
    Ok(PdpSplit {
        max_width: max,
        split_num: n,
        in_first,
        in_mid: if n > 2 { max * sx } else { 0 },
        in_last,
        out_first: max,
        out_mid,
        out_last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_buffer_limit_follows_precision_and_overlap() {
        assert_eq!(max_width(3, 2, false, 32), 64);
        assert_eq!(max_width(2, 2, false, 32), 128);
        assert_eq!(max_width(3, 2, true, 32), 64);
        assert_eq!(max_width(3, 1, true, 8), 128);
    }

    #[test]
    fn narrow_outputs_are_one_stripe() {
        let s = split(56, 3, 3, 2, 2, 1, 1, false, 32).unwrap();
        assert_eq!((s.split_num, s.in_first, s.out_first), (1, 0, 0));
    }

    #[test]
    fn wide_outputs_are_striped_and_the_input_stripes_cover_the_input() {
        // 301 wide input, 3x3 stride 2, no padding -> 150 outputs.
        let s = split(150, 3, 3, 2, 2, 0, 0, false, 32).unwrap();
        assert_eq!(
            (s.split_num, s.out_first, s.out_mid, s.out_last),
            (3, 64, 64, 22)
        );
        assert_eq!(s.in_first + s.in_mid + s.in_last, 301);
        assert_eq!(s.out_first + s.out_mid + s.out_last, 150);
        let two = split(100, 2, 2, 2, 2, 0, 0, false, 32).unwrap();
        assert_eq!(
            (two.split_num, two.out_last, two.in_first + two.in_last),
            (1, 0, 0)
        );
        let two = split(200, 2, 2, 2, 2, 0, 0, false, 32).unwrap();
        assert_eq!(
            (
                two.split_num,
                two.out_first,
                two.out_last,
                two.in_first + two.in_last
            ),
            (2, 128, 72, 400)
        );
    }

    /// Input column where the hardware starts stripe `i` and how many it reads
    /// (`nvdla-arith.md` §7: `in_first + (i−1)·in_mid − overlap`, `in_i + overlap`).
    fn hw_stripes(s: &PdpSplit, kw: usize, sx: usize) -> Vec<(i64, i64)> {
        let ov = kw as i64 - sx as i64;
        let mut v = vec![(0, s.in_first as i64)];
        for i in 1..s.split_num {
            let w = if i + 1 == s.split_num {
                s.in_last
            } else {
                s.in_mid
            } as i64;
            v.push((
                s.in_first as i64 + (i as i64 - 1) * s.in_mid as i64 - ov,
                w + ov,
            ));
        }
        v
    }

    #[test]
    fn a_kernel_narrower_than_its_stride_reads_the_right_columns() {
        // 1-wide kernel, stride 2, over 300 columns: 150 outputs in 128 + 22.
        let s = split(150, 1, 1, 2, 2, 0, 0, false, 32).unwrap();
        assert_eq!((s.split_num, s.out_first, s.out_last), (2, 128, 22));
        // Output 128 reads column 256, output 149 column 298.
        assert_eq!(hw_stripes(&s, 1, 2), [(0, 255), (256, 43)]);
        // Three stripes, 2-wide kernel with stride 3 and padding on both sides.
        let (kw, sx, pl, pr) = (2, 3, 1, 1);
        let out_w = 600;
        let s = split(out_w, kw, 1, sx, 3, pl, pr, false, 16).unwrap();
        assert_eq!(s.split_num, 3);
        let mut out_start = 0;
        for (i, (start, width)) in hw_stripes(&s, kw, sx).into_iter().enumerate() {
            let last = i + 1 == s.split_num;
            let outs = if i == 0 {
                s.out_first
            } else if last {
                s.out_last
            } else {
                s.out_mid
            };
            let (l, r) = (if i == 0 { pl } else { 0 }, if last { pr } else { 0 });
            // The stripe starts at its first output's window (padding only left of stripe 0) ...
            let first_col = if i == 0 {
                0
            } else {
                (out_start * sx - pl) as i64
            };
            assert_eq!(start, first_col, "stripe {i}");
            // ... and yields exactly its outputs.
            assert_eq!((width as usize + l + r - kw) / sx + 1, outs, "stripe {i}");
            out_start += outs;
        }
        assert_eq!(out_start, out_w);
    }

    #[test]
    fn too_many_stripes_is_an_error() {
        let e = split(64 * 65, 3, 3, 2, 2, 0, 0, false, 32).unwrap_err();
        assert!(e.contains("more than the firmware's 64"), "{e}");
    }
}
