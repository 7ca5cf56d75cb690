//! Reading the calibration codes the support table writes (`.npy`, f32).

/// The values of a little-endian f32 `.npy` file (C order), e.g. the input
/// codes of `/work/tbl/codes/<model>/sample_0.npy`.
pub fn npy_f32(path: &str) -> Result<Vec<f32>, String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if b.len() < 10 || &b[..6] != b"\x93NUMPY" {
        return Err(format!("{path}: not a .npy file"));
    }
    let (len, at) = if b[6] == 1 {
        (usize::from(u16::from_le_bytes([b[8], b[9]])), 10)
    } else {
        let l = b.get(8..12).ok_or(format!("{path}: short header"))?;
        (u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize, 12)
    };
    let header =
        String::from_utf8_lossy(b.get(at..at + len).ok_or(format!("{path}: short header"))?);
    if !header.contains("'<f4'") || header.contains("'fortran_order': True") {
        return Err(format!(
            "{path}: expected C-order little-endian f32, header {header}"
        ));
    }
    Ok(b[at + len..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}
