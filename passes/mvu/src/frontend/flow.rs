//! The dataflow of a network: which data-RAM buffer each layer reads and
//! writes, and how a channel `Concat` is laid out.
//!
//! In: the lowered layers (graph order, which is topological), the
//! [`Wiring`] of [`super::lower_graph`] and the graph input's shape. Out: a
//! [`Flow`] (buffers, and per layer its input buffer, output buffer and
//! first 64-channel word there), with the layers adapted to it in place; or
//! every problem found.
//!
//! The data RAM holds an activation pixel by pixel, each pixel's channels in
//! 64-lane words (`prec` bit-plane words per word of channels). A buffer is
//! one such activation:
//!
//! * the graph input, or a layer's output (after its `Relu` / `MaxPool`; a
//!   pooling layer of its own, [`super::pool_layer`], must read values >= 0:
//!   outputs of layers with a ReLU or the graph input);
//! * a channel `Concat`: its parts (layer outputs) are written by their
//!   producers into adjacent word ranges of one buffer, so it costs no job.
//!   Each part starts on a word: a part of `c` channels takes `⌈c/64⌉` words,
//!   the last `64⌈c/64⌉ − c` lanes are gap channels (zero). A layer that
//!   writes a part of a buffer of several parts and more than one pixel runs
//!   one job per pixel and output word (the pooled schedule, a ReLU'd conv
//!   taking a 1×1 window), so each word can be placed between the other
//!   parts' words.
//! * Concats that share a part (DenseNet: each dense layer's output joins
//!   every later Concat of its block) are one buffer holding every part once.
//!
//! A layer reading a buffer reads all of its words: its input channels become
//! the buffer's stored channels, and its weights get zero rows for the
//! channels that are not its input (gap channels, and in a shared buffer the
//! parts outside its Concat), so the products are exact. `input_map` keeps
//! where each ONNX input channel went, for the reference graph.
//!
//! ```
//! use onnc_mvu::frontend::Flow;
//! let f = Flow::chain(&[]);
//! assert!(!f.is_branched());
//! ```

use std::collections::BTreeMap;

use super::lower::{Lowered, Wiring};
use super::problem::Problem;
use crate::layer::{LayerOp, Pool};
use crate::limits::BLOCK;
use crate::registers::blocks;

/// One layer's part of a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// The layer writing it.
    pub layer: usize,
    /// Its first 64-channel word in each pixel.
    pub block: u32,
    /// Its channels.
    pub channels: u32,
}

/// One activation in the data RAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// The ONNX value it holds (the graph input, a layer's output, or a Concat's).
    pub value: String,
    /// Stored channels per pixel: the last part's end (gaps included).
    pub width: u32,
    /// Pixels (conv: `H·W`; matmul: rows).
    pub pixels: u64,
    /// Bits per value (`aprec` for the graph input, else the producer's `oprec`).
    pub prec: u32,
    /// The layers writing it, in word order (empty for the graph input).
    pub parts: Vec<Part>,
}

impl Buffer {
    /// Data-RAM words: `pixels · ⌈width/64⌉ · prec`.
    pub fn words(&self) -> u64 {
        self.pixels * blocks(self.width.into()) * u64::from(self.prec)
    }

    /// Whether its producers interleave: several parts, more than one pixel.
    pub fn interleaved(&self) -> bool {
        self.parts.len() > 1 && self.pixels > 1
    }
}

/// Where one layer reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerIo {
    /// The buffer it reads (all of its stored channels).
    pub input: usize,
    /// The buffer it writes.
    pub output: usize,
    /// Its output's first 64-channel word in each pixel of `output`.
    pub block: u32,
    /// The stored channel of each ONNX input channel (feature), when the
    /// layer's input was widened to its buffer; `None`: the same channels.
    pub input_map: Option<Vec<u32>>,
}

/// Buffers and the layers' inputs and outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    /// Buffer 0 is the graph input.
    pub buffers: Vec<Buffer>,
    /// Per lowered layer.
    pub layers: Vec<LayerIo>,
    /// The buffer holding the graph output.
    pub output: usize,
    /// The stored channel of each channel of the graph output; `None`: the same.
    pub output_map: Option<Vec<u32>>,
}

impl Flow {
    /// The chain `layers` form: layer `i` reads buffer `i` and writes `i + 1`.
    pub fn chain(layers: &[Lowered]) -> Flow {
        let pixels = |l: &Lowered| match l.layer.op {
            LayerOp::Conv(c) => u64::from(c.in_height) * u64::from(c.in_width),
            LayerOp::MatMul(m) => m.rows.into(),
        };
        let mut buffers = vec![Buffer {
            value: String::new(),
            width: layers.first().map_or(0, |l| l.layer.in_channels()),
            pixels: layers.first().map_or(0, pixels),
            prec: layers.first().map_or(0, |l| l.layer.precision.act),
            parts: Vec::new(),
        }];
        for (i, l) in layers.iter().enumerate() {
            buffers.push(output_buffer(i, l));
        }
        Flow {
            buffers,
            layers: (0..layers.len())
                .map(|i| LayerIo {
                    input: i,
                    output: i + 1,
                    block: 0,
                    input_map: None,
                })
                .collect(),
            output: layers.len(),
            output_map: None,
        }
    }

    /// Whether the network is more than a chain (a branch or a Concat).
    pub fn is_branched(&self) -> bool {
        self.output_map.is_some()
            || self.output != self.layers.len()
            || self.layers.iter().enumerate().any(|(i, io)| {
                io.input != i || io.output != i + 1 || io.block != 0 || io.input_map.is_some()
            })
    }

    /// The layers reading buffer `b`, in order.
    pub fn readers(&self, b: usize) -> Vec<usize> {
        (0..self.layers.len())
            .filter(|&i| self.layers[i].input == b)
            .collect()
    }
}

/// The buffer of layer `i`'s output alone.
fn output_buffer(i: usize, l: &Lowered) -> Buffer {
    let [_, h, w] = l.layer.output_chw().unwrap_or([0, 0, 0]);
    let c = l.layer.out_channels();
    let pixels = match l.layer.op {
        LayerOp::Conv(_) => u64::from(h) * u64::from(w),
        LayerOp::MatMul(m) => m.rows.into(),
    };
    Buffer {
        value: l.end.clone(),
        width: c,
        pixels,
        prec: l.layer.precision.out,
        parts: vec![Part {
            layer: i,
            block: 0,
            channels: c,
        }],
    }
}

/// What a stored value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Src {
    Input,
    Layer(usize),
    Concat(usize),
}

/// The walk's view: stored values, aliases, and each Concat's flattened parts.
struct Values<'a> {
    wiring: &'a Wiring,
    stored: BTreeMap<String, Src>,
}

impl<'a> Values<'a> {
    /// `v` through layout-only ops.
    fn resolve(&self, v: &'a str) -> &'a str {
        super::lower::resolve(self.wiring, v)
    }

    /// The layers of concat `k`'s parts, flattened through nested Concats.
    fn parts(&self, k: usize, depth: usize) -> Result<Vec<usize>, String> {
        let (_, _, inputs) = &self.wiring.concats[k];
        let mut out = Vec::new();
        for p in inputs {
            let r = self.resolve(p);
            match self.stored.get(r) {
                Some(Src::Layer(i)) => out.push(*i),
                Some(Src::Concat(j)) if depth < self.wiring.concats.len() => {
                    out.extend(self.parts(*j, depth + 1)?)
                }
                Some(Src::Input) => {
                    return Err(format!(
                        "part '{p}' is the graph input, which the host loads as it is: no layer writes \
                         it into the Concat's buffer"
                    ))
                }
                _ => {
                    return Err(format!(
                        "part '{p}' is not a layer's output after its output pipeline (Relu, MaxPool), \
                         which is all a data-RAM buffer holds"
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// Groups the Concats' layers: layers in one Concat, or in Concats sharing
/// a part, share a buffer. Returns the groups' layers in first-seen order.
fn groups(concat_parts: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for parts in concat_parts {
        let hit: Vec<usize> = (0..groups.len())
            .filter(|&g| parts.iter().any(|p| groups[g].contains(p)))
            .collect();
        let mut merged: Vec<usize> = Vec::new();
        for &g in &hit {
            merged.extend(groups[g].iter().copied());
        }
        for &p in parts {
            if !merged.contains(&p) {
                merged.push(p);
            }
        }
        for &g in hit.iter().rev() {
            groups.remove(g);
        }
        let at = hit.first().copied().unwrap_or(groups.len());
        groups.insert(at.min(groups.len()), merged);
    }
    groups
}

/// Builds the flow of `layers` (see the module doc), widening the layers that
/// read a Concat or a shared buffer and giving an interleaved part's
/// producer its one-pixel jobs. `input` is the graph input's name and shape.
pub fn build(
    layers: &mut [Lowered],
    wiring: &Wiring,
    input: (&str, &[usize]),
    aprec: u32,
) -> Result<Flow, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut stored: BTreeMap<String, Src> = BTreeMap::new();
    stored.insert(input.0.to_string(), Src::Input);
    for (i, l) in layers.iter().enumerate() {
        stored.insert(l.end.clone(), Src::Layer(i));
    }
    for (k, (_, out, _)) in wiring.concats.iter().enumerate() {
        stored.insert(out.clone(), Src::Concat(k));
    }
    let out_ch: Vec<u32> = layers.iter().map(|l| l.layer.out_channels()).collect();
    let vals = Values { wiring, stored };
    let mut concat_parts = Vec::new();
    for (k, (node, _, _)) in wiring.concats.iter().enumerate() {
        match vals.parts(k, 0) {
            Ok(p) => concat_parts.push(p),
            Err(what) => {
                problems.push(Problem::node(
                    node,
                    "Concat",
                    what,
                    "concatenate the outputs of Conv/Gemm/MatMul layers (with their Relu or MaxPool), \
                     or run the Concat on the host",
                ));
                concat_parts.push(Vec::new());
            }
        }
    }
    // Buffers: the graph input, one per group of Concat parts, one per other layer.
    let (in_width, in_pixels) = match input.1 {
        [_, c, h, w] => (*c, (h * w) as u64),
        [rows, k] => (*k, *rows as u64),
        s => (s.iter().product(), 1),
    };
    let mut buffers = vec![Buffer {
        value: input.0.to_string(),
        width: in_width as u32,
        pixels: in_pixels,
        prec: aprec,
        parts: Vec::new(),
    }];
    let mut home: Vec<(usize, u32)> = vec![(0, 0); layers.len()];
    let mut grouped = vec![false; layers.len()];
    for g in groups(&concat_parts).into_iter().filter(|g| !g.is_empty()) {
        let b = buffers.len();
        let mut buf = output_buffer(g[0], &layers[g[0]]);
        buf.parts.clear();
        let mut word = 0u32;
        for &i in &g {
            let one = output_buffer(i, &layers[i]);
            if one.pixels != buf.pixels || one.prec != buf.prec {
                problems.push(Problem::node(
                    &layers[i].node,
                    &layers[i].op,
                    format!(
                        "its output ({} pixels, {} bits) joins a Concat buffer of {} pixels, {} bits",
                        one.pixels, one.prec, buf.pixels, buf.prec
                    ),
                    "concatenate outputs of one size and precision",
                ));
            }
            buf.parts.push(Part {
                layer: i,
                block: word,
                channels: one.width,
            });
            home[i] = (b, word);
            grouped[i] = true;
            buf.width = word * BLOCK as u32 + one.width;
            word += blocks(one.width.into()) as u32;
        }
        buf.value = wiring
            .concats
            .iter()
            .zip(&concat_parts)
            .find(|(_, p)| p.iter().any(|i| g.contains(i)))
            .map_or_else(String::new, |((_, out, _), _)| out.clone());
        buffers.push(buf);
    }
    for (i, l) in layers.iter().enumerate() {
        if !grouped[i] {
            home[i] = (buffers.len(), 0);
            buffers.push(output_buffer(i, l));
        }
    }
    // Where each stored value lives: buffer and the stored channel of each channel.
    let map_of = |src: Src| -> (usize, Vec<u32>) {
        match src {
            Src::Input => (0, (0..buffers[0].width).collect()),
            Src::Layer(i) => {
                let (b, word) = home[i];
                let base = word * BLOCK as u32;
                (b, (0..out_ch[i]).map(|c| base + c).collect())
            }
            Src::Concat(k) => {
                let parts = &concat_parts[k];
                let b = parts.first().map_or(0, |&i| home[i].0);
                let map = parts
                    .iter()
                    .flat_map(|&i| {
                        let base = home[i].1 * BLOCK as u32;
                        (0..out_ch[i]).map(move |c| base + c)
                    })
                    .collect();
                (b, map)
            }
        }
    };
    let identity = |map: Vec<u32>, width: u32| -> Option<Vec<u32>> {
        let same =
            map.len() == width as usize && map.iter().enumerate().all(|(c, &s)| c as u32 == s);
        (!same).then_some(map)
    };
    let mut ios = Vec::with_capacity(layers.len());
    for (i, l) in layers.iter_mut().enumerate() {
        let read = vals.resolve(&wiring.inputs[i]);
        let (input, map) = match vals.stored.get(read) {
            Some(&src) => map_of(src),
            None => {
                problems.push(Problem::node(
                    &l.node,
                    &l.op,
                    format!(
                        "reads '{read}', which is not in the data RAM: a buffer holds the graph input, a \
                         layer's output after its whole output pipeline (Relu, MaxPool), or a Concat of those"
                    ),
                    "read the layer's output after its Relu/MaxPool, or compute the branch on the host",
                ));
                (0, Vec::new())
            }
        };
        let width = buffers[input].width;
        let input_map = identity(map, width);
        if let Some(m) = &input_map {
            if let Err(p) = widen(l, m, width, buffers[input].pixels) {
                problems.push(p);
            }
        }
        let (output, block) = home[i];
        ios.push(LayerIo {
            input,
            output,
            block,
            input_map,
        });
    }
    // A pooling layer's pooler starts from 0: its input must be >= 0.
    for (i, io) in ios.iter().enumerate() {
        if let Some(p) = signed_pool_input(layers, i, &buffers[io.input]) {
            problems.push(p);
        }
    }
    // Producers of interleaved parts write one pixel's word per job.
    for buf in buffers.iter().filter(|b| b.interleaved()) {
        for part in &buf.parts {
            if let Err(p) = one_pixel_jobs(&mut layers[part.layer], &buf.value) {
                problems.push(p);
            }
        }
    }
    let graph_out = vals.resolve(&wiring.output);
    let (output, output_map) = match vals.stored.get(graph_out) {
        Some(&src) => {
            let (b, map) = map_of(src);
            (b, identity(map, buffers[b].width))
        }
        None => {
            problems.push(Problem::option(
                "graph output",
                format!("'{graph_out}' is not a layer's output after its output pipeline, nor a Concat of those"),
                "end the graph with a layer (and its Relu / MaxPool) or a Concat of layers",
            ));
            (0, None)
        }
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Flow {
        buffers,
        layers: ios,
        output,
        output_map,
    })
}

/// The problem of pooling layer `i` (a `MaxPool` of its own,
/// [`super::pool_layer`]) reading `input` written by a layer without a ReLU:
/// its pooler starts each window from 0, so it computes `max(0, window)`,
/// exact only for values >= 0 (the graph input's codes are unsigned).
fn signed_pool_input(layers: &[Lowered], i: usize, input: &Buffer) -> Option<Problem> {
    if layers[i].op != "MaxPool" {
        return None;
    }
    let signed = input.parts.iter().find(|p| !layers[p.layer].relu)?;
    Some(Problem::node(
        &layers[i].node,
        "MaxPool",
        format!(
            "pools '{}', written by '{}', which has no ReLU: the MVU pools in a layer of its own whose \
             pooler starts each window from 0 (maxpool.v clears its register to 0), so it computes \
             max(0, window), which differs from MaxPool where a whole window is negative",
            input.value, layers[signed.layer].node
        ),
        "put a Relu before the MaxPool (as SqueezeNet and GoogLeNet have), or run the pooling on the host",
    ))
}

/// Widens layer `l`'s input to `width` stored channels: ONNX input channel
/// `c` becomes `map[c]`, every other channel gets zero weights.
fn widen(l: &mut Lowered, map: &[u32], width: u32, pixels: u64) -> Result<(), Problem> {
    let real = l.layer.in_channels() as usize;
    if map.len() != real {
        return Err(Problem::node(
            &l.node,
            &l.op,
            format!(
                "reads {} input features, and its input is a buffer of {} channels x {pixels} pixels laid \
                 out for a Concat (64-channel words per part): the features of several pixels are not \
                 contiguous channels there",
                real,
                map.len()
            ),
            "flatten only a 1 x 1 map before a Gemm that reads a Concat, or run the Concat on the host",
        ));
    }
    let out = l.layer.out_channels() as usize;
    let per = l.weights.values.len() / (out * real).max(1);
    let w = width as usize;
    let mut values = vec![0i32; out * w * per];
    for o in 0..out {
        for (c, &s) in map.iter().enumerate() {
            let src = (o * real + c) * per;
            let dst = (o * w + s as usize) * per;
            values[dst..dst + per].copy_from_slice(&l.weights.values[src..src + per]);
        }
    }
    l.weights.values = values;
    match &mut l.layer.op {
        LayerOp::Conv(c) => c.in_channels = width,
        LayerOp::MatMul(m) => m.in_features = width,
    }
    Ok(())
}

/// Gives the producer `l` of an interleaved part of `value` one job per
/// output pixel and word: a pooled layer has them; an unpooled conv takes
/// the pooled schedule with a 1×1 window (with a ReLU through the pooler,
/// `max(0, v)`; without, the pooler off: `Row::uses_pooler`).
fn one_pixel_jobs(l: &mut Lowered, value: &str) -> Result<(), Problem> {
    match (&l.layer.op, l.layer.pool, l.layer.relu) {
        (LayerOp::Conv(_), Some(_), _) => Ok(()),
        (LayerOp::Conv(_), None, _) => {
            l.layer.pool = Some(Pool {
                kernel: [1, 1],
                strides: [1, 1],
                pads: [0; 4],
                ceil_mode: false,
            });
            Ok(())
        }
        (LayerOp::MatMul(_), _, _) => Err(Problem::node(
            &l.node,
            &l.op,
            format!(
                "writes a part of Concat '{value}' over several rows: a matmul job writes a whole row of \
                 output words, which cannot interleave with the other parts'"
            ),
            "concatenate one-row matmul outputs, or run the Concat on the host",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::groups;

    #[test]
    fn concats_sharing_a_part_are_one_group_in_first_seen_order() {
        // Dense block: [0, 1], [0, 1, 2], and an unrelated [5, 6].
        let g = groups(&[vec![0, 1], vec![5, 6], vec![0, 1, 2]]);
        assert_eq!(g, vec![vec![0, 1, 2], vec![5, 6]]);
        // Two groups joined by a later Concat keep the earlier group's place.
        let g = groups(&[vec![0, 1], vec![2, 3], vec![1, 2]]);
        assert_eq!(g, vec![vec![0, 1, 2, 3]]);
    }
}
