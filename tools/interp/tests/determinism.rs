//! The parallel kernels give the same bits whatever the thread count: each
//! case runs on a 1-thread and a 2-thread rayon pool (and a 3-thread one,
//! whose tiles land on threads differently again) and the outputs must be
//! bit-identical. The shapes are big enough to take the parallel paths
//! (tiled products, parallel im2col, parallel pooling and per-group
//! convolutions); the big convolution is also checked against a direct sum.

use onnc_interp::run_op;
use onnc_tensor::{Attr, Attrs, Tensor};

/// Deterministic pseudo-random values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn t(shape: &[usize], seed: u64) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f32(shape.to_vec(), values(n, seed)).unwrap()
}

fn attrs(list: &[(&str, Attr)]) -> Attrs {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Runs `op` on pools of 1, 2 and 3 threads; asserts the bits agree and
/// returns the outputs' f32 data.
fn same_bits(op: &str, a: &Attrs, ins: &[&Tensor]) -> Vec<Vec<f32>> {
    let ins: Vec<Option<&Tensor>> = ins.iter().map(|t| Some(*t)).collect();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| run_op(op, a, &ins))
            .unwrap_or_else(|e| panic!("{op}: {e}"))
    };
    let one = run(1);
    for threads in [2, 3] {
        let many = run(threads);
        assert_eq!(one.len(), many.len());
        for (x, y) in one.iter().zip(&many) {
            assert_eq!(x.shape(), y.shape(), "{op}");
            let bits = |t: &Tensor| -> Vec<u32> {
                t.as_f32().unwrap().iter().map(|v| v.to_bits()).collect()
            };
            assert!(bits(x) == bits(y), "{op}: 1 and {threads} threads differ");
        }
    }
    one.iter().map(|t| t.as_f32().unwrap().to_vec()).collect()
}

#[test]
fn conv_3x3_is_bit_identical_across_thread_counts_and_right() {
    // 1×32×40×40 * 48×32×3×3, pad 1, stride 1: 1600 output pixels, 7 tiles.
    let (x, w, b) = (t(&[1, 32, 40, 40], 1), t(&[48, 32, 3, 3], 2), t(&[48], 3));
    let a = attrs(&[("pads", Attr::Ints(vec![1, 1, 1, 1]))]);
    let y = same_bits("Conv", &a, &[&x, &w, &b]).remove(0);
    let (xv, wv, bv) = (
        x.as_f32().unwrap(),
        w.as_f32().unwrap(),
        b.as_f32().unwrap(),
    );
    for &(m, oy, ox) in &[
        (0, 0, 0),
        (47, 39, 39),
        (13, 20, 1),
        (30, 0, 39),
        (5, 17, 22),
    ] {
        let mut s = bv[m] as f64;
        for c in 0..32 {
            for ky in 0..3 {
                for kx in 0..3 {
                    let (iy, ix) = (oy as isize + ky - 1, ox as isize + kx - 1);
                    if (0..40).contains(&iy) && (0..40).contains(&ix) {
                        let xi = (c * 40 + iy as usize) * 40 + ix as usize;
                        let wi = ((m * 32 + c) * 3 + ky as usize) * 3 + kx as usize;
                        s += xv[xi] as f64 * wv[wi] as f64;
                    }
                }
            }
        }
        let got = y[(m * 40 + oy) * 40 + ox] as f64;
        assert!((got - s).abs() < 1e-4, "y[{m},{oy},{ox}] = {got}, want {s}");
    }
}

#[test]
fn strided_grouped_and_depthwise_convs_are_bit_identical() {
    let x = t(&[2, 16, 33, 31], 4);
    let strided = attrs(&[
        ("strides", Attr::Ints(vec![2, 2])),
        ("pads", Attr::Ints(vec![3, 3, 3, 3])),
    ]);
    same_bits("Conv", &strided, &[&x, &t(&[64, 16, 7, 7], 5)]);
    let grouped = attrs(&[
        ("group", Attr::Int(4)),
        ("pads", Attr::Ints(vec![1, 1, 1, 1])),
    ]);
    same_bits("Conv", &grouped, &[&x, &t(&[32, 4, 3, 3], 6), &t(&[32], 7)]);
    let depthwise = attrs(&[
        ("group", Attr::Int(16)),
        ("pads", Attr::Ints(vec![1, 1, 1, 1])),
    ]);
    same_bits("Conv", &depthwise, &[&x, &t(&[16, 1, 3, 3], 8)]);
    // 1×1 convolution: the input is the column matrix (no im2col).
    same_bits("Conv", &Attrs::new(), &[&x, &t(&[96, 16, 1, 1], 9)]);
}

#[test]
fn gemm_matmul_and_pools_are_bit_identical() {
    let fc = attrs(&[("transB", Attr::Int(1))]);
    same_bits(
        "Gemm",
        &fc,
        &[&t(&[3, 2048], 10), &t(&[1000, 2048], 11), &t(&[1000], 12)],
    );
    same_bits(
        "MatMul",
        &Attrs::new(),
        &[&t(&[300, 200], 13), &t(&[200, 700], 14)],
    );
    same_bits(
        "MatMul",
        &Attrs::new(),
        &[&t(&[6, 64, 96], 15), &t(&[96, 80], 16)],
    );
    let x = t(&[1, 64, 112, 112], 17);
    let pool = attrs(&[
        ("kernel_shape", Attr::Ints(vec![3, 3])),
        ("strides", Attr::Ints(vec![2, 2])),
        ("pads", Attr::Ints(vec![1, 1, 1, 1])),
    ]);
    same_bits("MaxPool", &pool, &[&x]);
    same_bits("AveragePool", &pool, &[&x]);
}

#[test]
fn element_wise_ops_are_bit_identical() {
    let x = t(&[1, 64, 56, 56], 18);
    let c = |s| t(&[64], s);
    let var = Tensor::from_f32(vec![64], values(64, 19).iter().map(|v| v + 1.5).collect()).unwrap();
    same_bits(
        "BatchNormalization",
        &Attrs::new(),
        &[&x, &c(20), &c(21), &c(22), &var],
    );
    same_bits("Relu", &Attrs::new(), &[&x]);
    same_bits("Sum", &Attrs::new(), &[&x, &t(&[1, 64, 56, 56], 23)]);
    same_bits("Add", &Attrs::new(), &[&x, &t(&[1, 64, 56, 56], 24)]);
}
