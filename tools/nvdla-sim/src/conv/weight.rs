//! Uncompressed direct-convolution weights (nvdla-arith.md §3.2).
//!
//! Kernels are split into groups of `group_k` kernels; each kernel into
//! 1×1×`cube_c` channel cubes (the last one holds the remaining channels).
//! Inside a group the scan order is C′ (channel inside the cube) → K → S
//! (kernel column) → R (kernel row) → cube; groups follow each other.
//!
//! In: the weight bytes and the geometry. Out: the weights as `i32`
//! (INT8/INT16 sign-extended, FP16 bit patterns) indexed
//! `((k·R + r)·S + s)·C + c` — channel fastest, so a MAC block is contiguous.

use super::cube::Precision;

/// Weight geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeightShape {
    /// Kernels (output channels).
    pub k: usize,
    /// Kernel height.
    pub r: usize,
    /// Kernel width.
    pub s: usize,
    /// Channels per kernel.
    pub c: usize,
    /// Kernels per group.
    pub group_k: usize,
    /// Channels per cube (atomic C).
    pub cube_c: usize,
}

impl WeightShape {
    /// Bytes of the packed weights (before the 128-byte padding), checked.
    pub fn bytes(&self, prec: Precision) -> Option<usize> {
        self.k
            .checked_mul(self.r)?
            .checked_mul(self.s)?
            .checked_mul(self.c)?
            .checked_mul(prec.bytes())
    }
}

/// Unpacks `bytes` (at least [`WeightShape::bytes`] long) into K-R-S-C order.
pub fn unpack(bytes: &[u8], w: &WeightShape, prec: Precision) -> Vec<i32> {
    let (rs, c) = (w.r * w.s, w.c);
    let mut out = vec![0i32; w.k * rs * c];
    let bpe = prec.bytes();
    let mut group_base = 0usize; // element index of the group's first weight
    let mut k0 = 0usize;
    while k0 < w.k {
        let kg = w.group_k.min(w.k - k0);
        let mut cb0 = 0usize;
        while cb0 < c {
            let cb = w.cube_c.min(c - cb0);
            // Elements before this cube inside the group: cb0 channels of all
            // kernel positions and kernels.
            let cube_base = group_base + cb0 * rs * kg;
            for pos in 0..rs {
                for kk in 0..kg {
                    let src = cube_base + (pos * kg + kk) * cb;
                    let dst = ((k0 + kk) * rs + pos) * c + cb0;
                    for e in 0..cb {
                        let o = (src + e) * bpe;
                        out[dst + e] = match prec {
                            Precision::Int8 => bytes[o] as i8 as i32,
                            Precision::Int16 => i16::from_le_bytes([bytes[o], bytes[o + 1]]) as i32,
                            Precision::Fp16 => u16::from_le_bytes([bytes[o], bytes[o + 1]]) as i32,
                        };
                    }
                }
            }
            cb0 += cb;
        }
        group_base += kg * rs * c;
        k0 += kg;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_groups_two_cubes() {
        // K = 3 (groups of 2), 1×2 kernel, C = 3 (cubes of 2): the packed
        // order is, per group: cube 0 [pos 0: k0 c0 c1, k1 c0 c1; pos 1: …],
        // cube 1 [pos 0: k0 c2, k1 c2; pos 1: …].
        let w = WeightShape {
            k: 3,
            r: 1,
            s: 2,
            c: 3,
            group_k: 2,
            cube_c: 2,
        };
        // Weight value = 100·k + 10·pos + c, packed by hand.
        let v = |k: i32, p: i32, c: i32| (100 * k + 10 * p + c) as u8 as i8;
        let mut packed = Vec::new();
        for (ks, cs) in [((0..2), (0..2)), ((0..2), (2..3))] {
            for p in 0..2 {
                for k in ks.clone() {
                    for c in cs.clone() {
                        packed.push(v(k, p, c) as u8);
                    }
                }
            }
        }
        for (cs, _) in [((0..2), ()), ((2..3), ())] {
            for p in 0..2 {
                for c in cs.clone() {
                    packed.push(v(2, p, c) as u8);
                }
            }
        }
        let out = unpack(&packed, &w, Precision::Int8);
        for k in 0..3 {
            for p in 0..2 {
                for c in 0..3 {
                    assert_eq!(
                        out[(k * 2 + p) * 3 + c],
                        v(k as i32, p as i32, c as i32) as i32
                    );
                }
            }
        }
    }
}
