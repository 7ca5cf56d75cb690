//! Memory and address lists: where every placed tensor lives in the loadable.
//!
//! In: a planned [`Program`]. Out: [`MemPlan`] — memory entries (the 4 KiB
//! dead page, the weight pool `ALLOC|SET`, the activation pool `ALLOC`, one
//! bindable `ALLOC|INPUT` / `ALLOC|OUTPUT` entry per network input and
//! output with its tensor desc), and one address entry per distinct placed
//! region `(memory, offset, size)`, numbered 1..Ni in first-use order.
//!
//! A tensor in the bind pool that is not itself a network input or output
//! (a member of an output concat, a reshape of an input) lives in the
//! buffer of its owner ([`crate::plan::bind_owners`]); its placement offset
//! is relative to that buffer. Row bands of a split convolution are
//! sub-regions of their tensor ([`MemPlan::address_at`]).
//!
//! Descriptors reach a tensor through its region's address entry, whose
//! `offset` is the placement offset; cube `offset` is always 0. (The official
//! compiler points cubes at a pool address plus a cube offset in the current
//! ABI; the legacy 28-byte cube and BDMA transfers have no offset field, so
//! one address per region serves both ABIs and every engine.)
//! Example: a program with weights at offsets 0 and 1024 and two
//! activations gives memories `[dead, weights, act, in, out]` and addresses
//! `[dead, w@0, w@1024, …]`.

use std::collections::BTreeMap;

use onnc_nvdla_loadable::enums::{
    DataCategory, DataFormat, DataType, MemoryDomain, MemoryFlags, PixelFormat, PixelMapping,
};
use onnc_nvdla_loadable::{AddressListEntry, MemoryListEntry, TensorDescListEntry};

use crate::config::Config;
use crate::program::{Placement, Pool, Precision, Program, Tensor, TensorId, TensorKind};
use crate::{Error, Result};

/// Size of the dead page and granule of pool sizes.
pub const PAGE: u64 = 4096;

/// The data part of the memory and address lists.
#[derive(Debug, Default)]
pub(crate) struct MemPlan {
    pub(crate) memories: Vec<MemoryListEntry>,
    pub(crate) addresses: Vec<AddressListEntry>,
    pub(crate) tensor_descs: Vec<TensorDescListEntry>,
    /// Memory id of the weight pool, if any weight is placed.
    pub(crate) weight_mem: Option<u16>,
    pool_mem: BTreeMap<Pool, u16>,
    bind_mem: BTreeMap<TensorId, u16>,
    /// Bind-pool tensor → the network input/output whose buffer holds it.
    owners: BTreeMap<TensorId, TensorId>,
    regions: BTreeMap<(u16, u64, u64), u16>,
}

fn tensor_err(p: &Program, t: TensorId, problem: impl Into<String>) -> Error {
    Error::Tensor {
        tensor: p.tensors[t].name.clone(),
        problem: problem.into(),
    }
}

/// The placement of `t`, or an error naming it.
pub(crate) fn place(p: &Program, t: TensorId) -> Result<Placement> {
    let tensor = &p.tensors[t];
    match tensor.place {
        Some(pl) if pl.pool.is_some() => Ok(pl),
        _ => Err(Error::Unplaced {
            tensor: tensor.name.clone(),
        }),
    }
}

fn data_type(p: Precision) -> DataType {
    match p {
        Precision::Int8 => DataType::INT8,
        Precision::Int16 => DataType::INT16,
        Precision::Fp16 => DataType::HALF,
    }
}

/// The tensor descriptor of a placed 4-D feature cube (`tensor.shape` is
/// `[N, C, H, W]`): descriptor `id` in memory `mem_id`.
pub(crate) fn feature_desc(
    tensor: &Tensor,
    pl: Placement,
    id: u16,
    mem_id: u16,
    cfg: &Config,
) -> TensorDescListEntry {
    let s = &tensor.shape;
    TensorDescListEntry {
        name: tensor.name.clone(),
        id,
        mem_id,
        size: pl.size,
        offset: pl.offset,
        data_format: DataFormat::NCxHWx,
        data_type: data_type(tensor.precision),
        data_category: DataCategory::FEATURE,
        pixel_format: PixelFormat(cfg.pixel_format as u8),
        pixel_mapping: PixelMapping::PITCH_LINEAR,
        n: s[0] as i32,
        c: s[1] as i32,
        h: s[2] as i32,
        w: s[3] as i32,
        strides: [
            tensor.precision.bytes() as u32,
            pl.line_stride,
            pl.surf_stride,
            0,
            0,
            0,
            0,
            0,
        ],
    }
}

fn entry(id: usize, flags: MemoryFlags, size: u64) -> MemoryListEntry {
    MemoryListEntry {
        id: id as u16,
        domain: MemoryDomain::SYSTEM,
        flags,
        size,
        alignment: PAGE as u32,
        ..Default::default()
    }
}

impl MemPlan {
    /// Memory entries for the dead page, pools and bindable tensors.
    pub(crate) fn new(p: &Program, cfg: &Config) -> Result<MemPlan> {
        let mut m = MemPlan {
            owners: crate::plan::bind_owners(p)
                .map_err(|e| Error::Unsupported(format!("bindable views: {e}")))?,
            ..MemPlan::default()
        };
        m.memories.push(entry(0, MemoryFlags::ALLOC, PAGE));
        m.addresses.push(AddressListEntry {
            id: 0,
            mem_id: 0,
            offset: 0,
            size: PAGE,
        });
        for t in 0..p.tensors.len() {
            let tensor = &p.tensors[t];
            if matches!(tensor.kind, TensorKind::Fused) {
                continue;
            }
            let pl = place(p, t)?;
            let bindable = matches!(tensor.kind, TensorKind::Input(_) | TensorKind::Output(_));
            match (pl.pool, bindable) {
                (Some(Pool::Bind), false) if !m.owners.contains_key(&t) => {
                    return Err(tensor_err(p, t, "is in the bind pool but is neither a network input or output nor a view of one; place it in 'act' or 'weights'"))
                }
                (Some(Pool::Bind), true) => {}
                (Some(_), true) => {
                    return Err(tensor_err(p, t, "is a network input/output but is not in the bind pool; bindable tensors need pool 'bind'"))
                }
                (Some(Pool::Weights), false) if !tensor.is_weight() => {
                    return Err(tensor_err(p, t, "is a feature but is placed in the weight pool"))
                }
                _ => {}
            }
        }
        for pool in [Pool::Weights, Pool::Activations] {
            let end = p
                .tensors
                .iter()
                .filter_map(|t| t.place.filter(|pl| pl.pool == Some(pool)))
                .map(|pl| pl.offset + pl.size)
                .max();
            if let Some(end) = end {
                let id = m.memories.len();
                let flags = if pool == Pool::Weights {
                    MemoryFlags(MemoryFlags::ALLOC.0 | MemoryFlags::SET.0)
                } else {
                    MemoryFlags::ALLOC
                };
                m.memories
                    .push(entry(id, flags, end.div_ceil(PAGE).max(1) * PAGE));
                m.pool_mem.insert(pool, id as u16);
                if pool == Pool::Weights {
                    m.weight_mem = Some(id as u16);
                }
            }
        }
        let binds: Vec<(TensorId, bool)> = p
            .inputs
            .iter()
            .map(|&t| (t, true))
            .chain(p.outputs.iter().map(|&t| (t, false)))
            .collect();
        for (n, &(t, input)) in binds.iter().enumerate() {
            let tensor = &p.tensors[t];
            let bind_id = match (&tensor.kind, input) {
                (TensorKind::Input(b), true) | (TensorKind::Output(b), false) => *b,
                _ => {
                    return Err(tensor_err(
                        p,
                        t,
                        format!(
                            "is listed as a network {} but its kind is {:?}",
                            if input { "input" } else { "output" },
                            tensor.kind
                        ),
                    ))
                }
            };
            let pl = place(p, t)?;
            if tensor.shape.len() != 4 {
                return Err(tensor_err(
                    p,
                    t,
                    format!(
                        "bindable tensors must be 4-D [N, C, H, W], got {:?}",
                        tensor.shape
                    ),
                ));
            }
            let id = m.memories.len();
            let dir = if input {
                MemoryFlags::INPUT
            } else {
                MemoryFlags::OUTPUT
            };
            let mut e = entry(
                id,
                MemoryFlags(MemoryFlags::ALLOC.0 | dir.0),
                pl.offset + pl.size,
            );
            e.bind_id = bind_id;
            e.tensor_desc_id = n as u16;
            m.memories.push(e);
            m.bind_mem.insert(t, id as u16);
            m.tensor_descs
                .push(feature_desc(tensor, pl, n as u16, id as u16, cfg));
        }
        Ok(m)
    }

    /// Memory id holding `t`.
    pub(crate) fn mem_of(&self, p: &Program, t: TensorId) -> Result<u16> {
        let pl = place(p, t)?;
        match pl.pool {
            Some(Pool::Bind) => self
                .owners
                .get(&t)
                .and_then(|o| self.bind_mem.get(o))
                .copied(),
            Some(pool) => self.pool_mem.get(&pool).copied(),
            None => None,
        }
        .ok_or_else(|| tensor_err(p, t, "has no memory entry (internal: pool not registered)"))
    }

    /// Global address id of `t`'s region, created on first use.
    pub(crate) fn address(&mut self, p: &Program, t: TensorId) -> Result<u16> {
        let size = place(p, t)?.size;
        self.address_at(p, t, 0, size)
    }

    /// Global address id of the `size` bytes at `rel` inside `t`'s region,
    /// created on first use.
    pub(crate) fn address_at(
        &mut self,
        p: &Program,
        t: TensorId,
        rel: u64,
        size: u64,
    ) -> Result<u16> {
        let pl = place(p, t)?;
        let mem = self.mem_of(p, t)?;
        if rel + size > pl.size {
            return Err(tensor_err(
                p,
                t,
                format!(
                    "sub-region {rel}+{size} passes the end of its {} bytes (internal)",
                    pl.size
                ),
            ));
        }
        let key = (mem, pl.offset + rel, size);
        if let Some(&a) = self.regions.get(&key) {
            return Ok(a);
        }
        let id = self.addresses.len();
        if id > i16::MAX as usize {
            return Err(tensor_err(
                p,
                t,
                "more than 32767 distinct memory regions; a task address index is an int16",
            ));
        }
        self.addresses.push(AddressListEntry {
            id: id as u16,
            mem_id: mem,
            offset: key.1,
            size,
        });
        self.regions.insert(key, id as u16);
        Ok(id as u16)
    }

    /// Address id of `t`'s region (must already exist).
    pub(crate) fn existing(&self, p: &Program, t: TensorId) -> Result<u16> {
        let size = place(p, t)?.size;
        self.existing_at(p, t, 0, size)
    }

    /// Address id of a sub-region made by [`MemPlan::address_at`].
    pub(crate) fn existing_at(&self, p: &Program, t: TensorId, rel: u64, size: u64) -> Result<u16> {
        let pl = place(p, t)?;
        let mem = self.mem_of(p, t)?;
        self.regions
            .get(&(mem, pl.offset + rel, size))
            .copied()
            .ok_or_else(|| {
                tensor_err(
                    p,
                    t,
                    format!("has no address entry for {rel}+{size} (internal)"),
                )
            })
    }
}
