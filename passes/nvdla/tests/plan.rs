//! Memory planning on hand-built programs: reuse, lifetimes, concat/slice/
//! reshape windows, alignment, bindable buffers and every error; then the
//! nine ONNX light model-zoo nets (lowered for nv_full) against the lower
//! bound. Every planned program goes through `plan::check`, which fails on
//! any two live tensors sharing bytes.

mod common;

use std::collections::BTreeMap;

use onnc_nvdla::plan::{bind_owners, check, plan, PlanOptions, PlanReport, Strategy};
use onnc_nvdla::Error;
use onnc_nvdla::{
    ConfigName, Engine, Op, Placement, Pool, Precision, Program, Tensor, TensorId, TensorKind,
    Value,
};

/// A small program builder.
struct B {
    p: Program,
}

impl B {
    fn new(config: ConfigName) -> B {
        B {
            p: Program::new(config),
        }
    }
    fn full() -> B {
        B::new(ConfigName::NvFull)
    }
    fn precision(&self) -> Precision {
        if self.p.config == ConfigName::NvFull {
            Precision::Fp16
        } else {
            Precision::Int8
        }
    }
    fn tensor(&mut self, name: &str, shape: &[usize], kind: TensorKind) -> TensorId {
        let precision = self.precision();
        self.p.add_tensor(Tensor {
            name: name.into(),
            shape: shape.to_vec(),
            precision,
            kind,
            place: None,
        })
    }
    fn input(&mut self, name: &str, shape: &[usize]) -> TensorId {
        let precision = self.precision();
        self.p.add_input(name, shape, precision)
    }
    fn output(&mut self, name: &str, shape: &[usize]) -> TensorId {
        let precision = self.precision();
        self.p.add_output(name, shape, precision)
    }
    fn act(&mut self, name: &str, shape: &[usize]) -> TensorId {
        self.tensor(name, shape, TensorKind::Activation)
    }
    fn weight(&mut self, name: &str, shape: &[usize]) -> TensorId {
        let n = shape.iter().product();
        self.tensor(
            name,
            shape,
            TensorKind::Weight(onnc_nvdla::Weights::from(vec![0.5; n])),
        )
    }
    fn op(
        &mut self,
        engine: Engine,
        layer: &str,
        inputs: &[Option<TensorId>],
        output: TensorId,
        attrs: &[(&str, Value)],
    ) {
        let attrs: BTreeMap<String, Value> = attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        self.p.ops.push(Op {
            engine,
            hw_layer: layer.into(),
            attrs,
            inputs: inputs.to_vec(),
            output,
            onnx_nodes: vec![],
        });
    }
    fn pdp(&mut self, layer: &str, x: TensorId, y: TensorId) {
        self.op(Engine::Pdp, layer, &[Some(x)], y, &[]);
    }
    fn concat(&mut self, layer: &str, members: &[TensorId], y: TensorId) {
        let ins: Vec<_> = members.iter().map(|&m| Some(m)).collect();
        self.op(Engine::Concat, layer, &ins, y, &[("axis", Value::Int(1))]);
    }
    fn slice(&mut self, layer: &str, x: TensorId, c_start: i64, y: TensorId) {
        self.op(
            Engine::Slice,
            layer,
            &[Some(x)],
            y,
            &[("c_start", Value::Int(c_start))],
        );
    }
    /// Plans with best fit, checks, and returns the report.
    fn plan(&mut self) -> PlanReport {
        let r = plan(&mut self.p, &PlanOptions::default())
            .unwrap_or_else(|e| panic!("plan failed: {e}"));
        check(&self.p).unwrap_or_else(|e| panic!("check failed: {e}"));
        r
    }
    fn err(&mut self) -> Error {
        plan(&mut self.p, &PlanOptions::default()).expect_err("plan should fail")
    }
    fn place(&self, t: TensorId) -> Placement {
        self.p.tensors[t].place.expect("placed")
    }
}

const C16: [usize; 4] = [1, 16, 8, 8]; // fp16 on nv_full: one 2048-byte surface

#[test]
fn a_chain_reuses_two_cubes_and_naive_uses_one_each() {
    let mut b = B::full();
    let x = b.input("x", &C16);
    let ts: Vec<_> = (0..4).map(|i| b.act(&format!("a{i}"), &C16)).collect();
    let y = b.output("y", &C16);
    let mut prev = x;
    for (i, &t) in ts.iter().chain([&y]).enumerate() {
        b.pdp(&format!("p{i}"), prev, t);
        prev = t;
    }
    let mut naive = b.p.clone();
    let r = b.plan();
    assert_eq!(
        (r.activation_bytes, r.activation_lower_bound_bytes),
        (4096, 4096)
    );
    assert_eq!(b.place(ts[0]).offset, b.place(ts[2]).offset);
    assert_ne!(b.place(ts[0]).offset, b.place(ts[1]).offset);
    assert_eq!((b.place(x).pool, b.place(x).offset), (Some(Pool::Bind), 0));
    assert_eq!((b.place(y).pool, b.place(y).offset), (Some(Pool::Bind), 0));
    assert_eq!(r.bind_bytes, 4096);
    let rn = plan(
        &mut naive,
        &PlanOptions {
            strategy: Strategy::Naive,
        },
    )
    .unwrap();
    check(&naive).unwrap();
    assert_eq!(rn.activation_bytes, 4 * 2048);
    assert_eq!(rn.activation_lower_bound_bytes, 4096);
}

#[test]
fn a_skip_connection_keeps_its_cube_until_the_last_reader() {
    // a = pdp(x); b = pdp(a); c = pdp(b); y = sdp(c, a per_point): a is live throughout.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let bb = b.act("b", &C16);
    let c = b.act("c", &C16);
    let y = b.output("y", &C16);
    b.pdp("p0", x, a);
    b.pdp("p1", a, bb);
    b.pdp("p2", bb, c);
    b.op(
        Engine::Sdp,
        "add",
        &[Some(c), Some(a), None, None],
        y,
        &[("x1_op.mode", Value::Str("per_point".into()))],
    );
    let r = b.plan();
    assert_eq!(r.activation_bytes, 3 * 2048);
    let (pa, pb, pc) = (b.place(a), b.place(bb), b.place(c));
    assert!(pa.offset != pb.offset && pa.offset != pc.offset && pb.offset != pc.offset);
}

#[test]
fn check_rejects_two_live_tensors_on_the_same_bytes() {
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let c = b.act("c", &C16);
    let y = b.output("y", &C16);
    b.pdp("p0", x, a);
    b.pdp("p1", a, c);
    b.pdp("p2", c, y);
    b.plan();
    let mut bad = b.p.clone();
    bad.tensors[c].place = bad.tensors[a].place;
    let e = check(&bad).unwrap_err();
    assert!(matches!(e, Error::Overlap { .. }), "{e}");
    assert!(
        e.to_string().contains("'a'") && e.to_string().contains("'c'"),
        "{e}"
    );
    bad.tensors[c].place = None;
    assert!(matches!(check(&bad).unwrap_err(), Error::NotPlaced { .. }));
}

#[test]
fn concat_members_are_windows_of_the_result() {
    // a (16 ch) and b (32 ch) written by PDPs into r (48 ch) = 3 surfaces of 2048 B.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let x2 = b.input("x2", &[1, 32, 8, 8]);
    let a = b.act("a", &C16);
    let m = b.act("m", &[1, 32, 8, 8]);
    let r = b.act("r", &[1, 48, 8, 8]);
    let y = b.output("y", &[1, 48, 8, 8]);
    b.pdp("pa", x, a);
    b.pdp("pm", x2, m);
    b.concat("cat", &[a, m], r);
    b.pdp("py", r, y);
    let rep = b.plan();
    let (pa, pm, pr) = (b.place(a), b.place(m), b.place(r));
    assert_eq!(pa.offset, pr.offset);
    assert_eq!(pm.offset, pr.offset + 2048);
    assert_eq!(
        (pm.size, pm.line_stride, pm.surf_stride),
        (4096, pr.line_stride, pr.surf_stride)
    );
    assert_eq!(rep.activation_bytes, 3 * 2048);
}

#[test]
fn nested_concats_form_one_growing_cube() {
    // DenseNet: r1 = cat(a, b); r2 = cat(r1, c); r1 is also read by a PDP.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let bb = b.act("b", &C16);
    let r1 = b.act("r1", &[1, 32, 8, 8]);
    let c = b.act("c", &C16);
    let r2 = b.act("r2", &[1, 48, 8, 8]);
    let y = b.output("y", &[1, 48, 8, 8]);
    b.pdp("pa", x, a);
    b.pdp("pb", a, bb);
    b.concat("cat1", &[a, bb], r1);
    b.op(Engine::Pdp, "pc", &[Some(r1)], c, &[]);
    b.concat("cat2", &[r1, c], r2);
    b.pdp("py", r2, y);
    let rep = b.plan();
    let base = b.place(r2).offset;
    assert_eq!(
        [
            b.place(a).offset,
            b.place(bb).offset,
            b.place(r1).offset,
            b.place(c).offset
        ],
        [base, base + 2048, base, base + 4096]
    );
    assert_eq!(rep.activation_bytes, 3 * 2048);
}

#[test]
fn an_output_concat_becomes_the_bindable_buffer_with_its_members() {
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let m = b.act("m", &C16);
    let y = b.output("y", &[1, 32, 8, 8]);
    b.pdp("pa", x, a);
    b.pdp("pm", x, m);
    b.concat("cat", &[a, m], y);
    let r = b.plan();
    assert_eq!(r.activation_bytes, 0);
    assert_eq!(r.bind_bytes, 2048 + 4096);
    assert_eq!((b.place(a).pool, b.place(a).offset), (Some(Pool::Bind), 0));
    assert_eq!(
        (b.place(m).pool, b.place(m).offset),
        (Some(Pool::Bind), 2048)
    );
    let owners = bind_owners(&b.p).unwrap();
    assert_eq!(
        owners.into_iter().collect::<Vec<_>>(),
        vec![(x, x), (a, y), (m, y), (y, y)]
    );
}

#[test]
fn slices_are_windows_and_reshapes_share_bytes() {
    let mut b = B::full();
    let x = b.input("x", &[1, 32, 8, 8]);
    let a = b.act("a", &[1, 32, 8, 8]);
    let s = b.act("s", &C16);
    let z = b.act("z", &C16);
    let f = b.act("f", &[1, 1000, 1, 1]);
    let y = b.output("y", &[1, 1000]);
    b.pdp("pa", x, a);
    b.slice("hi", a, 16, s);
    b.pdp("ps", s, z);
    b.op(Engine::Pdp, "pf", &[Some(z)], f, &[]);
    b.op(Engine::Reshape, "flat", &[Some(f)], y, &[]);
    let r = b.plan();
    assert_eq!(b.place(s).offset, b.place(a).offset + 2048);
    assert_eq!(b.place(s).surf_stride, b.place(a).surf_stride);
    // The output is a reshape: its input becomes the bindable buffer, same bytes and strides.
    assert_eq!(b.place(f), b.place(y));
    assert_eq!(b.place(f).pool, Some(Pool::Bind));
    assert_eq!(r.bind_bytes, 4096 + 63 * 32);
}

#[test]
fn weights_are_packed_aligned_and_sized_by_use() {
    // conv: kernel [20,16,3,3] (5760 B → 5760, entry 128 → 5760 is 45 entries) and an odd one;
    // sdp: per_kernel bias [1,20,1,1] (40 → 64 B), per_point operand [1,20,8,8] (cube: 2 surfaces).
    let mut b = B::full();
    let x = b.input("x", &C16);
    let bias = b.weight("bias", &[1, 20, 1, 1]);
    let k = b.weight("k", &[20, 16, 3, 3]);
    let k2 = b.weight("k2", &[20, 20, 1, 1]);
    let pp = b.weight("pp", &[1, 20, 8, 8]);
    let acc = b.tensor("acc", &[1, 20, 8, 8], TensorKind::Fused);
    let h = b.act("h", &[1, 20, 8, 8]);
    let acc2 = b.tensor("acc2", &[1, 20, 8, 8], TensorKind::Fused);
    let y = b.output("y", &[1, 20, 8, 8]);
    let mode = |unit: &str, m: &str| (format!("{unit}.mode"), Value::Str(m.into()));
    let (m1, m2) = (mode("x1_op", "per_kernel"), mode("x2_op", "per_point"));
    b.op(Engine::Conv, "c1", &[Some(x), Some(k)], acc, &[]);
    b.op(
        Engine::Sdp,
        "c1",
        &[Some(acc), Some(bias), Some(pp), None],
        h,
        &[(&m1.0, m1.1.clone()), (&m2.0, m2.1.clone())],
    );
    b.op(Engine::Conv, "c2", &[Some(h), Some(k2)], acc2, &[]);
    b.op(Engine::Sdp, "c2", &[Some(acc2), None, None, None], y, &[]);
    let r = b.plan();
    let (pb, pk, pk2, ppp) = (b.place(bias), b.place(k), b.place(k2), b.place(pp));
    assert_eq!((pb.offset, pb.size), (0, 64));
    assert_eq!((pk.offset, pk.size), (128, 5760));
    assert_eq!((pk2.offset, pk2.size), (128 + 5760, 896)); // 800 B → 7 entries; 5888 is entry aligned
    assert_eq!(
        (ppp.offset, ppp.size, ppp.line_stride, ppp.surf_stride),
        (5888 + 896, 2 * 2048, 256, 2048)
    );
    assert_eq!(r.weight_bytes, 5888 + 896 + 4096);
    assert!(b.p.tensors[acc].place.is_none() && b.p.tensors[acc2].place.is_none());
    assert_eq!(b.place(h).size, 2 * 2048);
}

#[test]
fn nv_small_int8_cubes_use_eight_channel_atoms() {
    let mut b = B::new(ConfigName::NvSmall);
    let x = b.input("x", &[1, 8, 4, 4]);
    let a = b.act("a", &[1, 8, 4, 4]);
    let m = b.act("m", &[1, 8, 4, 4]);
    let r = b.act("r", &[1, 16, 4, 4]);
    let y = b.output("y", &[1, 16, 4, 4]);
    b.pdp("pa", x, a);
    b.pdp("pm", x, m);
    b.concat("cat", &[a, m], r);
    b.pdp("py", r, y);
    let rep = b.plan();
    assert_eq!(b.place(m).offset, b.place(r).offset + 128); // surface = 4·4·8 B
    assert_eq!(
        (
            b.place(r).line_stride,
            b.place(r).surf_stride,
            b.place(r).size
        ),
        (32, 128, 256)
    );
    assert_eq!(rep.activation_bytes, 256);
}

#[test]
fn planning_is_deterministic() {
    let build = || {
        let mut b = B::full();
        let x = b.input("x", &C16);
        let mut prev = x;
        for i in 0..12 {
            let t = b.act(&format!("t{i}"), &[1, 16 * (1 + i % 3), 8, 8]);
            b.op(Engine::Pdp, &format!("p{i}"), &[Some(prev)], t, &[]);
            prev = t;
        }
        let y = b.output("y", &[1, 16, 8, 8]);
        b.pdp("last", prev, y);
        b
    };
    let (mut b1, mut b2) = (build(), build());
    assert_eq!(b1.plan(), b2.plan());
    assert_eq!(b1.p, b2.p);
}

// ---------- errors ----------

#[test]
fn a_network_input_cannot_be_a_concat_member() {
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let y = b.output("y", &[1, 32, 8, 8]);
    b.pdp("pa", x, a);
    b.concat("cat", &[x, a], y);
    let e = b.err();
    assert!(matches!(e, Error::ConcatMemberIsInput { .. }), "{e}");
    let s = e.to_string();
    assert!(
        s.contains("nvdla.concat 'cat' (op 1)") && s.contains("'x'") && s.contains("copy"),
        "{s}"
    );
}

#[test]
fn a_member_of_two_concats_is_an_error() {
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let c = b.act("c", &C16);
    let r1 = b.act("r1", &[1, 32, 8, 8]);
    let r2 = b.output("r2", &[1, 32, 8, 8]);
    let y = b.output("y", &[1, 32, 8, 8]);
    b.pdp("pa", x, a);
    b.pdp("pc", x, c);
    b.concat("cat1", &[a, c], r1);
    b.concat("cat2", &[c, a], r2);
    b.pdp("py", r1, y);
    let e = b.err().to_string();
    assert!(
        e.contains("'c'") && e.contains("cat1") && e.contains("cat2"),
        "{e}"
    );
}

#[test]
fn unaligned_concat_members_and_slices_are_errors() {
    // fp16 on nv_full: 16 channels per atom; a member after an 8-channel one starts at channel 8.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &[1, 8, 8, 8]);
    let m = b.act("m", &C16);
    let y = b.output("y", &[1, 24, 8, 8]);
    b.pdp("pa", x, a);
    b.pdp("pm", x, m);
    b.concat("cat", &[a, m], y);
    let e = b.err();
    assert!(
        matches!(
            e,
            Error::Unaligned {
                c_start: 8,
                group: 16,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("'m'"));

    let mut b = B::full();
    let x = b.input("x", &[1, 32, 8, 8]);
    let a = b.act("a", &[1, 32, 8, 8]);
    let y = b.output("y", &[1, 8, 8, 8]);
    b.pdp("pa", x, a);
    b.slice("mid", a, 4, y);
    let e = b.err().to_string();
    assert!(
        e.contains("nvdla.slice 'mid'") && e.contains("channel 4"),
        "{e}"
    );
}

#[test]
fn reshapes_that_change_the_layout_are_errors() {
    let mut b = B::full();
    let x = b.input("x", &C16);
    let a = b.act("a", &C16);
    let y = b.output("y", &[1, 1024]);
    b.pdp("pa", x, a);
    b.op(Engine::Reshape, "flatten", &[Some(a)], y, &[]);
    let e = b.err();
    assert!(matches!(e, Error::ReshapeNotView { .. }), "{e}");
    assert!(e.to_string().contains("nvdla.reshape 'flatten'"));
}

#[test]
fn an_output_that_views_an_input_or_another_output_is_an_error() {
    let mut b = B::full();
    let x = b.input("x", &[1, 16, 1, 1]);
    let y = b.output("y", &[1, 16]);
    b.op(Engine::Reshape, "flat", &[Some(x)], y, &[]);
    let e = b.err();
    assert!(matches!(e, Error::SharedBindBuffer { .. }), "{e}");
    assert!(e.to_string().contains("'x'") && e.to_string().contains("'y'"));
}

#[test]
fn bad_operands_are_errors_naming_the_op() {
    // A weight in a concat.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let w = b.weight("w", &C16);
    let y = b.output("y", &[1, 32, 8, 8]);
    b.concat("cat", &[w, x], y);
    let e = b.err().to_string();
    assert!(
        e.contains("nvdla.concat 'cat'") && e.contains("'w' is a weight"),
        "{e}"
    );

    // A weight feeding an SDP sub-unit in per_layer mode.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let w = b.weight("w", &[1, 16, 1, 1]);
    let y = b.output("y", &C16);
    b.op(
        Engine::Sdp,
        "bias",
        &[Some(x), None, Some(w), None],
        y,
        &[("x2_op.mode", Value::Str("per_layer".into()))],
    );
    let e = b.err().to_string();
    assert!(
        e.contains("nvdla.sdp 'bias'") && e.contains("x2_op.mode"),
        "{e}"
    );

    // An activation nothing produces.
    let mut b = B::full();
    let x = b.input("x", &C16);
    let ghost = b.act("ghost", &C16);
    let y = b.output("y", &[1, 32, 8, 8]);
    b.op(
        Engine::Sdp,
        "add",
        &[Some(x), Some(ghost), None, None],
        y,
        &[("x1_op.mode", Value::Str("per_point".into()))],
    );
    let e = b.err();
    assert!(
        matches!(e, Error::NoProducer { .. }) && e.to_string().contains("'ghost'"),
        "{e}"
    );
}

// ---------- the light model-zoo nets ----------

/// Load, legalize for nv_full, lower, plan (best fit and naive), check.
/// Prints (net, activation bytes, lower bound, ratio, naive bytes, weight bytes, bind bytes).
#[test]
fn light_nets_plan_within_ten_percent_of_the_lower_bound() {
    use onnc_nvdla::lower::{lower, LowerOptions};
    let paths = common::zoo_paths();
    println!(
        "{:<22} {:>12} {:>12} {:>6} {:>12} {:>12} {:>10} {:>8}",
        "net", "act bytes", "lower bound", "ratio", "naive", "weights", "bind", "plan ms"
    );
    for path in paths {
        let name = path
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .replace("light_", "");
        let g = onnc_onnx::load(&path, &Default::default()).unwrap().graph;
        let g = onnc_legalize::legalize(g, onnc_legalize::Target::NvFull, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: legalize: {e}"))
            .graph;
        let mut p = lower(&g, ConfigName::NvFull, &LowerOptions::default())
            .unwrap_or_else(|e| panic!("{name}: lower: {e}"));
        let mut naive = p.clone();
        let t = std::time::Instant::now();
        let r = plan(&mut p, &PlanOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        check(&p).unwrap_or_else(|e| panic!("{name}: check: {e}"));
        let rn = plan(
            &mut naive,
            &PlanOptions {
                strategy: Strategy::Naive,
            },
        )
        .unwrap();
        check(&naive).unwrap_or_else(|e| panic!("{name}: naive check: {e}"));
        println!(
            "{:<22} {:>12} {:>12} {:>6.3} {:>12} {:>12} {:>10} {:>8.2}",
            name,
            r.activation_bytes,
            r.activation_lower_bound_bytes,
            r.ratio(),
            rn.activation_bytes,
            r.weight_bytes,
            r.bind_bytes,
            ms
        );
        assert!(
            r.activation_bytes >= r.activation_lower_bound_bytes,
            "{name}"
        );
        assert!(
            r.ratio() <= 1.10,
            "{name}: {} bytes vs lower bound {}",
            r.activation_bytes,
            r.activation_lower_bound_bytes
        );
        assert!(
            rn.activation_bytes >= r.activation_bytes,
            "{name}: naive beat best fit"
        );
        assert_eq!(
            (rn.weight_bytes, rn.bind_bytes),
            (r.weight_bytes, r.bind_bytes)
        );
    }
}

/// The interleave of an upsampling without RUBIK (nv_small, INT8, 8-byte
/// atoms): `[8, 2, 3]` read as `[8, 6, 1]` (a reshape: same bytes), two
/// copies into the columns of `T = [8, 6, 2]` (a width concat: strided
/// windows), `T` read as `[8, 2, 6]` by the output. Columns sit one atom
/// apart with `T`'s line stride, interleaved but disjoint; a strided
/// window cannot be reshaped in place.
#[test]
fn column_windows_are_strided_and_interleave_without_overlap() {
    let mut b = B::new(ConfigName::NvSmall);
    let x = b.input("x", &[1, 8, 2, 3]);
    let y = b.act("y", &[1, 8, 2, 3]);
    b.pdp("pool", x, y);
    let line = b.act("line", &[1, 8, 6, 1]);
    b.op(Engine::Reshape, "r0", &[Some(y)], line, &[]);
    let cols = [b.act("col0", &[1, 8, 6, 1]), b.act("col1", &[1, 8, 6, 1])];
    for (i, &c) in cols.iter().enumerate() {
        b.op(Engine::Sdp, &format!("copy{i}"), &[Some(line)], c, &[]);
    }
    let t = b.act("t", &[1, 8, 6, 2]);
    let ins: Vec<_> = cols.iter().map(|&c| Some(c)).collect();
    b.op(Engine::Concat, "cols", &ins, t, &[("axis", Value::Int(3))]);
    let out = b.output("out", &[1, 8, 2, 6]);
    b.op(Engine::Reshape, "r1", &[Some(t)], out, &[]);
    b.plan();
    let (l, c0, c1) = (b.place(line), b.place(cols[0]), b.place(cols[1]));
    // A pixel per line: line stride one atom, the surface of [8, 2, 3].
    assert_eq!((l.line_stride, l.surf_stride, l.size), (8, 48, 48));
    // Columns: T's line stride (2 atoms), one atom apart, extent 5·16 + 8.
    assert_eq!((c0.line_stride, c0.surf_stride, c0.size), (16, 96, 88));
    assert_eq!(c1.offset, c0.offset + 8);
    assert_eq!((c1.pool, c0.pool), (Some(Pool::Bind), Some(Pool::Bind)));

    // Reshaping a column (its rows are not back to back) is refused.
    let mut b2 = B::new(ConfigName::NvSmall);
    let x = b2.input("x", &[1, 8, 6, 1]);
    let cols = [b2.act("c0", &[1, 8, 6, 1]), b2.act("c1", &[1, 8, 6, 1])];
    for (i, &c) in cols.iter().enumerate() {
        b2.op(Engine::Sdp, &format!("copy{i}"), &[Some(x)], c, &[]);
    }
    let t = b2.output("t", &[1, 8, 6, 2]);
    let ins: Vec<_> = cols.iter().map(|&c| Some(c)).collect();
    b2.op(Engine::Concat, "cols", &ins, t, &[("axis", Value::Int(3))]);
    let v = b2.act("v", &[1, 8, 2, 3]);
    b2.op(Engine::Reshape, "bad", &[Some(cols[1])], v, &[]);
    let w = b2.output("w", &[1, 8, 2, 3]);
    b2.pdp("use", v, w);
    let e = b2.err().to_string();
    assert!(
        e.contains("strided window") && e.contains("cannot be reshaped in place"),
        "{e}"
    );
}
