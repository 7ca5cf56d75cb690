//! Splitting convolutions the engine cannot take whole.
//!
//! * **CBUF split** (NVDLA): when the input channels' data rows plus one
//!   atom of kernels do not fit the convolution buffer
//!   ([`crate::cond::conv_fits_cbuf`]), split the input channels into chunks
//!   (multiples of atomic-C) that fit: `Split(x)`, per-chunk weights
//!   `W[:, c0:c1]`, one Conv per chunk (bias on the first), `Sum` of the
//!   partial results (then `common/sum-to-add-tree`).
//!
//! Grouped and depthwise Convs are not split (ONNC's SplitGroupConvPass
//! was, until 2026-11-28, the rule `common/group-conv-split`): every target
//! takes them whole. NVDLA's lowering makes one block-diagonal conv and
//! emission packs only the diagonal blocks; MVU and NNIE lower them
//! themselves. Splitting turned ShuffleNet's 203 nodes into 4765, only for
//! the lowering to merge them back.
//!
//! ```text
//! nvdla/conv-split-channels  (Conv x W b), too big for CBUF  => (Sum (Conv x0 W0 b) (Conv x1 W1) …)
//! ```

use super::{attrs, Cx, Rule, NVDLA};
use crate::cond;
use egg::Id;
use onnc_tensor::{Attr, Attrs};

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nvdla/conv-split-channels",
    deep: false,
    op: "Conv",
    targets: NVDLA,
    doc: "split input channels until each part fits CBUF",
    apply: split_channels,
}];

/// `Split(x, sizes)` on axis 1; returns the parts.
fn split(cx: &mut Cx, x: Id, sizes: &[usize], suffix: &str) -> Vec<Id> {
    let s = cx.ints(
        &format!("{suffix}_sizes"),
        &sizes.iter().map(|&v| v as i64).collect::<Vec<_>>(),
    );
    let name = cx.name(&format!("/{suffix}"));
    let sources = cx.key.sources.clone();
    let t = cx.op_with(
        "Split",
        "",
        attrs(&[("axis", Attr::Int(1))]),
        &[x, s],
        sizes.len(),
        &name,
        &sources,
    );
    (0..sizes.len()).map(|k| cx.proj(t, k)).collect()
}

fn split_channels(cx: &mut Cx) -> Option<Id> {
    if cond::group(&cx.key) != 1 {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let k = cond::kernel(&cx.key);
    let dil = cond::dilations(&cx.key).first().copied().unwrap_or(1);
    if xs.len() != 4 || cond::conv_fits_cbuf(cx.target, &xs, xs[1], &k, dil).is_ok() {
        return None;
    }
    let chunk = cond::conv_channel_chunk(cx.target, &xs, &k, dil);
    if chunk >= xs[1] || chunk == 0 {
        return None;
    }
    let w = cx.value(cx.arg(1))?;
    let sizes: Vec<usize> = (0..xs[1])
        .step_by(chunk)
        .map(|lo| chunk.min(xs[1] - lo))
        .collect();
    let parts = split(cx, x, &sizes, "split");
    let attrs = cx.key.to_attrs();
    let mut partial = Vec::with_capacity(sizes.len());
    let mut lo = 0;
    for (i, (&n, &part)) in sizes.iter().zip(&parts).enumerate() {
        // `W[:, lo..lo+n]`: the kept bytes, copied once, never decoded.
        let wi = w.slice_axis(1, lo, lo + n).ok()?;
        let w_id = cx.tensor(&format!("w{i}"), wi);
        let b = if i == 0 && cx.has(2) {
            cx.arg(2)
        } else {
            cx.absent()
        };
        partial.push(cx.op(
            "Conv",
            attrs.clone(),
            &[part, w_id, b],
            &format!("/part{i}"),
        ));
        lo += n;
    }
    Some(cx.op("Sum", Attrs::new(), &partial, ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn conv(c: usize, m: usize, k: usize, g: usize, hw: usize) -> onnc_onnx::Graph {
        let w = Tensor::from_f32(vec![m, c / g, k, k], rand(m * c / g * k * k, 11)).unwrap();
        let b = Tensor::from_f32(vec![m], rand(m, 12)).unwrap();
        let n = Node::new("conv", "Conv", &["x", "w", "b"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![k as i64, k as i64]))
            .with_attr("pads", Attr::Ints(vec![0, 0, 0, 0]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("dilations", Attr::Ints(vec![1, 1]))
            .with_attr("group", Attr::Int(g as i64))
            .with_attr("auto_pad", Attr::String("NOTSET".into()));
        let o = hw - k + 1;
        graph(
            &[1, c, hw, hw],
            &[1, m, o, o],
            vec![n],
            vec![("w", w), ("b", b)],
        )
    }

    #[test]
    fn big_conv_is_split_by_channels() {
        // 512 channels × 7×7 × 32 kernels × 2 B > 512 KiB on nv_full.
        let ops = ops_after(conv(512, 4, 7, 1, 7), Target::NvFull);
        assert!(ops.iter().filter(|o| *o == "Conv").count() >= 2, "{ops:?}");
        assert!(ops.contains(&"Split".to_string()) && ops.contains(&"Add".to_string()));
        assert!(!ops.contains(&"Sum".to_string()));
    }

    #[test]
    fn conv_split_numbers() {
        same_numbers(conv(512, 2, 7, 1, 7), Target::NvFull, &[1, 512, 7, 7], 1e-4);
    }

    #[test]
    fn grouped_and_depthwise_convs_stay_whole() {
        for t in [
            Target::NvFull,
            Target::NvLarge,
            Target::NvSmall,
            Target::Mvu,
        ] {
            assert_eq!(ops_after(conv(4, 6, 3, 2, 5), t), ["Conv"], "{t}");
            assert_eq!(ops_after(conv(8, 8, 3, 8, 5), t), ["Conv"], "{t}");
        }
    }

    #[test]
    fn depthwise_conv_stays_a_group_conv_on_nnie() {
        // a Caffe group convolution: legal (onnc-nnie warns), never split
        assert_eq!(ops_after(conv(4, 4, 3, 4, 5), Target::Nnie), ["Conv"]);
    }
}
