//! Exactness test (c): bit-serial weight images of small hand-computed tensors.

use onnc_mvu::{
    bit_serial_lines, export_weights, mvu_weight_order, quantize_weights, ConvShape, Error,
    Granularity, Layer, MatMulShape, Precision,
};

/// Line of a 4096-element block: `ones` lists the element indices whose bit is set.
fn plane(ones: &[usize]) -> String {
    let mut s = vec![b'0'; 4096];
    for &i in ones {
        s[4095 - i] = b'1';
    }
    String::from_utf8(s).unwrap()
}

#[test]
fn small_block_msb_first_element_zero_rightmost() {
    // [1, 2, 3] at 2 bits, block 8: MSB plane has elements 1 and 2 set, LSB plane 0 and 2.
    let lines = bit_serial_lines("t", &[1, 2, 3], 2, false, 8).unwrap();
    assert_eq!(lines, ["00000110", "00000101"]);
}

#[test]
fn negatives_are_twos_complement() {
    // 4-bit signed: -1 = 1111, -8 = 1000, 7 = 0111, -3 = 1101.
    let lines = bit_serial_lines("t", &[-1, -8, 7, -3], 4, true, 4).unwrap();
    // element order right to left: [-3, 7, -8, -1]
    assert_eq!(lines, ["1011", "1101", "0101", "1101"]);
}

#[test]
fn last_block_is_zero_padded() {
    // 5 values in blocks of 4: the second block holds one value and three zeros,
    // even though the first block ended in non-zero values.
    let lines = bit_serial_lines("t", &[3, 3, 3, 3, 1], 2, false, 4).unwrap();
    assert_eq!(lines, ["1111", "1111", "0000", "0001"]);
}

#[test]
fn conv_weights_are_transposed_kw_kh_i_o() {
    // O=2, I=1, kH=1, kW=2: ONNX [o][i][y][x] = [[a0, a1]], [[b0, b1]] -> [x][y][i][o] = a0 b0 a1 b1.
    let l = Layer::conv(
        "c",
        ConvShape::new(1, 4, 4, 2, [1, 2]),
        Precision::new(2, 2, 2).with_signed_weights(true),
    );
    assert_eq!(
        mvu_weight_order(&l, &[10, 11, 20, 21]).unwrap(),
        vec![10, 20, 11, 21]
    );
    let f = export_weights(&l, &[1, -1, -2, 0]).unwrap();
    // flattened: [1, -2, -1, 0] -> codes 01, 10, 11, 00
    assert_eq!(f.file_name, "c.hex");
    assert_eq!(f.lines, vec![plane(&[1, 2]), plane(&[0, 2])]);
    assert_eq!(
        f.contents(),
        format!("{}\n{}\n", plane(&[1, 2]), plane(&[0, 2]))
    );
}

#[test]
fn matmul_weights_are_transposed_in_out() {
    // [out=2, in=3] -> [in][out]
    let l = Layer::matmul(
        "fc",
        MatMulShape {
            rows: 1,
            in_features: 3,
            out_features: 2,
        },
        Precision::new(2, 3, 2),
    );
    assert_eq!(
        mvu_weight_order(&l, &[1, 2, 3, 4, 5, 6]).unwrap(),
        vec![1, 4, 2, 5, 3, 6]
    );
    let f = export_weights(&l.with_weight_name("fc/weight:0"), &[1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(f.file_name, "fc_weight_0.hex");
    // values [1,4,2,5,3,6]: bit2 set for 4,5,6 (idx 1,3,5); bit1 for 2,3,6 (idx 2,4,5); bit0 for 1,5,3 (idx 0,3,4)
    assert_eq!(
        f.lines,
        vec![plane(&[1, 3, 5]), plane(&[2, 4, 5]), plane(&[0, 3, 4])]
    );
}

#[test]
fn two_blocks_of_4096() {
    // 64x64x1x2 conv = 8192 weights = two full blocks, 1 bit each.
    let l = Layer::conv(
        "c",
        ConvShape::new(64, 4, 4, 64, [1, 2]),
        Precision::new(1, 1, 1),
    );
    // ONNX [o][i][y][x]: only o=0, i=0 is 1, for both taps x=0 and x=1 (ONNX indices 0 and 1);
    // in MVU order [x][y][i][o] they are elements 0 and 4096, element 0 of each block.
    let w: Vec<i32> = (0..8192).map(|i| i32::from(i < 2)).collect();
    let f = export_weights(&l, &w).unwrap();
    assert_eq!(f.lines, vec![plane(&[0]), plane(&[0])]);
}

#[test]
fn out_of_range_weights_are_rejected() {
    let l = Layer::conv(
        "c",
        ConvShape::new(1, 4, 4, 2, [1, 2]),
        Precision::new(2, 2, 2),
    );
    let err = export_weights(&l, &[0, 1, 4, 3]).unwrap_err();
    assert_eq!(
        err,
        Error::WeightRange {
            layer: "c".into(),
            index: 2,
            value: 4,
            bits: 2,
            signedness: "unsigned",
            min: 0,
            max: 3
        }
    );
    let err = export_weights(&l, &[0, -1, 2, 3]).unwrap_err();
    assert!(matches!(
        err,
        Error::WeightRange {
            value: -1,
            index: 1,
            ..
        }
    ));
    let err = export_weights(&l, &[0, 1, 2]).unwrap_err();
    assert!(matches!(
        err,
        Error::WeightCount {
            expected: 4,
            got: 3,
            ..
        }
    ));
}

#[test]
fn quantize_per_layer_and_per_channel() {
    let l = Layer::conv(
        "q",
        ConvShape::new(1, 4, 4, 2, [1, 2]),
        Precision::new(4, 4, 4).with_signed_weights(true),
    );
    // 4-bit signed: qmax = 7. Halves round away from zero.
    let w = [7.0, -3.5, 0.5, 0.125];
    let per_layer = quantize_weights(&l, &w, Granularity::PerLayer).unwrap();
    assert_eq!(per_layer.values, vec![7, -4, 1, 0]);
    assert_eq!(per_layer.scales, vec![1.0]);
    let per_channel = quantize_weights(&l, &w, Granularity::PerChannel).unwrap();
    // channel 1: scale 0.5/7, 0.125 / (0.5/7) = 1.75 -> 2
    assert_eq!(per_channel.values, vec![7, -4, 7, 2]);
    assert_eq!(per_channel.scales[0], 1.0);
    assert!((per_channel.scales[1] - 0.5 / 7.0).abs() < 1e-7);
    // Quantized values export directly.
    assert!(export_weights(&l, &per_channel.values).is_ok());
}

#[test]
fn quantize_unsigned_clamps_negatives_and_handles_zero() {
    let l = Layer::conv(
        "u",
        ConvShape::new(1, 4, 4, 2, [1, 2]),
        Precision::new(2, 2, 2),
    );
    let q = quantize_weights(&l, &[3.0, -1.0, 0.0, 0.0], Granularity::PerChannel).unwrap();
    assert_eq!(q.values, vec![3, 0, 0, 0]);
    assert_eq!(q.scales, vec![1.0, 1.0]);
}

#[test]
fn quantize_errors() {
    let l = Layer::conv(
        "q",
        ConvShape::new(1, 4, 4, 2, [1, 2]),
        Precision::new(1, 1, 1).with_signed_weights(true),
    );
    assert!(matches!(
        quantize_weights(&l, &[0.0; 4], Granularity::PerLayer),
        Err(Error::Precision {
            field: "wprec",
            value: 1,
            min: 2,
            max: 16,
            ..
        })
    ));
    let l = Layer::conv(
        "q",
        ConvShape::new(1, 4, 4, 2, [1, 2]),
        Precision::new(4, 4, 4),
    );
    assert!(matches!(
        quantize_weights(&l, &[0.0, f32::NAN, 0.0, 0.0], Granularity::PerLayer),
        Err(Error::NonFiniteWeight { index: 1, .. })
    ));
    assert!(matches!(
        quantize_weights(&l, &[0.0; 5], Granularity::PerLayer),
        Err(Error::WeightCount {
            expected: 4,
            got: 5,
            ..
        })
    ));
}
