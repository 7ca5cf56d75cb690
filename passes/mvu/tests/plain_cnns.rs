//! Plain CNNs with max pooling, global average pooling and ReLU6 (made by
//! `tests/fixtures/make_plain_cnns.py`): what compiles at 2, 4 and 8 bits,
//! what is refused and why, and the functional model of the emitted MVU
//! jobs against `onnc-interp` on the same integer network.

mod common;
use common::{opts, problems};

use onnc_mvu::frontend::{
    compile, random_codes, reference_codes, simulate, CompileOptions, PieceKind,
};

fn load(name: &str) -> onnc_onnx::Graph {
    let p = format!(
        "{}/tests/data/plain/{name}.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    onnc_onnx::load(&p, &onnc_onnx::Options::default())
        .expect("fixture loads")
        .graph
}

/// Compiles `name` at `bits`, runs the model and the interpreter on seeded
/// input codes and asserts they agree exactly; returns the output codes.
fn model_matches_interpreter(name: &str, o: CompileOptions, seed: u64) -> Vec<i64> {
    let g = load(name);
    let c = compile(&g, &o).unwrap_or_else(|e| panic!("{name} at {} bits: {e}", o.aprec));
    let input = &g.inputs[0];
    let shape = input.type_info().static_shape().expect("static input");
    let x = random_codes(shape.iter().product(), o.aprec, seed);
    let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = reference_codes(&g, &c, &x).expect("interpreter runs");
    assert_eq!(
        mvu, want,
        "{name} at {}/{}/{} bits, quant_msb {:?}",
        o.aprec, o.wprec, o.oprec, o.quant_msb
    );
    assert!(
        mvu.iter().any(|&v| v != 0),
        "{name}: an all-zero output proves little: {mvu:?}"
    );
    mvu
}

#[test]
fn vgg_style_max_pooling_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        model_matches_interpreter("vgg_pool", opts(bits), 1);
        // A window dropping low bits exercises the quantizer's shift.
        model_matches_interpreter(
            "vgg_pool",
            CompileOptions {
                quant_msb: Some(bits + 1),
                ..opts(bits)
            },
            2,
        );
    }
}

#[test]
fn global_average_pooling_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        model_matches_interpreter("gap_net", opts(bits), 3);
        model_matches_interpreter(
            "gap_net",
            CompileOptions {
                quant_msb: Some(bits),
                ..opts(bits)
            },
            4,
        );
    }
}

#[test]
fn global_average_pooling_is_a_summing_identity_conv_over_the_map() {
    let c = compile(&load("gap_net"), &opts(8)).expect("compiles");
    let gap = &c.lowered()[2];
    assert_eq!(
        (gap.op.as_str(), gap.sum_of),
        ("GlobalAveragePool", Some(36))
    );
    let r = &c.table().rows[2];
    assert_eq!((r.i_shape, r.f_shape, r.wprec), ([1, 6, 6], [1, 6, 6], 1));
    assert_eq!(r.jobs, 1);
}

#[test]
fn pooled_layer_is_one_job_per_pooled_pixel_and_block_with_the_pool_bit() {
    let c = compile(&load("vgg_pool"), &opts(4)).expect("compiles");
    let r = &c.table().rows[0];
    assert_eq!((r.relu, r.jobs), (true, 8 * 8));
    assert_eq!(r.countdown, 2 * 2 * 4 * 4 * 9); // window 2x2, 4x4 bit combinations, 9 taps of one block
    assert_eq!(r.command_word() >> 29, 0b11); // MulMode 01, max-pool enable
    assert_eq!(r.memory.output_words, 8 * 8 * 4);
}

#[test]
fn overlapping_pool_windows_match_the_interpreter_at_2_4_8_bits() {
    // 3x3 windows, stride 2: each job recomputes the conv outputs its window shares.
    for bits in [2, 4, 8] {
        model_matches_interpreter("alex_pool", opts(bits), 6);
    }
    let c = compile(&load("alex_pool"), &opts(2)).expect("compiles");
    assert_eq!(c.table().rows[0].jobs, 4 * 4);
}

/// AlexNet's stem on a 35 x 448 input: one pooled row reads 19 input rows x
/// 448 columns, 17024 words at 2 bits and 34048 at 4, more than half the
/// data RAM: the stem is split into 2 and 3 bands of pooled columns, and the
/// model of the banded jobs equals the interpreter. At 8 bits the 11x11
/// kernel needs 968 weight words for one input block: split over kernel rows.
#[test]
fn a_pooled_row_beyond_half_the_data_ram_is_split_into_column_bands() {
    for (bits, bands) in [(2, 2), (4, 3)] {
        model_matches_interpreter("alex_wide", opts(bits), 7);
        let c = compile(&load("alex_wide"), &opts(bits)).expect("compiles");
        let mut cols: Vec<_> = c.pieces()[0].iter().map(|p| p.cols.start).collect();
        cols.dedup();
        assert_eq!(cols.len(), bands, "{bits} bits: {cols:?}");
        assert!(c.table().rows[0].name.starts_with("conv_1.c0_"));
        assert!(c
            .table()
            .rows
            .iter()
            .all(|r| r.memory.input_words <= 16384 && r.memory.output_words <= 16384));
    }
    // At 8 bits the stem's one input block with its 121 taps needs 968
    // weight words: it splits over kernel rows (exactly: ternary weights),
    // its partials unpooled stride-4 convs, the sum carrying the pool.
    model_matches_interpreter("alex_wide", opts(8), 7);
    let c = compile(&load("alex_wide"), &opts(8)).expect("compiles");
    let parts: std::collections::BTreeSet<_> = c.pieces()[0]
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .map(|p| (p.kernel_rows.start, p.kernel_rows.end))
        .collect();
    assert!(parts.len() >= 3, "{parts:?}");
}

#[test]
fn padded_ceil_mode_pool_windows_are_a_pooling_layer_matching_the_interpreter_at_2_4_8_bits() {
    // The conv's pipeline pools only whole windows: a 3x3/2 pooling with
    // pads 1 and ceil_mode becomes a layer of its own whose identity conv
    // takes the pads (and the rows the ceil window hangs over) as zeros.
    for bits in [2, 4, 8] {
        model_matches_interpreter("pool_padded", opts(bits), 8);
        let c = compile(&load("pool_padded"), &opts(bits)).expect("compiles");
        assert!(c.lowered()[0].layer.pool.is_none());
        let pool = &c.lowered()[1];
        assert_eq!(pool.op, "MaxPool");
        let onnc_mvu::LayerOp::Conv(cv) = pool.layer.op else {
            panic!("a pooling layer is a conv");
        };
        // 9x9 map, 3x3/2, pads 1, ceil: 5x5 windows over the 11x11 padded map.
        assert_eq!((cv.in_height, cv.pads), (9, [1, 1, 1, 1]));
        assert_eq!(c.table().rows[1].jobs, 5 * 5);
    }
}

#[test]
fn relu6_is_a_relu_where_the_clamp_cannot_bind_and_refused_elsewhere() {
    // 1x1 conv of two channels with weights 1: at 2 bits at most 2 * 3 = 6.
    let c = compile(&load("relu6_small"), &opts(2)).expect("ReLU6 at 2 bits is a ReLU");
    assert!(c.table().rows[0].relu);
    model_matches_interpreter("relu6_small", opts(2), 5);
    let e = problems(compile(&load("relu6_small"), &opts(4)).unwrap_err());
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("node 'clip_2' (Clip): clamps at 6, and 'conv_1' reaches up to 30 for 4-bit inputs: the MVU's output pipeline has a ReLU"), "{e:?}");
    for bits in [2, 4, 8] {
        let e = problems(compile(&load("relu6_net"), &opts(bits)).unwrap_err());
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("no upper clamp"), "{e:?}");
    }
}

#[test]
fn max_pool_without_relu_is_refused_naming_the_layer() {
    let e = problems(compile(&load("pool_no_relu"), &opts(8)).unwrap_err());
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with(
            "node 'maxpool_2' (MaxPool): pools the outputs of 'conv_1', which has no ReLU"
        ),
        "{e:?}"
    );
}

#[test]
fn residual_join_is_one_problem_naming_both_producers() {
    for bits in [2, 4, 8] {
        let e = problems(compile(&load("residual"), &opts(bits)).unwrap_err());
        assert_eq!(e, vec!["node 'add_4' (Add): joins two paths (from 'conv_3' and 'relu_2'); BARVINN runs plain CNNs, \
            whose paths join only in a channel Concat: the MVU cannot add or multiply two activations; remove the \
            shortcut (e.g. distil the network into a plain one, as BARVINN's distilled ResNet-18) or run the join on the host".to_string()]);
    }
}

#[test]
fn identity_poolings_are_no_layers_and_match_the_interpreter_at_2_4_8_bits() {
    // AveragePool 1x1/1 (AdaptiveAvgPool2d on a map of its size) and a
    // GlobalAveragePool over a 1x1 map forward their input: three layers
    // remain (pooled conv, conv, gemm), and the interpreter, which runs both
    // poolings, agrees with the model of the MVU jobs.
    let c = compile(&load("identity_pools"), &opts(4)).expect("compiles");
    let ops: Vec<&str> = c.lowered().iter().map(|l| l.op.as_str()).collect();
    assert_eq!(ops, ["Conv", "Conv", "Gemm"]);
    assert!(c.table().rows[0].pool.is_some());
    for bits in [2, 4, 8] {
        model_matches_interpreter("identity_pools", opts(bits), 9);
    }
}

#[test]
fn grouped_and_depthwise_convs_match_the_interpreter_at_2_4_8_bits() {
    // Each grouped Conv is one layer with block-diagonal weights [O, C, kH, kW];
    // the interpreter runs the grouped Convs themselves (group 16 and 4).
    let c = compile(&load("grouped"), &opts(4)).expect("compiles");
    let shapes: Vec<Vec<usize>> = c.layers().iter().map(|l| l.weight_shape()).collect();
    assert_eq!(shapes[1], [16, 16, 3, 3]);
    assert_eq!(shapes[2], [32, 16, 1, 1]);
    for bits in [2, 4, 8] {
        model_matches_interpreter("grouped", opts(bits), 10);
    }
}

#[test]
fn fire_module_fixture_compiles_and_matches_the_interpreter_at_2_4_8_bits() {
    // Two 32-channel expands joined by a Concat: each part takes a whole
    // 64-channel word (32 gap channels), and both write one buffer (see
    // tests/branches.rs for the layout).
    for bits in [2, 4, 8] {
        model_matches_interpreter("fire", opts(bits), 11);
    }
    let c = compile(&load("fire"), &opts(2)).expect("compiles");
    assert!(c.flow().is_branched());
}
