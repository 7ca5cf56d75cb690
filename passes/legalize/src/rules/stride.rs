//! Convolutions whose stride exceeds the engine's limit (ViT's patch
//! embedding: a 16×16 kernel at stride 16; NVDLA strides go to 8).
//!
//! In: `Conv` with a stride `s` above the target's limit on some axis.
//! Out: the same Conv at stride `s' = s / f` (the largest divisor of `s`
//! within the limit) followed by a `Slice` keeping every `f`-th row and
//! column: output position `i` at stride `s` is position `i·f` at stride
//! `s'`, so the result is exact. The cost is the `f²`-times denser
//! convolution (for 224×224 at 16 → 8: 27×27 instead of 14×14 positions,
//! 3.7×) and the strided selection the Slice lowers to.
//!
//! ```text
//! nvdla/conv-stride-split  (Conv{strides=[16,16]} x W b)  => (Slice (Conv{strides=[8,8]} x W b) [0,0] [27,27] [2,3] [2,2])
//! ```

use super::{Cx, Rule, NVDLA};
use crate::cond;
use crate::lang::AttrKey;
use egg::Id;
use onnc_tensor::Attr;

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nvdla/conv-stride-split",
    deep: false,
    op: "Conv",
    targets: NVDLA,
    doc: "a Conv of stride s above the limit is a Conv of stride s/f and a Slice of step f",
    apply: split_stride,
}];

/// `(s', f)` with `s' · f = s`, `s'` the largest divisor of `s` within `max`.
fn factor(s: usize, max: usize) -> (usize, usize) {
    let sp = (1..=max.min(s)).rev().find(|d| s % d == 0).unwrap_or(1);
    (sp, s / sp)
}

fn split_stride(cx: &mut Cx) -> Option<Id> {
    let max = cx.cfg.conv_stride_max;
    let strides = cond::strides(&cx.key);
    if strides.len() != 2 || strides.iter().all(|&s| s <= max) || !cond::explicit_pads(&cx.key) {
        return None;
    }
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let out = cx.out_shape()?;
    if xs.len() != 4 || out.len() != 4 {
        return None;
    }
    let (f0, f1) = (factor(strides[0], max), factor(strides[1], max));
    let new_strides = vec![f0.0 as i64, f1.0 as i64];
    let key = (*cx.key)
        .clone()
        .with_attr("strides", AttrKey::Ints(new_strides.clone()));
    let mut at = key.to_attrs();
    at.insert("strides".into(), Attr::Ints(new_strides));
    let args: Vec<Id> = (0..cx.arity()).map(|i| cx.arg(i)).collect();
    let conv = cx.op("Conv", at, &args, "/dense");
    // Rows 0, f, 2f, … of the denser result: exactly `out` of them.
    let ends = [
        ((out[2] - 1) * f0.1 + 1) as i64,
        ((out[3] - 1) * f1.1 + 1) as i64,
    ];
    let starts = cx.ints("starts", &[0, 0]);
    let ends = cx.ints("ends", &ends);
    let axes = cx.ints("axes", &[2, 3]);
    let steps = cx.ints("steps", &[f0.1 as i64, f1.1 as i64]);
    Some(cx.op(
        "Slice",
        Default::default(),
        &[conv, starts, ends, axes, steps],
        "",
    ))
}

#[cfg(test)]
mod tests {
    use super::factor;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn patch_conv(stride: i64, k: usize, hw: usize) -> onnc_onnx::Graph {
        let w = Tensor::from_f32(vec![4, 3, k, k], rand(12 * k * k, 3)).unwrap();
        let b = Tensor::from_f32(vec![4], rand(4, 4)).unwrap();
        let out = (hw - k) / stride as usize + 1;
        graph(
            &[1, 3, hw, hw],
            &[1, 4, out, out],
            vec![Node::new("patch", "Conv", &["x", "w", "b"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![k as i64; 2]))
                .with_attr("strides", Attr::Ints(vec![stride; 2]))
                .with_attr("pads", Attr::Ints(vec![0; 4]))],
            vec![("w", w), ("b", b)],
        )
    }

    #[test]
    fn the_factor_is_the_largest_divisor_within_the_limit() {
        assert_eq!(factor(16, 8), (8, 2));
        assert_eq!(factor(12, 8), (6, 2));
        assert_eq!(factor(9, 8), (3, 3));
        assert_eq!(factor(11, 8), (1, 11));
    }

    #[test]
    fn stride_16_is_stride_8_and_a_strided_slice() {
        let g = patch_conv(16, 16, 64);
        assert_eq!(ops_after(g.clone(), Target::NvFull), ["Conv", "Slice"]);
        same_numbers(g, Target::NvFull, &[1, 3, 64, 64], 1e-5);
    }

    #[test]
    fn an_uneven_input_keeps_the_output_size() {
        // (70 − 16) / 16 + 1 = 4 outputs; at stride 8 there are 7, every other kept.
        same_numbers(
            patch_conv(16, 16, 70),
            Target::NvFull,
            &[1, 3, 70, 70],
            1e-5,
        );
    }

    #[test]
    fn strides_within_the_limit_are_untouched() {
        assert_eq!(ops_after(patch_conv(8, 8, 32), Target::NvFull), ["Conv"]);
    }
}
