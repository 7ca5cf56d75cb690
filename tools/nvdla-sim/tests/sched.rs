//! The scheduler and the public API with stand-in engines: execution order
//! on NVIDIA's LeNet loadable (NN_L0_0), firmware hangs and cycles, input
//! binding, the dump hook and hardware inference.

use onnc_nvdla_loadable::desc::{ConvOpDesc, ConvSurfaceDesc, SdpOpDesc, SdpSurfaceDesc};
use onnc_nvdla_loadable::desc::{PdpOpDesc, PdpSurfaceDesc};
use onnc_nvdla_loadable::Loadable;
use onnc_nvdla_sim::engine::{Flying, FlyingData, OpCtx};
use onnc_nvdla_sim::{
    golden_dimg, load, simulate, simulate_with_dump, Dump, Engines, LoadOptions, Options, Result,
    Tensor, TensorData,
};
use std::cell::RefCell;
use std::path::PathBuf;

fn fbuf(test: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test/data/nvdla-golden")
        .join(format!("{test}_fbuf"));
    std::fs::read(p).unwrap()
}

thread_local! {
    static TRACE: RefCell<Vec<(usize, &'static str)>> = const { RefCell::new(Vec::new()) };
}

fn log(ctx: &OpCtx) {
    TRACE.with(|t| {
        t.borrow_mut()
            .push((ctx.mem.at.op.unwrap(), ctx.mem.at.engine))
    });
}

fn fake_conv(_: &ConvOpDesc, s: &ConvSurfaceDesc, ctx: &mut OpCtx) -> Result<Flying> {
    log(ctx);
    let d = &s.dst_data;
    let n = usize::from(d.width) * usize::from(d.height) * usize::from(d.channel);
    Ok(Flying {
        width: d.width.into(),
        height: d.height.into(),
        channel: d.channel.into(),
        data: FlyingData::Float(vec![0.0; n]),
    })
}

fn fake_sdp(
    _: &SdpOpDesc,
    s: &SdpSurfaceDesc,
    input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<Option<Flying>> {
    log(ctx);
    assert_eq!(
        input.is_some(),
        s.src_data.mem_type == 2,
        "on-the-fly input iff src is HW"
    );
    Ok(None)
}

fn fake_pdp(
    _: &PdpOpDesc,
    _: &PdpSurfaceDesc,
    input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<()> {
    log(ctx);
    assert!(input.is_none());
    Ok(())
}

fn fakes() -> Options {
    Options {
        engines: Some(Engines {
            conv: Some(fake_conv),
            sdp: Some(fake_sdp),
            pdp: Some(fake_pdp),
            ..Engines::builtin()
        }),
        ..Options::default()
    }
}

/// NN_L0_0's 11 DLA ops run once each, in the dependency order of the
/// network (conv ⇒ SDP fused, then PDP, …), with the EMU ops around them.
#[test]
fn lenet_order() {
    TRACE.with(|t| t.borrow_mut().clear());
    let mut dumps = Vec::new();
    let mut hook = |d: &Dump| dumps.push((d.task, d.op, d.engine));
    simulate_with_dump(&fbuf("NN_L0_0"), &[], &fakes(), Some(&mut hook)).unwrap();
    let trace = TRACE.with(|t| t.borrow().clone());
    let ops: Vec<usize> = trace.iter().map(|&(o, _)| o).collect();
    assert_eq!(ops, (0..11).collect::<Vec<_>>(), "{trace:?}");
    assert_eq!(dumps.first(), Some(&(0, 0, "EMU power")));
    assert_eq!(dumps.last(), Some(&(2, 0, "EMU softmax")));
    // conv outputs flow on the fly: no dump for them.
    assert!(dumps.iter().all(|&(_, _, e)| e != "CONV"));
}

fn with_blob(test: &str, blob: &str, edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut l = Loadable::read(&fbuf(test)).unwrap();
    let b = l.blobs.iter_mut().find(|b| b.name == blob).unwrap();
    edit(&mut b.data);
    l.write()
}

fn unverified() -> Options {
    Options {
        skip_verify: true,
        ..Options::default()
    }
}

/// A dependency count no event ever decrements: the verifier refuses it,
/// and without the verifier the scheduler reports the firmware hang.
#[test]
fn hang_is_reported() {
    let bytes = with_blob("BDMA_L0_0", "m3_DEPGraph_i3", |d| d[4] = 1);
    let e = golden_dimg(&bytes, &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("dependency-count"), "{e}");
    let e = golden_dimg(&bytes, &unverified()).unwrap_err().to_string();
    assert!(e.contains("would hang") && e.contains("op 0 (BDMA)"), "{e}");
}

/// An op whose `consumers[own type]` is itself would be queued twice.
#[test]
fn queue_cycle_is_refused() {
    let bytes = with_blob("BDMA_L0_0", "m3_DEPGraph_i3", |d| {
        d[8..10].copy_from_slice(&0i16.to_le_bytes());
        d[10] = 1;
    });
    let e = golden_dimg(&bytes, &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("engine-chain"), "{e}");
    let e = golden_dimg(&bytes, &unverified()).unwrap_err().to_string();
    assert!(e.contains("cycle"), "{e}");
}

/// A consumer slot pointing at an op of another processor is refused as
/// the firmware's cache fetch refuses it.
#[test]
fn consumer_of_wrong_type_is_refused() {
    let bytes = with_blob("CONV_D_L0_0", "m3_DEPGraph_i3", |d| {
        // op 0 (CONV): consumers[PDP] = op 1, which is an SDP.
        let at = 8 + 3 * 4;
        d[at..at + 2].copy_from_slice(&1i16.to_le_bytes());
        d[at + 2] = 1;
    });
    let e = golden_dimg(&bytes, &unverified()).unwrap_err().to_string();
    assert!(e.contains("is a SDP op, not PDP"), "{e}");
    assert!(golden_dimg(&bytes, &Options::default()).is_err());
}

/// An engine without a model is `Unsupported`, naming the op.
#[test]
fn missing_engine_names_the_op() {
    let opts = Options {
        engines: Some(Engines {
            rubik: None,
            ..Engines::builtin()
        }),
        ..Options::default()
    };
    let e = golden_dimg(&fbuf("RBK_L0_0"), &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("task 0, op 0 (RUBIK)"), "{e}");
}

/// f32 inputs are converted to fp16 in the feature layout; the EMU power
/// op (identity in NN_L0_0) copies them to its output.
#[test]
fn f32_input_reaches_the_first_op() {
    let values: Vec<f32> = (0..28 * 28).map(|i| (i % 17) as f32 * 0.25 - 2.0).collect();
    let mut power_out = Vec::new();
    let mut hook = |d: &Dump| {
        if d.engine == "EMU power" {
            power_out = d.bytes.to_vec();
        }
    };
    let input = Tensor {
        bind_id: 0,
        data: TensorData::F32(values.clone()),
    };
    let out = simulate_with_dump(&fbuf("NN_L0_0"), &[input], &fakes(), Some(&mut hook)).unwrap();
    assert_eq!(out.tensors.len(), 1);
    assert_eq!(out.tensors[0].dims, [1, 10, 1, 1]);
    assert_eq!(out.tensors[0].values.len(), 10);
    for (i, &v) in values.iter().enumerate() {
        let (h, w) = (i / 28, i % 28);
        let off = h * 896 + w * 32;
        let got = half::f16::from_le_bytes([power_out[off], power_out[off + 1]]);
        assert_eq!(got.to_f32(), v, "pixel {h},{w}");
    }
}

#[test]
fn wrong_inputs_are_refused() {
    let bytes = fbuf("NN_L0_0");
    let bad_id = Tensor {
        bind_id: 3,
        data: TensorData::Raw(vec![]),
    };
    assert!(simulate(&bytes, &[bad_id], &fakes()).is_err());
    let bad_len = Tensor {
        bind_id: 0,
        data: TensorData::F32(vec![0.0; 5]),
    };
    assert!(simulate(&bytes, &[bad_len], &fakes()).is_err());
    let too_big = Tensor {
        bind_id: 0,
        data: TensorData::Raw(vec![0; 25089]),
    };
    assert!(simulate(&bytes, &[too_big], &fakes()).is_err());
}

/// `_small` goldens are recognised as nv_small, the others as nv_full.
#[test]
fn hardware_is_inferred() {
    for (test, want) in [
        ("BDMA_L0_0", "nv_full"),
        ("CONV_D_L0_0", "nv_full"),
        ("NN_L0_0", "nv_full"),
        ("PDP_L0_0", "nv_full"),
        ("SDP_X1_L0_0_small", "nv_small"),
        ("CDP_L0_0_small", "nv_small"),
        ("CONV_D_L0_0_small", "nv_small"),
    ] {
        let net = load(&fbuf(test), &LoadOptions::default()).unwrap();
        assert_eq!(net.hw.name, want, "{test}: {}", net.hw_reason);
    }
}

/// BDMA exists on nv_full only: forcing nv_small refuses it, as the
/// firmware does.
#[test]
fn bdma_refused_on_nv_small() {
    let opts = Options {
        hw: Some(onnc_nvdla_sim::Hw::NV_SMALL),
        ..Options::default()
    };
    let e = golden_dimg(&fbuf("BDMA_L0_0"), &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not supported on nv_small"), "{e}");
}

fn chain_sdp(
    _: &SdpOpDesc,
    s: &SdpSurfaceDesc,
    input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<Option<Flying>> {
    log(ctx);
    Ok(if s.dst_data.mem_type == 2 {
        input
    } else {
        None
    })
}

fn chain_pdp(
    _: &PdpOpDesc,
    s: &PdpSurfaceDesc,
    input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<()> {
    log(ctx);
    assert_eq!(input.is_some(), s.src_data.mem_type == 2);
    Ok(())
}

/// LeNet rewired so that SDP 1 feeds PDP 2 on the fly: conv 0 → SDP 1 →
/// PDP 2 run as one pipeline, the PDP receiving the SDP's cube.
#[test]
fn sdp_to_pdp_pipeline() {
    let mut l = Loadable::read(&fbuf("NN_L0_0")).unwrap();
    let blob = |l: &mut Loadable, name: &str| l.blobs.iter().position(|b| b.name == name).unwrap();
    let deps = blob(&mut l, "task-1-dep_graph");
    let d = &mut l.blobs[deps].data;
    // SDP 1: consumers[PDP] = 2 on PROGRAMMED instead of COMPLETED.
    d[36 + 8 + 3 * 4 + 2] = 2;
    // PDP 2: fused parent = SDP 1, on an event that never fires.
    d[2 * 36 + 32..2 * 36 + 36].copy_from_slice(&[1, 0, 0, 0]);
    let surfs = blob(&mut l, "task-1-surf_list");
    let s = &mut l.blobs[surfs].data;
    // Legacy cubes are 28 bytes; SDP dst is the fifth cube, PDP src the first.
    s[644 + 4 * 28..644 + 4 * 28 + 2].copy_from_slice(&2u16.to_le_bytes());
    s[2 * 644..2 * 644 + 2].copy_from_slice(&2u16.to_le_bytes());
    let opts = Options {
        engines: Some(Engines {
            conv: Some(fake_conv),
            sdp: Some(chain_sdp),
            pdp: Some(chain_pdp),
            ..Engines::builtin()
        }),
        skip_verify: true,
        ..Options::default()
    };
    TRACE.with(|t| t.borrow_mut().clear());
    simulate(&l.write(), &[], &opts).unwrap();
    let trace = TRACE.with(|t| t.borrow().clone());
    assert_eq!(
        &trace[..3],
        &[(0, "CONV"), (1, "SDP"), (2, "PDP")],
        "{trace:?}"
    );
    assert_eq!(trace.len(), 11);
}
