//! NNIE layers → a Caffe `NetParameter` with weights (prototxt + caffemodel).
//!
//! In: the graph inputs (name, N×C×H×W) and the calibrated layers. Out: a
//! [`NetParameter`] whose layers are named after the ONNX nodes and whose
//! blobs are the ONNX value names; weights are clipped to `±weight_clip`
//! in place, as MQBench's deploy step does (the mapper quantizes them with
//! that clip).
//!
//! ```
//! use onnc_nnie::frontend::{caffe_net, Layer, LayerKind};
//! let relu = Layer::new("relu1", "Relu", LayerKind::Relu { negative_slope: 0.0 }, vec!["x".into()], "y");
//! let net = caffe_net("tiny", &[("x".into(), vec![1, 3, 8, 8])], &[relu]);
//! assert_eq!(net.input, ["x"]);
//! assert_eq!(net.layer[0].r#type.as_deref(), Some("ReLU"));
//! ```

use crate::caffe::proto::{
    eltwise_parameter, pooling_parameter, BlobProto, BlobShape, ConcatParameter,
    ConvolutionParameter, EltwiseParameter, FlattenParameter, InnerProductParameter,
    LayerParameter, NetParameter, PermuteParameter, PoolingParameter, PowerParameter,
    ReLuParameter, ReshapeParameter, ScaleParameter, SliceParameter, SoftmaxParameter,
    UpsampleParameter,
};
use crate::grid::ClipValue;

use super::layer::{EltwiseOp, Layer, LayerKind};

/// The Caffe net of `layers` with inputs `inputs` (name, shape).
pub fn caffe_net(name: &str, inputs: &[(String, Vec<usize>)], layers: &[Layer]) -> NetParameter {
    NetParameter {
        name: Some(name.to_string()),
        input: inputs.iter().map(|(n, _)| n.clone()).collect(),
        input_shape: inputs.iter().map(|(_, s)| shape(s)).collect(),
        layer: layers.iter().flat_map(caffe_layers).collect(),
        ..Default::default()
    }
}

fn shape(dims: &[usize]) -> BlobShape {
    BlobShape {
        dim: dims.iter().map(|&d| d as i64).collect(),
    }
}

fn blob(t: &onnc_tensor::Tensor, clip: Option<ClipValue>) -> BlobProto {
    let mut data = t.as_f32().map(<[f32]>::to_vec).unwrap_or_default();
    if let Some(c) = clip {
        crate::calib::clip_weights(&mut data, c);
    }
    BlobProto {
        shape: Some(shape(t.shape())),
        data,
        ..Default::default()
    }
}

fn u(v: usize) -> Option<u32> {
    Some(v as u32)
}

/// The Caffe layers of `l`: one, except a channel scale (Flatten of the
/// gate to `N×C`, named `<layer>/flatten` with top `<layer>/gate`, then
/// Scale with axis 0 — Caffe's Scale needs the scale blob's shape to equal
/// the input's from the axis on).
fn caffe_layers(l: &Layer) -> Vec<LayerParameter> {
    let main = layer(l);
    if l.kind != LayerKind::ChannelScale || l.bottoms.len() != 2 {
        return vec![main];
    }
    let gate = format!("{}/gate", l.name);
    let flatten = LayerParameter {
        name: Some(format!("{}/flatten", l.name)),
        r#type: Some("Flatten".into()),
        bottom: vec![l.bottoms[1].clone()],
        top: vec![gate.clone()],
        flatten_param: Some(FlattenParameter {
            axis: Some(1),
            end_axis: Some(-1),
        }),
        ..Default::default()
    };
    let mut scale = main;
    scale.bottom[1] = gate;
    vec![flatten, scale]
}

fn layer(l: &Layer) -> LayerParameter {
    let mut p = LayerParameter {
        name: Some(l.name.clone()),
        r#type: Some(l.caffe_type().to_string()),
        bottom: l.bottoms.clone(),
        top: vec![l.top.clone()],
        ..Default::default()
    };
    if let Some(w) = &l.weight {
        p.blobs.push(blob(w, l.weight_clip));
    }
    if let Some(b) = &l.bias {
        p.blobs.push(blob(b, None));
    }
    match &l.kind {
        LayerKind::Conv {
            num_output,
            kernel,
            stride,
            pad,
            dilation,
            group,
        } => {
            p.convolution_param = Some(ConvolutionParameter {
                num_output: u(*num_output),
                bias_term: Some(l.bias.is_some()),
                kernel_h: u(kernel[0]),
                kernel_w: u(kernel[1]),
                stride_h: u(stride[0]),
                stride_w: u(stride[1]),
                pad_h: u(pad[0]),
                pad_w: u(pad[1]),
                dilation: if *dilation == [1, 1] {
                    vec![]
                } else {
                    dilation.iter().map(|&d| d as u32).collect()
                },
                group: if *group == 1 { None } else { u(*group) },
                ..Default::default()
            });
        }
        LayerKind::Deconv {
            num_output,
            kernel,
            stride,
            pad,
            group,
        } => {
            p.convolution_param = Some(ConvolutionParameter {
                num_output: u(*num_output),
                bias_term: Some(l.bias.is_some()),
                kernel_h: u(kernel[0]),
                kernel_w: u(kernel[1]),
                stride_h: u(stride[0]),
                stride_w: u(stride[1]),
                pad_h: u(pad[0]),
                pad_w: u(pad[1]),
                group: if *group == 1 { None } else { u(*group) },
                ..Default::default()
            });
        }
        LayerKind::Fc { num_output } => {
            p.inner_product_param = Some(InnerProductParameter {
                num_output: u(*num_output),
                bias_term: Some(l.bias.is_some()),
                ..Default::default()
            });
        }
        LayerKind::Pool {
            max,
            kernel,
            stride,
            pad,
            global,
        } => {
            let method = if *max {
                pooling_parameter::PoolMethod::Max
            } else {
                pooling_parameter::PoolMethod::Ave
            };
            p.pooling_param = Some(if *global {
                PoolingParameter {
                    pool: Some(method as i32),
                    global_pooling: Some(true),
                    ..Default::default()
                }
            } else {
                PoolingParameter {
                    pool: Some(method as i32),
                    kernel_h: u(kernel[0]),
                    kernel_w: u(kernel[1]),
                    stride_h: u(stride[0]),
                    stride_w: u(stride[1]),
                    pad_h: u(pad[0]),
                    pad_w: u(pad[1]),
                    ..Default::default()
                }
            });
        }
        LayerKind::Eltwise { op } => {
            let e = match op {
                EltwiseOp::Sum => eltwise_parameter::EltwiseOp::Sum,
                EltwiseOp::Prod => eltwise_parameter::EltwiseOp::Prod,
                EltwiseOp::Max => eltwise_parameter::EltwiseOp::Max,
            };
            p.eltwise_param = Some(EltwiseParameter {
                operation: Some(e as i32),
                ..Default::default()
            });
        }
        LayerKind::Concat { axis } => {
            p.concat_param = Some(ConcatParameter {
                axis: Some(*axis as i32),
                ..Default::default()
            });
        }
        LayerKind::Upsample { scale } => {
            p.upsample_param = Some(UpsampleParameter {
                scale: Some(*scale),
                ..Default::default()
            });
        }
        LayerKind::Relu { negative_slope } => {
            if *negative_slope != 0.0 {
                p.relu_param = Some(ReLuParameter {
                    negative_slope: Some(*negative_slope),
                    ..Default::default()
                });
            }
        }
        LayerKind::Softmax { axis } => {
            p.softmax_param = Some(SoftmaxParameter {
                axis: Some(*axis as i32),
                ..Default::default()
            });
        }
        LayerKind::Reshape { shape: s } => {
            p.reshape_param = Some(ReshapeParameter {
                shape: Some(BlobShape { dim: s.to_vec() }),
                ..Default::default()
            });
        }
        LayerKind::Permute => {
            p.permute_param = Some(PermuteParameter {
                order: vec![0, 2, 3, 1],
            });
        }
        LayerKind::Slice {
            axis,
            start,
            end,
            len,
        } => {
            let (tops, points) = slice_tops(&l.name, &l.top, *start, *end, *len);
            p.top = tops;
            p.slice_param = Some(SliceParameter {
                axis: Some(*axis as i32),
                slice_point: points,
                ..Default::default()
            });
        }
        LayerKind::Split { axis, points, tops } => {
            p.top = tops.clone();
            p.slice_param = Some(SliceParameter {
                axis: Some(*axis as i32),
                slice_point: points.iter().map(|&p| p as u32).collect(),
                ..Default::default()
            });
        }
        LayerKind::ChannelScale => {
            p.scale_param = Some(ScaleParameter {
                axis: Some(0),
                bias_term: Some(false),
                ..Default::default()
            });
        }
        LayerKind::Affine => {
            p.scale_param = Some(ScaleParameter {
                axis: Some(1),
                num_axes: Some(1),
                bias_term: Some(l.bias.is_some()),
                ..Default::default()
            });
        }
        LayerKind::Sigmoid | LayerKind::Tanh => {}
        LayerKind::Power {
            scale,
            shift,
            power,
        } => {
            p.power_param = Some(PowerParameter {
                // Caffe's default is 1: omitted then, as before powers existed.
                power: (*power != 1.0).then_some(*power),
                scale: Some(*scale),
                shift: Some(*shift),
            });
        }
    }
    p
}

/// A Caffe Slice keeping `[start, end)` of an axis of `len`: its tops (the
/// kept one is `top`; the pieces before/after are `<layer>_unused_before`
/// and `<layer>_unused_after`) and slice points.
pub(crate) fn slice_tops(
    layer: &str,
    top: &str,
    start: usize,
    end: usize,
    len: usize,
) -> (Vec<String>, Vec<u32>) {
    let mut tops = Vec::new();
    let mut points = Vec::new();
    if start > 0 {
        tops.push(format!("{layer}_unused_before"));
        points.push(start as u32);
    }
    tops.push(top.to_string());
    if end < len {
        tops.push(format!("{layer}_unused_after"));
        points.push(end as u32);
    }
    (tops, points)
}

#[cfg(test)]
mod tests {
    use super::slice_tops;

    #[test]
    fn slice_tops_name_the_unused_pieces() {
        assert_eq!(
            slice_tops("s", "y", 0, 56, 57),
            (vec!["y".into(), "s_unused_after".into()], vec![56])
        );
        assert_eq!(
            slice_tops("s", "y", 2, 5, 8),
            (
                vec![
                    "s_unused_before".into(),
                    "y".into(),
                    "s_unused_after".into()
                ],
                vec![2, 5]
            )
        );
        assert_eq!(
            slice_tops("s", "y", 4, 8, 8),
            (vec!["s_unused_before".into(), "y".into()], vec![4])
        );
    }
}
