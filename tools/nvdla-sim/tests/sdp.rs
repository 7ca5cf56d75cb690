//! SDP engine on hand-made cubes: bias / multiplier / shift / ReLU with
//! per-layer, per-channel and per-element operands, the output converter's
//! rounding and saturation, FP16, the Y unit with a LUT, on-the-fly input and
//! output.

use onnc_nvdla_loadable::desc::{DataCube, LutParam, SdpOp, SdpOpDesc, SdpSurfaceDesc};
use onnc_nvdla_sim::engine::{Flying, FlyingData, Hw, OpCtx};
use onnc_nvdla_sim::memory::Memory;
use onnc_nvdla_sim::{sdp, At};

const HW: Hw = Hw::NV_FULL;

/// A W×H×C feature cube in nv_full layout (32-byte atoms) from C-H-W values.
fn feature(vals: &[i32], (w, h, c): (usize, usize, usize), bpe: usize) -> (Vec<u8>, u32, u32) {
    let cpa = 32 / bpe;
    let line = w * 32;
    let surf = line * h;
    let mut b = vec![0u8; surf * c.div_ceil(cpa)];
    for ch in 0..c {
        for y in 0..h {
            for x in 0..w {
                let o = ch / cpa * surf + y * line + x * 32 + (ch % cpa) * bpe;
                let v = vals[(ch * h + y) * w + x];
                if bpe == 1 {
                    b[o] = v as u8;
                } else {
                    b[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes());
                }
            }
        }
    }
    (b, line as u32, surf as u32)
}

fn cube(address: i16, (w, h, c): (usize, usize, usize), ls: u32, ss: u32, size: usize) -> DataCube {
    DataCube {
        mem_type: 0,
        address,
        size: size as u32,
        width: w as u16,
        height: h as u16,
        channel: c as u16,
        line_stride: ls,
        surf_stride: ss,
        ..DataCube::default()
    }
}

/// Element values of `cube` of a memory buffer, C-H-W.
fn read_back(buf: &[u8], (w, h, c): (usize, usize, usize), bpe: usize) -> Vec<i32> {
    let cpa = 32 / bpe;
    let (line, surf) = (w * 32, w * 32 * h);
    let mut out = Vec::new();
    for ch in 0..c {
        for y in 0..h {
            for x in 0..w {
                let o = ch / cpa * surf + y * line + x * 32 + (ch % cpa) * bpe;
                out.push(if bpe == 1 {
                    buf[o] as i8 as i32
                } else {
                    i16::from_le_bytes([buf[o], buf[o + 1]]) as i32
                });
            }
        }
    }
    out
}

struct Case {
    op: SdpOpDesc,
    surf: SdpSurfaceDesc,
    mem: Memory,
}

/// Memory 0 = src, 1 = x1 operands, 2 = y operands, 3 = dst.
fn case(
    src: &[i32],
    whc: (usize, usize, usize),
    src_prec: u8,
    dst_prec: u8,
    x1_ops: &[u8],
    y_ops: &[u8],
) -> Case {
    let bpe = |p: u8| if p == 0 { 1 } else { 2 };
    let (s, ls, ss) = feature(src, whc, bpe(src_prec));
    let (d, dls, dss) = feature(&vec![0; whc.0 * whc.1 * whc.2], whc, bpe(dst_prec));
    let mut x1 = x1_ops.to_vec();
    x1.resize(x1.len().max(4096), 0);
    let mut y = y_ops.to_vec();
    y.resize(y.len().max(4096), 0);
    let mems = vec![s.clone(), x1, y, d.clone()];
    let addresses = mems
        .iter()
        .enumerate()
        .map(|(i, m)| (i as u16, 0, m.len() as u64))
        .collect();
    let mut op = SdpOpDesc {
        src_precision: src_prec,
        dst_precision: dst_prec,
        batch_num: 1,
        ..SdpOpDesc::default()
    };
    op.out_cvt.scale = 1;
    op.out_cvt.enable = 1;
    let surf = SdpSurfaceDesc {
        src_data: cube(0, whc, ls, ss, s.len()),
        x1_data: cube(1, whc, ls, ss, 4096),
        y_data: cube(2, whc, ls, ss, 4096),
        dst_data: cube(3, whc, dls, dss, d.len()),
        ..SdpSurfaceDesc::default()
    };
    Case {
        op,
        surf,
        mem: Memory { mems, addresses },
    }
}

fn run(c: &mut Case, luts: &[LutParam], input: Option<Flying>) -> Option<Flying> {
    let addrs = [0u16, 1, 2, 3];
    let at = At {
        task: 0,
        op: Some(0),
        engine: "SDP",
    };
    let mut ctx = OpCtx {
        mem: c.mem.task(&addrs, at),
        luts,
        hw: &HW,
    };
    sdp::run(&c.op, &c.surf, input, &mut ctx).unwrap()
}

fn out(c: &Case, whc: (usize, usize, usize)) -> Vec<i32> {
    read_back(
        &c.mem.mems[3],
        whc,
        if c.op.dst_precision == 0 { 1 } else { 2 },
    )
}

fn x(enable: u8, alu_type: u8, op_type: u8, mode: u8, act: u8) -> SdpOp {
    SdpOp {
        enable,
        alu_type,
        op_type,
        mode,
        act,
        precision: 1,
        ..SdpOp::default()
    }
}

#[test]
fn relu_only_from_memory() {
    let whc = (2, 1, 3);
    let src = [-3, 4, 0, -1, 32767, -32768];
    let mut c = case(&src, whc, 1, 1, &[], &[]);
    c.op.x1_op = x(1, 2, 0, 0, 1);
    assert!(run(&mut c, &[], None).is_none());
    assert_eq!(out(&c, whc), [0, 4, 0, 0, 32767, 0]);
}

#[test]
fn per_channel_bias_per_layer_scale_shift_relu() {
    // x1: ADD per kernel (int16 operands 100, −50, 7 << 1), then MUL by 3
    // (the x2 unit, per layer) with truncate 2, ReLU.
    let whc = (2, 1, 3);
    let src = [1, -200, 10, 20, -5, 5];
    let bias: Vec<u8> = [100i16, -50, 7]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut c = case(&src, whc, 1, 1, &bias, &[]);
    c.op.x1_op = SdpOp {
        shift_value: 1,
        ..x(1, 2, 2, 1, 0)
    };
    c.op.x2_op = SdpOp {
        mul_operand: 3,
        truncate: 2,
        ..x(1, 2, 1, 0, 1)
    };
    run(&mut c, &[], None);
    // (1 + 200)·3/4 = 150.75 → 151; (−200 + 200) → 0; (10 − 100)·3/4 = −67.5 → ReLU 0;
    // (20 − 100)·3/4 → 0; (−5 + 14)·3/4 = 6.75 → 7; (5 + 14)·3/4 = 14.25 → 14.
    assert_eq!(out(&c, whc), [151, 0, 0, 0, 7, 14]);
}

#[test]
fn output_converter_rounds_and_saturates() {
    // C: ((x − 10)·3) >> 2, then INT8: 45 → 26.25 → 26; −7 → −12.75 → −13;
    // 1000 → 742.5 → 743 → sat 127; −1000 → −757.5 → −758 → −128.
    let whc = (4, 1, 1);
    let src = [45, -7, 1000, -1000];
    let mut c = case(&src, whc, 1, 0, &[], &[]);
    c.op.out_cvt.offset = 10;
    c.op.out_cvt.scale = 3;
    c.op.out_cvt.truncate = 2;
    run(&mut c, &[], None);
    assert_eq!(out(&c, whc), [26, -13, 127, -128]);
    // INT16 output of a 17-bit value saturates at the 16-bit limits.
    let mut c = case(&[30000, -30000], (2, 1, 1), 1, 1, &[], &[]);
    c.op.out_cvt.scale = 2;
    run(&mut c, &[], None);
    assert_eq!(out(&c, (2, 1, 1)), [32767, -32768]);
}

#[test]
fn per_element_int8_multiplier_and_both_operands() {
    // INT8 processing; x1 MUL per element with 1-byte operands, truncate 1.
    let whc = (2, 2, 1);
    let src = [10, -10, 3, -3];
    let (ops, ..) = feature(&[3, 5, -1, 7], whc, 1);
    let mut c = case(&src, whc, 0, 0, &ops, &[]);
    c.op.x1_op = SdpOp {
        truncate: 1,
        precision: 0,
        ..x(1, 2, 1, 2, 0)
    };
    run(&mut c, &[], None);
    // 30/2 = 15; −50/2 = −25; −3/2 = −1.5 → −2; −21/2 = −10.5 → −11.
    assert_eq!(out(&c, whc), [15, -25, -2, -11]);
    // BOTH per kernel, INT16: (ALU, MUL) pairs, 2 channels: (+5, ×2), (−1, ×−3).
    let whc = (1, 1, 2);
    let both: Vec<u8> = [5i16, 2, -1, -3]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut c = case(&[1, 4], whc, 1, 1, &both, &[]);
    c.op.x1_op = x(1, 2, 3, 1, 0);
    run(&mut c, &[], None);
    assert_eq!(out(&c, whc), [12, -9]);
}

fn h(v: f32) -> i32 {
    half::f16::from_f32(v).to_bits() as i32
}

#[test]
fn fp16_bias_scale_relu() {
    let whc = (3, 1, 2);
    let src: Vec<i32> = [1.5, -2.0, 0.25, 3.0, -0.5, 100.0].map(h).to_vec();
    let bias: Vec<u8> = [0.5f32, -1.0]
        .iter()
        .flat_map(|&v| (h(v) as u16).to_le_bytes())
        .collect();
    let mut c = case(&src, whc, 2, 2, &bias, &[]);
    c.op.x1_op = SdpOp {
        precision: 2,
        ..x(1, 2, 2, 1, 0)
    };
    c.op.x2_op = SdpOp {
        mul_operand: h(2.0),
        precision: 2,
        ..x(1, 2, 1, 0, 1)
    };
    run(&mut c, &[], None);
    let want: Vec<i32> = [4.0, 0.0, 1.5, 4.0, 0.0, 198.0].map(h).to_vec();
    assert_eq!(out(&c, whc), want);
}

#[test]
fn y_unit_with_a_linear_lut() {
    // Y: MUL by 2 (per layer, truncate 0), ALU + 1, then LUT: LE linear,
    // start 0, index select 2 → entry (x >> 2), table LE[i] = 10·i;
    // LO starts far above so only LE answers, overflow slope 1 from LE end 256.
    let mut lut = LutParam::default();
    for (i, v) in lut.linear_exp_table.iter_mut().enumerate() {
        *v = (10 * i) as i16;
    }
    lut.method = 1;
    lut.linear_exp_offset = 2;
    lut.linear_exp_end = 256;
    lut.linear_only_start = 100_000;
    lut.linear_only_end = 100_000;
    lut.linear_exp_underflow_slope.scale = 1;
    lut.linear_exp_overflow_slope.scale = 1;
    let whc = (4, 1, 1);
    let mut c = case(&[2, 5, -3, 200], whc, 1, 1, &[], &[]);
    c.op.lut_index = 0;
    c.op.y_op = SdpOp {
        mul_operand: 2,
        alu_operand: 1,
        ..x(1, 2, 3, 0, 2)
    };
    run(&mut c, std::slice::from_ref(&lut), None);
    // 2 → 5 → entry 1 + 1/4 → 12.5 → 13; 5 → 11 → 2 + 3/4 → 27.5 → 28;
    // −3 → −5 → underflow: LE[0] + (−5 − 0)·1 = −5; 200 → 401 → overflow
    // (index 100): LE[64] + (401 − 256) = 640 + 145.
    assert_eq!(out(&c, whc), [13, 28, -5, 785]);
}

#[test]
fn on_the_fly_in_and_out() {
    let whc = (2, 1, 1);
    let mut c = case(&[0, 0], whc, 1, 1, &[], &[]);
    c.op.x1_op = x(1, 2, 0, 0, 1);
    c.surf.src_data.mem_type = 2;
    c.surf.dst_data.mem_type = 2;
    let input = Flying {
        width: 2,
        height: 1,
        channel: 1,
        data: FlyingData::Int(vec![-70000, 70000]),
    };
    let got = run(&mut c, &[], Some(input)).expect("flying output");
    assert_eq!(got.data, FlyingData::Int(vec![0, 32767]));
}
