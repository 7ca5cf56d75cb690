//! Partial sums of a convolution's reduction over its input channels, for
//! targets that split it (NVDLA nv_small on FCN's 3×3 classifier over 2048
//! channels: the legalizer's `nvdla/conv-split-channels` makes one Conv per
//! channel chunk, the bias on the first, joined by Adds).
//!
//! The same idea as [`crate::psum`] for Gemm: per output element, the
//! largest `|P(c)|` and `|T − P(c)|` over the channel boundaries `c`, where
//! `P(c)` is the sum of the products of the input channels before `c`
//! (every kernel tap of a channel together; the bias excluded, as for Gemm:
//! the register derivation adds its largest magnitude to the part that
//! carries it) and `T = P(C)`. The first part of a split and every sum of
//! leading parts is a prefix, the last part a suffix, a part in the middle
//! a difference of two prefixes (within twice the bound). Observed under
//! the Conv's [`crate::psum::psum_key`] entry.
//!
//! Cost: one more evaluation of the convolution, so only the convolutions
//! an NVDLA configuration may split are observed: ungrouped, more than one
//! channel atom of input ([`MIN_CHANNELS`]), and (decided on each set's
//! input shape, [`PsumConv::may_split`]) an INT8 convolution-buffer need —
//! the input rows the (dilated) kernel spans, of `C·W` bytes each, plus one
//! atom of 8 kernels, as
//! `onnc_legalize::cond::conv_cbuf_need` counts it for nv_small — above
//! [`SPLIT_NEED_BYTES`], three quarters of nv_small's 128 KiB buffer (the
//! smallest; the margin covers the bank rounding). The others add nothing.

use onnc_onnx::{Graph, Node};
use onnc_tensor::{DType, Tensor};
use rayon::prelude::*;

use crate::psum::psum_key;

/// Fewest input channels of an observed convolution: more than one
/// 8-channel atom, or no channel split is possible.
pub const MIN_CHANNELS: usize = 9;

/// The convolution-buffer need above which a convolution is observed.
pub const SPLIT_NEED_BYTES: usize = 96 * 1024;

/// One Conv whose partial sums are observed.
#[derive(Debug, Clone)]
pub(crate) struct PsumConv {
    /// Index of the node in the graph.
    pub node: usize,
    /// The activation input `X`.
    pub x: String,
    /// `W` as f32, `[M, C, KH, KW]`.
    pub w: Vec<f32>,
    /// `[M, C, KH, KW]`.
    pub w_shape: [usize; 4],
    /// `[stride_h, stride_w]`.
    pub strides: [usize; 2],
    /// `[dilation_h, dilation_w]`.
    pub dilations: [usize; 2],
    /// `[top, left]` padding.
    pub pads: [usize; 2],
    /// The entry's key (`"<node>#psum"`).
    pub key: String,
}

fn ints2(n: &Node, name: &str, default: usize) -> Option<[usize; 2]> {
    match n.attrs.get(name).and_then(|a| a.as_ints()) {
        None => Some([default; 2]),
        Some(v) if v.len() >= 2 => Some([usize::try_from(v[0]).ok()?, usize::try_from(v[1]).ok()?]),
        Some(_) => None,
    }
}

/// The 2-D, ungrouped Convs of `graph` with constant weights and at least
/// [`MIN_CHANNELS`] input channels (in node order).
pub(crate) fn plan(graph: &Graph) -> Vec<PsumConv> {
    graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.op_type == "Conv" && n.domain.is_empty())
        .filter_map(|(i, n)| {
            let group = n.attrs.get("group").and_then(|a| a.as_int()).unwrap_or(1);
            let auto_pad = n.attrs.get("auto_pad").and_then(|a| a.as_str());
            if group != 1 || auto_pad.is_some_and(|p| p != "NOTSET") {
                return None;
            }
            let w = graph.initializer(n.input(1)?)?;
            let [m, c, kh, kw] = *w.shape() else {
                return None;
            };
            if c < MIN_CHANNELS {
                return None;
            }
            let pads = match n.attrs.get("pads").and_then(|a| a.as_ints()) {
                None => [0, 0],
                Some(p) if p.len() == 4 => {
                    [usize::try_from(p[0]).ok()?, usize::try_from(p[1]).ok()?]
                }
                Some(_) => return None,
            };
            Some(PsumConv {
                node: i,
                x: n.input(0)?.to_string(),
                w: w.cast(DType::F32).as_f32().ok()?.to_vec(),
                w_shape: [m, c, kh, kw],
                strides: ints2(n, "strides", 1)?,
                dilations: ints2(n, "dilations", 1)?,
                pads,
                key: psum_key(n),
            })
        })
        .collect()
}

impl PsumConv {
    /// Whether a convolution of input shape `x` (`[N, C, H, W]`) needs more
    /// than [`SPLIT_NEED_BYTES`] of INT8 convolution buffer (see the module
    /// doc): only then are its partial sums observed.
    pub fn may_split(&self, x: &[usize]) -> bool {
        let [_, c, kh, kw] = self.w_shape;
        let w = x.get(3).copied().unwrap_or(1);
        // A dilated kernel spans more input rows.
        let rows = (kh.max(1) - 1) * self.dilations[0].max(1) + 1;
        let need = rows
            .saturating_mul(c)
            .saturating_mul(w)
            .saturating_add(c.saturating_mul(kh * kw).saturating_mul(8));
        need > SPLIT_NEED_BYTES
    }

    /// The extremes for input `x` (`[N, C, H, W]`), one per output element
    /// (`[N, M, OH, OW]` order, computed in f64); `None` if `x` does not
    /// match the weights. Output channels run in parallel; each element's
    /// value depends only on its own sums, so the result does not depend on
    /// the thread count.
    pub fn extremes(&self, x: &Tensor) -> Option<Vec<f32>> {
        let [m, c, kh, kw] = self.w_shape;
        let [n, xc, h, w] = *x.shape() else {
            return None;
        };
        let x32 = x.cast(DType::F32);
        let xv = x32.as_f32().ok()?;
        if xc != c {
            return None;
        }
        let [sh, sw] = self.strides;
        let [dh, dw] = self.dilations;
        let [pt, pl] = self.pads;
        let span = |k: usize, d: usize| (k - 1) * d + 1;
        // Output size with the trailing padding the graph asked for: the
        // same as the reference's output, which the caller does not need.
        let oh = (h + 2 * pt).checked_sub(span(kh, dh))? / sh.max(1) + 1;
        let ow = (w + 2 * pl).checked_sub(span(kw, dw))? / sw.max(1) + 1;
        let per_m: Vec<Vec<f32>> = (0..m)
            .into_par_iter()
            .map(|mo| {
                let wk = &self.w[mo * c * kh * kw..(mo + 1) * c * kh * kw];
                let mut out = Vec::with_capacity(n * oh * ow);
                for b in 0..n {
                    for oy in 0..oh {
                        for ox in 0..ow {
                            let (mut p, mut lo, mut hi) = (0f64, 0f64, 0f64);
                            for ci in 0..c {
                                let plane = &xv[(b * c + ci) * h * w..(b * c + ci + 1) * h * w];
                                let taps = &wk[ci * kh * kw..(ci + 1) * kh * kw];
                                let mut s = 0f64;
                                for ky in 0..kh {
                                    let iy = (oy * sh + ky * dh) as isize - pt as isize;
                                    if iy < 0 || iy >= h as isize {
                                        continue;
                                    }
                                    let row = &plane[iy as usize * w..(iy as usize + 1) * w];
                                    for kx in 0..kw {
                                        let ix = (ox * sw + kx * dw) as isize - pl as isize;
                                        if ix >= 0 && ix < w as isize {
                                            s += f64::from(row[ix as usize])
                                                * f64::from(taps[ky * kw + kx]);
                                        }
                                    }
                                }
                                p += s;
                                lo = lo.min(p);
                                hi = hi.max(p);
                            }
                            let most = [hi, -lo, p - lo, hi - p].into_iter().fold(0f64, f64::max);
                            out.push(most as f32);
                        }
                    }
                }
                out
            })
            .collect();
        // [M][N·OH·OW] → [N, M, OH, OW].
        let mut out = vec![0f32; n * m * oh * ow];
        for (mo, v) in per_m.iter().enumerate() {
            for b in 0..n {
                let dst = (b * m + mo) * oh * ow;
                out[dst..dst + oh * ow].copy_from_slice(&v[b * oh * ow..(b + 1) * oh * ow]);
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_tensor::Attr;

    /// One output channel, two input channels, a 1×2 kernel, one output
    /// pixel: channel 0 contributes 1·2 + 2·1 = 4, channel 1 gives
    /// 3·(−3) + 1·1 = −8; the bias (100) is left out. Prefixes 0, 4, −4
    /// (T = −4); suffixes T − P: −4, −8, 0. The largest magnitude is 8.
    #[test]
    fn extremes_cover_prefixes_and_suffixes_at_channel_boundaries() {
        let w = Tensor::from_f32(vec![1, 2, 1, 2], vec![2.0, 1.0, -3.0, 1.0]).unwrap();
        let b = Tensor::from_f32(vec![1], vec![100.0]).unwrap();
        let mut conv = Node::new("c", "Conv", &["x", "w", "b"], &["y"]);
        conv = conv.with_attr("pads", Attr::Ints(vec![0, 0, 0, 0]));
        // Padded with zero input channels to a splittable count.
        let g = graph_with(conv, w, b);
        let plan = plan(&g);
        assert_eq!(plan.len(), 1, "the padded conv is observed");
        let c = plan[0].w_shape[1];
        let mut xv = vec![0.0; c * 2];
        xv[..4].copy_from_slice(&[1.0, 2.0, 3.0, 1.0]);
        let x = Tensor::from_f32(vec![1, c, 1, 2], xv).unwrap();
        assert_eq!(plan[0].extremes(&x).unwrap(), vec![8.0]);
    }

    /// `w` `[1, 2, 1, 2]` padded with zero input channels to 16.
    fn graph_with(conv: Node, w: Tensor, b: Tensor) -> Graph {
        let c = 16;
        let mut wv = w.as_f32().unwrap().to_vec();
        wv.resize(c * 2, 0.0);
        let w = Tensor::from_f32(vec![1, c, 1, 2], wv).unwrap();
        Graph {
            nodes: vec![conv],
            initializers: vec![("w".into(), w), ("b".into(), b)],
            ..Graph::default()
        }
    }

    #[test]
    fn one_atom_of_channels_and_grouped_convs_are_not_observed() {
        let w = Tensor::from_f32(vec![1, 8, 1, 1], vec![1.0; 8]).unwrap();
        let g = Graph {
            nodes: vec![Node::new("c", "Conv", &["x", "w"], &["y"])],
            initializers: vec![("w".into(), w)],
            ..Graph::default()
        };
        assert!(plan(&g).is_empty());
        let w = Tensor::from_f32(vec![2, 16, 1, 1], vec![1.0; 32]).unwrap();
        let g = Graph {
            nodes: vec![
                Node::new("c", "Conv", &["x", "w"], &["y"]).with_attr("group", Attr::Int(2))
            ],
            initializers: vec![("w".into(), w)],
            ..Graph::default()
        };
        assert!(plan(&g).is_empty());
    }

    /// FCN's classifier (3×3 over 2048 channels at 28 wide: 172 KiB of
    /// rows) is observed; ResNet-50's last 3×3 (512 channels, 7 wide:
    /// 10.5 KiB of rows, 36 KiB of kernels) is not.
    #[test]
    fn only_convolutions_near_the_buffer_size_are_worth_observing() {
        let conv = |c: usize| PsumConv {
            node: 0,
            x: "x".into(),
            w: vec![],
            w_shape: [512, c, 3, 3],
            strides: [1, 1],
            dilations: [1, 1],
            pads: [1, 1],
            key: "c#psum".into(),
        };
        assert!(conv(2048).may_split(&[1, 2048, 28, 28]));
        assert!(!conv(512).may_split(&[1, 512, 7, 7]));
        // FCN's layer4 3×3 at dilation 4 spans 9 rows: 126 KiB at 28 wide.
        let dilated = PsumConv {
            dilations: [4, 4],
            ..conv(512)
        };
        assert!(!conv(512).may_split(&[1, 512, 28, 28]));
        assert!(dilated.may_split(&[1, 512, 28, 28]));
    }

    /// Padding, stride and the bias: a 3×3 kernel of ones over one channel
    /// of ones (then 15 zero channels), stride 2, pad 1, on a 3×3 map: the
    /// four outputs see 4 ones each (corners); the bias −10 is left out.
    #[test]
    fn padding_and_strides_follow_the_attributes() {
        let c = 16;
        let mut wv = vec![0.0; c * 9];
        wv[..9].fill(1.0);
        let w = Tensor::from_f32(vec![1, c, 3, 3], wv).unwrap();
        let b = Tensor::from_f32(vec![1], vec![-10.0]).unwrap();
        let conv = Node::new("c", "Conv", &["x", "w", "b"], &["y"])
            .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
            .with_attr("strides", Attr::Ints(vec![2, 2]));
        let g = Graph {
            nodes: vec![conv],
            initializers: vec![("w".into(), w), ("b".into(), b)],
            ..Graph::default()
        };
        let p = plan(&g);
        let mut xv = vec![0.0; c * 9];
        xv[..9].fill(1.0);
        let x = Tensor::from_f32(vec![1, c, 3, 3], xv).unwrap();
        assert_eq!(p[0].extremes(&x).unwrap(), vec![4.0; 4]);
    }
}
