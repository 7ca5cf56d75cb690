//! The matrix product under `Conv`, `Gemm` and `MatMul`: `C = alpha·A·B`
//! (or `C += alpha·A·B`), split into tiles of `C` that run in parallel on
//! the rayon pool, each tile one sequential call of `faer`'s gemm.
//!
//! In: `A` and `B` as `faer` views (any strides, e.g. transposed), `C` as a
//! row-major `m × n` slice. Out: `C` written in place.
//!
//! Determinism: the tiling depends on `m`, `n` and `k` only, never on the
//! thread count, and every element of `C` is computed by exactly one tile
//! with the whole `k` sum inside it — so the bits are the same whatever
//! `RAYON_NUM_THREADS` is (a test runs 1 and 2 threads and compares).
//!
//! Why `faer` (its gemm kernels, `faer::linalg::matmul`): a safe API over
//! runtime-dispatched AVX2/AVX-512 micro-kernels, maintained with the
//! `faer` linear-algebra library; on ResNet-50's convolution shapes it ran
//! 1.5–1.7× faster than `matrixmultiply` (docs/perf.md, "Interpreter").

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;

/// Element types the product runs on.
pub(crate) trait Scalar:
    faer::traits::ComplexField + Copy + Send + Sync + Default + 'static
{
    /// The multiplicative identity.
    const ONE: Self;
}
impl Scalar for f32 {
    const ONE: f32 = 1.0;
}
impl Scalar for f64 {
    const ONE: f64 = 1.0;
}

/// Columns per tile: a multiple of every micro-kernel's width, big enough
/// to amortise packing `A`, small enough to give both cores work.
const TILE_COLS: usize = 256;
/// Rows per tile when `C` is narrow (few output pixels, e.g. 7×7).
const TILE_ROWS: usize = 64;
/// Below this many multiply-adds one call is cheaper than fanning out.
const PARALLEL_MACS: usize = 1 << 18;

/// `C (m × n, row-major) = alpha·A·B`, or `+=` when `accumulate`.
pub(crate) fn product<T: Scalar>(
    c: &mut [T],
    a: MatRef<'_, T>,
    b: MatRef<'_, T>,
    alpha: T,
    accumulate: bool,
) {
    let (m, k, n) = (a.nrows(), a.ncols(), b.ncols());
    debug_assert_eq!(b.nrows(), k);
    debug_assert_eq!(c.len(), m * n);
    let accum = if accumulate {
        Accum::Add
    } else {
        Accum::Replace
    };
    let cm = MatMut::from_row_major_slice_mut(c, m, n);
    if m * n * k.max(1) < PARALLEL_MACS {
        matmul(cm, accum, a, b, alpha, Par::Seq);
        return;
    }
    let (tile_rows, tile_cols) = tiling(m, n);
    let mut tiles = Vec::new();
    split_tiles(cm, 0, 0, tile_rows, tile_cols, &mut tiles);
    tiles.into_par_iter().for_each(|(tile, i, j)| {
        let (h, w) = (tile.nrows(), tile.ncols());
        matmul(
            tile,
            accum,
            a.subrows(i, h),
            b.subcols(j, w),
            alpha,
            Par::Seq,
        );
    });
}

/// [`product`] on the calling thread only (for callers that are already
/// parallel over independent products).
pub(crate) fn product_seq<T: Scalar>(
    c: &mut [T],
    a: MatRef<'_, T>,
    b: MatRef<'_, T>,
    alpha: T,
    accumulate: bool,
) {
    let (m, n) = (a.nrows(), b.ncols());
    let accum = if accumulate {
        Accum::Add
    } else {
        Accum::Replace
    };
    matmul(
        MatMut::from_row_major_slice_mut(c, m, n),
        accum,
        a,
        b,
        alpha,
        Par::Seq,
    );
}

/// The tile extents for an `m × n` output: whole rows in column blocks
/// when `C` is wide, row blocks as well when it has few column blocks.
fn tiling(m: usize, n: usize) -> (usize, usize) {
    let cols = TILE_COLS.min(n.max(1));
    let col_blocks = n.div_ceil(cols);
    let rows = if col_blocks >= 8 {
        m.max(1)
    } else {
        TILE_ROWS.min(m.max(1))
    };
    (rows, cols)
}

/// Splits `c` (whose top-left element is `C[i0, j0]`) into disjoint tiles.
fn split_tiles<'a, T>(
    c: MatMut<'a, T>,
    i0: usize,
    j0: usize,
    rows: usize,
    cols: usize,
    out: &mut Vec<(MatMut<'a, T>, usize, usize)>,
) {
    let mut rest = c;
    let mut j = j0;
    while rest.ncols() > 0 {
        let w = cols.min(rest.ncols());
        let (block, tail) = rest.split_at_col_mut(w);
        let mut rblock = block;
        let mut i = i0;
        while rblock.nrows() > 0 {
            let h = rows.min(rblock.nrows());
            let (tile, below) = rblock.split_at_row_mut(h);
            out.push((tile, i, j));
            rblock = below;
            i += h;
        }
        rest = tail;
        j += w;
    }
}

/// A row-major `rows × cols` view of `data`.
pub(crate) fn rows<T>(data: &[T], rows: usize, cols: usize) -> MatRef<'_, T> {
    MatRef::from_row_major_slice(data, rows, cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        c
    }

    #[test]
    fn tiled_product_matches_the_naive_sum_on_ragged_shapes() {
        // 70 rows, 600 columns: ragged row and column tiles, parallel path.
        let (m, k, n) = (70, 33, 600);
        let a: Vec<f64> = (0..m * k).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
        let b: Vec<f64> = (0..k * n).map(|i| ((i * 5) % 13) as f64 - 6.0).collect();
        let mut c = vec![1.0; m * n];
        product(&mut c, rows(&a, m, k), rows(&b, k, n), 2.0, true);
        let want = naive(&a, &b, m, k, n);
        for (x, w) in c.iter().zip(&want) {
            assert_eq!(*x, 1.0 + 2.0 * w);
        }
        let mut c = vec![f64::NAN; m * n];
        product(&mut c, rows(&a, m, k), rows(&b, k, n), 1.0, false);
        assert_eq!(c, want);
    }

    #[test]
    fn tiles_cover_every_element_once() {
        for (m, n) in [(1, 1), (64, 256), (65, 257), (512, 49), (3, 5000)] {
            let mut c = vec![0u8; m * n];
            let (r, w) = tiling(m, n);
            let mut tiles = Vec::new();
            split_tiles(
                MatMut::from_row_major_slice_mut(&mut c, m, n),
                0,
                0,
                r,
                w,
                &mut tiles,
            );
            let mut seen = vec![0; m * n];
            for (t, i, j) in &tiles {
                for di in 0..t.nrows() {
                    for dj in 0..t.ncols() {
                        seen[(i + di) * n + j + dj] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s == 1), "{m}×{n}");
        }
    }
}
