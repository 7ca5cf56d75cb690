//! The NVDLA memory plan as a picture and a table.
//!
//! In: a placed [`Program`], its tensors' live steps
//! ([`onnc_nvdla::plan::tensor_lives`]: producing op to last reader; views
//! count as steps) and the planner's activation pool size and lower bound
//! (the largest total of simultaneously live activations). Out:
//! * [`csv`]: every placed tensor — `tensor,pool,offset,size,end,first_step,last_step,hw_layer,shape,precision` —
//!   sorted by pool, offset, then tensor order (`hw_layer` is the producer,
//!   `-` for inputs and weights; weights live from step 0 to `ops.len()`);
//! * [`svg`]: the activation pool as a chart, op steps left to right,
//!   addresses bottom to top, one box per tensor (its bytes over its live
//!   steps; a view is drawn inside the tensor it windows), a dashed line at
//!   the lower bound and a solid one at the pool size.
//!
//! ```text
//! tensor,pool,offset,size,end,first_step,last_step,hw_layer,shape,precision
//! conv1,act,0,8192,8192,1,2,conv1_bn1,1x16x16x16,fp16
//! ```

use super::escape;
use onnc_nvdla::{plan::tensor_lives, Pool, Program};

/// A placed tensor of the map.
struct Entry {
    tensor: usize,
    pool: Pool,
    offset: u64,
    size: u64,
    first: usize,
    last: usize,
}

/// Weights are in memory for the whole run: steps `0..=ops.len()`.
fn entries(p: &Program) -> Vec<Entry> {
    let lives = tensor_lives(p);
    let whole = (0, p.ops.len());
    let mut v: Vec<Entry> = p
        .tensors
        .iter()
        .enumerate()
        .filter_map(|(t, x)| {
            let m = x.place?;
            let (first, last) = if x.is_weight() { whole } else { lives[t] };
            Some(Entry {
                tensor: t,
                pool: m.pool?,
                offset: m.offset,
                size: m.size,
                first,
                last,
            })
        })
        .collect();
    v.sort_by_key(|e| (e.pool.as_str(), e.offset, e.tensor));
    v
}

fn producer_layer(p: &Program, t: usize) -> &str {
    p.ops
        .iter()
        .find(|o| o.output == t)
        .map_or("-", |o| o.hw_layer.as_str())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The memory map as CSV (see the module doc).
pub fn csv(p: &Program) -> String {
    let mut s =
        String::from("tensor,pool,offset,size,end,first_step,last_step,hw_layer,shape,precision\n");
    for e in entries(p) {
        let x = &p.tensors[e.tensor];
        let shape = x
            .shape
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("x");
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            csv_field(&x.name),
            e.pool.as_str(),
            e.offset,
            e.size,
            e.offset + e.size,
            e.first,
            e.last,
            csv_field(producer_layer(p, e.tensor)),
            shape,
            x.precision.as_str()
        ));
    }
    s
}

/// Fill colour of the `k`-th box: a fixed cycle (deterministic).
fn fill(k: usize) -> &'static str {
    const C: [&str; 8] = [
        "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
    ];
    C[k % C.len()]
}

/// The activation pool as SVG (see the module doc); `pool_bytes` and
/// `lower_bound` from the planner.
pub fn svg(p: &Program, title: &str, pool_bytes: u64, lower_bound: u64) -> String {
    let act: Vec<Entry> = entries(p)
        .into_iter()
        .filter(|e| e.pool == Pool::Activations)
        .collect();
    let steps = p.ops.len().max(1) as f64 + 1.0;
    let top = pool_bytes.max(lower_bound).max(1) as f64;
    let (left, right, head, foot) = (90.0, 20.0, 40.0, 50.0);
    let (w, h) = (900.0, 520.0);
    let x = |step: f64| left + step / steps * (w - left - right);
    let y = |addr: f64| h - foot - addr / top * (h - head - foot);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"11\">\n"
    );
    s.push_str(&format!(
        "<title>{}: activation memory plan</title>\n",
        escape(title)
    ));
    s.push_str(&format!(
        "<text x=\"{left}\" y=\"20\">{}: activation pool {pool_bytes} bytes, lower bound {lower_bound} bytes, {} tensors, {} op steps</text>\n",
        escape(title),
        act.len(),
        p.ops.len()
    ));
    // Axes.
    s.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n",
        y(0.0),
        x(steps),
        y(0.0)
    ));
    s.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{left}\" y2=\"{}\" stroke=\"black\"/>\n",
        y(0.0),
        y(top)
    ));
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">op step (execution order)</text>\n",
        (left + w - right) / 2.0,
        h - 15.0
    ));
    s.push_str(&format!(
        "<text x=\"15\" y=\"{}\" transform=\"rotate(-90 15 {})\" text-anchor=\"middle\">address (bytes)</text>\n",
        (head + h - foot) / 2.0,
        (head + h - foot) / 2.0
    ));
    for (k, e) in act.iter().enumerate() {
        let name = &p.tensors[e.tensor].name;
        let (x0, x1) = (x(e.first as f64), x(e.last as f64 + 1.0));
        let (y0, y1) = (y((e.offset + e.size) as f64), y(e.offset as f64));
        s.push_str(&format!(
            "<rect class=\"tensor\" x=\"{x0:.2}\" y=\"{y0:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{}\" fill-opacity=\"0.6\" stroke=\"black\" stroke-width=\"0.5\"><title>{} offset {} size {} steps {}..{}</title></rect>\n",
            (x1 - x0).max(0.5),
            (y1 - y0).max(0.5),
            fill(k),
            escape(name),
            e.offset,
            e.size,
            e.first,
            e.last
        ));
    }
    // The lower bound is labelled on the left, the pool size on the right:
    // when the plan meets the bound the two lines coincide.
    for (bytes, label, dash, at, anchor) in [
        (
            lower_bound,
            "lower bound (max live bytes)",
            " stroke-dasharray=\"6 4\"",
            left + 4.0,
            "start",
        ),
        (pool_bytes, "activation pool", "", x(steps), "end"),
    ] {
        let yy = y(bytes as f64);
        s.push_str(&format!(
            "<line class=\"{}\" x1=\"{left}\" y1=\"{yy:.2}\" x2=\"{:.2}\" y2=\"{yy:.2}\" stroke=\"#c00000\"{dash}/>\n",
            if dash.is_empty() { "pool" } else { "lower-bound" },
            x(steps)
        ));
        s.push_str(&format!(
            "<text x=\"{at:.2}\" y=\"{:.2}\" text-anchor=\"{anchor}\" fill=\"#c00000\">{label}: {bytes}</text>\n",
            yy - 3.0
        ));
    }
    s.push_str("</svg>\n");
    s
}
