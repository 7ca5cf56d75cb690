//! The numeric oracle's plumbing: load a model (ONNX or `onnx`-dialect
//! MLIR) as a graph, make seeded inputs, run the reference interpreter, and
//! compare a pipeline's input and output IR on the same inputs.
//!
//! In: model bytes or text, a pipeline string, a seed. Out: tensors, or one
//! [`OutputDiff`] per graph output (worst absolute and relative error).
//!
//! ```no_run
//! let src = std::fs::read_to_string("model.mlir").unwrap();
//! let diffs = onnc_passes::numerics::compare_pipeline(&src, "model.mlir", "builtin.module(onnx-simplify)", 7).unwrap();
//! for d in &diffs {
//!     assert!(d.max_abs < 1e-5, "{} differs by {}", d.name, d.max_abs);
//! }
//! ```

use crate::export::onnx::graph_from_func;
use melior::ir::Module;
use onnc_dialects::{ir, verify};
use onnc_onnx::{Dim, Graph};
use onnc_tensor::{DType, Data, Tensor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// How one output of the pipeline's result differs from the input's.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputDiff {
    /// Graph output name.
    pub name: String,
    /// Output shape (of the reference).
    pub shape: Vec<usize>,
    /// Largest absolute difference.
    pub max_abs: f64,
    /// Largest relative difference over nonzero reference elements.
    pub max_rel: f64,
}

/// The graph of a module's `@main_graph` (or only) function.
pub fn graph_of_module(module: &Module) -> Result<Graph, Vec<String>> {
    let main =
        crate::onnx::functions::main_function(&module.as_operation()).map_err(|e| vec![e])?;
    graph_from_func(&main).map_err(|e| {
        e.into_iter()
            .map(|(at, m)| format!("{}: error: {m}", ir::Loc::from_location(at)))
            .collect()
    })
}

/// Parses MLIR (text or bytecode) and returns its main graph.
pub fn graph_of_mlir(bytes: &[u8], file: &str) -> Result<Graph, Vec<String>> {
    let context =
        ir::new_context().map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>())?;
    let capture = ir::DiagnosticCapture::attach(&context);
    let module = ir::parse_module_bytes(&context, bytes, file);
    let result = match &module {
        Some(m) if verify::verify_module(m) => graph_of_module(m).map_err(|errs| {
            errs.into_iter()
                .map(|e| {
                    if e.contains(": error: ") {
                        e
                    } else {
                        format!("{file}: error: {e}")
                    }
                })
                .collect()
        }),
        _ => Err(capture.take().iter().map(|d| d.to_string()).collect()),
    };
    drop(module);
    result
}

/// Parses nvdla-dialect MLIR (text or bytecode), splits and plans it if it
/// is not (see [`crate::nvdla::emit::module_program_planned`]), and emits the loadable bytes in memory (current ABI), for the
/// simulator.
pub fn emit_nvdla_ir(bytes: &[u8], file: &str) -> Result<Vec<u8>, Vec<String>> {
    let context =
        ir::new_context().map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>())?;
    let capture = ir::DiagnosticCapture::attach(&context);
    let module = ir::parse_module_bytes(&context, bytes, file);
    let result = match &module {
        Some(m) if verify::verify_module(m) => crate::nvdla::emit::module_program_planned(m)
            .and_then(|p| crate::nvdla::emit::emit_program(&p, onnc_nvdla_loadable::Abi::Current)),
        _ => Err(capture.take().iter().map(|d| d.to_string()).collect()),
    };
    drop(module);
    result
}

/// An NVDLA target as the compile functions take it: a configuration
/// (`nv_full`, `nv_large`, `nv_small`: its own precision) or
/// `CONFIG:PRECISION` (`nv_full:int8`). Out: the configuration name and the
/// options of `convert-onnx-to-nvdla` for it (`config=nv_full precision=int8`).
pub fn nvdla_spec(target: &str) -> (&str, String) {
    match target.split_once(':') {
        Some((config, precision)) => (config, format!("config={config} precision={precision}")),
        None => (target, format!("config={target}")),
    }
}

/// Compiles `graph` for NVDLA target `target` (`nv_full`, `nv_large`,
/// `nv_small`, or `nv_full:int8`; see [`nvdla_spec`]) with `onnc compile`'s pipeline (import,
/// onnx-simplify, onnc-legalize, convert-onnx-to-nvdla, nvdla-split-conv, nvdla-plan-memory)
/// and emits the loadable in memory. Out: the loadable bytes and the
/// program, or the diagnostics.
pub fn compile_nvdla(
    graph: Graph,
    file: &str,
    target: &str,
) -> Result<(Vec<u8>, onnc_nvdla::Program), Vec<String>> {
    compile_nvdla_planned(graph, file, target, "best-fit")
}

/// [`compile_nvdla`] with the memory planner's `strategy` (`best-fit`, or
/// `naive`: every tensor keeps its own bytes, so each intermediate surface
/// can be read back after a simulated run).
pub fn compile_nvdla_planned(
    graph: Graph,
    file: &str,
    target: &str,
    strategy: &str,
) -> Result<(Vec<u8>, onnc_nvdla::Program), Vec<String>> {
    compile_nvdla_calibrated(graph, file, target, strategy, |_| Ok(()))
}

/// [`compile_nvdla_planned`] with `calibrate` run on the lowered program
/// before memory planning, where `nvdla-load-ctable` runs (calibration can
/// change what an operand stores, so it must precede the plan).
pub fn compile_nvdla_calibrated(
    graph: Graph,
    file: &str,
    target: &str,
    strategy: &str,
    calibrate: impl FnOnce(&mut onnc_nvdla::Program) -> Result<(), Vec<String>>,
) -> Result<(Vec<u8>, onnc_nvdla::Program), Vec<String>> {
    use crate::pipeline::{Diags, Manager, Module};
    let run = |pipeline: &str, module: &mut Module| -> Result<(), Vec<String>> {
        let mut manager = Manager::new();
        manager
            .add("compile", pipeline)
            .map_err(|e| vec![format!("internal error: {e}")])?;
        let mut diags = Diags::new();
        let ran = manager.run(module, &mut diags, |_, _, _| Ok(()));
        let messages: Vec<String> = diags.take().iter().map(|d| d.to_string()).collect();
        match ran {
            Ok(()) => Ok(()),
            Err(_) if !messages.is_empty() => Err(messages),
            Err(_) => Err(vec![format!(
                "{file}: error: compiling for {target} failed"
            )]),
        }
    };
    let mut graph = graph;
    crate::pipeline::names::canonicalize(&mut graph)
        .map_err(|e| vec![format!("{file}: error: {e}")])?;
    let mut module = Module::Onnx(graph);
    let (config, convert) = nvdla_spec(target);
    run(
        &format!(
            "onnx-simplify,onnc-legalize{{target={config}}},convert-onnx-to-nvdla{{{convert}}}"
        ),
        &mut module,
    )?;
    let Module::Nvdla(n) = &mut module else {
        return Err(vec![format!(
            "{file}: internal error: lowering for {target} did not reach the nvdla level"
        )]);
    };
    calibrate(&mut n.program)?;
    crate::pipeline::program_order::canonical_order(&mut n.program);
    run(
        &format!("nvdla-split-conv,nvdla-plan-memory{{strategy={strategy}}}"),
        &mut module,
    )?;
    let Module::Nvdla(n) = module else {
        unreachable!("planning keeps the level")
    };
    let bytes = crate::nvdla::emit::emit_program(&n.program, onnc_nvdla_loadable::Abi::Current)?;
    Ok((bytes, n.program))
}

/// Loads `.onnx` (through the ONNX loader) or `.mlir`/`.mlirbc` as a graph.
pub fn load_graph(
    path: &Path,
    input_shapes: &[(String, Vec<usize>)],
) -> Result<Graph, Vec<String>> {
    let file = path.display().to_string();
    let is_onnx = path.extension().is_some_and(|e| e == "onnx");
    if is_onnx {
        let opts = onnc_onnx::Options {
            input_shapes: input_shapes.to_vec(),
        };
        return onnc_onnx::load(path, &opts)
            .map(|m| m.graph)
            .map_err(|e| vec![e.to_string()]);
    }
    let bytes =
        std::fs::read(path).map_err(|e| vec![format!("{file}: error: cannot read: {e}")])?;
    graph_of_mlir(&bytes, &file)
}

/// Seeded inputs for every graph input: floats uniform in [-1, 1), integers
/// in [0, 4), booleans fair. Inputs must have static shapes, each at most
/// `onnc_tensor::limits::MAX_TENSOR_BYTES` (see [`random_inputs_within`]).
pub fn random_inputs(graph: &Graph, seed: u64) -> Result<Vec<(String, Tensor)>, String> {
    random_inputs_within(graph, seed, onnc_tensor::limits::MAX_TENSOR_BYTES)
}

/// [`random_inputs`] with a size limit: an input whose shape × element size
/// exceeds `max_tensor_bytes` (or overflows) is an error naming the input,
/// checked before anything is allocated (`--input-shape x=1x3x1048576x1048576`
/// used to abort on a 4 TiB allocation).
pub fn random_inputs_within(
    graph: &Graph,
    seed: u64,
    max_tensor_bytes: u64,
) -> Result<Vec<(String, Tensor)>, String> {
    for v in &graph.inputs {
        let fixed: Vec<usize> = v
            .dims
            .iter()
            .filter_map(|d| {
                if let Dim::Fixed(n) = d {
                    Some(*n)
                } else {
                    None
                }
            })
            .collect();
        onnc_tensor::limits::checked_bytes(&fixed, v.dtype.size(), max_tensor_bytes)
            .map_err(|e| format!("input '{}': {e}", v.name))?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    graph
        .inputs
        .iter()
        .map(|v| {
            let shape: Vec<usize> = v
                .dims
                .iter()
                .map(|d| match d {
                    Dim::Fixed(n) => Ok(*n),
                    _ => Err(format!(
                        "input '{}' has a dynamic dimension; give its shape (--input-shape {}=...)",
                        v.name, v.name
                    )),
                })
                .collect::<Result<_, _>>()?;
            let n: usize = shape.iter().product();
            let data = match v.dtype {
                DType::Bool => Data::Bool((0..n).map(|_| u8::from(rng.random::<bool>())).collect()),
                d if d.is_float() => Data::from_f64s(
                    d,
                    &(0..n)
                        .map(|_| rng.random_range(-1.0..1.0))
                        .collect::<Vec<f64>>(),
                ),
                d => Data::from_f64s(
                    d,
                    &(0..n)
                        .map(|_| rng.random_range(0..4) as f64)
                        .collect::<Vec<f64>>(),
                ),
            };
            Tensor::new(shape, data)
                .map(|t| (v.name.clone(), t))
                .map_err(|e| format!("input '{}': {e}", v.name))
        })
        .collect()
}

/// Runs `graph` on `inputs` with the reference interpreter.
pub fn run(graph: &Graph, inputs: &[(String, Tensor)]) -> Result<Vec<(String, Tensor)>, String> {
    onnc_interp::run_graph(graph, inputs).map_err(|e| e.to_string())
}

/// Runs `graph` with every value `scales` names (ONNX value names) stored
/// in INT8 with its scale (`onnc_interp::run_graph_int8_storage`).
pub fn run_int8_storage(
    graph: &Graph,
    inputs: &[(String, Tensor)],
    scales: &std::collections::HashMap<String, f32>,
) -> Result<Vec<(String, Tensor)>, String> {
    onnc_interp::run_graph_int8_storage(graph, inputs, scales).map_err(|e| e.to_string())
}

/// Runs `graph` with every `f32` value stored in FP16 (initializers and
/// each node's outputs rounded; `onnc_interp::run_graph_fp16_storage`).
pub fn run_fp16_storage(
    graph: &Graph,
    inputs: &[(String, Tensor)],
) -> Result<Vec<(String, Tensor)>, String> {
    onnc_interp::run_graph_fp16_storage(graph, inputs).map_err(|e| e.to_string())
}

/// Runs a module: the `onnx` dialect with the reference interpreter, the
/// `nvdla` dialect (a module with `nvdla.config`) with the NVDLA execution
/// semantics of `onnc_nvdla::exec` (FP16 rounding at every hardware layer).
/// Inputs are matched to the main function's arguments by position.
pub fn run_module(
    module: &Module,
    inputs: &[(String, Tensor)],
) -> Result<Vec<(String, Tensor)>, Vec<String>> {
    use melior::ir::operation::OperationLike;
    if module.as_operation().attribute("nvdla.config").is_err() {
        let graph = graph_of_module(module)?;
        return run(&graph, inputs).map_err(|e| vec![e]);
    }
    let main =
        crate::onnx::functions::main_function(&module.as_operation()).map_err(|e| vec![e])?;
    let p = crate::nvdla::from_ir::program_from_func(&main).map_err(|errs| {
        errs.into_iter()
            .map(|(at, m)| format!("{}: error: {m}", ir::Loc::from_location(at)))
            .collect::<Vec<_>>()
    })?;
    let given: Vec<Tensor> = inputs.iter().map(|(_, t)| t.clone()).collect();
    let outputs = onnc_nvdla::exec::run(&p, &given).map_err(|e| vec![e.to_string()])?;
    Ok(p.outputs
        .iter()
        .zip(outputs)
        .map(|(&t, v)| (p.tensors[t].name.clone(), v))
        .collect())
}

/// `t` reshaped to `shape` when the two differ only by dimensions of size 1
/// (an NVDLA cube `[1, 1000, 1, 1]` holds the ONNX output `[1, 1000]`).
fn drop_unit_dims_like(t: Tensor, shape: &[usize]) -> Tensor {
    let strip = |s: &[usize]| s.iter().copied().filter(|&d| d != 1).collect::<Vec<_>>();
    if t.shape() != shape && strip(t.shape()) == strip(shape) {
        t.clone().reshape(shape.to_vec()).unwrap_or(t)
    } else {
        t
    }
}

/// Compares two output lists (same order).
pub fn diff_outputs(
    reference: &[(String, Tensor)],
    actual: &[(String, Tensor)],
) -> Result<Vec<OutputDiff>, String> {
    if reference.len() != actual.len() {
        return Err(format!(
            "{} outputs before, {} after",
            reference.len(),
            actual.len()
        ));
    }
    reference
        .iter()
        .zip(actual)
        .map(|((name, r), (_, a))| {
            let d = onnc_interp::compare(r, a);
            if !d.same_shape {
                return Err(format!(
                    "output '{name}': shape {:?} became {:?}",
                    r.shape(),
                    a.shape()
                ));
            }
            Ok(OutputDiff {
                name: name.clone(),
                shape: r.shape().to_vec(),
                max_abs: d.max_abs,
                max_rel: d.max_rel,
            })
        })
        .collect()
}

/// Runs `pipeline` on `source` (MLIR in the `onnx` dialect), then runs the
/// IR from before and after on the same seeded inputs and reports the
/// difference of every output.
pub fn compare_pipeline(
    source: &str,
    file: &str,
    pipeline: &str,
    seed: u64,
) -> Result<Vec<OutputDiff>, Vec<String>> {
    let before = graph_of_mlir(source.as_bytes(), file)?;
    let context =
        ir::new_context().map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>())?;
    let capture = ir::DiagnosticCapture::attach(&context);
    crate::register_all();
    let invalid = |e: String| vec![format!("invalid pipeline: {e}")];
    crate::pipeline::opt::check(&context, pipeline).map_err(invalid)?;
    let mut module = ir::parse_module(&context, source, file).ok_or_else(|| {
        capture
            .take()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
    })?;
    // As onnc-opt runs it: the functions converted once for the in-memory passes.
    let options = ir::PipelineOptions {
        verify_each: true,
        ..Default::default()
    };
    if !crate::pipeline::opt::run(&context, &mut module, pipeline, &options).map_err(invalid)? {
        return Err(capture.take().iter().map(|d| d.to_string()).collect());
    }
    let inputs = random_inputs(&before, seed).map_err(|e| vec![e])?;
    let r = run(&before, &inputs).map_err(|e| vec![format!("before the pipeline: {e}")])?;
    let a = run_module(&module, &inputs).map_err(|e| {
        e.into_iter()
            .map(|e| format!("after the pipeline: {e}"))
            .collect::<Vec<_>>()
    })?;
    let a = r
        .iter()
        .zip(a)
        .map(|((_, r), (n, a))| (n, drop_unit_dims_like(a, r.shape())))
        .collect::<Vec<_>>();
    diff_outputs(&r, &a).map_err(|e| vec![e])
}

#[cfg(test)]
mod tests {
    use super::*;

    const RELU: &str = r#"func.func @main_graph(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = "onnx.constant"() {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %i = "onnx.identity"(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = "onnx.add"(%x, %i) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = "onnx.relu"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}"#;

    #[test]
    fn a_semantics_preserving_pipeline_has_zero_error() {
        let d = compare_pipeline(RELU, "t.mlir", "builtin.module(onnx-simplify)", 3).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].shape, vec![2, 3]);
        assert_eq!(d[0].max_abs, 0.0);
    }

    #[test]
    fn a_changed_result_is_seen() {
        // Not a pipeline change but a different graph: the comparison must notice.
        let g = graph_of_mlir(RELU.as_bytes(), "t.mlir").unwrap();
        let other = RELU.replace("dense<1.0>", "dense<2.0>");
        let h = graph_of_mlir(other.as_bytes(), "t.mlir").unwrap();
        let inputs = random_inputs(&g, 1).unwrap();
        let d = diff_outputs(&run(&g, &inputs).unwrap(), &run(&h, &inputs).unwrap()).unwrap();
        assert!(d[0].max_abs > 0.5, "{d:?}");
    }

    #[test]
    fn inputs_are_deterministic() {
        let g = graph_of_mlir(RELU.as_bytes(), "t.mlir").unwrap();
        assert_eq!(random_inputs(&g, 9).unwrap(), random_inputs(&g, 9).unwrap());
        assert_ne!(
            random_inputs(&g, 9).unwrap(),
            random_inputs(&g, 10).unwrap()
        );
    }
}
