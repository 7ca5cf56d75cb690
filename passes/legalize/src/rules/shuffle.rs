//! ShuffleNet's channel shuffle: recognized as one op, and lowered to a
//! permuting 1×1 Conv where no shuffle engine exists.
//!
//! In: `Reshape(Transpose(Reshape(x, [N,g,C/g,H,W]), [0,2,1,3,4]), [N,C,H,W])`.
//! Out: `onnc.ChannelShuffle{group=g}(x)` (NVDLA RUBIK, ONNC's
//! NvDlaShuffle), and equivalently `Conv(x, P)` with `P` the `C×C×1×1`
//! permutation (`out[j·g + i] = in[i·C/g + j]`).
//!
//! ```text
//! common/channel-shuffle       (Reshape (Transpose{0,2,1,3,4} (Reshape x [N,g,C/g,H,W])) [N,C,H,W])
//!                                => (onnc.ChannelShuffle{group=g} x)
//! common/shuffle-as-conv       (onnc.ChannelShuffle{group=g} x)  => (Conv{1×1} x P)
//! ```

use super::{attrs, Cx, Rule, ALL};
use crate::target_ops::CHANNEL_SHUFFLE;
use egg::Id;
use onnc_tensor::{Attr, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/channel-shuffle",
        deep: true,
        op: "Reshape",
        targets: ALL,
        doc: "Reshape–Transpose–Reshape is a channel shuffle",
        apply: shuffle,
    },
    Rule {
        name: "common/shuffle-as-conv",
        deep: false,
        op: CHANNEL_SHUFFLE,
        targets: ALL,
        doc: "a channel shuffle is a 1×1 Conv with a permutation matrix",
        apply: as_conv,
    },
];

fn shuffle(cx: &mut Cx) -> Option<Id> {
    let out = cx.out_shape()?;
    let tr = cx.producer(cx.arg(0), "Transpose")?;
    if tr.key()?.ints("perm")? != [0, 2, 1, 3, 4] {
        return None;
    }
    let inner = cx.producer(cx.child(&tr, 0)?, "Reshape")?;
    let x = cx.child(&inner, 0)?;
    let xs = cx.shape(x)?;
    let mid = cx.shape(cx.child(&tr, 0)?)?;
    if xs.len() != 4
        || out != xs
        || mid.len() != 5
        || mid[0] != xs[0]
        || mid[1] * mid[2] != xs[1]
        || mid[3] != xs[2]
        || mid[4] != xs[3]
    {
        return None;
    }
    let name = cx.name("");
    let mut sources = cx.key.sources.clone();
    sources.extend(tr.key()?.sources.iter().copied());
    sources.extend(inner.key()?.sources.iter().copied());
    Some(cx.op_with(
        CHANNEL_SHUFFLE,
        crate::ONNC_DOMAIN,
        attrs(&[("group", Attr::Int(mid[1] as i64))]),
        &[x],
        1,
        &name,
        &sources,
    ))
}

fn as_conv(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let g = cx.key.int("group")? as usize;
    let dtype = cx.ty(x)?.dtype;
    if xs.len() != 4 || g == 0 || xs[1] % g != 0 {
        return None;
    }
    let c = xs[1];
    let per = c / g;
    let mut p = vec![0f32; c * c];
    for i in 0..g {
        for j in 0..per {
            p[(j * g + i) * c + i * per + j] = 1.0;
        }
    }
    let w = cx.tensor(
        "permutation",
        super::as_dtype(Tensor::from_f32(vec![c, c, 1, 1], p).ok()?, dtype),
    );
    Some(super::gemm::conv_1x1(cx, x, w, ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn shuffle_graph() -> onnc_onnx::Graph {
        let s5 = Tensor::from_i64(vec![5], vec![1, 2, 3, 2, 2]).unwrap();
        let s4 = Tensor::from_i64(vec![4], vec![1, 6, 2, 2]).unwrap();
        let nodes = vec![
            Node::new("r1", "Reshape", &["x", "s5"], &["a"]),
            Node::new("t", "Transpose", &["a"], &["b"])
                .with_attr("perm", Attr::Ints(vec![0, 2, 1, 3, 4])),
            Node::new("r2", "Reshape", &["b", "s4"], &["y"]),
        ];
        graph(
            &[1, 6, 2, 2],
            &[1, 6, 2, 2],
            nodes,
            vec![("s5", s5), ("s4", s4)],
        )
    }

    #[test]
    fn shuffle_is_one_op_on_nv_full() {
        let r = crate::legalize(shuffle_graph(), Target::NvFull, &Default::default()).unwrap();
        assert_eq!(r.graph.nodes.len(), 1);
        assert_eq!(r.graph.nodes[0].op_type, "ChannelShuffle");
        assert_eq!(r.graph.nodes[0].domain, "onnc");
        assert_eq!(r.provenance[0].sources, ["r1", "r2", "t"]);
    }

    #[test]
    fn shuffle_is_a_conv_without_rubik() {
        assert_eq!(ops_after(shuffle_graph(), Target::NvSmall), ["Conv"]);
        same_numbers(shuffle_graph(), Target::NvSmall, &[1, 6, 2, 2], 1e-6);
    }
}
