//! Golden files: the four table outputs for SimpleConv at 2/2/2 bits (the
//! values `CorrectedSimpleConv.S` programs) are checked in under
//! `tests/golden/simple_conv_2bit/` so reviewers can read them and any change
//! shows up in a diff. Regenerate with `ONNC_MVU_UPDATE_GOLDEN=1 cargo test -p onnc-mvu --test golden`.

use std::path::PathBuf;

use onnc_mvu::{emit, generate, ConvShape, Layer, Options, Precision};

#[test]
fn simple_conv_2bit_golden_files() {
    let l = Layer::conv(
        "Conv_0",
        ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1),
        Precision::new(2, 2, 2),
    )
    .with_weight_name("conv1.weight");
    let t = generate(&[l], &Options::default()).unwrap();
    let files = emit::bundle(&t, &[], &emit::AsmOptions::default()).unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/simple_conv_2bit");
    if std::env::var_os("ONNC_MVU_UPDATE_GOLDEN").is_some() {
        emit::write_dir(&dir, &files).unwrap();
    }
    for f in &files {
        let want = std::fs::read_to_string(dir.join(&f.name))
            .unwrap_or_else(|e| panic!("{}: {e} (set ONNC_MVU_UPDATE_GOLDEN=1 to create)", f.name));
        assert_eq!(f.contents, want, "{} differs from the golden file", f.name);
    }
}
