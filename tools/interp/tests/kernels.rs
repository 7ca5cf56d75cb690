//! Hand-checked examples per kernel family (the ONNX conformance suite in
//! `conformance.rs` covers the operators more broadly).

use onnc_interp::{run_op, run_op_with, OpOptions, Tolerance};
use onnc_tensor::{Attr, Attrs, Data, Tensor};

fn f(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_f32(shape.to_vec(), v.to_vec()).unwrap()
}
fn i(shape: &[usize], v: &[i64]) -> Tensor {
    Tensor::from_i64(shape.to_vec(), v.to_vec()).unwrap()
}
fn attrs(list: &[(&str, Attr)]) -> Attrs {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}
fn run1(op: &str, a: &Attrs, ins: &[&Tensor]) -> Tensor {
    let ins: Vec<Option<&Tensor>> = ins.iter().map(|t| Some(*t)).collect();
    run_op(op, a, &ins)
        .unwrap_or_else(|e| panic!("{op}: {e}"))
        .remove(0)
}
fn close(e: &Tensor, a: &Tensor) {
    if let Err(m) = (Tolerance {
        rtol: 1e-5,
        atol: 1e-6,
    })
    .check(e, a)
    {
        panic!("{m}");
    }
}

#[test]
fn conv_matches_direct_sum_with_pads_strides_groups_dilations() {
    // 1×2×4×4 input, 2 groups, 3×3 kernel, stride 2, pad 1, dilation 1 — against a naive loop.
    let x: Vec<f32> = (0..32).map(|v| (v as f32 * 0.37).sin()).collect();
    let w: Vec<f32> = (0..18).map(|v| (v as f32 * 0.11).cos()).collect();
    let b = [0.5f32, -0.25];
    let a = attrs(&[
        ("group", Attr::Int(2)),
        ("strides", Attr::Ints(vec![2, 2])),
        ("pads", Attr::Ints(vec![1, 1, 1, 1])),
    ]);
    let y = run1(
        "Conv",
        &a,
        &[&f(&[1, 2, 4, 4], &x), &f(&[2, 1, 3, 3], &w), &f(&[2], &b)],
    );
    assert_eq!(y.shape(), &[1, 2, 2, 2]);
    let mut want = vec![0f32; 8];
    for g in 0..2 {
        for oy in 0..2 {
            for ox in 0..2 {
                let mut s = b[g];
                for ky in 0..3 {
                    for kx in 0..3 {
                        let iy = (oy * 2 + ky) as isize - 1;
                        let ix = (ox * 2 + kx) as isize - 1;
                        if (0..4).contains(&iy) && (0..4).contains(&ix) {
                            s += x[g * 16 + iy as usize * 4 + ix as usize] * w[g * 9 + ky * 3 + kx];
                        }
                    }
                }
                want[g * 4 + oy * 2 + ox] = s;
            }
        }
    }
    close(&f(&[1, 2, 2, 2], &want), &y);
}

#[test]
fn conv_1x1_takes_the_direct_path_and_same_upper_pads() {
    let x = f(&[1, 2, 1, 2], &[1.0, 2.0, 3.0, 4.0]);
    let w = f(&[1, 2, 1, 1], &[10.0, 1.0]);
    close(
        &f(&[1, 1, 1, 2], &[13.0, 24.0]),
        &run1("Conv", &Attrs::new(), &[&x, &w]),
    );
    let a = attrs(&[
        ("auto_pad", Attr::String("SAME_UPPER".into())),
        ("strides", Attr::Ints(vec![2, 2])),
    ]);
    let x = f(&[1, 1, 3, 3], &[1.0; 9]);
    let w = f(&[1, 1, 2, 2], &[1.0; 4]);
    // Output ceil(3/2)=2; total pad 1, all at the end.
    close(
        &f(&[1, 1, 2, 2], &[4.0, 2.0, 2.0, 1.0]),
        &run1("Conv", &a, &[&x, &w]),
    );
}

#[test]
fn conv_transpose_scatters() {
    let x = f(&[1, 1, 2], &[1.0, 2.0]);
    let w = f(&[1, 1, 3], &[1.0, 1.0, 1.0]);
    let a = attrs(&[("strides", Attr::Ints(vec![2]))]);
    close(
        &f(&[1, 1, 5], &[1.0, 1.0, 3.0, 2.0, 2.0]),
        &run1("ConvTranspose", &a, &[&x, &w]),
    );
}

#[test]
fn gemm_transposes_scales_and_broadcasts_c() {
    let a = f(&[2, 1], &[1.0, 2.0]); // transA → [1, 2]
    let b = f(&[1, 2], &[3.0, 4.0]); // transB → [2, 1]
    let c = f(&[1], &[1.0]);
    let at = attrs(&[
        ("transA", Attr::Int(1)),
        ("transB", Attr::Int(1)),
        ("alpha", Attr::Float(2.0)),
        ("beta", Attr::Float(3.0)),
    ]);
    close(&f(&[1, 1], &[25.0]), &run1("Gemm", &at, &[&a, &b, &c]));
}

#[test]
fn matmul_broadcasts_batches_and_promotes_vectors() {
    let a = f(&[2, 1, 2], &[1.0, 2.0, 3.0, 4.0]);
    let b = f(&[2, 1], &[1.0, 1.0]);
    close(
        &f(&[2, 1, 1], &[3.0, 7.0]),
        &run1("MatMul", &Attrs::new(), &[&a, &b]),
    );
    let v = f(&[2], &[1.0, 1.0]);
    close(
        &f(&[2, 1], &[3.0, 7.0]),
        &run1("MatMul", &Attrs::new(), &[&a, &v]),
    );
}

#[test]
fn softmax_axis_semantics_depend_on_opset() {
    let x = f(&[2, 2], &[0.0, 0.0, 0.0, 0.0]);
    let a = attrs(&[("axis", Attr::Int(0))]);
    let modern = run1("Softmax", &a, &[&x]);
    close(&f(&[2, 2], &[0.5; 4]), &modern);
    let legacy = run_op_with(
        "Softmax",
        &a,
        &[Some(&x)],
        &OpOptions {
            opset: 11,
            num_outputs: None,
        },
    )
    .unwrap();
    close(&f(&[2, 2], &[0.25; 4]), &legacy[0]);
}

#[test]
fn pools_handle_ceil_mode_and_count_include_pad() {
    let x = f(&[1, 1, 3], &[1.0, 2.0, 3.0]);
    let a = attrs(&[
        ("kernel_shape", Attr::Ints(vec![2])),
        ("strides", Attr::Ints(vec![2])),
        ("ceil_mode", Attr::Int(1)),
    ]);
    close(&f(&[1, 1, 2], &[2.0, 3.0]), &run1("MaxPool", &a, &[&x]));
    close(&f(&[1, 1, 2], &[1.5, 3.0]), &run1("AveragePool", &a, &[&x]));
    let a = attrs(&[
        ("kernel_shape", Attr::Ints(vec![2])),
        ("pads", Attr::Ints(vec![1, 0])),
        ("count_include_pad", Attr::Int(1)),
    ]);
    close(
        &f(&[1, 1, 3], &[0.5, 1.5, 2.5]),
        &run1("AveragePool", &a, &[&x]),
    );
}

#[test]
fn slice_with_negative_steps_and_clamping() {
    let x = f(&[4], &[1.0, 2.0, 3.0, 4.0]);
    let y = run1(
        "Slice",
        &Attrs::new(),
        &[
            &x,
            &i(&[1], &[-1]),
            &i(&[1], &[-100]),
            &i(&[1], &[0]),
            &i(&[1], &[-2]),
        ],
    );
    close(&f(&[2], &[4.0, 2.0]), &y);
    let y = run1(
        "Slice",
        &Attrs::new(),
        &[&x, &i(&[1], &[1]), &i(&[1], &[i64::MAX])],
    );
    close(&f(&[3], &[2.0, 3.0, 4.0]), &y);
}

#[test]
fn pad_modes() {
    let x = f(&[3], &[1.0, 2.0, 3.0]);
    let p = i(&[2], &[2, 1]);
    let run = |m: &str| {
        run1(
            "Pad",
            &attrs(&[("mode", Attr::String(m.into()))]),
            &[&x, &p],
        )
    };
    close(&f(&[6], &[0.0, 0.0, 1.0, 2.0, 3.0, 0.0]), &run("constant"));
    close(&f(&[6], &[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]), &run("reflect"));
    close(&f(&[6], &[1.0, 1.0, 1.0, 2.0, 3.0, 3.0]), &run("edge"));
    close(&f(&[6], &[2.0, 3.0, 1.0, 2.0, 3.0, 1.0]), &run("wrap"));
}

#[test]
fn reshape_zero_and_minus_one() {
    let x = f(&[2, 3, 4], &[0.0; 24]);
    assert_eq!(
        run1("Reshape", &Attrs::new(), &[&x, &i(&[2], &[0, -1])]).shape(),
        &[2, 12]
    );
    let a = attrs(&[("allowzero", Attr::Int(1))]);
    assert!(run_op("Reshape", &a, &[Some(&x), Some(&i(&[2], &[0, -1]))]).is_err());
}

#[test]
fn resize_nearest_and_linear() {
    let x = f(&[1, 1, 1, 2], &[1.0, 2.0]);
    let s = f(&[4], &[1.0, 1.0, 1.0, 2.0]);
    let none = Tensor::from_f32(vec![0], vec![]).unwrap();
    let a = attrs(&[
        ("mode", Attr::String("nearest".into())),
        (
            "coordinate_transformation_mode",
            Attr::String("asymmetric".into()),
        ),
        ("nearest_mode", Attr::String("floor".into())),
    ]);
    let y = run_op("Resize", &a, &[Some(&x), None, Some(&s)])
        .unwrap()
        .remove(0);
    close(&f(&[1, 1, 1, 4], &[1.0, 1.0, 2.0, 2.0]), &y);
    let a = attrs(&[("mode", Attr::String("linear".into()))]);
    let y = run_op("Resize", &a, &[Some(&x), Some(&none), Some(&s)])
        .unwrap()
        .remove(0);
    close(&f(&[1, 1, 1, 4], &[1.0, 1.25, 1.75, 2.0]), &y);
}

#[test]
fn reductions_and_argmax() {
    let x = f(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let a = attrs(&[("keepdims", Attr::Int(0))]);
    close(
        &f(&[2], &[3.0, 7.0]),
        &run1("ReduceSum", &a, &[&x, &i(&[1], &[1])]),
    );
    close(
        &f(&[2], &[2.0, 3.0]),
        &run1("ReduceMean", &a, &[&x, &i(&[1], &[0])]),
    );
    close(&f(&[], &[4.0]), &run1("ReduceMax", &a, &[&x]));
    let noop = attrs(&[("noop_with_empty_axes", Attr::Int(1))]);
    close(&x, &run1("ReduceMin", &noop, &[&x]));
    let y = run1("ArgMax", &attrs(&[("axis", Attr::Int(1))]), &[&x]);
    assert_eq!(y.data(), &Data::I64(vec![1, 1]));
}

#[test]
fn shape_ops_on_int64() {
    let x = f(&[2, 3, 4], &[0.0; 24]);
    let s = run1("Shape", &attrs(&[("start", Attr::Int(1))]), &[&x]);
    assert_eq!(s.data(), &Data::I64(vec![3, 4]));
    let g = run1("Gather", &Attrs::new(), &[&s, &i(&[], &[-1])]);
    assert_eq!((g.shape(), g.data()), (&[][..], &Data::I64(vec![4])));
    let u = run1("Unsqueeze", &Attrs::new(), &[&g, &i(&[1], &[0])]);
    let cat = run1(
        "Concat",
        &attrs(&[("axis", Attr::Int(0))]),
        &[&u, &i(&[1], &[-1])],
    );
    assert_eq!(cat.data(), &Data::I64(vec![4, -1]));
    let r = run1(
        "Range",
        &Attrs::new(),
        &[&i(&[], &[1]), &i(&[], &[6]), &i(&[], &[2])],
    );
    assert_eq!(r.data(), &Data::I64(vec![1, 3, 5]));
    let c = run1("ConstantOfShape", &Attrs::new(), &[&i(&[2], &[1, 2])]);
    assert_eq!(c.shape(), &[1, 2]);
    let e = run1(
        "Expand",
        &Attrs::new(),
        &[&f(&[2], &[1.0, 2.0]), &i(&[2], &[2, 1])],
    );
    close(&f(&[2, 2], &[1.0, 2.0, 1.0, 2.0]), &e);
    let t = run1(
        "Tile",
        &Attrs::new(),
        &[&f(&[2], &[1.0, 2.0]), &i(&[1], &[2])],
    );
    close(&f(&[4], &[1.0, 2.0, 1.0, 2.0]), &t);
}

#[test]
fn split_and_dropout_outputs_follow_the_requested_count() {
    let x = f(&[5], &[1.0, 2.0, 3.0, 4.0, 5.0]);
    let opts = OpOptions {
        num_outputs: Some(2),
        ..OpOptions::default()
    };
    let parts = run_op_with(
        "Split",
        &attrs(&[("num_outputs", Attr::Int(2))]),
        &[Some(&x)],
        &opts,
    )
    .unwrap();
    assert_eq!(
        parts.iter().map(|t| t.numel()).collect::<Vec<_>>(),
        vec![3, 2]
    );
    let parts = run_op_with(
        "Split",
        &Attrs::new(),
        &[Some(&x), Some(&i(&[2], &[1, 4]))],
        &opts,
    )
    .unwrap();
    assert_eq!(parts[1].as_f32().unwrap(), &[2.0, 3.0, 4.0, 5.0]);
    let d = run_op_with("Dropout", &Attrs::new(), &[Some(&x)], &opts).unwrap();
    assert_eq!(d[1].data(), &Data::Bool(vec![1; 5]));
    assert_eq!(
        run_op("Dropout", &Attrs::new(), &[Some(&x)]).unwrap().len(),
        1
    );
}

#[test]
fn elementwise_broadcasting_and_where() {
    let a = f(&[2, 1], &[1.0, 2.0]);
    let b = f(&[3], &[1.0, 2.0, 3.0]);
    let y = run1("Sub", &Attrs::new(), &[&a, &b]);
    close(&f(&[2, 3], &[0.0, -1.0, -2.0, 1.0, 0.0, -1.0]), &y);
    let lt = run1("Less", &Attrs::new(), &[&a, &b]);
    assert_eq!(lt.data(), &Data::Bool(vec![0, 1, 1, 0, 0, 1]));
    let w = run1("Where", &Attrs::new(), &[&lt, &a, &b]);
    close(&f(&[2, 3], &[1.0, 1.0, 1.0, 1.0, 2.0, 2.0]), &w);
    let m = run1("Max", &Attrs::new(), &[&a, &b, &f(&[], &[2.5])]);
    close(&f(&[2, 3], &[2.5, 2.5, 3.0, 2.5, 2.5, 3.0]), &m);
    let clip = run_op(
        "Clip",
        &Attrs::new(),
        &[Some(&b), None, Some(&f(&[], &[2.0]))],
    )
    .unwrap();
    close(&f(&[3], &[1.0, 2.0, 2.0]), &clip[0]);
    let p = run1(
        "PRelu",
        &Attrs::new(),
        &[
            &f(&[2, 2], &[-1.0, 1.0, -2.0, 2.0]),
            &f(&[2, 1], &[0.5, 0.25]),
        ],
    );
    close(&f(&[2, 2], &[-0.5, 1.0, -0.5, 2.0]), &p);
}

#[test]
fn batch_norm_and_lrn() {
    let x = f(&[1, 2, 1, 1], &[3.0, 3.0]);
    let one = f(&[2], &[1.0, 1.0]);
    let y = run1(
        "BatchNormalization",
        &attrs(&[("epsilon", Attr::Float(0.0))]),
        &[&x, &f(&[2], &[2.0, 1.0]), &one, &f(&[2], &[0.0, 1.0]), &one],
    );
    close(&f(&[1, 2, 1, 1], &[7.0, 3.0]), &y);
    let a = attrs(&[
        ("size", Attr::Int(1)),
        ("alpha", Attr::Float(1.0)),
        ("beta", Attr::Float(1.0)),
        ("bias", Attr::Float(0.0)),
    ]);
    close(
        &f(&[1, 1], &[0.5]),
        &run1("LRN", &a, &[&f(&[1, 1], &[2.0])]),
    );
}
