//! What a legalization run did: sizes, iterations, why it stopped, time,
//! and which rules fired how often.
//!
//! In: egg's runner report and the analysis' counters. Out: [`Report`]
//! (with a `Display` for `--legalize-report`).
//!
//! ```
//! let r = onnc_legalize::Report::default();
//! assert!(r.to_string().contains("stop reason"));
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// Why saturation stopped.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum StopReason {
    /// No rule changed the e-graph: every rewrite was explored.
    #[default]
    Saturated,
    /// The iteration limit was reached.
    IterationLimit(usize),
    /// The e-node limit was reached.
    NodeLimit(usize),
    /// The time limit was reached.
    TimeLimit(Duration),
    /// Something else (egg's message).
    Other(String),
}

impl StopReason {
    /// When saturation stopped before every rewrite was explored: what
    /// stopped it and which option raises that limit (a note for the user
    /// beside a refusal); `None` when the e-graph saturated.
    ///
    /// ```
    /// use onnc_legalize::StopReason;
    /// assert!(StopReason::Saturated.incomplete().is_none());
    /// assert!(StopReason::NodeLimit(200_000).incomplete().unwrap().contains("node-limit"));
    /// ```
    pub fn incomplete(&self) -> Option<String> {
        let (what, option) = match self {
            StopReason::Saturated => return None,
            StopReason::IterationLimit(n) => (
                format!("its iteration limit ({n} iterations)"),
                "iter-limit",
            ),
            StopReason::NodeLimit(n) => (format!("its e-node limit ({n} e-nodes)"), "node-limit"),
            StopReason::TimeLimit(t) => (
                format!("its time limit ({:.0} s)", t.as_secs_f64()),
                "time-limit-ms",
            ),
            StopReason::Other(m) => (format!("'{m}'"), "node-limit"),
        };
        Some(format!(
            "legalization stopped at {what} before trying every rewrite, so some of these ops may \
             have a legal form it did not reach; a larger onnc-legalize{{{option}=…}} explores further"
        ))
    }
}

impl From<&egg::StopReason> for StopReason {
    fn from(s: &egg::StopReason) -> StopReason {
        match s {
            egg::StopReason::Saturated => StopReason::Saturated,
            egg::StopReason::IterationLimit(n) => StopReason::IterationLimit(*n),
            egg::StopReason::NodeLimit(n) => StopReason::NodeLimit(*n),
            egg::StopReason::TimeLimit(t) => StopReason::TimeLimit(Duration::from_secs_f64(*t)),
            egg::StopReason::Other(m) => StopReason::Other(m.clone()),
        }
    }
}

/// Statistics of one run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Target name.
    pub target: String,
    /// Nodes in the input graph.
    pub input_nodes: usize,
    /// Nodes in the output graph.
    pub output_nodes: usize,
    /// E-nodes after saturation.
    pub enodes: usize,
    /// E-classes after saturation.
    pub eclasses: usize,
    /// Saturation iterations.
    pub iterations: usize,
    /// Why saturation stopped.
    pub stop_reason: StopReason,
    /// Time to build the e-graph.
    pub build_time: Duration,
    /// Time saturating.
    pub saturate_time: Duration,
    /// Time extracting and rebuilding.
    pub extract_time: Duration,
    /// Cost of the extracted graph (see [`crate::cost`]).
    pub cost: f64,
    /// How often each rule changed the e-graph, by rule name.
    pub rules_fired: BTreeMap<&'static str, usize>,
}

impl Report {
    /// Total time.
    pub fn total_time(&self) -> Duration {
        self.build_time + self.saturate_time + self.extract_time
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "legalize report ({})", self.target)?;
        writeln!(f, "  nodes: {} -> {}", self.input_nodes, self.output_nodes)?;
        writeln!(
            f,
            "  e-graph: {} e-nodes, {} e-classes, {} iterations",
            self.enodes, self.eclasses, self.iterations
        )?;
        writeln!(f, "  stop reason: {:?}", self.stop_reason)?;
        writeln!(
            f,
            "  time: build {:?}, saturate {:?}, extract {:?}",
            self.build_time, self.saturate_time, self.extract_time
        )?;
        writeln!(f, "  cost: {:.1}", self.cost)?;
        for (rule, n) in &self.rules_fired {
            writeln!(f, "  fired {n:>5} × {rule}")?;
        }
        Ok(())
    }
}
