//! Transformer pieces on nv_full (FP16), compiled, simulated bit-exactly
//! and compared with the reference interpreter (`harness::check`, 1 % of
//! max |ref|; each case also asserts its measured bound): a token MLP block
//! (LayerNorm → MatMul + bias → GELU → MatMul + bias → residual Add) on 3-D
//! tokens held as the cube `[N, K, T, 1]`, LayerNorm alone, and a ViT-style
//! patch embedding (a 16×16 convolution at stride 16).
//!
//! In: graphs built here. Out: assertions on the agreement.

use onnc_tensor::Attr;

use crate::harness::{check, Check};
use crate::net::{ints, ConvGeom, Net};

/// `[1, K, T]` channels → tokens `[1, T, K]` (a view on NVDLA).
fn to_tokens(n: &mut Net, x: &str) -> String {
    n.op("Transpose", &[x], &[("perm", ints(&[0, 2, 1]))])
}

/// `LayerNormalization` over the last axis with random γ, β.
fn layer_norm(n: &mut Net, x: &str, k: usize) -> String {
    let g = n.init(&[k], 0.5, 1.5);
    let b = n.init(&[k], -0.3, 0.3);
    n.op(
        "LayerNormalization",
        &[x, &g, &b],
        &[("axis", Attr::Int(-1)), ("epsilon", Attr::Float(1e-5))],
    )
}

/// `MatMul(x, W[k, m]) + b[m]` as PyTorch exports `nn.Linear` on tokens.
fn linear(n: &mut Net, x: &str, k: usize, m: usize) -> String {
    let s = (3.0 / k as f32).sqrt();
    let w = n.init(&[k, m], -s, s);
    let b = n.init(&[m], -0.2, 0.2);
    let y = n.op("MatMul", &[x, &w], &[]);
    n.op("Add", &[&y, &b], &[])
}

/// GELU as PyTorch exports it: `x · (1 + erf(x / √2)) · 0.5`.
fn gelu(n: &mut Net, x: &str) -> String {
    let r2 = n.constant(&[], vec![std::f32::consts::SQRT_2]);
    let one = n.constant(&[], vec![1.0]);
    let half = n.constant(&[], vec![0.5]);
    let d = n.op("Div", &[x, &r2], &[]);
    let e = n.op("Erf", &[&d], &[]);
    let a = n.op("Add", &[&e, &one], &[]);
    let m = n.op("Mul", &[x, &a], &[]);
    n.op("Mul", &[&m, &half], &[])
}

#[test]
fn layer_norm_on_tokens() {
    let (k, t) = (48, 10);
    let mut n = Net::new("layer_norm_tokens", &[1, k, t], 61);
    let x = to_tokens(&mut n, "x");
    let l = layer_norm(&mut n, &x, k);
    let y = n.op("Transpose", &[&l], &[("perm", ints(&[0, 2, 1]))]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.worst() < 5e-3, "{}", r.line());
}

#[test]
fn token_mlp_block() {
    let (k, t) = (32, 12);
    let mut n = Net::new("token_mlp_block", &[1, k, t], 62);
    let x = to_tokens(&mut n, "x");
    let l = layer_norm(&mut n, &x, k);
    let h = linear(&mut n, &l, k, 4 * k);
    let g = gelu(&mut n, &h);
    let o = linear(&mut n, &g, 4 * k, k);
    let r = n.op("Add", &[&x, &o], &[]);
    let y = n.op("Transpose", &[&r], &[("perm", ints(&[0, 2, 1]))]);
    n.output(&y);
    let rep = check(n.g, Check::full());
    assert!(rep.worst() < 5e-3, "{}", rep.line());
}

#[test]
fn position_embedding_then_projection() {
    // A [1, T, K] constant lands on channel k, position t of the cube.
    let (k, t) = (16, 7);
    let mut n = Net::new("pos_embed_proj", &[1, k, t], 64);
    let x = to_tokens(&mut n, "x");
    let e = n.init(&[1, t, k], -1.0, 1.0);
    let p = n.op("Add", &[&x, &e], &[]);
    let h = linear(&mut n, &p, k, 24);
    let y = n.op("Transpose", &[&h], &[("perm", ints(&[0, 2, 1]))]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.worst() < 2e-3, "{}", r.line());
}

#[test]
fn patch_embedding_stride_16() {
    let mut n = Net::new("patch_embed_16", &[1, 3, 64, 64], 63);
    let g = ConvGeom {
        stride: 16,
        pads: [0; 4],
        ..ConvGeom::same(16)
    };
    let c = n.conv("x", 3, 24, g, true);
    n.output(&c);
    let r = check(n.g, Check::full());
    assert!(r.worst() < 2e-3, "{}", r.line());
}

#[test]
fn layer_norm_over_tokens_of_very_different_scales() {
    // Token t scaled by 10^(−2 + 4t/(T−1)): variances from about 3e-5 to
    // 3e3, through the exponential part of the rsqrt table and its LO range.
    // (The centred squares must stay within FP16: |x − μ| < 256.)
    let (k, t) = (32, 11);
    let mut n = Net::new("layer_norm_scales", &[1, k, t], 65);
    let x = to_tokens(&mut n, "x");
    let scale: Vec<f32> = (0..t)
        .flat_map(|i| {
            let s = 10f32.powf(-2.0 + 4.0 * i as f32 / (t - 1) as f32);
            std::iter::repeat_n(s, k)
        })
        .collect();
    let s = n.constant(&[1, t, k], scale);
    let xs = n.op("Mul", &[&x, &s], &[]);
    let l = layer_norm(&mut n, &xs, k);
    let y = n.op("Transpose", &[&l], &[("perm", ints(&[0, 2, 1]))]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.worst() < 5e-3, "{}", r.line());
}

#[test]
fn patch_embedding_into_tokens_on_the_feature_map_grid() {
    // Conv 16×16/16 → [1, 24, 4, 4] → Reshape [1, 24, 16] → tokens → LayerNorm
    // → MatMul + bias → back to [1, 32, 16]: the reshape is a view because the
    // tokens keep the 4×4 grid of the feature map.
    let mut n = Net::new("patch_to_tokens", &[1, 3, 64, 64], 66);
    let g = ConvGeom {
        stride: 16,
        pads: [0; 4],
        ..ConvGeom::same(16)
    };
    let c = n.conv("x", 3, 24, g, true);
    let shape = n.int64(&[1, 24, 16]);
    let f = n.op("Reshape", &[&c, &shape], &[]);
    let t = to_tokens(&mut n, &f);
    let e = n.init(&[1, 16, 24], -0.2, 0.2);
    let p = n.op("Add", &[&t, &e], &[]);
    let l = layer_norm(&mut n, &p, 24);
    let h = linear(&mut n, &l, 24, 32);
    let y = n.op("Transpose", &[&h], &[("perm", ints(&[0, 2, 1]))]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.worst() < 5e-3, "{}", r.line());
}
