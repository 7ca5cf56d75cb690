//! `.dimg` text dumps (nvdla_runtime `--rawdump`) → NCHW tensors.
//!
//! In: the text of a `.dimg` file — decimal floats separated by whitespace
//! (`inf`, `nan` as C++ iostreams print them are accepted) — and the model's
//! output shape. Out: an `f32` [`Tensor`] of that shape, values moved from
//! dump order to NCHW (see [`crate::order`]); the value count must equal the
//! element count (the runtime dumps no padding).
//!
//! ```
//! use onnc_nvdla_dimg::{parse_dimg, dimg_to_nchw, DumpOrder};
//! let values = parse_dimg("3 3 3\n7 7 7 ").unwrap();
//! let t = dimg_to_nchw(&values, &[1, 2, 1, 3], DumpOrder::Chw).unwrap();
//! assert_eq!(t.shape(), &[1, 2, 1, 3]);
//! assert_eq!(t.as_f32().unwrap(), &[3.0, 3.0, 3.0, 7.0, 7.0, 7.0]);
//! assert!(dimg_to_nchw(&values, &[1, 4], DumpOrder::Chw).is_err());
//! ```

use crate::{Cube, DumpOrder, Error, Result};
use onnc_tensor::Tensor;
use std::path::Path;

/// Parses the values of a `.dimg` text dump, in file order.
pub fn parse_dimg(text: &str) -> Result<Vec<f32>> {
    text.split_ascii_whitespace()
        .enumerate()
        .map(|(index, token)| {
            token.parse::<f32>().map_err(|_| Error::BadNumber {
                index,
                token: token.to_string(),
            })
        })
        .collect()
}

/// Reads and parses the `.dimg` file at `path`.
pub fn load_dimg(path: &Path) -> Result<Vec<f32>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    parse_dimg(&text)
}

/// Puts dump `values` listed in `order` into an NCHW tensor of `shape`.
pub fn dimg_to_nchw(values: &[f32], shape: &[usize], order: DumpOrder) -> Result<Tensor> {
    let cube = Cube::from_shape(shape)?;
    let expected = cube.len().ok_or(Error::UnsupportedShape {
        shape: shape.to_vec(),
        reason: "too many elements",
    })?;
    if values.len() != expected {
        return Err(Error::CountMismatch {
            shape: shape.to_vec(),
            expected,
            found: values.len(),
        });
    }
    let mut out = vec![0.0f32; expected];
    for (&dst, &v) in cube.permutation(order)?.iter().zip(values) {
        if let Some(slot) = out.get_mut(dst) {
            *slot = v;
        }
    }
    Ok(Tensor::from_f32(shape.to_vec(), out)?)
}

/// [`load_dimg`] then [`dimg_to_nchw`] with nvdla_runtime's order
/// ([`DumpOrder::Chw`]).
pub fn load_dimg_nchw(path: &Path, shape: &[usize]) -> Result<Tensor> {
    dimg_to_nchw(&load_dimg(path)?, shape, DumpOrder::Chw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_iostream_output() {
        let v = parse_dimg("0.0795288 1663\t-2.5e-05\r\ninf -inf nan -nan").unwrap();
        assert_eq!(&v[..3], &[0.0795288, 1663.0, -2.5e-5]);
        assert_eq!(v[3], f32::INFINITY);
        assert_eq!(v[4], f32::NEG_INFINITY);
        assert!(v[5].is_nan() && v[6].is_nan());
        assert!(parse_dimg("").unwrap().is_empty());
    }

    #[test]
    fn rejects_garbage() {
        assert!(matches!(
            parse_dimg("1 2 x3"),
            Err(Error::BadNumber { index: 2, .. })
        ));
        assert!(matches!(
            parse_dimg("1,2"),
            Err(Error::BadNumber { index: 0, .. })
        ));
    }

    #[test]
    fn feature_cube_reorder() {
        // 2 channels, 1×2 pixels, listed pixel-major (one group of 16 lanes).
        let t = dimg_to_nchw(
            &[1.0, 10.0, 2.0, 20.0],
            &[1, 2, 1, 2],
            DumpOrder::FeatureCube { atom_channels: 16 },
        )
        .unwrap();
        assert_eq!(t.as_f32().unwrap(), &[1.0, 2.0, 10.0, 20.0]);
    }

    #[test]
    fn count_and_shape_errors() {
        assert!(matches!(
            dimg_to_nchw(&[1.0; 3], &[1, 2, 2, 1], DumpOrder::Chw),
            Err(Error::CountMismatch {
                expected: 4,
                found: 3,
                ..
            })
        ));
        assert!(matches!(
            dimg_to_nchw(&[1.0; 4], &[2, 2], DumpOrder::Chw),
            Err(Error::UnsupportedShape { .. })
        ));
        assert!(matches!(
            load_dimg(Path::new("/nonexistent/x.dimg")),
            Err(Error::Io { .. })
        ));
    }
}
