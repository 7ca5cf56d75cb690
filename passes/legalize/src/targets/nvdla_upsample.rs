//! NVDLA upsampling: `ConvTranspose` and integer-factor `Resize` run as a
//! stride-1 convolution computing every output phase and a RUBIK contract
//! interleaving them (onnc-nvdla `lower::deconv`) on nv_full; without RUBIK
//! (nv_small, nv_large) identity SDP passes interleave them through strided
//! views (onnc-nvdla `lower::nodes::interleave`; a nearest Resize needs no
//! convolution there), one pixel per line, so a phase map may have at most
//! [`MAX_SDP_LINES`] pixels.
//!
//! In: the e-node's attributes, operand shapes and constant operands. Out:
//! `Ok(())` when the lowering maps the op exactly, or the reason it cannot
//! (for `Resize`, [`onnc_onnx::upsample::spatial_deconv`]'s: which mode,
//! axis and output position differ).
//!
//! ```
//! use onnc_legalize::targets::nvdla_upsample::MAX_CONTRACT_STRIDE;
//! assert_eq!(MAX_CONTRACT_STRIDE, 8);
//! ```

use crate::analysis::{const_value, Graph};
use crate::cond;
use crate::lang::{ENode, OpKey};
use onnc_onnx::upsample::{spatial_deconv, ResizeAttrs};

/// Largest RUBIK contract stride (its `stride_x`/`stride_y` registers).
pub const MAX_CONTRACT_STRIDE: usize = 8;

/// Whether `Resize` of `x` to `out` is an integer upsampling the lowering maps.
pub fn resize(
    eg: &Graph,
    node: &ENode,
    key: &OpKey,
    x: &[usize],
    out: &[usize],
) -> Result<(), String> {
    let s = |k: &str, d: &'static str| key.string(k).unwrap_or(d).to_string();
    let (mode, ctm, nearest, policy) = (
        s("mode", "nearest"),
        s("coordinate_transformation_mode", "half_pixel"),
        s("nearest_mode", "round_prefer_floor"),
        s("keep_aspect_ratio_policy", "stretch"),
    );
    let attrs = ResizeAttrs {
        mode: &mode,
        ctm: &ctm,
        nearest_mode: &nearest,
        antialias: key.int("antialias").unwrap_or(0),
        axes: key.ints("axes"),
        policy: &policy,
    };
    for i in [2, 3] {
        if cond::operand_present(eg, node, i) && !cond::operand_const(eg, node, i) {
            return Err("constant scales or sizes".into());
        }
    }
    let scales = node
        .children
        .get(2)
        .and_then(|&c| const_value(eg, c))
        .map(|t| t.data().to_f64_vec());
    let [h, w] = spatial_deconv(&attrs, x, out, scales.as_deref())?;
    strides(&[h.stride, w.stride])
}

/// Whether `ConvTranspose` is one the lowering maps.
pub fn conv_transpose(eg: &Graph, node: &ENode, key: &OpKey) -> Result<(), String> {
    if !cond::operand_const(eg, node, 1) {
        return Err("constant weights".into());
    }
    if cond::operand_present(eg, node, 2) && !cond::operand_const(eg, node, 2) {
        return Err("a constant bias".into());
    }
    if key.string("auto_pad").is_some_and(|a| a != "NOTSET") || key.attr("output_shape").is_some() {
        return Err("explicit pads (auto_pad NOTSET, no output_shape)".into());
    }
    if cond::dilations(key).iter().any(|&d| d != 1) {
        return Err("no dilation".into());
    }
    strides(&cond::strides(key))
}

/// Most lines of an SDP cube (13-bit `height − 1` register); without RUBIK
/// the interleave reads a phase map as one pixel per line.
pub const MAX_SDP_LINES: usize = 8192;

/// Without RUBIK: whether each phase map (`⌈out / s⌉` per axis) fits the
/// SDP's lines when interleaved along the width (`s_x > 1`).
pub fn without_rubik(op: &str, key: &OpKey, x: &[usize], out: &[usize]) -> Result<(), String> {
    let (Some(&oh), Some(&ow)) = (out.get(2), out.get(3)) else {
        return Ok(());
    };
    let (sy, sx) = if op == "Resize" {
        let f = |o: usize, i: Option<&usize>| i.map_or(1, |&i| (o / i.max(1)).max(1));
        (f(oh, x.get(2)), f(ow, x.get(3)))
    } else {
        let s = cond::strides(key);
        (
            s.first().copied().unwrap_or(1).max(1),
            s.get(1).copied().unwrap_or(1).max(1),
        )
    };
    let pixels = oh.div_ceil(sy) * ow.div_ceil(sx);
    if sx > 1 && pixels > MAX_SDP_LINES {
        return Err(format!(
            "{op} interleaves {pixels} pixels per phase ({}×{}) one per SDP line without RUBIK, above the {MAX_SDP_LINES}-line limit; upsample smaller maps",
            oh.div_ceil(sy),
            ow.div_ceil(sx)
        ));
    }
    Ok(())
}

fn strides(s: &[usize]) -> Result<(), String> {
    if s.iter().any(|&v| v > MAX_CONTRACT_STRIDE) {
        return Err(format!(
            "a stride of at most {MAX_CONTRACT_STRIDE} (RUBIK contract), not {s:?}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::{graph, ops_after};
    use crate::{legalize, Error, Target};
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    /// `Resize(x, scales = [1, 1, s, s], mode, ctm)` on a 1×2×4×4 input.
    fn resize(s: f32, mode: &str, ctm: &str) -> onnc_onnx::Graph {
        let out = (4.0 * s) as usize;
        let n = Node::new("up", "Resize", &["x", "", "scales"], &["y"])
            .with_attr("mode", Attr::String(mode.into()))
            .with_attr("coordinate_transformation_mode", Attr::String(ctm.into()))
            .with_attr("nearest_mode", Attr::String("floor".into()));
        let scales = Tensor::from_f32(vec![4], vec![1.0, 1.0, s, s]).unwrap();
        graph(
            &[1, 2, 4, 4],
            &[1, 2, out, out],
            vec![n],
            vec![("scales", scales)],
        )
    }

    fn refusal(g: onnc_onnx::Graph, t: Target) -> String {
        match legalize(g, t, &Default::default()) {
            Err(Error::Illegal { violations, .. }) => format!("{}", violations[0]),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn integer_upsampling_is_native_on_nv_full() {
        for (s, mode, ctm) in [
            (2.0, "nearest", "asymmetric"),
            (4.0, "linear", "half_pixel"),
        ] {
            assert_eq!(ops_after(resize(s, mode, ctm), Target::NvFull), ["Resize"]);
        }
    }

    #[test]
    fn other_resizes_and_configurations_without_rubik_are_refused_at_the_node() {
        let msg = refusal(resize(2.0, "linear", "align_corners"), Target::NvFull);
        assert!(msg.starts_with("node 'up' (Resize): Resize is not an upsampling nv_full maps exactly (mode=linear, coordinate_transformation_mode=align_corners on axis 2: align_corners maps output o to input o·3/7"), "{msg}");
        let msg = refusal(resize(16.0, "nearest", "asymmetric"), Target::NvFull);
        assert!(
            msg.contains("a stride of at most 8 (RUBIK contract), not [16, 16]"),
            "{msg}"
        );
    }

    #[test]
    fn configurations_without_rubik_accept_upsampling_within_the_sdp_lines() {
        for t in [Target::NvSmall, Target::NvLarge] {
            for (s, mode, ctm) in [
                (2.0, "nearest", "asymmetric"),
                (2.0, "linear", "half_pixel"),
                (8.0, "linear", "half_pixel"),
            ] {
                assert_eq!(ops_after(resize(s, mode, ctm), t), ["Resize"], "{t:?}");
            }
        }
        // The factor limit stays.
        let msg = refusal(resize(16.0, "nearest", "asymmetric"), Target::NvSmall);
        assert!(msg.contains("a stride of at most 8"), "{msg}");
    }

    #[test]
    fn without_rubik_a_phase_map_above_the_sdp_lines_is_refused_precisely() {
        // 2× of a 1×2×100×100 map: 10,000 pixels per phase, read one per line.
        let n = Node::new("up", "Resize", &["x", "", "scales"], &["y"])
            .with_attr("mode", Attr::String("nearest".into()))
            .with_attr(
                "coordinate_transformation_mode",
                Attr::String("asymmetric".into()),
            )
            .with_attr("nearest_mode", Attr::String("floor".into()));
        let scales = Tensor::from_f32(vec![4], vec![1.0, 1.0, 2.0, 2.0]).unwrap();
        let g = graph(
            &[1, 2, 100, 100],
            &[1, 2, 200, 200],
            vec![n],
            vec![("scales", scales)],
        );
        assert_eq!(ops_after(g.clone(), Target::NvFull), ["Resize"]);
        let msg = refusal(g, Target::NvSmall);
        assert!(
            msg.contains("interleaves 10000 pixels per phase (100×100) one per SDP line without RUBIK, above the 8192-line limit"),
            "{msg}"
        );
    }
}
