//! The data RAM's buffers as the functional model sees them: a batch of
//! inputs run layer by layer through a [`Flow`].
//!
//! In: a flow and a batch of graph inputs (integer codes, NCHW or rows ×
//! features). Each layer takes its input buffer ([`Buffers::input`]: every
//! stored channel, `[C, H, W]` or `[rows, features]`) and stores its output
//! codes at its first word ([`Buffers::store`]); gap channels, and channels
//! no layer has written yet, are 0. Out: [`Buffers::output`], the graph
//! output's channels in ONNX order.
//!
//! ```
//! use onnc_mvu::frontend::Flow;
//! let f = Flow::chain(&[]);
//! assert_eq!(f.buffers.len(), 1);
//! ```

use super::flow::Flow;
use crate::limits::BLOCK;

/// One buffer's values, one per input of the batch, and its dims
/// (`[C, H, W]` or `[rows, C]`).
type Batch = (Vec<Vec<i64>>, Vec<usize>);

/// Per buffer: the batch's values and the buffer's dims, once written.
pub(super) struct Buffers<'a> {
    flow: &'a Flow,
    bufs: Vec<Option<Batch>>,
}

impl<'a> Buffers<'a> {
    /// Buffer 0 holds `inputs` of shape `dims` (`[C, H, W]` or `[rows, C]`).
    pub(super) fn new(flow: &'a Flow, inputs: Vec<Vec<i64>>, dims: Vec<usize>) -> Self {
        let mut bufs = vec![None; flow.buffers.len()];
        if let Some(b) = bufs.first_mut() {
            *b = Some((inputs, dims));
        }
        Buffers { flow, bufs }
    }

    /// Layer `i`'s input batch and dims (empty before its buffer is written).
    pub(super) fn input(&self, i: usize) -> (&[Vec<i64>], &[usize]) {
        match &self.bufs[self.flow.layers[i].input] {
            Some((v, d)) => (v, d),
            None => (&[], &[]),
        }
    }

    /// Stores layer `i`'s outputs `ys` (`[C, H, W]` or `[rows, C]`, as
    /// `dims`) at its first word of its output buffer.
    pub(super) fn store(&mut self, i: usize, ys: Vec<Vec<i64>>, dims: &[usize]) {
        let io = &self.flow.layers[i];
        let width = self.flow.buffers[io.output].width as usize;
        let base = io.block as usize * BLOCK as usize;
        let (channels, rows, conv) = match dims {
            [c, h, w] => (*c, h * w, true),
            [r, c] => (*c, *r, false),
            _ => (ys.first().map_or(0, Vec::len), 1, true),
        };
        if base == 0 && width == channels {
            self.bufs[io.output] = Some((ys, dims.to_vec()));
            return;
        }
        let buf_dims = match dims {
            [_, h, w] => vec![width, *h, *w],
            [r, _] => vec![*r, width],
            _ => vec![width],
        };
        let slot = self.bufs[io.output]
            .get_or_insert_with(|| (vec![vec![0; width * rows]; ys.len()], buf_dims));
        for (dst, y) in slot.0.iter_mut().zip(&ys) {
            for c in 0..channels {
                for p in 0..rows {
                    let (d, s) = if conv {
                        ((base + c) * rows + p, c * rows + p)
                    } else {
                        (p * width + base + c, p * channels + c)
                    };
                    dst[d] = y[s];
                }
            }
        }
    }

    /// The graph output of each input: its channels in ONNX order.
    pub(super) fn output(self) -> Vec<Vec<i64>> {
        let flow = self.flow;
        let Some((vs, dims)) = self.bufs.into_iter().nth(flow.output).flatten() else {
            return Vec::new();
        };
        let Some(map) = &flow.output_map else {
            return vs;
        };
        let width = flow.buffers[flow.output].width as usize;
        let (rows, conv) = match dims.as_slice() {
            [_, h, w] => (h * w, true),
            [r, _] => (*r, false),
            _ => (1, true),
        };
        vs.iter()
            .map(|v| {
                let mut out = Vec::with_capacity(map.len() * rows);
                if conv {
                    for &s in map {
                        out.extend_from_slice(&v[s as usize * rows..(s as usize + 1) * rows]);
                    }
                } else {
                    for p in 0..rows {
                        out.extend(map.iter().map(|&s| v[p * width + s as usize]));
                    }
                }
                out
            })
            .collect()
    }
}
