//! DLA task rules (research/nvdla.md §1.5, §2.1–§2.2): descriptor blobs
//! reachable and sized for `num_operations`, network-desc indices, op heads,
//! and the dependency graph (consumer types, same-engine chains, dependency
//! counts).

use super::{engines, Sink, VerifyOptions};
use crate::desc::container::{op_type, OP_CONTAINER_SIZE, SURFACE_CONTAINER_SIZE};
use crate::desc::{CommonOpDesc, Descriptor, LutParam, NetworkDesc};
use crate::layout::{blob_bytes, DlaTaskDescs};
use crate::model::Loadable;

pub(super) fn check(l: &Loadable, t: usize, d: &DlaTaskDescs, opts: &VerifyOptions, s: &mut Sink) {
    let at = format!("task_list[{t}]");
    let nd = match &d.network.value {
        Ok(nd) => nd,
        Err(e) => {
            s.error("task-descriptor", format!("{at}.network_desc"), e.clone());
            return;
        }
    };
    let Some(task) = l.task_list.get(t) else {
        return;
    };
    network(nd, task.address_list.len(), &at, s);
    let n = usize::from(nd.num_operations) * usize::from(nd.num_rois.max(1));
    let abi = opts.abi;
    let sizes = [
        (
            "dep_graph",
            &d.deps.blob,
            &d.deps.value.as_ref().err(),
            CommonOpDesc::size(abi),
            n,
        ),
        (
            "op_list",
            &d.ops.blob,
            &d.ops.value.as_ref().err(),
            OP_CONTAINER_SIZE,
            n,
        ),
        (
            "surf_list",
            &d.surfaces.blob,
            &d.surfaces.value.as_ref().err(),
            SURFACE_CONTAINER_SIZE,
            n,
        ),
        (
            "lut_list",
            &d.luts.blob,
            &d.luts.value.as_ref().err(),
            LutParam::size(abi),
            usize::from(nd.num_luts),
        ),
    ];
    for (name, blob, err, stride, count) in sizes {
        if let Some(e) = err {
            s.error("task-descriptor", format!("{at}.{name}"), e.to_string());
            continue;
        }
        let Some(b) = blob else {
            if count > 0 {
                s.error(
                    "descriptor-size",
                    format!("{at}.{name}"),
                    format!("no blob for {count} entries"),
                );
            }
            continue;
        };
        let len = blob_bytes(l, *b).len();
        if len < stride * count {
            s.error(
                "descriptor-size",
                format!("{at}.{name}"),
                format!(
                    "blob is {len} bytes, {count} entries need {}",
                    stride * count
                ),
            );
        }
    }
    let Ok(deps) = &d.deps.value else { return };
    let deps = &deps[..deps.len().min(usize::from(nd.num_operations))];
    op_heads(nd, deps, &at, s);
    graph(deps, &at, s);
    chains(deps, &nd.op_head, &at, s);
    engines::check(l, t, nd, d, deps, opts, s);
}

fn network(nd: &NetworkDesc, task_addresses: usize, at: &str, s: &mut Sink) {
    let loc = format!("{at}.network_desc");
    if usize::from(nd.num_addresses) != task_addresses {
        s.error(
            "num-addresses",
            format!("{loc}.num_addresses"),
            format!(
                "{} but the task address list has {task_addresses} entries",
                nd.num_addresses
            ),
        );
    }
    if nd.num_rois == 0 {
        s.error(
            "num-rois",
            format!("{loc}.num_rois"),
            "0; must be at least 1",
        );
    }
    let limit = i64::from(nd.num_addresses);
    for (field, v, optional) in [
        ("operation_desc_index", nd.operation_desc_index, false),
        ("surface_desc_index", nd.surface_desc_index, false),
        ("dependency_graph_index", nd.dependency_graph_index, false),
        ("lut_data_index", nd.lut_data_index, true),
        ("roi_array_index", nd.roi_array_index, true),
        ("surface_index", nd.surface_index, true),
        ("stat_list_index", nd.stat_list_index, true),
    ] {
        let v = i64::from(v);
        if (optional && v == -1) || (0..limit).contains(&v) {
            continue;
        }
        s.error(
            "descriptor-index",
            format!("{loc}.{field}"),
            format!("{v} outside the task's {limit} addresses"),
        );
    }
}

fn op_heads(nd: &NetworkDesc, deps: &[CommonOpDesc], at: &str, s: &mut Sink) {
    for (ty, &head) in nd.op_head.iter().enumerate() {
        if head == -1 {
            continue;
        }
        let loc = format!("{at}.network_desc.op_head[{}]", op_type::name(ty as u8));
        match usize::try_from(head).ok().and_then(|h| deps.get(h)) {
            None => s.error(
                "op-head",
                loc,
                format!("{head} is not an op (num_operations {})", deps.len()),
            ),
            Some(dep) if usize::from(dep.op_type) != ty => s.error(
                "op-head",
                loc,
                format!(
                    "op {head} is {}, not {}",
                    op_type::name(dep.op_type),
                    op_type::name(ty as u8)
                ),
            ),
            Some(_) => {}
        }
    }
    for ty in 0..op_type::NUM {
        let any = deps.iter().any(|d| usize::from(d.op_type) == ty);
        if any && nd.op_head.get(ty) == Some(&-1) {
            s.error(
                "op-head",
                format!("{at}.network_desc.op_head[{}]", op_type::name(ty as u8)),
                "-1 but the task has ops of this type; they never run",
            );
        }
    }
}

fn graph(deps: &[CommonOpDesc], at: &str, s: &mut Sink) {
    let n = deps.len();
    let mut incoming = vec![0usize; n];
    for (i, d) in deps.iter().enumerate() {
        let loc = format!("{at}.dep_graph[{i}]");
        if usize::try_from(d.index).ok() != Some(i) {
            // The firmware replaces the stored index with the slot it read
            // the entry from (cache.c, dla_get_op_desc), so this is harmless.
            s.warn(
                "dep-index",
                format!("{loc}.index"),
                format!("{} at slot {i}; compilers write the slot", d.index),
            );
        }
        if usize::from(d.op_type) >= op_type::NUM {
            s.error(
                "op-type",
                format!("{loc}.op_type"),
                format!("unknown processor {}", d.op_type),
            );
        }
        for (ty, c) in d.consumers.iter().enumerate() {
            if c.index == -1 {
                continue;
            }
            let cl = format!("{loc}.consumers[{}]", op_type::name(ty as u8));
            let Some(j) = usize::try_from(c.index).ok().filter(|&j| j < n) else {
                s.error(
                    "consumer",
                    cl,
                    format!("op {} does not exist ({n} ops)", c.index),
                );
                continue;
            };
            incoming[j] += 1;
            if j == i {
                s.error("consumer", cl.clone(), "an op cannot consume itself");
            }
            if usize::from(deps[j].op_type) != ty {
                s.error(
                    "consumer",
                    cl.clone(),
                    format!(
                        "op {j} is {}, not {}",
                        op_type::name(deps[j].op_type),
                        op_type::name(ty as u8)
                    ),
                );
            }
            if !(1..=5).contains(&c.event) {
                s.error("consumer", cl, format!("unknown event {}", c.event));
            }
        }
        let fp = &d.fused_parent;
        if fp.index != -1 {
            match usize::try_from(fp.index).ok().filter(|&j| j < n) {
                None => s.error(
                    "fused-parent",
                    format!("{loc}.fused_parent"),
                    format!("op {} does not exist", fp.index),
                ),
                Some(j) => {
                    incoming[j] += 1;
                    if deps[j].op_type.wrapping_add(1) != d.op_type {
                        s.error(
                            "fused-parent",
                            format!("{loc}.fused_parent"),
                            format!(
                                "op {j} is {}; a {} op's fused parent must be of type op_type - 1",
                                op_type::name(deps[j].op_type),
                                op_type::name(d.op_type)
                            ),
                        );
                    }
                }
            }
        }
    }
    for (j, d) in deps.iter().enumerate() {
        if usize::from(d.dependency_count) != incoming[j] {
            s.error(
                "dependency-count",
                format!("{at}.dep_graph[{j}].dependency_count"),
                format!(
                    "{} but {} consumer/fused-parent edge(s) point at op {j}",
                    d.dependency_count, incoming[j]
                ),
            );
        }
    }
}

/// Every op of type `t` must be reachable from `op_head[t]`
/// through `consumers[t]`; the firmware dequeues ops along that chain.
fn chains(deps: &[CommonOpDesc], heads: &[i16; 6], at: &str, s: &mut Sink) {
    for (ty, &head) in heads.iter().enumerate() {
        let ops: Vec<usize> = (0..deps.len())
            .filter(|&i| usize::from(deps[i].op_type) == ty)
            .collect();
        let head = usize::try_from(head).ok().filter(|&h| ops.contains(&h));
        let Some(first) = head.or(ops.first().copied()) else {
            continue;
        };
        let mut reached = vec![false; deps.len()];
        let mut cur = Some(first);
        let mut prev = first;
        while let Some(i) = cur {
            if reached[i] {
                s.error(
                    "engine-chain",
                    format!(
                        "{at}.dep_graph[{prev}].consumers[{}]",
                        op_type::name(ty as u8)
                    ),
                    format!(
                        "points back to op {i}: the {} chain loops",
                        op_type::name(ty as u8)
                    ),
                );
                break;
            }
            reached[i] = true;
            prev = i;
            cur = deps[i]
                .consumers
                .get(ty)
                .and_then(|c| usize::try_from(c.index).ok())
                .filter(|&j| j < deps.len());
        }
        for &i in &ops {
            if !reached[i] {
                s.error(
                    "engine-chain",
                    format!("{at}.dep_graph[{i}]"),
                    format!(
                        "{} op {i} is not on the consumers[{}] chain from op {first}; the firmware never dequeues it",
                        op_type::name(ty as u8),
                        op_type::name(ty as u8)
                    ),
                );
            }
        }
    }
}
