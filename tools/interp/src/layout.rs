//! Row-major layout helpers: strides, multidirectional broadcasting and
//! index-driven copies shared by the data-movement kernels.
//!
//! In: shapes (and index lists). Out: shapes, strides, or gathered element
//! vectors. For example `broadcast_shape(&[2, 1, 4], &[3, 1])` is
//! `Some([2, 3, 4])`.

/// Row-major strides of `shape`.
pub(crate) fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// The multidirectional (numpy) broadcast of two shapes, or `None`.
pub(crate) fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let r = a.len().max(b.len());
    let mut out = vec![0; r];
    for (i, o) in out.iter_mut().enumerate() {
        let da = if i + a.len() >= r {
            a[i + a.len() - r]
        } else {
            1
        };
        let db = if i + b.len() >= r {
            b[i + b.len() - r]
        } else {
            1
        };
        *o = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

/// Whether `src` broadcasts (unidirectionally) to `out`.
pub(crate) fn broadcasts_to(src: &[usize], out: &[usize]) -> bool {
    src.len() <= out.len()
        && src
            .iter()
            .rev()
            .zip(out.iter().rev())
            .all(|(&s, &o)| s == o || s == 1)
}

/// For every element of `out` (row-major), the flat index of the element of
/// `src` it reads when `src` is broadcast to `out`. `src` must broadcast.
pub(crate) fn broadcast_index(src: &[usize], out: &[usize]) -> Vec<usize> {
    let r = out.len();
    let off = r - src.len();
    let ss = strides(src);
    let st: Vec<usize> = (0..r)
        .map(|i| {
            if i < off || src[i - off] == 1 {
                0
            } else {
                ss[i - off]
            }
        })
        .collect();
    let n: usize = out.iter().product();
    let mut idx = Vec::with_capacity(n);
    if n == 0 {
        return idx;
    }
    if r == 0 {
        idx.push(0);
        return idx;
    }
    let inner = out[r - 1];
    let inner_st = st[r - 1];
    let mut pos = vec![0usize; r];
    let mut base = 0usize;
    loop {
        for k in 0..inner {
            idx.push(base + k * inner_st);
        }
        // advance the outer odometer
        let mut d = r - 1;
        loop {
            if d == 0 {
                return idx;
            }
            d -= 1;
            pos[d] += 1;
            base += st[d];
            if pos[d] < out[d] {
                break;
            }
            base -= st[d] * pos[d];
            pos[d] = 0;
        }
    }
}

/// Applies `f` elementwise to `a` and `b` broadcast to `out`.
pub(crate) fn zip_broadcast<A: Copy, B: Copy, R>(
    a: &[A],
    sa: &[usize],
    b: &[B],
    sb: &[usize],
    out: &[usize],
    f: impl Fn(A, B) -> R,
) -> Vec<R> {
    if sa == sb {
        return a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect();
    }
    if b.len() == 1 && sa == out {
        let y = b[0];
        return a.iter().map(|&x| f(x, y)).collect();
    }
    if a.len() == 1 && sb == out {
        let x = a[0];
        return b.iter().map(|&y| f(x, y)).collect();
    }
    let ia = broadcast_index(sa, out);
    let ib = broadcast_index(sb, out);
    ia.iter().zip(&ib).map(|(&i, &j)| f(a[i], b[j])).collect()
}

/// `v[i]` for every `i` in `idx`.
pub(crate) fn take<T: Copy>(v: &[T], idx: &[usize]) -> Vec<T> {
    idx.iter().map(|&i| v[i]).collect()
}

/// Flat source indices of the transpose of `shape` by `perm`
/// (output dim `i` is input dim `perm[i]`).
pub(crate) fn transpose_index(shape: &[usize], perm: &[usize]) -> Vec<usize> {
    let st = strides(shape);
    let out: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
    let pst: Vec<usize> = perm.iter().map(|&p| st[p]).collect();
    strided_index(&out, &pst, 0)
}

/// Flat indices `base + Σ pos[d]·st[d]` for every position of `shape`, row-major.
pub(crate) fn strided_index(shape: &[usize], st: &[usize], base: usize) -> Vec<usize> {
    let n: usize = shape.iter().product();
    let mut idx = Vec::with_capacity(n);
    if n == 0 {
        return idx;
    }
    let r = shape.len();
    if r == 0 {
        idx.push(base);
        return idx;
    }
    let mut pos = vec![0usize; r];
    let mut off = base;
    loop {
        for k in 0..shape[r - 1] {
            idx.push(off + k * st[r - 1]);
        }
        let mut d = r - 1;
        loop {
            if d == 0 {
                return idx;
            }
            d -= 1;
            pos[d] += 1;
            off += st[d];
            if pos[d] < shape[d] {
                break;
            }
            off -= st[d] * pos[d];
            pos[d] = 0;
        }
    }
}

/// `d[i]` for every `i` in `idx`, keeping the element type.
pub(crate) fn take_data(d: &onnc_tensor::Data, idx: &[usize]) -> onnc_tensor::Data {
    use crate::elem::map_data;
    use onnc_tensor::Data;
    map_data!(d, v => take(v, idx))
}

/// Marks an output position that reads no input element (padding).
pub(crate) const FILL: usize = usize::MAX;

/// Flat source indices for an output whose position along dim `d` reads
/// source coordinate `coords[d][i]` (or [`FILL`]); `st` are the source strides.
pub(crate) fn product_index(coords: &[Vec<usize>], st: &[usize]) -> Vec<usize> {
    let r = coords.len();
    let n: usize = coords.iter().map(Vec::len).product();
    let mut idx = Vec::with_capacity(n);
    if n == 0 {
        return idx;
    }
    if r == 0 {
        idx.push(0);
        return idx;
    }
    let mut pos = vec![0usize; r];
    loop {
        let mut base = 0usize;
        let mut fill = false;
        for d in 0..r - 1 {
            let s = coords[d][pos[d]];
            if s == FILL {
                fill = true;
            } else {
                base += s * st[d];
            }
        }
        for &s in &coords[r - 1] {
            idx.push(if fill || s == FILL {
                FILL
            } else {
                base + s * st[r - 1]
            });
        }
        let mut d = r - 1;
        loop {
            if d == 0 {
                return idx;
            }
            d -= 1;
            pos[d] += 1;
            if pos[d] < coords[d].len() {
                break;
            }
            pos[d] = 0;
        }
    }
}

/// Like [`take_data`], with [`FILL`] positions set to `fill` (converted to the element type).
pub(crate) fn take_data_or(
    d: &onnc_tensor::Data,
    idx: &[usize],
    fill: &onnc_tensor::Data,
) -> onnc_tensor::Data {
    use crate::elem::{map_data, Pick};
    use onnc_tensor::Data;
    fn go<T: Pick + Default>(v: &[T], idx: &[usize], fill: &Data) -> Vec<T> {
        let f = T::pick(fill)
            .and_then(|s| s.first().copied())
            .unwrap_or_default();
        idx.iter()
            .map(|&i| if i == FILL { f } else { v[i] })
            .collect()
    }
    map_data!(d, v => go(v, idx, fill))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_shapes_follow_numpy() {
        assert_eq!(broadcast_shape(&[2, 1, 4], &[3, 1]), Some(vec![2, 3, 4]));
        assert_eq!(broadcast_shape(&[], &[3]), Some(vec![3]));
        assert_eq!(broadcast_shape(&[2], &[3]), None);
    }

    #[test]
    fn broadcast_index_repeats_rows() {
        assert_eq!(broadcast_index(&[1, 2], &[2, 2]), vec![0, 1, 0, 1]);
        assert_eq!(broadcast_index(&[2, 1], &[2, 3]), vec![0, 0, 0, 1, 1, 1]);
        assert_eq!(broadcast_index(&[], &[2]), vec![0, 0]);
    }

    #[test]
    fn transpose_2d() {
        assert_eq!(transpose_index(&[2, 3], &[1, 0]), vec![0, 3, 1, 4, 2, 5]);
    }
}
