//! `ConvTranspose` and integer-factor `Resize` (nearest, linear) →
//! `nvdla.conv` + `nvdla.sdp` computing every output phase, `nvdla.rubik`
//! contract interleaving them (nv_full) or SDP copies through strided views
//! without RUBIK ([`super::interleave`]; a nearest Resize whose every phase
//! is the input needs no convolution there), and, when the phases overrun
//! the output, a selection conv cutting the end ([`super::super::deconv`]).
//!
//! In: the node (static shapes; constant weights, bias, scales or sizes).
//! Out: the ops, or a problem at the node naming what does not map and
//! what would. A `Resize` is a depthwise transposed convolution whose
//! kernel and border factors come from [`onnc_onnx::upsample`]: nearest
//! has a kernel of ones (exact: the convolution multiplies by 1 and adds
//! zeros); linear multiplies the clamped border by its factor in the
//! convolution's SDP (one FP16 rounding more there).

use onnc_onnx::upsample::{spatial_deconv, ResizeAttrs, EXACT_MODES};
use onnc_onnx::Node;
use onnc_tensor::{Attr, Tensor};

use super::interleave::{Grid, Phases};
use super::{f32s, ints, Lowering, Move};
use crate::lower::build::cube;
use crate::lower::deconv::PhaseAxis;
use crate::lower::deconv::{factors, per_phase, phase_axis, weights};
use crate::lower::sdp::{Operand, Step};
use crate::program::{Engine, TensorKind, Value};
use crate::registers;

/// Largest RUBIK contract stride (`stride_x`/`stride_y` registers).
pub const MAX_CONTRACT_STRIDE: usize = 8;

/// A transposed convolution to lower.
struct Deconv {
    /// ConvTranspose weights `[C_in, C_out/group, k_y, k_x]`, row-major.
    w: Vec<f32>,
    shape: [usize; 4],
    group: usize,
    strides: [usize; 2],
    /// Begin padding per axis (negative: the output starts later).
    pads: [i64; 2],
    bias: Option<Vec<f32>>,
    /// Per-axis border factors (linear Resize).
    factor: Option<(Vec<f64>, Vec<f64>)>,
}

impl Lowering {
    /// Lowers a `ConvTranspose` or `Resize` node.
    pub(super) fn upsample(&mut self, n: &Node, sources: Vec<String>) {
        let x = n.input(0).unwrap_or_default().to_string();
        let (Some(xs), Some(ys)) = (cube(self.w.shape(&x)), cube(self.w.shape(&n.outputs[0])))
        else {
            return self.problem(
                n,
                "is not on a 4-D cube",
                "NVDLA upsamples [N, C, H, W] cubes",
            );
        };
        let d = if n.op_type == "Resize" {
            self.resize_deconv(n, &xs, &ys)
        } else {
            self.conv_transpose(n, &xs)
        };
        let Some(d) = d else { return };
        let what = if n.op_type == "Resize" {
            "upsampling"
        } else {
            "transposed convolution"
        };
        let rubik = self.b.cfg.has_rubik;
        let mover = if rubik {
            "RUBIK contract"
        } else {
            "the SDP copies interleaving the phases"
        };
        if xs[0] != 1 {
            return self.problem(
                n,
                format!("is a {what} with batch {}", xs[0]),
                format!("{mover} reorder one image: compile with batch 1 (--input-shape)"),
            );
        }
        if d.strides.iter().any(|&s| s > MAX_CONTRACT_STRIDE) {
            return self.problem(n, format!("has stride {:?}", d.strides), format!("NVDLA upsamples by factors 1..{MAX_CONTRACT_STRIDE} (RUBIK contract strides; the phase convolution's s·s·C channels without RUBIK); upsample in steps of at most {MAX_CONTRACT_STRIDE}"));
        }
        let ay = phase_axis(xs[2], d.strides[0], d.shape[2], d.pads[0], ys[2]);
        let ax = phase_axis(xs[3], d.strides[1], d.shape[3], d.pads[1], ys[3]);
        let pad_max = match registers::spec(Engine::Conv, "pad_x_left").map(|s| &s.kind) {
            Some(registers::Kind::Int { max, .. }) => *max as usize,
            _ => 31,
        };
        let pads = [ay.pad_before, ax.pad_before, ay.pad_after, ax.pad_after];
        if pads.iter().any(|&p| p > pad_max) || ay.taps > 32 || ax.taps > 32 {
            return self.problem(n, format!("needs a convolution of {}×{} taps padded by {pads:?} per phase", ay.taps, ax.taps), format!("NVDLA convolutions have at most 32 taps and pads of at most {pad_max}; use a smaller kernel or padding"));
        }
        let c_out = ys[1];
        if !rubik && n.op_type == "Resize" && copies_input(&d, &ay, &ax, &xs) {
            // Every phase is the input: no convolution, only the copies.
            let Some(xt) = self.tensor(n, &x) else { return };
            let up = self.feature_out(&n.outputs[0]);
            let phases = Phases::Same(xt);
            let grid = Grid {
                c: c_out,
                s: d.strides,
                q: [xs[2], xs[3]],
            };
            let _ = self.interleave(n, &phases, &grid, up, &sources);
            return;
        }
        let atom = self.atom();
        let c_pad = c_out.div_ceil(atom) * atom;
        let phases = ay.stride * ax.stride;
        let k = phases * c_pad;
        let Some(xt) = self.tensor(n, &x) else { return };
        let v = n.outputs[0].clone();
        let layer = self.b.layer(&n.name);
        let prec = self.b.prec;
        let cw = weights(&d.w, d.shape, d.group, &ay, &ax, c_pad);
        let wt = self.b.weight(
            &format!("{layer}.phase_w"),
            vec![k, xs[1], ay.taps, ax.taps],
            cw,
            prec,
        );
        let ph_shape = vec![1, k, ay.positions, ax.positions];
        let acc = self.b.add(
            &format!("{v}#phases.acc"),
            ph_shape.clone(),
            prec,
            TensorKind::Fused,
        );
        let pv = self.b.prec_value();
        let set = vec![
            ("conv_mode", Value::Str("direct".into())),
            ("data_format", Value::Str("feature".into())),
            ("in_precision", pv.clone()),
            ("out_precision", pv.clone()),
            ("pad_y_top", Value::Int(pads[0] as i64)),
            ("pad_x_left", Value::Int(pads[1] as i64)),
            ("pad_y_bottom", Value::Int(pads[2] as i64)),
            ("pad_x_right", Value::Int(pads[3] as i64)),
        ];
        self.b.push(
            Engine::Conv,
            &layer,
            set,
            vec![Some(xt), Some(wt)],
            acc,
            sources.clone(),
        );
        let mut steps = Vec::new();
        if let Some(b) = &d.bias {
            steps.push(Step::alu(
                "sum",
                Operand::Kernel(per_phase(b, phases, c_pad)),
            ));
        }
        if let Some((fy, fx)) = &d.factor {
            let f = factors(fy, fx, &ay, &ax, c_pad);
            match Tensor::from_f32(ph_shape.clone(), f) {
                Ok(t) => steps.push(Step::Mul(Operand::PointConst(t))),
                Err(e) => {
                    return self.problem(
                        n,
                        format!("border factors: {e}"),
                        "this is a lowering bug: please report it with the model",
                    )
                }
            }
        }
        let phased = format!("{v}#phases");
        self.w.shapes.insert(phased.clone(), ph_shape);
        let Some(pt) = self.sdp(n, &layer, acc, &steps, &phased, sources.clone()) else {
            return;
        };
        let full = [ay.positions * ay.stride, ax.positions * ax.stride];
        let cropped = ay.crop > 0 || ax.crop > 0;
        let up = if cropped {
            let name = format!("{v}#contract");
            self.b.add(
                &name,
                vec![1, c_out, full[0], full[1]],
                prec,
                TensorKind::Activation,
            )
        } else {
            self.feature_out(&v)
        };
        if rubik {
            let set = vec![
                ("precision", pv),
                ("mode", Value::Str("contract".into())),
                ("stride_x", Value::Int(ax.stride as i64)),
                ("stride_y", Value::Int(ay.stride as i64)),
            ];
            let layer = self.b.layer(&format!("{}_contract", n.name));
            self.b.push(
                Engine::Rubik,
                &layer,
                set,
                vec![Some(pt)],
                up,
                sources.clone(),
            );
        } else {
            let phases = Phases::Conv { tensor: pt, c_pad };
            let grid = Grid {
                c: c_out,
                s: [ay.stride, ax.stride],
                q: [ay.positions, ax.positions],
            };
            if self.interleave(n, &phases, &grid, up, &sources).is_none() {
                return;
            }
        }
        if cropped {
            // Keep the first positions: a kernel one tap longer per cut position, reading its first tap.
            let m = Move {
                kernel: [ay.crop + 1, ax.crop + 1],
                tap: [0, 0],
                strides: [1, 1],
                pads: [0; 4],
            };
            let rows: Vec<Option<usize>> = (0..c_out).map(Some).collect();
            let base = format!("{}_crop", n.name);
            self.move_conv(n, &base, up, &rows, m, &[], &v, sources);
        }
    }

    /// A `ConvTranspose` node's weights and geometry, or a problem.
    fn conv_transpose(&mut self, n: &Node, xs: &[usize]) -> Option<Deconv> {
        let Some(wt) = n.input(1).and_then(|v| self.w.constant(v)).cloned() else {
            self.problem(
                n,
                "has non-constant weights",
                "make the weights initializers",
            );
            return None;
        };
        let bias = match n.input(2) {
            None => None,
            Some(b) => match self.w.constant(b) {
                Some(t) => Some(f32s(t)),
                None => {
                    self.problem(n, "has a non-constant bias", "make the bias an initializer");
                    return None;
                }
            },
        };
        let ws = wt.shape().to_vec();
        let group = n
            .attrs
            .get("group")
            .and_then(Attr::as_int)
            .unwrap_or(1)
            .max(1) as usize;
        let strides = ints(n, "strides").unwrap_or(vec![1, 1]);
        let pads = ints(n, "pads").unwrap_or(vec![0; 4]);
        let dil = ints(n, "dilations").unwrap_or(vec![1, 1]);
        let auto = n
            .attrs
            .get("auto_pad")
            .and_then(Attr::as_str)
            .unwrap_or("NOTSET");
        if ws.len() != 4 || strides.len() != 2 || pads.len() != 4 {
            self.problem(
                n,
                format!("is not a 2-D transposed convolution (weight shape {ws:?})"),
                "NVDLA runs 2-D transposed convolutions on NCHW cubes",
            );
            return None;
        }
        if dil.iter().any(|&d| d != 1) {
            self.problem(n, format!("has dilations {dil:?}"), "NVDLA runs transposed convolutions without dilation; dilate the kernel with zeros in the model");
            return None;
        }
        if auto != "NOTSET" || n.attrs.contains_key("output_shape") {
            self.problem(
                n,
                "sets auto_pad or output_shape",
                "give explicit pads (and output_padding) instead",
            );
            return None;
        }
        if strides.iter().any(|&s| s < 1) || ws[0] != xs[1] || xs[1] % group != 0 {
            self.problem(n, format!("has strides {strides:?}, {} input channels for weights {ws:?} in {group} groups", xs[1]), "fix the model: ConvTranspose weights are [C_in, C_out/group, k_y, k_x]");
            return None;
        }
        Some(Deconv {
            w: f32s(&wt),
            shape: [ws[0], ws[1], ws[2], ws[3]],
            group,
            strides: [strides[0] as usize, strides[1] as usize],
            pads: [pads[0], pads[1]],
            bias,
            factor: None,
        })
    }

    /// A `Resize` node as a depthwise transposed convolution, or a problem.
    fn resize_deconv(&mut self, n: &Node, xs: &[usize], ys: &[usize]) -> Option<Deconv> {
        let s = |k: &str, d: &'static str| {
            n.attrs
                .get(k)
                .and_then(Attr::as_str)
                .unwrap_or(d)
                .to_string()
        };
        let (mode, ctm, nearest, policy) = (
            s("mode", "nearest"),
            s("coordinate_transformation_mode", "half_pixel"),
            s("nearest_mode", "round_prefer_floor"),
            s("keep_aspect_ratio_policy", "stretch"),
        );
        let axes = ints(n, "axes");
        let attrs = ResizeAttrs {
            mode: &mode,
            ctm: &ctm,
            nearest_mode: &nearest,
            antialias: n.attrs.get("antialias").and_then(Attr::as_int).unwrap_or(0),
            axes: axes.as_deref(),
            policy: &policy,
        };
        let scales = n
            .input(2)
            .and_then(|v| self.w.constant(v))
            .map(|t| t.data().to_f64_vec());
        let dynamic = [2, 3]
            .iter()
            .any(|&i| n.input(i).is_some_and(|v| self.w.constant(v).is_none()));
        if dynamic {
            self.problem(
                n,
                "has non-constant scales or sizes",
                "fold them (onnx-simplify) or give constants",
            );
            return None;
        }
        let [h, w] = match spatial_deconv(&attrs, xs, ys, scales.as_deref()) {
            Ok(a) => a,
            Err(e) => {
                let fix = format!("NVDLA maps {EXACT_MODES}, up to factor {MAX_CONTRACT_STRIDE}");
                self.problem(
                    n,
                    format!("is not an upsampling NVDLA maps exactly: {e}"),
                    fix,
                );
                return None;
            }
        };
        let c = xs[1];
        let (ky, kx) = (h.kernel.len(), w.kernel.len());
        let mut wv = Vec::with_capacity(c * ky * kx);
        for _ in 0..c {
            for a in &h.kernel {
                wv.extend(w.kernel.iter().map(|b| (a * b) as f32));
            }
        }
        let factor =
            (h.needs_factor() || w.needs_factor()).then(|| (h.factor.clone(), w.factor.clone()));
        Some(Deconv {
            w: wv,
            shape: [c, 1, ky, kx],
            group: c,
            strides: [h.stride, w.stride],
            pads: [h.pad_begin, w.pad_begin],
            bias: None,
            factor,
        })
    }
}

/// Whether every phase of `d` is its input unchanged: one tap of weight 1,
/// no padding, one phase position per input position (a nearest Resize by
/// an integer factor).
fn copies_input(d: &Deconv, ay: &PhaseAxis, ax: &PhaseAxis, xs: &[usize]) -> bool {
    let one_tap = |a: &PhaseAxis, len: usize| {
        a.taps == 1
            && a.pad_before == 0
            && a.pad_after == 0
            && a.crop == 0
            && a.positions == len
            && a.tap_of.iter().flatten().all(Option::is_some)
    };
    d.factor.is_none()
        && d.bias.is_none()
        && d.group == xs[1]
        && d.w.iter().all(|&v| v == 1.0)
        && one_tap(ay, xs[2])
        && one_tap(ax, xs[3])
}
