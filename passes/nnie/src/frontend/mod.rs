//! The NNIE frontend: an ONNX graph → a calibrated, checked `nnie_mapper` package.
//!
//! In: a loaded [`onnc_onnx::Graph`] and [`CompileOptions`]. Out: [`Compiled`]
//! — the layers with their clips (for the `nnie` dialect), the package files,
//! `quant_report.json`, warnings — or [`NnieError::Refused`] listing every
//! problem (node, op, what, fix); a refused model writes nothing.
//!
//! Steps: 8-bit check → `onnc-legalize` for `nnie` → [`lower`] → calibration
//! (float run over the `--calib` sets, per-value max statistics, clips
//! snapped to the `2^(k/16)` grid; weights: snapped `max |w|`) or MQBench's
//! clip table → simulated quantized run → cosine/max error per graph output
//! (and, with labelled `eval` data, top-1 accuracy of both runs) → Caffe net,
//! clip table, `.cfg` (preprocessing as calibration used it), image list and
//! the calibration inputs it names (relative paths: the package is portable).
//!
//! ```no_run
//! use onnc_nnie::frontend::{compile, CalibSource, CompileOptions};
//! let g = onnc_onnx::load("m.onnx", &Default::default())?.graph;
//! let opts = CompileOptions::new(CalibSource::TestData("calib".into()));
//! let c = compile(&g, &opts)?;
//! c.write_dir(std::path::Path::new("out"))?;
//! println!("{}", c.report().to_json());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod caffe_net;
mod channel_const;
mod clip_keys;
mod data;
mod dialect;
mod eval;
mod images;
mod layer;
mod level;
mod lower;
mod lower_ops;
mod names;
mod package_data;
mod quality_runs;
mod simulate;
mod write;
pub use write::write_dir_atomic;

pub use caffe_net::caffe_net;
pub use data::{load_npy_sets, load_test_data, synthetic_sets, DataSet};
pub use dialect::{dialect_attrs, DialectValue};
pub use eval::{is_labelled, load_labelled, Accuracy, Labelled, LABELS_FILE, SAMPLES_FILE};
pub use images::{image_files, is_image, load_images, load_images_with, IMAGE_EXTENSIONS};
pub use layer::{EltwiseOp, Hw, Layer, LayerKind};
pub use level::{build_package, PackageInputs};
pub use lower::{lower, Lowered};
pub use names::OnnxNames;
pub use package_data::{package_data, PackageData, DATA_DIR, IMAGES_DIR, PLACEHOLDER};
pub use simulate::{
    float_run, float_run_keeping, float_run_with, quant_run, quant_run_observed, quant_run_with,
    quant_weights, Outputs, QuantWeights,
};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::calib::{weight_clip, CalibConfig, CalibMethod};
use crate::error::{NnieError, Problem, Result};
use crate::gfpq::ClipTable;
use crate::grid::{Bits, ClipValue, SnapMode};
use crate::package::{Package, PackageOptions};
use crate::quality::{compare, Accumulator, QuantReport};

/// Name of the quality report inside a package.
pub const QUANT_REPORT_FILE: &str = "quant_report.json";

/// Where activation clip values come from.
#[derive(Debug, Clone, PartialEq)]
pub enum CalibSource {
    /// ONNX test data: `DIR/input_<k>.pb` or `DIR/test_data_set_*/input_<k>.pb`.
    TestData(PathBuf),
    /// `.npy` files (`onnc_calib::npy_sets`: one file per set, or one
    /// sub-folder per set with a file per graph input).
    Npy(PathBuf),
    /// A folder of images, preprocessed as [`CompileOptions::preprocess`] says.
    Images(PathBuf),
    /// MQBench's deploy JSON `{"nnie": {"gfpq_param_dict": {...}}}`; raw
    /// values are snapped to the grid.
    Mqbench(PathBuf),
}

impl CalibSource {
    /// The source a `--calib DIR` folder is: ONNX test data when it holds
    /// `input_0.pb` or `test_data_set_*` folders, `.npy` sets when
    /// [`onnc_calib::npy_sets::is_npy_dir`] says so, images otherwise.
    /// Err: `dir` is not a directory (the message names it).
    pub fn from_dir(dir: &Path) -> std::result::Result<Self, String> {
        if !dir.is_dir() {
            return Err(format!("--calib '{}' is not a directory", dir.display()));
        }
        let test_data = dir.join("input_0.pb").is_file()
            || std::fs::read_dir(dir)
                .map(|r| {
                    r.flatten()
                        .any(|e| e.file_name().to_string_lossy().starts_with("test_data_set"))
                })
                .unwrap_or(false);
        Ok(if test_data {
            CalibSource::TestData(dir.to_path_buf())
        } else if onnc_calib::npy_sets::is_npy_dir(dir) {
            CalibSource::Npy(dir.to_path_buf())
        } else {
            CalibSource::Images(dir.to_path_buf())
        })
    }
}

/// Options of [`compile`].
#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// Clip source.
    pub calib: CalibSource,
    /// Code width: 8 (16 is refused: its code is not publicly defined).
    pub bits: u32,
    /// Held-out data for `quant_report.json`: a labelled folder
    /// (`test_x.npy`, `test_y.npy`: also top-1 accuracy, [`Accuracy`]) or
    /// unlabelled sets (`input_<k>.pb`, `.npy`); `None`: the calibration
    /// sets, or for an MQBench table 4 synthetic uniform `[0, 1)` sets.
    pub eval: Option<PathBuf>,
    /// Package name (file stem); `None`: the graph name made file-safe, or `model`.
    pub name: Option<String>,
    /// Activation statistic (MQBench's NNIE observer by default).
    pub method: CalibMethod,
    /// Grid snapping of calibrated clips.
    pub snap: SnapMode,
    /// Run `onnc-legalize` for `nnie` first (off when the graph already is).
    pub legalize: bool,
    /// Mapper options; their `preprocess` is replaced by the one matching
    /// the calibration data ([`package_data`]).
    pub package: PackageOptions,
    /// How calibration images become input tensors (the same options as
    /// the NVDLA calibrator's; the default is NNIE's documented `p/255`,
    /// RGB, NCHW, stretched). The `.cfg` says the same to the mapper.
    pub preprocess: onnc_calib::Preprocess,
    /// The model's ONNX node and tensor names, for MQBench keys; `None`:
    /// the names of the graph given to [`compile`].
    pub names: Option<OnnxNames>,
    /// Draw progress bars (calibration and evaluation, per set, with an
    /// ETA) on stderr — only when stderr is a terminal
    /// ([`onnc_calib::progress_bar`]).
    pub progress: bool,
}

impl CompileOptions {
    /// Defaults: 8 bits, EMA max-abs, nearest snapping, legalize on.
    pub fn new(calib: CalibSource) -> Self {
        Self {
            calib,
            bits: 8,
            eval: None,
            name: None,
            method: CalibMethod::EmaMaxAbs,
            snap: SnapMode::Nearest,
            legalize: true,
            package: PackageOptions::default(),
            preprocess: onnc_calib::Preprocess::default(),
            names: None,
            progress: false,
        }
    }
}

/// A compiled model: layers, package files, report, warnings.
#[derive(Debug, Clone)]
pub struct Compiled {
    graph: onnc_onnx::Graph,
    layers: Vec<Layer>,
    package: Package,
    report: QuantReport,
    warnings: Vec<String>,
    accuracy: Option<Accuracy>,
    inputs: PackageInputs,
}

impl Compiled {
    /// A compiled model from its parts as the `nnie` level holds them (the
    /// reader of `nnie` text): the package is made again from the layers
    /// ([`build_package`]), the accuracy is the report's. `graph` needs its
    /// inputs and outputs only. Err: the package does not build.
    pub fn from_level(
        graph: onnc_onnx::Graph,
        layers: Vec<Layer>,
        inputs: PackageInputs,
        report: QuantReport,
        warnings: Vec<String>,
    ) -> Result<Self> {
        let package = build_package(&graph_inputs(&graph), &layers, &inputs)?;
        Ok(Self {
            graph,
            layers,
            package,
            accuracy: report.accuracy,
            report,
            warnings,
            inputs,
        })
    }
    /// What the package was made of besides the layers (name, mapper
    /// options, image list, calibration files).
    pub fn package_inputs(&self) -> &PackageInputs {
        &self.inputs
    }
    /// Top-1 accuracy on the labelled `eval` folder, if one was given.
    pub fn accuracy(&self) -> Option<Accuracy> {
        self.accuracy
    }
    /// The layers in network order, clips filled.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }
    /// The quality report (`quant_report.json`).
    pub fn report(&self) -> &QuantReport {
        &self.report
    }
    /// Non-fatal findings (e.g. depthwise convolutions).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
    /// The legalized graph the layers were made from.
    pub fn graph(&self) -> &onnc_onnx::Graph {
        &self.graph
    }
    /// The package files (without `quant_report.json`).
    pub fn package(&self) -> &Package {
        &self.package
    }
    /// Write the package and `quant_report.json` into `dir`, atomically:
    /// built in a sibling temporary directory, then renamed over `dir`.
    /// Returns the written paths in package order.
    pub fn write_dir(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let mut files: Vec<(String, Vec<u8>)> = self.package.files().to_vec();
        files.push((
            QUANT_REPORT_FILE.to_string(),
            self.report.to_json().into_bytes(),
        ));
        write::write_dir_atomic(dir, &files)
    }
}

fn refuse(node: &str, op: &str, what: String, fix: &str) -> NnieError {
    NnieError::Refused(vec![Problem {
        node: node.into(),
        op: op.into(),
        what,
        fix: fix.into(),
    }])
}

fn fix_for(reason: &str) -> &'static str {
    if reason.contains("ceil_mode") {
        "export the pooling with ceil_mode = 1 (NNIE pools round up)"
    } else if reason.contains("Resize") {
        "NNIE upsamples by integer factors (nearest, or bilinear with align_corners=False; at most 15 unless a power of two): export such a factor, or resize on the host"
    } else if reason.contains("CPU path") {
        "remove the op from the network and run it on the host"
    } else {
        "replace the op with ones NNIE runs (docs/targets/nnie.md) or move it to the host"
    }
}

fn legalized(graph: &onnc_onnx::Graph, on: bool) -> Result<(onnc_onnx::Graph, Vec<Vec<String>>)> {
    if !on {
        return Ok((graph.clone(), Vec::new()));
    }
    match onnc_legalize::legalize(
        graph.clone(),
        onnc_legalize::Target::Nnie,
        &Default::default(),
    ) {
        Ok(l) => Ok((
            l.graph,
            l.provenance.into_iter().map(|p| p.sources).collect(),
        )),
        Err(onnc_legalize::Error::Illegal { violations, .. }) => Err(NnieError::Refused(
            violations
                .into_iter()
                .map(|v| Problem {
                    fix: fix_for(&v.reason).into(),
                    node: v.node,
                    op: v.op,
                    what: v.reason,
                })
                .collect(),
        )),
        Err(e) => Err(NnieError::Refused(vec![Problem {
            node: String::new(),
            op: "graph".into(),
            what: e.to_string(),
            fix: "fix the model (it is malformed for legalization)".into(),
        }])),
    }
}

fn package_name(opts: &CompileOptions, graph: &onnc_onnx::Graph) -> String {
    if let Some(n) = &opts.name {
        return n.clone();
    }
    let s: String = graph
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "model".into()
    } else {
        s
    }
}

/// Compile `graph` for NNIE (see the module doc).
pub fn compile(graph: &onnc_onnx::Graph, opts: &CompileOptions) -> Result<Compiled> {
    let bits = match opts.bits {
        8 => Bits::Eight,
        16 => Bits::Sixteen,
        b => {
            return Err(NnieError::Unsupported(format!(
                "{b}-bit NNIE quantization; use --bits 8"
            )))
        }
    };
    if bits == Bits::Sixteen {
        return Err(NnieError::Unsupported(
            "16-bit NNIE quantization ([compile_mode] 1): no public primary source defines its logarithmic code; use --bits 8".into(),
        ));
    }
    if !matches!(opts.calib, CalibSource::TestData(_) | CalibSource::Npy(_)) {
        // the .cfg must be able to say the image preprocessing: fail before calibrating
        crate::cfg_preprocess::CfgPreprocess::from_images(
            &opts.preprocess,
            package_data::channels(graph),
        )?;
    }
    let (g, provenance) = legalized(graph, opts.legalize)?;
    let types = onnc_onnx::infer_graph(&g).map_err(|e| {
        refuse(
            &g.name,
            "graph",
            format!("shape inference failed: {e}"),
            "give the model static input shapes",
        )
    })?;
    let Lowered {
        mut layers,
        problems,
        warnings,
    } = lower(&g, &types, &provenance);
    if !problems.is_empty() {
        return Err(NnieError::Refused(problems));
    }

    // Data: calibration sets, evaluation sets.
    let calib_sets = match &opts.calib {
        CalibSource::TestData(dir) => load_test_data(dir, &g)?,
        CalibSource::Npy(dir) => load_npy_sets(dir, &g)?,
        CalibSource::Images(dir) => load_images_with(dir, &g, &opts.preprocess)?,
        CalibSource::Mqbench(_) => Vec::new(),
    };
    let mut labels = None;
    let eval_sets = match (&opts.eval, calib_sets.is_empty()) {
        (Some(dir), _) if is_labelled(dir) => {
            let l = load_labelled(dir, &g)?;
            labels = Some(l.labels);
            l.sets
        }
        (Some(dir), _) if onnc_calib::npy_sets::is_npy_dir(dir) => load_npy_sets(dir, &g)?,
        (Some(dir), _) => load_test_data(dir, &g)?,
        (None, false) => calib_sets.clone(),
        (None, true) => synthetic_sets(&g, 4)?,
    };
    let names = opts.names.clone().unwrap_or_else(|| OnnxNames::of(graph));

    // Activation clips.
    let watch: BTreeSet<String> = layers
        .iter()
        .filter(|l| l.is_quantized())
        .flat_map(|l| l.bottoms.clone())
        .collect();
    if let CalibSource::Mqbench(path) = &opts.calib {
        let text = std::fs::read_to_string(path)
            .map_err(|e| NnieError::Data(format!("{}: {e}", path.display())))?;
        let table = ClipTable::from_json(&text)?.snapped(opts.snap)?;
        clip_keys::check_known(&table, &layers, &names, &path.display().to_string())?;
        let mut missing = Vec::new();
        for l in layers.iter_mut().filter(|l| l.is_quantized()) {
            // the layer's own names first, then keys naming its ONNX node
            // or that node's output tensor
            let origins = names.origins(&l.name, &l.sources);
            let entry = origins.iter().find_map(|k| table.get(k)).or_else(|| {
                table
                    .iter()
                    .find(|(k, _)| {
                        names
                            .node(k)
                            .is_some_and(|n| origins.iter().any(|o| o == n))
                    })
                    .map(|(_, c)| c)
            });
            match entry {
                Some(c) if c.len() == l.bottoms.len() => {
                    l.input_clips = c
                        .iter()
                        .map(|&v| ClipValue::exact_from_f64(v))
                        .collect::<Option<_>>()
                        .ok_or_else(|| {
                            NnieError::ClipTable(format!("layer '{}': clip off the grid", l.name))
                        })?;
                }
                Some(c) => missing.push(Problem {
                    node: l.name.clone(),
                    op: l.op_type.clone(),
                    what: format!(
                        "{} clip value(s) in {}, the layer has {} input(s)",
                        c.len(),
                        path.display(),
                        l.bottoms.len()
                    ),
                    fix: "give one clip per data input".into(),
                }),
                None => missing.push(Problem {
                    node: l.name.clone(),
                    op: l.op_type.clone(),
                    what: format!("no clip value in {}", path.display()),
                    fix: "add the layer to gfpq_param_dict, or calibrate with --calib DIR".into(),
                }),
            }
        }
        if !missing.is_empty() {
            return Err(NnieError::Refused(missing));
        }
    } else {
        let bar =
            onnc_calib::progress_bar(calib_sets.len(), "nnie calibration", "sets", opts.progress);
        let (calib, _) = float_run_with(&g, &calib_sets, &watch, CalibConfig::default(), &bar)?;
        bar.finish_and_clear();
        for l in layers.iter_mut().filter(|l| l.is_quantized()) {
            l.input_clips = l
                .bottoms
                .iter()
                .map(|b| match calib.layer(b) {
                    Some(o) => o.clip(opts.method, opts.snap).map_err(|e| {
                        NnieError::Calibration(format!("layer '{}', input `{b}`: {e}", l.name))
                    }),
                    None => Err(NnieError::Calibration(format!(
                        "layer '{}': input `{b}` was never observed",
                        l.name
                    ))),
                })
                .collect::<Result<_>>()?;
        }
    }
    for l in layers.iter_mut() {
        if let (true, Some(w)) = (l.has_weights(), &l.weight) {
            let v = w.as_f32().map_err(|e| NnieError::Interp(e.to_string()))?;
            l.weight_clip =
                Some(weight_clip(v, opts.snap).map_err(|e| {
                    NnieError::Calibration(format!("layer '{}' weights: {e}", l.name))
                })?);
        }
    }

    // Quality: simulated quantized vs float, per graph output and per
    // layer output (top), over all eval sets.
    let mut report = QuantReport::default();
    let mut pairs: Vec<(Vec<f32>, Vec<f32>)> = vec![(Vec::new(), Vec::new()); g.outputs.len()];
    let tops: BTreeSet<String> = layers.iter().map(|l| l.top.clone()).collect();
    let mut per_top: std::collections::BTreeMap<String, Accumulator> = Default::default();
    let mut accuracy = labels.as_ref().map(|_| Accuracy::default());
    let bar = onnc_calib::progress_bar(eval_sets.len(), "nnie evaluation", "sets", opts.progress);
    quality_runs::quality_runs(&g, &layers, &eval_sets, &tops, &bar, |k, run| {
        for (name, f, q) in &run.tops {
            per_top.entry(name.clone()).or_default().add(f, q)?;
        }
        if let (Some(acc), Some(labels)) = (accuracy.as_mut(), labels.as_ref()) {
            match (run.float.as_slice(), run.quant.as_slice()) {
                ([(_, f)], [(_, q)]) => acc.add(f, q, labels[k])?,
                _ => {
                    return Err(NnieError::Data(format!(
                        "--eval with labels needs a classifier with one output; the model has {}",
                        run.float.len()
                    )))
                }
            }
        }
        for (j, ((_, f), (_, q))) in run.float.iter().zip(&run.quant).enumerate() {
            pairs[j].0.extend(quality_runs::f32_values(f));
            pairs[j].1.extend(quality_runs::f32_values(q));
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    report.accuracy = accuracy;
    for l in &layers {
        if let Some(acc) = per_top.get(&l.top) {
            report.push(&l.name, acc.quality()?);
        }
    }
    for (vi, (f, q)) in g.outputs.iter().zip(&pairs) {
        report.set_output(&vi.name, compare(f, q)?);
    }

    // Package.
    let data = package_data(&opts.calib, &calib_sets, &g, &opts.preprocess)?;
    let mut warnings = warnings;
    warnings.extend(data.warning.clone());
    let inputs = PackageInputs {
        name: package_name(opts, &g),
        options: PackageOptions {
            preprocess: data.preprocess,
            ..opts.package.clone()
        },
        image_list: data.list,
        files: data.files,
    };
    let package = build_package(&graph_inputs(&g), &layers, &inputs)?;
    Ok(Compiled {
        graph: g,
        layers,
        package,
        report,
        warnings,
        accuracy,
        inputs,
    })
}

/// The graph's inputs as Caffe's `input`/`input_shape`.
fn graph_inputs(g: &onnc_onnx::Graph) -> Vec<(String, Vec<usize>)> {
    g.inputs
        .iter()
        .map(|v| {
            (
                v.name.clone(),
                v.type_info().static_shape().unwrap_or_default(),
            )
        })
        .collect()
}
