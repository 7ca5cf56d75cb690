//! Binary PGM (`P5`, 8-bit) reading, and the pixel → `IMAGE` value mapping
//! of nvdla_runtime.
//!
//! In: the bytes of a PGM file. Out: a [`Pgm`] (width, height, maxval and
//! the row-major raster), and from it the `1×1×H×W` `f32` input tensor.
//!
//! Header grammar (Netpbm PGM spec): `P5`, whitespace, width, whitespace,
//! height, whitespace, maxval, **one** whitespace byte, raster. Whitespace is
//! blank, TAB, CR, LF, VT or FF. Before the byte that delimits the raster,
//! everything from a `#` through the next CR or LF is a comment and is
//! removed (so the newline ending a comment is *not* the raster delimiter).
//! Only maxval 1..=255 (one byte per sample) is accepted; ASCII `P2`, PBM,
//! PPM and 16-bit PGM are rejected with an [`Error`].
//!
//! ```
//! use onnc_nvdla_dimg::{Pgm, PixelMap};
//! let pgm = Pgm::parse(b"P5\n# made by hand\n3 1\n255\n\x00\x01\xff").unwrap();
//! assert_eq!((pgm.width, pgm.height, pgm.maxval), (3, 1, 255));
//! let t = pgm.to_tensor(PixelMap::NVDLA_RUNTIME).unwrap();
//! assert_eq!(t.shape(), &[1, 1, 1, 3]);
//! assert_eq!(t.as_f32().unwrap(), &[0.0, 1.0, 255.0]);
//! ```

use crate::{Error, Result};
use onnc_tensor::Tensor;
use std::path::Path;

/// A decoded 8-bit grey image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pgm {
    /// Columns (the tensor's `W`).
    pub width: usize,
    /// Rows (the tensor's `H`).
    pub height: usize,
    /// The header's maximum grey value (1..=255).
    pub maxval: u32,
    /// `width × height` samples, row-major, top row first.
    pub pixels: Vec<u8>,
}

/// How a grey sample `p` becomes an input value: `(p − mean) / divisor`.
///
/// This is nvdla_runtime's FP16 input conversion (`--mean`, `--normalize`);
/// the runtime does not rescale by the PGM's maxval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelMap {
    /// Subtracted from every sample.
    pub mean: f32,
    /// Divides the difference.
    pub divisor: f32,
}

impl PixelMap {
    /// The mapping the ONNC single-layer anchors were produced with: the raw
    /// sample as a float (mean 0, divisor 1). Established from the data: it
    /// is the only one under which the reference interpreter reproduces the
    /// `.dimg` outputs (see the crate README).
    pub const NVDLA_RUNTIME: PixelMap = PixelMap {
        mean: 0.0,
        divisor: 1.0,
    };

    /// Maps one sample.
    pub fn apply(self, p: u8) -> f32 {
        (f32::from(p) - self.mean) / self.divisor
    }
}

impl Pgm {
    /// Reads and parses the PGM file at `path`.
    pub fn load(path: &Path) -> Result<Pgm> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_owned(),
            source,
        })?;
        Pgm::parse(&bytes)
    }

    /// Parses a binary PGM held in memory.
    pub fn parse(bytes: &[u8]) -> Result<Pgm> {
        if bytes.len() < 2 || &bytes[..2] != b"P5" {
            let found = String::from_utf8_lossy(&bytes[..bytes.len().min(2)]).into_owned();
            return Err(Error::NotBinaryPgm { found });
        }
        let mut h = Header { bytes, pos: 2 };
        let width = h.field("width", u32::MAX)?;
        let height = h.field("height", u32::MAX)?;
        let maxval = h.field("maxval", u32::MAX)?;
        if maxval == 0 {
            return Err(Error::BadHeader {
                field: "maxval",
                reason: "must be at least 1".into(),
            });
        }
        if maxval > 255 {
            return Err(Error::SixteenBit(maxval));
        }
        h.raster_delimiter()?;
        let (width, height) = (width as usize, height as usize);
        if width == 0 || height == 0 {
            let field = if width == 0 { "width" } else { "height" };
            return Err(Error::BadHeader {
                field,
                reason: "must be at least 1".into(),
            });
        }
        let expected = width.checked_mul(height).ok_or_else(|| Error::BadHeader {
            field: "width",
            reason: "width × height overflows".into(),
        })?;
        let raster = &bytes[h.pos..];
        if raster.len() < expected {
            return Err(Error::Truncated {
                expected,
                found: raster.len(),
            });
        }
        if raster.len() > expected {
            return Err(Error::TrailingBytes(raster.len() - expected));
        }
        if let Some((index, &value)) = raster
            .iter()
            .enumerate()
            .find(|(_, &v)| u32::from(v) > maxval)
        {
            return Err(Error::SampleAboveMaxval {
                index,
                value,
                maxval,
            });
        }
        Ok(Pgm {
            width,
            height,
            maxval,
            pixels: raster.to_vec(),
        })
    }

    /// The `1×1×H×W` `f32` tensor fed to the model's `IMAGE` input.
    pub fn to_tensor(&self, map: PixelMap) -> Result<Tensor> {
        let values = self.pixels.iter().map(|&p| map.apply(p)).collect();
        Ok(Tensor::from_f32(
            vec![1, 1, self.height, self.width],
            values,
        )?)
    }
}

/// A cursor over the header bytes.
struct Header<'a> {
    bytes: &'a [u8],
    pos: usize,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

impl Header<'_> {
    /// Skips a comment (from `#` through CR/LF) if one starts here.
    fn skip_comment(&mut self) -> bool {
        if self.bytes.get(self.pos) != Some(&b'#') {
            return false;
        }
        while let Some(&b) = self.bytes.get(self.pos) {
            self.pos += 1;
            if b == b'\n' || b == b'\r' {
                break;
            }
        }
        true
    }

    /// Reads whitespace (at least one byte, comments allowed), then a
    /// decimal number (comments inside it are removed, as the spec says).
    fn field(&mut self, field: &'static str, max: u32) -> Result<u32> {
        let start = self.pos;
        loop {
            if self.skip_comment() {
                continue;
            }
            match self.bytes.get(self.pos) {
                Some(&b) if is_ws(b) => self.pos += 1,
                _ => break,
            }
        }
        if self.pos == start {
            let reason = match self.bytes.get(self.pos) {
                Some(&b) => format!("expected whitespace before it, found {:?}", b as char),
                None => "missing (file ends in the header)".into(),
            };
            return Err(Error::BadHeader { field, reason });
        }
        let mut value: u64 = 0;
        let mut digits = 0;
        loop {
            if self.skip_comment() {
                continue;
            }
            match self.bytes.get(self.pos) {
                Some(&b) if b.is_ascii_digit() => {
                    value = value * 10 + u64::from(b - b'0');
                    if value > u64::from(max) {
                        return Err(Error::BadHeader {
                            field,
                            reason: "too large".into(),
                        });
                    }
                    digits += 1;
                    self.pos += 1;
                }
                Some(&b) if is_ws(b) => break,
                Some(&b) => {
                    let reason = format!("unexpected byte {:?}", b as char);
                    return Err(Error::BadHeader { field, reason });
                }
                None => break,
            }
        }
        if digits == 0 {
            let reason = "missing (file ends in the header)".into();
            return Err(Error::BadHeader { field, reason });
        }
        u32::try_from(value).map_err(|_| Error::BadHeader {
            field,
            reason: "too large".into(),
        })
    }

    /// Consumes the single whitespace byte that ends the header.
    fn raster_delimiter(&mut self) -> Result<()> {
        match self.bytes.get(self.pos) {
            Some(&b) if is_ws(b) => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(Error::BadHeader {
                field: "maxval",
                reason: "must be followed by one whitespace byte before the raster".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_odd_whitespace() {
        let p = Pgm::parse(b"P5 #c1\n\t2#c2\r 1\x0c#c3\n200\n\x05\xc8").unwrap();
        assert_eq!((p.width, p.height, p.maxval), (2, 1, 200));
        assert_eq!(p.pixels, vec![5, 200]);
        // A comment may split a token (Netpbm spec).
        let p = Pgm::parse(b"P5\n1#x\n2 1\n255\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
            .unwrap();
        assert_eq!((p.width, p.height), (12, 1));
    }

    #[test]
    fn comment_newline_is_not_the_raster_delimiter() {
        // "255#c\n" then the raster: the LF belongs to the comment.
        assert!(matches!(
            Pgm::parse(b"P5 1 1 255#c\n\x07"),
            Err(Error::BadHeader {
                field: "maxval",
                ..
            })
        ));
        assert_eq!(Pgm::parse(b"P5 1 1 255#c\n \x07").unwrap().pixels, vec![7]);
    }

    #[test]
    fn rejects_other_formats() {
        assert!(matches!(
            Pgm::parse(b"P2\n1 1\n255\n7\n"),
            Err(Error::NotBinaryPgm { .. })
        ));
        assert!(matches!(
            Pgm::parse(b"P6\n1 1\n255\n\x00\x00\x00"),
            Err(Error::NotBinaryPgm { .. })
        ));
        assert!(matches!(Pgm::parse(b""), Err(Error::NotBinaryPgm { .. })));
        assert!(matches!(
            Pgm::parse(b"P5\n1 1\n65535\n\x00\x00"),
            Err(Error::SixteenBit(65535))
        ));
    }

    #[test]
    fn rejects_bad_headers_and_rasters() {
        assert!(matches!(
            Pgm::parse(b"P5\n1 x\n255\n"),
            Err(Error::BadHeader {
                field: "height",
                ..
            })
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n0 1\n255\n"),
            Err(Error::BadHeader { field: "width", .. })
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n1 1\n0\n\x00"),
            Err(Error::BadHeader {
                field: "maxval",
                ..
            })
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n1 1"),
            Err(Error::BadHeader {
                field: "maxval",
                ..
            })
        ));
        assert!(matches!(
            Pgm::parse(b"P51 1 255 \x00"),
            Err(Error::BadHeader { field: "width", .. })
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n99999999999 1\n255\n"),
            Err(Error::BadHeader { .. })
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n2 2\n255\n\x00"),
            Err(Error::Truncated {
                expected: 4,
                found: 1
            })
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n1 1\n255\n\x00\n"),
            Err(Error::TrailingBytes(1))
        ));
        assert!(matches!(
            Pgm::parse(b"P5\n2 1\n9\n\x01\x0a"),
            Err(Error::SampleAboveMaxval {
                index: 1,
                value: 10,
                maxval: 9
            })
        ));
    }

    #[test]
    fn pixel_map() {
        let p = Pgm::parse(b"P5 2 1 255 \x10\x20").unwrap();
        let t = p
            .to_tensor(PixelMap {
                mean: 16.0,
                divisor: 4.0,
            })
            .unwrap();
        assert_eq!(t.as_f32().unwrap(), &[0.0, 4.0]);
    }
}
