//! The public API: simulate a loadable on given inputs.
//!
//! In: loadable bytes, the input tensors (by bind id, as raw surface bytes
//! or as f32 values converted to the surface format) and [`Options`]. Out:
//! [`Outputs`]: every bound output as raw surface bytes and as f32 values in
//! NCHW order. [`golden_dimg`] runs NVIDIA's regression flow instead (no
//! input bound, output 0 serialised as a 2018 DIMG file).
//!
//! Tasks run strictly in `submit_list` order: DLA tasks through the
//! firmware scheduler ([`crate::sched`]), EMU tasks on the CPU
//! ([`crate::emu`]). Unbound inputs read as zeros (the runtime's freshly
//! allocated buffers). Relocations are not applied: bound tensors always use
//! the loadable's own strides.

use crate::engine::{Engines, Hw};
use crate::error::{Error, Result};
use crate::load::{load, Binding, LoadOptions, Network};
use crate::memory::Memory;
use crate::sched::{run_dla_task, Dump, Env};
use crate::{dimg, emu};
use onnc_nvdla_loadable::desc::{mem_type, SurfaceDesc};
use onnc_nvdla_loadable::enums::{DataType, Interface, PixelFormat};
use onnc_nvdla_loadable::layout::TaskDescs;
use onnc_nvdla_loadable::{Abi, TensorDescListEntry};

/// Simulation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Hardware configuration; `None` infers it from the loadable.
    pub hw: Option<Hw>,
    /// Descriptor ABI; `None` detects it.
    pub abi: Option<Abi>,
    /// Engine models; `None` uses [`Engines::builtin`].
    pub engines: Option<Engines>,
    /// Skip the loadable verifier ([`LoadOptions::skip_verify`]).
    pub skip_verify: bool,
}

/// Values of an input tensor.
#[derive(Debug, Clone, PartialEq)]
pub enum TensorData {
    /// The surface bytes exactly as they sit in the bound buffer (at most
    /// the tensor desc's `size` bytes, from its offset).
    Raw(Vec<u8>),
    /// N·C·H·W values in NCHW order, converted to the tensor's data type
    /// (HALF: fp16 round to nearest even; INT8/INT16/UINT8/UINT16: rounded
    /// half away from zero and saturated) and placed in the feature layout
    /// (channels grouped per memory atom, padding channels zero).
    F32(Vec<f32>),
}

/// An input tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// Input bind id.
    pub bind_id: u16,
    /// Values.
    pub data: TensorData,
}

/// One bound output after the run.
#[derive(Debug, Clone, PartialEq)]
pub struct OutTensor {
    /// Output bind id.
    pub bind_id: u16,
    /// Tensor name.
    pub name: String,
    /// N, C, H, W.
    pub dims: [usize; 4],
    /// Element type.
    pub data_type: DataType,
    /// The tensor's bytes (`size` bytes from its offset in its memory).
    pub raw: Vec<u8>,
    /// N·C·H·W values in NCHW order.
    pub values: Vec<f32>,
}

/// All bound outputs, by bind id.
#[derive(Debug, Clone, PartialEq)]
pub struct Outputs {
    /// The outputs.
    pub tensors: Vec<OutTensor>,
}

/// Simulates the loadable `bytes` on `inputs`.
pub fn simulate(bytes: &[u8], inputs: &[Tensor], opts: &Options) -> Result<Outputs> {
    simulate_with_dump(bytes, inputs, opts, None)
}

/// [`simulate`], calling `dump` after every op that writes a surface.
pub fn simulate_with_dump(
    bytes: &[u8],
    inputs: &[Tensor],
    opts: &Options,
    dump: Option<&mut dyn FnMut(&Dump)>,
) -> Result<Outputs> {
    simulate_full(bytes, inputs, opts, dump).map(|(o, _)| o)
}

/// One layer the simulation finished: the `index`-th (1-based) of
/// `total` surfaces the loadable writes to memory, in execution order,
/// with the surface itself ([`Dump`]: task, op, engine, shape, bytes).
#[derive(Debug, Clone, Copy)]
pub struct Layer<'a> {
    /// 1-based position in execution order.
    pub index: usize,
    /// How many layers the run writes ([`layer_count`]).
    pub total: usize,
    /// The surface the layer wrote.
    pub dump: &'a Dump<'a>,
}

/// [`simulate`], calling `on_layer` once per layer, in execution order,
/// with its position among [`layer_count`] layers (for a progress bar:
/// `layer k/n`, its engine). The outputs are those of [`simulate`].
pub fn simulate_with_layers(
    bytes: &[u8],
    inputs: &[Tensor],
    opts: &Options,
    on_layer: &mut dyn FnMut(&Layer),
) -> Result<Outputs> {
    let net = load_with(bytes, opts)?;
    let total = layers_of(&net);
    let mut index = 0;
    let mut hook = |d: &Dump| {
        index += 1;
        on_layer(&Layer {
            index,
            total: total.max(index),
            dump: d,
        });
    };
    run_net(&net, inputs, opts, Some(&mut hook)).map(|(o, _)| o)
}

/// How many layers (surfaces written to memory: DLA SDP, PDP, CDP and
/// Rubik ops whose destination is not the on-chip pipe, and EMU ops) the
/// loadable `bytes` runs: the `total` of [`simulate_with_layers`].
pub fn layer_count(bytes: &[u8], opts: &Options) -> Result<usize> {
    Ok(layers_of(&load_with(bytes, opts)?))
}

fn layers_of(net: &Network) -> usize {
    let writes = |s: &SurfaceDesc| match s {
        SurfaceDesc::Sdp(s) => s.dst_data.mem_type != mem_type::HW,
        SurfaceDesc::Pdp(s) => s.dst_data.mem_type != mem_type::HW,
        SurfaceDesc::Cdp(s) => s.dst_data.mem_type != mem_type::HW,
        SurfaceDesc::Rubik(s) => s.dst_data.mem_type != mem_type::HW,
        _ => false,
    };
    net.loadable
        .submit_list
        .iter()
        .flat_map(|s| &s.task_id)
        .filter_map(|&t| net.tasks.get(usize::from(t)))
        .map(|d| match d {
            TaskDescs::Dla(d) => match (&d.network.value, &d.surfaces.value) {
                (Ok(nd), Ok(surfs)) => surfs
                    .iter()
                    .take(usize::from(nd.num_operations))
                    .filter(|s| writes(&s.desc))
                    .count(),
                _ => 0,
            },
            TaskDescs::Emu(d) => d
                .network
                .value
                .as_ref()
                .map_or(0, |nd| usize::from(nd.num_operations)),
            TaskDescs::Other(_) => 0,
        })
        .sum()
}

/// [`simulate`], also returning the memories as the last op left them
/// (read intermediate surfaces from them with [`read_cube`]; a plan that
/// reuses memory keeps only the last tensor at each address).
pub fn simulate_memory(
    bytes: &[u8],
    inputs: &[Tensor],
    opts: &Options,
) -> Result<(Outputs, Memory)> {
    simulate_full(bytes, inputs, opts, None)
}

fn simulate_full(
    bytes: &[u8],
    inputs: &[Tensor],
    opts: &Options,
    dump: Option<&mut dyn FnMut(&Dump)>,
) -> Result<(Outputs, Memory)> {
    let net = load_with(bytes, opts)?;
    run_net(&net, inputs, opts, dump)
}

fn run_net(
    net: &Network,
    inputs: &[Tensor],
    opts: &Options,
    dump: Option<&mut dyn FnMut(&Dump)>,
) -> Result<(Outputs, Memory)> {
    let mut mem = Memory::load(&net.loadable)?;
    for t in inputs {
        bind_input(net, &mut mem, t)?;
    }
    execute(net, &mut mem, opts, dump)?;
    let tensors = net
        .outputs
        .iter()
        .map(|b| read_output(net, &mem, b))
        .collect::<Result<Vec<_>>>()?;
    Ok((Outputs { tensors }, mem))
}

/// The values (NCHW order, as f32; INT8/INT16 as raw integers) of the
/// feature cube `desc` in memory `desc.mem_id` of `mem`, laid out for
/// configuration `hw`. Errors name the tensor when the cube does not fit.
pub fn read_cube(mem: &Memory, hw: &Hw, desc: &TensorDescListEntry) -> Result<Vec<f32>> {
    let b = Binding {
        bind_id: 0,
        mem_id: desc.mem_id,
        tensor: desc.clone(),
    };
    let raw = tensor_bytes(mem, &b)?;
    let layout = Layout::of(desc, hw)?;
    layout.fits(raw.len())?;
    (0..layout.count())
        .map(|i| {
            let off = layout.offset(i, raw.len())?;
            Ok(layout.get(&raw[off..off + layout.bpe]))
        })
        .collect()
}

/// NVIDIA's regression flow: run with every input left zero (the unit-test
/// loadables carry their data as SET content) and serialise output bind id
/// 0 as a 2018 DIMG file, whose md5 is the golden `lead.md5`.
pub fn golden_dimg(bytes: &[u8], opts: &Options) -> Result<Vec<u8>> {
    let net = load_with(bytes, opts)?;
    let mut mem = Memory::load(&net.loadable)?;
    execute(&net, &mut mem, opts, None)?;
    let b = net
        .outputs
        .first()
        .ok_or_else(|| Error::Input("the loadable has no bound output".into()))?;
    dimg::write(&b.tensor, tensor_bytes(&mem, b)?)
}

fn load_with(bytes: &[u8], opts: &Options) -> Result<Network> {
    load(
        bytes,
        &LoadOptions {
            hw: opts.hw.clone(),
            abi: opts.abi,
            skip_verify: opts.skip_verify,
        },
    )
}

/// Runs every submitted task in order.
pub fn execute(
    net: &Network,
    mem: &mut Memory,
    opts: &Options,
    mut dump: Option<&mut dyn FnMut(&Dump)>,
) -> Result<()> {
    let engines = opts.engines.unwrap_or_else(Engines::builtin);
    for s in &net.loadable.submit_list {
        for &tid in &s.task_id {
            let t = usize::from(tid);
            let (Some(task), Some(descs)) = (net.loadable.task_list.get(t), net.tasks.get(t))
            else {
                return Err(Error::Rejected(format!(
                    "submit {}: task {tid} does not exist",
                    s.id
                )));
            };
            match descs {
                TaskDescs::Dla(d) => {
                    let mut env = Env {
                        mem: &mut *mem,
                        hw: &net.hw,
                        engines: &engines,
                        dump: dump.as_mut().map(|d| &mut **d as &mut dyn FnMut(&Dump)),
                    };
                    run_dla_task(t, &task.address_list, d, &mut env)?;
                }
                TaskDescs::Emu(d) => {
                    let mut done = |e: &emu::EmuDone, m: &mut Memory| -> Result<()> {
                        if let Some(hook) = dump.as_mut() {
                            emu_dump(t, &task.address_list, e, m, &mut **hook);
                        }
                        Ok(())
                    };
                    emu::run_task(t, &task.address_list, d, mem, net.abi, &mut done)?;
                }
                TaskDescs::Other(i) => {
                    return Err(Error::Rejected(format!(
                        "task {t}: interface {i} is neither {} nor {}",
                        Interface::DLA1,
                        Interface::EMU1
                    )))
                }
            }
        }
    }
    Ok(())
}

fn emu_dump(
    task: usize,
    addresses: &[u16],
    e: &emu::EmuDone,
    mem: &mut Memory,
    hook: &mut dyn FnMut(&Dump),
) {
    let at = crate::At {
        task,
        op: Some(e.op),
        engine: "EMU",
    };
    let view = mem.task(addresses, at);
    let d = &e.dst;
    if let Ok(bytes) = view.read(
        "dst",
        d.address_index,
        u64::from(d.address_index_offset),
        d.size as usize,
    ) {
        hook(&Dump {
            task,
            op: e.op,
            engine: e.name,
            whc: (
                u32::from(d.width),
                u32::from(d.height),
                u32::from(d.channel),
            ),
            strides: (d.line_stride, d.surf_stride),
            precision: 2,
            bytes,
        });
    }
}

/// The bytes of a bound tensor: `size` bytes from its offset in its memory.
fn tensor_bytes<'m>(mem: &'m Memory, b: &Binding) -> Result<&'m [u8]> {
    let t = &b.tensor;
    let buf = mem
        .mems
        .get(usize::from(b.mem_id))
        .ok_or_else(|| Error::Input(format!("tensor '{}': memory {} missing", t.name, b.mem_id)))?;
    let end = t
        .offset
        .checked_add(t.size)
        .filter(|&e| e <= buf.len() as u64);
    let end = end.ok_or_else(|| {
        Error::Input(format!(
            "tensor '{}': {} bytes at offset {} overflow memory {} ({} bytes)",
            t.name,
            t.size,
            t.offset,
            b.mem_id,
            buf.len()
        ))
    })?;
    Ok(&buf[t.offset as usize..end as usize])
}

fn bind_input(net: &Network, mem: &mut Memory, t: &Tensor) -> Result<()> {
    let b = net
        .inputs
        .iter()
        .find(|b| b.bind_id == t.bind_id)
        .ok_or_else(|| {
            Error::Input(format!(
                "no input with bind id {} (the loadable has {})",
                t.bind_id,
                net.inputs.len()
            ))
        })?;
    let size = tensor_bytes(mem, b)?.len();
    let bytes = match &t.data {
        TensorData::Raw(r) => {
            if r.len() > size {
                return Err(Error::Input(format!(
                    "input {}: {} bytes for a {size}-byte tensor",
                    t.bind_id,
                    r.len()
                )));
            }
            r.clone()
        }
        TensorData::F32(v) => {
            let layout = Layout::of(&b.tensor, &net.hw)?;
            if v.len() != layout.count() {
                return Err(Error::Input(format!(
                    "input {}: {} values for shape {:?}",
                    t.bind_id,
                    v.len(),
                    layout.dims
                )));
            }
            let mut out = vec![0u8; size];
            for (i, &x) in v.iter().enumerate() {
                let off = layout.offset(i, size)?;
                layout.put(&mut out[off..off + layout.bpe], x);
            }
            out
        }
    };
    let off = b.tensor.offset as usize;
    mem.mems[usize::from(b.mem_id)][off..off + bytes.len()].copy_from_slice(&bytes);
    Ok(())
}

fn read_output(net: &Network, mem: &Memory, b: &Binding) -> Result<OutTensor> {
    let raw = tensor_bytes(mem, b)?.to_vec();
    let t = &b.tensor;
    let layout = Layout::of(t, &net.hw)?;
    layout.fits(raw.len())?;
    let mut values = Vec::with_capacity(layout.count());
    for i in 0..layout.count() {
        let off = layout.offset(i, raw.len())?;
        values.push(layout.get(&raw[off..off + layout.bpe]));
    }
    Ok(OutTensor {
        bind_id: b.bind_id,
        name: t.name.clone(),
        dims: layout.dims,
        data_type: t.data_type,
        raw,
        values,
    })
}

/// Where element i (NCHW order) of a bound tensor sits in its buffer.
struct Layout {
    dims: [usize; 4],
    ty: DataType,
    bpe: usize,
    /// Channels per atom (feature layout).
    cpa: usize,
    atom: usize,
    line: usize,
    surf: usize,
    batch: usize,
    name: String,
}

/// Largest element count converted to or from f32 (2^28).
pub const MAX_ELEMENTS: usize = 1 << 28;

impl Layout {
    fn of(t: &TensorDescListEntry, hw: &Hw) -> Result<Layout> {
        let bad = |w: String| Error::Input(format!("tensor '{}': {w}", t.name));
        let bpe = match t.data_type {
            DataType::INT8 | DataType::UINT8 => 1,
            DataType::INT16 | DataType::UINT16 | DataType::HALF => 2,
            other => return Err(bad(format!("data type {other} is not converted"))),
        };
        if t.pixel_format != PixelFormat::FEATURE && t.pixel_format != PixelFormat::FEATURE_X8 {
            return Err(bad(format!(
                "pixel format {} is not a feature layout; pass raw bytes",
                t.pixel_format
            )));
        }
        let d = |v: i32| usize::try_from(v).map_err(|_| bad(format!("negative dimension {v}")));
        let dims = [d(t.n)?.max(1), d(t.c)?, d(t.h)?, d(t.w)?];
        dims.iter()
            .try_fold(1usize, |a, &x| a.checked_mul(x))
            .filter(|&c| c <= MAX_ELEMENTS)
            .ok_or_else(|| bad(format!("shape {dims:?} is too large")))?;
        let atom = if t.pixel_format == PixelFormat::FEATURE_X8 {
            8
        } else {
            hw.atom_bytes
        };
        Ok(Layout {
            dims,
            ty: t.data_type,
            bpe,
            cpa: atom / bpe,
            atom,
            line: t.strides[1] as usize,
            surf: t.strides[2] as usize,
            batch: t.strides[3] as usize,
            name: t.name.clone(),
        })
    }

    /// Refuses shapes far larger than the `size`-byte buffer (strides may
    /// overlap, but not by more than [`crate::dimg::MAX_OVERLAP`]).
    fn fits(&self, size: usize) -> Result<()> {
        if (self.count() * self.bpe) as u128 > size as u128 * crate::dimg::MAX_OVERLAP {
            return Err(Error::Input(format!(
                "tensor '{}': shape {:?} cannot be read from {size} bytes",
                self.name, self.dims
            )));
        }
        Ok(())
    }

    fn count(&self) -> usize {
        self.dims.iter().product()
    }

    fn offset(&self, i: usize, size: usize) -> Result<usize> {
        let [_, c, h, w] = self.dims;
        let (x, rest) = (i % w.max(1), i / w.max(1));
        let (y, rest) = (rest % h.max(1), rest / h.max(1));
        let (ch, n) = (rest % c.max(1), rest / c.max(1));
        let off = (n as u128) * self.batch as u128
            + (ch / self.cpa) as u128 * self.surf as u128
            + (y as u128) * self.line as u128
            + (x as u128) * self.atom as u128
            + ((ch % self.cpa) * self.bpe) as u128;
        if off + self.bpe as u128 > size as u128 {
            return Err(Error::Input(format!(
                "tensor '{}': element (n {n}, c {ch}, h {y}, w {x}) at byte {off} is outside its {size} bytes",
                self.name
            )));
        }
        Ok(off as usize)
    }

    fn put(&self, out: &mut [u8], x: f32) {
        let int = |lo: f32, hi: f32| {
            let r = x.round(); // half away from zero
            if r.is_nan() {
                0.0
            } else {
                r.clamp(lo, hi)
            }
        };
        match self.ty {
            DataType::HALF => out.copy_from_slice(&half::f16::from_f32(x).to_bits().to_le_bytes()),
            DataType::INT8 => out[0] = int(-128.0, 127.0) as i8 as u8,
            DataType::UINT8 => out[0] = int(0.0, 255.0) as u8,
            DataType::INT16 => out.copy_from_slice(&(int(-32768.0, 32767.0) as i16).to_le_bytes()),
            _ => out.copy_from_slice(&(int(0.0, 65535.0) as u16).to_le_bytes()),
        }
    }

    fn get(&self, b: &[u8]) -> f32 {
        match self.ty {
            DataType::HALF => crate::num::half::fp16_to_f32(u16::from_le_bytes([b[0], b[1]])),
            DataType::INT8 => f32::from(b[0] as i8),
            DataType::UINT8 => f32::from(b[0]),
            DataType::INT16 => f32::from(i16::from_le_bytes([b[0], b[1]])),
            _ => f32::from(u16::from_le_bytes([b[0], b[1]])),
        }
    }
}
