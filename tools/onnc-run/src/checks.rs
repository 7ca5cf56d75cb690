//! Parsers for onnc-run's numeric options, so a bad value is refused by
//! the command line instead of silently accepted.
//!
//! * `--rtol`/`--atol`: a finite, non-negative number (`nan`, `inf` and
//!   negative values used to be accepted, making comparisons meaningless).
//! * `--max-tensor-bytes`: a positive byte count, with an optional `K`,
//!   `M`, `G` or `T` suffix (powers of 1024); the default is
//!   `onnc_tensor::limits::MAX_TENSOR_BYTES`.

/// A tolerance: finite and `>= 0`.
pub fn tolerance(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!(
            "'{s}' is not a usable tolerance; give a finite number >= 0 (e.g. 1e-3)"
        ));
    }
    Ok(v)
}

/// A byte count such as `17179869184`, `16G` or `512M`; at least 1.
pub fn byte_count(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("'{s}': unknown suffix '{c}' (use K, M, G or T)")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("'{s}' is not a byte count (e.g. 16G or 17179869184)"))?;
    let v = n
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("'{s}' is beyond 2^64 bytes"))?;
    if v == 0 {
        return Err("the limit must be at least 1 byte".into());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances() {
        assert_eq!(tolerance("1e-3"), Ok(1e-3));
        assert_eq!(tolerance("0"), Ok(0.0));
        for bad in ["nan", "NaN", "inf", "-inf", "-1e-3", "x"] {
            assert!(tolerance(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn byte_counts() {
        assert_eq!(byte_count("16G"), Ok(16 << 30));
        assert_eq!(byte_count("512m"), Ok(512 << 20));
        assert_eq!(byte_count("100"), Ok(100));
        for bad in ["0", "-1", "1P", "x", "99999999999999T"] {
            assert!(byte_count(bad).is_err(), "{bad}");
        }
    }
}
