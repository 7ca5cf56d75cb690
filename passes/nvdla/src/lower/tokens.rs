//! 3-D token activations (ViT, MLP-Mixer): `[N, T, K]` as the feature cube
//! `[N, K, T, 1]`, K channels at T positions, and the token ops rewritten
//! into the 4-D ops the rest of the lowering maps.
//!
//! In: the working graph. Out: the graph with every *token* value reshaped
//! to its cube and its nodes rewritten, or the problems found. A 3-D value
//! is a token value when a token op reads or writes it — a `MatMul` by a
//! constant `[K, M]` or a `LayerNormalization` over the last axis — or an
//! element-wise op or `Transpose(0, 2, 1)` connects it to one. Other 3-D
//! values keep the channel reading `[N, C, L]` = `[N, C, L, 1]` (graph
//! inputs and outputs always: the runtime binds them in NCHW order).
//! `Transpose(0, 2, 1)` between the two readings is the same cube, a view.
//!
//! Rewrites (`x` a token value, now `[N, K, T, 1]`):
//! * `MatMul(x, B[K, M])` → `Conv(x, Bᵀ[M, K, 1, 1])`, a 1×1 convolution.
//! * `Add`/`Sub`/`Mul`/`Div`/`Max`/`Min` with a constant of one value per
//!   feature (`[K]`, `[1, K]`, `[1, 1, K]`) → the same op with `[K, 1, 1]`
//!   (per channel); a full `[1, T, K]` constant is transposed to the cube;
//!   a scalar stays.
//! * `Transpose(0, 2, 1)` → `Identity` (a view).
//! * `LayerNormalization(x, γ, β)` over the last axis, with `r = 1/K`:
//!   ```text
//!   μ  = Conv(x, r)            K → 1 channel           [N, 1, T, 1]
//!   c  = x − Conv(μ, 1)        1 → K, SDP: −acc + x    [N, K, T, 1]
//!   v  = Conv(c · c, r) + ε    K → 1
//!   ρ₀ = Rsqrt(v)              the Y unit's table (`lut_fn = "rsqrt"`)
//!   ρ₂ = two Newton steps ρ ← ρ · (1.5 − 0.5 · (v · ρ) · ρ)
//!   y  = Conv(ρ₂, 1) · c · γ + β
//!   ```
//!   the centred square and every product of two activations on the SDP's
//!   per-point operand; measured error: docs/targets/nvdla.md. In INT8
//!   (nv_small, nv_large; the INT8 table is not built) `ρ = Pow(v, −½)`
//!   with ε as the EMU power op's shift, one CPU op on the `[N, 1, T, 1]`
//!   variance map (the only map of 1/K the size), no Newton steps: its
//!   INT8 result is as good as they could make it. The scales of `μ`,
//!   `c`, `c·c`, `v`, `ρ` and `ρ·c·γ` are observed by the calibrator
//!   (`onnc_calib`, the `#…` entries of a LayerNormalization).
//!
//! Any other op on a token value is a problem naming it: its semantics on
//! `[N, T, K]` are not those of the cube.

use std::collections::{BTreeMap, BTreeSet};

use onnc_onnx::Node;
use onnc_tensor::{Attr, DType, Tensor};

use super::error::Problem;
use super::graph::{Work, DEVICE_ATTR};
use super::nodes::EMU_SHIFT;

/// Element-wise ops of one or two operands that keep the layout.
const ELEMENTWISE: &[&str] = &[
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Max",
    "Min",
    "Relu",
    "Sigmoid",
    "Tanh",
    "Erf",
    "Softplus",
    "HardSigmoid",
    "HardSwish",
    "Mish",
    "Swish",
    "PRelu",
    "LeakyRelu",
    "Clip",
    "Identity",
    "Dropout",
];

fn is_transpose_021(w: &Work, n: &Node) -> bool {
    n.op_type == "Transpose"
        && w.shape(n.input(0).unwrap_or_default()).len() == 3
        && n.attrs.get("perm").and_then(Attr::as_ints) == Some(&[0, 2, 1][..])
}

fn is_token_matmul(w: &Work, n: &Node) -> bool {
    let (a, b) = (
        n.input(0).unwrap_or_default(),
        n.input(1).unwrap_or_default(),
    );
    n.op_type == "MatMul"
        && w.constant(a).is_none()
        && w.shape(a).len() == 3
        && w.constant(b)
            .is_some_and(|t| t.rank() == 2 && t.shape()[0] == w.shape(a)[2])
}

fn is_layer_norm(w: &Work, n: &Node) -> bool {
    let x = n.input(0).unwrap_or_default();
    let axis = n.attrs.get("axis").and_then(Attr::as_int).unwrap_or(-1);
    n.op_type == "LayerNormalization" && w.shape(x).len() == 3 && (axis == -1 || axis == 2)
}

/// The 3-D activations of `n` (operands and results).
fn acts3(w: &Work, n: &Node) -> Vec<String> {
    n.inputs
        .iter()
        .flatten()
        .chain(&n.outputs)
        .filter(|v| !v.is_empty() && w.constant(v).is_none() && w.shape(v).len() == 3)
        .cloned()
        .collect()
}

/// Whether `n` has a mapping on token values.
fn capable(w: &Work, n: &Node) -> bool {
    is_token_matmul(w, n)
        || is_layer_norm(w, n)
        || is_transpose_021(w, n)
        || (n.domain.is_empty()
            && !n.attrs.contains_key(DEVICE_ATTR)
            && ELEMENTWISE.contains(&n.op_type.as_str()))
}

/// The readings that follow from `v` being tokens, given the settled
/// `role`s: every value connected to `v` (true: tokens), or the value whose
/// settled reading contradicts it.
fn spread(
    v: &str,
    role: &BTreeMap<String, bool>,
    edges: &Edges,
) -> Result<BTreeMap<String, bool>, String> {
    let mut stack = vec![(v.to_string(), true)];
    let mut seen = BTreeMap::new();
    while let Some((x, t)) = stack.pop() {
        match role.get(&x).or(seen.get(&x)) {
            Some(&r) if r == t => continue,
            Some(_) => return Err(x),
            None => {}
        }
        seen.insert(x.clone(), t);
        for (y, f) in edges.get(&x).into_iter().flatten() {
            stack.push((y.clone(), t != *f));
        }
    }
    Ok(seen)
}

/// Values that hold the same data, by value: `(b, flip)` when b's reading is
/// the value's, flipped through a `Transpose(0, 2, 1)` if `flip`.
type Edges = BTreeMap<String, Vec<(String, bool)>>;

/// Which 3-D values are tokens: `Ok((set, edges))`, or the problems.
fn token_values(w: &Work) -> Result<(BTreeSet<String>, Edges), Vec<Problem>> {
    let mut edges = Edges::new();
    let mut seeds = Vec::new();
    for (i, n) in w.nodes.iter().enumerate() {
        let flip = is_transpose_021(w, n);
        let ew = n.domain.is_empty() && ELEMENTWISE.contains(&n.op_type.as_str());
        if is_token_matmul(w, n) || is_layer_norm(w, n) {
            seeds.push((i, n.input(0).unwrap_or_default().to_string()));
            seeds.push((i, n.outputs[0].clone()));
        } else if flip || ew {
            let vs = acts3(w, n);
            for a in &vs {
                for b in &vs {
                    if a != b {
                        let f = flip && (n.outputs.contains(a) != n.outputs.contains(b));
                        edges.entry(a.clone()).or_default().push((b.clone(), f));
                    }
                }
            }
        }
    }
    let mut role: BTreeMap<String, bool> = BTreeMap::new(); // true: tokens
    let mut problems = Vec::new();
    for (i, v) in seeds {
        let n = &w.nodes[i];
        match spread(&v, &role, &edges) {
            Err(x) => problems.push(Problem::new(
                &n.name,
                &n.op_type,
                format!("reads '{v}' as tokens [N, T, K], but '{x}' is also read as channels [N, C, L] on the same data; the cube [N, K, T, 1] cannot be both and no NVDLA engine transposes"),
                "keep one reading of the tensor (a Transpose(0, 2, 1) between a token op and a channel op is a view only once)",
            )),
            Ok(seen) => role.extend(seen),
        }
    }
    // A Transpose(0, 2, 1) between element-wise ops only: its result is
    // tokens when that whole part can be (then both Transposes are views).
    for n in w.nodes.iter().filter(|n| is_transpose_021(w, n)) {
        let (x, y) = (n.input(0).unwrap_or_default(), &n.outputs[0]);
        if role.contains_key(x) || role.contains_key(y) {
            continue;
        }
        if let Ok(seen) = spread(y, &role, &edges) {
            let holdable = seen.iter().filter(|(_, &t)| t).all(|(v, _)| {
                w.producer(v).is_some()
                    && !w.outputs.contains(v)
                    && w.nodes
                        .iter()
                        .all(|m| !acts3(w, m).contains(v) || capable(w, m))
            });
            if holdable {
                role.extend(seen);
            }
        }
    }
    let tokens: BTreeSet<String> = role
        .into_iter()
        .filter_map(|(v, t)| t.then_some(v))
        .collect();
    let bound: BTreeSet<&String> = w.outputs.iter().collect();
    for n in &w.nodes {
        let touched: Vec<String> = acts3(w, n)
            .into_iter()
            .filter(|v| tokens.contains(v))
            .collect();
        if touched.is_empty() {
            continue;
        }
        if !capable(w, n) {
            problems.push(Problem::new(
                &n.name,
                &n.op_type,
                format!("reads or writes the token tensor '{}' {:?}, which NVDLA holds as the cube [N, K, T, 1] (K features as channels, T tokens as positions); in that layout only MatMul by a constant, LayerNormalization over the features, element-wise ops and Transpose(0, 2, 1) are mapped", touched[0], w.shape(&touched[0])),
                "move the op out of the token part of the model, or transpose back to [N, C, L] first",
            ));
        } else if let Some(v) = touched.iter().find(|v| bound.contains(v)) {
            problems.push(Problem::new(
                &n.name,
                &n.op_type,
                format!("writes the graph output '{v}' {:?} as tokens; the runtime binds outputs in NCHW order (T channels of K positions), which is the transpose of NVDLA's token cube [N, K, T, 1], and no engine transposes", w.shape(v)),
                "output Transpose(y, [0, 2, 1]) ([N, K, T]) and transpose on the host",
            ).about(v));
        } else if n.op_type == "LayerNormalization"
            && n.outputs
                .iter()
                .skip(1)
                .any(|o| !o.is_empty() && (!w.users(o).is_empty() || bound.contains(o)))
        {
            problems.push(Problem::new(
                &n.name,
                &n.op_type,
                "uses its Mean or InvStdDev result, which the lowering does not produce",
                "use only the normalized result Y",
            ));
        }
    }
    for v in &tokens {
        if w.producer(v).is_none() {
            // A graph input read as tokens.
            let user = w.users(v).first().map(|&i| &w.nodes[i]);
            let (name, op) = user.map_or((v.as_str(), "input"), |n| {
                (n.name.as_str(), n.op_type.as_str())
            });
            problems.push(Problem::new(
                name,
                op,
                format!("reads the graph input '{v}' {:?} as tokens; the runtime binds inputs in NCHW order (T channels of K positions), which is the transpose of NVDLA's token cube [N, K, T, 1], and no engine transposes", w.shape(v)),
                "feed the tokens as [N, K, T] and Transpose(x, [0, 2, 1]) in the model (a view)",
            ).about(v));
        }
    }
    if problems.is_empty() {
        Ok((tokens, edges))
    } else {
        Err(problems)
    }
}

fn f32s(t: &Tensor) -> Vec<f32> {
    t.cast(DType::F32)
        .as_f32()
        .map(<[f32]>::to_vec)
        .unwrap_or_default()
}

/// Builds the rewritten node list.
struct Rewriter<'a> {
    w: &'a mut Work,
    nodes: Vec<Node>,
    sources: Vec<Vec<String>>,
    problems: Vec<Problem>,
    /// The ONNX nodes the node being rewritten stands for.
    src: Vec<String>,
    /// Whether 1/√ runs on the SDP's lookup table (FP16 with a LUT) rather
    /// than as the EMU's power op on the CPU (INT8, or no LUT).
    lut_rsqrt: bool,
}

impl Rewriter<'_> {
    fn konst(&mut self, name: &str, t: Tensor) -> String {
        self.w.shapes.insert(name.to_string(), t.shape().to_vec());
        self.w.consts.insert(name.to_string(), t);
        name.to_string()
    }

    fn push(&mut self, n: Node, out_shape: &[usize]) -> String {
        let out = n.outputs[0].clone();
        self.w.shapes.insert(out.clone(), out_shape.to_vec());
        self.nodes.push(n);
        self.sources.push(self.src.clone());
        out
    }

    fn conv1x1(&mut self, name: &str, x: &str, w: Tensor, out: &str, shape: &[usize]) -> String {
        let wn = self.konst(&format!("{name}.w"), w);
        let n = Node::new(name, "Conv", &[x, &wn], &[out])
            .with_attr("kernel_shape", Attr::Ints(vec![1, 1]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("pads", Attr::Ints(vec![0; 4]))
            .with_attr("dilations", Attr::Ints(vec![1, 1]))
            .with_attr("group", Attr::Int(1));
        self.push(n, shape)
    }

    fn binary(
        &mut self,
        name: &str,
        op: &str,
        a: &str,
        b: &str,
        out: &str,
        shape: &[usize],
    ) -> String {
        self.push(Node::new(name, op, &[a, b], &[out]), shape)
    }

    fn scalar(&mut self, name: &str, v: f32) -> String {
        self.konst(name, Tensor::from_f32(vec![1], vec![v]).expect("one value"))
    }

    /// `MatMul(x, B)` as a 1×1 conv.
    fn matmul(&mut self, n: &Node) {
        let b = self.w.constant(n.input(1).unwrap_or_default()).cloned();
        let Some(b) = b.filter(|b| b.rank() == 2) else {
            // `token_values` admits only a 2-D constant B; kept as a problem, not a panic.
            self.problems.push(Problem::new(
                &n.name,
                &n.op_type,
                "multiplies tokens by something other than a 2-D constant",
                "make the second operand a [K, M] initializer",
            ));
            return;
        };
        let (k, m) = (b.shape()[0], b.shape()[1]);
        let bv = f32s(&b);
        let mut wt = vec![0f32; m * k];
        for i in 0..k {
            for o in 0..m {
                wt[o * k + i] = bv[i * m + o];
            }
        }
        let x = n.input(0).unwrap_or_default().to_string();
        let s = self.w.shape(&x).to_vec();
        let w = Tensor::from_f32(vec![m, k, 1, 1], wt).expect("sized");
        self.conv1x1(&n.name, &x, w, &n.outputs[0], &[s[0], m, s[2], s[3]]);
    }

    /// An element-wise node on token values: constants into the cube.
    fn elementwise(&mut self, n: &Node, tokens: &BTreeSet<String>) {
        let mut m = n.clone();
        let out = n.outputs[0].clone();
        let cube = self.w.shape(&out).to_vec();
        for (i, v) in n.inputs.iter().enumerate() {
            let Some(v) = v else { continue };
            let Some(t) = self.w.constant(v).cloned() else {
                let s = self.w.shape(v);
                if !tokens.contains(v) && s.len() != 4 {
                    self.problems.push(Problem::new(
                        &n.name,
                        &n.op_type,
                        format!("broadcasts the activation '{v}' of shape {s:?} over the tokens"),
                        "give both activations the token shape [N, T, K]",
                    ));
                }
                continue;
            };
            if t.numel() == 1 {
                continue;
            }
            let s = t.shape().to_vec();
            let k = cube[1];
            let vals = f32s(&t);
            let per_feature =
                s.last() == Some(&k) && s.iter().rev().skip(1).all(|&d| d == 1) && s.len() <= 3;
            let new = if per_feature {
                Tensor::from_f32(vec![k, 1, 1], vals)
            } else if t.numel() == k * cube[2] * cube[3]
                && (2..=3).contains(&s.len())
                && s[s.len() - 2..] == [cube[2] * cube[3], k]
            {
                let tt = cube[2] * cube[3];
                let mut v2 = vec![0f32; k * tt];
                for p in 0..tt {
                    for c in 0..k {
                        v2[c * tt + p] = vals[p * k + c];
                    }
                }
                Tensor::from_f32(vec![1, k, cube[2], cube[3]], v2)
            } else {
                self.problems.push(Problem::new(&n.name, &n.op_type, format!("combines the tokens {:?} with the constant '{v}' of shape {s:?}, which is neither one value per feature, one per element, nor a scalar", self.w.shape(&out)), "broadcast the constant over the last axis only"));
                continue;
            };
            let name = self.konst(&format!("{v}#cube"), new.expect("sized"));
            m.inputs[i] = Some(name);
        }
        self.nodes.push(m);
        self.sources.push(self.src.clone());
    }

    /// `(var + ε)^−½` on the SDP: the Y unit's 1/√ table, then two Newton
    /// steps (module doc); returns the value.
    fn lut_rsqrt(&mut self, nm: &str, var: &str, eps: f32, one: &[usize]) -> String {
        let vname = |what: &str| format!("{nm}#{what}");
        let e = self.scalar(&vname("eps"), eps);
        let ve = self.binary(&format!("{nm}_eps"), "Add", var, &e, &vname("var_eps"), one);
        let mut rho = self.push(
            Node::new(&format!("{nm}_rsqrt"), "Rsqrt", &[&ve], &[&vname("rsqrt0")]),
            one,
        );
        let (half, three_halves) = (
            self.scalar(&vname("m_half"), -0.5),
            self.scalar(&vname("three_halves"), 1.5),
        );
        // (v·ρ)·ρ, not v·(ρ·ρ): ρ² overflows FP16 when v < 1/65504.
        for step in 1..=2 {
            let vr = self.binary(
                &format!("{nm}_newton{step}_vr"),
                "Mul",
                &ve,
                &rho,
                &vname(&format!("n{step}_vr")),
                one,
            );
            let p = self.binary(
                &format!("{nm}_newton{step}_v"),
                "Mul",
                &vr,
                &rho,
                &vname(&format!("n{step}_v")),
                one,
            );
            let h = self.binary(
                &format!("{nm}_newton{step}_half"),
                "Mul",
                &p,
                &half,
                &vname(&format!("n{step}_h")),
                one,
            );
            let g = self.binary(
                &format!("{nm}_newton{step}_add"),
                "Add",
                &h,
                &three_halves,
                &vname(&format!("n{step}_g")),
                one,
            );
            rho = self.binary(
                &format!("{nm}_newton{step}"),
                "Mul",
                &g,
                &rho,
                &vname(&format!("rsqrt{step}")),
                one,
            );
        }
        rho
    }

    /// `LayerNormalization` over the features (module doc).
    fn layer_norm(&mut self, n: &Node) {
        let x = n.input(0).unwrap_or_default().to_string();
        let s = self.w.shape(&x).to_vec(); // [N, K, T, 1] already
        let (k, one) = (s[1], [s[0], 1, s[2], s[3]]);
        let eps = n
            .attrs
            .get("epsilon")
            .and_then(Attr::as_float)
            .unwrap_or(1e-5);
        let r = 1.0 / k as f32;
        let nm = &n.name;
        let vname = |what: &str| format!("{nm}#{what}");
        let avg = || Tensor::from_f32(vec![1, k, 1, 1], vec![r; k]).expect("sized");
        let ones = || Tensor::from_f32(vec![k, 1, 1, 1], vec![1.0; k]).expect("sized");
        let mu = self.conv1x1(&format!("{nm}_mean"), &x, avg(), &vname("mean"), &one);
        let mub = self.conv1x1(
            &format!("{nm}_bcast_mean"),
            &mu,
            ones(),
            &vname("mean_b"),
            &s,
        );
        let c = self.binary(
            &format!("{nm}_centre"),
            "Sub",
            &x,
            &mub,
            &vname("centred"),
            &s,
        );
        let sq = self.binary(&format!("{nm}_square"), "Mul", &c, &c, &vname("square"), &s);
        let var = self.conv1x1(&format!("{nm}_var"), &sq, avg(), &vname("var"), &one);
        let rho = if self.lut_rsqrt {
            self.lut_rsqrt(nm, &var, eps, &one)
        } else {
            // (var + ε)^−½ in one EMU power op (shift ε): INT8 has 1/√ on
            // no unit of the DLA, and the variance map is 1/K of the data.
            let p = self.scalar(&vname("m_half_power"), -0.5);
            let mut pow = Node::new(
                &format!("{nm}_rsqrt"),
                "Pow",
                &[&var, &p],
                &[&vname("rsqrt")],
            );
            pow.attrs.insert(EMU_SHIFT.into(), Attr::Float(eps));
            self.push(pow, &one)
        };
        let rb = self.conv1x1(
            &format!("{nm}_bcast_rsqrt"),
            &rho,
            ones(),
            &vname("rsqrt_b"),
            &s,
        );
        let last = n.outputs[0].clone();
        let has_scale = n.input(1).is_some();
        let has_bias = n.input(2).is_some();
        let normed = if has_scale || has_bias {
            vname("normed")
        } else {
            last.clone()
        };
        let mut y = self.binary(&format!("{nm}_scale_rows"), "Mul", &rb, &c, &normed, &s);
        for (i, op, what) in [(1, "Mul", "gamma"), (2, "Add", "beta")] {
            let Some(t) = n.input(i).and_then(|v| self.w.constant(v)).cloned() else {
                if n.input(i).is_some() {
                    self.problems.push(Problem::new(
                        nm,
                        &n.op_type,
                        format!("has a non-constant {what}"),
                        "make the scale and bias initializers",
                    ));
                }
                continue;
            };
            let vals = f32s(&t);
            let vals = if vals.len() == 1 {
                vec![vals[0]; k]
            } else {
                vals
            };
            if vals.len() != k {
                self.problems.push(Problem::new(
                    nm,
                    &n.op_type,
                    format!("has a {what} of shape {:?} for {k} features", t.shape()),
                    "give it one value per feature",
                ));
                continue;
            }
            let cn = self.konst(
                &vname(what),
                Tensor::from_f32(vec![k, 1, 1], vals).expect("sized"),
            );
            let out = if i == 2 || !has_bias {
                last.clone()
            } else {
                vname("scaled")
            };
            y = self.binary(&format!("{nm}_{what}"), op, &y, &cn, &out, &s);
        }
        let _ = y;
    }
}

/// The position grid `(H, W)` of the values whose tokens come from a
/// feature map: a `Reshape`/`Flatten` of `[N, C, H, W]` into `[N, C, H·W]`
/// (ViT's patch embedding) keeps the cube when everything holding the same
/// data keeps H×W positions — token ops are position-wise, so any grid of
/// T positions serves. Out: the grid by value, and the names of the
/// reshapes that become views. A graph output on the grid, `[N, C, H·W]`,
/// has the same NCHW bytes as `[N, C, H, W]`; so does a `Reshape` of
/// `[N, C, H·W]` back into `[N, C, H, W]` on the same grid, which becomes a
/// view too (ConvNeXt's channel LayerNorm as legalization writes it). A
/// component whose channel readings meet any other op than those and a
/// `Transpose(0, 2, 1)`, or a graph input, keeps `[N, K, T, 1]` (and the
/// reshape is refused as a layout change, as before).
fn grids(
    w: &Work,
    tokens: &BTreeSet<String>,
    edges: &Edges,
) -> (BTreeMap<String, (usize, usize)>, BTreeSet<String>) {
    let (mut grid, mut merges) = (BTreeMap::new(), BTreeSet::new());
    // Same positions: the edges, and through the token ops (position-wise).
    let mut near = edges.clone();
    for n in w
        .nodes
        .iter()
        .filter(|n| is_token_matmul(w, n) || is_layer_norm(w, n))
    {
        let (a, b) = (
            n.input(0).unwrap_or_default().to_string(),
            n.outputs[0].clone(),
        );
        near.entry(a.clone()).or_default().push((b.clone(), false));
        near.entry(b).or_default().push((a, false));
    }
    for n in &w.nodes {
        let (x, y) = (n.input(0).unwrap_or_default(), &n.outputs[0]);
        let (xs, ys) = (w.shape(x), w.shape(y));
        let merge = matches!(n.op_type.as_str(), "Reshape" | "Flatten")
            && w.constant(x).is_none()
            && xs.len() == 4
            && ys.len() == 3
            && xs[..2] == ys[..2]
            && xs[2] * xs[3] == ys[2]
            && xs[3] > 1;
        if !merge || grid.contains_key(y) {
            continue;
        }
        let mut comp = BTreeSet::from([y.clone()]);
        let mut stack = vec![y.clone()];
        while let Some(v) = stack.pop() {
            for (u, _) in near.get(&v).into_iter().flatten() {
                if comp.insert(u.clone()) {
                    stack.push(u.clone());
                }
            }
        }
        let hw = (xs[2], xs[3]);
        let holds = comp.iter().any(|v| tokens.contains(v))
            && comp.iter().filter(|v| !tokens.contains(*v)).all(|v| {
                w.producer(v).is_some()
                    && w.nodes.iter().all(|m| {
                        !acts3(w, m).contains(v)
                            || is_transpose_021(w, m)
                            || std::ptr::eq(m, n)
                            || is_unmerge(w, m, hw)
                    })
            });
        if holds {
            for m in w.nodes.iter().filter(|m| is_unmerge(w, m, hw)) {
                if comp.contains(m.input(0).unwrap_or_default()) {
                    merges.insert(m.name.clone());
                }
            }
            for v in comp {
                grid.insert(v, hw);
            }
            merges.insert(n.name.clone());
        }
    }
    (grid, merges)
}

/// Whether `m` is a `Reshape` of `[N, C, H·W]` back into the feature map
/// `[N, C, H, W]` on the grid `hw`: the inverse of a merge, also a view
/// (a channel LayerNorm on a 4-D map, as legalization writes it, goes
/// `[N, C, H, W]` → `[N, C, H·W]` → tokens → back).
fn is_unmerge(w: &Work, m: &Node, hw: (usize, usize)) -> bool {
    let x = m.input(0).unwrap_or_default();
    let (xs, ys) = (w.shape(x), w.shape(&m.outputs[0]));
    m.op_type == "Reshape"
        && w.constant(x).is_none()
        && xs.len() == 3
        && ys.len() == 4
        && xs[..2] == ys[..2]
        && (ys[2], ys[3]) == hw
        && ys[2] * ys[3] == xs[2]
}

/// Rewrites the token part of `w` (module doc); the problems when some of it cannot be.
pub fn tokens(w: &mut Work, lut_rsqrt: bool) -> Vec<Problem> {
    let (tokens, edges) = match token_values(w) {
        Ok((t, _)) if t.is_empty() => return Vec::new(),
        Ok(t) => t,
        Err(p) => return p,
    };
    let (grid, merges) = grids(w, &tokens, &edges);
    for v in &tokens {
        let s = w.shape(v).to_vec();
        let (h, wd) = grid.get(v).copied().unwrap_or((s[1], 1));
        w.shapes.insert(v.clone(), vec![s[0], s[2], h, wd]);
    }
    for (v, &(h, wd)) in grid.iter().filter(|(v, _)| !tokens.contains(*v)) {
        let s = w.shape(v).to_vec();
        w.shapes.insert(v.clone(), vec![s[0], s[1], h, wd]);
    }
    let nodes = std::mem::take(&mut w.nodes);
    let sources = std::mem::take(&mut w.sources);
    let mut r = Rewriter {
        w,
        nodes: Vec::new(),
        sources: Vec::new(),
        problems: Vec::new(),
        src: Vec::new(),
        lut_rsqrt,
    };
    for (n, src) in nodes.into_iter().zip(sources) {
        let touches = acts3(r.w, &n).iter().any(|v| tokens.contains(v))
            || n.inputs
                .iter()
                .flatten()
                .chain(&n.outputs)
                .any(|v| tokens.contains(v));
        r.src = src;
        if merges.contains(&n.name) {
            // [N, C, H, W] → [N, C, H·W] on the grid: the same cube.
            let m = Node::new(
                &n.name,
                "Identity",
                &[n.input(0).unwrap_or_default()],
                &[&n.outputs[0]],
            );
            r.nodes.push(m);
            r.sources.push(r.src.clone());
        } else if !touches {
            r.nodes.push(n);
            r.sources.push(r.src.clone());
        } else if n.op_type == "MatMul" {
            r.matmul(&n);
        } else if n.op_type == "LayerNormalization" {
            r.layer_norm(&n);
        } else if n.op_type == "Transpose" {
            let mut m = Node::new(
                &n.name,
                "Identity",
                &[n.input(0).unwrap_or_default()],
                &[&n.outputs[0]],
            );
            m.domain = n.domain.clone();
            r.nodes.push(m);
            r.sources.push(r.src.clone());
        } else {
            r.elementwise(&n, &tokens);
        }
    }
    let Rewriter {
        nodes,
        sources,
        problems,
        ..
    } = r;
    w.nodes = nodes;
    w.sources = sources;
    w.reindex();
    problems
}
