//! When each tensor is live, in op steps.
//!
//! In: a [`Program`]. Out: for every tensor the inclusive step range
//! `[def, last]`: `def` is the index of its producing op (0 if none), `last`
//! the index of its last consumer (at least `def`); network outputs live to
//! step `ops.len()` (after the last op, when the application reads them).
//! Virtual ops count as steps, so a concat member lives until its concat and
//! a slice's input until its slice.
//!
//! An op whose output is [`TensorKind::Fused`] streams into its consumer
//! (conv → SDP over the accumulator): the pair runs as one pipeline, so the
//! producer's operands stay live until the step of the op that ends the
//! chain. Without this a conv's input and its SDP's output could share
//! bytes, and the SDP would overwrite input rows the convolution (or a
//! later CBUF band of it) has not read yet.
//!
//! ```text
//! op0: a = conv(x)   op1: b = sdp(a)   op2: c = pdp(a)
//! life(a) = [0, 2]   life(b) = [1, 1]  life(c) = [2, 2]   (x: input [0, 0])
//! ```

use crate::program::{Program, TensorKind};

/// `[def, last]` of every tensor, indexed by [`TensorId`](crate::TensorId)
/// (the steps the planner packs by; reports draw the memory map with them).
pub fn tensor_lives(p: &Program) -> Vec<(usize, usize)> {
    let mut def = vec![None; p.tensors.len()];
    let mut last = vec![0usize; p.tensors.len()];
    let chain_end = chain_ends(p);
    for (k, op) in p.ops.iter().enumerate() {
        def[op.output].get_or_insert(k);
        for t in op.operands() {
            last[t] = last[t].max(chain_end[k]);
        }
    }
    (0..p.tensors.len())
        .map(|t| {
            let d = def[t].unwrap_or(0);
            let l = if matches!(p.tensors[t].kind, TensorKind::Output(_)) {
                p.ops.len()
            } else {
                last[t]
            };
            (d, l.max(d))
        })
        .collect()
}

/// For every op, the step of the last op of its fused chain: itself unless
/// its output is a [`TensorKind::Fused`] stream, else (transitively) the
/// stream's first consumer after it.
fn chain_ends(p: &Program) -> Vec<usize> {
    let mut first_consumer = vec![None; p.tensors.len()];
    for (k, op) in p.ops.iter().enumerate() {
        for t in op.operands() {
            first_consumer[t].get_or_insert(k);
        }
    }
    let mut end: Vec<usize> = (0..p.ops.len()).collect();
    for k in (0..p.ops.len()).rev() {
        let out = p.ops[k].output;
        if matches!(p.tensors[out].kind, TensorKind::Fused) {
            if let Some(c) = first_consumer[out].filter(|&c| c > k) {
                end[k] = end[c];
            }
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Engine, Op, Precision, Tensor};
    use crate::ConfigName;

    fn tensor(p: &mut Program, name: &str, kind: TensorKind) -> usize {
        p.add_tensor(Tensor {
            name: name.into(),
            shape: vec![1, 8, 4, 4],
            precision: Precision::Fp16,
            kind,
            place: None,
        })
    }

    fn op(engine: Engine, input: usize, output: usize) -> Op {
        Op {
            engine,
            hw_layer: String::new(),
            attrs: Default::default(),
            inputs: vec![Some(input)],
            output,
            onnx_nodes: Vec::new(),
        }
    }

    #[test]
    fn a_fused_chain_keeps_its_input_live_until_the_chain_ends() {
        let mut p = Program::new(ConfigName::NvFull);
        let x = tensor(&mut p, "x", TensorKind::Input(0));
        let a = tensor(&mut p, "a", TensorKind::Activation);
        let acc = tensor(&mut p, "acc", TensorKind::Fused);
        let y = tensor(&mut p, "y", TensorKind::Output(0));
        // op0: a = pdp(x); op1: acc = conv(a); op2: y = sdp(acc).
        p.ops = vec![
            op(Engine::Pdp, x, a),
            op(Engine::Conv, a, acc),
            op(Engine::Sdp, acc, y),
        ];
        let lives = tensor_lives(&p);
        assert_eq!(
            lives[a],
            (0, 2),
            "a must outlive the SDP that ends the chain"
        );
        assert_eq!(lives[acc], (1, 2));
        assert_eq!(lives[y], (2, 3));
        assert_eq!(lives[x], (0, 0));
    }
}
