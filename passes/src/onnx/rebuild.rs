//! The shared shape of graph-level passes: each `func.func` of a module is
//! turned into an ONNX graph, transformed in plain Rust, and rebuilt.
//!
//! In: a `builtin.module`, a pass name (for messages) and a transform
//! `Graph → Graph`. Out: the module with every function replaced by its
//! rebuilt form (locations and argument/result names kept), or diagnostics at
//! the ops the transform or the conversion blamed.
//!
//! ```text
//! rebuild_functions(module, "onnx-simplify", |graph, _locs| {
//!     simplify(&mut graph, limit).map(|_| graph).map_err(|e| vec![(None, e)])
//! })
//! ```

use crate::{export::onnx::graph_and_locations, import::onnx::build_main_func};
use melior::ir::{block::BlockLike, operation::OperationLike, Location, OperationRef, RegionLike};
use onnc_dialects::{ir, pass_api::PassFailed};
use onnc_onnx::Graph;
use std::collections::HashMap;

/// A problem the transform found: at a node's location when known, else at the function.
pub type Blame<'c> = (Option<Location<'c>>, String);

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

/// Runs `transform` on the graph of every function and rebuilds each.
/// Returns `Err(PassFailed)` after emitting every problem as an error.
pub fn rebuild_functions<'c>(
    module: OperationRef<'c, '_>,
    pass: &str,
    mut transform: impl FnMut(
        Graph,
        &HashMap<String, Location<'c>>,
        &str,
    ) -> Result<Graph, Vec<Blame<'c>>>,
) -> Result<(), PassFailed> {
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut failed = false;
    for func in functions(&module) {
        let floc = func.location();
        let name = func
            .attribute("sym_name")
            .ok()
            .and_then(ir::str_attr)
            .unwrap_or_default();
        let Some((graph, locs)) = graph_or_report(&func, pass) else {
            failed = true;
            continue;
        };
        let graph = match transform(graph, &locs, &name) {
            Ok(g) => g,
            Err(blames) => {
                for (at, e) in blames {
                    ir::emit_error(at.unwrap_or(floc), &e);
                }
                failed = true;
                continue;
            }
        };
        let built = ir::with_context(&module, |context| {
            build_main_func(context, graph, &name, &name).map(|f| {
                body.insert_operation_before(func, f);
            })
        });
        match built {
            Ok(()) => {
                ir::erase_if_unused(func);
            }
            Err(e) => {
                for m in e.0 {
                    ir::emit_error(
                        floc,
                        &format!("{pass}: rebuilding the function failed: {m}"),
                    );
                }
                failed = true;
            }
        }
    }
    if failed {
        Err(PassFailed)
    } else {
        Ok(())
    }
}
