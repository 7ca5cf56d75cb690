//! Layers split to fit the RAMs inside a network with branches and
//! `Concat`s (a 224² stem before SqueezeNet's fire modules): the split layer
//! runs through the host as in a chain (input bands at word 0, output in
//! the upper half), the buffers around it are placed only while unsplit
//! layers use them, and a buffer that would stay in the data RAM while a
//! split layer runs (refused by `place_split`, naming both) moves the layers
//! writing and reading it through the host too.

mod common;
use common::net::{matches_interpreter, program, Net};

use onnc_mvu::frontend::placement::{place_split, place_through_host};
use onnc_onnx::Graph;

/// A 128×128 input (8 channels: 16384 words at 1 bit, more than half the
/// data RAM at 2 bits and up), a 3×3/4 stem to 32×32, then a fire module
/// (squeeze 8, expands 32 + 32) and a 1×1 classifier reading the Concat.
fn big_stem_fire() -> Graph {
    let mut n = Net::new(&[1, 8, 128, 128]);
    let stem = n.conv_strided("stem", "x", (8, 16), 3, 4, true);
    let sq = n.conv("squeeze", &stem, 16, 8, 1, true);
    let e1 = n.conv("expand1x1", &sq, 8, 32, 1, true);
    let e3 = n.conv("expand3x3", &sq, 8, 32, 3, true);
    let cat = n.concat("fire_concat", &[&e1, &e3]);
    let y = n.conv("classifier", &cat, 64, 10, 1, true);
    n.output(&y, &[1, 10, 32, 32])
}

#[test]
fn a_split_stem_before_a_fire_module_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("big_stem_fire", &big_stem_fire(), bits, 6);
        assert!(c.flow().is_branched());
        let stem_pieces = c.pieces()[0].len();
        assert!(stem_pieces > 1, "{bits} bits: the stem is one piece");
        // The stem's pieces run as a chain's: input band at 0, output in
        // the upper half; the graph input is the host's (not placed).
        let asm = program(&c);
        for (j, r) in c.table().rows.iter().take(stem_pieces).enumerate() {
            let text = asm
                .split("# layer ")
                .find(|s| s.starts_with(&format!("{j}: {}", r.name)))
                .unwrap_or_else(|| panic!("no layer {j}: {}", r.name));
            let (input, output) = if j % 2 == 0 { (0, 16384) } else { (16384, 0) };
            assert!(
                text.contains(&format!("li s3, {input}    # input base"))
                    && text.contains(&format!("li s1, {output}    # output base")),
                "{bits} bits, piece {j}: bases {input} / {output}\n{text}"
            );
        }
        let split: Vec<bool> = c.pieces().iter().map(|p| p.len() > 1).collect();
        let p = place_split(c.flow(), c.lowered(), &split, 32768).unwrap();
        assert_eq!(
            p.buffers[0].words, 0,
            "the graph input is loaded band by band"
        );
        // The stem's output is in the data RAM from the squeeze on.
        let stem_out = c.flow().layers[0].output;
        assert_eq!(
            (p.buffers[stem_out].start, p.buffers[stem_out].words > 0),
            (1, true)
        );
    }
}

/// 'a' (unsplit) writes a Concat's first part before 'b' (split: it reads
/// the 96×96 input, 18432 words at 2 bits) writes the second.
fn part_before_split() -> Graph {
    let mut n = Net::new(&[1, 8, 96, 96]);
    let p = n.conv_strided("p", "x", (8, 16), 1, 4, true);
    let a = n.conv("a", &p, 16, 8, 1, true);
    let b = n.conv_strided("b", "x", (8, 8), 3, 4, true);
    let cat = n.concat("cat", &[&a, &b]);
    n.output(&cat, &[1, 16, 24, 24])
}

#[test]
fn a_buffer_in_the_data_ram_while_a_split_layer_runs_moves_its_layers_through_the_host() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("part_before_split", &part_before_split(), bits, 7);
        let split: Vec<bool> = c.pieces().iter().map(|p| p.len() > 1).collect();
        assert_eq!(split, [true, false, true], "{bits} bits: p and b are split");
        // Placed as it is, the Concat's buffer would stay in the data RAM
        // while b's pieces use all of it: refused naming both.
        let e = place_split(c.flow(), c.lowered(), &split, 32768).unwrap_err();
        let words = 2 * 24 * 24 * u64::from(bits);
        assert!(
            e.to_string().starts_with(&format!(
                "node 'b' (Conv): is split into pieces to fit one MVU's RAMs, which use the whole data \
                 RAM (the host loads each piece's input band at word 0 and reads its output from the \
                 upper half), while the buffer of 'a' + 'b' ({words} words) stays in the data RAM from \
                 'a' to 'b'"
            )),
            "{e}"
        );
        // So 'a' runs through the host too, and nothing is left in the RAM.
        let (placed, host) = place_through_host(c.flow(), c.lowered(), &split, 32768).unwrap();
        assert_eq!(host, [true, true, true]);
        assert!(placed.buffers.iter().all(|b| b.words == 0));
        let asm = program(&c);
        let i = c.table().rows.iter().position(|r| r.name == "a").unwrap();
        let a = asm
            .split("# layer ")
            .find(|s| s.starts_with(&format!("{i}: a")))
            .unwrap();
        assert!(a.contains("li s1, 16384    # output base"), "{a}");
    }
}
