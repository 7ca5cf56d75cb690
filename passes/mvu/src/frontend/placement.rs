//! Data-RAM addresses of a branched network's buffers, reused as their live
//! ranges end.
//!
//! In: a [`Flow`], its layers, and the data RAM's size. Out: a
//! [`Placement`] (the first word of every buffer, the peak) and each layer's
//! [`LayerBases`] for the program; or the problem naming the layer whose
//! output finds no room and the buffers live at that point.
//!
//! A buffer is live from the first layer writing it (the graph input: from
//! the start) to the last layer reading it (the graph output: to the end);
//! a layer's input and output are live together. Buffers are placed in order
//! of their first layer (then buffer index) at the lowest address where they
//! overlap no live buffer: first fit, deterministic. The graph input is
//! placed first, at word 0, where the host loads `input_0.hex`.
//!
//! A layer split into pieces ([`place_split`]) runs as in a chain: the host
//! loads each piece's input band at word 0 and reads its output from the
//! upper half, so the pieces use the whole data RAM. Its input and output
//! are then the host's: a buffer is in the data RAM only from the first to
//! the last unsplit layer writing or reading it (the host loads a split
//! layer's output there before its first unsplit reader, and copies an
//! unsplit layer's output out before a split layer reads it); a buffer only
//! split layers touch is not placed (`words` 0). A buffer in the data RAM
//! while a split layer runs is refused, naming both ([`place_split`]).
//!
//! When the buffers do not fit (SqueezeNet's fire modules at 4 bits: a
//! squeeze output of 11664 words and the Concat of 23328 the expands write
//! from it), [`place_through_host`] runs the layers touching the buffer that
//! found no room through the host as well, one layer at a time like a
//! chain's piece, until the rest fits: the host then moves those layers'
//! inputs and outputs (and assembles a Concat their parts belong to).
//!
//! ```
//! use onnc_mvu::frontend::placement::{first_fit, Interval};
//! // [0, 100) live over layers 0..=1; a buffer live over 1..=2 goes above it,
//! // one live over 2..=3 reuses word 0.
//! let taken = [Interval { start: 0, end: 1, at: 0, words: 100 }];
//! assert_eq!(first_fit(&taken, 1, 2, 50), 100);
//! assert_eq!(first_fit(&taken, 2, 3, 50), 0);
//! // The highest free 50 words of 1000 beside it: 950.
//! assert_eq!(onnc_mvu::frontend::placement::last_fit(&taken, 1, 2, 50, 1000), Some(950));
//! ```

use super::flow::Flow;
use super::lower::Lowered;
use super::problem::Problem;
use crate::emit::LayerBases;
use crate::registers::blocks;

/// A placed buffer: live over layers `start..=end`, at words `at..at + words`
/// (`words` 0: not in the data RAM, only split layers touch it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// First layer it is live at.
    pub start: usize,
    /// Last layer it is live at.
    pub end: usize,
    /// First word.
    pub at: u64,
    /// Words.
    pub words: u64,
}

/// Where every buffer is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// Per buffer of the flow: first word, words, first and last live layer.
    pub buffers: Vec<Interval>,
    /// The highest word any buffer reaches (exclusive).
    pub peak: u64,
}

/// The lowest address of `words` free over layers `start..=end` among `taken`.
pub fn first_fit(taken: &[Interval], start: usize, end: usize, words: u64) -> u64 {
    let mut live: Vec<&Interval> = taken
        .iter()
        .filter(|t| t.start <= end && start <= t.end)
        .collect();
    live.sort_by_key(|t| (t.at, t.words));
    let mut at = 0u64;
    for t in live {
        if t.at >= at.saturating_add(words) {
            break;
        }
        at = at.max(t.at.saturating_add(t.words));
    }
    at
}

/// The highest address of `words` free over layers `start..=end` among
/// `taken` below `ram_words`; `None` when no gap holds them.
pub fn last_fit(
    taken: &[Interval],
    start: usize,
    end: usize,
    words: u64,
    ram_words: u64,
) -> Option<u64> {
    let mut live: Vec<&Interval> = taken
        .iter()
        .filter(|t| t.words > 0 && t.start <= end && start <= t.end)
        .collect();
    live.sort_by_key(|t| std::cmp::Reverse((t.at + t.words, t.at)));
    let mut top = ram_words;
    for t in live {
        if t.at + t.words <= top.saturating_sub(words) {
            break;
        }
        top = top.min(t.at);
    }
    top.checked_sub(words)
}

/// The live range of buffer `b` in the data RAM: from its first to its last
/// unsplit writer or reader (from 0 for the graph input, to the last layer
/// for the graph output); `None` when only split layers touch it.
fn live(flow: &Flow, split: &[bool], b: usize) -> Option<(usize, usize)> {
    let last = flow.layers.len().saturating_sub(1);
    let mut touch: Vec<usize> = flow.buffers[b]
        .parts
        .iter()
        .map(|p| p.layer)
        .chain(flow.readers(b))
        .filter(|&i| !split.get(i).copied().unwrap_or(false))
        .collect();
    if touch.is_empty() {
        // The graph input of a network without layers is still loaded.
        return (b == 0 && flow.layers.is_empty()).then_some((0, 0));
    }
    if b == 0 {
        touch.push(0);
    }
    if b == flow.output {
        touch.push(last);
    }
    let start = touch.iter().copied().min().unwrap_or(0);
    let end = touch.iter().copied().max().unwrap_or(start);
    Some((start, end))
}

/// Places every buffer of `flow` in `ram_words` words; `layers` names them
/// in a refusal. Every layer runs unsplit.
pub fn place(flow: &Flow, layers: &[Lowered], ram_words: u64) -> Result<Placement, Problem> {
    place_split(flow, layers, &vec![false; flow.layers.len()], ram_words)
}

/// [`place`] when the layers with `split[i]` run in pieces through the host
/// (module documentation); refuses a buffer live in the data RAM while a
/// split layer runs.
pub fn place_split(
    flow: &Flow,
    layers: &[Lowered],
    split: &[bool],
    ram_words: u64,
) -> Result<Placement, Problem> {
    place_with(flow, layers, split, ram_words, false)
        .or_else(|first| place_with(flow, layers, split, ram_words, true).map_err(|_| first))
        .map_err(|(p, _)| p)
}

/// Places `flow` with the layers in `split` run through the host, and
/// when its buffers do not fit, runs the unsplit layers touching the
/// buffer that found no room through the host too (their input loaded at
/// word 0, their output read from the upper half, as a split layer's one
/// piece), until every buffer left in the data RAM fits. Returns the
/// placement and which layers run through the host; an error only when no
/// layer is left to move (a graph input that alone exceeds the RAM).
pub fn place_through_host(
    flow: &Flow,
    layers: &[Lowered],
    split: &[bool],
    ram_words: u64,
) -> Result<(Placement, Vec<bool>), Problem> {
    let mut host = split.to_vec();
    host.resize(flow.layers.len(), false);
    loop {
        let tried = place_with(flow, layers, &host, ram_words, false)
            .or_else(|first| place_with(flow, layers, &host, ram_words, true).map_err(|_| first));
        let (problem, b) = match tried {
            Ok(p) => return Ok((p, host)),
            Err(e) => e,
        };
        let touching: Vec<usize> = flow.buffers[b]
            .parts
            .iter()
            .map(|p| p.layer)
            .chain(flow.readers(b))
            .filter(|&i| !host[i])
            .collect();
        if touching.is_empty() {
            return Err(problem);
        }
        for i in touching {
            host[i] = true;
        }
    }
}

/// The producer's input buffer of `b` (its first writer's input), if any.
fn input_of(flow: &Flow, b: usize) -> Option<usize> {
    let first = flow.buffers[b].parts.iter().map(|p| p.layer).min()?;
    Some(flow.layers[first].input)
}

/// One placement of `flow`: every buffer first fit from word 0, or, with
/// `alternate`, a buffer whose producer reads the lower half placed as high
/// as it fits (last fit), as a chain ping-pongs between the halves: first
/// fit alone can leave a small buffer (SqueezeNet's squeeze output) just
/// above the one its producer reads, where it splits the free words that
/// the next, larger buffer (the fire module's Concat) needs.
fn place_with(
    flow: &Flow,
    layers: &[Lowered],
    split: &[bool],
    ram_words: u64,
    alternate: bool,
) -> Result<Placement, (Problem, usize)> {
    let mut order: Vec<(usize, usize)> = (0..flow.buffers.len())
        .map(|b| (live(flow, split, b).map_or(0, |l| l.0), b))
        .collect();
    order.sort();
    let mut placed: Vec<Option<Interval>> = vec![None; flow.buffers.len()];
    for (_, b) in order {
        let Some((start, end)) = live(flow, split, b) else {
            placed[b] = Some(Interval {
                start: 0,
                end: 0,
                at: 0,
                words: 0,
            });
            continue;
        };
        if let Some(s) = (start..=end).find(|&s| split.get(s).copied().unwrap_or(false)) {
            return Err((live_across_split(flow, layers, b, s, (start, end)), b));
        }
        let words = flow.buffers[b].words();
        let taken: Vec<Interval> = placed.iter().flatten().copied().collect();
        let reads_low = input_of(flow, b)
            .and_then(|i| placed[i])
            .is_some_and(|i| i.words > 0 && 2 * i.at + i.words < ram_words);
        let at = if alternate && reads_low {
            last_fit(&taken, start, end, words, ram_words).unwrap_or(ram_words)
        } else {
            first_fit(&taken, start, end, words)
        };
        if at.saturating_add(words) > ram_words {
            return Err((no_room(flow, layers, split, b, &placed, ram_words), b));
        }
        placed[b] = Some(Interval {
            start,
            end,
            at,
            words,
        });
    }
    let buffers: Vec<Interval> = placed.into_iter().flatten().collect();
    let peak = buffers.iter().map(|i| i.at + i.words).max().unwrap_or(0);
    Ok(Placement { buffers, peak })
}

/// Who holds buffer `b`, for messages: its producers, or the graph input.
fn holder(flow: &Flow, layers: &[Lowered], b: usize) -> String {
    let parts = &flow.buffers[b].parts;
    if parts.is_empty() {
        return format!("graph input '{}'", flow.buffers[b].value);
    }
    let names: Vec<String> = parts
        .iter()
        .map(|p| format!("'{}'", layers[p.layer].node))
        .collect();
    names.join(" + ")
}

/// The refusal when buffer `b`, live in the data RAM over `range`, is live
/// while the split layer `s` runs.
fn live_across_split(
    flow: &Flow,
    layers: &[Lowered],
    b: usize,
    s: usize,
    (start, end): (usize, usize),
) -> Problem {
    let name = |i: usize| layers.get(i).map_or("", |l| l.node.as_str());
    let (node, op) = layers
        .get(s)
        .map_or(("graph", "input"), |l| (l.node.as_str(), l.op.as_str()));
    Problem::node(
        node,
        op,
        format!(
            "is split into pieces to fit one MVU's RAMs, which use the whole data RAM (the host loads each \
             piece's input band at word 0 and reads its output from the upper half), while the buffer of {} \
             ({} words) stays in the data RAM from '{}' to '{}' for the branches around it",
            holder(flow, layers, b),
            flow.buffers[b].words(),
            name(start),
            name(end)
        ),
        "lower --aprec/--wprec/--oprec or use a smaller input so that the layer fits unsplit, or run the \
         branches around it on the host",
    )
}

/// The refusal when buffer `b` finds no room beside the buffers `placed`
/// so far (indexed by buffer).
fn no_room(
    flow: &Flow,
    layers: &[Lowered],
    split: &[bool],
    b: usize,
    placed: &[Option<Interval>],
    ram_words: u64,
) -> Problem {
    let (start, end) = live(flow, split, b).unwrap_or((0, 0));
    let words = flow.buffers[b].words();
    let live_with: Vec<String> = placed
        .iter()
        .enumerate()
        .filter_map(|(k, t)| {
            let t = t.as_ref()?;
            (t.words > 0 && t.start <= end && start <= t.end).then(|| {
                format!(
                    "{} ({} words, until '{}')",
                    holder(flow, layers, k),
                    t.words,
                    layers.get(t.end).map_or("", |l| l.node.as_str())
                )
            })
        })
        .collect();
    let (node, op) = layers
        .get(start)
        .map_or(("graph", "input"), |l| (l.node.as_str(), l.op.as_str()));
    Problem::node(
        node,
        op,
        format!(
            "its output buffer ({}: {words} data-RAM words) does not fit beside the buffers live with it: {}; \
             the data RAM has {ram_words} words",
            holder(flow, layers, b),
            if live_with.is_empty() {
                "none".to_string()
            } else {
                live_with.join(", ")
            }
        ),
        "lower --aprec/--oprec, use a smaller input or fewer channels per branch, or run the branches on the host",
    )
}

/// Each layer's bases: its input buffer, its output buffer plus its first
/// word there, weights at 0; an interleaved part skips the other parts'
/// words after each pixel.
pub fn bases(flow: &Flow, layers: &[Lowered], placement: &Placement) -> Vec<LayerBases> {
    flow.layers
        .iter()
        .zip(layers)
        .map(|(io, l)| {
            let out = &flow.buffers[io.output];
            let op = u64::from(l.layer.precision.out);
            let own = blocks(l.layer.out_channels().into());
            let skip = if out.interleaved() {
                (blocks(out.width.into()) - own) * op
            } else {
                0
            };
            LayerBases {
                input: placement.buffers[io.input].at as u32,
                output: (placement.buffers[io.output].at + u64::from(io.block) * op) as u32,
                weight: 0,
                pixel_skip: skip as u32,
            }
        })
        .collect()
}
