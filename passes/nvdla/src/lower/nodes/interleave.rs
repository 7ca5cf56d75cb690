//! Interleaving upsampling phases without RUBIK (nv_small, nv_large):
//! identity SDP passes (every unit bypassed, INT8 scale 1) whose source and
//! destination are views with the right strides.
//!
//! In: the phases — `s_y·s_x` cubes `[1, C, H, W]` (channel windows of the
//! phase convolution's `[1, s_y·s_x·C_pad, H, W]`, or the input itself for
//! every phase of a nearest Resize) — and the result tensor
//! `[1, C, s_y·H, s_x·W]`. Out: the ops writing it, or a problem naming
//! the limit.
//!
//! A dense cube stores pixel `(h, w)` of a surface at `(h·W + w)·A` (`A` the
//! memory atom), so reshaping `[C, H, W]` to `[C, H·W, 1]` keeps the bytes
//! (`plan::views`). Per output row phase `py`:
//! 1. `s_x` passes (one per column phase `px`) read phase `(py, px)` as
//!    `[C, H·W, 1]` and write column `px` of `T = [C, H·W, s_x]`, a
//!    column window (line stride `s_x·A`): pixel `(h, w)` lands at
//!    `(h·W + w)·s_x + px`, which in `R = reshape(T) = [C, H, s_x·W]` is
//!    `(h, s_x·w + px)`;
//! 2. one pass copies `R` into column block `py` of
//!    `O' = [C, H, s_y·s_x·W]` (line stride `s_y·s_x·W·A`), and
//!    `reshape(O')` is the result: row `h`, block `py` is row `s_y·h + py`.
//!
//! `T` and `O'` are width concats of the windows (`nvdla.concat` with
//! `axis = 3`), so the planner, the checker and the emitter see ordinary
//! views. A nearest Resize has one phase, so `R` is built once: `s_x + s_y`
//! passes; otherwise `s_y·s_x + s_y` (`s_x = 1` skips step 1). An SDP cube
//! is at most [`MAX_CUBE_DIM`] lines high, so step 1 refuses maps of more
//! than that many pixels.

use onnc_onnx::Node;

use super::Lowering;
use crate::lower::sdp::pack_on;
use crate::program::{Engine, TensorId, TensorKind, Value};

/// Largest SDP cube height (and width): the data cube registers hold
/// `height − 1` in 13 bits.
pub const MAX_CUBE_DIM: usize = 8192;

/// Where the phases come from.
pub(super) enum Phases {
    /// The phase convolution's result `[1, s_y·s_x·c_pad, H, W]`, phase
    /// `(py, px)` at channel `(py·s_x + px)·c_pad`.
    Conv { tensor: TensorId, c_pad: usize },
    /// Every phase is this tensor (nearest neighbours).
    Same(TensorId),
}

/// The shape of an interleave: `c` channels, factors `s = [s_y, s_x]`,
/// phase maps of `q = [H, W]` pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct Grid {
    /// Channels of the result.
    pub c: usize,
    /// Factors `[s_y, s_x]`.
    pub s: [usize; 2],
    /// Pixels `[H, W]` of each phase map.
    pub q: [usize; 2],
}

impl Lowering {
    /// Writes `out` (`[1, c, s_y·H, s_x·W]`) from the phases by SDP copies
    /// (see the module doc).
    pub(super) fn interleave(
        &mut self,
        n: &Node,
        phases: &Phases,
        grid: &Grid,
        out: TensorId,
        sources: &[String],
    ) -> Option<()> {
        let Grid { c, s, q } = *grid;
        let [sy, sx] = s;
        let [hq, wq] = q;
        let pixels = hq * wq;
        if sx > 1 && pixels > MAX_CUBE_DIM {
            self.problem(
                n,
                format!("upsamples a {hq}×{wq} map without RUBIK: its {pixels} pixels, read one per line, exceed the SDP's {MAX_CUBE_DIM} lines"),
                format!("upsample maps of at most {MAX_CUBE_DIM} pixels on this configuration (or compile for nv_full)"),
            );
            return None;
        }
        let v = self.b.prog.tensors[out].name.clone();
        let prec = self.b.prec;
        let mut rows: Vec<TensorId> = Vec::with_capacity(sy);
        for py in 0..sy {
            if let (Phases::Same(_), Some(&r)) = (phases, rows.first()) {
                rows.push(r);
                continue;
            }
            if sx == 1 {
                let p = self.phase(n, phases, c, py * sx, [hq, wq], sources);
                rows.push(p);
                continue;
            }
            let t = self.b.add(
                &format!("{v}#cols{py}"),
                vec![1, c, pixels, sx],
                prec,
                TensorKind::Activation,
            );
            let mut cols = Vec::with_capacity(sx);
            for px in 0..sx {
                let p = self.phase(n, phases, c, py * sx + px, [hq, wq], sources);
                let line =
                    self.strided_view(n, Engine::Reshape, p, vec![1, c, pixels, 1], 0, sources);
                let col = self.b.add(
                    &format!("{v}#col{py}_{px}"),
                    vec![1, c, pixels, 1],
                    prec,
                    TensorKind::Activation,
                );
                self.copy_pass(&format!("{}_up{py}_{px}", n.name), line, col, sources);
                cols.push(Some(col));
            }
            let layer = self.b.layer(&format!("{}_cols{py}", n.name));
            let set = vec![("axis", Value::Int(3))];
            self.b
                .push(Engine::Concat, &layer, set, cols, t, sources.to_vec());
            let r = self.strided_view(n, Engine::Reshape, t, vec![1, c, hq, sx * wq], 0, sources);
            rows.push(r);
        }
        let wide = self.b.add(
            &format!("{v}#rows"),
            vec![1, c, hq, sy * sx * wq],
            prec,
            TensorKind::Activation,
        );
        let mut blocks = Vec::with_capacity(sy);
        for (py, &r) in rows.iter().enumerate() {
            let m = self.b.add(
                &format!("{v}#part{py}"),
                vec![1, c, hq, sx * wq],
                prec,
                TensorKind::Activation,
            );
            self.copy_pass(&format!("{}_row{py}", n.name), r, m, sources);
            blocks.push(Some(m));
        }
        let layer = self.b.layer(&format!("{}_rows", n.name));
        let set = vec![("axis", Value::Int(3))];
        self.b
            .push(Engine::Concat, &layer, set, blocks, wide, sources.to_vec());
        let layer = self.b.layer(&format!("{}_unfold", n.name));
        self.b.push(
            Engine::Reshape,
            &layer,
            vec![],
            vec![Some(wide)],
            out,
            sources.to_vec(),
        );
        Some(())
    }

    /// Phase `k` (`py·s_x + px`) as a `[1, c, H, W]` tensor.
    fn phase(
        &mut self,
        n: &Node,
        phases: &Phases,
        c: usize,
        k: usize,
        q: [usize; 2],
        sources: &[String],
    ) -> TensorId {
        match *phases {
            Phases::Same(x) => x,
            Phases::Conv { tensor, c_pad } => {
                let shape = vec![1, c, q[0], q[1]];
                self.strided_view(n, Engine::Slice, tensor, shape, k * c_pad, sources)
            }
        }
    }

    /// A slice (channels from `c_start`) or reshape of `x` to `shape`.
    fn strided_view(
        &mut self,
        n: &Node,
        engine: Engine,
        x: TensorId,
        shape: Vec<usize>,
        c_start: usize,
        sources: &[String],
    ) -> TensorId {
        let what = if engine == Engine::Slice {
            "phase"
        } else {
            "view"
        };
        let name = format!("{}#{what}", self.b.prog.tensors[x].name);
        let y = self
            .b
            .add(&name, shape, self.b.prec, TensorKind::Activation);
        let layer = self.b.layer(&format!("{}_{what}", n.name));
        let set = if engine == Engine::Slice {
            vec![("c_start", Value::Int(c_start as i64))]
        } else {
            vec![]
        };
        self.b
            .push(engine, &layer, set, vec![Some(x)], y, sources.to_vec());
        y
    }

    /// An SDP with every unit bypassed copying `src` to `dst` (same
    /// shape; the planner gives either its strides).
    fn copy_pass(&mut self, base: &str, src: TensorId, dst: TensorId, sources: &[String]) {
        let units = pack_on(&[], self.units()).unwrap_or_default();
        let attrs = self.b.sdp_attrs(&units, &[self.b.prec; 3]);
        let set = attrs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let layer = self.b.layer(base);
        self.b.push(
            Engine::Sdp,
            &layer,
            set,
            vec![Some(src), None, None, None],
            dst,
            sources.to_vec(),
        );
    }
}
