//! `nnie-verify` — check that the `nnie` level is what `onnc-translate
//! --to-nnie-package` would write a package from.
//!
//! Input: `nnie` dialect (from `convert-onnx-to-nnie`, in the same pipeline
//! or as text) → Output: unchanged. Read from text, the level goes through
//! the emitter's own reader ([`super::from_ir`]): the function's level
//! attributes ([`super::package_attrs::FUNCTION_ATTRS`]), each op's
//! declared attributes, clips that match their `z`, constant weights,
//! calibration files with their blobs, and a package that builds. On the
//! level in memory the pass checks the same again: each quantized layer has
//! one input clip per data input (a `prod` eltwise may have none), each
//! layer with weights has its weight and weight clip, concat inputs and
//! split pieces fit the dialect's 16 slots, and the package builds again
//! from the layers ([`onnc_nnie::frontend::Compiled::from_level`]).
//!
//! ```text
//! onnc-opt net.nnie.mlir --pass-pipeline='builtin.module(nnie-verify)'
//! // net.nnie.mlir:9:10: error: nnie-verify: conv needs a constant weight operand
//! ```
//!
//! Preconditions: the module is at the nnie level. Failure modes: each
//! problem is an error at its op (the layer's name location), or at the
//! function when it concerns no op; the pass then fails.

use crate::pipeline::{mlir_face, Diags, Module, NnieModule, Pass};
use onnc_dialects::pass_api::{PassFailed, PassOptions, PassRegistration};
use onnc_nnie::frontend::{Compiled, EltwiseOp, Layer, LayerKind};

/// Registration of `nnie-verify`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "nnie-verify",
    summary: "Check that the nnie level is what --to-nnie-package writes from (attributes, clips, package)",
    anchor: "builtin.module",
    options: &[],
    factory: |o: &PassOptions| mlir_face::body("nnie-verify", o),
};

/// Concat's operand slots and split's result slots (`dialects/nnie.irdl.mlir`).
const SLOTS: usize = 16;

/// The in-memory `nnie-verify`.
pub fn memory(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Verify))
}

struct Verify;

/// What is wrong with one layer's quantization or slots (empty: nothing).
fn layer_problems(l: &Layer) -> Vec<String> {
    let mut out = Vec::new();
    let prod = matches!(
        l.kind,
        LayerKind::Eltwise {
            op: EltwiseOp::Prod
        }
    );
    let inputs = l.bottoms.len();
    if l.is_quantized() && l.input_clips.len() != inputs && !(prod && l.input_clips.is_empty()) {
        out.push(format!(
            "layer '{}' has {} input clip(s) for {inputs} data input(s): calibrate it (convert-onnx-to-nnie{{calib=DIR}} or mqbench=FILE)",
            l.name,
            l.input_clips.len()
        ));
    }
    if l.has_weights() {
        if l.weight.is_none() {
            out.push(format!("layer '{}' has no weight", l.name));
        }
        if l.weight_clip.is_none() {
            out.push(format!("layer '{}' has no weight clip", l.name));
        }
    }
    let slots = match &l.kind {
        LayerKind::Concat { .. } => Some((inputs, "inputs")),
        LayerKind::Split { tops, .. } => Some((tops.len(), "pieces")),
        _ => None,
    };
    if let Some((n, what)) = slots.filter(|(n, _)| *n > SLOTS) {
        out.push(format!(
            "layer '{}' has {n} {what}; the nnie dialect has {SLOTS} slots",
            l.name
        ));
    }
    out
}

/// Runs the checks of the module doc on `m`, recording each problem.
fn check(m: &NnieModule, diags: &mut Diags) {
    let c = &m.compiled;
    for l in c.layers() {
        for p in layer_problems(l) {
            diags.error(Some(&l.name), format!("nnie-verify: {p}"));
        }
    }
    if diags.has_errors() {
        return;
    }
    if let Err(e) = Compiled::from_level(
        c.graph().clone(),
        c.layers().to_vec(),
        c.package_inputs().clone(),
        c.report().clone(),
        c.warnings().to_vec(),
    ) {
        diags.error(
            None,
            format!("nnie-verify: the package does not build: {e}"),
        );
    }
}

impl Pass for Verify {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let m = module.nnie("nnie-verify").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        check(m, diags);
        if diags.has_errors() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_nnie::ClipValue;

    fn conv() -> Layer {
        let kind = LayerKind::Conv {
            num_output: 4,
            kernel: [1, 1],
            stride: [1, 1],
            pad: [0, 0],
            dilation: [1, 1],
            group: 1,
        };
        let mut l = Layer::new("c1", "Conv", kind, vec!["x".into()], "y");
        l.weight = Some(onnc_tensor::Tensor::from_f32(vec![4, 1, 1, 1], vec![1.0; 4]).unwrap());
        l.input_clips = vec![ClipValue::from_index(32).unwrap()];
        l.weight_clip = Some(ClipValue::from_index(32).unwrap());
        l
    }

    #[test]
    fn a_calibrated_layer_passes_and_each_gap_is_named() {
        assert!(layer_problems(&conv()).is_empty());
        let mut l = conv();
        l.input_clips.clear();
        l.weight_clip = None;
        let p = layer_problems(&l);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("'c1' has 0 input clip(s) for 1 data input(s)"));
        assert!(p[1].contains("'c1' has no weight clip"));
        let mut cat = Layer::new(
            "cat",
            "Concat",
            LayerKind::Concat { axis: 1 },
            (0..17).map(|i| format!("x{i}")).collect(),
            "y",
        );
        cat.input_clips = vec![ClipValue::from_index(32).unwrap(); 17];
        assert_eq!(
            layer_problems(&cat),
            ["layer 'cat' has 17 inputs; the nnie dialect has 16 slots"]
        );
        let prod = Layer::new(
            "p",
            "Mul",
            LayerKind::Eltwise {
                op: EltwiseOp::Prod,
            },
            vec!["a".into(), "b".into()],
            "y",
        );
        assert!(layer_problems(&prod).is_empty());
    }
}
