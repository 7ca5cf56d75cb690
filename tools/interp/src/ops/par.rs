//! Element-wise loops on rayon's pool: [`map`] and [`zip`] split a slice
//! into runs of at least [`MIN_LEN`] elements (small tensors stay on the
//! calling thread) and collect the results in order.
//!
//! In: slices and a per-element function. Out: a new `Vec`, element `i`
//! computed from element `i` alone — so the bits never depend on the
//! thread count. Example: `map(&[1, -2], |&v| v * 2) == [2, -4]`.

use rayon::prelude::*;

/// Elements per parallel run: below twice this, one thread does it all.
pub(crate) const MIN_LEN: usize = 1 << 14;

/// `x.iter().map(f).collect()`, in parallel for long slices.
pub(crate) fn map<T: Sync, R: Send>(x: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    if x.len() < 2 * MIN_LEN {
        x.iter().map(f).collect()
    } else {
        x.par_iter().with_min_len(MIN_LEN).map(f).collect()
    }
}

/// `a.iter().zip(b).map(f).collect()` (slices of one length), in parallel
/// for long slices.
pub(crate) fn zip<A: Copy + Sync, B: Copy + Sync, R: Send>(
    a: &[A],
    b: &[B],
    f: impl Fn(A, B) -> R + Sync + Send,
) -> Vec<R> {
    debug_assert_eq!(a.len(), b.len());
    if a.len() < 2 * MIN_LEN {
        a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
    } else {
        a.par_iter()
            .zip(b.par_iter())
            .with_min_len(MIN_LEN)
            .map(|(&x, &y)| f(x, y))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn map_and_zip_keep_order_on_both_paths() {
        for n in [0, 5, 3 * super::MIN_LEN + 7] {
            let a: Vec<i64> = (0..n as i64).collect();
            let b: Vec<i64> = (0..n as i64).map(|v| v * 3).collect();
            let m = super::map(&a, |&v| v - 1);
            assert!(m.iter().enumerate().all(|(i, &v)| v == i as i64 - 1));
            let z = super::zip(&a, &b, |x, y| y - x);
            assert!(z.iter().enumerate().all(|(i, &v)| v == 2 * i as i64));
        }
    }
}
