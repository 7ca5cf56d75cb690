//! The functions of a `builtin.module`, and the ONNX graph of one.
//!
//! In: a module (or a `func.func`). Out: its functions with bodies in
//! order, its `@main_graph`, or one function's graph with the location of
//! each node (conversion errors emitted at their ops). The one conversion
//! of a whole module into in-memory IR and back is
//! [`crate::pipeline::functions`]; these are its building blocks, also used
//! by translations that read one function.

use crate::export::onnx::graph_and_locations;
use melior::ir::{block::BlockLike, operation::OperationLike, Location, OperationRef, RegionLike};
use onnc_dialects::ir;
use onnc_onnx::Graph;
use std::collections::HashMap;

/// The functions with bodies directly inside `module`, in order.
pub fn functions<'c, 'a>(module: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut funcs = Vec::new();
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return funcs;
    };
    let mut op = body.first_operation();
    while let Some(o) = op {
        if o.name().as_string_ref().as_str() == Ok("func.func")
            && o.region(0).is_ok_and(|r| r.first_block().is_some())
        {
            funcs.push(o);
        }
        op = o.next_in_block();
    }
    funcs
}

/// The module's `@main_graph`, or its only function.
pub fn main_function<'c, 'a>(
    module: &OperationRef<'c, 'a>,
) -> Result<OperationRef<'c, 'a>, String> {
    let funcs = functions(module);
    let named = funcs.iter().find(|f| {
        f.attribute("sym_name")
            .ok()
            .and_then(ir::str_attr)
            .as_deref()
            == Some("main_graph")
    });
    match (named, funcs.len()) {
        (Some(f), _) => Ok(*f),
        (None, 1) => Ok(funcs[0]),
        (None, n) => Err(format!(
            "expected @main_graph or exactly one function, found {n} functions"
        )),
    }
}

/// The graph of `func` and the location of each node, or `None` after
/// emitting every conversion error at its op (prefixed with `pass`).
pub fn graph_or_report<'c>(
    func: &OperationRef<'c, '_>,
    pass: &str,
) -> Option<(Graph, HashMap<String, Location<'c>>)> {
    match graph_and_locations(func) {
        Ok(g) => Some(g),
        Err(errors) => {
            for (at, e) in errors {
                ir::emit_error(at, &format!("{pass}: {e}"));
            }
            None
        }
    }
}
