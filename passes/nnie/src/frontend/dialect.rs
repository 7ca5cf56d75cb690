//! A layer's attributes for the `nnie` dialect (`dialects/nnie.irdl.mlir`).
//!
//! In: a calibrated [`Layer`]. Out: `(attribute name, value)` pairs with
//! exactly the names, order and kinds the dialect declares for the layer's op
//! ([`Layer::dialect_op`]); `input_z`/`weight_z` are derived from the clips
//! (`z = 16·log2 c − 127`). `nnie.concat`'s `operandSegmentSizes` belongs to
//! the op's operands and is left to the IR builder.
//!
//! ```
//! use onnc_nnie::frontend::{dialect_attrs, DialectValue, Layer, LayerKind};
//! use onnc_nnie::ClipValue;
//! let mut l = Layer::new("up1", "Resize", LayerKind::Upsample { scale: 2 }, vec!["x".into()], "y");
//! l.input_clips = vec![ClipValue::from_index(32).unwrap()]; // c = 4
//! let a = dialect_attrs(&l);
//! let names: Vec<_> = a.iter().map(|(n, _)| *n).collect();
//! assert_eq!(names, ["layer_name", "scale", "input_clip", "input_z"]);
//! assert_eq!(a[2].1, DialectValue::F32Array(vec![4.0]));
//! assert_eq!(a[3].1, DialectValue::I64Array(vec![-95]));
//! ```

use super::layer::{Layer, LayerKind};

/// An attribute value of the `nnie` dialect.
#[derive(Debug, Clone, PartialEq)]
pub enum DialectValue {
    /// `#builtin.string`.
    Str(String),
    /// `i64` integer.
    I64(i64),
    /// `f32` float.
    F32(f32),
    /// `array<i64: …>`.
    I64Array(Vec<i64>),
    /// `array<f32: …>`.
    F32Array(Vec<f32>),
}

fn hw(v: [usize; 2]) -> DialectValue {
    DialectValue::I64Array(v.iter().map(|&x| x as i64).collect())
}

/// The layer's dialect attributes (see the module doc).
pub fn dialect_attrs(layer: &Layer) -> Vec<(&'static str, DialectValue)> {
    use DialectValue::*;
    let mut a = vec![("layer_name", Str(layer.name.clone()))];
    match &layer.kind {
        LayerKind::Conv {
            kernel,
            stride,
            pad,
            dilation,
            group,
            ..
        } => {
            a.push(("kernel", hw(*kernel)));
            a.push(("stride", hw(*stride)));
            a.push(("pad", hw(*pad)));
            a.push(("dilation", hw(*dilation)));
            a.push(("group", I64(*group as i64)));
        }
        LayerKind::Deconv {
            kernel,
            stride,
            pad,
            group,
            ..
        } => {
            a.push(("kernel", hw(*kernel)));
            a.push(("stride", hw(*stride)));
            a.push(("pad", hw(*pad)));
            a.push(("group", I64(*group as i64)));
        }
        LayerKind::Fc { .. } => {}
        LayerKind::Pool {
            max,
            kernel,
            stride,
            pad,
            global,
        } => {
            a.push(("pool", Str(if *max { "max" } else { "ave" }.into())));
            a.push(("kernel", hw(*kernel)));
            a.push(("stride", hw(*stride)));
            a.push(("pad", hw(*pad)));
            a.push(("global_pooling", I64(i64::from(*global))));
        }
        LayerKind::Eltwise { op } => a.push(("operation", Str(op.name().into()))),
        LayerKind::Concat { axis } => a.push(("axis", I64(*axis as i64))),
        LayerKind::Upsample { scale } => a.push(("scale", I64(i64::from(*scale)))),
        LayerKind::Relu { negative_slope } => a.push(("negative_slope", F32(*negative_slope))),
        LayerKind::Softmax { axis } => a.push(("axis", I64(*axis as i64))),
        LayerKind::Reshape { shape } => a.push(("shape", I64Array(shape.to_vec()))),
        LayerKind::Permute => a.push(("order", I64Array(vec![0, 2, 3, 1]))),
        LayerKind::Slice {
            axis, start, end, ..
        } => {
            a.push(("axis", I64(*axis as i64)));
            a.push(("start", I64(*start as i64)));
            a.push(("end", I64(*end as i64)));
        }
        LayerKind::Split { axis, points, .. } => {
            a.push(("axis", I64(*axis as i64)));
            a.push((
                "slice_point",
                I64Array(points.iter().map(|&p| p as i64).collect()),
            ));
        }
        LayerKind::Sigmoid | LayerKind::Tanh | LayerKind::ChannelScale | LayerKind::Affine => {}
        LayerKind::Power {
            scale,
            shift,
            power,
        } => {
            a.push(("scale", F32(*scale)));
            a.push(("shift", F32(*shift)));
            a.push(("power", F32(*power)));
        }
    }
    if layer.is_quantized() {
        a.push((
            "input_clip",
            F32Array(layer.input_clips.iter().map(|c| c.value_f32()).collect()),
        ));
        a.push((
            "input_z",
            I64Array(layer.input_clips.iter().map(|c| c.z()).collect()),
        ));
    }
    if let (true, Some(c)) = (layer.has_weights(), layer.weight_clip) {
        a.push(("weight_clip", F32(c.value_f32())));
        a.push(("weight_z", I64(c.z())));
    }
    a
}
