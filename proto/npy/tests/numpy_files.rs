//! Real numpy files (issue 15, R11: `onnc-run --input x=file.npy` refused
//! every file numpy writes). The fixtures are made by `tests/data/make_npy.py`
//! with numpy itself; every array is `arange(6)` as 2x3 (booleans: `% 2`).

use onnc_npy::read;
use onnc_tensor::DType;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

const DTYPES: [(&str, DType); 12] = [
    ("f2", DType::F16),
    ("f4", DType::F32),
    ("f8", DType::F64),
    ("i1", DType::I8),
    ("i2", DType::I16),
    ("i4", DType::I32),
    ("i8", DType::I64),
    ("u1", DType::U8),
    ("u2", DType::U16),
    ("u4", DType::U32),
    ("u8", DType::U64),
    ("b1", DType::Bool),
];

#[test]
fn every_dtype_in_both_byte_orders() {
    for (code, dtype) in DTYPES {
        let want: Vec<f64> = if dtype == DType::Bool {
            vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
        } else {
            (0..6).map(f64::from).collect()
        };
        for order in ["le", "be"] {
            let t = read(&data(&format!("{code}_{order}.npy"))).unwrap();
            assert_eq!(t.dtype(), dtype, "{code}_{order}");
            assert_eq!(t.shape(), &[2, 3], "{code}_{order}");
            assert_eq!(t.data().to_f64_vec(), want, "{code}_{order}");
        }
    }
}

#[test]
fn fortran_order_is_transposed_into_c_order() {
    for name in ["f4_fortran.npy", "i2_be_fortran.npy"] {
        let t = read(&data(name)).unwrap();
        assert_eq!(t.shape(), &[2, 3], "{name}");
        assert_eq!(
            t.data().to_f64_vec(),
            (0..6).map(f64::from).collect::<Vec<_>>(),
            "{name}"
        );
    }
    let t = read(&data("f4_fortran_3d.npy")).unwrap();
    assert_eq!(t.shape(), &[2, 3, 4]);
    assert_eq!(
        t.as_f32().unwrap(),
        (0..24).map(|v| v as f32).collect::<Vec<_>>()
    );
}

#[test]
fn header_versions_1_2_3() {
    for name in ["f4_le.npy", "f4_v2.npy", "f4_v3.npy"] {
        let t = read(&data(name)).unwrap();
        assert_eq!(
            t.as_f32().unwrap(),
            &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
            "{name}"
        );
    }
}

#[test]
fn scalars_empty_arrays_and_the_r11_reproducer() {
    let t = read(&data("f4_scalar.npy")).unwrap();
    assert_eq!((t.shape(), t.as_f32().unwrap()), (&[][..], &[7.0f32][..]));
    let t = read(&data("f4_empty.npy")).unwrap();
    assert_eq!((t.shape(), t.numel()), (&[2, 0][..], 0));
    let t = read(&data("r11_zeros_1x3x8x8.npy")).unwrap();
    assert_eq!((t.dtype(), t.shape()), (DType::F32, &[1, 3, 8, 8][..]));
    assert!(t.as_f32().unwrap().iter().all(|&v| v == 0.0));
}

#[test]
fn sizes_are_checked_before_allocating() {
    // 2^40 float32 = 4 TiB announced, 4 bytes present: refused from the sizes.
    let e = read(&data("huge_shape.npy")).unwrap_err();
    assert!(
        e.to_string().contains("huge_shape.npy")
            && e.why.contains("4398046511104 bytes")
            && e.why.contains("holds 4 bytes"),
        "{e}"
    );
    let e = read(&data("truncated.npy")).unwrap_err();
    assert!(
        e.why.contains("24 bytes") && e.why.contains("holds 23"),
        "{e}"
    );
    // A product beyond 2^64.
    let dict = format!(
        "{{'descr': '<f8', 'fortran_order': False, 'shape': ({}, {}), }}\n",
        u64::MAX,
        u64::MAX
    );
    let mut file = b"\x93NUMPY\x01\x00".to_vec();
    file.extend((dict.len() as u16).to_le_bytes());
    file.extend(dict.as_bytes());
    let e = onnc_npy::parse(&file).unwrap_err();
    assert!(e.why.contains("larger than memory"), "{e}");
    // Every prefix of a real file is an error, never a panic.
    let whole = std::fs::read(data("i4_be.npy")).unwrap();
    for n in 0..whole.len() {
        assert!(onnc_npy::parse(&whole[..n]).is_err(), "prefix {n}");
    }
}

#[test]
fn non_regular_files_are_refused_before_opening() {
    let e = read(&data("")).unwrap_err();
    assert!(e.why.contains("not a regular file"), "{e}");
    let dir = std::env::temp_dir().join(format!("onnc-npy-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("x.npy");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let e = read(&fifo).unwrap_err(); // would block forever if opened
        assert!(e.why.contains("not a regular file"), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
