//! Front-end bad input: every problem is reported, naming the node or option,
//! what is wrong and how to fix it — never a panic.

mod common;

use common::{conv3x3, vi, weights};
use onnc_mvu::{compile, CompileOptions};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// input [1, c, hw, hw] → conv (c → 64) → relu.
fn one_conv(c: usize, hw: usize) -> Graph {
    one_conv_hw(c, hw, hw)
}

fn one_conv_hw(c: usize, h: usize, w: usize) -> Graph {
    Graph {
        inputs: vec![vi("x", &[1, c, h, w])],
        outputs: vec![vi("r", &[1, 64, h, w])],
        initializers: vec![("w".into(), weights(&[64, c, 3, 3], 1))],
        nodes: vec![
            conv3x3("conv_1", "x", "w", "y", 1),
            Node::new("relu_1", "Relu", &["y"], &["r"]),
        ],
        ..Graph::default()
    }
}

fn opts(a: u32, w: u32, o: u32) -> CompileOptions {
    CompileOptions {
        aprec: a,
        wprec: w,
        oprec: o,
        test_vectors: false,
        ..CompileOptions::default()
    }
}

#[test]
fn precisions_outside_1_to_16_are_all_reported() {
    let e = compile(&one_conv(64, 8), &opts(0, 17, 4)).unwrap_err();
    let p = e.problems();
    assert_eq!(p.len(), 2, "{e}");
    assert_eq!(
        (p[0].subject.as_str(), p[1].subject.as_str()),
        ("--aprec", "--wprec")
    );
    assert!(
        e.to_string()
            .contains("--wprec: 17 bits is outside the MVU's 1..=16"),
        "{e}"
    );
    assert!(compile(&one_conv(64, 8), &opts(16, 16, 16)).is_ok());
    assert!(compile(&one_conv(64, 8), &opts(1, 2, 1)).is_ok());
}

#[test]
fn negative_weights_at_one_bit_ask_for_two() {
    let e = compile(&one_conv(64, 8), &opts(2, 1, 2)).unwrap_err();
    assert_eq!(e.problems()[0].node.as_deref(), Some("conv_1"));
    assert!(
        e.to_string()
            .contains("wprec = 1 bits is outside the supported range 2..=16"),
        "{e}"
    );
}

#[test]
fn residual_join_is_named_with_both_paths() {
    let mut g = one_conv(64, 8);
    g.initializers
        .push(("w2".into(), weights(&[64, 64, 3, 3], 2)));
    g.nodes.push(conv3x3("conv_2", "r", "w2", "z", 1));
    g.nodes.push(Node::new("add_3", "Add", &["z", "r"], &["s"]));
    g.outputs = vec![vi("s", &[1, 64, 8, 8])];
    let e = compile(&g, &opts(2, 2, 2)).unwrap_err();
    assert_eq!(e.problems().len(), 1, "{e}");
    let p = &e.problems()[0];
    assert_eq!(
        (p.node.as_deref(), p.subject.as_str()),
        (Some("add_3"), "Add")
    );
    assert!(e.to_string().starts_with("node 'add_3' (Add): joins two paths (from 'conv_2' and 'relu_1'); BARVINN runs plain CNNs, whose paths join only in a channel Concat"), "{e}");
}

#[test]
fn two_pipeline_stages_on_one_layer_output_are_reported() {
    let mut g = one_conv(64, 8);
    g.nodes.push(Node::new("relu_2", "Relu", &["y"], &["q"]));
    let e = compile(&g, &opts(2, 2, 2)).unwrap_err();
    assert!(
        e.to_string()
            .contains("node 'relu_2' (Relu): reads 'y', the output of 'conv_1' before its output pipeline goes on in 'relu_1'"),
        "{e}"
    );
}

#[test]
fn layer_beyond_the_data_ram_is_split_into_row_bands() {
    // 64 channels x 256 x 256 x 8 bits = 524288 data-RAM words; one MVU holds
    // 32768 and a program reads one half and writes the other: 7 output rows
    // would read 9 input rows (3x3 halo) = 9 * 256 * 8 = 18432 > 16384 words,
    // so a band is 6 output rows reading 8 input rows (16384 words); the
    // first band's top row is padding, so it has 7.
    let c = compile(&one_conv(64, 256), &opts(8, 8, 8)).expect("split into bands");
    let rows = &c.table().rows;
    assert_eq!(rows.len(), 1 + (256usize - 7).div_ceil(6));
    assert_eq!(
        (rows[0].name.as_str(), rows[1].name.as_str()),
        ("conv_1.r0_7", "conv_1.r7_13")
    );
    assert!(rows
        .iter()
        .all(|r| r.memory.input_words <= 16384 && r.memory.output_words <= 16384));
    let pieces = &c.pieces()[0];
    assert_eq!(
        (pieces[0].in_rows.clone(), pieces[1].in_rows.clone()),
        (0..8, 6..14)
    );
    // Only the first band carries the weight image; the rest reuse it.
    assert_eq!(
        c.files()
            .iter()
            .filter(|f| f.name.ends_with(".hex") && f.name != "input_0.hex")
            .count(),
        1
    );
}

#[test]
fn output_row_beyond_half_the_data_ram_is_split_into_column_bands() {
    // One output row of a 3x3 conv reads 3 input rows of 1024 x 8-bit pixels
    // = 24576 words, more than the half of the data RAM a band may use: two
    // bands of 512 output columns each read 513 input columns (the kernel
    // overlap; the outer edge is padding), 3 * 513 * 8 = 12312 words a row.
    let c = compile(&one_conv_hw(64, 8, 1024), &opts(8, 8, 8)).expect("column bands");
    let pieces = &c.pieces()[0];
    let bands: Vec<_> = pieces
        .iter()
        .map(|p| (p.cols.start, p.cols.end, p.in_cols.start, p.in_cols.end))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(bands, [(0, 512, 0, 513), (512, 1024, 511, 1024)]);
    assert!(
        c.table().rows[0].name.starts_with("conv_1.c0_512.r0_"),
        "{}",
        c.table().rows[0].name
    );
    assert!(c
        .table()
        .rows
        .iter()
        .all(|r| r.memory.input_words <= 16384 && r.memory.output_words <= 16384));
    // One weight image: the bands share their channel group's.
    assert_eq!(
        c.files()
            .iter()
            .filter(|f| f.name.ends_with(".hex") && f.name != "input_0.hex")
            .count(),
        1
    );
}

#[test]
fn output_pixel_beyond_half_the_data_ram_is_an_error_naming_it() {
    // 192 channels (3 blocks), 13x13 kernel at 1-bit weights: 507 weight
    // words per block; a 7x7 pool window of 16-bit outputs reads 19 x 19
    // input pixels: 19 * 19 * 3 * 16 = 17328 words, even for one column.
    let g = Graph {
        inputs: vec![vi("x", &[1, 192, 20, 20])],
        outputs: vec![vi("p", &[1, 64, 2, 2])],
        initializers: vec![(
            "w".into(),
            onnc_tensor::Tensor::from_f32(vec![64, 192, 13, 13], vec![1.0; 64 * 192 * 169])
                .unwrap(),
        )],
        nodes: vec![
            Node::new("conv_1", "Conv", &["x", "w"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![13, 13])),
            Node::new("relu_1", "Relu", &["y"], &["r"]),
            Node::new("pool_1", "MaxPool", &["r"], &["p"])
                .with_attr("kernel_shape", Attr::Ints(vec![7, 7])),
        ],
        ..Graph::default()
    };
    let e = compile(&g, &opts(16, 1, 16)).unwrap_err();
    assert!(
        e.to_string().contains(
            "node 'conv_1' (Conv): input activations of one output pixel (half the data RAM) needs 17328 words but holds 16384"
        ),
        "{e}"
    );
    // Without the RAM check (BARVINN's generator) the table is made, but the
    // program still cannot address the last job's input: 255 * 2048 words.
    let e = compile(
        &one_conv(64, 256),
        &CompileOptions {
            check_capacity: false,
            ..opts(8, 8, 8)
        },
    )
    .unwrap_err();
    assert!(
        e.to_string().contains(
            "node 'conv_1' (Conv): mvuibaseptr (last job) = 522240 does not fit its 15-bit field"
        ),
        "{e}"
    );
}

#[test]
fn unsupported_ops_are_listed_together() {
    let mut g = one_conv(64, 8);
    g.nodes.push(
        Node::new("pool_1", "AveragePool", &["r"], &["p"])
            .with_attr("kernel_shape", Attr::Ints(vec![2, 2])),
    );
    g.nodes.push(Node::new("soft_1", "Softmax", &["p"], &["s"]));
    g.outputs = vec![vi("s", &[1, 64, 7, 7])];
    let e = compile(&g, &opts(2, 2, 2)).unwrap_err();
    let nodes: Vec<_> = e
        .problems()
        .iter()
        .map(|p| p.node.clone().unwrap())
        .collect();
    assert_eq!(nodes, ["pool_1", "soft_1"], "{e}");
    assert!(
        e.to_string()
            .contains("node 'soft_1' (Softmax): Softmax is not supported by the MVU back end"),
        "{e}"
    );
}

#[test]
fn batch_uneven_groups_and_dilation_are_refused() {
    let mut g = one_conv(64, 8);
    g.inputs = vec![vi("x", &[2, 64, 8, 8])];
    let e = compile(&g, &opts(2, 2, 2)).unwrap_err();
    assert!(
        e.to_string()
            .contains("batch is 2; an MVU program runs one image"),
        "{e}"
    );
    let mut g = one_conv(64, 8);
    g.initializers[0].1 = weights(&[64, 32, 3, 3], 1);
    g.nodes[0].attrs.insert("group".into(), Attr::Int(2));
    // Two groups of 32 channels: one conv with block-diagonal [64, 64, 3, 3] weights.
    let c = compile(&g, &opts(2, 2, 2)).expect("a grouped Conv compiles");
    assert_eq!(c.layers()[0].weight_shape(), vec![64, 64, 3, 3]);
    // Weights [64, 32, 3, 3] with group 3: 64 channels do not split into 3 groups.
    g.nodes[0].attrs.insert("group".into(), Attr::Int(3));
    let e = compile(&g, &opts(2, 2, 2)).unwrap_err();
    assert!(
        e.to_string()
            .contains("node 'conv_1' (Conv): X has 64 channels but W expects 32 × group 3"),
        "{e}"
    );
}

#[test]
fn non_constant_weights_are_refused() {
    let mut g = one_conv(64, 8);
    g.initializers.clear();
    g.inputs.push(vi("w", &[64, 64, 3, 3]));
    let e = compile(&g, &opts(2, 2, 2)).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("2 runtime inputs"), "{msg}");
}
