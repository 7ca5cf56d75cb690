//! Shape and type inference through the registry (`ops::lookup` +
//! `OpSpec::infer`) and over whole graphs (`infer_graph`).

mod common;

use common::*;
use onnc_onnx::onnc_tensor::{Attr, DType, Tensor};
use onnc_onnx::{lookup, Dim, Node, TypeInfo, NORMALIZED_OPSET};

fn t(dims: &[usize]) -> Option<TypeInfo> {
    Some(TypeInfo::fixed(DType::F32, dims))
}

fn run(
    n: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> onnc_onnx::Result<Vec<TypeInfo>> {
    lookup(&n.op_type, "", NORMALIZED_OPSET)
        .expect("known op")
        .infer(n, inputs, consts)
}

fn shape(n: &Node, inputs: &[Option<TypeInfo>], consts: &[Option<&Tensor>]) -> Vec<usize> {
    run(n, inputs, consts).unwrap_or_else(|e| panic!("{e}"))[0]
        .static_shape()
        .unwrap()
}

#[test]
fn broadcasting() {
    let n = Node::new("a", "Add", &["a", "b"], &["y"]);
    assert_eq!(shape(&n, &[t(&[2, 1, 4]), t(&[3, 1])], &[]), vec![2, 3, 4]);
    let e = run(&n, &[t(&[2, 3]), t(&[4])], &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("node 'a' (Add)") && e.contains("broadcast"),
        "{e}"
    );
    let s = Node::new("s", "Sum", &["a", "b", "c"], &["y"]);
    assert_eq!(
        shape(&s, &[t(&[3, 1]), t(&[1, 4]), t(&[4])], &[]),
        vec![3, 4]
    );
    let c = Node::new("c", "Less", &["a", "b"], &["y"]);
    assert_eq!(
        run(&c, &[t(&[2]), t(&[2])], &[]).unwrap()[0].dtype,
        DType::Bool
    );
}

#[test]
fn conv_geometry() {
    let n = Node::new("c", "Conv", &["x", "w"], &["y"])
        .with_attr("strides", Attr::Ints(vec![2, 2]))
        .with_attr("dilations", Attr::Ints(vec![2, 2]))
        .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]));
    // window = (3-1)*2+1 = 5; (32+2-5)/2+1 = 15
    assert_eq!(
        shape(&n, &[t(&[1, 8, 32, 32]), t(&[16, 8, 3, 3])], &[]),
        vec![1, 16, 15, 15]
    );
    let same = Node::new("c", "Conv", &["x", "w"], &["y"])
        .with_attr("auto_pad", Attr::String("SAME_LOWER".into()))
        .with_attr("strides", Attr::Ints(vec![3]));
    assert_eq!(
        shape(&same, &[t(&[1, 2, 10]), t(&[4, 2, 3])], &[]),
        vec![1, 4, 4]
    );
    let valid = Node::new("c", "Conv", &["x", "w"], &["y"])
        .with_attr("auto_pad", Attr::String("VALID".into()));
    assert_eq!(
        shape(&valid, &[t(&[1, 2, 10]), t(&[4, 2, 3])], &[]),
        vec![1, 4, 8]
    );
    let grouped = Node::new("c", "Conv", &["x", "w"], &["y"]).with_attr("group", Attr::Int(4));
    assert_eq!(
        shape(&grouped, &[t(&[1, 8, 5, 5]), t(&[8, 2, 1, 1])], &[]),
        vec![1, 8, 5, 5]
    );
    let e = run(&grouped, &[t(&[1, 8, 5, 5]), t(&[8, 3, 1, 1])], &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("channels"), "{e}");
    // A symbolic batch survives.
    let x = TypeInfo {
        dtype: DType::F32,
        dims: vec![
            Dim::Param("N".into()),
            Dim::Fixed(8),
            Dim::Fixed(5),
            Dim::Fixed(5),
        ],
    };
    let out = run(&grouped, &[Some(x.clone()), t(&[8, 2, 1, 1])], &[]).unwrap();
    assert_eq!(out[0].dims[0], Dim::Param("N".into()));
    // Symbolic kernel dims (weights as a graph input): spatial dims unknown, no error.
    let w = TypeInfo {
        dtype: DType::F32,
        dims: vec![
            Dim::Fixed(8),
            Dim::Fixed(2),
            Dim::Param("k".into()),
            Dim::Param("k".into()),
        ],
    };
    let plain = Node::new("c", "Conv", &["x", "w"], &["y"]).with_attr("group", Attr::Int(4));
    let out = run(&plain, &[Some(x), Some(w)], &[]).unwrap();
    assert_eq!(out[0].dims[2..], [Dim::Unknown, Dim::Unknown]);
}

#[test]
fn conv_transpose_geometry() {
    let n = Node::new("c", "ConvTranspose", &["x", "w"], &["y"])
        .with_attr("strides", Attr::Ints(vec![2, 2]))
        .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
        .with_attr("output_padding", Attr::Ints(vec![1, 1]));
    // 2*(4-1) + 1 + 3 - 2 = 8
    assert_eq!(
        shape(&n, &[t(&[1, 8, 4, 4]), t(&[8, 3, 3, 3])], &[]),
        vec![1, 3, 8, 8]
    );
    let os = Node::new("c", "ConvTranspose", &["x", "w"], &["y"])
        .with_attr("output_shape", Attr::Ints(vec![9, 9]));
    assert_eq!(
        shape(&os, &[t(&[1, 8, 4, 4]), t(&[8, 3, 3, 3])], &[]),
        vec![1, 3, 9, 9]
    );
}

#[test]
fn pools() {
    let p = |ceil| {
        Node::new("p", "MaxPool", &["x"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("strides", Attr::Ints(vec![2, 2]))
            .with_attr("ceil_mode", Attr::Int(ceil))
    };
    assert_eq!(shape(&p(0), &[t(&[1, 1, 6, 6])], &[]), vec![1, 1, 2, 2]);
    assert_eq!(shape(&p(1), &[t(&[1, 1, 6, 6])], &[]), vec![1, 1, 3, 3]);
    let mut with_idx = p(0);
    with_idx.outputs.push("i".into());
    assert_eq!(
        run(&with_idx, &[t(&[1, 1, 6, 6])], &[]).unwrap()[1].dtype,
        DType::I64
    );
    let g = Node::new("g", "GlobalAveragePool", &["x"], &["y"]);
    assert_eq!(shape(&g, &[t(&[2, 7, 5, 3])], &[]), vec![2, 7, 1, 1]);
    let missing = Node::new("p", "AveragePool", &["x"], &["y"]);
    let e = run(&missing, &[t(&[1, 1, 4, 4])], &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("'kernel_shape'") && e.contains("node 'p'"),
        "{e}"
    );
}

#[test]
fn matmul_and_gemm() {
    let m = Node::new("m", "MatMul", &["a", "b"], &["y"]);
    assert_eq!(
        shape(&m, &[t(&[5, 1, 2, 3]), t(&[4, 3, 6])], &[]),
        vec![5, 4, 2, 6]
    );
    assert_eq!(shape(&m, &[t(&[3]), t(&[3, 6])], &[]), vec![6]);
    assert_eq!(shape(&m, &[t(&[2, 3]), t(&[3])], &[]), vec![2]);
    assert!(run(&m, &[t(&[2, 3]), t(&[4, 6])], &[]).is_err());
    let g = Node::new("g", "Gemm", &["a", "b", "c"], &["y"]).with_attr("transA", Attr::Int(1));
    assert_eq!(
        shape(&g, &[t(&[3, 2]), t(&[3, 7]), t(&[7])], &[]),
        vec![2, 7]
    );
}

#[test]
fn data_movement() {
    let i64s = |v: &[i64]| Tensor::from_i64(vec![v.len()], v.to_vec()).unwrap();
    let c = Node::new("c", "Concat", &["a", "b"], &["y"]).with_attr("axis", Attr::Int(-1));
    assert_eq!(shape(&c, &[t(&[2, 3]), t(&[2, 5])], &[]), vec![2, 8]);
    assert!(run(&c, &[t(&[2, 3]), t(&[3, 5])], &[]).is_err());

    let g = Node::new("g", "Gather", &["x", "i"], &["y"]).with_attr("axis", Attr::Int(1));
    let idx = Some(TypeInfo::fixed(DType::I64, &[4, 2]));
    assert_eq!(shape(&g, &[t(&[3, 5, 7]), idx], &[]), vec![3, 4, 2, 7]);

    let f = Node::new("f", "Flatten", &["x"], &["y"]).with_attr("axis", Attr::Int(2));
    assert_eq!(shape(&f, &[t(&[2, 3, 4, 5])], &[]), vec![6, 20]);
    let f0 = Node::new("f", "Flatten", &["x"], &["y"]).with_attr("axis", Attr::Int(0));
    assert_eq!(shape(&f0, &[t(&[2, 3])], &[]), vec![1, 6]);

    let r = Node::new("r", "Reshape", &["x", "s"], &["y"]);
    let s = i64s(&[0, -1, 2]);
    assert_eq!(
        shape(
            &r,
            &[t(&[3, 4, 2]), Some(TypeInfo::of(&s))],
            &[None, Some(&s)]
        ),
        vec![3, 4, 2]
    );
    let bad = i64s(&[5, -1]);
    assert!(run(
        &r,
        &[t(&[3, 4]), Some(TypeInfo::of(&bad))],
        &[None, Some(&bad)]
    )
    .is_err());

    let sp = Node::new("s", "Split", &["x"], &["a", "b", "c"]).with_attr("axis", Attr::Int(1));
    let out = run(&sp, &[t(&[2, 9])], &[]).unwrap();
    assert_eq!(out.len(), 3);
    assert_eq!(out[2].static_shape().unwrap(), vec![2, 3]);

    let tr =
        Node::new("t", "Transpose", &["x"], &["y"]).with_attr("perm", Attr::Ints(vec![0, 2, 1]));
    assert_eq!(shape(&tr, &[t(&[1, 2, 3])], &[]), vec![1, 3, 2]);
    let bad_perm =
        Node::new("t", "Transpose", &["x"], &["y"]).with_attr("perm", Attr::Ints(vec![0, 0, 1]));
    assert!(run(&bad_perm, &[t(&[1, 2, 3])], &[]).is_err());

    let sh = Node::new("s", "Shape", &["x"], &["y"]).with_attr("start", Attr::Int(1));
    assert_eq!(
        run(&sh, &[t(&[1, 2, 3])], &[]).unwrap()[0],
        TypeInfo::fixed(DType::I64, &[2])
    );

    let cos = Node::new("c", "ConstantOfShape", &["s"], &["y"]);
    let s = i64s(&[2, 3]);
    assert_eq!(
        shape(&cos, &[Some(TypeInfo::of(&s))], &[Some(&s)]),
        vec![2, 3]
    );

    let cast = Node::new("c", "Cast", &["x"], &["y"]).with_attr("to", Attr::Int(10));
    assert_eq!(run(&cast, &[t(&[2])], &[]).unwrap()[0].dtype, DType::F16);
}

#[test]
fn non_constant_operands_give_unknown_dims_not_errors() {
    let r = Node::new("r", "Reshape", &["x", "s"], &["y"]);
    let out = run(
        &r,
        &[t(&[3, 4]), Some(TypeInfo::fixed(DType::I64, &[3]))],
        &[],
    )
    .unwrap();
    assert_eq!(out[0].dims, vec![Dim::Unknown; 3]);
    let sl = Node::new("s", "Slice", &["x", "a", "b"], &["y"]);
    let i = Some(TypeInfo::fixed(DType::I64, &[1]));
    assert_eq!(
        run(&sl, &[t(&[3, 4]), i.clone(), i], &[]).unwrap()[0].dims,
        vec![Dim::Unknown; 2]
    );
}

#[test]
fn shape_subgraphs_fold_to_static_shapes() {
    // y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])), PyTorch style.
    let m = model(
        13,
        vec![vi("x", F32, &[2, 3, 4])],
        vec![vi_untyped("y")],
        vec![
            ti64("zero", &[], &[0]),
            ti64("ax", &[1], &[0]),
            ti64("minus1", &[1], &[-1]),
        ],
        vec![
            node("s", "Shape", &["x"], &["s"], vec![]),
            node("g", "Gather", &["s", "zero"], &["n"], vec![]),
            node("u", "Unsqueeze", &["n", "ax"], &["n1"], vec![]),
            node(
                "c",
                "Concat",
                &["n1", "minus1"],
                &["shape"],
                vec![a_int("axis", 0)],
            ),
            node("r", "Reshape", &["x", "shape"], &["y"], vec![]),
        ],
    );
    let m = decode_ok(&m);
    assert_eq!(y_shape(&m), vec![2, 12]);
    let types = onnc_onnx::infer_graph(&m.graph).unwrap();
    assert_eq!(types["y"].static_shape().unwrap(), vec![2, 12]);
}

#[test]
fn unknown_ops_stop_inference_without_error() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![
            node("m", "Mystery", &["x"], &["t"], vec![]),
            node("r", "Relu", &["t"], &["y"], vec![]),
        ],
    );
    let m = decode_ok(&m);
    let types = onnc_onnx::infer_graph(&m.graph).unwrap();
    assert!(!types.contains_key("t") && !types.contains_key("y"));
    assert_eq!(y_shape(&m), vec![2], "the file's declared type is kept");
}

#[test]
fn registry_is_consistent() {
    let all = onnc_onnx::ops::registry();
    assert!(all.len() >= 60, "{}", all.len());
    for s in &all {
        assert!(s.min_opset >= 1 && s.min_opset <= s.max_opset, "{}", s.name);
        assert!(
            s.spec_url
                .starts_with("https://onnx.ai/onnx/operators/onnx__"),
            "{}",
            s.name
        );
        assert!(s.spec_url.contains(s.name), "{}", s.name);
    }
    let mut names: Vec<&str> = all.iter().map(|s| s.name).collect();
    names.dedup();
    assert_eq!(names.len(), all.len(), "duplicate op names");
    assert!(lookup("Conv", "ai.onnx", 11).is_some());
    assert!(lookup("Conv", "com.microsoft", 11).is_none());
    assert!(lookup("Upsample", "", 10).is_none());
    for op in [
        "Conv",
        "ConvTranspose",
        "Gemm",
        "MatMul",
        "BatchNormalization",
        "Relu",
        "LeakyRelu",
        "PRelu",
        "Sigmoid",
        "Tanh",
        "Clip",
        "Add",
        "Sub",
        "Mul",
        "Div",
        "Sum",
        "Max",
        "Min",
        "Neg",
        "Sqrt",
        "Pow",
        "Exp",
        "Log",
        "MaxPool",
        "AveragePool",
        "GlobalAveragePool",
        "GlobalMaxPool",
        "LRN",
        "Softmax",
        "Concat",
        "Split",
        "Slice",
        "Gather",
        "Reshape",
        "Flatten",
        "Transpose",
        "Squeeze",
        "Unsqueeze",
        "Pad",
        "Upsample",
        "Resize",
        "ReduceMean",
        "ReduceSum",
        "Dropout",
        "Identity",
        "Cast",
        "Constant",
        "ConstantOfShape",
        "Shape",
    ] {
        assert!(onnc_onnx::ops::find(op, "").is_some(), "{op} is required");
    }
}
