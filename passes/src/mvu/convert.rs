//! `convert-onnx-to-mvu{aprec=.. wprec=.. oprec=..}` — a legalized plain-CNN
//! `onnx`-dialect function → `mvu.conv` / `mvu.matmul` configuration ops.
//!
//! Input: `onnx` dialect after `onnx-simplify` and `onnc-legalize{target=mvu}`
//! → Output: one `mvu` op per layer (registers computed by `onnc_mvu`: the
//! five-level length/jump registers, countdown, precisions, quantizer MSB),
//! integer weights as `arith.constant`, a layer's bias in accumulator units
//! (what the configuration loads into the bias RAM) as an `i32`
//! `arith.constant` on the op's `bias` operand, and on the module
//! `mvu.total_countdown = N : i64` (BARVINN's total of every layer's
//! countdown × output rows).
//!
//! Before:
//! ```mlir
//! %y = "onnx.conv"(%x, %w) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, ...} loc("conv1")
//! %r = "onnx.relu"(%y) loc("relu1")
//! ```
//! After `--pass-pipeline='builtin.module(convert-onnx-to-mvu{aprec=8 wprec=8 oprec=8})'`:
//! ```mlir
//! %w = arith.constant dense_resource<conv1_w> : tensor<64x64x3x3xi8>
//! %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, ..., countdown = 17280 : i64, ...} loc("conv1")
//! ```
//!
//! The pass runs in memory (see [`crate::pipeline`]): the module changes
//! level from `onnx` to `mvu` ([`crate::pipeline::MvuModule`]); its text
//! form is written by [`super::to_ir`].
//!
//! Options: `aprec`, `wprec`, `oprec` (1..16), `ram-check` (refuse layers
//! beyond one MVU's RAMs; default true), `test-vectors` (default false) and
//! `seed`: the test vectors `onnc compile --target mvu` writes, carried in
//! the text as `mvu.test_vectors`. Preconditions: static shapes, a
//! plain chain. Failure modes: a residual join (named), an op BARVINN cannot
//! run, a precision out of range, a layer beyond the RAMs — each at its
//! node's location; the IR is unchanged.

use crate::pipeline::{mlir_face, Diags, Module, MvuModule, Pass};
use onnc_dialects::pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration};

/// Registration of `convert-onnx-to-mvu`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "convert-onnx-to-mvu",
    summary: "Lower a legalized plain CNN to BARVINN MVU configuration ops",
    anchor: "builtin.module",
    options: &[
        OptionSpec {
            name: "aprec",
            kind: OptionKind::Int { min: 0, max: 64 },
            default: "8",
            help: "activation precision in bits (1..16)",
        },
        OptionSpec {
            name: "wprec",
            kind: OptionKind::Int { min: 0, max: 64 },
            default: "8",
            help: "weight precision in bits (1..16)",
        },
        OptionSpec {
            name: "oprec",
            kind: OptionKind::Int { min: 0, max: 64 },
            default: "8",
            help: "output precision in bits (1..16)",
        },
        OptionSpec {
            name: "ram-check",
            kind: OptionKind::Bool,
            default: "true",
            help: "refuse layers that do not fit one MVU's RAMs",
        },
        OptionSpec {
            name: "test-vectors",
            kind: OptionKind::Bool,
            default: "false",
            help: "make test vectors (carried as mvu.test_vectors, written by --to-mvu-config)",
        },
        OptionSpec {
            name: "seed",
            kind: OptionKind::Int {
                min: 0,
                max: i64::MAX,
            },
            default: "0",
            help: "seed of the test-vector input",
        },
    ],
    factory: |o: &PassOptions| mlir_face::body("convert-onnx-to-mvu", o),
};

/// The in-memory `convert-onnx-to-mvu`: the module changes level from
/// `onnx` to `mvu`.
pub fn memory(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Convert {
        opts: onnc_mvu::CompileOptions {
            aprec: o.int("aprec") as u32,
            wprec: o.int("wprec") as u32,
            oprec: o.int("oprec") as u32,
            check_capacity: o.bool("ram-check"),
            test_vectors: o.bool("test-vectors"),
            seed: o.int("seed") as u64,
            ..Default::default()
        },
        text_form: true,
    }))
}

/// `convert-onnx-to-mvu` with every option of the code generator, beyond
/// the pass's textual ones (test vectors, calibration inputs, one quantizer
/// MSB, per-channel scales): what `onnc compile --target mvu` runs. In:
/// the options. Out: the pass; on the `mvu` level it leads to, the
/// compiled files are those `onnc_mvu::compile` makes with `opts`.
pub fn with_options(opts: onnc_mvu::CompileOptions) -> Box<dyn Pass> {
    Box::new(Convert {
        opts,
        text_form: false,
    })
}

struct Convert {
    opts: onnc_mvu::CompileOptions,
    /// The level will be printed as the `mvu` dialect (`onnc-opt`): refuse,
    /// at its node, a layer whose registers the dialect's attributes cannot
    /// hold (`onnc compile` writes the files, which have no such limit).
    text_form: bool,
}

/// The layers of `m` the `mvu` dialect cannot print ([`super::to_ir::refusals`]),
/// each reported at its node.
fn check_text_form(m: &MvuModule, diags: &mut Diags) -> Result<(), PassFailed> {
    let refused = super::to_ir::refusals(m);
    for (node, why) in &refused {
        diags.error(node.as_deref(), why.clone());
    }
    if refused.is_empty() {
        Ok(())
    } else {
        Err(PassFailed)
    }
}

impl Pass for Convert {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let graph = module.onnx_mut("convert-onnx-to-mvu").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        match onnc_mvu::compile(graph, &self.opts) {
            Ok(compiled) => {
                let input = graph
                    .inputs
                    .first()
                    .map(|v| v.name.clone())
                    .unwrap_or_default();
                let m = MvuModule { compiled, input };
                if self.text_form {
                    check_text_form(&m, diags)?;
                }
                *module = Module::Mvu(m);
                Ok(())
            }
            Err(e) => {
                for p in e.problems() {
                    diags.error(p.node.as_deref(), p.to_string());
                }
                if e.problems().is_empty() {
                    diags.error(None, e.to_string());
                }
                Err(PassFailed)
            }
        }
    }
}
