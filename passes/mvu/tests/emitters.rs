//! The four table writers: determinism, structure, and (when the tools are
//! installed) that the assembly assembles for RV32I and the header compiles.

use std::path::PathBuf;
use std::process::Command;

use onnc_mvu::{
    emit, export_weights, generate, ConvShape, Layer, MatMulShape, Options, Precision, Table,
};

fn net() -> (Table, Vec<Layer>) {
    let p = Precision::new(2, 2, 2);
    let layers = vec![
        Layer::conv(
            "Conv_0",
            ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1),
            p,
        )
        .with_weight_name("conv1.weight"),
        Layer::conv(
            "conv \"2\"",
            ConvShape::new(64, 32, 32, 128, [3, 3])
                .with_stride(2)
                .with_pad(1),
            p.with_signed_weights(true),
        ),
        Layer::matmul(
            "fc",
            MatMulShape {
                rows: 64,
                in_features: 64,
                out_features: 64,
            },
            p,
        ),
    ];
    (generate(&layers, &Options::default()).unwrap(), layers)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("onnc-mvu-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tool(candidates: &[&str]) -> Option<String> {
    candidates
        .iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        })
        .map(ToString::to_string)
}

#[test]
fn outputs_are_deterministic() {
    let (a, _) = net();
    let (b, _) = net();
    assert_eq!(emit::json(&a), emit::json(&b));
    assert_eq!(emit::text(&a), emit::text(&b));
    assert_eq!(emit::header(&a), emit::header(&b));
    let o = emit::AsmOptions::default();
    assert_eq!(emit::asm(&a, &o).unwrap(), emit::asm(&b, &o).unwrap());
}

#[test]
fn matmul_row_follows_barvinn_head() {
    // SimpleMatMul (MVU_Code_Gen models/simple_matmul.py): 64 -> 64 at 2 bits,
    // as programmed by CorrectedSimpleMatMul.S: wjump [2, 0, 2, 0], ijump [0, 2, 0, 0],
    // wlength_1 = 3, countdown 4, 64 jobs advancing both pointers by 2.
    let (t, _) = net();
    let r = &t.rows[2];
    assert_eq!(r.kind.as_str(), "matmul");
    assert_eq!(r.ilength, [0, 0, 0, 0, 0]);
    assert_eq!(r.ijump, [0, 2, 0, 0, 0]);
    assert_eq!(r.wlength, [0, 3, 0, 0, 0]);
    assert_eq!(r.wjump, [2, 0, 2, 0, 0]);
    assert_eq!((r.countdown, r.total_layer_countdown, r.jobs), (4, 4, 64));
    assert_eq!((r.memory.input_step, r.memory.output_step), (2, 2));
}

#[test]
fn json_shape() {
    let (t, _) = net();
    let v: serde_json::Value = serde_json::from_str(&emit::json(&t)).unwrap();
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["rows", "total_countdown"]
    );
    assert_eq!(v["total_countdown"], t.total_countdown);
    assert_eq!(v["rows"][1]["name"], "conv \"2\"");
    assert_eq!(v["rows"][1]["fShape"], serde_json::json!([2, 3, 3]));
    assert_eq!(v["rows"][2]["kind"], "matmul");
}

#[test]
fn header_and_asm_content() {
    let (t, _) = net();
    let h = emit::header(&t);
    assert!(h.contains("#define ONNC_CSR_MVUPRECISION 0xf53"));
    assert!(h.contains("#define ONNC_MVU_LAYER_CONV_0 0u"));
    assert!(h.contains("#define ONNC_MVU_LAYER_CONV__2_ 1u"));
    assert!(h.contains("{ \"conv \\\"2\\\"\", \"conv\", 2u, 2u, 2u, 0x01002082u, 1u, 0x40000438u,"));
    let s = emit::asm(&t, &emit::AsmOptions::default()).unwrap();
    assert!(s.contains("call onnc_mvu_l0\n    call onnc_mvu_l1\n    call onnc_mvu_l2\n"));
    assert!(s.contains("li s0, 32    # jobs"));
    assert!(s.contains("li s0, 16    # jobs"));
    assert!(
        s.contains("csrr t0, mhartid\n    li t1, 1\n    sll t1, t1, t0\n    csrw mvuomvusel, t1")
    );
    assert!(s.contains("li s0, 64    # jobs"));
    // Layer 1 reads what layer 0 wrote (ping-pong).
    assert!(s.contains("li s1, 16384    # output base\n    li s2, 0    # weight base\n    li s3, 0    # input base"));
    assert!(s.contains("li s1, 0    # output base\n    li s2, 0    # weight base\n    li s3, 16384    # input base"));
    assert_eq!(s.matches("csrw mvucommand, s4").count(), 3);
}

#[test]
fn asm_assembles_for_rv32i() {
    let Some(mc) = tool(&["llvm-mc-22", "llvm-mc"]) else {
        eprintln!("llvm-mc not found; skipping");
        return;
    };
    let (t, _) = net();
    let d = scratch("asm");
    let src = d.join("mvu_program.s");
    std::fs::write(&src, emit::asm(&t, &emit::AsmOptions::default()).unwrap()).unwrap();
    let out = Command::new(mc)
        .args(["-triple=riscv32", "-mattr=+zicsr", "-filetype=obj", "-o"])
        .arg(d.join("mvu_program.o"))
        .arg(&src)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&d);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn header_compiles() {
    let Some(cc) = tool(&["cc", "gcc", "clang", "clang-22"]) else {
        eprintln!("no C compiler; skipping");
        return;
    };
    let (t, _) = net();
    let d = scratch("hdr");
    std::fs::write(d.join("mvu_config.h"), emit::header(&t)).unwrap();
    std::fs::write(
        d.join("main.c"),
        "#include \"mvu_config.h\"\nint main(void) { return (int)(onnc_mvu_layers[ONNC_MVU_LAYER_FC].countdown != 4u); }\n",
    )
    .unwrap();
    let out = Command::new(cc)
        .args(["-std=c99", "-Wall", "-Werror", "-fsyntax-only"])
        .arg(d.join("main.c"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&d);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bundle_writes_all_files() {
    let (t, layers) = net();
    let w = export_weights(&layers[0], &vec![3; 64 * 64 * 9]).unwrap();
    let files = emit::bundle(&t, &[w], &emit::AsmOptions::default()).unwrap();
    let d = scratch("bundle");
    emit::write_dir(&d, &files).unwrap();
    for f in &files {
        assert_eq!(
            std::fs::read_to_string(d.join(&f.name)).unwrap(),
            f.contents
        );
    }
    let hex = std::fs::read_to_string(d.join("conv1.weight.hex")).unwrap();
    assert_eq!(hex.lines().count(), 9 * 2);
    assert!(hex.lines().all(|l| l == "1".repeat(4096)));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn conv_job_policies() {
    let (t, _) = net();
    let r = &t.rows[0]; // SimpleConv geometry: 32x32, 3x3, pad 1, stride 1
    assert_eq!(emit::job_count(r, emit::ConvJobs::Barvinn), 34);
    assert_eq!(emit::job_count(r, emit::ConvJobs::OutputRows), 32);
    assert_eq!(emit::job_count(r, emit::ConvJobs::ValidWindows), 30);
    let r = &t.rows[1]; // stride 2
    assert_eq!(emit::job_count(r, emit::ConvJobs::Barvinn), 17);
    assert_eq!(emit::job_count(r, emit::ConvJobs::OutputRows), 16);
    assert_eq!(emit::job_count(r, emit::ConvJobs::ValidWindows), 15);
    let r = &t.rows[2]; // matmul: rows
    assert_eq!(emit::job_count(r, emit::ConvJobs::OutputRows), 64);
    let o = emit::AsmOptions {
        conv_jobs: emit::ConvJobs::OutputRows,
        ..emit::AsmOptions::default()
    };
    let s = emit::asm(&t, &o).unwrap();
    assert!(s.contains("li s0, 32    # jobs"));
    assert!(s.contains("beqz s0, .Lonnc_mvu_l0_done\n.Lonnc_mvu_l0_job:"));
}
