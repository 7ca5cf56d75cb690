//! A graph builder for branched test networks, and the check that the
//! functional model of a compile equals `onnc-interp` on the same integer
//! network.

use super::{conv3x3, opts, vi, weights};
use onnc_mvu::frontend::{compile, random_codes, reference_codes, simulate, Compiled};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// Builds a graph node by node.
pub struct Net {
    /// The graph so far.
    pub g: Graph,
    /// Seed of the next weights.
    pub salt: u64,
}

impl Net {
    /// A graph with the one input `x` of shape `input`.
    pub fn new(input: &[usize]) -> Net {
        Net {
            g: Graph {
                name: "branches".into(),
                inputs: vec![vi("x", input)],
                ..Graph::default()
            },
            salt: 0,
        }
    }

    /// `name`: a k×k conv (pad k/2) of `x` (`c` channels) to `o` channels,
    /// with a Relu when `relu`; returns its output value.
    pub fn conv(
        &mut self,
        name: &str,
        x: &str,
        c: usize,
        o: usize,
        k: usize,
        relu: bool,
    ) -> String {
        self.conv_strided(name, x, (c, o), k, 1, relu)
    }

    /// [`Net::conv`] with stride `s`; `(c, o)` are the input and output channels.
    pub fn conv_strided(
        &mut self,
        name: &str,
        x: &str,
        (c, o): (usize, usize),
        k: usize,
        s: i64,
        relu: bool,
    ) -> String {
        let w = format!("{name}.weight");
        self.salt += 1;
        self.g
            .initializers
            .push((w.clone(), weights(&[o, c, k, k], self.salt)));
        let y = format!("{name}.out");
        let p = (k / 2) as i64;
        self.g.nodes.push(
            conv3x3(name, x, &w, &y, s)
                .with_attr("kernel_shape", Attr::Ints(vec![k as i64, k as i64]))
                .with_attr("pads", Attr::Ints(vec![p; 4])),
        );
        if !relu {
            return y;
        }
        let r = format!("{name}.relu");
        self.g
            .nodes
            .push(Node::new(&format!("{name}_relu"), "Relu", &[&y], &[&r]));
        r
    }

    /// A channel Concat of `parts`; returns its output value.
    pub fn concat(&mut self, name: &str, parts: &[&str]) -> String {
        let y = format!("{name}.out");
        self.g
            .nodes
            .push(Node::new(name, "Concat", parts, &[&y]).with_attr("axis", Attr::Int(1)));
        y
    }

    /// The graph, with output `y` of shape `dims`.
    pub fn output(mut self, y: &str, dims: &[usize]) -> Graph {
        self.g.outputs.push(vi(y, dims));
        self.g
    }
}

/// The program listing of `c`.
pub fn program(c: &Compiled) -> String {
    let f = c
        .files()
        .iter()
        .find(|f| f.name == "mvu_program.s")
        .unwrap();
    String::from_utf8(f.bytes.clone()).unwrap()
}

/// Compiles `g` at `bits`, runs the functional model and the interpreter on
/// seeded input codes, asserts they agree exactly and are not all zero.
pub fn matches_interpreter(name: &str, g: &Graph, bits: u32, seed: u64) -> Compiled {
    let c = compile(g, &opts(bits)).unwrap_or_else(|e| panic!("{name} at {bits} bits: {e}"));
    let shape = g.inputs[0].type_info().static_shape().unwrap();
    let x = random_codes(shape.iter().product(), bits, seed);
    let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = reference_codes(g, &c, &x).expect("interpreter runs");
    assert_eq!(mvu, want, "{name} at {bits} bits");
    assert!(
        mvu.iter().any(|&v| v != 0),
        "{name} at {bits} bits: an all-zero output proves little"
    );
    c
}
