//! The same statistics and scales, bit for bit, whatever the thread count
//! and the order of the sets.

mod common;

use common::{tiny_cnn, Rng};
use onnc_calib::{collect, CalibSource, DataSet, Method, Statistics};
use onnc_tensor::Tensor;

fn sets(n: usize, seed: u64) -> Vec<DataSet> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| DataSet {
            inputs: vec![(
                "image".into(),
                Tensor::from_f32(vec![1, 3, 8, 8], r.f32s(192, -2.0, 2.0)).unwrap(),
            )],
            files: vec![],
        })
        .collect()
}

fn on_threads(threads: usize, src: &CalibSource) -> Statistics {
    let g = tiny_cnn(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| collect(&g, src, false).unwrap())
}

fn scale_bits(s: &Statistics) -> Vec<(String, Vec<u32>)> {
    let methods = [
        Method::Max,
        Method::Percentile(99.99),
        Method::Entropy,
        Method::Mse,
    ];
    let mut out = Vec::new();
    for m in methods {
        for (name, scale) in s.calibration(m).scales {
            out.push((format!("{m} {name}"), vec![scale.to_bits()]));
        }
    }
    out
}

#[test]
fn one_two_and_three_threads_give_identical_bytes() {
    let src = CalibSource::Sets(sets(24, 5));
    let one = on_threads(1, &src);
    assert_eq!(one.sets(), 24);
    for t in [2, 3] {
        let many = on_threads(t, &src);
        assert_eq!(one, many, "{t} threads: statistics differ");
        assert_eq!(
            scale_bits(&one),
            scale_bits(&many),
            "{t} threads: scales differ"
        );
    }
}

#[test]
fn the_order_of_the_sets_does_not_matter() {
    let forward = sets(12, 9);
    let mut backward = forward.clone();
    backward.reverse();
    let a = on_threads(2, &CalibSource::Sets(forward));
    let b = on_threads(2, &CalibSource::Sets(backward));
    assert_eq!(a, b);
    assert_eq!(scale_bits(&a), scale_bits(&b));
}
