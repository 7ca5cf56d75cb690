//! Sizes computed from the input are checked before any rule allocates.
//!
//! In: the graph to legalize. Out: `Ok`, or [`Error::Graph`] naming the
//! node whose result (as shape inference computes it) would exceed
//! `onnc_tensor::limits::MAX_TENSOR_BYTES`. Rules materialise tensors sized
//! by their op's output — the average-pool pad correction builds one factor
//! per output element — so an output of 2^62 rows (pads of `i64::MAX`) used
//! to abort on an 8 GB allocation; now it is refused here, by name.

use onnc_onnx::Graph;
use onnc_tensor::limits::{checked_bytes, MAX_TENSOR_BYTES};

use crate::error::{Error, Result};

/// Refuses a graph with a value above [`MAX_TENSOR_BYTES`]. Values whose
/// shapes inference cannot compute are left to the rules.
pub(crate) fn check_sizes(graph: &Graph) -> Result<()> {
    let Ok(types) = onnc_onnx::infer_graph(graph) else {
        return Ok(());
    };
    for node in &graph.nodes {
        for out in &node.outputs {
            let Some(shape) = types.get(out).and_then(|t| t.static_shape()) else {
                continue;
            };
            let dtype = types[out].dtype;
            if let Err(e) = checked_bytes(&shape, dtype.size(), MAX_TENSOR_BYTES) {
                return Err(Error::Graph {
                    node: node.name.clone(),
                    message: format!("result '{out}': {e}"),
                });
            }
        }
    }
    Ok(())
}
