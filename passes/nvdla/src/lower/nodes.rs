//! The walk: plan which nodes fuse (chains claimed from their head), then
//! emit ops in node order, each fused group at the position of its last node.
//!
//! In: the working graph and an empty [`Builder`]. Out: the program's ops
//! and the problems found. Emitting a group where its last node stands keeps
//! the program in execution order: every operand a fused SDP reads (a
//! residual branch) is produced before that node.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, DType};

use super::build::{cube, Builder};
use super::error::Problem;
use super::fuse::{extend, steps_of, Chain};
use super::graph::{Work, DEVICE_ATTR};
use super::sdp::{pack_on, unit_operand, Operand, Step, UnitOperand};
use super::select;
use super::LowerOptions;
use crate::program::{Engine, Precision, TensorId, TensorKind, Value, Weights};

mod interleave;
mod upsample;

/// The attribute of a lowering-made `Pow` node holding the EMU power op's
/// `shift` (`(shift + x)^p`); ONNX's Pow has none, so it is 0 otherwise.
pub const EMU_SHIFT: &str = "onnc.emu_shift";
/// How a fused group starts.
#[derive(Debug, Clone)]
enum Head {
    /// A convolution: input value, weight (name, shape, values), strides,
    /// pads [t,l,b,r], dilations, group count (the weight `[K, C/group, R, S]`).
    Conv {
        input: String,
        weight: (String, Vec<usize>, Weights),
        strides: [i64; 2],
        pads: [i64; 4],
        dilations: [i64; 2],
        group: i64,
    },
    /// A standalone SDP reading `input` from memory.
    Sdp { input: String },
}

/// The geometry of a selection conv ([`Lowering::move_conv`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Move {
    kernel: [usize; 2],
    tap: [usize; 2],
    strides: [i64; 2],
    pads: [i64; 4],
}

impl Move {
    /// A 1×1, stride-1, unpadded channel move.
    const CHANNELS: Move = Move {
        kernel: [1, 1],
        tap: [0, 0],
        strides: [1, 1],
        pads: [0; 4],
    };
}

#[derive(Debug, Clone)]
struct Group {
    head_node: usize,
    head: Head,
    chain: Chain,
    sources: Vec<String>,
}

/// The lowering state.
pub struct Lowering {
    w: Work,
    /// The program being built.
    pub b: Builder,
    /// Problems found so far.
    pub problems: Vec<Problem>,
    opts: LowerOptions,
    claimed: BTreeSet<usize>,
    groups: BTreeMap<usize, Group>,
    /// Each graph output's name and its first index among the outputs.
    outputs: HashMap<String, u16>,
    /// Nodes folded into a head besides its chain (a flatten before an FC), by head.
    folded: BTreeMap<usize, Vec<usize>>,
}

fn op_name(n: &Node) -> String {
    if n.domain.is_empty() {
        n.op_type.clone()
    } else {
        format!("{}.{}", n.domain, n.op_type)
    }
}

fn ints(n: &Node, k: &str) -> Option<Vec<i64>> {
    n.attrs.get(k).and_then(Attr::as_ints).map(<[i64]>::to_vec)
}

fn f32s(t: &onnc_tensor::Tensor) -> Vec<f32> {
    t.cast(DType::F32)
        .as_f32()
        .map(<[f32]>::to_vec)
        .unwrap_or_default()
}

impl Lowering {
    /// A lowering of `w` into `b`.
    pub fn new(w: Work, b: Builder, opts: LowerOptions) -> Lowering {
        Lowering {
            w,
            b,
            problems: Vec::new(),
            opts,
            claimed: BTreeSet::new(),
            groups: BTreeMap::new(),
            outputs: HashMap::new(),
            folded: BTreeMap::new(),
        }
    }

    fn problem(&mut self, n: &Node, what: impl Into<String>, fix: impl Into<String>) {
        self.problems
            .push(Problem::new(&n.name, &op_name(n), what, fix));
    }

    /// SDP sub-units a fused op may use: X1, X2 and, where the
    /// configuration has it, Y (not on nv_small).
    fn units(&self) -> usize {
        if self.b.cfg.has_sdp_eltwise {
            3
        } else {
            2
        }
    }

    fn out_index(&self, v: &str) -> Option<u16> {
        // A map: a linear search per node made 20k outputs cost 4 G
        // instructions of string compares.
        self.outputs.get(v).copied()
    }

    /// The graph inputs as `Input` tensors.
    pub fn inputs(&mut self, g: &Graph) {
        self.outputs = HashMap::with_capacity(g.outputs.len());
        for (i, o) in g.outputs.iter().enumerate() {
            self.outputs.entry(o.name.clone()).or_insert(i as u16);
        }
        for (i, vi) in g.inputs.iter().enumerate() {
            let shape = self.w.shape(&vi.name).to_vec();
            let shape = if shape.is_empty() {
                vi.type_info().static_shape().unwrap_or_default()
            } else {
                shape
            };
            let Some(c) = cube(&shape) else {
                self.problems.push(Problem::new(
                    &vi.name,
                    "input",
                    format!("has {} dimensions", shape.len()),
                    "NVDLA feature cubes have at most 4 dimensions",
                ));
                continue;
            };
            if c[0] > self.b.cfg.max_batch {
                self.problems.push(Problem::new(
                    &vi.name,
                    "input",
                    format!(
                        "batch {} exceeds {}'s largest batch {}",
                        c[0], self.b.cfg.name, self.b.cfg.max_batch
                    ),
                    "compile with a smaller batch (--input-shape)",
                ));
            }
            let t = self
                .b
                .add(&vi.name, c, self.b.prec, TensorKind::Input(i as u16));
            self.b.bind(&vi.name, t);
            self.b.prog.inputs.push(t);
        }
    }

    /// The graph outputs, in order; a problem for any not produced.
    pub fn outputs(&mut self, g: &Graph) {
        for o in &g.outputs {
            match self.b.get(&o.name) {
                Some(t) if matches!(self.b.prog.tensors[t].kind, TensorKind::Output(_)) => {
                    self.b.prog.outputs.push(t)
                }
                _ => {
                    if !self.problems.is_empty() {
                        continue; // an earlier problem explains it
                    }
                    self.problems.push(Problem::new(
                        &o.name,
                        "output",
                        "is not produced by a hardware op (a graph input or a constant)",
                        "remove the output or compute it in the graph",
                    ));
                }
            }
        }
    }

    // ---------------------------------------------------------------- plan

    /// Chooses the fused groups.
    pub fn plan(&mut self) {
        for i in 0..self.w.nodes.len() {
            if self.claimed.contains(&i) {
                continue;
            }
            let n = self.w.nodes[i].clone();
            let reported = self.problems.len();
            let head = match (n.domain.as_str(), n.op_type.as_str()) {
                ("", "Conv") => self.conv_head(i, &n),
                ("onnc", "ChannelShuffle") => self.shuffle_head(&n),
                _ => self.sdp_head(&n),
            };
            if self.problems.len() > reported {
                self.claimed.insert(i); // reported once, not again as an unmapped node
            }
            let Some((head, steps)) = head else { continue };
            self.claimed.insert(i);
            let chain = Chain {
                members: vec![],
                steps,
                out: n.outputs[0].clone(),
            };
            let chain = extend(
                &self.w,
                chain,
                self.units(),
                self.opts.fuse,
                &mut self.claimed,
            );
            let tail = chain.members.last().copied().unwrap_or(i);
            let folded = self.folded.get(&i).cloned().unwrap_or_default();
            let mut sources: Vec<String> = std::iter::once(i)
                .chain(chain.members.iter().copied())
                .chain(folded)
                .flat_map(|k| self.w.sources[k].clone())
                .collect();
            sources[1..].sort();
            self.groups.insert(
                tail,
                Group {
                    head_node: i,
                    head,
                    chain,
                    sources,
                },
            );
        }
    }

    fn conv_head(&mut self, i: usize, n: &Node) -> Option<(Head, Vec<Step>)> {
        let Some(wt) = n.input(1).and_then(|x| self.w.constant(x)).cloned() else {
            self.problem(
                n,
                "has non-constant weights",
                "make the weights initializers",
            );
            return None;
        };
        let group = n.attrs.get("group").and_then(Attr::as_int).unwrap_or(1);
        if group != 1 {
            let channels = n.input(0).and_then(|x| cube(self.w.shape(x))).map(|s| s[1]);
            if let Err((what, fix)) = super::grouped::check(wt.shape(), channels, group) {
                self.problem(n, what, fix);
                return None;
            }
        }
        if n.attrs
            .get("auto_pad")
            .and_then(Attr::as_str)
            .is_some_and(|a| a != "NOTSET")
        {
            self.problem(
                n,
                "uses auto_pad",
                "run onnx-simplify/onnc-legalize, which make the pads explicit",
            );
            return None;
        }
        let k = wt.shape()[0];
        let mut input = n.input(0).unwrap_or_default().to_string();
        let mut wshape = wt.shape().to_vec();
        let strides = ints(n, "strides").unwrap_or(vec![1, 1]);
        let pads = ints(n, "pads").unwrap_or(vec![0; 4]);
        let dil = ints(n, "dilations").unwrap_or(vec![1, 1]);
        if wshape.len() != 4 || strides.len() != 2 || pads.len() != 4 || dil.len() != 2 {
            self.problem(
                n,
                format!("is not a 2-D convolution (weight shape {wshape:?})"),
                "NVDLA runs 2-D convolutions on NCHW cubes",
            );
            return None;
        }
        // Flatten/Reshape [N,C,H,W] → [N,CHW] feeding a 1×1 conv: one conv with an H×W kernel.
        if group == 1 && wshape[2..] == [1, 1] && strides == [1, 1] && pads.iter().all(|&p| p == 0)
        {
            if let Some((src, claimed)) = self.unflatten(&input, wshape[1]) {
                let s = cube(self.w.shape(&src)).unwrap_or_default();
                wshape = vec![k, s[1], s[2], s[3]];
                input = src;
                self.claimed.extend(claimed.iter().copied());
                self.folded.insert(i, claimed);
            }
        }
        let mut steps = Vec::new();
        if let Some(bias) = n.input(2).and_then(|x| self.w.constant(x)) {
            steps.push(Step::alu("sum", Operand::Kernel(f32s(bias))));
        }
        let head = Head::Conv {
            input,
            weight: (
                n.input(1).unwrap_or_default().to_string(),
                wshape,
                Weights::of_tensor(&wt),
            ),
            strides: [strides[0], strides[1]],
            pads: [pads[0], pads[1], pads[2], pads[3]],
            dilations: [dil[0], dil[1]],
            group,
        };
        Some((head, steps))
    }

    /// Walks back from `v` through single-consumer reshape-like nodes to a
    /// cube `[N, C, H, W]` with `C·H·W == channels` and `H·W > 1`.
    fn unflatten(&self, v: &str, channels: usize) -> Option<(String, Vec<usize>)> {
        let mut cur = v.to_string();
        let mut nodes = Vec::new();
        for _ in 0..3 {
            let p = self.w.producer(&cur)?;
            let n = &self.w.nodes[p];
            if !["Reshape", "Flatten", "Squeeze", "Unsqueeze"].contains(&n.op_type.as_str())
                || !self.w.single_use(&cur)
            {
                return None;
            }
            nodes.push(p);
            cur = n.input(0)?.to_string();
            let s = cube(self.w.shape(&cur))?;
            if s[2] * s[3] > 1 && s[1] * s[2] * s[3] == channels && self.w.shape(&cur).len() == 4 {
                return Some((cur, nodes));
            }
        }
        None
    }

    fn shuffle_head(&mut self, n: &Node) -> Option<(Head, Vec<Step>)> {
        let x = n.input(0)?.to_string();
        let c = cube(self.w.shape(&x))?[1];
        let g = n
            .attrs
            .get("group")
            .and_then(Attr::as_int)
            .unwrap_or(1)
            .max(1) as usize;
        if c % g != 0 {
            self.problem(
                n,
                format!("shuffles {c} channels in {g} groups"),
                "the channel count must be a multiple of the group",
            );
            return None;
        }
        let rows = select::shuffle_rows(c, g);
        let head = Head::Conv {
            input: x,
            weight: (
                format!("{}.shuffle_w", n.name),
                vec![c, c, 1, 1],
                Weights::new(select::weights(&rows, c)),
            ),
            strides: [1, 1],
            pads: [0; 4],
            dilations: [1, 1],
            group: 1,
        };
        Some((head, vec![]))
    }

    fn sdp_head(&mut self, n: &Node) -> Option<(Head, Vec<Step>)> {
        if !n.domain.is_empty() || n.attrs.contains_key(DEVICE_ATTR) {
            return None;
        }
        let via = self.sdp_input(n)?;
        let steps = match steps_of(&self.w, n, &via) {
            Ok(s) => s,
            Err(e) if e == "not an element-wise op" => return None,
            Err(e) => {
                self.problem(n, e, "make the operand a per-channel constant or an activation of the result's shape");
                return None;
            }
        };
        if pack_on(&steps, self.units()).is_none() {
            let units = if self.units() == 3 {
                "X1, X2 and Y"
            } else {
                "X1 and X2 (no Y unit)"
            };
            let fix = if n.op_type == "Sub" {
                "subtract the other way round (b − a then a negation), or compile for nv_full or nv_large, whose Y unit negates the result"
            } else {
                "split the op in the model"
            };
            self.problem(
                n,
                format!(
                    "needs more SDP sub-units than {} has: {units}",
                    self.b.cfg.name
                ),
                fix,
            );
            return None;
        }
        Some((Head::Sdp { input: via }, steps))
    }

    /// The value a standalone SDP reads as its input: an activation of the
    /// result's shape (the other one may be a per-channel `[N, C, 1, 1]`
    /// operand), for `Sub` of two such the subtrahend (`a − b = −b + a`
    /// takes two sub-units, `−(−a + b)` three).
    fn sdp_input(&self, n: &Node) -> Option<String> {
        let out = self.w.shape(n.outputs.first()?);
        let acts: Vec<(usize, &String)> = n
            .inputs
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.as_ref().map(|v| (i, v)))
            .filter(|(_, v)| self.w.constant(v).is_none())
            .collect();
        let full: Vec<(usize, &String)> = acts
            .iter()
            .copied()
            .filter(|(_, v)| self.w.shape(v) == out)
            .collect();
        let pick = match (n.op_type.as_str(), full.as_slice()) {
            ("Sub", [_, b]) if b.0 == 1 => Some(*b),
            (_, [a, ..]) => Some(*a),
            _ => acts.first().copied(),
        };
        pick.map(|(_, v)| v.clone())
    }

    // ---------------------------------------------------------------- emit

    /// Emits every op in node order.
    pub fn emit(&mut self) {
        for i in 0..self.w.nodes.len() {
            if let Some(g) = self.groups.remove(&i) {
                self.emit_group(g);
            } else if !self.claimed.contains(&i) {
                let n = self.w.nodes[i].clone();
                let sources = self.w.sources[i].clone();
                self.single(&n, sources);
            }
        }
    }

    /// The tensor of feature value `v` (a problem when it was never produced).
    fn tensor(&mut self, n: &Node, v: &str) -> Option<TensorId> {
        let t = self.b.get(v);
        if t.is_none() && self.problems.is_empty() {
            let what = if self.w.constant(v).is_some() {
                format!("reads constant '{v}' where NVDLA needs an activation")
            } else {
                format!("reads '{v}', which no hardware op produces")
            };
            self.problem(
                n,
                what,
                "fold the constant computation in the model (onnx-simplify)",
            );
        }
        t
    }

    fn feature_out(&mut self, v: &str) -> TensorId {
        let c = cube(self.w.shape(v)).unwrap_or_default();
        let out = self.out_index(v);
        self.b.feature(v, c, out)
    }

    fn emit_group(&mut self, g: Group) {
        let n = self.w.nodes[g.head_node].clone();
        let layer = self.b.layer(&n.name);
        match g.head {
            Head::Conv {
                input,
                weight,
                strides,
                pads,
                dilations,
                group,
            } => {
                let Some(x) = self.tensor(&n, &input) else {
                    return;
                };
                let prec = self.b.prec;
                let wt = self.b.weight(&weight.0, weight.1.clone(), weight.2, prec);
                let out = cube(self.w.shape(&n.outputs[0])).unwrap_or_default();
                let acc = self.b.add(
                    &format!("{}.acc", n.outputs[0]),
                    out,
                    prec,
                    TensorKind::Fused,
                );
                let pv = self.b.prec_value();
                let mut set = vec![
                    ("conv_mode", Value::Str("direct".into())),
                    ("data_format", Value::Str("feature".into())),
                    ("in_precision", pv.clone()),
                    ("out_precision", pv),
                    ("conv_stride_y", Value::Int(strides[0])),
                    ("conv_stride_x", Value::Int(strides[1])),
                    ("pad_y_top", Value::Int(pads[0])),
                    ("pad_x_left", Value::Int(pads[1])),
                    ("pad_y_bottom", Value::Int(pads[2])),
                    ("pad_x_right", Value::Int(pads[3])),
                    ("dilation_y", Value::Int(dilations[0])),
                    ("dilation_x", Value::Int(dilations[1])),
                ];
                // Dense convs carry no `group` (its default is 1).
                if group > 1 {
                    set.push((crate::grouped_kernel::GROUP, Value::Int(group)));
                }
                self.b.push(
                    Engine::Conv,
                    &layer,
                    set,
                    vec![Some(x), Some(wt)],
                    acc,
                    g.sources.clone(),
                );
                self.sdp(&n, &layer, acc, &g.chain.steps, &g.chain.out, g.sources);
            }
            Head::Sdp { input } => {
                let Some(x) = self.tensor(&n, &input) else {
                    return;
                };
                self.sdp(&n, &layer, x, &g.chain.steps, &g.chain.out, g.sources);
            }
        }
    }

    /// One SDP op running `steps` on `src`, producing value `out`.
    fn sdp(
        &mut self,
        n: &Node,
        layer: &str,
        src: TensorId,
        steps: &[Step],
        out: &str,
        sources: Vec<String>,
    ) -> Option<TensorId> {
        let units = pack_on(steps, self.units()).expect("planned steps pack");
        let k = self.b.prog.tensors[src].shape[1];
        let mut inputs = vec![Some(src), None, None, None];
        let mut precs = [self.b.prec; 3];
        for (i, u) in units.iter().enumerate() {
            match unit_operand(u, k) {
                None => {}
                Some(UnitOperand::Weight(shape, vals)) => {
                    let p = self.b.operand_precision();
                    precs[i] = p;
                    let name = format!("{layer}.{}", ["x1", "x2", "y"][i]);
                    inputs[i + 1] = Some(self.b.weight(&name, shape, vals, p));
                }
                Some(UnitOperand::Feature(f)) => inputs[i + 1] = Some(self.tensor(n, &f)?),
            }
        }
        let y = self.feature_out(out);
        let attrs = self.b.sdp_attrs(&units, &precs);
        let mut set: Vec<(&str, Value)> =
            attrs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        set.extend(super::activation::lut_attrs(steps, &mut self.b.next_lut));
        self.b.push(Engine::Sdp, layer, set, inputs, y, sources);
        Some(y)
    }

    /// A 1×1 selection conv + SDP moving channels of `src` per `rows`, plus `steps`.
    #[allow(clippy::too_many_arguments)]
    fn select_conv(
        &mut self,
        n: &Node,
        layer_base: &str,
        src: TensorId,
        rows: &[Option<usize>],
        steps: &[Step],
        out: &str,
        sources: Vec<String>,
    ) -> Option<TensorId> {
        self.move_conv(
            n,
            layer_base,
            src,
            rows,
            Move::CHANNELS,
            steps,
            out,
            sources,
        )
    }

    /// A selection conv + SDP: output channel `k` is input channel
    /// `rows[k]` (zero for `None`) read at kernel tap `m.tap`, with the
    /// stride and zero padding of `m`; then `steps`.
    #[allow(clippy::too_many_arguments)]
    fn move_conv(
        &mut self,
        n: &Node,
        layer_base: &str,
        src: TensorId,
        rows: &[Option<usize>],
        m: Move,
        steps: &[Step],
        out: &str,
        sources: Vec<String>,
    ) -> Option<TensorId> {
        let layer = self.b.layer(layer_base);
        let s = self.b.prog.tensors[src].shape.clone();
        let prec = self.b.prec;
        let wt = self.b.weight(
            &format!("{layer}.select_w"),
            vec![rows.len(), s[1], m.kernel[0], m.kernel[1]],
            select::window_weights(rows, s[1], m.kernel, m.tap),
            prec,
        );
        let size = |i: usize| {
            (s[2 + i] as i64 + m.pads[i] + m.pads[i + 2] - m.kernel[i] as i64) / m.strides[i] + 1
        };
        let shape = vec![
            s[0],
            rows.len(),
            size(0).max(1) as usize,
            size(1).max(1) as usize,
        ];
        let acc = self.b.add(
            &format!("{out}.acc"),
            shape.clone(),
            prec,
            TensorKind::Fused,
        );
        let pv = self.b.prec_value();
        let mut set = vec![
            ("conv_mode", Value::Str("direct".into())),
            ("data_format", Value::Str("feature".into())),
            ("in_precision", pv.clone()),
            ("out_precision", pv),
        ];
        if m != Move::CHANNELS {
            let (st, p) = (m.strides, m.pads);
            set.extend([
                ("conv_stride_y", Value::Int(st[0])),
                ("conv_stride_x", Value::Int(st[1])),
                ("pad_y_top", Value::Int(p[0])),
                ("pad_x_left", Value::Int(p[1])),
                ("pad_y_bottom", Value::Int(p[2])),
                ("pad_x_right", Value::Int(p[3])),
                ("dilation_y", Value::Int(1)),
                ("dilation_x", Value::Int(1)),
            ]);
        }
        self.b.push(
            Engine::Conv,
            &layer,
            set,
            vec![Some(src), Some(wt)],
            acc,
            sources.clone(),
        );
        if !self.w.shapes.contains_key(out) {
            self.w.shapes.insert(out.to_string(), shape);
        }
        self.sdp(n, &layer, acc, steps, out, sources)
    }

    /// A Slice that moves a spatial axis (`x[:, :, ::2, ::2]`, ResNet
    /// option-A shortcuts; `x[..., 1:]`): one selection conv whose kernel
    /// ends at the start tap, with the step as stride.
    fn strided_slice(&mut self, n: &Node, sources: Vec<String>) {
        let x = n.input(0).unwrap_or_default();
        let get = |i: usize| {
            n.input(i).and_then(|v| self.w.constant(v)).map(|t| {
                t.cast(DType::I64)
                    .as_i64()
                    .map(<[i64]>::to_vec)
                    .unwrap_or_default()
            })
        };
        let (in_s, out_s) = (
            self.w.shape(x).to_vec(),
            self.w.shape(&n.outputs[0]).to_vec(),
        );
        let Some(starts) = get(1) else {
            return self.problem(
                n,
                "has non-constant bounds",
                "fold the slice bounds (onnx-simplify)",
            );
        };
        if in_s.len() != 4 || out_s.len() != 4 || in_s[0] != out_s[0] {
            return self.problem(
                n,
                format!("slices {in_s:?} to {out_s:?}"),
                "NVDLA slices the channels and spatial axes of [N, C, H, W] cubes; keep the batch",
            );
        }
        let axes = get(3).unwrap_or_else(|| (0..starts.len() as i64).collect());
        let steps = get(4).unwrap_or(vec![1; starts.len()]);
        let at = |a: i64| {
            axes.iter()
                .position(|&v| v == a || v + 4 == a)
                .map_or((0, 1), |k| {
                    (
                        starts.get(k).copied().unwrap_or(0),
                        steps.get(k).copied().unwrap_or(1),
                    )
                })
        };
        let (c_start, c_step) = at(1);
        if c_step != 1 {
            return self.problem(
                n,
                format!("steps the channels by {c_step}"),
                "NVDLA slices contiguous channel windows; use a channel step of 1",
            );
        }
        let c0 = if c_start < 0 {
            c_start + in_s[1] as i64
        } else {
            c_start
        }
        .clamp(0, in_s[1] as i64) as usize;
        let mut m = Move {
            kernel: [1, 1],
            tap: [0, 0],
            strides: [1, 1],
            pads: [0; 4],
        };
        for i in 0..2 {
            let (start, step) = at(2 + i as i64);
            match select::spatial_start(start, step, in_s[2 + i], out_s[2 + i]) {
                Ok(a) => (m.kernel[i], m.tap[i], m.strides[i]) = (a + 1, a, step),
                Err(e) => return self.problem(n, format!("{e} on axis {}", 2 + i), "NVDLA runs a spatial slice as a strided selection conv, which keeps every step up to the end of the axis; slice to the end, or crop with a convolution in the model"),
            }
        }
        let Some(xt) = self.tensor(n, x) else { return };
        let rows: Vec<Option<usize>> = (c0..c0 + out_s[1]).map(Some).collect();
        let name = n.name.clone();
        self.move_conv(n, &name, xt, &rows, m, &[], &n.outputs[0], sources);
    }

    /// A constant zero `Pad` of channels and borders: a 1×1 selection conv
    /// with zero rows for the new channels and the border as conv padding.
    fn zero_pad(&mut self, n: &Node, sources: Vec<String>) {
        let x = n.input(0).unwrap_or_default();
        let constant = |i: usize| n.input(i).map(|v| self.w.constant(v));
        let zero = match constant(2) {
            None => true,
            Some(v) => v.is_some_and(|t| f32s(t).iter().all(|&f| f == 0.0)),
        };
        let mode = n
            .attrs
            .get("mode")
            .and_then(Attr::as_str)
            .unwrap_or("constant");
        let pads = constant(1)
            .flatten()
            .map(|t| {
                t.cast(DType::I64)
                    .as_i64()
                    .map(<[i64]>::to_vec)
                    .unwrap_or_default()
            })
            .unwrap_or_default();
        let c = self.w.shape(x).get(1).copied().unwrap_or(0);
        let ok = mode == "constant"
            && zero
            && n.input(3).is_none()
            && pads.len() == 8
            && pads.iter().all(|&p| p >= 0)
            && pads[0] == 0
            && pads[4] == 0;
        if !ok {
            return self.problem(n, format!("is a {mode} pad by {pads:?}"), "NVDLA pads with zeros only, along channels, height and width of [N, C, H, W] cubes (8 non-negative constant pads, batch pads 0, no axes input)");
        }
        let Some(xt) = self.tensor(n, x) else { return };
        let (before, after) = (pads[1] as usize, pads[5] as usize);
        let rows: Vec<Option<usize>> = (0..before)
            .map(|_| None)
            .chain((0..c).map(Some))
            .chain((0..after).map(|_| None))
            .collect();
        let m = Move {
            kernel: [1, 1],
            tap: [0, 0],
            strides: [1, 1],
            pads: [pads[2], pads[3], pads[6], pads[7]],
        };
        let name = n.name.clone();
        self.move_conv(n, &name, xt, &rows, m, &[], &n.outputs[0], sources);
    }

    // ------------------------------------------------------- single nodes

    fn single(&mut self, n: &Node, sources: Vec<String>) {
        if n.attrs.contains_key(DEVICE_ATTR) && !matches!(n.op_type.as_str(), "Softmax" | "Pow") {
            let cfg = self.b.cfg.name;
            self.problem(
                n,
                format!(
                    "NVDLA {cfg} cannot run {} and the EMU runs only softmax and power",
                    op_name(n)
                ),
                "replace the op in the model, or run this part of the model on the host",
            );
            return;
        }
        if !n.domain.is_empty() {
            self.problem(
                n,
                format!(
                    "NVDLA {} has no mapping for {}",
                    self.b.cfg.name,
                    op_name(n)
                ),
                "legalize for NVDLA (onnc-legalize) or replace the op",
            );
            return;
        }
        match n.op_type.as_str() {
            "MaxPool" | "AveragePool" | "GlobalAveragePool" => self.pool(n, sources),
            "LRN" => self.lrn(n, sources),
            "Softmax" | "Pow" => self.emu(n, sources),
            "Concat" => self.concat(n, sources),
            "Slice" if self.moves_spatial(n) => self.strided_slice(n, sources),
            "Split" | "Slice" => self.split(n, sources),
            "Pad" => self.zero_pad(n, sources),
            "Resize" | "ConvTranspose" => self.upsample(n, sources),
            "Reshape" | "Flatten" | "Squeeze" | "Unsqueeze" | "Identity" | "Dropout"
            | "Transpose" => self.view(n, sources),
            _ => self.problem(
                n,
                format!("NVDLA {} cannot run {}", self.b.cfg.name, op_name(n)),
                "legalize for NVDLA (onnc-legalize), which rewrites or reports it",
            ),
        }
    }

    fn pool(&mut self, n: &Node, sources: Vec<String>) {
        let x = n.input(0).unwrap_or_default();
        let Some(s) = cube(self.w.shape(x)) else {
            return;
        };
        let global = n.op_type == "GlobalAveragePool";
        let k = if global {
            vec![s[2] as i64, s[3] as i64]
        } else {
            ints(n, "kernel_shape").unwrap_or_default()
        };
        let st = if global {
            vec![1, 1]
        } else {
            ints(n, "strides").unwrap_or(vec![1, 1])
        };
        let mut p = if global {
            vec![0; 4]
        } else {
            ints(n, "pads").unwrap_or(vec![0; 4])
        };
        if k.len() != 2 || st.len() != 2 || p.len() != 4 {
            return self.problem(n, "is not a 2-D pooling", "NVDLA PDP pools NCHW cubes");
        }
        let mut bad = Vec::new();
        let out = cube(self.w.shape(&n.outputs[0])).unwrap_or_default();
        if !global && out.len() == 4 {
            // ceil_mode: the last window overhangs the end padding. Max
            // ignores padding, so extra end padding is exact; an average
            // would divide the overhanging windows by the whole kernel.
            for (axis, i, j) in [(0, 0, 2), (1, 1, 3)] {
                // In i128: pads and strides are whatever the IR says (up to
                // i64::MAX), and the sums must not wrap.
                let (len, o) = (s[axis + 2] as i128, out[axis + 2] as i128);
                let (stride, kernel) = (st[axis] as i128, k[axis] as i128);
                let (begin, end) = (p[i] as i128, p[j] as i128);
                let extra = (o - 1) * stride + kernel - (len + begin + end);
                if extra <= 0 {
                    continue;
                }
                if (o - 1) * stride >= len + begin {
                    bad.push(format!(
                        "a last window on axis {} that holds only padding",
                        axis + 2
                    ));
                    break;
                }
                if n.op_type != "MaxPool" {
                    bad.push("ceil_mode output size (the PDP would divide the overhanging windows by the whole kernel)".into());
                    break;
                }
                match i64::try_from(end + extra) {
                    Ok(v) => p[j] = v,
                    Err(_) => {
                        bad.push(format!(
                            "end padding beyond {} on axis {}",
                            i64::MAX,
                            axis + 2
                        ));
                        break;
                    }
                }
            }
        }
        if k.iter().any(|&v| !(1..=8).contains(&v)) {
            bad.push(format!("kernel {k:?} (PDP: 1..8)"));
        }
        if st.iter().any(|&v| !(1..=8).contains(&v)) {
            bad.push(format!("stride {st:?} (PDP: 1..8)"));
        }
        if p.iter().any(|&v| !(0..=7).contains(&v)) {
            bad.push(format!(
                "pads {p:?} (PDP: 0..7, including the end padding that ceil_mode adds)"
            ));
        }
        if ints(n, "dilations").is_some_and(|d| d.iter().any(|&v| v != 1)) {
            bad.push("dilation (PDP has none)".into());
        }
        if n.op_type == "AveragePool"
            && n.attrs.get("count_include_pad").and_then(Attr::as_int) == Some(0)
            && p.iter().any(|&v| v > 0)
        {
            bad.push(
                "count_include_pad=0 with padding (PDP divides every window by its full size)"
                    .into(),
            );
        }
        if !bad.is_empty() {
            return self.problem(n, format!("has {}", bad.join(", ")), "change the pooling in the model to what the PDP runs: kernel and stride 1..8, pads 0..7, no dilation, and for AveragePool ceil_mode=0 and count_include_pad=1 when padded");
        }
        let Some(xt) = self.tensor(n, x) else { return };
        let layer = self.b.layer(&n.name);
        let y = self.feature_out(&n.outputs[0]);
        let mode = if n.op_type == "MaxPool" { "max" } else { "avg" };
        let set = vec![
            ("precision", self.b.prec_value()),
            ("pool_mode", Value::Str(mode.into())),
            ("pool_height", Value::Int(k[0])),
            ("pool_width", Value::Int(k[1])),
            ("stride_y", Value::Int(st[0])),
            ("stride_x", Value::Int(st[1])),
            ("pad_top", Value::Int(p[0])),
            ("pad_left", Value::Int(p[1])),
            ("pad_bottom", Value::Int(p[2])),
            ("pad_right", Value::Int(p[3])),
        ];
        self.b
            .push(Engine::Pdp, &layer, set, vec![Some(xt)], y, sources);
    }

    fn lrn(&mut self, n: &Node, sources: Vec<String>) {
        let size = n.attrs.get("size").and_then(Attr::as_int).unwrap_or(0);
        if ![3, 5, 7, 9].contains(&size) {
            return self.problem(
                n,
                format!("has size {size}"),
                "CDP sums 3, 5, 7 or 9 channels; change the LRN size",
            );
        }
        let Some(x) = self.tensor(n, n.input(0).unwrap_or_default()) else {
            return;
        };
        let f = |k: &str, d: f32| {
            Value::Float(n.attrs.get(k).and_then(Attr::as_float).unwrap_or(d) as f64)
        };
        let layer = self.b.layer(&n.name);
        let y = self.feature_out(&n.outputs[0]);
        let lut = self.b.next_lut;
        self.b.next_lut += 1;
        let pv = self.b.prec_value();
        let set = vec![
            ("in_precision", pv.clone()),
            ("out_precision", pv),
            ("local_size", Value::Int(size)),
            ("alpha", f("alpha", 1e-4)),
            ("beta", f("beta", 0.75)),
            ("bias", f("bias", 1.0)),
            ("lut_index", Value::Int(lut)),
        ];
        self.b
            .push(Engine::Cdp, &layer, set, vec![Some(x)], y, sources);
    }

    fn emu(&mut self, n: &Node, sources: Vec<String>) {
        let x = n.input(0).unwrap_or_default();
        let Some(s) = cube(self.w.shape(x)) else {
            return;
        };
        let rank = self.w.shape(x).len() as i64;
        let mut set = vec![("precision", self.b.prec_value())];
        if self.b.prec == Precision::Int16 {
            return self.problem(
                n,
                "runs in int16, which the EMU does not support",
                "use fp16 or int8",
            );
        }
        if n.op_type == "Softmax" {
            let axis = n.attrs.get("axis").and_then(Attr::as_int).unwrap_or(-1);
            let axis = if axis < 0 { axis + rank } else { axis };
            if axis != 1 || s[2] * s[3] != 1 {
                return self.problem(n, format!("is a softmax over axis {axis} of shape {:?}", self.w.shape(x)), "the EMU softmax runs over the channels of an [N, C, 1, 1] cube; reshape before the softmax");
            }
            set.extend([
                ("op_type", Value::Str("softmax".into())),
                ("axis", Value::Int(1)),
            ]);
        } else {
            let Some(p) = n
                .input(1)
                .and_then(|e| self.w.constant(e))
                .filter(|t| t.numel() == 1)
            else {
                return self.problem(
                    n,
                    "has a non-constant or non-scalar exponent",
                    "the EMU power op takes one constant exponent",
                );
            };
            let p = f32s(p)[0] as f64;
            // A LayerNormalization's (var + ε)^−½ carries its ε (`tokens`).
            let shift = n
                .attrs
                .get(EMU_SHIFT)
                .and_then(Attr::as_float)
                .unwrap_or(0.0);
            set.extend([
                ("op_type", Value::Str("power".into())),
                ("power", Value::Float(p)),
                ("scale", Value::Float(1.0)),
                ("shift", Value::Float(f64::from(shift))),
            ]);
        }
        let Some(xt) = self.tensor(n, x) else { return };
        let layer = self.b.layer(&n.name);
        let y = self.feature_out(&n.outputs[0]);
        self.b
            .push(Engine::Emu, &layer, set, vec![Some(xt)], y, sources);
    }

    fn atom(&self) -> usize {
        self.b.cfg.channels_per_atom(self.b.prec)
    }

    /// Whether `t` already sits inside another cube: a member of a virtual
    /// concat, or the result of a slice or reshape view — except a reshape
    /// of a row or column concat (an upsampling interleaved without RUBIK),
    /// which the planner turns around: that concat becomes the window.
    fn is_placed(&self, t: TensorId) -> bool {
        let p = &self.b.prog;
        let spatial_concat = |x: Option<TensorId>| {
            x.and_then(|x| p.producer(x)).is_some_and(|i| {
                p.ops[i].engine == Engine::Concat && p.ops[i].int("axis") != Some(1)
            })
        };
        p.ops.iter().any(|op| match op.engine {
            Engine::Concat => op.inputs.iter().flatten().any(|&m| m == t),
            Engine::Slice => op.output == t,
            Engine::Reshape => op.output == t && !spatial_concat(op.inputs[0]),
            _ => false,
        })
    }

    fn channel_axis(n: &Node, rank: usize) -> bool {
        let a = n.attrs.get("axis").and_then(Attr::as_int).unwrap_or(0);
        a == 1 || (a < 0 && a + rank as i64 == 1)
    }

    fn concat(&mut self, n: &Node, sources: Vec<String>) {
        let out_shape = self.w.shape(&n.outputs[0]).to_vec();
        if !Self::channel_axis(n, out_shape.len()) || out_shape.len() < 2 {
            return self.problem(
                n,
                "concatenates along an axis other than channels",
                "NVDLA concatenates channels only; transpose the model so the axis is 1",
            );
        }
        let members: Vec<String> = n.inputs.iter().flatten().cloned().collect();
        let mut ids = Vec::new();
        for m in &members {
            let Some(t) = self.tensor(n, m) else { return };
            ids.push(t);
        }
        let atom = self.atom();
        let mut offsets = Vec::new();
        let mut off = 0;
        for &t in &ids {
            offsets.push(off);
            off += self.b.prog.tensors[t].shape[1];
        }
        // A member already placed inside another cube (a member of an
        // earlier concat, as DenseNet's every block input is, or a slice or
        // reshape view) cannot also be a window of this result: copy it
        // first, an SDP with every unit bypassed.
        let aligned = offsets.iter().all(|o| o % atom == 0);
        for (i, m) in members.iter().enumerate().filter(|_| aligned) {
            let t = ids[i];
            let twice = ids[..i].contains(&t);
            if !(twice || self.is_placed(t))
                || matches!(self.b.prog.tensors[t].kind, TensorKind::Input(_))
            {
                continue;
            }
            let copy = format!("{}#copy{i}", n.outputs[0]);
            let shape = self.w.shape(m).to_vec();
            self.w.shapes.insert(copy.clone(), shape);
            let layer = self.b.layer(&format!("{}_copy{i}", n.name));
            let Some(c) = self.sdp(n, &layer, t, &[], &copy, sources.clone()) else {
                return;
            };
            ids[i] = c;
        }
        let distinct = ids.iter().collect::<BTreeSet<_>>().len() == ids.len();
        let views_ok = distinct
            && ids
                .iter()
                .all(|&t| !matches!(self.b.prog.tensors[t].kind, TensorKind::Input(_)));
        let layer = self.b.layer(&n.name);
        if views_ok && offsets.iter().all(|o| o % atom == 0) {
            let y = self.feature_out(&n.outputs[0]);
            self.b.push(
                Engine::Concat,
                &layer,
                vec![("axis", Value::Int(1))],
                ids.into_iter().map(Some).collect(),
                y,
                sources,
            );
            return;
        }
        // A window off the atom grid: each member moved into place by a 0/1
        // conv, summed through the SDP (a per-point X2 add, on every configuration).
        let total = off;
        let mut prev: Option<String> = None;
        for (i, &t) in ids.iter().enumerate() {
            let c = self.b.prog.tensors[t].shape[1];
            let rows: Vec<Option<usize>> = (0..total)
                .map(|k| (k >= offsets[i] && k < offsets[i] + c).then(|| k - offsets[i]))
                .collect();
            let out = if i + 1 == ids.len() {
                n.outputs[0].clone()
            } else {
                format!("{}#part{i}", n.outputs[0])
            };
            let steps = prev
                .as_ref()
                .map(|p| vec![Step::alu("sum", Operand::Feature(p.clone()))])
                .unwrap_or_default();
            if self
                .select_conv(
                    n,
                    &format!("{layer}_m{i}"),
                    t,
                    &rows,
                    &steps,
                    &out,
                    sources.clone(),
                )
                .is_none()
            {
                return;
            }
            prev = Some(out);
        }
    }

    /// Whether a Slice changes a spatial axis or steps (a strided slice).
    fn moves_spatial(&self, n: &Node) -> bool {
        let (a, b) = (
            self.w.shape(n.input(0).unwrap_or_default()),
            self.w.shape(&n.outputs[0]),
        );
        let steps = n.input(4).and_then(|v| self.w.constant(v)).map(|t| {
            t.cast(DType::I64)
                .as_i64()
                .map(<[i64]>::to_vec)
                .unwrap_or_default()
        });
        a.len() == 4
            && b.len() == 4
            && (a[2..] != b[2..] || steps.is_some_and(|s| s.iter().any(|&k| k != 1)))
    }

    /// Channel windows `(output value, c_start, channels)` of a Split or Slice.
    fn windows(&mut self, n: &Node) -> Option<Vec<(String, usize, usize)>> {
        let x = n.input(0).unwrap_or_default();
        let rank = self.w.shape(x).len();
        if n.op_type == "Split" {
            if !Self::channel_axis(n, rank) {
                self.problem(
                    n,
                    "splits along an axis other than channels",
                    "NVDLA splits channels only",
                );
                return None;
            }
            let mut off = 0;
            return Some(
                n.outputs
                    .iter()
                    .map(|o| {
                        let c = self.w.shape(o).get(1).copied().unwrap_or(0);
                        off += c;
                        (o.clone(), off - c, c)
                    })
                    .collect(),
            );
        }
        let get = |i: usize| {
            n.input(i).and_then(|v| self.w.constant(v)).map(|t| {
                t.cast(DType::I64)
                    .as_i64()
                    .map(<[i64]>::to_vec)
                    .unwrap_or_default()
            })
        };
        let (Some(starts), Some(_)) = (get(1), get(2)) else {
            self.problem(
                n,
                "has non-constant bounds",
                "fold the slice bounds (onnx-simplify)",
            );
            return None;
        };
        let axes = get(3).unwrap_or_else(|| (0..starts.len() as i64).collect());
        let steps = get(4).unwrap_or(vec![1; starts.len()]);
        let in_s = self.w.shape(x).to_vec();
        let out_s = self.w.shape(&n.outputs[0]).to_vec();
        let moved: Vec<usize> = (0..rank).filter(|&a| in_s[a] != out_s[a]).collect();
        if moved.iter().any(|&a| a != 1) || steps.iter().any(|&s| s != 1) {
            self.problem(
                n,
                format!("slices {in_s:?} to {out_s:?}"),
                "NVDLA slices contiguous channel windows only",
            );
            return None;
        }
        let pos = axes.iter().position(|&a| a == 1 || a + rank as i64 == 1);
        let start = pos.map(|p| starts[p]).unwrap_or(0);
        let start = if start < 0 {
            start + in_s[1] as i64
        } else {
            start
        }
        .clamp(0, in_s[1] as i64) as usize;
        Some(vec![(n.outputs[0].clone(), start, out_s[1])])
    }

    fn split(&mut self, n: &Node, sources: Vec<String>) {
        let Some(wins) = self.windows(n) else { return };
        let Some(x) = self.tensor(n, n.input(0).unwrap_or_default()) else {
            return;
        };
        let atom = self.atom();
        let c_in = self.b.prog.tensors[x].shape[1];
        let is_input = matches!(self.b.prog.tensors[x].kind, TensorKind::Input(_));
        for (i, (out, start, c)) in wins.into_iter().enumerate() {
            let base = if i == 0 {
                n.name.clone()
            } else {
                format!("{}_{i}", n.name)
            };
            if start % atom == 0 && !is_input {
                let layer = self.b.layer(&base);
                let y = self.feature_out(&out);
                self.b.push(
                    Engine::Slice,
                    &layer,
                    vec![("c_start", Value::Int(start as i64))],
                    vec![Some(x)],
                    y,
                    sources.clone(),
                );
            } else {
                let rows: Vec<Option<usize>> = (start..start + c)
                    .map(|k| (k < c_in).then_some(k))
                    .collect();
                if self
                    .select_conv(n, &base, x, &rows, &[], &out, sources.clone())
                    .is_none()
                {
                    return;
                }
            }
        }
    }

    fn view(&mut self, n: &Node, sources: Vec<String>) {
        let x = n.input(0).unwrap_or_default();
        let (a, b) = (cube(self.w.shape(x)), cube(self.w.shape(&n.outputs[0])));
        if a.is_none() || a != b {
            return self.problem(
                n,
                format!("changes the feature layout ({:?} → {:?})", self.w.shape(x), self.w.shape(&n.outputs[0])),
                "NVDLA views keep the [N, C, H, W] cube; only unit dimensions may be added or removed (a flatten feeding a fully connected layer is folded into it)",
            );
        }
        let Some(xt) = self.tensor(n, x) else { return };
        let layer = self.b.layer(&n.name);
        if self.out_index(&n.outputs[0]).is_some() && self.is_bound_buffer(xt) {
            // A graph output that would be a view of a graph input (or of
            // another output): they cannot share one bindable buffer, so the
            // view becomes a copy — an SDP with every unit bypassed.
            self.sdp(n, &layer, xt, &[], &n.outputs[0], sources);
            return;
        }
        let y = self.feature_out(&n.outputs[0]);
        self.b
            .push(Engine::Reshape, &layer, vec![], vec![Some(xt)], y, sources);
    }

    /// Whether `t` is, or is a view of, a graph input or output: a buffer the
    /// runtime binds, which no other input or output may share.
    fn is_bound_buffer(&self, t: TensorId) -> bool {
        let p = &self.b.prog;
        let mut cur = t;
        for _ in 0..=p.ops.len() {
            if matches!(
                p.tensors[cur].kind,
                TensorKind::Input(_) | TensorKind::Output(_)
            ) {
                return true;
            }
            match p.producer(cur).map(|i| &p.ops[i]) {
                Some(op) if matches!(op.engine, Engine::Reshape) => {
                    match op.inputs.first().copied().flatten() {
                        Some(next) => cur = next,
                        None => return false,
                    }
                }
                _ => return false,
            }
        }
        false
    }
}
