//! Size limits on tensors built from untrusted input.
//!
//! Every size computed from a model, an IR file, a shape flag or a
//! loadable is checked against [`MAX_TENSOR_BYTES`] before anything is
//! allocated, so a hostile dimension (2^40 elements, pads of 2^62) is a
//! clear error instead of an allocation abort. Tools expose it as
//! `--max-tensor-bytes`.

/// Largest tensor any tool materialises: 16 GiB (VGG-19's largest weight
/// is 0.4 GB; a 224×224 activation at batch 256 is under 4 GB).
pub const MAX_TENSOR_BYTES: u64 = 16 << 30;

/// The bytes of `shape` × `elem_bytes`, or why it is too large.
///
/// In: a shape, the element size and the limit. Out: the byte count, or a
/// message naming the shape, its size and the limit.
pub fn checked_bytes(shape: &[usize], elem_bytes: usize, limit: u64) -> Result<u64, String> {
    let mut n: u64 = elem_bytes as u64;
    for &d in shape {
        n = n
            .checked_mul(d as u64)
            .ok_or_else(|| too_big(shape, None, limit))?;
    }
    if n > limit {
        return Err(too_big(shape, Some(n), limit));
    }
    Ok(n)
}

fn too_big(shape: &[usize], bytes: Option<u64>, limit: u64) -> String {
    let size = bytes.map_or_else(
        || "more than 2^64 bytes".to_string(),
        |b| format!("{b} bytes"),
    );
    format!(
        "a tensor of shape {shape:?} needs {size}, above the limit of {limit} bytes (--max-tensor-bytes); check the shapes, or raise the limit if the model really is that large"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert_eq!(checked_bytes(&[2, 3], 4, 100), Ok(24));
        assert_eq!(checked_bytes(&[], 4, 100), Ok(4));
        assert_eq!(checked_bytes(&[0, 1 << 40], 4, 100), Ok(0));
        let e = checked_bytes(&[1 << 40], 4, MAX_TENSOR_BYTES).unwrap_err();
        assert!(
            e.contains("4398046511104 bytes") && e.contains("--max-tensor-bytes"),
            "{e}"
        );
        let e = checked_bytes(&[1 << 62, 1 << 62], 4, MAX_TENSOR_BYTES).unwrap_err();
        assert!(e.contains("more than 2^64"), "{e}");
    }
}
