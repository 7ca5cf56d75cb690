//! Bad operands are errors that name the input or attribute — never panics.

use onnc_interp::{run_op, run_op_with, supported_ops, Error, OpOptions};
use onnc_tensor::{Attr, Attrs, DType, Data, Tensor};

fn f(shape: &[usize]) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f32(
        shape.to_vec(),
        (0..n).map(|v| v as f32 * 0.5 - 1.0).collect(),
    )
    .unwrap()
}
fn i(shape: &[usize], v: &[i64]) -> Tensor {
    Tensor::from_i64(shape.to_vec(), v.to_vec()).unwrap()
}
fn attrs(list: &[(&str, Attr)]) -> Attrs {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn unknown_op_is_named() {
    let e = run_op("FancyOp", &Attrs::new(), &[]).unwrap_err();
    assert!(matches!(&e, Error::UnknownOp(n) if n == "FancyOp"));
    assert_eq!(e.to_string(), "unknown operator `FancyOp`");
}

#[test]
fn wrong_input_count() {
    let x = f(&[2]);
    let e = run_op("Add", &Attrs::new(), &[Some(&x)]).unwrap_err();
    assert!(matches!(e, Error::InputCount { actual: 1, .. }), "{e}");
    assert_eq!(e.to_string(), "Add: expected 2 inputs, got 1");
}

#[test]
fn missing_required_input() {
    let e = run_op("Conv", &Attrs::new(), &[Some(&f(&[1, 1, 2, 2])), None]).unwrap_err();
    assert!(matches!(e, Error::MissingInput { index: 1, .. }), "{e}");
}

#[test]
fn wrong_shape_names_input_and_expectation() {
    let e = run_op(
        "Conv",
        &Attrs::new(),
        &[Some(&f(&[1, 3, 4, 4])), Some(&f(&[2, 2, 3, 3]))],
    )
    .unwrap_err();
    match &e {
        Error::InputShape { index, actual, .. } => {
            assert_eq!((*index, actual.as_slice()), (1, &[2, 2, 3, 3][..]))
        }
        other => panic!("{other}"),
    }
    let e = run_op(
        "MatMul",
        &Attrs::new(),
        &[Some(&f(&[2, 3])), Some(&f(&[4, 2]))],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "MatMul: input 1 has shape [4, 2], expected [..., 3, N]"
    );
    let e = run_op("Add", &Attrs::new(), &[Some(&f(&[2])), Some(&f(&[3]))]).unwrap_err();
    assert!(matches!(e, Error::InputShape { index: 1, .. }), "{e}");
}

#[test]
fn wrong_type_names_input() {
    let e = run_op(
        "Relu",
        &Attrs::new(),
        &[Some(&Tensor::full(DType::Bool, vec![2], 1.0))],
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputType {
                index: 0,
                actual: DType::Bool,
                ..
            }
        ),
        "{e}"
    );
    let e = run_op(
        "Add",
        &Attrs::new(),
        &[Some(&f(&[2])), Some(&i(&[2], &[1, 2]))],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Add: input 1 has element type i64, expected f32 like input 0"
    );
}

#[test]
fn bad_attributes() {
    let x = f(&[1, 1, 4, 4]);
    let w = f(&[1, 1, 2, 2]);
    for (name, value) in [
        ("strides", Attr::Ints(vec![0, 1])),
        ("pads", Attr::Ints(vec![1])),
        ("dilations", Attr::Float(1.0)),
        ("auto_pad", Attr::String("SIDEWAYS".into())),
        ("group", Attr::Int(0)),
        ("kernel_shape", Attr::Ints(vec![3, 3])),
    ] {
        let e = run_op(
            "Conv",
            &attrs(&[(name, value.clone())]),
            &[Some(&x), Some(&w)],
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::BadAttr { name: n, .. } if n == name),
            "{name}: {e}"
        );
    }
    let e = run_op(
        "Transpose",
        &attrs(&[("perm", Attr::Ints(vec![0, 0, 1, 2]))]),
        &[Some(&x)],
    )
    .unwrap_err();
    assert!(matches!(e, Error::BadAttr { .. }), "{e}");
    let e = run_op("Cast", &attrs(&[("to", Attr::Int(8))]), &[Some(&x)]).unwrap_err();
    assert!(matches!(e, Error::BadAttr { .. }), "{e}");
}

#[test]
fn huge_shapes_are_rejected_not_allocated() {
    let e = run_op(
        "ConstantOfShape",
        &Attrs::new(),
        &[Some(&i(&[2], &[1 << 40, 1 << 40]))],
    )
    .unwrap_err();
    assert!(matches!(e, Error::InputShape { .. }), "{e}");
    let e = run_op(
        "Expand",
        &Attrs::new(),
        &[Some(&f(&[1])), Some(&i(&[1], &[i64::MAX]))],
    )
    .unwrap_err();
    assert!(matches!(e, Error::InputShape { .. }), "{e}");
}

/// A pool of awkward operands: empty, scalar, mismatched, int, bool, extreme values.
fn pool() -> Vec<Tensor> {
    vec![
        f(&[]),
        f(&[0]),
        f(&[3]),
        f(&[2, 3]),
        f(&[1, 2, 3, 3]),
        f(&[2, 0, 2]),
        i(&[2], &[-1, 5]),
        i(&[], &[0]),
        i(&[4], &[i64::MIN, -7, 3, i64::MAX]),
        i(&[3], &[1, 1, 2]),
        Tensor::new(vec![2], Data::Bool(vec![1, 0])).unwrap(),
        Tensor::new(vec![2], Data::I32(vec![i32::MIN, -1])).unwrap(),
    ]
}

fn attr_sets() -> Vec<Attrs> {
    vec![
        Attrs::new(),
        attrs(&[
            ("axis", Attr::Int(-100)),
            ("axes", Attr::Ints(vec![7])),
            ("keepdims", Attr::Int(0)),
        ]),
        attrs(&[
            ("axis", Attr::Int(1)),
            ("perm", Attr::Ints(vec![1, 0])),
            ("to", Attr::Int(7)),
        ]),
        attrs(&[
            ("kernel_shape", Attr::Ints(vec![2, 2])),
            ("strides", Attr::Ints(vec![i64::MAX, 1])),
            ("pads", Attr::Ints(vec![-1, 0, 0, i64::MAX])),
            ("group", Attr::Int(i64::MAX)),
        ]),
        attrs(&[
            ("kernel_shape", Attr::Ints(vec![3])),
            ("auto_pad", Attr::String("SAME_LOWER".into())),
            ("ceil_mode", Attr::Int(1)),
        ]),
        attrs(&[
            ("mode", Attr::String("reflect".into())),
            ("size", Attr::Int(i64::MAX)),
            ("num_outputs", Attr::Int(i64::MAX)),
        ]),
        attrs(&[
            ("mode", Attr::String("linear".into())),
            (
                "coordinate_transformation_mode",
                Attr::String("tf_crop_and_resize".into()),
            ),
        ]),
        attrs(&[
            ("value", Attr::String("oops".into())),
            ("alpha", Attr::Ints(vec![])),
            ("axis", Attr::Float(1.0)),
        ]),
    ]
}

#[test]
fn no_kernel_panics_on_awkward_operands() {
    let pool = pool();
    let sets = attr_sets();
    let mut calls = 0;
    let mut panics = Vec::new();
    for op in supported_ops() {
        for a in &sets {
            // Every combination of up to 3 inputs; a fixed pseudo-random
            // sample (with absent inputs) for 4..=9 inputs.
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for n in 0..=9usize {
                let total = if n <= 3 { pool.len().pow(n as u32) } else { 40 };
                for combo in 0..total {
                    let mut ins: Vec<Option<&Tensor>> = Vec::with_capacity(n);
                    let mut k = combo;
                    for _ in 0..n {
                        if n <= 3 {
                            ins.push(Some(&pool[k % pool.len()]));
                            k /= pool.len();
                        } else {
                            seed = seed
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            let pick = (seed >> 33) as usize % (pool.len() + 1);
                            ins.push(pool.get(pick));
                        }
                    }
                    for opset in [11, 21] {
                        let opts = OpOptions {
                            opset,
                            num_outputs: Some(2),
                        };
                        calls += 1;
                        let r = std::panic::catch_unwind(|| run_op_with(op, a, &ins, &opts));
                        if r.is_err() {
                            panics.push(format!(
                                "{op} {a:?} {:?}",
                                ins.iter()
                                    .map(|t| t.map(|t| (t.dtype(), t.shape().to_vec())))
                                    .collect::<Vec<_>>()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        panics.is_empty(),
        "{} of {calls} calls panicked, first: {:#?}",
        panics.len(),
        &panics[..panics.len().min(10)]
    );
}
