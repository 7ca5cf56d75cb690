//! Fully connected layers on convolution engines: `MatMul` → `Gemm` →
//! `Conv`.
//!
//! In: `MatMul(A, B)` with 2-D `A` and constant 2-D `B`; `Gemm(A, B, C?)`
//! with `transA = 0`, constant `B` and a constant `C` broadcast per output.
//! Out: `Reshape(Conv(X, W, bias), [N, M])` where `W = α·op(B)` reshaped to
//! `M×C×H×W`, `bias = β·C`. When `A` is a `Reshape`/`Flatten` of a 4-D
//! `X` (`N×C×H×W`, `C·H·W = K`) the Conv reads `X` with an `H×W` kernel
//! (ONNC's ReplaceGemmByConv); otherwise `X = Reshape(A, [N, K, 1, 1])`
//! and the kernel is 1×1.
//!
//! ```text
//! common/matmul-to-gemm  (MatMul A B)                => (Gemm A B)
//! common/gemm-to-conv    (Gemm (Reshape X s) B C)    => (Reshape (Conv X W b) [N, M])
//!                        (Gemm A B C)                => (Reshape (Conv (Reshape A [N,K,1,1]) W b) [N, M])
//! ```

use super::{attrs, Cx, Rule, ALL};
use egg::Id;
use onnc_tensor::{Attr, Data, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/matmul-to-gemm",
        deep: false,
        op: "MatMul",
        targets: ALL,
        doc: "a 2-D MatMul by a constant is a Gemm",
        apply: matmul,
    },
    Rule {
        name: "common/gemm-to-conv",
        deep: true,
        op: "Gemm",
        targets: ALL,
        doc: "Gemm by constants is a Conv over the (reshaped) input",
        apply: gemm,
    },
];

fn matmul(cx: &mut Cx) -> Option<Id> {
    let (a, b) = (cx.arg(0), cx.arg(1));
    if cx.shape(a)?.len() != 2 || cx.shape(b)?.len() != 2 || !cx.is_const(b) {
        return None;
    }
    let at = attrs(&[
        ("alpha", Attr::Float(1.0)),
        ("beta", Attr::Float(1.0)),
        ("transA", Attr::Int(0)),
        ("transB", Attr::Int(0)),
    ]);
    let absent = cx.absent();
    Some(cx.op("Gemm", at, &[a, b, absent], ""))
}

/// Conv attributes for a kernel of `k`.
pub fn conv_attrs(k: &[usize]) -> onnc_tensor::Attrs {
    let n = k.len();
    attrs(&[
        ("auto_pad", Attr::String("NOTSET".into())),
        ("dilations", Attr::Ints(vec![1; n])),
        ("group", Attr::Int(1)),
        (
            "kernel_shape",
            Attr::Ints(k.iter().map(|&v| v as i64).collect()),
        ),
        ("pads", Attr::Ints(vec![0; 2 * n])),
        ("strides", Attr::Ints(vec![1; n])),
    ])
}

/// `Conv(x, w)` with a 1×1 kernel and no bias, named by `suffix` (empty:
/// the matched node's name).
pub fn conv_1x1(cx: &mut Cx, x: Id, w: Id, suffix: &str) -> Id {
    let absent = cx.absent();
    cx.op("Conv", conv_attrs(&[1, 1]), &[x, w, absent], suffix)
}

fn gemm(cx: &mut Cx) -> Option<Id> {
    if cx.key.int("transA").unwrap_or(0) != 0 {
        return None;
    }
    let alpha = cx.key.float("alpha").unwrap_or(1.0) as f64;
    let beta = cx.key.float("beta").unwrap_or(1.0) as f64;
    let trans_b = cx.key.int("transB").unwrap_or(0) != 0;
    let (a, b_id) = (cx.arg(0), cx.arg(1));
    let a_shape = cx.shape(a)?;
    let b = cx.value(b_id)?;
    let dtype = b.dtype();
    if a_shape.len() != 2 || b.rank() != 2 || !dtype.is_float() {
        return None;
    }
    let (n, k) = (a_shape[0], a_shape[1]);
    let (bk, m) = if trans_b {
        (b.shape()[1], b.shape()[0])
    } else {
        (b.shape()[0], b.shape()[1])
    };
    if bk != k {
        return None;
    }
    let bias = if cx.has(2) {
        let c = cx.value(cx.arg(2))?;
        let cv = c.data().to_f64_vec();
        if cv.len() == m {
            cv.iter().map(|v| beta * v).collect::<Vec<_>>()
        } else if cv.len() == 1 {
            vec![beta * cv[0]; m]
        } else {
            return None;
        }
    } else {
        vec![0.0; m]
    };
    // Input: the 4-D tensor before a flattening Reshape/Flatten, or A itself as N×K×1×1.
    let flat = cx
        .producer(a, "Reshape")
        .or_else(|| cx.producer(a, "Flatten"));
    let src4 = flat.and_then(|f| {
        let x = cx.child(&f, 0)?;
        let s = cx.shape(x)?;
        (s.len() == 4 && s[0] == n && s[1] * s[2] * s[3] == k).then_some((x, s))
    });
    let (x, kernel, wshape) = match src4 {
        Some((x, s)) => (x, vec![s[2], s[3]], vec![m, s[1], s[2], s[3]]),
        None => {
            let shape = cx.ints("in_shape", &[n as i64, k as i64, 1, 1]);
            let x = cx.op(
                "Reshape",
                attrs(&[("allowzero", Attr::Int(0))]),
                &[a, shape],
                "/reshape_in",
            );
            (x, vec![1, 1], vec![m, k, 1, 1])
        }
    };
    let wt = conv_weight(&b, trans_b, alpha, (m, k), wshape)?;
    let bt = Tensor::new(vec![m], Data::from_f64s(dtype, &bias)).ok()?;
    let w_id = cx.tensor("conv_w", wt);
    let b_id = cx.tensor("conv_b", bt);
    let conv = cx.op("Conv", conv_attrs(&kernel), &[x, w_id, b_id], "/conv");
    let out_shape = cx.ints("out_shape", &[n as i64, m as i64]);
    Some(cx.op(
        "Reshape",
        attrs(&[("allowzero", Attr::Int(0))]),
        &[conv, out_shape],
        "",
    ))
}

/// The conv weight `W[o][i] = alpha · op(B)[i][o]` (`m` outputs, `k`
/// inputs), shaped `wshape`, in B's dtype. `transB = 1` with `alpha = 1`
/// is B itself: its storage is shared, nothing is copied (an FC layer's
/// weights can be 100M elements). Otherwise computed in f32.
fn conv_weight(
    b: &Tensor,
    trans_b: bool,
    alpha: f64,
    (m, k): (usize, usize),
    wshape: Vec<usize>,
) -> Option<Tensor> {
    if trans_b && alpha == 1.0 {
        return b.clone().reshape(wshape).ok();
    }
    let bf: Vec<f32>;
    let bv: &[f32] = match b.as_f32() {
        Ok(v) => v,
        Err(_) => {
            bf = b
                .data()
                .to_f64_vec()
                .into_iter()
                .map(|v| v as f32)
                .collect();
            &bf
        }
    };
    let a32 = alpha as f32;
    let w: Vec<f32> = if trans_b {
        bv.iter().map(|v| a32 * v).collect()
    } else {
        let mut w = vec![0f32; m * k];
        for i in 0..k {
            let row = &bv[i * m..(i + 1) * m];
            for (o, v) in row.iter().enumerate() {
                w[o * k + i] = a32 * v;
            }
        }
        w
    };
    Some(super::as_dtype(
        Tensor::from_f32(wshape, w).ok()?,
        b.dtype(),
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn fc(trans_b: bool, through_reshape: bool) -> onnc_onnx::Graph {
        let b = if trans_b {
            Tensor::from_f32(vec![5, 12], rand(60, 1))
        } else {
            Tensor::from_f32(vec![12, 5], rand(60, 1))
        }
        .unwrap();
        let c = Tensor::from_f32(vec![5], rand(5, 2)).unwrap();
        let gemm = |a: &str| {
            Node::new("fc", "Gemm", &[a, "b", "c"], &["y"])
                .with_attr("alpha", Attr::Float(0.5))
                .with_attr("beta", Attr::Float(2.0))
                .with_attr("transA", Attr::Int(0))
                .with_attr("transB", Attr::Int(trans_b as i64))
        };
        if through_reshape {
            let s = Tensor::from_i64(vec![2], vec![1, 12]).unwrap();
            graph(
                &[1, 3, 2, 2],
                &[1, 5],
                vec![Node::new("flat", "Reshape", &["x", "s"], &["a"]), gemm("a")],
                vec![("b", b), ("c", c), ("s", s)],
            )
        } else {
            graph(
                &[1, 12],
                &[1, 5],
                vec![Node::new("r", "Relu", &["x"], &["a"]), gemm("a")],
                vec![("b", b), ("c", c)],
            )
        }
    }

    #[test]
    fn gemm_after_flatten_reads_the_4d_input() {
        assert_eq!(
            ops_after(fc(true, true), Target::NvFull),
            ["Conv", "Reshape"]
        );
    }

    #[test]
    fn gemm_alone_becomes_1x1_conv() {
        assert_eq!(
            ops_after(fc(false, false), Target::NvFull),
            ["Relu", "Reshape", "Conv", "Reshape"]
        );
    }

    #[test]
    fn gemm_to_conv_numbers() {
        same_numbers(fc(true, true), Target::NvFull, &[1, 3, 2, 2], 1e-5);
        same_numbers(fc(false, false), Target::NvFull, &[1, 12], 1e-5);
        same_numbers(fc(true, false), Target::NvFull, &[1, 12], 1e-5);
    }

    #[test]
    fn matmul_becomes_conv() {
        let b = Tensor::from_f32(vec![12, 5], rand(60, 4)).unwrap();
        let g = graph(
            &[1, 12],
            &[1, 5],
            vec![Node::new("mm", "MatMul", &["x", "b"], &["y"])],
            vec![("b", b)],
        );
        assert_eq!(
            ops_after(g.clone(), Target::NvFull),
            ["Reshape", "Conv", "Reshape"]
        );
        same_numbers(g, Target::NvFull, &[1, 12], 1e-5);
    }
}
