//! FP16 execution of a lowered NVDLA [`Program`]: what the hardware computes.
//!
//! In: a [`Program`] and one `f32` tensor per network input (shape
//! `[N, C, H, W]`, or any shape with as many elements). Out: one `f32`
//! tensor per network output (its `[N, C, H, W]` shape), holding f16 values.
//!
//! Semantics (precision `"fp16"`):
//! * network inputs and every weight are rounded to f16 before use;
//! * conv accumulates in f32 (onnc-interp's `Conv` kernel) and its result
//!   stays f32 when it streams to the fused SDP ([`TensorKind::Fused`]);
//! * SDP applies X1, X2, Y in order, each `(x alu a)` (ALU `sum`/`max`/`min`/
//!   `eql`) then `· m` (MUL) per its `type`, then its activation (`relu`;
//!   `prelu` multiplies only negatives by the MUL operand). `per_layer`
//!   immediates are f16 bit patterns; `per_kernel`/`per_point` operands come
//!   from the slot tensors ([`Op::inputs`](crate::Op::inputs));
//! * every DLA op's output, and every EMU op's, is rounded to f16;
//! * PDP average divides by the full window (padding counts as 0, as the
//!   hardware does; ONNC legalizes `count_include_pad = 0` away); max/min
//!   ignore padding;
//! * CDP is LRN: `y = x · (bias + alpha/size · Σ x²)^-beta` over `local_size`
//!   channels, with `bypass_sqsum` (Σ x² → x) and `bypass_out_mul` (no `x ·`);
//! * EMU softmax (axis 1), power `(shift + scale·x)^power` and log run in f32;
//! * concat, reshape, slice and BDMA copies are exact.
//!
//! Not executed ([`Error::NotModelled`], naming the layer): INT8/INT16
//! ops (the converter/truncate arithmetic is not modelled), RUBIK, the SDP
//! and CDP lookup-table activations beyond LRN, and non-zero conv `pad_val`.
//!
//! ```
//! use onnc_nvdla::{exec, registers, ConfigName, Engine, Op, Precision, Program, Tensor, TensorKind, Value};
//! let mut p = Program::new(ConfigName::NvFull);
//! let t = |name: &str, kind| Tensor { name: name.into(), shape: vec![1, 2, 1, 1], precision: Precision::Fp16, kind, place: None };
//! let x = p.add_tensor(t("x", TensorKind::Input(0)));
//! let y = p.add_tensor(t("y", TensorKind::Output(0)));
//! let mut attrs = registers::defaults(Engine::Emu);
//! attrs.insert("precision".into(), Value::Str("fp16".into()));
//! attrs.insert("axis".into(), Value::Int(1));
//! p.ops.push(Op { engine: Engine::Emu, hw_layer: "prob".into(), attrs, inputs: vec![Some(x)], output: y, onnx_nodes: vec![] });
//! p.inputs = vec![x];
//! p.outputs = vec![y];
//! let input = onnc_tensor::Tensor::from_f32(vec![1, 2, 1, 1], vec![0.0, 0.0]).unwrap();
//! let out = exec::run(&p, &[input]).unwrap();
//! assert_eq!(out[0].as_f32().unwrap(), &[0.5, 0.5]);
//! ```

mod error;
mod fp16;
mod kernels;
mod sdp;

pub use fp16::round_f16;

use crate::program::{Engine, Op, Program, TensorId, TensorKind};
use crate::Error;

/// The values of every tensor computed so far.
pub(crate) struct Env<'a> {
    pub(crate) p: &'a Program,
    values: Vec<Option<Vec<f32>>>,
}

impl Env<'_> {
    /// The values of `t`: computed, or a weight rounded to f16.
    pub(crate) fn get(&self, op: &Op, t: TensorId) -> Result<Vec<f32>, Error> {
        if let TensorKind::Weight(w) = &self.p.tensors[t].kind {
            return Ok(w.iter().map(round_f16).collect());
        }
        self.values[t].clone().ok_or_else(|| {
            Error::program(
                op,
                format!(
                    "operand '{}' is used before it is computed",
                    self.p.tensors[t].name
                ),
            )
        })
    }
}

/// Runs `p` on `inputs` (one per network input, in bind order).
pub fn run(p: &Program, inputs: &[onnc_tensor::Tensor]) -> Result<Vec<onnc_tensor::Tensor>, Error> {
    if inputs.len() != p.inputs.len() {
        return Err(Error::Input(format!(
            "the program has {} inputs, {} given",
            p.inputs.len(),
            inputs.len()
        )));
    }
    let mut env = Env {
        p,
        values: vec![None; p.tensors.len()],
    };
    for (&id, given) in p.inputs.iter().zip(inputs) {
        let t = &p.tensors[id];
        let values = given.cast(onnc_tensor::DType::F32);
        let values = values
            .as_f32()
            .map_err(|e| Error::Input(format!("input '{}': {e}", t.name)))?;
        if values.len() != t.elements() {
            return Err(Error::Input(format!(
                "input '{}' has shape {:?} ({} elements); the program expects {:?}",
                t.name,
                given.shape(),
                values.len(),
                t.shape
            )));
        }
        env.values[id] = Some(values.iter().map(|v| round_f16(*v)).collect());
    }
    for op in &p.ops {
        check_precision(op)?;
        let mut out = kernels::run_op(&env, op)?;
        let want = p.tensors[op.output].elements();
        if out.len() != want {
            return Err(Error::program(
                op,
                format!(
                    "computed {} elements, the output tensor has {want}",
                    out.len()
                ),
            ));
        }
        if p.tensors[op.output].kind != TensorKind::Fused && !op.engine.is_virtual() {
            out.iter_mut().for_each(|v| *v = round_f16(*v));
        }
        env.values[op.output] = Some(out);
    }
    p.outputs
        .iter()
        .map(|&id| {
            let t = &p.tensors[id];
            let values = env.values[id]
                .clone()
                .ok_or_else(|| Error::Input(format!("output '{}' is never computed", t.name)))?;
            onnc_tensor::Tensor::from_f32(t.shape.clone(), values)
                .map_err(|e| Error::Input(format!("output '{}': {e}", t.name)))
        })
        .collect()
}

/// INT8/INT16 ops are not executed.
fn check_precision(op: &Op) -> Result<(), Error> {
    let attrs: &[&str] = match op.engine {
        Engine::Conv => &["in_precision", "out_precision"],
        Engine::Sdp => &["src_precision", "dst_precision"],
        Engine::Cdp => &["in_precision", "out_precision"],
        Engine::Pdp | Engine::Rubik | Engine::Emu => &["precision"],
        _ => &[],
    };
    for a in attrs {
        match op.str(a) {
            Some("fp16") => {}
            Some(other) => {
                return Err(Error::not_modelled(op, format!("{a} = \"{other}\": only fp16 programs are executed (the INT8/INT16 converter arithmetic is not modelled)")))
            }
            None => return Err(Error::program(op, format!("missing attribute '{a}'"))),
        }
    }
    Ok(())
}
