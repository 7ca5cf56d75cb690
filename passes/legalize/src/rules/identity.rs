//! Removing ops that compute nothing at inference: `Identity`, `Dropout`.
//!
//! In: `Identity(x)`, `Dropout(x, ratio?, training_mode?)` (inference). Out: `x`.
//!
//! ```text
//! common/identity-removal   (Identity x)  =>  x
//! common/dropout-removal    (Dropout x …) =>  x         ; result 0; the mask result must be unused
//! ```

use super::{Cx, Rule, ALL};
use egg::Id;

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/identity-removal",
        deep: false,
        op: "Identity",
        targets: ALL,
        doc: "Identity(x) = x",
        apply: identity,
    },
    Rule {
        name: "common/dropout-removal",
        deep: false,
        op: "Dropout",
        targets: ALL,
        doc: "Dropout(x) = x at inference",
        apply: dropout,
    },
];

fn identity(cx: &mut Cx) -> Option<Id> {
    Some(cx.arg(0))
}

fn dropout(cx: &mut Cx) -> Option<Id> {
    if cx.key.n_out != 1 {
        // A tuple (output, mask): only safe when nothing reads the mask.
        let mask = cx.eg.lookup(crate::lang::ENode {
            op: crate::lang::Op::Proj(1),
            children: vec![cx.class],
        });
        if mask.is_some_and(|m| cx.uses(m) > 0) {
            return None;
        }
        let out = cx.proj(cx.class, 0);
        let x = cx.arg(0);
        cx.eg.union(out, x);
        return None;
    }
    Some(cx.arg(0))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;

    #[test]
    fn identity_and_dropout_disappear() {
        let g = graph(
            &[1, 4],
            &[1, 4],
            vec![
                Node::new("i", "Identity", &["x"], &["t"]),
                Node::new("d", "Dropout", &["t"], &["u"]),
                Node::new("r", "Relu", &["u"], &["y"]),
            ],
            vec![],
        );
        assert_eq!(ops_after(g, Target::NvFull), ["Relu"]);
    }
}
