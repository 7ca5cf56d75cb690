//! Layers split to fit the MVU RAMs compute what the whole layer computes:
//! the functional model runs every piece (its own rows, pads, channels and
//! weight slice) and is checked against `onnc-interp` on the unsplit graph.

mod common;
use common::opts;
use common::vi;
use onnc_mvu::frontend::{compile, random_codes, reference_codes, simulate, CompileOptions};
use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, Tensor};

/// Weights in {-1, 0, 1} from a fixed pattern (kept with scale 1 at any precision).
fn ternary(shape: &[usize], salt: usize) -> Tensor {
    let n: usize = shape.iter().product();
    let v = (0..n)
        .map(|i| (((i * 7 + salt) * 2654435761) >> 7) % 3)
        .map(|k| k as f32 - 1.0)
        .collect();
    Tensor::from_f32(shape.to_vec(), v).expect("weights")
}

fn check(g: &Graph, o: CompileOptions, seed: u64) -> onnc_mvu::Compiled {
    let c = compile(g, &o).unwrap_or_else(|e| panic!("{e}"));
    let shape = g.inputs[0].type_info().static_shape().expect("static");
    let x = random_codes(shape.iter().product(), o.aprec, seed);
    let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
    let want = reference_codes(g, &c, &x).expect("interp");
    assert_eq!(mvu.len(), want.len());
    let diff = mvu.iter().zip(&want).filter(|(a, b)| a != b).count();
    assert_eq!(diff, 0, "{diff} of {} outputs differ", want.len());
    assert!(mvu.iter().any(|&v| v != 0));
    c
}

/// Conv 256 -> 128 (3x3, pad 1) + Relu + MaxPool 2x2 on 24 x 24 at 8 bits:
/// 288 weight words per 64-channel block (two pieces of one block), and
/// 4 * 24 * 24 * 8 = 18432 input words > 16384 (row bands).
#[test]
fn pooled_conv_split_over_channels_and_rows_matches_the_interpreter() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 256, 24, 24])],
        outputs: vec![vi("p", &[1, 128, 12, 12])],
        initializers: vec![("w".into(), ternary(&[128, 256, 3, 3], 1))],
        nodes: vec![
            Node::new("conv", "Conv", &["x", "w"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1])),
            Node::new("relu", "Relu", &["y"], &["r"]),
            Node::new("pool", "MaxPool", &["r"], &["p"])
                .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
                .with_attr("strides", Attr::Ints(vec![2, 2])),
        ],
        ..Graph::default()
    };
    let c = check(&g, opts(8), 11);
    let pieces = &c.pieces()[0];
    let channel_groups: std::collections::BTreeSet<_> = pieces
        .iter()
        .map(|p| (p.channels.start, p.channels.end))
        .collect();
    assert_eq!(
        channel_groups.into_iter().collect::<Vec<_>>(),
        [(0, 64), (64, 128)]
    );
    assert!(pieces.len() > 2, "row bands too: {}", pieces.len());
    // A band ends on a pool window: the bands' pooled rows tile 0..12.
    let rows: Vec<_> = pieces
        .iter()
        .filter(|p| p.channels.start == 0)
        .map(|p| p.rows.clone())
        .collect();
    assert_eq!((rows[0].start, rows.last().map(|r| r.end)), (0, Some(12)));
    assert!(rows.windows(2).all(|w| w[0].end == w[1].start));
    assert!(c
        .table()
        .rows
        .iter()
        .all(|r| r.memory.weight_words <= 512 && r.memory.input_words <= 16384));
}

/// Gemm 4096 -> 160 at 8 bits: 64 blocks * 8 = 512 words per output block, so
/// one block per piece (three pieces, the last of 32 features).
#[test]
fn gemm_split_over_output_features_matches_the_interpreter() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 4096])],
        outputs: vec![vi("r", &[1, 160])],
        initializers: vec![("w".into(), ternary(&[160, 4096], 2))],
        nodes: vec![
            Node::new("fc", "Gemm", &["x", "w"], &["y"]).with_attr("transB", Attr::Int(1)),
            Node::new("relu", "Relu", &["y"], &["r"]),
        ],
        ..Graph::default()
    };
    let c = check(&g, opts(8), 12);
    let names: Vec<_> = c.table().rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["fc.oc0_64", "fc.oc64_128", "fc.oc128_160"]);
}

/// The column bands of `c`'s first layer: `(cols, in_cols)` of each, in order.
fn column_bands(c: &onnc_mvu::Compiled) -> Vec<(u32, u32, u32, u32)> {
    let mut b: Vec<_> = c.pieces()[0]
        .iter()
        .map(|p| (p.cols.start, p.cols.end, p.in_cols.start, p.in_cols.end))
        .collect();
    b.sort();
    b.dedup();
    b
}

/// AlexNet's stem in small: Conv 3 -> 64, 11x11 stride 4, pad 2, + Relu +
/// MaxPool 3x3/2 (overlapping windows) on 31 x 600 at 4 bits. One pooled row
/// reads 19 input rows x 600 columns x 4 bits = 45600 words > 16384, so the
/// layer is split into bands of pooled columns, each reading its own input
/// columns (windows and kernel overlap included); the model of the banded
/// jobs equals the interpreter on the unsplit layer.
#[test]
fn pooled_strided_conv_in_column_bands_matches_the_interpreter() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 3, 31, 600])],
        outputs: vec![vi("p", &[1, 64, 3, 74])],
        initializers: vec![("w".into(), ternary(&[64, 3, 11, 11], 5))],
        nodes: vec![
            Node::new("conv", "Conv", &["x", "w"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![11, 11]))
                .with_attr("strides", Attr::Ints(vec![4, 4]))
                .with_attr("pads", Attr::Ints(vec![2, 2, 2, 2])),
            Node::new("relu", "Relu", &["y"], &["r"]),
            Node::new("pool", "MaxPool", &["r"], &["p"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("strides", Attr::Ints(vec![2, 2])),
        ],
        ..Graph::default()
    };
    let c = check(&g, opts(4), 21);
    let bands = column_bands(&c);
    assert_eq!(bands.len(), 3, "{bands:?}");
    // The bands tile the 74 pooled columns; neighbours' input columns overlap.
    assert_eq!((bands[0].0, bands[2].1), (0, 74));
    assert!(bands
        .windows(2)
        .all(|w| w[0].1 == w[1].0 && w[1].2 < w[0].3));
    assert!(c
        .table()
        .rows
        .iter()
        .all(|r| r.memory.input_words <= 16384 && r.memory.output_words <= 16384));
}

/// Conv 8 -> 64, 3x3, pad 1 + Relu on 6 x 700 at 8 bits: a row reads
/// 3 x 700 x 8 = 16800 words; two column bands, the outer edges padded.
#[test]
fn padded_conv_in_column_bands_matches_the_interpreter() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 8, 6, 700])],
        outputs: vec![vi("r", &[1, 64, 6, 700])],
        initializers: vec![("w".into(), ternary(&[64, 8, 3, 3], 6))],
        nodes: vec![
            Node::new("conv", "Conv", &["x", "w"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1])),
            Node::new("relu", "Relu", &["y"], &["r"]),
        ],
        ..Graph::default()
    };
    let c = check(&g, opts(8), 22);
    assert_eq!(column_bands(&c), [(0, 350, 0, 351), (350, 700, 349, 700)]);
    let names: Vec<_> = c.table().rows.iter().map(|r| r.name.as_str()).collect();
    assert!(names.iter().all(|n| n.starts_with("conv.c")), "{names:?}");
}
