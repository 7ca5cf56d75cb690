//! Options of a legalization run, with documented defaults.
//!
//! In: nothing (defaults) or explicit values (the MLIR pass exposes them as
//! `onnc-legalize{node-limit=… iter-limit=… time-limit-ms=… extractor=…}`).
//! Out: [`Options`].
//!
//! ```
//! let o = onnc_legalize::Options::default();
//! assert_eq!(o.node_limit, onnc_legalize::options::DEFAULT_NODE_LIMIT);
//! ```

use crate::extract::ExtractorKind;
use std::time::Duration;

/// Default e-node limit: legalization rules are directional, so the e-graph
/// stays within a small multiple of the input (DenseNet-121: ~4k e-nodes).
pub const DEFAULT_NODE_LIMIT: usize = 200_000;
/// Default iteration limit: rule chains are short (e.g. Gemm → Conv → split
/// → Sum → Add tree is 4 steps); saturation takes well under 20.
pub const DEFAULT_ITER_LIMIT: usize = 30;
/// Default time limit. Generous on purpose: a time limit is the only
/// non-deterministic stop, so it should only guard against pathologies.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(60);
/// Default number of DAG local-search sweeps.
pub const DEFAULT_DAG_PASSES: usize = 2;

/// Knobs of a legalization run.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Stop saturating when the e-graph has this many e-nodes.
    pub node_limit: usize,
    /// Stop saturating after this many iterations.
    pub iter_limit: usize,
    /// Stop saturating after this long.
    pub time_limit: Duration,
    /// Which extractor to use.
    pub extractor: ExtractorKind,
    /// DAG local-search sweeps.
    pub dag_passes: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            node_limit: DEFAULT_NODE_LIMIT,
            iter_limit: DEFAULT_ITER_LIMIT,
            time_limit: DEFAULT_TIME_LIMIT,
            extractor: ExtractorKind::default(),
            dag_passes: DEFAULT_DAG_PASSES,
        }
    }
}
