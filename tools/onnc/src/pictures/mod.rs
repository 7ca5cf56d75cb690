//! Pictures of an NVDLA compile: the hardware-layer graph as Graphviz DOT
//! (`--emit dot`, [`dot`]) and the activation memory plan as SVG plus the
//! memory map as CSV (`--memory-svg`, `--memory-csv`, [`memory`]).
//!
//! In: the placed [`onnc_nvdla::Program`] (and the planner's totals).
//! Out: text, a pure function of the program.

pub mod dot;
pub mod memory;

/// `s` escaped for a double-quoted DOT string or an XML text/attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out
}
