//! The ONNX front end: from an [`onnc_onnx::Graph`] to a complete BARVINN
//! output directory.
//!
//! In: a graph as loaded, simplified and legalized for the MVU (`Conv` /
//! `Gemm` / `MatMul` / `Relu` and layout-only ops with constant weights, in
//! a chain or branches joined by channel `Concat`s) and [`CompileOptions`]. Out: [`Compiled`]: the configuration table,
//! the layers, and every output file's contents, written by
//! [`Compiled::write_dir`]; or a [`Error`] listing every problem.
//!
//! Steps: options check → [`check_joins`] (no residual joins) →
//! [`lower_graph`] (one [`crate::Layer`] per Conv/Gemm/MatMul, weights to
//! integers) → [`flow::build`] (the data-RAM buffers, Concat layouts) →
//! [`crate::generate`] (registers, register and RAM checks) →
//! [`placement`] (a branched network's buffer addresses) → weight images,
//! [`crate::emit::bundle`] → [`test_vectors`].
//!
//! ```
//! use onnc_mvu::frontend::{compile, CompileOptions};
//! let model = onnc_onnx::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/simple_conv.onnx"),
//!                             &onnc_onnx::Options::default()).unwrap();
//! let c = compile(&model.graph, &CompileOptions::default()).unwrap();   // 8/8/8
//! assert_eq!((c.table().rows[0].countdown, c.table().total_countdown), (17280, 587520));
//! ```

mod bias;
mod calibrate;
mod chain;
mod conv_partial;
mod conv_sums;
mod dialect;
pub mod flow;
pub mod groups;
mod lower;
mod output;
mod partial;
mod pipeline;
pub mod placement;
mod pool_layer;
mod problem;
mod run;
mod sim;
mod split;
mod split_check;
mod vectors;
mod weights;
mod window;

pub use bias::{
    accumulator_bias, adds_bias, bias_bound, bias_image, layer_bias_values, piece_bias, BIAS_BITS,
    BIAS_RAM_WORDS,
};
pub use calibrate::{calibrate, msb_for};
pub use chain::{check_joins, Constants};
pub use dialect::{dialect_attrs, DialectValue};
pub use flow::Flow;
pub use lower::{lower, lower_graph, Lowered, WeightLayout, Wiring};
pub use output::{GeneratedFile, EXPECTED_OUTPUT_BIN, INPUT_BIN, INPUT_HEX, TEST_VECTORS_JSON};
pub use partial::{partial_bound, sum_weights, PARTIAL_LIMIT};
pub use pipeline::{max_pool, output_bound};
pub use problem::Problem;
pub use sim::{reference_codes, reference_graph, simulate};
pub use split::{piece_weights, slice_weights, split, Piece, PieceKind};
pub use split_check::{check_splits, SplitCheck};
pub use vectors::{fake_quantized, input_vectors, random_codes, test_vectors, TestVectors};
pub use weights::{integer_weights, LayerWeights};
pub use window::window_shift;

use crate::config::{generate, Options, Table};
use crate::emit::{self, AsmOptions};
use crate::error::Error;
use crate::layer::Layer;
use crate::limits::{MAX_PREC, MIN_PREC};
use crate::weights::{export_weights, WeightFile};

/// What to compile for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileOptions {
    /// Activation precision in bits (1..=16).
    pub aprec: u32,
    /// Weight precision in bits (1..=16; 2 or more when weights are negative).
    pub wprec: u32,
    /// Output precision in bits (1..=16).
    pub oprec: u32,
    /// Quantize float weights with one scale per output channel (else one per layer).
    pub per_channel: bool,
    /// Seed of the test-vector input.
    pub seed: u64,
    /// Refuse layers that do not fit one MVU's RAMs (default). `false`
    /// reproduces BARVINN's generator, which checks no capacities (its
    /// published ResNet-18 table needs this).
    pub check_capacity: bool,
    /// Make `input_0.*` / `expected_output_0.bin` (runs the interpreter).
    pub test_vectors: bool,
    /// Quantizer MSB index for every layer (0..=26); `None`: `oprec − 1`.
    pub quant_msb: Option<u32>,
    /// Calibration input codes (each the graph input's NCHW order, `aprec`
    /// bits): when given, each layer's quantizer MSB is the lowest window
    /// holding the largest value the layer reaches on them ([`calibrate`]),
    /// instead of `quant_msb`. Empty: `quant_msb` for every layer.
    pub calibration: Vec<Vec<i64>>,
    /// Program placement and job count of the assembly listing.
    pub asm: AsmOptions,
}

impl Default for CompileOptions {
    /// 8/8/8 bits (BARVINN's defaults), per-layer scales, seed 0, every check on.
    fn default() -> Self {
        CompileOptions {
            aprec: 8,
            wprec: 8,
            oprec: 8,
            per_channel: false,
            seed: 0,
            check_capacity: true,
            test_vectors: true,
            quant_msb: None,
            calibration: Vec::new(),
            asm: AsmOptions::default(),
        }
    }
}

/// A compiled network: the table, the layers and the files.
#[derive(Debug, Clone)]
pub struct Compiled {
    lowered: Vec<Lowered>,
    flow: Flow,
    pieces: Vec<Vec<Piece>>,
    layers: Vec<Layer>,
    table: Table,
    files: Vec<GeneratedFile>,
    vectors: Option<TestVectors>,
    opts: CompileOptions,
}

impl Compiled {
    /// The configuration table (rows in graph order, total countdown).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The table as BARVINN's generator prints it (`mvu_config.txt`).
    pub fn table_text(&self) -> String {
        emit::text(&self.table)
    }

    /// The table's layers (pieces of split layers), in graph order.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The layers with their integer weights, bias and ReLU.
    pub fn lowered(&self) -> &[Lowered] {
        &self.lowered
    }

    /// Where each layer reads and writes in the data RAM (a chain, or
    /// branches and Concat buffers).
    pub fn flow(&self) -> &Flow {
        &self.flow
    }

    /// The pieces of each lowered layer (one, unless it was split to fit the RAMs).
    pub fn pieces(&self) -> &[Vec<Piece>] {
        &self.pieces
    }

    /// The test vectors, when made.
    pub fn vectors(&self) -> Option<&TestVectors> {
        self.vectors.as_ref()
    }

    /// The options the back half ran with ([`assemble`]; calibration inputs dropped).
    pub fn options(&self) -> &CompileOptions {
        &self.opts
    }

    /// Adds the test vectors and their four files (after the configuration
    /// files; `seed` and `aprec` of [`Compiled::options`] go in `test_vectors.json`).
    pub fn add_test_vectors(&mut self, v: TestVectors) {
        self.files.extend(output::vector_files(&v, &self.opts));
        self.vectors = Some(v);
    }

    /// Every output file (name and contents), in write order.
    pub fn files(&self) -> &[GeneratedFile] {
        &self.files
    }

    /// Writes every file into `dir`, atomically: the files go to a sibling
    /// temporary directory that then replaces `dir`, so `dir` is never half
    /// written. Returns the written paths, in write order.
    pub fn write_dir(&self, dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>, Error> {
        output::write_dir_atomic(dir, &self.files)
    }
}

fn check_precisions(opts: &CompileOptions) -> Vec<Problem> {
    let mut p = Vec::new();
    for (flag, v) in [
        ("--aprec", opts.aprec),
        ("--wprec", opts.wprec),
        ("--oprec", opts.oprec),
    ] {
        if !(MIN_PREC..=MAX_PREC).contains(&v) {
            p.push(Problem::option(
                flag,
                format!("{v} bits is outside the MVU's {MIN_PREC}..={MAX_PREC}"),
                "use a precision from 1 to 16 bits (MVU_MAX_DATA_PREC = 16)",
            ));
        }
    }
    if let Some(m) = opts.quant_msb.filter(|&m| m > crate::limits::MAX_QUANT_MSB) {
        p.push(Problem::option(
            "--quant-msb",
            format!(
                "{m} is outside 0..={} (the scaler output is 27 bits)",
                crate::limits::MAX_QUANT_MSB
            ),
            "use an MSB index from 0 to 26",
        ));
    }
    p
}

/// The bias-RAM image of layer `l` (`<weight>.bias.hex`, carried by its
/// first piece that adds the bias), pointing each such piece (output pieces,
/// or a split layer's first partials) at its first block (`bias_base`);
/// `None` for a layer without a bias.
fn bias_file(l: &Lowered, ps: &mut [Piece]) -> Result<Option<WeightFile>, Error> {
    let Some(values) = layer_bias_values(l, ps) else {
        return Ok(None);
    };
    let lines = bias_image(&values)?;
    let mut carrier = None;
    for p in ps.iter_mut().filter(|p| bias::adds_bias(p)) {
        p.layer.bias_base = Some(p.channels.start / crate::limits::BLOCK as u32);
        carrier.get_or_insert_with(|| p.layer.name.clone());
    }
    // The weight file's name (sanitized: a folded BN's initializer is
    // named after its node, '/' and all), with `.bias` before `.hex`.
    let weights = l.layer.weight_file_name();
    let base = weights.strip_suffix(".hex").unwrap_or(&weights);
    Ok(carrier.map(|layer| WeightFile {
        layer,
        file_name: format!("{base}.bias.hex"),
        lines,
    }))
}

/// Compiles `graph` for BARVINN's MVUs; every problem is reported at once.
pub fn compile(graph: &onnc_onnx::Graph, opts: &CompileOptions) -> Result<Compiled, Error> {
    let problems = check_precisions(opts);
    if !problems.is_empty() {
        return Err(problems.into());
    }
    let consts = check_joins(graph)?;
    let (mut lowered, wiring) = lower_graph(graph, &consts, opts)?;
    let input = &graph.inputs[0];
    let shape = input.type_info().static_shape().unwrap_or_default();
    let flow = flow::build(&mut lowered, &wiring, (&input.name, &shape), opts.aprec)?;
    if !opts.calibration.is_empty() {
        calibrate(&mut lowered, &flow, &opts.calibration).map_err(|e| {
            vec![Problem::option(
                "calibration",
                e.to_string(),
                "give calibration inputs of the graph input's shape (integer input codes)",
            )]
        })?;
    }
    let mut compiled = assemble_flow(lowered, flow, opts)?;
    if opts.test_vectors {
        let v =
            test_vectors(graph, compiled.lowered(), compiled.flow(), opts).map_err(|p| vec![p])?;
        compiled.add_test_vectors(v);
    }
    Ok(compiled)
}

/// The back half of [`compile`]: everything after the per-layer decisions.
///
/// In: the lowered layers (what the `mvu` level holds: shapes, precisions,
/// quantizer MSBs, integer weights and scales, biases, output pipelines) and
/// the options the back half reads (`check_capacity`, `asm`; `seed` and
/// `aprec` for `test_vectors.json`). Out: the pieces, register table and
/// every configuration file (no test vectors: [`Compiled::add_test_vectors`]),
/// or every problem found. The layers form a chain ([`Flow::chain`]).
pub fn assemble(lowered: Vec<Lowered>, opts: &CompileOptions) -> Result<Compiled, Error> {
    let flow = Flow::chain(&lowered);
    assemble_flow(lowered, flow, opts)
}

/// [`assemble`] for layers reading and writing the buffers of `flow`. A
/// branched flow places its buffers ([`placement`]) and gives the program
/// their addresses; its split layers run through the host as in a chain.
pub fn assemble_flow(
    lowered: Vec<Lowered>,
    flow: Flow,
    opts: &CompileOptions,
) -> Result<Compiled, Error> {
    // A strided conv job walks floor((iW − fW) / sW) + 1 windows of its row;
    // BARVINN's formula `(iW − fW + 1) / sW` is that number only when it is
    // an integer. The front end takes the window count (`RoundUp`): equal
    // where the formula is integral (every layer that compiled before), and
    // what the unpooled, strided partials of a kernel-row split need
    // (AlexNet's 11×11/4 stem at 8 bits: 214 / 4).
    let engine = Options {
        check_capacity: opts.check_capacity,
        fractional_columns: crate::FractionalColumns::RoundUp,
        ..Options::default()
    };
    let mut problems = Vec::new();
    let mut pieces: Vec<Vec<Piece>> = Vec::new();
    for l in &lowered {
        match split::split(l, &engine.limits, opts.check_capacity) {
            Ok(p) => pieces.push(p),
            Err(e) => {
                problems.push(Problem::engine(&l.node, &l.op, &e));
                pieces.push(Vec::new());
            }
        }
    }
    let mut images = Vec::new();
    let mut bias_files = Vec::new();
    for (l, ps) in lowered.iter().zip(pieces.iter_mut()) {
        match bias_file(l, ps) {
            Ok(f) => bias_files.push(f),
            Err(e) => {
                bias_files.push(None);
                problems.push(Problem::node(
                &l.node,
                &l.op,
                e.to_string(),
                "the MVU adds a bias through its 64-word bias RAM with a 27-bit adder: \
                 run the layer with fewer output channels, or smaller biases (larger weight scales)",
                ));
            }
        }
    }
    for ((l, ps), bias) in lowered.iter().zip(&pieces).zip(bias_files) {
        for p in ps {
            if let Err(e) = crate::config::configure(&p.layer, &engine) {
                problems.push(Problem::engine(&l.node, &l.op, &e));
                break;
            }
        }
        for p in ps.iter().filter(|p| p.exports_weights) {
            match export_weights(&p.layer, &split::piece_weights(l, p)) {
                Ok(w) => images.push(w),
                Err(e) => {
                    problems.push(Problem::engine(&l.node, &l.op, &e));
                    break;
                }
            }
        }
        images.extend(bias);
    }
    if !problems.is_empty() {
        return Err(problems.into());
    }
    let layers: Vec<Layer> = pieces.iter().flatten().map(|p| p.layer.clone()).collect();
    let table = generate(&layers, &engine)
        .map_err(|e| vec![Problem::engine(e.layer().unwrap_or_default(), "layer", &e)])?;
    let by_layer = |name: &str| {
        lowered
            .iter()
            .zip(&pieces)
            .find(|(_, ps)| ps.iter().any(|p| p.layer.name == name))
            .map_or("layer", |(l, _)| l.op.as_str())
    };
    let asm = if flow.is_branched() {
        branched_asm(&lowered, &pieces, &flow, opts, &engine.limits)?
    } else {
        opts.asm.clone()
    };
    let text = emit::bundle(&table, &images, &asm).map_err(|e| {
        vec![Problem::engine(
            e.layer().unwrap_or_default(),
            by_layer(e.layer().unwrap_or_default()),
            &e,
        )]
    })?;
    let files: Vec<GeneratedFile> = text.into_iter().map(GeneratedFile::from).collect();
    Ok(Compiled {
        lowered,
        flow,
        pieces,
        layers,
        table,
        files,
        vectors: None,
        opts: CompileOptions {
            calibration: Vec::new(),
            ..opts.clone()
        },
    })
}

/// The assembly options of a branched network: a layer's bases are where
/// [`placement`] puts its buffers; a split layer's pieces, and a layer whose
/// buffers do not fit beside the others, take a chain's (input at word 0,
/// output in the upper half, alternating), the host moving its input and
/// output ([`placement::place_through_host`]).
fn branched_asm(
    lowered: &[Lowered],
    pieces: &[Vec<Piece>],
    flow: &Flow,
    opts: &CompileOptions,
    limits: &crate::MvuLimits,
) -> Result<AsmOptions, Error> {
    let split: Vec<bool> = pieces.iter().map(|ps| ps.len() > 1).collect();
    let (placed, host) =
        placement::place_through_host(flow, lowered, &split, limits.data_ram_words)
            .map_err(|p| vec![p])?;
    let layer_bases = placement::bases(flow, lowered, &placed);
    let bases = pieces
        .iter()
        .zip(layer_bases)
        .zip(host)
        .flat_map(|((ps, b), host)| {
            (0..ps.len()).map(move |j| {
                if host {
                    emit::default_bases(j, limits)
                } else {
                    b
                }
            })
        })
        .collect();
    Ok(AsmOptions {
        bases,
        ..opts.asm.clone()
    })
}
