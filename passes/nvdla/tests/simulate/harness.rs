//! The differential check: compile a graph for NVDLA, run the loadable in
//! the bit-exact simulator (`onnc-nvdla-sim`) and the same graph in the
//! reference interpreter (`onnc-interp`), and compare every output.
//!
//! In: an ONNX [`Graph`], a legalization target and an NVDLA configuration.
//! Out: a [`Report`] (worst error ratio per output); panics with the case,
//! the output and the first large difference when the outputs disagree.
//!
//! Pipeline: `legalize → lower → plan → emit (current ABI) → write → simulate`.
//! Inputs are seeded uniform values in [-1, 1) rounded to FP16 for both
//! sides, so the reference sees exactly what the hardware reads. Agreement
//! means `max |sim − ref| ≤ tol · max |ref|` per output (tol = 1e-2 for
//! FP16), and for classifier outputs the same argmax (or, when the two
//! reference scores are closer than the measured error, a tie).

use std::time::{Duration, Instant};

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::emit::{emit, Abi, EmitOptions};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions};
use onnc_nvdla::{ConfigName, Program, TensorKind};
use onnc_nvdla_sim::run::{self, TensorData};
use onnc_onnx::{Dim, Graph};
use onnc_tensor::Tensor;

/// FP16 tolerance, relative to the largest reference magnitude.
pub const FP16_TOL: f32 = 1e-2;

/// INT8 tolerance, relative to the largest reference magnitude.
pub const INT8_TOL: f32 = 5e-2;

/// What one case measured.
#[derive(Debug, Clone)]
pub struct Report {
    /// Case name.
    pub name: String,
    /// Per output: `max |sim − ref| / max |ref|`.
    pub ratios: Vec<f32>,
    /// Compile (legalize → emit) and simulation times.
    pub compile: Duration,
    /// Simulation time.
    pub simulate: Duration,
    /// Reference interpreter time.
    pub reference: Duration,
    /// The loadable's ops in task order ([`op_kinds`]).
    pub ops: Vec<String>,
}

impl Report {
    /// The worst ratio over the outputs.
    pub fn worst(&self) -> f32 {
        self.ratios.iter().copied().fold(0.0, f32::max)
    }

    /// How many ops are `kind` (e.g. `"CONV"`, `"PDP split 2"`).
    pub fn count(&self, kind: &str) -> usize {
        self.ops.iter().filter(|o| *o == kind).count()
    }

    /// One line for `--nocapture`.
    pub fn line(&self) -> String {
        let mut kinds: Vec<(String, usize)> = Vec::new();
        for o in &self.ops {
            match kinds.iter_mut().find(|(k, _)| k == o) {
                Some((_, n)) => *n += 1,
                None => kinds.push((o.clone(), 1)),
            }
        }
        let ops: Vec<String> = kinds.iter().map(|(k, n)| format!("{n}×{k}")).collect();
        format!(
            "{:<28} worst {:.2e}  compile {:>6.2}s  sim {:>6.2}s  ref {:>5.2}s  [{}]",
            self.name,
            self.worst(),
            self.compile.as_secs_f64(),
            self.simulate.as_secs_f64(),
            self.reference.as_secs_f64(),
            ops.join(" ")
        )
    }
}

/// How to check a case.
#[derive(Debug, Clone, Copy)]
pub struct Check {
    /// Legalization target.
    pub target: Target,
    /// NVDLA configuration.
    pub config: ConfigName,
    /// Compare argmaxes of every output (classifiers).
    pub classifier: bool,
    /// Tolerance relative to `max |ref|`.
    pub tol: f32,
    /// Input seed.
    pub seed: u64,
}

impl Check {
    /// nv_full, FP16 tolerance, not a classifier.
    pub fn full() -> Check {
        Check {
            target: Target::NvFull,
            config: ConfigName::NvFull,
            classifier: false,
            tol: FP16_TOL,
            seed: 7,
        }
    }

    /// [`Check::full`] that also compares argmaxes.
    pub fn classifier() -> Check {
        Check {
            classifier: true,
            ..Check::full()
        }
    }
}

/// Seeded uniform values in [-1, 1), rounded to FP16.
pub fn inputs_for(g: &Graph, seed: u64) -> Vec<(String, Tensor)> {
    let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    g.inputs
        .iter()
        .map(|vi| {
            let shape = vi.type_info().static_shape().expect("static input shape");
            let v = (0..shape.iter().product())
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    let u = (s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
                    half::f16::from_f32(u).to_f32()
                })
                .collect();
            (vi.name.clone(), Tensor::from_f32(shape, v).unwrap())
        })
        .collect()
}

/// Legalizes, lowers, plans and emits `g`; returns the program and the
/// loadable bytes.
pub fn compile(g: &Graph, target: Target, config: ConfigName) -> (Program, Vec<u8>) {
    let name = &g.name;
    let l = legalize(g.clone(), target, &Options::default())
        .unwrap_or_else(|e| panic!("{name}: legalize: {e}"));
    let mut p = lower(&l.graph, config, &LowerOptions::default())
        .unwrap_or_else(|e| panic!("{name}: lower: {e}"));
    onnc_nvdla::emit::split_convs(&mut p).unwrap_or_else(|e| panic!("{name}: split: {e}"));
    plan(&mut p, &PlanOptions::default()).unwrap_or_else(|e| panic!("{name}: plan: {e}"));
    let bytes = emit(&p, &EmitOptions { abi: Abi::Current })
        .unwrap_or_else(|e| panic!("{name}: emit: {e}"))
        .write();
    (p, bytes)
}

/// Runs `g` through the reference interpreter and fills in the output dims.
pub fn reference(g: &mut Graph, inputs: &[(String, Tensor)]) -> Vec<Tensor> {
    let out =
        onnc_interp::run_graph(g, inputs).unwrap_or_else(|e| panic!("{}: reference: {e}", g.name));
    for (vi, (_, t)) in g.outputs.iter_mut().zip(&out) {
        vi.dims = t.shape().iter().map(|&d| Dim::Fixed(d)).collect();
    }
    out.into_iter().map(|(_, t)| t).collect()
}

/// Simulates the loadable; returns the outputs in the graph's order.
pub fn simulate(
    p: &Program,
    bytes: &[u8],
    inputs: &[(String, Tensor)],
    name: &str,
) -> Vec<Vec<f32>> {
    let sim_inputs: Vec<run::Tensor> = inputs
        .iter()
        .enumerate()
        .map(|(i, (_, t))| run::Tensor {
            bind_id: i as u16,
            data: TensorData::F32(t.as_f32().unwrap().to_vec()),
        })
        .collect();
    let out = run::simulate(bytes, &sim_inputs, &run::Options::default())
        .unwrap_or_else(|e| panic!("{name}: simulate: {e}"));
    p.outputs
        .iter()
        .map(|&t| {
            let TensorKind::Output(k) = p.tensors[t].kind else {
                panic!("{name}: program output {t} is not bound")
            };
            let o = out
                .tensors
                .iter()
                .find(|o| o.bind_id == k)
                .unwrap_or_else(|| panic!("{name}: no output bind id {k}"));
            o.values.clone()
        })
        .collect()
}

/// `g` as the compiler sees a model file: exported to ONNX bytes and
/// loaded back (normalized: ONNX attribute defaults filled in, shapes
/// inferred).
pub fn through_the_loader(g: &Graph) -> Graph {
    use onnc_onnx::onnc_proto::prost::Message;
    let model = onnc_onnx::Model {
        ir_version: 8,
        opset_imports: [(String::new(), onnc_onnx::NORMALIZED_OPSET)].into(),
        producer: "simulate.rs".into(),
        graph: g.clone(),
        warnings: vec![],
    };
    let bytes = onnc_onnx::export(&model).encode_to_vec();
    let m = onnc_onnx::decode(&bytes, std::path::Path::new("."), &Default::default());
    m.unwrap_or_else(|e| panic!("{}: reload: {e}", g.name))
        .graph
}

/// Compiles, simulates and compares `g` (see the module doc).
pub fn check(mut g: Graph, c: Check) -> Report {
    let name = format!("{} ({})", g.name, c.config.as_str());
    let inputs = inputs_for(&g, c.seed);
    let t = Instant::now();
    let refs = reference(&mut g, &inputs);
    let reference_time = t.elapsed();
    let g = through_the_loader(&g);
    let t = Instant::now();
    let (p, bytes) = compile(&g, c.target, c.config);
    let compile_time = t.elapsed();
    let t = Instant::now();
    let sims = simulate(&p, &bytes, &inputs, &name);
    let simulate_time = t.elapsed();
    let mut ratios = Vec::new();
    for ((vi, r), s) in g.outputs.iter().zip(&refs).zip(&sims) {
        let r = r.as_f32().unwrap();
        ratios.push(compare(&format!("{name} output {}", vi.name), r, s, c));
    }
    let ops = op_kinds(&bytes);
    let report = Report {
        name,
        ratios,
        compile: compile_time,
        simulate: simulate_time,
        reference: reference_time,
        ops,
    };
    println!("{}", report.line());
    report
}

/// The loadable's ops in task order: `CONV`, `SDP`, `PDP` (`PDP split N`
/// when the PDP streams N width stripes), `CDP`, `RUBIK`, `BDMA`, `EMU`.
pub fn op_kinds(bytes: &[u8]) -> Vec<String> {
    use onnc_nvdla_loadable::desc::container::OpDesc;
    use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
    let l = onnc_nvdla_loadable::Loadable::read(bytes).expect("the loadable reads back");
    let mut kinds = Vec::new();
    for t in &l.task_list {
        match task_descs(&l, t, Abi::Current) {
            TaskDescs::Dla(d) => {
                for o in d.ops.value.unwrap_or_default() {
                    kinds.push(match o.desc {
                        OpDesc::Conv(_) => "CONV".into(),
                        OpDesc::Sdp(_) => "SDP".into(),
                        OpDesc::Pdp(p) if p.split_num > 1 => format!("PDP split {}", p.split_num),
                        OpDesc::Pdp(_) => "PDP".into(),
                        OpDesc::Cdp(_) => "CDP".into(),
                        OpDesc::Rubik(_) => "RUBIK".into(),
                        OpDesc::Bdma(_) => "BDMA".into(),
                        other => format!("{other:?}").chars().take(8).collect(),
                    });
                }
            }
            TaskDescs::Emu(d) => kinds.extend(
                d.ops
                    .value
                    .unwrap_or_default()
                    .iter()
                    .map(|_| "EMU".to_string()),
            ),
            TaskDescs::Other(i) => kinds.push(format!("{i}")),
        }
    }
    kinds
}

/// Asserts agreement of one output; returns `max |s − r| / max |r|`.
pub fn compare(what: &str, r: &[f32], s: &[f32], c: Check) -> f32 {
    assert_eq!(
        r.len(),
        s.len(),
        "{what}: reference has {} values, the simulator {}",
        r.len(),
        s.len()
    );
    let scale = r.iter().fold(0f32, |m, v| m.max(v.abs()));
    let (mut err, mut at) = (0f32, 0);
    for (i, (a, b)) in r.iter().zip(s).enumerate() {
        let d = (a - b).abs();
        if d > err || d.is_nan() {
            (err, at) = (if d.is_nan() { f32::INFINITY } else { d }, i);
        }
    }
    let ratio = if scale > 0.0 { err / scale } else { err };
    assert!(
        ratio <= c.tol,
        "{what}: max |sim − ref| = {err:.4e} at flat index {at} (ref {}, sim {}) is {ratio:.2e} of max |ref| {scale:.4e} (tolerance {:.0e}); first values ref {:?} sim {:?}",
        r[at],
        s[at],
        c.tol,
        &r[..r.len().min(6)],
        &s[..s.len().min(6)]
    );
    if c.classifier {
        let am = |v: &[f32]| {
            v.iter()
                .enumerate()
                .fold(0, |b, (i, &x)| if x > v[b] { i } else { b })
        };
        let (ra, sa) = (am(r), am(s));
        assert!(
            ra == sa || (r[ra] - r[sa]).abs() <= err,
            "{what}: argmax {sa} in the simulator, {ra} in the reference ({} vs {})",
            r[ra],
            r[sa]
        );
    }
    ratio
}
