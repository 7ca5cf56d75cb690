//! Bounded, deterministic random-mutation testing of `decode` (the in-process
//! stand-in for the `cargo fuzz` target in `fuzz/`): seeded byte mutations of
//! small models and the smallest light nets must give `Ok` or `Err`, never a
//! panic. A failing input is written to `$CARGO_TARGET_TMPDIR/mutation-crash-*.onnx`.
//!
//! `ONNC_MUTATIONS=<n>` changes the number of mutations (default 20 000 byte-level,
//! 10 000 structure-aware).

mod common;

use common::*;
use onnc_onnx::onnc_proto::prost::Message;
use onnc_onnx::Options;
use std::path::Path;

/// splitmix64: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let same = |k: &str| a_str("auto_pad", k);
    let mut v = vec![
        one_node(
            11,
            &[1, 3, 8, 8],
            vec![zeros("w", &[4, 3, 3, 3])],
            node("c", "Conv", &["x", "w"], &["y"], vec![same("SAME_UPPER")]),
        ),
        one_node(
            11,
            &[1, 3, 8, 8],
            vec![],
            node(
                "p",
                "AveragePool",
                &["x"],
                &["y"],
                vec![same("SAME_LOWER"), a_ints("kernel_shape", &[2, 2])],
            ),
        ),
        one_node(
            11,
            &[1, 4, 5, 5],
            vec![zeros("w", &[4, 2, 3, 3])],
            node(
                "t",
                "ConvTranspose",
                &["x", "w"],
                &["y"],
                vec![a_ints("strides", &[2, 2])],
            ),
        ),
        one_node(
            18,
            &[1, 1, 4, 4],
            vec![ti64("sz", &[2], &[7, 9])],
            node(
                "r",
                "Resize",
                &["x", "", "", "sz"],
                &["y"],
                vec![
                    a_ints("axes", &[2, 3]),
                    a_str("keep_aspect_ratio_policy", "not_larger"),
                ],
            ),
        ),
        one_node(
            11,
            &[1, 3, 8, 8],
            vec![zeros("w", &[4, 3, 3, 3])],
            node(
                "c",
                "Conv",
                &["x", "w"],
                &["y"],
                vec![a_ints("pads", &[1, 1, 1, 1])],
            ),
        ),
        one_node(
            6,
            &[2, 3],
            vec![],
            node(
                "c",
                "Clip",
                &["x"],
                &["y"],
                vec![a_float("min", 0.0), a_float("max", 6.0)],
            ),
        ),
        one_node(
            7,
            &[1, 3, 4, 4],
            vec![],
            node(
                "u",
                "Upsample",
                &["x"],
                &["y"],
                vec![a_floats("scales", &[1.0, 1.0, 2.0, 2.0])],
            ),
        ),
        one_node(
            9,
            &[4, 5],
            vec![],
            node(
                "s",
                "Slice",
                &["x"],
                &["y"],
                vec![a_ints("starts", &[1]), a_ints("ends", &[3])],
            ),
        ),
        one_node(
            2,
            &[2, 3],
            vec![],
            node(
                "p",
                "Pad",
                &["x"],
                &["y"],
                vec![a_ints("pads", &[0, 1, 0, 1])],
            ),
        ),
        one_node(
            11,
            &[2, 3, 4],
            vec![],
            node("s", "Softmax", &["x"], &["y"], vec![]),
        ),
        one_node(
            6,
            &[2, 3, 4, 5],
            vec![zeros("b", &[3])],
            node(
                "a",
                "Add",
                &["x", "b"],
                &["y"],
                vec![a_int("broadcast", 1), a_int("axis", 1)],
            ),
        ),
        one_node(
            13,
            &[2, 3, 4],
            vec![ti64("s", &[2], &[0, -1])],
            node("r", "Reshape", &["x", "s"], &["y"], vec![]),
        ),
        one_node(
            11,
            &[1, 3, 4, 4],
            vec![ti64("sh", &[2], &[2, 2])],
            node("k", "ConstantOfShape", &["sh"], &["y"], vec![]),
        ),
        one_node(
            13,
            &[1, 8, 5, 5],
            vec![],
            node(
                "m",
                "MaxPool",
                &["x"],
                &["y"],
                vec![
                    a_ints("kernel_shape", &[3, 3]),
                    a_int("ceil_mode", 1),
                    a_ints("strides", &[2, 2]),
                ],
            ),
        ),
    ]
    .into_iter()
    .map(|m| m.encode_to_vec())
    .collect::<Vec<_>>();
    for p in light_nets().iter().filter(|p| {
        std::fs::metadata(p)
            .map(|m| m.len() < 16_000)
            .unwrap_or(false)
    }) {
        v.push(std::fs::read(p).unwrap());
    }
    v
}

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut b = src.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.below(len);
                b[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                b[i] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x08, 0x12][rng.below(7)];
            }
            2 => {
                let i = rng.below(len + 1);
                let n = 1 + rng.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                b.splice(i..i, bytes);
            }
            3 if len > 1 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                b.drain(i..i + n);
            }
            4 if len > 1 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                let chunk = b[i..i + n].to_vec();
                let at = rng.below(b.len() + 1);
                b.splice(at..at, chunk);
            }
            5 => b.truncate(rng.below(len + 1)),
            _ if len > 8 => {
                // Overwrite a varint-sized window with a large varint.
                let i = rng.below(len - 8);
                b[i..i + 8].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]);
            }
            _ => {}
        }
    }
    b
}

#[test]
fn random_mutations_never_panic() {
    let n: usize = std::env::var("ONNC_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seeds = seeds();
    let mut rng = Rng(0x0DDC_0FFE_E15E_A5E5);
    let (mut ok, mut err) = (0usize, 0usize);
    for i in 0..n {
        let seed = &seeds[i % seeds.len()];
        let bytes = mutate(&mut rng, seed);
        let r = std::panic::catch_unwind(|| {
            onnc_onnx::decode(&bytes, Path::new("/nonexistent"), &Options::default())
                .map(|m| onnc_onnx::infer_graph(&m.graph))
        });
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => err += 1,
            Err(_) => {
                let path =
                    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mutation-crash-{i}.onnx"));
                std::fs::write(&path, &bytes).unwrap();
                panic!(
                    "decode panicked on mutation {i}; input saved to {}",
                    path.display()
                );
            }
        }
    }
    eprintln!("{n} mutations: {ok} loaded, {err} rejected");
    assert_eq!(ok + err, n);
}

/// Structure-aware mutations: decode a seed, change attribute values, dims,
/// operator types, inputs and opsets to extreme or mismatched values, re-encode.
#[test]
fn structured_mutations_never_panic() {
    use onnc_onnx::onnc_proto::onnx::ModelProto;
    let n: usize = std::env::var("ONNC_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let seeds: Vec<ModelProto> = seeds()
        .iter()
        .map(|b| ModelProto::decode(&b[..]).unwrap())
        .collect();
    let ops: Vec<&str> = onnc_onnx::ops::registry().iter().map(|s| s.name).collect();
    let extremes = [
        0i64,
        1,
        -1,
        2,
        3,
        -2,
        7,
        64,
        1 << 20,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
        -(1 << 40),
    ];
    let mut rng = Rng(0x5EED_0F0A_11CE_0001);
    let (mut ok, mut err) = (0usize, 0usize);
    for i in 0..n {
        let mut m = seeds[i % seeds.len()].clone();
        let g = m.graph.get_or_insert_with(Default::default);
        for _ in 0..1 + rng.below(3) {
            match rng.below(8) {
                0 if !g.node.is_empty() => {
                    let k = rng.below(g.node.len());
                    g.node[k].op_type = ops[rng.below(ops.len())].to_string();
                }
                1 if !g.node.is_empty() => {
                    let k = rng.below(g.node.len());
                    for a in &mut g.node[k].attribute {
                        if !a.ints.is_empty() {
                            let j = rng.below(a.ints.len());
                            a.ints[j] = extremes[rng.below(extremes.len())];
                        }
                        a.i = extremes[rng.below(extremes.len())];
                        a.f = [0.0, -1.0, f32::NAN, f32::INFINITY, 1e30][rng.below(5)];
                        if !a.s.is_empty() {
                            let words = [
                                "SAME_UPPER",
                                "SAME_LOWER",
                                "VALID",
                                "NOTSET",
                                "linear",
                                "not_larger",
                                "?",
                            ];
                            a.s = words[rng.below(words.len())].as_bytes().to_vec();
                        }
                    }
                }
                2 if !g.initializer.is_empty() => {
                    let k = rng.below(g.initializer.len());
                    let t = &mut g.initializer[k];
                    if !t.int64_data.is_empty() {
                        let j = rng.below(t.int64_data.len());
                        t.int64_data[j] = extremes[rng.below(extremes.len())];
                    }
                }
                3 if !g.input.is_empty() => {
                    use onnc_onnx::onnc_proto::onnx::type_proto::Value;
                    let k = rng.below(g.input.len());
                    if let Some(Value::TensorType(t)) =
                        g.input[k].r#type.as_mut().and_then(|t| t.value.as_mut())
                    {
                        if let Some(s) = t.shape.as_mut() {
                            if !s.dim.is_empty() && rng.below(2) == 0 {
                                let j = rng.below(s.dim.len());
                                s.dim.remove(j);
                            } else if let Some(d) = s.dim.first_mut() {
                                d.value = Some(onnc_onnx::onnc_proto::onnx::tensor_shape_proto::dimension::Value::DimValue(
                                    extremes[rng.below(extremes.len())],
                                ));
                            }
                        }
                    }
                }
                4 if !g.node.is_empty() => {
                    let k = rng.below(g.node.len());
                    let node = &mut g.node[k];
                    if !node.input.is_empty() && rng.below(2) == 0 {
                        let j = rng.below(node.input.len());
                        node.input[j] = String::new();
                    } else {
                        node.input
                            .push(node.input.first().cloned().unwrap_or_default());
                    }
                }
                5 => {
                    if let Some(o) = m.opset_import.first_mut() {
                        o.version = [1, 5, 6, 7, 9, 10, 11, 12, 13, 18, 22][rng.below(11)];
                    }
                }
                6 if !g.node.is_empty() => {
                    let k = rng.below(g.node.len());
                    let node = &mut g.node[k];
                    if rng.below(2) == 0 {
                        node.output.push(format!("extra{i}"));
                    } else if !node.attribute.is_empty() {
                        let j = rng.below(node.attribute.len());
                        node.attribute[j].r#type = rng.below(15) as i32;
                    }
                }
                _ if !g.initializer.is_empty() => {
                    let k = rng.below(g.initializer.len());
                    let t = &mut g.initializer[k];
                    if !t.dims.is_empty() {
                        let j = rng.below(t.dims.len());
                        t.dims[j] = extremes[rng.below(extremes.len())];
                    }
                }
                _ => {}
            }
        }
        let bytes = m.encode_to_vec();
        let r = std::panic::catch_unwind(|| {
            onnc_onnx::decode(&bytes, Path::new("/nonexistent"), &Options::default()).map(|m| {
                let _ = onnc_onnx::infer_graph(&m.graph);
                onnc_onnx::export(&m)
            })
        });
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => err += 1,
            Err(_) => {
                let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
                    .join(format!("structured-crash-{i}.onnx"));
                std::fs::write(&path, &bytes).unwrap();
                panic!(
                    "decode panicked on structured mutation {i}; input saved to {}",
                    path.display()
                );
            }
        }
    }
    eprintln!("{n} structured mutations: {ok} loaded, {err} rejected");
}
