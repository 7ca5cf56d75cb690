//! Error cases (d): every rule names the layer, the field, the value and the limit.

use onnc_mvu::{
    check_registers, configure, emit, export_weights, generate, ConvShape, Error,
    FractionalColumns, Layer, MatMulShape, Options, Precision, RawSchedule,
};

fn conv(name: &str, shape: ConvShape, p: Precision) -> Layer {
    Layer::conv(name, shape, p)
}

fn base() -> ConvShape {
    ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1)
}

#[test]
fn precision_outside_1_to_16() {
    let opts = Options::default();
    for (p, field, value) in [
        (Precision::new(0, 2, 2), "aprec", 0),
        (Precision::new(2, 17, 2), "wprec", 17),
        (Precision::new(2, 2, 32), "oprec", 32),
    ] {
        let err = configure(&conv("L", base(), p), &opts).unwrap_err();
        assert_eq!(
            err,
            Error::Precision {
                layer: "L".into(),
                field,
                value,
                min: 1,
                max: 16
            }
        );
    }
    let msg = configure(&conv("L", base(), Precision::new(2, 17, 2)), &opts)
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "layer `L`: wprec = 17 bits is outside the supported range 1..=16"
    );
    // 16 bits is fine.
    assert!(configure(
        &conv(
            "L",
            ConvShape::new(64, 8, 8, 64, [3, 3]),
            Precision::new(16, 16, 16)
        ),
        &opts
    )
    .is_ok());
}

#[test]
fn jump_overflow_names_register_and_width() {
    // ijump[0] = -ip*(iC*(fH-1)*iW + (fW-sW-1)*iC + 1) = -2*(2*4096 + 1 + 1) = -16388 < -2^14.
    let l = conv(
        "wide",
        ConvShape::new(64, 4, 4096, 64, [3, 3]),
        Precision::new(2, 2, 2),
    );
    let err = configure(&l, &Options::barvinn()).unwrap_err();
    assert_eq!(
        err,
        Error::RegisterOverflow {
            layer: "wide".into(),
            field: "ijump[0]".into(),
            value: -16388,
            bits: 15,
            min: -16384,
            max: 16383
        }
    );
    assert_eq!(
        err.to_string(),
        "layer `wide`: ijump[0] = -16388 does not fit its 15-bit field (allowed -16384..=16383)"
    );
}

#[test]
fn length_overflow() {
    // ilength[3] = iC*fW - 1 = 4100*8 - 1 = 32799 > 2^15 - 1.
    let l = conv(
        "deep",
        ConvShape::new(64 * 4100, 1, 8, 64, [1, 8]),
        Precision::new(1, 1, 1),
    );
    let err = configure(&l, &Options::barvinn()).unwrap_err();
    assert!(matches!(
        err,
        Error::RegisterOverflow { ref field, value: 32799, bits: 15, min: 0, max: 32767, .. } if field == "ilength[3]"
    ));
}

#[test]
fn countdown_overflow() {
    // Matmul countdown m_w*m_h*ip*wp = 16385 * 32768 = 536903680 > 2^29 - 1, all jumps/lengths in range.
    let l = Layer::matmul(
        "big_fc",
        MatMulShape {
            rows: 1,
            in_features: 16385 * 64,
            out_features: 32768 * 64,
        },
        Precision::new(1, 1, 1),
    );
    let err = configure(&l, &Options::barvinn()).unwrap_err();
    assert_eq!(
        err,
        Error::RegisterOverflow {
            layer: "big_fc".into(),
            field: "countdown".into(),
            value: 536903680,
            bits: 29,
            min: 0,
            max: (1 << 29) - 1
        }
    );
    // The verifier also works on a hand-made schedule.
    let raw = RawSchedule {
        i_shape: [1, 1, 1],
        f_shape: [1, 1, 1],
        ilength: [0; 5],
        ijump: [0; 5],
        wlength: [0; 5],
        wjump: [0; 5],
        countdown: 1 << 29,
        total_rows: 1,
        total_layer_countdown: 1 << 29,
    };
    assert!(matches!(
        check_registers("x", &raw),
        Err(Error::RegisterOverflow { bits: 29, .. })
    ));
}

#[test]
fn capacity_errors() {
    // Input: iC*iH*iW*ip = 1*64*64*16 = 65536 words > 32768.
    let l = conv(
        "big_in",
        ConvShape::new(64, 64, 64, 64, [3, 3]).with_pad(1),
        Precision::new(16, 2, 2),
    );
    assert_eq!(
        configure(&l, &Options::default()).unwrap_err(),
        Error::Capacity {
            layer: "big_in".into(),
            memory: "input activations (data RAM)",
            needed: 65536,
            capacity: 32768
        }
    );
    // Same layer without the capacity check (BARVINN mode) is accepted.
    assert!(configure(&l, &Options::barvinn()).is_ok());
    // Output: fC*oH*oW*op = 1*64*64*16.
    let l = conv(
        "big_out",
        ConvShape::new(64, 64, 64, 64, [3, 3]).with_pad(1),
        Precision::new(2, 2, 16),
    );
    assert!(matches!(
        configure(&l, &Options::default()),
        Err(Error::Capacity {
            memory: "output activations (data RAM)",
            needed: 65536,
            ..
        })
    ));
    let msg = configure(&l, &Options::default()).unwrap_err().to_string();
    assert_eq!(
        msg,
        "layer `big_out`: output activations (data RAM) needs 65536 words but holds 32768"
    );
}

#[test]
fn shape_errors() {
    let p = Precision::new(2, 2, 2);
    let o = Options::default();
    assert_eq!(
        configure(&conv("z", ConvShape::new(0, 8, 8, 64, [3, 3]), p), &o).unwrap_err(),
        Error::Shape {
            layer: "z".into(),
            field: "in_channels",
            value: 0,
            min: 1,
            max: 1 << 24
        }
    );
    assert!(matches!(
        configure(&conv("s", base().with_strides([1, 0]), p), &o),
        Err(Error::Shape {
            field: "stride_w",
            value: 0,
            ..
        })
    ));
    assert_eq!(
        configure(
            &conv("k", ConvShape::new(64, 8, 2, 64, [3, 3]).with_pad(1), p),
            &o
        )
        .unwrap_err(),
        Error::KernelTooWide {
            layer: "k".into(),
            kernel: 3,
            width: 2
        }
    );
    assert!(matches!(
        configure(&conv("h", ConvShape::new(64, 2, 8, 64, [5, 3]), p), &o),
        Err(Error::Shape {
            field: "kernel_h",
            value: 5,
            max: 2,
            ..
        })
    ));
    assert!(matches!(
        configure(&conv("q", base(), p).with_quant_msb(27), &o),
        Err(Error::Shape {
            field: "quant_msb",
            value: 27,
            max: 26,
            ..
        })
    ));
    let fc = Layer::matmul(
        "fc",
        MatMulShape {
            rows: 0,
            in_features: 64,
            out_features: 64,
        },
        p,
    );
    assert!(matches!(
        configure(&fc, &o),
        Err(Error::Shape { field: "rows", .. })
    ));
}

#[test]
fn fractional_columns_rejected_or_rounded_up() {
    // (iW - fW + 1) / sW = 30 / 4.
    let l = conv(
        "frac",
        ConvShape::new(64, 32, 32, 64, [3, 3])
            .with_stride(4)
            .with_pad(1),
        Precision::new(2, 2, 2),
    );
    assert_eq!(
        configure(&l, &Options::default()).unwrap_err(),
        Error::FractionalColumns {
            layer: "frac".into(),
            numerator: 30,
            stride: 4
        }
    );
    let opts = Options {
        fractional_columns: FractionalColumns::RoundUp,
        ..Options::default()
    };
    let r = configure(&l, &opts).unwrap();
    assert_eq!(r.countdown, 3 * 3 * 4 * 8); // iC*fW*fH*ip*wp*fC*ceil(30/4)
    assert_eq!(r.total_layer_countdown, r.countdown * 9); // ceil(34 / 4)
                                                          // The dialect's attributes (`convert-onnx-to-mvu`) carry the same
                                                          // rounded-up registers as the configuration files.
    let attrs = onnc_mvu::frontend::dialect_attrs(&l).expect("dialect registers");
    let countdown = attrs
        .iter()
        .find(|(k, _)| *k == "countdown")
        .map(|(_, v)| v);
    assert_eq!(
        countdown,
        Some(&onnc_mvu::frontend::DialectValue::Int(r.countdown as i64))
    );
}

#[test]
fn generate_stops_at_the_first_bad_layer() {
    let p = Precision::new(2, 2, 2);
    let layers = [
        conv("ok", base(), p),
        conv("bad", base(), Precision::new(2, 0, 2)),
        conv("never", base(), p),
    ];
    let err = generate(&layers, &Options::default()).unwrap_err();
    assert_eq!(err.layer(), Some("bad"));
}

#[test]
fn asm_pointer_overflow() {
    let t = generate(
        &[conv("c", base(), Precision::new(2, 2, 2))],
        &Options::default(),
    )
    .unwrap();
    let opts = emit::AsmOptions {
        bases: vec![emit::LayerBases {
            input: 32000,
            output: 0,
            weight: 0,
            pixel_skip: 0,
        }],
        ..emit::AsmOptions::default()
    };
    // 32 jobs x 64 words: 32000 + 31*64 = 33984 > 2^15 - 1.
    assert_eq!(
        emit::asm(&t, &opts).unwrap_err(),
        Error::RegisterOverflow {
            layer: "c".into(),
            field: "mvuibaseptr (last job)".into(),
            value: 33984,
            bits: 15,
            min: 0,
            max: 32767
        }
    );
}

#[test]
fn bundle_rejects_duplicate_and_unknown_weight_files() {
    let p = Precision::new(2, 2, 2);
    let a = conv("a", ConvShape::new(1, 4, 4, 1, [1, 1]), p).with_weight_name("w");
    let b = conv("b", ConvShape::new(1, 4, 4, 1, [1, 1]), p).with_weight_name("w");
    let t = generate(&[a.clone(), b.clone()], &Options::default()).unwrap();
    let wa = export_weights(&a, &[1]).unwrap();
    let wb = export_weights(&b, &[2]).unwrap();
    assert_eq!(
        emit::bundle(&t, &[wa.clone(), wb], &emit::AsmOptions::default()).unwrap_err(),
        Error::DuplicateFile {
            layer: "b".into(),
            file: "w.hex".into()
        }
    );
    let t1 = generate(&[b], &Options::default()).unwrap();
    assert_eq!(
        emit::bundle(&t1, &[wa], &emit::AsmOptions::default()).unwrap_err(),
        Error::UnknownLayer { layer: "a".into() }
    );
}

#[test]
fn extreme_inputs_error_instead_of_panicking() {
    use onnc_mvu::{conv_schedule, matmul_schedule, output_columns};
    let max = u32::MAX;
    let wild = ConvShape {
        in_channels: max,
        in_height: max,
        in_width: max,
        out_channels: max,
        kernel: [max, max],
        strides: [0, 0],
        pads: [max; 4],
    };
    let p = Precision::new(max, max, max);
    assert!(configure(&conv("wild", wild, p), &Options::barvinn()).is_err());
    assert!(output_columns("wild", &wild, FractionalColumns::RoundUp).is_err());
    // Raw formulas clamp instead of overflowing.
    let _ = conv_schedule(&wild, &p, u64::MAX);
    let _ = matmul_schedule(
        &MatMulShape {
            rows: max,
            in_features: max,
            out_features: max,
        },
        &p,
    );
    for prec in [0, 16] {
        let big = conv(
            "big",
            ConvShape::new(max, max, max, max, [1, 1]),
            Precision::new(prec.max(1), 16, 16),
        );
        assert!(configure(&big, &Options::default()).is_err());
        let fc = Layer::matmul(
            "fc",
            MatMulShape {
                rows: max,
                in_features: max,
                out_features: max,
            },
            Precision::new(16, 16, 16),
        );
        assert!(configure(&fc, &Options::default()).is_err());
    }
    assert!(onnc_mvu::bit_serial_lines("x", &[1], 0, false, 0).is_err());
    assert_eq!(
        onnc_mvu::bit_serial_lines("x", &[1], 1, false, 0).unwrap(),
        ["1"]
    );
    assert_eq!(onnc_mvu::value_range(0, true), (-1, 0));
}
