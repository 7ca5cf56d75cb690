//! Emitter tests: hand-placed programs → loadable → bytes → read back →
//! verified clean (both ABIs), with the structure of NVIDIA's NN_L0_0 (LeNet).
//!
//! In: programs built here with placements set by hand (packed fp16 feature
//! cubes, no reuse). Out: assertions on tasks, events, bind ids, dependency
//! graphs, weights and determinism.

use std::collections::BTreeMap;

use onnc_nvdla::emit::{emit, emit_bytes_counted, emit_bytes_packing, Abi, EmitOptions};
use onnc_nvdla::Error;
use onnc_nvdla::{
    ConfigName, Engine, Op, Placement, Pool, Precision, Program, Tensor, TensorKind, Value,
};
use onnc_nvdla_loadable::desc::container::op_type;
use onnc_nvdla_loadable::enums::{Interface, MemoryFlags};
use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
use onnc_nvdla_loadable::{verify, Loadable, Severity};

const FP16: Precision = Precision::Fp16;

struct B {
    p: Program,
    act: u64,
    wts: u64,
}

fn round(n: u64, m: u64) -> u64 {
    n.div_ceil(m) * m
}

impl B {
    fn new() -> B {
        B {
            p: Program::new(ConfigName::NvFull),
            act: 0,
            wts: 0,
        }
    }
    fn feature(&mut self, name: &str, shape: [usize; 4], kind: TensorKind) -> usize {
        let [_, c, h, w] = shape.map(|x| x as u64);
        let line = w * 32;
        let surf = line * h;
        let size = surf * c.div_ceil(16);
        let pool = match kind {
            TensorKind::Input(_) | TensorKind::Output(_) => Pool::Bind,
            _ => Pool::Activations,
        };
        let offset = if pool == Pool::Bind {
            0
        } else {
            let o = self.act;
            self.act = round(o + size, 256);
            o
        };
        let place = (!matches!(kind, TensorKind::Fused)).then_some(Placement {
            pool: Some(pool),
            offset,
            size,
            line_stride: line as u32,
            surf_stride: surf as u32,
        });
        self.p.add_tensor(Tensor {
            name: name.into(),
            shape: shape.to_vec(),
            precision: FP16,
            kind,
            place,
        })
    }
    fn weight(&mut self, name: &str, shape: Vec<usize>, bytes: u64) -> usize {
        let n: usize = shape.iter().product();
        let values: Vec<f32> = (0..n).map(|i| ((i % 17) as f32 - 8.0) / 8.0).collect();
        let size = round(bytes, 128);
        let offset = self.wts;
        self.wts = round(offset + size, 256);
        self.p.add_tensor(Tensor {
            name: name.into(),
            shape,
            precision: FP16,
            kind: TensorKind::Weight(onnc_nvdla::Weights::from(values)),
            place: Some(Placement {
                pool: Some(Pool::Weights),
                offset,
                size,
                line_stride: 0,
                surf_stride: 0,
            }),
        })
    }
    fn op(
        &mut self,
        engine: Engine,
        layer: &str,
        attrs: Vec<(&str, Value)>,
        inputs: Vec<Option<usize>>,
        output: usize,
    ) {
        self.p.ops.push(Op {
            engine,
            hw_layer: layer.into(),
            attrs: attrs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<BTreeMap<_, _>>(),
            inputs,
            output,
            onnx_nodes: vec![layer.into()],
        });
    }
}

fn i(v: i64) -> Value {
    Value::Int(v)
}
fn s(v: &str) -> Value {
    Value::Str(v.into())
}
fn f(v: f64) -> Value {
    Value::Float(v)
}

fn conv_attrs() -> Vec<(&'static str, Value)> {
    let mut a = vec![
        ("conv_mode", s("direct")),
        ("data_format", s("feature")),
        ("in_precision", s("fp16")),
        ("out_precision", s("fp16")),
    ];
    for k in [
        "conv_stride_x",
        "conv_stride_y",
        "dilation_x",
        "dilation_y",
        "in_cvt.scale",
    ] {
        a.push((k, i(1)));
    }
    for k in [
        "pad_x_left",
        "pad_x_right",
        "pad_y_top",
        "pad_y_bottom",
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
        a.push((k, i(0)));
    }
    a
}

fn unit(
    a: &mut Vec<(&'static str, Value)>,
    u: &'static str,
    on: bool,
    ty: &str,
    mode: &str,
    act: &str,
) {
    let k = |x: &str| -> &'static str { Box::leak(format!("{u}.{x}").into_boxed_str()) };
    a.extend([
        (k("enable"), i(on as i64)),
        (k("alu_type"), s("sum")),
        (k("type"), s(ty)),
        (k("mode"), s(mode)),
        (k("act"), s(act)),
        (k("shift_value"), i(0)),
        (k("truncate"), i(0)),
        (k("precision"), s("fp16")),
        (k("alu_operand"), i(0)),
        (k("mul_operand"), i(1)),
    ]);
}

fn sdp_attrs(bias: bool, relu: bool) -> Vec<(&'static str, Value)> {
    let mut a = vec![
        ("src_precision", s("fp16")),
        ("dst_precision", s("fp16")),
        ("lut_index", i(-1)),
        ("out_cvt.offset", i(0)),
        ("out_cvt.scale", i(1)),
        ("out_cvt.truncate", i(0)),
    ];
    unit(
        &mut a,
        "x1_op",
        true,
        if bias { "add" } else { "none" },
        if bias { "per_kernel" } else { "per_layer" },
        if relu { "relu" } else { "none" },
    );
    unit(&mut a, "x2_op", false, "none", "per_layer", "none");
    unit(&mut a, "y_op", false, "none", "per_layer", "none");
    for c in ["alu_cvt", "mul_cvt"] {
        for (x, v) in [("enable", 0), ("offset", 0), ("scale", 1), ("truncate", 0)] {
            a.push((
                Box::leak(format!("y_op.cvt.{c}.{x}").into_boxed_str()),
                i(v),
            ));
        }
    }
    a
}

fn pdp_attrs() -> Vec<(&'static str, Value)> {
    let mut a = vec![("precision", s("fp16")), ("pool_mode", s("max"))];
    for k in ["pool_width", "pool_height", "stride_x", "stride_y"] {
        a.push((k, i(2)));
    }
    for k in ["pad_left", "pad_right", "pad_top", "pad_bottom"] {
        a.push((k, i(0)));
    }
    a
}

fn emu_attrs(op: &str) -> Vec<(&'static str, Value)> {
    let mut a = vec![
        ("op_type", s(op)),
        ("precision", s("fp16")),
        ("input_scale_factor", f(1.0)),
        ("output_scale_factor", f(1.0)),
    ];
    if op == "softmax" {
        a.push(("axis", i(1)));
    } else {
        a.extend([("power", f(1.0)), ("scale", f(1.0)), ("shift", f(0.0))]);
    }
    a
}

/// conv (k kernels r×r) + bias SDP; returns the SDP output.
fn conv_sdp(
    b: &mut B,
    name: &str,
    x: usize,
    k: usize,
    r: usize,
    out_hw: usize,
    kind: TensorKind,
) -> usize {
    let c = b.p.tensors[x].shape[1];
    let w = b.weight(
        &format!("{name}_w"),
        vec![k, c, r, r],
        (k * c * r * r * 2) as u64,
    );
    let bias = b.weight(&format!("{name}_b"), vec![1, k, 1, 1], (k * 2) as u64);
    let acc = b.feature(
        &format!("{name}_acc"),
        [1, k, out_hw, out_hw],
        TensorKind::Fused,
    );
    let y = b.feature(&format!("{name}_y"), [1, k, out_hw, out_hw], kind);
    b.op(
        Engine::Conv,
        name,
        conv_attrs(),
        vec![Some(x), Some(w)],
        acc,
    );
    b.op(
        Engine::Sdp,
        name,
        sdp_attrs(true, false),
        vec![Some(acc), Some(bias), None, None],
        y,
    );
    y
}

/// The network of NVIDIA's NN_L0_0 (LeNet): EMU power → 11 DLA ops → EMU softmax.
fn lenet() -> Program {
    let mut b = B::new();
    let data = b.feature("data", [1, 1, 28, 28], TensorKind::Input(0));
    let scaled = b.feature("scaled", [1, 1, 28, 28], TensorKind::Activation);
    b.op(
        Engine::Emu,
        "scale",
        emu_attrs("power"),
        vec![Some(data)],
        scaled,
    );
    let c1 = conv_sdp(&mut b, "conv1", scaled, 20, 5, 24, TensorKind::Activation);
    let p1 = b.feature("pool1", [1, 20, 12, 12], TensorKind::Activation);
    b.op(Engine::Pdp, "pool1", pdp_attrs(), vec![Some(c1)], p1);
    let c2 = conv_sdp(&mut b, "conv2", p1, 50, 5, 8, TensorKind::Activation);
    let p2 = b.feature("pool2", [1, 50, 4, 4], TensorKind::Activation);
    b.op(Engine::Pdp, "pool2", pdp_attrs(), vec![Some(c2)], p2);
    let f1 = conv_sdp(&mut b, "ip1", p2, 500, 4, 1, TensorKind::Activation);
    let r1 = b.feature("relu1", [1, 500, 1, 1], TensorKind::Activation);
    b.op(
        Engine::Sdp,
        "relu1",
        sdp_attrs(false, true),
        vec![Some(f1), None, None, None],
        r1,
    );
    let f2 = conv_sdp(&mut b, "ip2", r1, 10, 1, 1, TensorKind::Activation);
    let prob = b.feature("prob", [1, 10, 1, 1], TensorKind::Output(0));
    b.op(
        Engine::Emu,
        "prob",
        emu_attrs("softmax"),
        vec![Some(f2)],
        prob,
    );
    b.p.inputs = vec![data];
    b.p.outputs = vec![prob];
    b.p
}

fn errors(l: &Loadable, abi: Abi) -> Vec<String> {
    verify(l, abi)
        .into_iter()
        .filter(|v| v.severity == Severity::Error)
        .map(|v| v.to_string())
        .collect()
}

fn emit_and_reread(p: &Program, abi: Abi) -> Loadable {
    let l = emit(p, &EmitOptions { abi }).unwrap();
    let back = Loadable::read(&l.write()).unwrap();
    assert_eq!(back.task_list, l.task_list);
    assert_eq!(back.blobs, l.blobs);
    back
}

/// Per task: interface, op types, (dependency_count, consumers, fused parent) per op.
type Summary = Vec<(Interface, Vec<(u8, u8, Vec<(i16, u8)>, i16)>)>;

fn summary(l: &Loadable, abi: Abi) -> Summary {
    l.task_list
        .iter()
        .map(|t| {
            let ops = match task_descs(l, t, abi) {
                TaskDescs::Dla(d) => d
                    .deps
                    .value
                    .unwrap()
                    .iter()
                    .map(|x| {
                        (
                            x.op_type,
                            x.dependency_count,
                            x.consumers.iter().map(|c| (c.index, c.event)).collect(),
                            x.fused_parent.index,
                        )
                    })
                    .collect(),
                _ => Vec::new(),
            };
            (t.interface, ops)
        })
        .collect()
}

fn golden() -> Option<Loadable> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../test/data/nvdla-golden/NN_L0_0_fbuf"
    );
    std::fs::read(path)
        .ok()
        .map(|b| Loadable::read(&b).unwrap())
}

#[test]
fn lenet_verifies_clean_in_both_abis_after_a_byte_round_trip() {
    let p = lenet();
    for abi in [Abi::Current, Abi::Legacy] {
        let l = emit_and_reread(&p, abi);
        assert_eq!(errors(&l, abi), Vec::<String>::new(), "{abi}");
        let atom32 = onnc_nvdla_loadable::verify_with(
            &l,
            &onnc_nvdla_loadable::VerifyOptions { abi, atom_size: 32 },
        );
        assert!(
            atom32.iter().all(|v| v.severity != Severity::Error),
            "{atom32:?}"
        );
    }
}

#[test]
fn lenet_has_the_dependency_structure_of_nvidias_nn_l0_0() {
    let Some(g) = golden() else {
        eprintln!("golden NN_L0_0_fbuf not found; skipped");
        return;
    };
    let ours = emit_and_reread(&lenet(), Abi::Legacy);
    assert_eq!(summary(&ours, Abi::Legacy), summary(&g, Abi::Legacy));
    assert_eq!(ours.event_list, g.event_list);
    assert_eq!(ours.submit_list, g.submit_list);
}

#[test]
fn tasks_events_and_bind_ids_are_chained() {
    let l = emit(&lenet(), &EmitOptions::default()).unwrap();
    let kinds: Vec<Interface> = l.task_list.iter().map(|t| t.interface).collect();
    assert_eq!(kinds, [Interface::EMU1, Interface::DLA1, Interface::EMU1]);
    assert_eq!(l.task_list[1].pre_actions, [1]);
    assert_eq!(l.event_list[1].val, 1);
    let binds: Vec<(MemoryFlags, u16, u16)> = l
        .memory_list
        .iter()
        .filter(|m| m.flags.contains(MemoryFlags::INPUT) || m.flags.contains(MemoryFlags::OUTPUT))
        .map(|m| (m.flags, m.bind_id, m.tensor_desc_id))
        .collect();
    assert_eq!(binds, [(MemoryFlags(5), 0, 0), (MemoryFlags(9), 0, 1)]);
    assert_eq!(l.tensor_desc_list[0].name, "data");
    assert_eq!(l.tensor_desc_list[0].strides[..3], [2, 896, 25088]);
    // the EMU tasks' bindable buffers carry line/surface relocations
    assert_eq!(l.reloc_list.len(), 4);
    let mut names: Vec<&str> = l.blobs.iter().map(|b| b.name.as_str()).collect();
    let sorted = {
        let mut s = names.clone();
        s.sort();
        s
    };
    assert_eq!(names, sorted);
    names.retain(|n| n.contains("dep_graph"));
    assert_eq!(names, ["task-1-dep_graph"]);
}

#[test]
fn weights_are_fp16_in_direct_convolution_order_at_their_planned_offsets() {
    let p = lenet();
    let l = emit(&p, &EmitOptions::default()).unwrap();
    let wmem = l
        .memory_list
        .iter()
        .find(|m| m.flags == MemoryFlags(3) && m.contents.iter().any(|c| c.starts_with("tb-")))
        .unwrap();
    let w1 = p.tensors.iter().position(|t| t.name == "conv1_w").unwrap();
    let k = wmem
        .contents
        .iter()
        .position(|c| *c == format!("tb-{w1}"))
        .unwrap();
    assert_eq!(wmem.offsets[k], p.tensors[w1].place.unwrap().offset);
    let blob = l
        .blobs
        .iter()
        .find(|b| b.name == format!("tb-{w1}"))
        .unwrap();
    assert_eq!(blob.data.len(), 1024); // 20·1·5·5·2 = 1000, rounded to 128
    let TensorKind::Weight(v) = &p.tensors[w1].kind else {
        panic!()
    };
    let v = v.values();
    // one group of 16 kernels, C=1: element (r=0, s=0) of kernels 0..16, then (0, 1)…
    let half = |x: f32| half::f16::from_f32(x).to_le_bytes();
    assert_eq!(blob.data[0..2], half(v[0]));
    assert_eq!(blob.data[2..4], half(v[25]));
    assert_eq!(blob.data[32..34], half(v[1]));
    // kernels 16..20 form the second group, after 16·25 elements
    assert_eq!(blob.data[800..802], half(v[16 * 25]));
    assert!(blob.data[1000..].iter().all(|&b| b == 0));
}

#[test]
fn output_is_byte_identical_across_runs() {
    let p = lenet();
    for abi in [Abi::Current, Abi::Legacy] {
        let a = emit(&p, &EmitOptions { abi }).unwrap().write();
        let b = emit(&p.clone(), &EmitOptions { abi }).unwrap().write();
        assert_eq!(a, b);
    }
}

/// The bytes path (container written with room for the weights, weights
/// packed into it in parallel) gives `emit().write()`'s bytes, whatever the
/// number of threads.
#[test]
fn weights_packed_into_the_output_give_the_same_bytes_on_any_thread_count() {
    let p = lenet();
    for abi in [Abi::Current, Abi::Legacy] {
        let opts = EmitOptions { abi };
        let model = emit(&p, &opts).unwrap().write();
        for threads in [1, 2, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (bytes, _) = pool.install(|| emit_bytes_counted(&p, &opts).unwrap());
            assert_eq!(bytes.bytes(), &model[..], "{threads} threads, {abi:?}");
            assert_eq!(bytes.into_vec(), model);
        }
    }
}

/// The packing progress callback (`onnc compile`'s bar over weight bytes)
/// sees every weight blob once, its bytes summing to the total it is
/// given, and does not change the loadable.
#[test]
fn packing_progress_counts_every_weight_byte_and_changes_nothing() {
    let p = lenet();
    let opts = EmitOptions { abi: Abi::Current };
    let model = emit(&p, &opts).unwrap().write();
    let calls = std::sync::Mutex::new(Vec::new());
    let (bytes, _) = emit_bytes_packing(&p, &opts, &|n, total| {
        calls.lock().unwrap().push((n, total));
    })
    .unwrap();
    assert_eq!(bytes.into_vec(), model);
    let calls = calls.into_inner().unwrap();
    let l = emit(&p, &opts).unwrap();
    let weights: usize = p
        .tensors
        .iter()
        .filter(|t| matches!(t.kind, TensorKind::Weight(_)))
        .count();
    assert!(weights > 0);
    assert!(
        calls.len() >= weights,
        "{} calls, {weights} weights",
        calls.len()
    );
    let total = calls[0].1;
    assert!(calls.iter().all(|&(_, t)| t == total));
    assert_eq!(calls.iter().map(|&(n, _)| n).sum::<usize>(), total);
    assert!(total > 0 && total <= l.blobs.iter().map(|b| b.data.len()).sum::<usize>());
}

#[test]
fn cdp_lrn_gets_a_lut_and_verifies() {
    let mut b = B::new();
    let x = b.feature("x", [1, 32, 8, 8], TensorKind::Input(0));
    let y = b.feature("y", [1, 32, 8, 8], TensorKind::Output(0));
    let attrs = vec![
        ("in_precision", s("fp16")),
        ("out_precision", s("fp16")),
        ("local_size", i(5)),
        ("bypass_sqsum", i(0)),
        ("bypass_out_mul", i(0)),
        ("alpha", f(1e-4)),
        ("beta", f(0.75)),
        ("bias", f(1.0)),
        ("in_cvt.offset", i(0)),
        ("in_cvt.scale", i(1)),
        ("in_cvt.truncate", i(0)),
        ("out_cvt.offset", i(0)),
        ("out_cvt.scale", i(1)),
        ("out_cvt.truncate", i(0)),
        ("lut_index", i(0)),
        ("lut_param.linear_exp_offset.exp_offset", i(-3)),
        ("lut_param.linear_only_offset.frac_bits", i(0)),
        ("lut_param.linear_only_start", i(0)),
        ("lut_param.linear_only_end", i(1 << 10)),
    ];
    b.op(Engine::Cdp, "norm1", attrs, vec![Some(x)], y);
    b.p.inputs = vec![x];
    b.p.outputs = vec![y];
    for abi in [Abi::Current, Abi::Legacy] {
        let l = emit_and_reread(&b.p, abi);
        assert_eq!(errors(&l, abi), Vec::<String>::new());
        let TaskDescs::Dla(d) = task_descs(&l, &l.task_list[0], abi) else {
            panic!()
        };
        let luts = d.luts.value.unwrap();
        assert_eq!(d.network.value.unwrap().num_luts, 1);
        assert_eq!(
            luts[0].linear_only_table[0],
            half::f16::from_f32(1.0).to_bits() as i16
        );
        assert!(luts[0].linear_only_table[256] < luts[0].linear_only_table[0]);
        // both cubes are bindable: 2 cubes × 2 strides
        assert_eq!(l.reloc_list.len(), 4);
        assert_eq!(d.deps.value.unwrap()[0].op_type, op_type::CDP);
    }
}

#[test]
fn an_unplaced_tensor_is_named() {
    let mut p = lenet();
    let t = p.tensors.iter().position(|t| t.name == "pool1").unwrap();
    p.tensors[t].place = None;
    let e = emit(&p, &EmitOptions::default()).unwrap_err();
    assert_eq!(
        e,
        Error::Unplaced {
            tensor: "pool1".into()
        }
    );
}

#[test]
fn a_missing_attribute_names_op_and_attribute() {
    let mut p = lenet();
    p.ops[1].attrs.remove("conv_stride_x");
    let e = emit(&p, &EmitOptions::default()).unwrap_err().to_string();
    assert!(e.contains("conv1") && e.contains("conv_stride_x"), "{e}");
}

/// A loadable numbers a task's ops with 16-bit indices: a chain of 40000
/// standalone SDP ops whose cubes reuse two buffers (as the planner places
/// a chain) is emitted as two consecutive DLA tasks, not as one task with
/// wrapped indices, and the loadable verifies clean.
#[test]
fn a_run_longer_than_sixteen_bit_op_indices_becomes_several_tasks() {
    let mut b = B::new();
    let n = 40_000;
    let x = b.feature("x", [1, 1, 1, 1], TensorKind::Input(0));
    let mut prev = x;
    for k in 0..n {
        let kind = if k + 1 == n {
            TensorKind::Output(0)
        } else {
            TensorKind::Activation
        };
        b.act = (k % 2) as u64 * 256;
        let next = b.feature(&format!("r{k}"), [1, 1, 1, 1], kind);
        b.op(
            Engine::Sdp,
            &format!("relu{k}"),
            sdp_attrs(false, true),
            vec![Some(prev), None, None, None],
            next,
        );
        prev = next;
    }
    b.p.inputs = vec![x];
    b.p.outputs = vec![prev];
    let l = emit_and_reread(&b.p, Abi::Current);
    let sizes: Vec<usize> = l
        .task_list
        .iter()
        .map(|t| match task_descs(&l, t, Abi::Current) {
            TaskDescs::Dla(d) => d.deps.value.map_or(0, |v| v.len()),
            _ => panic!("only DLA tasks"),
        })
        .collect();
    assert_eq!(sizes, [32767, 40000 - 32767]);
    assert_eq!(errors(&l, Abi::Current), Vec::<String>::new());
}
