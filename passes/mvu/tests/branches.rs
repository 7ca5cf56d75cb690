//! Branched CNNs: a fire module (SqueezeNet), an inception block with parts
//! that are not whole 64-channel words (GoogLeNet), a two-level dense block
//! (DenseNet), each compiled at 2, 4 and 8 bits and its MVU jobs (the
//! functional model over the data-RAM buffers) compared with `onnc-interp`
//! on the same integer network; the data-RAM placement, the program's
//! addresses, deterministic output, and the refusals that remain.

mod common;
use common::net::{matches_interpreter, program, Net};
use common::{opts, problems, weights};

use onnc_mvu::frontend::placement::{bases, place, place_through_host};
use onnc_mvu::frontend::{compile, random_codes, reference_codes, simulate, CompileOptions};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// SqueezeNet's fire module: squeeze 1×1 → expand 1×1 ‖ expand 3×3 → Concat
/// (`e` channels each), then a 1×1 classifier conv reading the Concat.
fn fire(e: usize) -> Graph {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let stem = n.conv("stem", "x", 8, 16, 3, true);
    let sq = n.conv("squeeze", &stem, 16, 8, 1, true);
    let e1 = n.conv("expand1x1", &sq, 8, e, 1, true);
    let e3 = n.conv("expand3x3", &sq, 8, e, 3, true);
    let cat = n.concat("fire_concat", &[&e1, &e3]);
    let y = n.conv("classifier", &cat, 2 * e, 10, 1, true);
    n.output(&y, &[1, 10, 6, 6])
}

/// An inception block: parts of 24, 40 and 8 channels (none a whole word),
/// then a GlobalAveragePool of the Concat and a Gemm.
fn inception() -> Graph {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let stem = n.conv("stem", "x", 8, 16, 3, true);
    let a = n.conv("b1_1x1", &stem, 16, 24, 1, true);
    let b0 = n.conv("b2_reduce", &stem, 16, 16, 1, true);
    let b = n.conv("b2_3x3", &b0, 16, 40, 3, true);
    let c0 = n.conv("b3_reduce", &stem, 16, 8, 1, true);
    let c = n.conv("b3_5x5", &c0, 8, 8, 5, true);
    let cat = n.concat("inception_concat", &[&a, &b, &c]);
    n.g.nodes
        .push(Node::new("gap", "GlobalAveragePool", &[&cat], &["gap.out"]));
    n.g.nodes
        .push(Node::new("flatten", "Flatten", &["gap.out"], &["flat"]));
    n.salt += 1;
    n.g.initializers
        .push(("fc.weight".into(), weights(&[10, 72], n.salt)));
    n.g.nodes.push(
        Node::new("fc", "Gemm", &["flat", "fc.weight"], &["logits"])
            .with_attr("transB", Attr::Int(1)),
    );
    n.output("logits", &[1, 10])
}

/// A two-level dense block: x0 → d1; [x0, d1] → d2; [x0, d1, d2] → transition.
/// x0 and d1 join two Concats each.
fn dense() -> Graph {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let x0 = n.conv("stem", "x", 8, 16, 3, true);
    let d1 = n.conv("dense1", &x0, 16, 8, 3, true);
    let c1 = n.concat("concat1", &[&x0, &d1]);
    let d2 = n.conv("dense2", &c1, 24, 8, 3, true);
    let c2 = n.concat("concat2", &[&x0, &d1, &d2]);
    let y = n.conv("transition", &c2, 32, 16, 1, true);
    n.output(&y, &[1, 16, 6, 6])
}

#[test]
fn fire_module_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        for e in [64, 32] {
            let c = matches_interpreter("fire", &fire(e), bits, 1);
            assert!(c.flow().is_branched());
        }
    }
}

#[test]
fn fire_concat_is_one_buffer_written_by_both_expands() {
    let c = compile(&fire(32), &opts(2)).unwrap();
    let f = c.flow();
    let names = |i: usize| c.lowered()[i].node.as_str();
    let (cat, buf) = f
        .buffers
        .iter()
        .enumerate()
        .find(|(_, b)| b.parts.len() == 2)
        .expect("a Concat buffer");
    let parts: Vec<(&str, u32, u32)> = buf
        .parts
        .iter()
        .map(|p| (names(p.layer), p.block, p.channels))
        .collect();
    // 32 + 32 channels: each part takes a whole word, the second starts at word 1.
    assert_eq!(parts, [("expand1x1", 0, 32), ("expand3x3", 1, 32)]);
    assert_eq!(buf.width, 96);
    // Both expands read the squeeze output's buffer; the classifier reads the
    // Concat's, widened to its 96 stored channels (32 gap channels of zeros).
    let reads = |n: &str| f.layers[c.lowered().iter().position(|l| l.node == n).unwrap()].input;
    assert_eq!(reads("expand1x1"), reads("expand3x3"));
    assert_eq!(reads("classifier"), cat);
    let cls = c.lowered().iter().find(|l| l.node == "classifier").unwrap();
    assert_eq!(cls.layer.in_channels(), 96);
    // The expands write their words pixel by pixel (1x1 windows of the
    // pooled schedule) and skip the other part's word after each pixel.
    let rows = &c.table().rows;
    let e3 = rows.iter().find(|r| r.name == "expand3x3").unwrap();
    assert_eq!(e3.jobs, 36);
    assert!(e3.pool.is_some_and(|p| p.kernel == [1, 1]));
    let asm = program(&c);
    assert!(
        asm.contains(
            "li t0, 2\n    add s1, s1, t0    # the other Concat parts' words of this pixel"
        ),
        "{asm}"
    );
}

#[test]
fn aligned_fire_parts_need_no_gap_channels() {
    let c = compile(&fire(64), &opts(4)).unwrap();
    let cls = c
        .lowered()
        .iter()
        .position(|l| l.node == "classifier")
        .unwrap();
    assert_eq!(c.lowered()[cls].layer.in_channels(), 128);
    assert_eq!(c.flow().layers[cls].input_map, None);
}

#[test]
fn inception_block_with_unaligned_parts_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("inception", &inception(), bits, 2);
        // 24 | 40 | 8 channels: words 0, 1, 2; 136 stored channels.
        let buf = c
            .flow()
            .buffers
            .iter()
            .find(|b| b.parts.len() == 3)
            .unwrap();
        let words: Vec<u32> = buf.parts.iter().map(|p| p.block).collect();
        assert_eq!((words, buf.width), (vec![0, 1, 2], 136));
        // The GlobalAveragePool reads the 136 stored channels and sums the 72 real ones.
        let gap = c.lowered().iter().position(|l| l.node == "gap").unwrap();
        let map = c.flow().layers[gap].input_map.clone().unwrap();
        assert_eq!(map.len(), 72);
        assert_eq!((map[23], map[24], map[64], map[71]), (23, 64, 128, 135));
    }
}

#[test]
fn dense_block_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("dense", &dense(), bits, 3);
        // Both Concats and their shared parts are one buffer: stem | dense1 | dense2.
        let f = c.flow();
        let shared: Vec<_> = f.buffers.iter().filter(|b| b.parts.len() > 1).collect();
        assert_eq!(shared.len(), 1);
        let parts: Vec<&str> = shared[0]
            .parts
            .iter()
            .map(|p| c.lowered()[p.layer].node.as_str())
            .collect();
        assert_eq!(parts, ["stem", "dense1", "dense2"]);
        // dense1 reads the stem's word of it, dense2 the first two words:
        // both read the whole buffer with zero weights elsewhere.
        for n in ["dense1", "dense2", "transition"] {
            let i = c.lowered().iter().position(|l| l.node == n).unwrap();
            assert_eq!(c.lowered()[i].layer.in_channels(), 136, "{n}");
        }
    }
}

#[test]
fn compiling_twice_gives_the_same_bytes() {
    for g in [fire(32), inception(), dense()] {
        let o = CompileOptions {
            test_vectors: true,
            ..opts(4)
        };
        let a = compile(&g, &o).unwrap();
        let b = compile(&g, &o).unwrap();
        assert_eq!(a.files(), b.files());
    }
}

#[test]
fn buffers_are_placed_by_live_range_and_the_ram_is_reused() {
    let c = compile(&inception(), &opts(2)).unwrap();
    let p = place(c.flow(), c.lowered(), 32768).unwrap();
    let f = c.flow();
    // The graph input is at word 0, where the host loads input_0.hex.
    assert_eq!(p.buffers[0].at, 0);
    // No two buffers live at the same time overlap.
    for (i, a) in p.buffers.iter().enumerate() {
        for b in &p.buffers[i + 1..] {
            let together = a.start <= b.end && b.start <= a.end;
            let overlap = a.at < b.at + b.words && b.at < a.at + a.words;
            assert!(!(together && overlap), "{a:?} and {b:?}");
        }
    }
    // Some word is used by two buffers at different times, so the peak is
    // below the sum of all buffers.
    let total: u64 = p.buffers.iter().map(|b| b.words).sum();
    assert!(p.peak < total, "peak {} of {total}", p.peak);
    // The program reads and writes at these addresses: b2_3x3 reads its
    // reduce's buffer and writes word 1 of the Concat buffer.
    let i = c.lowered().iter().position(|l| l.node == "b2_3x3").unwrap();
    let io = &f.layers[i];
    let asm = program(&c);
    let layer = asm
        .split("# layer ")
        .find(|s| s.starts_with(&format!("{i}: b2_3x3")))
        .unwrap();
    assert!(layer.contains(&format!(
        "li s1, {}    # output base",
        p.buffers[io.output].at + 2
    )));
    assert!(layer.contains(&format!(
        "li s3, {}    # input base of the pooled row",
        p.buffers[io.input].at
    )));
}

#[test]
fn buffers_that_do_not_fit_move_their_layers_through_the_host() {
    // 64x64 pixels, 4 bits: the Concat's buffer is 32768 words alone.
    let mut n = Net::new(&[1, 8, 64, 64]);
    let stem = n.conv("stem", "x", 8, 16, 1, true);
    let a = n.conv("left", &stem, 16, 8, 1, true);
    let b = n.conv("right", &stem, 16, 8, 1, true);
    let cat = n.concat("cat", &[&a, &b]);
    let g = n.output(&cat, &[1, 16, 64, 64]);
    let c = matches_interpreter("wide_concat", &g, 4, 8);
    // All in the data RAM, it is refused naming the layers and buffers.
    let e = place(c.flow(), c.lowered(), 32768).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "node 'left' (Conv): its output buffer ('left' + 'right': 32768 data-RAM words) \
             does not fit beside the buffers live with it: 'stem' (16384 words, until 'right')"
        ),
        "{e}"
    );
    // So the parts' producers run through the host (input at word 0,
    // output in the upper half); the stem and the graph input stay.
    let split = vec![false; 3];
    let (p, host) = place_through_host(c.flow(), c.lowered(), &split, 32768).unwrap();
    assert_eq!(host, [false, true, true]);
    assert_eq!((p.buffers[0].words, p.peak), (16384, 32768));
    let asm = program(&c);
    let right = asm
        .split("# layer ")
        .find(|s| s.starts_with("2: right"))
        .unwrap();
    assert!(right.contains("li s1, 16384    # output base"), "{right}");
}

#[test]
fn residual_add_is_still_refused_naming_both_producers() {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let stem = n.conv("stem", "x", 8, 16, 3, true);
    let a = n.conv("branch", &stem, 16, 16, 3, false);
    n.g.nodes
        .push(Node::new("add", "Add", &[&a, &stem], &["sum"]));
    let g = n.output("sum", &[1, 16, 6, 6]);
    let e = problems(compile(&g, &opts(2)).unwrap_err());
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with(
            "node 'add' (Add): joins two paths (from 'branch' and 'stem_relu'); BARVINN runs plain CNNs, whose paths join only in a channel Concat"
        ),
        "{e:?}"
    );
}

#[test]
fn an_interleaved_part_without_relu_bypasses_the_pooler_and_matches_the_interpreter() {
    // DenseNet's dense layers end in a conv without ReLU (pre-activation):
    // its one-pixel jobs run with the pooler off, so negative values keep
    // their two's complement codes instead of becoming max(0, v).
    for bits in [2, 4, 8] {
        let mut n = Net::new(&[1, 8, 6, 6]);
        let stem = n.conv("stem", "x", 8, 16, 3, true);
        let a = n.conv("left", &stem, 16, 8, 1, true);
        let b = n.conv("right", &stem, 16, 8, 3, false);
        let cat = n.concat("cat", &[&a, &b]);
        let g = n.output(&cat, &[1, 16, 6, 6]);
        let c = matches_interpreter("no_relu_part", &g, bits, 9);
        let rows = &c.table().rows;
        let right = rows.iter().find(|r| r.name == "right").unwrap();
        let left = rows.iter().find(|r| r.name == "left").unwrap();
        assert_eq!(
            (right.jobs, right.pool.map(|p| p.kernel)),
            (36, Some([1, 1]))
        );
        assert!(!right.uses_pooler() && left.uses_pooler());
        assert_eq!(right.command_word() >> 29 & 1, 0);
        assert!(program(&c).contains("# MulMode 01 | pooler off | countdown"));
    }
}

#[test]
fn a_concat_of_the_graph_input_is_refused() {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let a = n.conv("left", "x", 8, 8, 1, true);
    let cat = n.concat("cat", &["x", &a]);
    let g = n.output(&cat, &[1, 16, 6, 6]);
    let e = problems(compile(&g, &opts(2)).unwrap_err());
    assert!(
        e[0].starts_with("node 'cat' (Concat): part 'x' is the graph input"),
        "{e:?}"
    );
}

#[test]
fn a_branch_reading_a_layer_before_its_relu_is_refused() {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let stem = n.conv("stem", "x", 8, 16, 3, false);
    n.g.nodes
        .push(Node::new("stem_relu", "Relu", &[&stem], &["r"]));
    let a = n.conv("left", "r", 16, 8, 1, true);
    let b = n.conv("right", &stem, 16, 8, 1, true);
    let cat = n.concat("cat", &[&a, &b]);
    let g = n.output(&cat, &[1, 16, 6, 6]);
    let e = problems(compile(&g, &opts(2)).unwrap_err());
    assert!(
        e[0].starts_with("node 'right' (Conv): reads 'stem.out', which is not in the data RAM"),
        "{e:?}"
    );
}

#[test]
fn interleaved_parts_write_every_word_of_the_concat_buffer_once() {
    // The program's pooled job loops: job (pixel p, word j) of a part writes
    // `oprec` words at output + p·(words·oprec + pixel_skip) + j·oprec.
    for (g, bits) in [(fire(32), 2), (inception(), 4), (dense(), 8)] {
        let c = compile(&g, &opts(bits)).unwrap();
        let f = c.flow();
        let p = place(f, c.lowered(), 32768).unwrap();
        let b = bases(f, c.lowered(), &p);
        for (k, buf) in f
            .buffers
            .iter()
            .enumerate()
            .filter(|(_, b)| b.interleaved())
        {
            let at = p.buffers[k].at;
            let mut written = vec![0u32; buf.words() as usize];
            for part in &buf.parts {
                let op = u64::from(bits);
                let words = u64::from(c.lowered()[part.layer].layer.out_channels()).div_ceil(64);
                let base = &b[part.layer];
                for px in 0..buf.pixels {
                    for j in 0..words {
                        let a = u64::from(base.output)
                            + px * (words * op + u64::from(base.pixel_skip))
                            + j * op;
                        for w in a..a + op {
                            written[(w - at) as usize] += 1;
                        }
                    }
                }
            }
            assert!(written.iter().all(|&n| n == 1), "buffer {k}: {written:?}");
        }
    }
}

#[test]
fn calibrated_concat_parts_share_one_window_and_match_the_interpreter() {
    for (name, g) in [
        ("fire", fire(32)),
        ("inception", inception()),
        ("dense", dense()),
    ] {
        let shape = g.inputs[0].type_info().static_shape().unwrap();
        let n: usize = shape.iter().product();
        let calib: Vec<Vec<i64>> = (0..2)
            .map(|s| {
                random_codes(n, 8, 20 + s)
                    .iter()
                    .map(|&v| v as i64)
                    .collect()
            })
            .collect();
        let o = CompileOptions {
            calibration: calib,
            ..opts(8)
        };
        let c = compile(&g, &o).unwrap_or_else(|e| panic!("{name}: {e}"));
        let msb = |i: usize| c.lowered()[i].layer.quant_msb.unwrap();
        for buf in c.flow().buffers.iter().filter(|b| b.parts.len() > 1) {
            let ws: Vec<u32> = buf.parts.iter().map(|p| msb(p.layer)).collect();
            assert!(ws.iter().all(|&w| w == ws[0]), "{name}: {ws:?}");
            // Calibration chose windows above the default one.
            assert!(ws[0] > 7, "{name}: {ws:?}");
        }
        let x = random_codes(n, 8, 5);
        let mvu = simulate(&c, &x).unwrap();
        assert_eq!(mvu, reference_codes(&g, &c, &x).unwrap(), "{name}");
        assert!(mvu.iter().any(|&v| v != 0), "{name}");
    }
}
