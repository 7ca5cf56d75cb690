//! Loadable emission: a planned [`Program`] → an NVDLA [`Loadable`].
//!
//! In: a `Program` whose every non-fused tensor has a [`Placement`](crate::Placement)
//! (from `plan`), and [`EmitOptions`] (the descriptor ABI). Out: the
//! loadable model ([`emit`]; `Loadable::write()` gives the bytes), or the
//! bytes directly ([`emit_bytes_counted`]: the same bytes, with the weights
//! packed in parallel straight into the output buffer). Layout follows the
//! official compiler (research/nvdla.md §1.5):
//!
//! * memories: 4 KiB dead page; weight pool `ALLOC|SET` with one raw blob
//!   `tb-<tensor id>` per weight at its planned offset; activation pool
//!   `ALLOC`; one bindable entry per network input/output (bind ids from
//!   `TensorKind::Input/Output`, one tensor desc each); then per task its
//!   context entries (DLA: addr0, dep_graph, op_list, surf_list, lut_list,
//!   a 4 KiB dummy; EMU: addr0, op_list, op_buf_list, three dummies);
//! * addresses: dead page, one per placed region ([`memory`]), one per
//!   context entry; a task's address list is `[addr0, 1..Ni, context…]`;
//! * tasks: one DLA task per run of consecutive DLA ops, one EMU task per
//!   run of EMU ops (virtual ops emit nothing and split no run); task 0
//!   signals event val 1, task i waits val i and signals val i+1; one submit
//!   per task;
//! * relocations: line and surface stride of every bindable cube;
//! * blobs sorted by name. Bytes are a pure function of the input.
//!
//! ```no_run
//! use onnc_nvdla::emit::{emit, EmitOptions};
//! # let program: onnc_nvdla::Program = unimplemented!();
//! let loadable = emit(&program, &EmitOptions::default())?;
//! std::fs::write("model.nvdla", loadable.write())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod attrs;
mod chan_split;
pub(crate) mod chunking;
mod deps;
mod dla;
mod emu;
mod encode;

mod locate;
pub mod lut;
pub mod lut_fn;
pub mod lut_fp16;
mod lut_sdp;
mod memory;
mod pdp_split;
pub mod quant;
mod split;
mod split_conv;
pub mod weights;

use std::collections::BTreeMap;

use rayon::prelude::*;

use onnc_nvdla_loadable::desc::container::{OP_CONTAINER_SIZE, SURFACE_CONTAINER_SIZE};
use onnc_nvdla_loadable::desc::{
    container::encode_array, DataCube, Descriptor, EmuNetworkDesc, LutParam, NetworkDesc, OpSlot,
    SurfaceDesc, SurfaceSlot,
};
use onnc_nvdla_loadable::enums::{
    sub_interface, EventOp, EventType, Interface, MemoryFlags, RelocType,
};
use onnc_nvdla_loadable::{
    AddressListEntry, Blob, EventListEntry, Loadable, MemoryListEntry, RelocListEntry, Reserved,
    SubmitListEntry, TaskListEntry, Version,
};

pub use chunking::conv_macs;

pub use locate::{locate, Located};
pub use onnc_nvdla_loadable::Abi;
pub use split_conv::split_convs;

use crate::config::Config;
use crate::program::{Engine, Program, TensorId, TensorKind};
use crate::{Error, Result};
use memory::{MemPlan, PAGE};

/// Emitter settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EmitOptions {
    /// Descriptor layout: [`Abi::Current`] (firmware 0.12.x, default) or
    /// [`Abi::Legacy`] (2018: the golden files and ONNC).
    pub abi: Abi,
}

/// Version written into DLA descriptor blobs.
fn dla_version(abi: Abi) -> Version {
    match abi {
        Abi::Current => Version::new(0, 12, 3),
        Abi::Legacy => Version::new(0, 11, 0),
    }
}

/// `EMULATOR_VERSION`.
const EMU_VERSION: Version = Version::new(0, 0, 1);

/// Byte offsets of `line_stride` / `surf_stride` inside a data cube.
fn stride_offsets(abi: Abi) -> (u64, u64) {
    match abi {
        Abi::Current => (20, 24),
        Abi::Legacy => (16, 20),
    }
}

/// Emits `p` as a loadable.
pub fn emit(p: &Program, opts: &EmitOptions) -> Result<Loadable> {
    Ok(emit_counted(p, opts)?.0)
}

/// Emits `p` as a loadable and says how many descriptors each op became.
///
/// Out: the loadable and, indexed like `p.ops`, the number of operation
/// descriptors written for the op: 1 for an ordinary DLA or EMU op, one per
/// row band or channel chunk for a split convolution and its fused SDP, 0
/// for virtual views (reshape, concat, slice), which emit nothing. The sum
/// is the number of ops in the loadable's task op lists.
pub fn emit_counted(p: &Program, opts: &EmitOptions) -> Result<(Loadable, Vec<usize>)> {
    let cfg = Config::get(p.config);
    let (mut l, counts, pending) = Emitter::new(p, opts)?.run()?;
    let filled: Vec<Vec<u8>> = pending
        .par_iter()
        .map(|w| w.encoded.pack_vec(p, &cfg, w.tensor))
        .collect();
    for (w, data) in pending.iter().zip(filled) {
        l.blobs[w.blob].data = data;
    }
    Ok((l, counts))
}

/// [`emit_counted`], serialized: the loadable's bytes (those
/// `Loadable::write()` gives) and the descriptors per op. The container is
/// written first with room for every weight blob, then the weights are
/// packed into that room in parallel, each into its own bytes: no weight is
/// encoded into a buffer of its own and copied, and the bytes do not depend
/// on the number of threads.
pub fn emit_bytes_counted(p: &Program, opts: &EmitOptions) -> Result<(Reserved, Vec<usize>)> {
    emit_bytes_packing(p, opts, &|_, _| ())
}

/// [`emit_bytes_counted`], calling `packed(n, total)` after each weight
/// blob of `n` bytes is packed, `total` being the bytes of all of them
/// (from the packing threads, in any order; the `n` sum to `total`): for
/// a progress bar over the bytes. The loadable's bytes are the same.
pub fn emit_bytes_packing(
    p: &Program,
    opts: &EmitOptions,
    packed: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Reserved, Vec<usize>)> {
    let cfg = Config::get(p.config);
    let (l, counts, pending) = Emitter::new(p, opts)?.run()?;
    let reserve: Vec<(usize, usize)> = pending.iter().map(|w| (w.blob, w.encoded.len())).collect();
    let total: usize = reserve.iter().map(|&(_, n)| n).sum();
    let mut out = l.write_reserving(&reserve);
    drop(l);
    // Cut the buffer into the payloads, in order of position.
    let mut jobs: Vec<(std::ops::Range<usize>, &PendingWeight)> =
        out.payloads.iter().cloned().zip(&pending).collect();
    jobs.sort_by_key(|(r, _)| r.start);
    let mut rest: &mut [u8] = out.bytes_mut();
    let mut taken = 0;
    let mut parts: Vec<(&mut [u8], &PendingWeight)> = Vec::with_capacity(jobs.len());
    for (r, w) in jobs {
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(r.start - taken);
        let (payload, tail) = tail.split_at_mut(r.len());
        parts.push((payload, w));
        rest = tail;
        taken = r.end;
    }
    parts.into_par_iter().for_each(|(payload, w)| {
        if let TensorKind::Weight(values) = &p.tensors[w.tensor].kind {
            w.encoded.layout.pack(values, &cfg, payload);
        }
        packed(payload.len(), total);
    });
    Ok((out, counts))
}

/// A weight blob whose bytes are packed last: blob index in the loadable,
/// the weight tensor and its layout.
struct PendingWeight {
    blob: usize,
    tensor: TensorId,
    encoded: encode::Encoded,
}

/// Runs every check [`emit`] makes (weight encoding, CBUF plans and
/// splits, descriptor fields, memory regions, fused paths) and discards
/// the loadable: `Ok` exactly when `emit` with the default options would
/// succeed, else the same error. For a pipeline that stops before the
/// loadable (`--emit mlir`) but must refuse what emission would refuse.
pub fn preflight(p: &Program) -> Result<()> {
    emit(p, &EmitOptions::default()).map(|_| ())
}

struct Emitter<'a> {
    p: &'a Program,
    cfg: Config,
    abi: Abi,
    mem: MemPlan,
    blobs: Vec<Blob>,
    tasks: Vec<TaskListEntry>,
    relocs: Vec<RelocListEntry>,
}

/// A run of ops that becomes one task.
struct Run {
    emu: bool,
    ops: Vec<usize>,
}

/// One descriptor of a DLA task: an op, or one row band of a split conv
/// or of its fused SDP.
type Job = (usize, Option<split::Band>);

/// Cuts a DLA run's descriptors into tasks of at most `max` (a task numbers
/// its ops with signed 16-bit indices), only where the next descriptor does
/// not read an on-the-fly fused stream (a conv's accumulator, an SDP feeding
/// a PDP), which must stay in its producer's task. Out: the parts, in order;
/// an error if no such cut exists within `max` descriptors.
fn task_parts(p: &Program, jobs: Vec<Job>, max: usize) -> Result<Vec<Vec<Job>>> {
    if jobs.len() <= max {
        return Ok(vec![jobs]);
    }
    let fused_input = |j: &Job| {
        p.ops[j.0]
            .operands()
            .any(|t| matches!(p.tensors[t].kind, TensorKind::Fused))
    };
    let mut parts = Vec::new();
    let mut rest = jobs;
    while rest.len() > max {
        let cut = (1..=max)
            .rev()
            .find(|&k| !fused_input(&rest[k]))
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "a run of {} fused hardware ops cannot be cut into tasks of at most {max} (a task numbers its ops with 16-bit indices)",
                    rest.len()
                ))
            })?;
        let tail = rest.split_off(cut);
        parts.push(rest);
        rest = tail;
    }
    parts.push(rest);
    Ok(parts)
}

fn runs(p: &Program) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (i, op) in p.ops.iter().enumerate() {
        if op.engine.is_virtual() {
            continue;
        }
        let emu = op.engine == Engine::Emu;
        match out.last_mut() {
            Some(r) if r.emu == emu => r.ops.push(i),
            _ => out.push(Run { emu, ops: vec![i] }),
        }
    }
    out
}

/// The descriptors of a DLA run: each op once, except a conv that needs
/// row bands, which is followed band by band by its fused SDP
/// (`conv b0, sdp b0, conv b1, sdp b1, …`, as the official compiler orders
/// split convolutions).
fn dla_jobs(cx: &dla::Ctx<'_>, ops: &[usize]) -> Result<Vec<Job>> {
    let p = cx.p;
    let mut out = Vec::new();
    let mut k = 0;
    while k < ops.len() {
        let op = &p.ops[ops[k]];
        if op.engine != Engine::Conv {
            out.push((ops[k], None));
            k += 1;
            continue;
        }
        let sdp = ops.get(k + 1).copied().filter(|&s| {
            p.ops[s].engine == Engine::Sdp && p.ops[s].inputs.first() == Some(&Some(op.output))
        });
        let bands = cx.conv_bands(op, sdp.map(|s| &p.ops[s]))?;
        if bands.len() == 1 && bands[0].chunk.is_none() {
            out.push((ops[k], None));
            k += 1;
            continue;
        }
        let Some(sdp) = sdp else {
            return Err(Error::Op {
                engine: "conv".into(),
                hw_layer: op.hw_layer.clone(),
                problem: format!(
                    "needs {} row bands or channel chunks to fit the CBUF, so the SDP reading its accumulator '{}' must follow it directly in the same task",
                    bands.len(),
                    p.tensors[op.output].name
                ),
            });
        };
        for b in bands {
            out.push((ops[k], Some(b)));
            out.push((sdp, Some(b)));
        }
        k += 2;
    }
    Ok(out)
}

impl<'a> Emitter<'a> {
    fn new(p: &'a Program, opts: &EmitOptions) -> Result<Self> {
        let cfg = Config::get(p.config);
        let mem = MemPlan::new(p, &cfg)?;
        Ok(Emitter {
            p,
            cfg,
            abi: opts.abi,
            mem,
            blobs: Vec::new(),
            tasks: Vec::new(),
            relocs: Vec::new(),
        })
    }

    fn blob(
        &mut self,
        name: String,
        interface: Interface,
        sub: u32,
        version: Version,
        data: Vec<u8>,
    ) {
        let sub = if self.abi == Abi::Legacy { 0 } else { sub };
        self.blobs.push(Blob {
            name,
            size: data.len() as u64,
            interface,
            sub_interface: sub,
            version: Some(version),
            data,
        });
    }

    /// Adds an `ALLOC|SET` memory holding blob `name` at offset 0 and its address.
    fn context(&mut self, name: Option<String>, size: usize) -> (u16, u16) {
        let id = self.mem.memories.len();
        let (flags, contents, offsets) = match name {
            Some(n) => (
                MemoryFlags(MemoryFlags::ALLOC.0 | MemoryFlags::SET.0),
                vec![n],
                vec![0],
            ),
            None => (MemoryFlags::ALLOC, vec![], vec![]),
        };
        self.mem.memories.push(MemoryListEntry {
            id: id as u16,
            flags,
            size: size as u64,
            alignment: PAGE as u32,
            contents,
            offsets,
            ..Default::default()
        });
        let a = self.mem.addresses.len();
        self.mem.addresses.push(AddressListEntry {
            id: a as u16,
            mem_id: id as u16,
            offset: 0,
            size: size as u64,
        });
        (id as u16, a as u16)
    }

    /// The loadable with the weight blobs' data left empty, the descriptors
    /// per op and the weights to pack into those blobs.
    fn run(mut self) -> Result<(Loadable, Vec<usize>, Vec<PendingWeight>)> {
        let p = self.p;
        let mut weights = encode::encode_all(p, &self.cfg)?;
        for op in p.ops.iter().filter(|o| !o.engine.is_virtual()) {
            for t in op.operands().chain(std::iter::once(op.output)) {
                if !matches!(p.tensors[t].kind, TensorKind::Fused) {
                    self.mem.address(p, t)?;
                }
            }
        }
        let runs = runs(p);
        let mut jobs: Vec<Vec<Job>> = Vec::with_capacity(runs.len());
        let mut windows = Vec::new();
        {
            let cx = dla::Ctx {
                p,
                cfg: &self.cfg,
                mem: &self.mem,
                weights: &weights,
            };
            for run in &runs {
                let js = if run.emu {
                    Vec::new()
                } else {
                    dla_jobs(&cx, &run.ops)?
                };
                for (o, band) in &js {
                    for (t, part) in cx.band_windows(&p.ops[*o], band.as_ref())? {
                        windows.push((t, cx.part_region(t, part)?));
                    }
                }
                jobs.push(js);
            }
        }
        // A DLA run longer than a task's 16-bit op indices allow becomes
        // several consecutive tasks (the tasks run one after another).
        let mut tasks: Vec<(bool, Vec<usize>, Vec<Job>)> = Vec::new();
        for (run, js) in runs.iter().zip(jobs) {
            if run.emu {
                tasks.push((true, run.ops.clone(), Vec::new()));
                continue;
            }
            for part in task_parts(p, js, i16::MAX as usize)? {
                tasks.push((false, Vec::new(), part));
            }
        }
        let mut descriptors = vec![0usize; p.ops.len()];
        for (_, ops, js) in &tasks {
            for &o in ops.iter().chain(js.iter().map(|(o, _)| o)) {
                descriptors[o] += 1;
            }
        }
        for (t, (rel, size)) in windows {
            self.mem.address_at(p, t, rel, size)?;
        }
        let ni = self.mem.addresses.len() as u16 - 1;
        let mut weight_blobs = BTreeMap::new();
        if let Some(wm) = self.mem.weight_mem {
            for (&t, e) in &weights {
                let name = format!("tb-{t}");
                let pl = memory::place(p, t)?;
                let m = &mut self.mem.memories[wm as usize];
                m.contents.push(name.clone());
                m.offsets.push(pl.offset);
                self.blob(
                    name.clone(),
                    Interface::NONE,
                    0,
                    Version::default(),
                    Vec::new(),
                );
                if let Some(b) = self.blobs.last_mut() {
                    b.size = e.len() as u64;
                }
                weight_blobs.insert(name, t);
            }
        }
        for (i, (emu, ops, js)) in tasks.iter().enumerate() {
            if *emu {
                self.emu_task(i, ops, ni)?;
            } else {
                self.dla_task(i, js, ni, &weights)?;
            }
        }
        let n = self.tasks.len();
        let mut events = Vec::new();
        for (i, task) in self.tasks.iter_mut().enumerate() {
            if i > 0 {
                task.pre_actions.push(events.len() as u16);
                events.push(EventListEntry {
                    id: events.len() as u16,
                    event_type: EventType::EVENTTYPE0,
                    target: 0,
                    val: i as u32,
                    op: EventOp::WAIT,
                });
            }
            task.post_actions.push(events.len() as u16);
            events.push(EventListEntry {
                id: events.len() as u16,
                event_type: EventType::EVENTTYPE0,
                target: 0,
                val: i as u32 + 1,
                op: EventOp::SIGNAL,
            });
        }
        self.blobs.sort_by(|a, b| a.name.cmp(&b.name));
        let pending = self
            .blobs
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let &t = weight_blobs.get(&b.name)?;
                let encoded = weights.remove(&t)?;
                Some(PendingWeight {
                    blob: i,
                    tensor: t,
                    encoded,
                })
            })
            .collect();
        let loadable = Loadable {
            version: Version::LOADABLE,
            task_list: self.tasks,
            memory_list: self.mem.memories,
            address_list: self.mem.addresses,
            event_list: events,
            blobs: self.blobs,
            tensor_desc_list: self.mem.tensor_descs,
            reloc_list: self.relocs,
            submit_list: (0..n)
                .map(|i| SubmitListEntry {
                    id: i as u16,
                    task_id: vec![i as u16],
                })
                .collect(),
            file_identifier: Some(*b"NVDA"),
            missing_lists: Vec::new(),
        };
        Ok((loadable, descriptors, pending))
    }

    fn reloc(&mut self, cube: &DataCube, at: u64, write_id: u16, interface: Interface) {
        if cube.mem_type != onnc_nvdla_loadable::desc::mem_type::MC || cube.address <= 0 {
            return;
        }
        let address_id = cube.address as u16;
        let is_bind = self
            .mem
            .addresses
            .get(address_id as usize)
            .is_some_and(|a| {
                self.mem.memories[a.mem_id as usize]
                    .flags
                    .contains(MemoryFlags::INPUT)
                    || self.mem.memories[a.mem_id as usize]
                        .flags
                        .contains(MemoryFlags::OUTPUT)
            });
        if !is_bind {
            return;
        }
        let (line, surf) = stride_offsets(self.abi);
        for (off, ty) in [(line, RelocType::LINE), (surf, RelocType::SURF)] {
            self.relocs.push(RelocListEntry {
                address_id,
                write_id,
                offset: at + off,
                interface,
                sub_interface: sub_interface::SURFS,
                reloc_type: ty,
            });
        }
    }

    fn dla_task(
        &mut self,
        i: usize,
        jobs: &[Job],
        ni: u16,
        weights: &BTreeMap<usize, encode::Encoded>,
    ) -> Result<()> {
        let p = self.p;
        let cx = dla::Ctx {
            p,
            cfg: &self.cfg,
            mem: &self.mem,
            weights,
        };
        let mut luts: Vec<LutParam> = Vec::new();
        let mut descs = Vec::new();
        let mut nodes = Vec::new();
        for (local, (o, band)) in jobs.iter().enumerate() {
            let op = &p.ops[*o];
            let (d, s, mut node) = cx.describe(op, band.as_ref(), &mut luts)?;
            if let Some(x) = op.inputs.first().copied().flatten() {
                if matches!(p.tensors[x].kind, TensorKind::Fused) {
                    let parent = jobs[..local]
                        .iter()
                        .rposition(|(q, b)| p.ops[*q].output == x && b == band);
                    let parent = parent.filter(|&j| {
                        nodes
                            .get(j)
                            .is_some_and(|n: &deps::Node| n.ty + 1 == node.ty)
                    });
                    node.fused_parent = Some(parent.ok_or_else(|| Error::Op {
                        engine: op.engine.op_name().into(),
                        hw_layer: op.hw_layer.clone(),
                        problem: format!(
                            "reads the fused stream '{}' but the op just before it on the fused path (conv for an SDP, SDP for a PDP) is not in this task",
                            p.tensors[x].name
                        ),
                    })?);
                }
            }
            descs.push((d, s));
            nodes.push(node);
        }
        for (local, (o, _)) in jobs.iter().enumerate() {
            let out = p.ops[*o].output;
            if matches!(p.tensors[out].kind, TensorKind::Fused)
                && !nodes.iter().any(|n| n.fused_parent == Some(local))
            {
                let op = &p.ops[*o];
                return Err(Error::Op {
                    engine: op.engine.op_name().into(),
                    hw_layer: op.hw_layer.clone(),
                    problem: format!(
                        "its fused output '{}' is not read by the next engine on the fused path",
                        p.tensors[out].name
                    ),
                });
            }
        }
        let (deps, heads) = deps::build(&nodes);
        let n = jobs.len();
        let abi = self.abi;
        let dep_bytes = encode_array(&deps, abi);
        let mut op_bytes = Vec::with_capacity(n * OP_CONTAINER_SIZE);
        let mut surf_bytes = Vec::with_capacity(n * SURFACE_CONTAINER_SIZE);
        for (d, s) in &descs {
            op_bytes.extend(
                OpSlot {
                    desc: d.clone(),
                    tail: Vec::new(),
                }
                .encode(abi),
            );
            surf_bytes.extend(
                SurfaceSlot {
                    desc: s.clone(),
                    tail: Vec::new(),
                }
                .encode(abi),
            );
        }
        let num_luts = luts.len();
        if luts.is_empty() {
            luts.push(LutParam::default());
        }
        let lut_bytes = encode_array(&luts, abi);
        let v = dla_version(abi);
        let name = |s: &str| format!("task-{i}-{s}");
        let addr0_size = NetworkDesc::size(abi);
        let (_, a0) = self.context(Some(name("addr0")), addr0_size);
        let (_, ad) = self.context(Some(name("dep_graph")), dep_bytes.len());
        let (_, ao) = self.context(Some(name("op_list")), op_bytes.len());
        let (surf_mem, asu) = self.context(Some(name("surf_list")), surf_bytes.len());
        let (_, al) = self.context(Some(name("lut_list")), lut_bytes.len());
        let (_, ax) = self.context(None, PAGE as usize);
        let nd = NetworkDesc {
            operation_desc_index: (ni + 2) as i16,
            surface_desc_index: (ni + 3) as i16,
            dependency_graph_index: (ni + 1) as i16,
            lut_data_index: (ni + 4) as i16,
            roi_array_index: -1,
            surface_index: -1,
            stat_list_index: -1,
            reserved1: 0,
            op_head: heads,
            num_rois: 1,
            num_operations: n as u16,
            num_luts: num_luts as u16,
            num_addresses: ni + 6,
            input_layer: 0,
            dynamic_roi: 0,
            reserved0: 0,
        };
        self.blob(
            name("addr0"),
            Interface::DLA1,
            sub_interface::ADDR0,
            v,
            nd.encode(abi),
        );
        self.blob(
            name("dep_graph"),
            Interface::DLA1,
            sub_interface::DEPS,
            v,
            dep_bytes,
        );
        self.blob(
            name("op_list"),
            Interface::DLA1,
            sub_interface::OPS,
            v,
            op_bytes,
        );
        self.blob(
            name("surf_list"),
            Interface::DLA1,
            sub_interface::SURFS,
            v,
            surf_bytes,
        );
        self.blob(
            name("lut_list"),
            Interface::DLA1,
            sub_interface::LUTS,
            v,
            lut_bytes,
        );
        let cube = DataCube::size(abi) as u64;
        for (k, (_, s)) in descs.iter().enumerate() {
            let base = (k * SURFACE_CONTAINER_SIZE) as u64;
            let cubes: Vec<&DataCube> = match s {
                SurfaceDesc::Conv(c) => vec![
                    &c.weight_data,
                    &c.wmb_data,
                    &c.wgs_data,
                    &c.src_data,
                    &c.dst_data,
                ],
                SurfaceDesc::Sdp(c) => {
                    vec![&c.src_data, &c.x1_data, &c.x2_data, &c.y_data, &c.dst_data]
                }
                SurfaceDesc::Pdp(c) => vec![&c.src_data, &c.dst_data],
                SurfaceDesc::Cdp(c) => vec![&c.src_data, &c.dst_data],
                SurfaceDesc::Rubik(c) => vec![&c.src_data, &c.dst_data],
                _ => vec![],
            };
            for (j, c) in cubes.into_iter().enumerate() {
                self.reloc(c, base + j as u64 * cube, surf_mem, Interface::DLA1);
            }
        }
        self.tasks.push(TaskListEntry {
            id: i as u16,
            interface: Interface::DLA1,
            instance: -1,
            address_list: std::iter::once(a0)
                .chain(1..=ni)
                .chain([ad, ao, asu, al, ax])
                .collect(),
            pre_actions: vec![],
            post_actions: vec![],
        });
        Ok(())
    }

    fn emu_task(&mut self, i: usize, ops: &[usize], ni: u16) -> Result<()> {
        let p = self.p;
        let abi = self.abi;
        let mut op_bytes = Vec::new();
        let mut buf_bytes = Vec::new();
        let mut bufs = Vec::new();
        for &o in ops {
            let (slot, b) = emu::describe(p, &self.cfg, &self.mem, &p.ops[o], abi)?;
            op_bytes.extend(slot.encode(abi));
            buf_bytes.extend(b.encode(abi));
            bufs.push(b);
        }
        let name = |s: &str| format!("task-{i}-{s}");
        let (_, a0) = self.context(Some(name("addr0")), EmuNetworkDesc::size(abi));
        let (_, ao) = self.context(Some(name("op_list")), op_bytes.len());
        let (buf_mem, ab) = self.context(Some(name("op_buf_list")), buf_bytes.len());
        let dummies: Vec<u16> = (0..3)
            .map(|_| self.context(None, PAGE as usize).1)
            .collect();
        let nd = EmuNetworkDesc {
            operation_desc_index: (ni + 1) as i16,
            operation_buffer_desc_index: (ni + 2) as i16,
            num_operations: ops.len() as u16,
            pad: Vec::new(),
        };
        self.blob(
            name("addr0"),
            Interface::EMU1,
            sub_interface::ADDR0,
            EMU_VERSION,
            nd.encode(abi),
        );
        self.blob(
            name("op_list"),
            Interface::EMU1,
            sub_interface::OPS,
            EMU_VERSION,
            op_bytes,
        );
        self.blob(
            name("op_buf_list"),
            Interface::EMU1,
            sub_interface::SURFS,
            EMU_VERSION,
            buf_bytes,
        );
        let (line, surf) = match abi {
            Abi::Current => (18u64, 22u64),
            Abi::Legacy => (14, 18),
        };
        for (k, b) in bufs.iter().enumerate() {
            for (half, d) in [(0u64, &b.src_data), (256, &b.dst_data)] {
                let address_id = d.address_index as u16;
                let m = self.mem.addresses[address_id as usize].mem_id as usize;
                let flags = self.mem.memories[m].flags;
                if !(flags.contains(MemoryFlags::INPUT) || flags.contains(MemoryFlags::OUTPUT)) {
                    continue;
                }
                let at = (k * 512) as u64 + half;
                for (off, ty) in [(line, RelocType::LINE), (surf, RelocType::SURF)] {
                    self.relocs.push(RelocListEntry {
                        address_id,
                        write_id: buf_mem,
                        offset: at + off,
                        interface: Interface::EMU1,
                        sub_interface: sub_interface::SURFS,
                        reloc_type: ty,
                    });
                }
            }
        }
        self.tasks.push(TaskListEntry {
            id: i as u16,
            interface: Interface::EMU1,
            instance: -1,
            address_list: std::iter::once(a0)
                .chain(1..=ni)
                .chain([ao, ab])
                .chain(dummies)
                .collect(),
            pre_actions: vec![],
            post_actions: vec![],
        });
        Ok(())
    }
}
