//! Emitter tests at real sizes: the nine ONNX light model-zoo nets
//! (legalize → lower → plan → emit → verify) on nv_full, the INT8
//! configurations on the nets that lower there, and hand-built programs
//! whose convolutions do not fit the convolution buffer (row bands), wide
//! poolings (PDP `split_num`), bindable views and per-point weights.
//!
//! In: the light nets from the installed `onnx` package (tools/bootstrap.sh
//! installs them) and programs built here. Out: assertions on
//! the loadables (both ABIs verify with no errors; band geometry; addresses);
//! with `--nocapture` the per-net table `tasks, DLA ops, EMU ops, bytes`.

mod common;

use std::path::Path;

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::emit::{emit, preflight, split_convs, Abi, EmitOptions};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions};
use onnc_nvdla::{Config, ConfigName, Program};
use onnc_nvdla_loadable::verify::VerifyOptions;
use onnc_nvdla_loadable::{verify_with, Loadable, Severity};

fn net_name(path: &Path) -> String {
    path.file_stem()
        .unwrap()
        .to_string_lossy()
        .replace("light_", "")
}

/// Legalize, lower and plan `path` for `config`; `None` when the net does not lower there.
fn planned(path: &Path, target: Target, config: ConfigName) -> Result<Program, String> {
    let g = onnc_onnx::load(path, &Default::default())
        .map_err(|e| format!("load: {e}"))?
        .graph;
    let g = legalize(g, target, &Options::default())
        .map_err(|e| format!("legalize: {e}"))?
        .graph;
    let mut p = lower(&g, config, &LowerOptions::default()).map_err(|e| format!("lower: {e}"))?;
    split_convs(&mut p).map_err(|e| format!("split: {e}"))?;
    plan(&mut p, &PlanOptions::default()).map_err(|e| format!("plan: {e}"))?;
    Ok(p)
}

/// Error-severity violations of `l` under `abi` (atom of `config`).
fn errors(l: &Loadable, abi: Abi, config: ConfigName) -> Vec<String> {
    let opts = VerifyOptions {
        abi,
        atom_size: Config::get(config).mem_atom_bytes as u32,
    };
    verify_with(l, &opts)
        .into_iter()
        .filter(|v| v.severity == Severity::Error)
        .map(|v| v.to_string())
        .collect()
}

/// Emits `p` in both ABIs, re-reads the bytes, verifies; returns
/// `(tasks, dla ops, emu ops, bytes of the current-ABI loadable)`.
fn emit_and_verify(name: &str, p: &Program) -> (usize, usize, usize, usize) {
    let mut row = (0, 0, 0, 0);
    for abi in [Abi::Current, Abi::Legacy] {
        let l =
            emit(p, &EmitOptions { abi }).unwrap_or_else(|e| panic!("{name} ({abi:?}): emit: {e}"));
        let bytes = l.write();
        let back =
            Loadable::read(&bytes).unwrap_or_else(|e| panic!("{name} ({abi:?}): read back: {e}"));
        let errs = errors(&back, abi, p.config);
        assert!(
            errs.is_empty(),
            "{name} ({abi:?}): {} verifier errors, first: {:?}",
            errs.len(),
            &errs[..errs.len().min(5)]
        );
        if abi == Abi::Current {
            let (dla, emu) = op_counts(&back);
            row = (back.task_list.len(), dla, emu, bytes.len());
        }
    }
    row
}

/// DLA and EMU op counts, decoded from the task descriptors.
fn op_counts(l: &Loadable) -> (usize, usize) {
    use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
    let (mut dla, mut emu) = (0, 0);
    for t in &l.task_list {
        match task_descs(l, t, Abi::Current) {
            TaskDescs::Dla(d) => dla += d.ops.value.as_ref().map_or(0, Vec::len),
            TaskDescs::Emu(d) => emu += d.ops.value.as_ref().map_or(0, Vec::len),
            TaskDescs::Other(_) => {}
        }
    }
    (dla, emu)
}

#[test]
fn the_nine_light_nets_emit_and_verify_on_nv_full() {
    let paths = common::zoo_paths();
    println!(
        "{:<14} {:>6} {:>8} {:>8} {:>12}",
        "net (nv_full)", "tasks", "DLA ops", "EMU ops", "bytes"
    );
    let mut failures = Vec::new();
    for path in paths {
        let name = net_name(&path);
        let p = planned(&path, Target::NvFull, ConfigName::NvFull)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match std::panic::catch_unwind(|| emit_and_verify(&name, &p)) {
            Ok((tasks, dla, emu, bytes)) => {
                println!("{name:<14} {tasks:>6} {dla:>8} {emu:>8} {bytes:>12}")
            }
            Err(e) => failures.push(e.downcast_ref::<String>().cloned().unwrap_or_default()),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// nv_large and nv_small (INT8): every net that legalizes, lowers and plans
/// there must emit and verify (VGG-19's and ZFNet-512's fully connected
/// layers on nv_small included: the legalizer cuts their input channels into
/// parts that fit whole CBUF banks); the others are listed with the reason.
#[test]
fn the_light_nets_that_lower_for_int8_emit_and_verify() {
    let paths = common::zoo_paths();
    let mut emitted = Vec::new();
    for (target, config) in [
        (Target::NvLarge, ConfigName::NvLarge),
        (Target::NvSmall, ConfigName::NvSmall),
    ] {
        println!(
            "{:<14} {:>6} {:>8} {:>8} {:>12}  ({})",
            "net",
            "tasks",
            "DLA ops",
            "EMU ops",
            "bytes",
            config.as_str()
        );
        for path in &paths {
            let name = net_name(path);
            match planned(path, target, config) {
                Ok(p) => {
                    let (tasks, dla, emu, bytes) =
                        emit_and_verify(&format!("{name} {}", config.as_str()), &p);
                    println!("{name:<14} {tasks:>6} {dla:>8} {emu:>8} {bytes:>12}");
                    emitted.push(format!("{name} {}", config.as_str()));
                }
                Err(e) => println!(
                    "{name:<14} not lowered: {}",
                    e.chars().take(150).collect::<String>()
                ),
            }
        }
    }
    println!("{} INT8 loadables", emitted.len());
    assert!(emitted.len() >= 7, "most light nets emit for nv_large");
    for net in ["vgg19 nv_small", "zfnet512 nv_small"] {
        assert!(emitted.iter().any(|e| e == net), "{net}: {emitted:?}");
    }
}

// ---------- hand-built programs, planned by the planner ----------

use std::collections::BTreeMap;

use onnc_nvdla::{Engine, Op, Precision, Tensor, TensorId, TensorKind, Value};
use onnc_nvdla_loadable::desc::{OpDesc, SurfaceDesc};
use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};

struct B {
    p: Program,
}

fn i(v: i64) -> Value {
    Value::Int(v)
}
fn s(v: &str) -> Value {
    Value::Str(v.into())
}

impl B {
    fn new() -> B {
        B {
            p: Program::new(ConfigName::NvFull),
        }
    }
    fn tensor(&mut self, name: &str, shape: &[usize], kind: TensorKind) -> TensorId {
        self.p.add_tensor(Tensor {
            name: name.into(),
            shape: shape.to_vec(),
            precision: Precision::Fp16,
            kind,
            place: None,
        })
    }
    fn input(&mut self, name: &str, shape: &[usize]) -> TensorId {
        self.p.add_input(name, shape, Precision::Fp16)
    }
    fn output(&mut self, name: &str, shape: &[usize]) -> TensorId {
        self.p.add_output(name, shape, Precision::Fp16)
    }
    fn weight(&mut self, name: &str, shape: &[usize]) -> TensorId {
        let n: usize = shape.iter().product();
        self.tensor(
            name,
            shape,
            TensorKind::Weight(onnc_nvdla::Weights::from(
                (0..n)
                    .map(|k| (k % 7) as f32 / 8.0 - 0.375)
                    .collect::<Vec<f32>>(),
            )),
        )
    }
    fn op(
        &mut self,
        engine: Engine,
        layer: &str,
        inputs: &[Option<TensorId>],
        output: TensorId,
        attrs: Vec<(String, Value)>,
    ) {
        self.p.ops.push(Op {
            engine,
            hw_layer: layer.into(),
            attrs: attrs.into_iter().collect::<BTreeMap<_, _>>(),
            inputs: inputs.to_vec(),
            output,
            onnx_nodes: vec![layer.into()],
        });
    }
    /// conv `x` (k kernels r×r, stride, pad) → fused → SDP (bias, optional per-point x2 add of `skip`) → `y`.
    #[allow(clippy::too_many_arguments)]
    fn conv_sdp(
        &mut self,
        layer: &str,
        x: TensorId,
        k: usize,
        r: usize,
        stride: i64,
        pad: i64,
        skip: Option<TensorId>,
        y: TensorId,
    ) {
        let c = self.p.tensors[x].shape[1];
        let out = self.p.tensors[y].shape.clone();
        let w = self.weight(&format!("{layer}.w"), &[k, c, r, r]);
        let acc = self.tensor(&format!("{layer}.acc"), &out, TensorKind::Fused);
        let mut a: Vec<(String, Value)> = vec![
            ("conv_mode".into(), s("direct")),
            ("data_format".into(), s("feature")),
            ("in_precision".into(), s("fp16")),
            ("out_precision".into(), s("fp16")),
        ];
        for key in ["conv_stride_x", "conv_stride_y"] {
            a.push((key.into(), i(stride)));
        }
        for key in ["dilation_x", "dilation_y", "in_cvt.scale"] {
            a.push((key.into(), i(1)));
        }
        for key in ["pad_x_left", "pad_x_right", "pad_y_top", "pad_y_bottom"] {
            a.push((key.into(), i(pad)));
        }
        for key in [
            "pad_val",
            "in_cvt.enable",
            "in_cvt.truncate",
            "in_cvt.offset",
            "mean_ry",
            "mean_gu",
            "mean_bv",
            "mean_ax",
            "mean_format",
            "out_cvt.truncate",
        ] {
            a.push((key.into(), i(0)));
        }
        self.op(Engine::Conv, layer, &[Some(x), Some(w)], acc, a);
        let bias = self.weight(&format!("{layer}.b"), &[1, k, 1, 1]);
        let mut a: Vec<(String, Value)> = vec![
            ("src_precision".into(), s("fp16")),
            ("dst_precision".into(), s("fp16")),
            ("lut_index".into(), i(-1)),
            ("out_cvt.offset".into(), i(0)),
            ("out_cvt.scale".into(), i(1)),
            ("out_cvt.truncate".into(), i(0)),
        ];
        let mut unit = |u: &str, on: bool, ty: &str, mode: &str| {
            for (f, v) in [
                ("enable", i(on as i64)),
                ("alu_type", s("sum")),
                ("type", s(ty)),
                ("mode", s(mode)),
                ("act", s("none")),
                ("shift_value", i(0)),
                ("truncate", i(0)),
                ("precision", s("fp16")),
                ("alu_operand", i(0)),
                ("mul_operand", i(1)),
            ] {
                a.push((format!("{u}.{f}"), v));
            }
        };
        unit("x1_op", true, "add", "per_kernel");
        match skip {
            Some(_) => unit("x2_op", true, "add", "per_point"),
            None => unit("x2_op", false, "none", "per_layer"),
        }
        unit("y_op", false, "none", "per_layer");
        for cv in ["alu_cvt", "mul_cvt"] {
            for (f, v) in [("enable", 0), ("offset", 0), ("scale", 1), ("truncate", 0)] {
                a.push((format!("y_op.cvt.{cv}.{f}"), i(v)));
            }
        }
        self.op(
            Engine::Sdp,
            layer,
            &[Some(acc), Some(bias), skip, None],
            y,
            a,
        );
    }
    fn emit(mut self) -> (Program, Loadable) {
        split_convs(&mut self.p).unwrap();
        plan(&mut self.p, &PlanOptions::default()).unwrap();
        for abi in [Abi::Current, Abi::Legacy] {
            let l = emit(&self.p, &EmitOptions { abi }).unwrap();
            let back = Loadable::read(&l.write()).unwrap();
            let errs = errors(&back, abi, self.p.config);
            assert!(errs.is_empty(), "{abi:?}: {errs:?}");
        }
        let l = emit(&self.p, &EmitOptions::default()).unwrap();
        (self.p, l)
    }
}

/// The DLA descriptors of task 0: (op, surface) pairs.
fn descs(l: &Loadable) -> Vec<(OpDesc, SurfaceDesc)> {
    let TaskDescs::Dla(d) = task_descs(l, &l.task_list[0], Abi::Current) else {
        panic!("task 0 is not DLA")
    };
    let ops = d.ops.value.unwrap();
    let surfs = d.surfaces.value.unwrap();
    ops.into_iter()
        .zip(surfs)
        .map(|(o, s)| (o.desc, s.desc))
        .collect()
}

/// Byte offset of a cube's address entry inside its memory.
fn at(l: &Loadable, address: i16) -> u64 {
    l.address_list[address as usize].offset
}

#[test]
fn a_conv_too_big_for_the_cbuf_is_emitted_in_row_bands_with_its_sdp() {
    let mut b = B::new();
    let x = b.input("x", &[1, 3, 224, 224]);
    let skip = b.input("skip", &[1, 64, 112, 112]);
    let y = b.output("y", &[1, 64, 112, 112]);
    b.conv_sdp("stem", x, 64, 7, 2, 3, Some(skip), y);
    let (p, l) = b.emit();
    let d = descs(&l);
    let n = d.len() / 2;
    assert_eq!(
        n, 4,
        "49 banks of input: 15 data banks = 68 lines = 31 output rows per band"
    );
    let (x_line, y_line) = (
        p.tensors[x].place.unwrap().line_stride as u64,
        p.tensors[y].place.unwrap().line_stride as u64,
    );
    let skip_line = p.tensors[skip].place.unwrap().line_stride as u64;
    let mut out_rows = 0u64;
    for band in 0..n {
        let (OpDesc::Conv(c), SurfaceDesc::Conv(cs)) = &d[2 * band] else {
            panic!("job {} is not a conv", 2 * band)
        };
        let (OpDesc::Sdp(_), SurfaceDesc::Sdp(ss)) = &d[2 * band + 1] else {
            panic!("job {} is not an sdp", 2 * band + 1)
        };
        let rows = c.input_height_cmac as u64;
        // Receptive field: input lines read = the band's output rows at stride 2 through 7 taps, minus the pads.
        assert_eq!(
            c.input_height_csc as u64 + c.pad_y_top as u64 + c.pad_y_bottom as u64,
            (rows - 1) * 2 + 7,
            "band {band}"
        );
        assert_eq!(c.release, c.input_height_csc);
        assert_eq!(c.pad_y_top > 0, band == 0);
        assert_eq!(c.pad_y_bottom > 0, band + 1 == n);
        assert_eq!(u32::from(c.data_bank) + u32::from(c.weight_bank), 16);
        let in_top = (out_rows * 2).saturating_sub(3);
        assert_eq!(
            at(&l, cs.src_data.address),
            in_top * x_line,
            "band {band} input address"
        );
        assert_eq!(cs.src_data.height, c.input_height_csc);
        assert_eq!(cs.dst_data.height as u64, rows);
        assert_eq!(ss.src_data.height as u64, rows);
        assert_eq!(
            at(&l, ss.dst_data.address),
            out_rows * y_line,
            "band {band} output address"
        );
        assert_eq!(ss.dst_data.height as u64, rows);
        assert_eq!(
            at(&l, ss.x2_data.address),
            out_rows * skip_line,
            "band {band} eltwise operand rows"
        );
        assert_eq!(ss.x2_data.height as u64, rows);
        assert_eq!(
            (c.weight_reuse != 0, c.skip_weight_rls != 0),
            (band > 0, band + 1 < n),
            "weights stay for the next band"
        );
        out_rows += rows;
    }
    assert_eq!(out_rows, 112);
}

#[test]
fn a_conv_that_fits_is_one_descriptor_pair_over_the_whole_input() {
    let mut b = B::new();
    let x = b.input("x", &[1, 16, 28, 28]);
    let y = b.output("y", &[1, 32, 14, 14]);
    b.conv_sdp("c", x, 32, 1, 2, 0, None, y);
    let (_, l) = b.emit();
    let d = descs(&l);
    assert_eq!(d.len(), 2);
    let (OpDesc::Conv(c), _) = &d[0] else {
        panic!()
    };
    assert_eq!(
        (c.input_height_csc, c.release, c.input_height_cmac),
        (28, 28, 14)
    );
}

#[test]
fn members_of_an_output_concat_are_addressed_inside_the_bindable_buffer() {
    let mut b = B::new();
    let x = b.input("x", &[1, 16, 8, 8]);
    let a = b.tensor("a", &[1, 16, 8, 8], TensorKind::Activation);
    let m = b.tensor("m", &[1, 16, 8, 8], TensorKind::Activation);
    let y = b.output("y", &[1, 32, 8, 8]);
    b.conv_sdp("ca", x, 16, 1, 1, 0, None, a);
    b.conv_sdp("cm", x, 16, 1, 1, 0, None, m);
    b.op(
        Engine::Concat,
        "cat",
        &[Some(a), Some(m)],
        y,
        vec![("axis".into(), i(1))],
    );
    let (p, l) = b.emit();
    let d = descs(&l);
    let dst = |k: usize| match &d[k].1 {
        SurfaceDesc::Sdp(s) => s.dst_data.address,
        _ => panic!("job {k} is not an sdp"),
    };
    let (ea, em) = (
        &l.address_list[dst(1) as usize],
        &l.address_list[dst(3) as usize],
    );
    let out_mem = l
        .memory_list
        .iter()
        .find(|e| {
            e.flags
                .contains(onnc_nvdla_loadable::enums::MemoryFlags::OUTPUT)
        })
        .unwrap();
    assert_eq!(
        (ea.mem_id, em.mem_id),
        (out_mem.id, out_mem.id),
        "both members live in the output's buffer"
    );
    assert_eq!(ea.offset, p.tensors[a].place.unwrap().offset);
    assert_eq!(em.offset, p.tensors[m].place.unwrap().offset);
    assert!(em.offset > 0 && em.offset + em.size <= out_mem.size);
    // The member cubes are relocated like the output itself.
    assert!(l.reloc_list.iter().any(|r| r.address_id == dst(3) as u16));
}

#[test]
fn a_pooling_wider_than_the_line_buffer_is_striped() {
    let mut b = B::new();
    let x = b.input("x", &[1, 16, 4, 301]);
    let y = b.output("y", &[1, 16, 1, 150]);
    let mut a: Vec<(String, Value)> = vec![
        ("pool_mode".into(), s("max")),
        ("precision".into(), s("fp16")),
    ];
    for (k, v) in [
        ("pool_width", 3),
        ("pool_height", 3),
        ("stride_x", 2),
        ("stride_y", 2),
        ("pad_left", 0),
        ("pad_right", 0),
        ("pad_top", 0),
        ("pad_bottom", 0),
    ] {
        a.push((k.into(), i(v)));
    }
    b.op(Engine::Pdp, "pool", &[Some(x)], y, a);
    let (_, l) = b.emit();
    let (OpDesc::Pdp(pd), _) = &descs(&l)[0] else {
        panic!()
    };
    assert_eq!(
        (
            pd.split_num,
            pd.partial_width_first,
            pd.partial_width_mid,
            pd.partial_width_last
        ),
        (3, 64, 64, 22)
    );
    assert_eq!(
        pd.partial_in_width_first + pd.partial_in_width_mid + pd.partial_in_width_last,
        301
    );
}

#[test]
fn per_point_weights_use_the_planned_cube_strides_and_are_banded_with_their_conv() {
    let mut b = B::new();
    let x = b.input("x", &[1, 3, 224, 224]);
    let pw = b.weight("pw", &[1, 20, 112, 112]);
    let y = b.output("y", &[1, 20, 112, 112]);
    b.conv_sdp("stem", x, 20, 7, 2, 3, Some(pw), y);
    let (p, l) = b.emit();
    let pl = p.tensors[pw].place.unwrap();
    let (line, surf) = (pl.line_stride as usize, pl.surf_stride as usize);
    assert_eq!(
        (line, surf),
        (112 * 32, 112 * 112 * 32),
        "the planner's cube strides"
    );
    // Element (c=17, y=3, x=5): surface 1, channel 1 of its atom.
    let blob = l
        .blobs
        .iter()
        .find(|bl| bl.name == format!("tb-{pw}"))
        .expect("the per-point weight blob");
    let TensorKind::Weight(v) = &p.tensors[pw].kind else {
        panic!()
    };
    let v = v.values();
    let want = half::f16::from_f32(v[(17 * 112 + 3) * 112 + 5]).to_le_bytes();
    let pos = surf + 3 * line + 5 * 32 + 2;
    assert_eq!(&blob.data[pos..pos + 2], &want);
    assert_eq!(blob.data.len(), surf + 112 * line);
    let d = descs(&l);
    let mut top = 0u64;
    for band in 0..d.len() / 2 {
        let SurfaceDesc::Sdp(ss) = &d[2 * band + 1].1 else {
            panic!()
        };
        assert_eq!(ss.x2_data.line_stride as usize, line);
        assert_eq!(ss.x2_data.surf_stride as usize, surf);
        assert_eq!(
            at(&l, ss.x2_data.address),
            pl.offset + top * line as u64,
            "band {band}"
        );
        top += ss.x2_data.height as u64;
    }
    assert_eq!(top, 112);
}

/// A merged depthwise conv (block-diagonal weights, as lowering's regroup
/// makes them) whose kernel group needs more than the CBUF is emitted as
/// one conv+SDP pair per channel chunk: each conv reads its chunk's input
/// surfaces and its own block of weights, each SDP reads its kernels' bias
/// and the residual operand's surfaces and writes its output surfaces.
#[test]
fn a_merged_depthwise_conv_is_emitted_in_channel_chunks() {
    let mut b = B::new();
    let (c, hw) = (640, 7);
    let x = b.input("x", &[1, c, hw, hw]);
    let skip = b.input("skip", &[1, c, hw, hw]);
    let y = b.output("y", &[1, c, hw, hw]);
    b.conv_sdp("dw", x, c, 5, 1, 2, Some(skip), y);
    let w = b.p.tensors.iter().position(|t| t.name == "dw.w").unwrap();
    let bias = b.p.tensors.iter().position(|t| t.name == "dw.b").unwrap();
    let mut v = vec![0f32; c * c * 25];
    for k in 0..c {
        for i in 0..25 {
            v[(k * c + k) * 25 + i] = 0.125 * ((k + i) % 5) as f32 + 0.125;
        }
    }
    b.p.tensors[w].kind = TensorKind::Weight(onnc_nvdla::Weights::from(v));
    let (p, l) = b.emit();
    preflight(&p).expect("what emits passes preflight");
    let surf = |t: TensorId| p.tensors[t].place.unwrap().surf_stride as u64;
    let (w_at, b_at) = (
        p.tensors[w].place.unwrap().offset,
        p.tensors[bias].place.unwrap().offset,
    );
    let d = descs(&l);
    let n = d.len() / 2;
    assert!(n > 1, "{n} pairs");
    let (mut k0, mut w_off) = (0u64, 0u64);
    for pair in 0..n {
        let (OpDesc::Conv(cv), SurfaceDesc::Conv(cs)) = &d[2 * pair] else {
            panic!("job {} is not a conv", 2 * pair)
        };
        let (OpDesc::Sdp(_), SurfaceDesc::Sdp(ss)) = &d[2 * pair + 1] else {
            panic!("job {} is not an sdp", 2 * pair + 1)
        };
        let k = cs.dst_data.channel as u64;
        assert_eq!(k0 % 16, 0, "chunk {pair} starts a surface");
        // Depthwise: the chunk's kernels read exactly its own channels.
        assert_eq!(cs.src_data.channel as u64, k, "chunk {pair}");
        assert_eq!(cv.input_channel_csc, cs.src_data.channel);
        assert_eq!(cv.kernel_channel_csc, cs.src_data.channel);
        assert_eq!(cv.bytes_per_kernel as u64, k * 25 * 2);
        assert!(u32::from(cv.data_bank) + u32::from(cv.weight_bank) <= 16);
        assert_eq!(
            at(&l, cs.src_data.address),
            k0 / 16 * surf(x),
            "input {pair}"
        );
        assert_eq!(
            at(&l, cs.weight_data.address),
            w_at + w_off,
            "weights {pair}"
        );
        assert_eq!(
            cs.weight_data.size as u64,
            (k * k * 25 * 2).div_ceil(128) * 128
        );
        assert_eq!(ss.src_data.channel as u64, k);
        assert_eq!(at(&l, ss.x1_data.address), b_at + k0 * 2, "bias {pair}");
        assert_eq!(ss.x1_data.channel as u64, k);
        assert_eq!(
            at(&l, ss.x2_data.address),
            k0 / 16 * surf(skip),
            "residual {pair}"
        );
        assert_eq!(ss.x2_data.channel as u64, k);
        assert_eq!(
            at(&l, ss.dst_data.address),
            k0 / 16 * surf(y),
            "output {pair}"
        );
        assert_eq!(ss.dst_data.channel as u64, k);
        k0 += k;
        w_off += u64::from(cs.weight_data.size);
    }
    assert_eq!(k0, c as u64, "the chunks cover every channel once");
    // The weight blob holds the chunks' blocks only: far less than the
    // merged [640, 640, 5, 5] weight.
    assert!(w_off * 16 < (c * c * 25 * 2) as u64, "{w_off} bytes");
}

/// A depthwise conv as the program holds it natively (weight `[C, 1, R, R]`
/// and `group = C`) emits the same loadable, byte for byte, as its dense
/// block-diagonal form `[C, C, R, R]`: in channel chunks (640 channels,
/// 5×5, too big for the CBUF whole) and whole (16 channels, one atom).
#[test]
fn a_grouped_conv_emits_the_bytes_of_its_dense_block_diagonal_form() {
    for (c, r) in [(640, 5), (16, 3)] {
        let build = |grouped: bool| {
            let mut b = B::new();
            let hw = 7;
            let x = b.input("x", &[1, c, hw, hw]);
            let y = b.output("y", &[1, c, hw, hw]);
            b.conv_sdp("dw", x, c, r, 1, (r / 2) as i64, None, y);
            let w = b.p.tensors.iter().position(|t| t.name == "dw.w").unwrap();
            let rs = r * r;
            let tap = |k: usize, i: usize| 0.125 * ((k + i) % 5) as f32 - 0.25;
            let (shape, v) = if grouped {
                let v: Vec<f32> = (0..c * rs).map(|j| tap(j / rs, j % rs)).collect();
                (vec![c, 1, r, r], v)
            } else {
                let mut v = vec![0f32; c * c * rs];
                for k in 0..c {
                    for i in 0..rs {
                        v[(k * c + k) * rs + i] = tap(k, i);
                    }
                }
                (vec![c, c, r, r], v)
            };
            b.p.tensors[w].shape = shape;
            b.p.tensors[w].kind = TensorKind::Weight(onnc_nvdla::Weights::from(v));
            if grouped {
                let conv =
                    b.p.ops
                        .iter_mut()
                        .find(|o| o.engine == Engine::Conv)
                        .unwrap();
                conv.attrs.insert("group".into(), Value::Int(c as i64));
            }
            let (p, l) = b.emit();
            (p.tensors[w].place.unwrap().size, l.write())
        };
        let (dense_size, dense) = build(false);
        let (grouped_size, grouped) = build(true);
        assert_eq!(grouped_size, dense_size, "{c}: planned weight bytes");
        assert!(grouped == dense, "{c}: the loadables differ");
    }
}

/// A dense conv whose one kernel group exceeds the CBUF cannot be cut into
/// channel chunks: emission refuses it naming the conv, and the preflight
/// check (what `--emit mlir` runs) refuses it with the same error.
#[test]
fn a_dense_conv_too_big_for_the_cbuf_is_refused_by_emit_and_preflight_alike() {
    let mut b = B::new();
    let x = b.input("x", &[1, 1024, 7, 7]);
    let y = b.output("y", &[1, 64, 7, 7]);
    b.conv_sdp("dense", x, 64, 5, 1, 2, None, y);
    plan(&mut b.p, &PlanOptions::default()).unwrap();
    let e = emit(&b.p, &EmitOptions::default()).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("conv op 'dense'")
            && m.contains("one kernel group needs 25 CBUF banks")
            && m.contains("cannot be cut into independent channel chunks"),
        "{m}"
    );
    assert_eq!(preflight(&b.p).unwrap_err(), e);
}

/// `split_convs` (the `nvdla-split-conv` pass) records the stem's four
/// bands; emission refuses the same conv when they are not recorded,
/// naming the conv and the pass; a recorded plan is emitted band by band,
/// and one that does not fit the conv is refused.
#[test]
fn emission_reads_the_recorded_bands_and_refuses_a_conv_without_them() {
    let build = || {
        let mut b = B::new();
        let x = b.input("x", &[1, 3, 224, 224]);
        let y = b.output("y", &[1, 64, 112, 112]);
        b.conv_sdp("stem", x, 64, 7, 2, 3, None, y);
        b
    };
    let mut unsplit = build();
    plan(&mut unsplit.p, &PlanOptions::default()).unwrap();
    let m = emit(&unsplit.p, &EmitOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        m.contains("conv op 'stem'")
            && m.contains("4 row bands needed on nv_full")
            && m.contains("run nvdla-split-conv"),
        "{m}"
    );
    assert_eq!(preflight(&unsplit.p).unwrap_err().to_string(), m);

    let mut b = build();
    assert_eq!(split_convs(&mut b.p).unwrap(), 1);
    let rec = &b.p.cbuf["stem"];
    let rows: Vec<usize> = rec.bands.iter().map(|b| b.out_rows).collect();
    assert_eq!(rows, [31, 31, 31, 19]);
    assert_eq!((rec.data_bank, rec.weight_bank), (15, 1));
    assert_eq!(split_convs(&mut b.p).unwrap(), 1, "idempotent");
    let (p, l) = b.emit();
    let convs: Vec<u16> = descs(&l)
        .iter()
        .filter_map(|(o, _)| match o {
            OpDesc::Conv(c) => Some(c.input_height_cmac),
            _ => None,
        })
        .collect();
    assert_eq!(convs, [31, 31, 31, 19]);
    // A recorded plan that does not fit the conv is refused, not emitted.
    let mut bent = p.clone();
    bent.cbuf.get_mut("stem").unwrap().bands[1].out_rows = 30;
    let m = emit(&bent, &EmitOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        m.contains("conv op 'stem'") && m.contains("recorded CBUF plan") && m.contains("band 1"),
        "{m}"
    );
}
