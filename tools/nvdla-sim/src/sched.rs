//! The firmware scheduler of a DLA task (nvdla-arith.md §12, `scheduler.c`),
//! functionally: which op runs when, and fused pipelines.
//!
//! In: a DLA task's decoded descriptors, the memory, the hardware and the
//! engine table. Out: every op executed once, in an order the firmware
//! allows, or the reason the firmware would fail or hang.
//!
//! Modelled as the firmware does it:
//! * **Queues.** Each processor (BDMA, CONV, SDP, PDP, CDP, RUBIK) starts
//!   at `op_head` and follows `consumers[own type]` of its last queued op.
//!   It has two register groups: an op is *prepared* into a free group,
//!   *programmed* (event `PROGRAMMED` to its consumers), and *enabled* once
//!   its dependency count is 0 (event `ENABLED`). On completion (events
//!   `CDMA_WT_DONE`, `CDMA_DT_DONE` for a conv, then `COMPLETED`) the group
//!   is freed and the next op of that processor is prepared. BDMA defers
//!   programming while its other group is programmed but not enabled
//!   (`dla_bdma_is_ready`).
//! * **Events.** An event decrements the dependency count of every
//!   consumer slot and of the fused-parent slot whose event matches; at 0
//!   the op is enabled (if already programmed, else right after).
//! * **Execution.** An engine processes its ops in queue order; an op runs
//!   when it is enabled and first in its queue. A conv and the SDP reading
//!   its output on the fly (src `mem_type` HW), and an SDP and the PDP
//!   reading its output on the fly, run as one pipeline once every member is
//!   enabled, passing [`Flying`] cubes. Among ready ops the lowest processor
//!   type runs first (results do not depend on it when the compiler's
//!   dependencies are right).
//!
//! Not modelled: ROIs other than one, the SDP/CDP LUT-programming deferral
//! (it only delays register writes), descriptor write-back to DRAM.
//! Firmware errors (bad `op_head`, a consumer of the wrong type, a count
//! going below zero, a queue cycle) are [`Error::Rejected`]; a task that
//! can no longer make progress is a deadlock error listing every op's state.

use crate::engine::{Engines, Flying, Hw, OpCtx};
use crate::error::{At, Error, Result};
use crate::memory::Memory;
use onnc_nvdla_loadable::desc::common::event;
use onnc_nvdla_loadable::desc::{
    mem_type, op_type, CommonOpDesc, Consumer, DataCube, LutParam, OpDesc, OpSlot, SurfaceDesc,
    SurfaceSlot,
};
use onnc_nvdla_loadable::layout::DlaTaskDescs;
use std::collections::VecDeque;

/// A surface an op wrote to memory, handed to the dump hook.
#[derive(Debug, Clone, Copy)]
pub struct Dump<'a> {
    /// Task index.
    pub task: usize,
    /// Op index in the task.
    pub op: usize,
    /// Engine (`SDP`, `PDP`, `CDP`, `RUBIK`, `EMU power`, …).
    pub engine: &'static str,
    /// Width, height, channels.
    pub whc: (u32, u32, u32),
    /// Line and surface stride in bytes.
    pub strides: (u32, u32),
    /// Element precision: INT8 0, INT16 1, FP16 2.
    pub precision: u8,
    /// The surface bytes (`size` bytes from its address).
    pub bytes: &'a [u8],
}

/// The dump hook: called after every op that writes a surface to memory.
pub type DumpHook<'h> = &'h mut dyn FnMut(&Dump);

/// Everything a DLA task run needs besides the descriptors.
pub struct Env<'a, 'h> {
    /// The memory.
    pub mem: &'a mut Memory,
    /// Hardware configuration.
    pub hw: &'a Hw,
    /// Engine models.
    pub engines: &'a Engines,
    /// Dump hook.
    pub dump: Option<DumpHook<'h>>,
}

#[derive(Debug, Clone, Default)]
struct OpState {
    count: u8,
    queued: bool,
    programmed: bool,
    enabled: bool,
    done: bool,
}

#[derive(Debug, Clone, Default)]
struct Proc {
    groups: [Option<usize>; 2],
    tail: Option<usize>,
    order: VecDeque<usize>,
}

struct Task<'d> {
    task: usize,
    n: usize,
    deps: &'d [CommonOpDesc],
    ops: &'d [OpSlot],
    surfs: &'d [SurfaceSlot],
    luts: &'d [LutParam],
    st: Vec<OpState>,
    procs: [Proc; op_type::NUM],
    completed: usize,
    events: VecDeque<(usize, u8)>,
}

/// Runs DLA task `task` (address list `addresses`, descriptors `d`).
pub fn run_dla_task(task: usize, addresses: &[u16], d: &DlaTaskDescs, env: &mut Env) -> Result<()> {
    let at = At {
        task,
        op: None,
        engine: "",
    };
    let rejected = |what: &str, why: &String| Error::Rejected(format!("{at}: {what}: {why}"));
    let nd = d
        .network
        .value
        .as_ref()
        .map_err(|e| rejected("network descriptor", e))?;
    let n = usize::from(nd.num_operations);
    if n == 0 {
        return Ok(());
    }
    if nd.num_rois != 1 {
        return Err(Error::Unsupported {
            at,
            what: format!("num_rois {} (only one ROI is modelled)", nd.num_rois),
        });
    }
    let deps = d
        .deps
        .value
        .as_ref()
        .map_err(|e| rejected("dependency graph", e))?;
    let ops = d.ops.value.as_ref().map_err(|e| rejected("op list", e))?;
    let surfs = d
        .surfaces
        .value
        .as_ref()
        .map_err(|e| rejected("surface list", e))?;
    if deps.len() < n || ops.len() < n || surfs.len() < n {
        return Err(Error::Rejected(format!(
            "{at}: {n} operations but {} dependency, {} op and {} surface descriptors",
            deps.len(),
            ops.len(),
            surfs.len()
        )));
    }
    let luts: &[LutParam] = match &d.luts.value {
        Ok(l) => l,
        Err(e) if nd.num_luts > 0 => return Err(rejected("LUT list", e)),
        Err(_) => &[],
    };
    let mut t = Task {
        task,
        n,
        deps,
        ops,
        surfs,
        luts,
        st: deps[..n]
            .iter()
            .map(|d| OpState {
                count: d.dependency_count,
                ..Default::default()
            })
            .collect(),
        procs: Default::default(),
        completed: 0,
        events: VecDeque::new(),
    };
    t.initiate(&nd.op_head)?;
    while t.completed < t.n {
        let Some(chain) = t.ready_chain()? else {
            return Err(t.deadlock());
        };
        t.execute(&chain, addresses, env)?;
        for &op in &chain {
            t.complete(op)?;
        }
    }
    Ok(())
}

fn engine_name(ty: u8) -> &'static str {
    op_type::name(ty)
}

impl Task<'_> {
    fn at(&self, op: usize) -> At {
        At {
            task: self.task,
            op: Some(op),
            engine: engine_name(self.deps[op].op_type),
        }
    }

    fn reject(&self, op: Option<usize>, what: String) -> Error {
        let at = match op {
            Some(o) => self.at(o),
            None => At {
                task: self.task,
                op: None,
                engine: "",
            },
        };
        Error::Rejected(format!("{at}: {what}"))
    }

    fn ty(&self, op: usize) -> u8 {
        self.deps[op].op_type
    }

    /// An op index from a descriptor, checked as the firmware's cache fetch
    /// would (in range, of processor `want`).
    fn target(&self, from: Option<usize>, index: i16, want: u8, what: &str) -> Result<usize> {
        let i = usize::try_from(index)
            .ok()
            .filter(|&i| i < self.n)
            .ok_or_else(|| {
                self.reject(
                    from,
                    format!("{what} {index} is outside the {} operations", self.n),
                )
            })?;
        if self.ty(i) != want {
            return Err(self.reject(
                from,
                format!(
                    "{what} {i} is a {} op, not {} (the firmware fetches it as {})",
                    engine_name(self.ty(i)),
                    engine_name(want),
                    engine_name(want)
                ),
            ));
        }
        Ok(i)
    }

    fn initiate(&mut self, heads: &[i16; op_type::NUM]) -> Result<()> {
        for (p, &h) in heads.iter().enumerate() {
            if h == -1 {
                continue;
            }
            if h < -1 || usize::try_from(h).is_ok_and(|h| h >= self.n) {
                return Err(self.reject(None, format!("invalid op_head {h} for processor {p}")));
            }
            let what = format!("op_head[{}]", engine_name(p as u8));
            let op = self.target(None, h, p as u8, &what)?;
            self.submit(p, op)?;
            self.dequeue(p)?;
        }
        Ok(())
    }

    fn submit(&mut self, p: usize, op: usize) -> Result<()> {
        if self.st[op].queued {
            return Err(self.reject(
                Some(op),
                format!(
                    "queued twice: the consumers[{}] chain has a cycle",
                    engine_name(p as u8)
                ),
            ));
        }
        let Some(g) = self.procs[p].groups.iter().position(Option::is_none) else {
            return Err(self.reject(Some(op), "both register groups are busy".into()));
        };
        self.st[op].queued = true;
        let pr = &mut self.procs[p];
        pr.groups[g] = Some(op);
        pr.tail = Some(op);
        pr.order.push_back(op);
        if self.is_ready(p, g) {
            self.program(op)?;
        }
        Ok(())
    }

    /// `dla_bdma_is_ready`: BDMA has no shadow registers, so it waits while
    /// its other group is programmed but not enabled.
    fn is_ready(&self, p: usize, g: usize) -> bool {
        if p != usize::from(op_type::BDMA) {
            return true;
        }
        match self.procs[p].groups[1 - g] {
            Some(o) => self.st[o].enabled,
            None => true,
        }
    }

    fn program(&mut self, op: usize) -> Result<()> {
        let fp = &self.deps[op].fused_parent;
        if fp.index != -1 {
            let want = self.ty(op).checked_sub(1).ok_or_else(|| {
                self.reject(Some(op), "a BDMA op cannot have a fused parent".into())
            })?;
            self.target(Some(op), fp.index, want, "fused parent")?;
        }
        self.st[op].programmed = true;
        self.fire(op, event::OP_PROGRAMMED)?;
        if self.st[op].count == 0 {
            self.enable(op);
            self.drain()?;
        }
        Ok(())
    }

    fn enable(&mut self, op: usize) {
        let s = &mut self.st[op];
        if s.programmed && !s.enabled {
            s.enabled = true;
            self.events.push_back((op, event::OP_ENABLED));
        }
    }

    fn fire(&mut self, op: usize, ev: u8) -> Result<()> {
        self.events.push_back((op, ev));
        self.drain()
    }

    fn drain(&mut self) -> Result<()> {
        while let Some((op, ev)) = self.events.pop_front() {
            let d = &self.deps[op];
            let slots: Vec<(Consumer, u8, &str)> = d
                .consumers
                .iter()
                .enumerate()
                .map(|(i, c)| (c.clone(), i as u8, "consumer"))
                .chain(
                    d.op_type
                        .checked_sub(1)
                        .map(|t| (d.fused_parent.clone(), t, "fused parent")),
                )
                .collect();
            for (c, want, what) in slots {
                if c.index == -1 || c.event != ev {
                    continue;
                }
                let to = self.target(Some(op), c.index, want, what)?;
                if self.st[to].count == 0 {
                    return Err(self.reject(
                        Some(to),
                        format!(
                            "its dependency count would go below zero on {} of op {op}",
                            event::name(ev)
                        ),
                    ));
                }
                self.st[to].count -= 1;
                if self.st[to].count == 0 {
                    self.enable(to);
                }
            }
        }
        Ok(())
    }

    fn dequeue(&mut self, p: usize) -> Result<()> {
        let Some(tail) = self.procs[p].tail else {
            return Ok(());
        };
        let next = self.deps[tail].consumers[p].index;
        if next == -1 {
            return Ok(());
        }
        let op = self.target(Some(tail), next, p as u8, "next op of the same processor")?;
        self.submit(p, op)
    }

    fn complete(&mut self, op: usize) -> Result<()> {
        let p = usize::from(self.ty(op));
        if self.ty(op) == op_type::CONV {
            self.fire(op, event::CDMA_WT_DONE)?;
            self.fire(op, event::CDMA_DT_DONE)?;
        }
        self.st[op].done = true;
        self.completed += 1;
        let pr = &mut self.procs[p];
        pr.order.retain(|&o| o != op);
        let g = pr.groups.iter().position(|&o| o == Some(op));
        if let Some(g) = g {
            pr.groups[g] = None;
        }
        self.fire(op, event::OP_COMPLETED)?;
        if self.completed == self.n {
            return Ok(());
        }
        if let Some(g) = g {
            if let Some(other) = self.procs[p].groups[1 - g] {
                if !self.st[other].programmed && self.is_ready(p, 1 - g) {
                    self.program(other)?;
                }
            }
        }
        self.dequeue(p)
    }

    fn src_on_the_fly(&self, op: usize) -> bool {
        match &self.surfs[op].desc {
            SurfaceDesc::Sdp(s) => s.src_data.mem_type == mem_type::HW,
            SurfaceDesc::Pdp(s) => s.src_data.mem_type == mem_type::HW,
            _ => false,
        }
    }

    /// The processor an op's output flows to on the fly, if any.
    fn fused_consumer(&self, op: usize) -> Option<usize> {
        match &self.surfs[op].desc {
            SurfaceDesc::Conv(_) => Some(usize::from(op_type::SDP)),
            SurfaceDesc::Sdp(s) if s.dst_data.mem_type == mem_type::HW => {
                Some(usize::from(op_type::PDP))
            }
            _ => None,
        }
    }

    /// The first op (by processor type) that can run now, with the ops it
    /// feeds on the fly.
    fn ready_chain(&self) -> Result<Option<Vec<usize>>> {
        'heads: for pr in &self.procs {
            let Some(&head) = pr.order.front() else {
                continue;
            };
            if !self.st[head].enabled || self.src_on_the_fly(head) {
                continue;
            }
            let mut chain = vec![head];
            let mut cur = head;
            while let Some(np) = self.fused_consumer(cur) {
                let Some(&nx) = self.procs[np].order.front() else {
                    continue 'heads;
                };
                if !self.src_on_the_fly(nx) || !self.st[nx].enabled {
                    continue 'heads;
                }
                if self.deps[nx].fused_parent.index != cur as i16 {
                    return Err(self.reject(
                        Some(nx),
                        format!(
                            "reads on the fly from op {cur}, but its fused parent is {}",
                            self.deps[nx].fused_parent.index
                        ),
                    ));
                }
                chain.push(nx);
                cur = nx;
            }
            return Ok(Some(chain));
        }
        Ok(None)
    }

    fn deadlock(&self) -> Error {
        let states: Vec<String> = (0..self.n)
            .filter(|&i| !self.st[i].done)
            .map(|i| {
                let s = &self.st[i];
                let phase = if s.enabled {
                    "enabled"
                } else if s.programmed {
                    "programmed"
                } else if s.queued {
                    "prepared"
                } else {
                    "never queued"
                };
                format!(
                    "op {i} ({}) {phase}, dependency count {}",
                    engine_name(self.ty(i)),
                    s.count
                )
            })
            .collect();
        Error::Rejected(format!(
            "task {}: the firmware would hang with {} of {} operations done: {}",
            self.task,
            self.completed,
            self.n,
            states.join("; ")
        ))
    }

    fn execute(&self, chain: &[usize], addresses: &[u16], env: &mut Env) -> Result<()> {
        let mut flying: Option<Flying> = None;
        for &op in chain {
            let at = self.at(op);
            let missing = || Error::Unsupported {
                at: at.clone(),
                what: format!("the {} engine is not modelled", at.engine),
            };
            let mut ctx = OpCtx {
                mem: env.mem.task(addresses, at.clone()),
                luts: self.luts,
                hw: env.hw,
            };
            let e = env.engines;
            let written: Option<(&DataCube, u8)> = match (&self.ops[op].desc, &self.surfs[op].desc)
            {
                (OpDesc::Conv(o), SurfaceDesc::Conv(s)) => {
                    flying = Some(e.conv.ok_or_else(missing)?(o, s, &mut ctx)?);
                    None
                }
                (OpDesc::Sdp(o), SurfaceDesc::Sdp(s)) => {
                    flying = e.sdp.ok_or_else(missing)?(o, s, flying.take(), &mut ctx)?;
                    Some((&s.dst_data, o.dst_precision))
                }
                (OpDesc::Pdp(o), SurfaceDesc::Pdp(s)) => {
                    e.pdp.ok_or_else(missing)?(o, s, flying.take(), &mut ctx)?;
                    Some((&s.dst_data, o.precision))
                }
                (OpDesc::Cdp(o), SurfaceDesc::Cdp(s)) => {
                    e.cdp.ok_or_else(missing)?(o, s, &mut ctx)?;
                    Some((&s.dst_data, o.out_precision))
                }
                (OpDesc::Rubik(o), SurfaceDesc::Rubik(s)) => {
                    e.rubik.ok_or_else(missing)?(o, s, &mut ctx)?;
                    Some((&s.dst_data, o.precision))
                }
                (OpDesc::Bdma(o), SurfaceDesc::Bdma(s)) => {
                    e.bdma.ok_or_else(missing)?(o, s, &mut ctx)?;
                    None
                }
                _ => {
                    return Err(Error::Unsupported {
                        at,
                        what: format!("processor type {}", self.ty(op)),
                    })
                }
            };
            if let (Some(hook), Some((cube, precision))) = (env.dump.as_mut(), written) {
                if cube.mem_type != mem_type::HW {
                    let view = env.mem.task(addresses, self.at(op));
                    if let Ok(bytes) = view.read(
                        "dst",
                        cube.address,
                        u64::from(cube.offset),
                        cube.size as usize,
                    ) {
                        hook(&Dump {
                            task: self.task,
                            op,
                            engine: engine_name(self.ty(op)),
                            whc: (
                                u32::from(cube.width),
                                u32::from(cube.height),
                                u32::from(cube.channel),
                            ),
                            strides: (cube.line_stride, cube.surf_stride),
                            precision,
                            bytes,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}
