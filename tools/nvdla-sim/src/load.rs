//! Loading: loadable bytes → a [`Network`] ready to simulate.
//!
//! In: the bytes of a loadable and [`LoadOptions`]. Out: the parsed
//! loadable, its descriptor ABI, the hardware configuration it targets,
//! every task's decoded descriptors and the bindable input/output tensors;
//! or [`Error::Rejected`] with the reason the NVIDIA runtime or firmware
//! would refuse it (the verifier's error-severity violations, in its words).
//!
//! **Which hardware** ([`infer_hw`]), first match wins:
//! 1. a tensor desc with pixel format `FEATURE_X8` → nv_small (the current
//!    compiler's nv_small tensors);
//! 2. a DRAM feature cube whose line stride gives a pixel fewer than 32
//!    bytes (`line_stride < 32·width`) → nv_small: only 8-byte atoms fit
//!    (the `_small` goldens: 8×8 cubes with line stride 64);
//! 3. otherwise nv_full (32-byte atoms; nv_large has the same memory
//!    layout, pass it explicitly through [`LoadOptions::hw`]).
//!
//! The caller can override both the hardware and the ABI.

use crate::engine::Hw;
use crate::error::{Error, Result};
use onnc_nvdla_loadable::desc::{mem_type, DataCube, OpDesc, SurfaceDesc};
use onnc_nvdla_loadable::enums::{MemoryFlags, PixelFormat};
use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
use onnc_nvdla_loadable::{
    detect_abi, verify_with, Abi, Loadable, Severity, TensorDescListEntry, VerifyOptions, Violation,
};

/// How to load.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Hardware configuration; `None` infers it (module docs).
    pub hw: Option<Hw>,
    /// Descriptor ABI; `None` detects it (`onnc_nvdla_loadable::detect_abi`).
    pub abi: Option<Abi>,
    /// Skip the verifier (for debugging and for testing the simulator's own
    /// guards, which still refuse what the firmware cannot execute).
    pub skip_verify: bool,
}

/// A bindable tensor: a memory with the INPUT or OUTPUT flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Bind id (inputs and outputs are numbered separately from 0).
    pub bind_id: u16,
    /// Memory id.
    pub mem_id: u16,
    /// The tensor desc (`tensor_desc_list[tensor_desc_id]`): shape, type,
    /// strides, size and offset in the memory.
    pub tensor: TensorDescListEntry,
}

/// A loaded network.
#[derive(Debug, Clone)]
pub struct Network {
    /// The parsed loadable.
    pub loadable: Loadable,
    /// Descriptor ABI.
    pub abi: Abi,
    /// Why this ABI.
    pub abi_reason: String,
    /// Hardware configuration.
    pub hw: Hw,
    /// Why this configuration.
    pub hw_reason: String,
    /// Decoded descriptors, one per `task_list` entry.
    pub tasks: Vec<TaskDescs>,
    /// Bindable inputs, by bind id.
    pub inputs: Vec<Binding>,
    /// Bindable outputs, by bind id.
    pub outputs: Vec<Binding>,
    /// The verifier's warnings (tolerated by the runtime).
    pub warnings: Vec<Violation>,
}

/// Reads, checks and decodes a loadable.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Network> {
    let loadable =
        Loadable::read(bytes).map_err(|e| Error::Rejected(format!("cannot read: {e}")))?;
    let (abi, abi_reason) = match opts.abi {
        Some(a) => (a, "given by the caller".to_string()),
        None => {
            let g = detect_abi(&loadable);
            (g.abi, g.reason)
        }
    };
    let tasks: Vec<TaskDescs> = loadable
        .task_list
        .iter()
        .map(|t| task_descs(&loadable, t, abi))
        .collect();
    let (hw, hw_reason) = match &opts.hw {
        Some(h) => (h.clone(), "given by the caller".to_string()),
        None => infer_hw(&loadable, &tasks),
    };
    let vopts = VerifyOptions {
        abi,
        atom_size: hw.atom_bytes as u32,
    };
    let violations = if opts.skip_verify {
        Vec::new()
    } else {
        verify_with(&loadable, &vopts)
    };
    let (errors, warnings): (Vec<Violation>, Vec<Violation>) = violations
        .into_iter()
        .partition(|v| v.severity == Severity::Error);
    if !errors.is_empty() {
        let list: Vec<String> = errors.iter().map(|v| v.to_string()).collect();
        return Err(Error::Rejected(list.join("; ")));
    }
    let (inputs, outputs) = bindings(&loadable)?;
    Ok(Network {
        loadable,
        abi,
        abi_reason,
        hw,
        hw_reason,
        tasks,
        inputs,
        outputs,
        warnings,
    })
}

/// The bindable inputs and outputs of `l`, each sorted by bind id.
pub fn bindings(l: &Loadable) -> Result<(Vec<Binding>, Vec<Binding>)> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for (i, m) in l.memory_list.iter().enumerate() {
        let is_in = m.flags.contains(MemoryFlags::INPUT);
        if !is_in && !m.flags.contains(MemoryFlags::OUTPUT) {
            continue;
        }
        let tensor = l
            .tensor_desc_list
            .get(usize::from(m.tensor_desc_id))
            .ok_or_else(|| {
                Error::Rejected(format!(
                    "memory_list[{i}].tensor_desc_id: {} is outside tensor_desc_list ({} entries)",
                    m.tensor_desc_id,
                    l.tensor_desc_list.len()
                ))
            })?
            .clone();
        let b = Binding {
            bind_id: m.bind_id,
            mem_id: i as u16,
            tensor,
        };
        if is_in {
            inputs.push(b);
        } else {
            outputs.push(b);
        }
    }
    inputs.sort_by_key(|b| b.bind_id);
    outputs.sort_by_key(|b| b.bind_id);
    Ok((inputs, outputs))
}

/// Infers the hardware configuration (rule in the module docs) and says why.
pub fn infer_hw(l: &Loadable, tasks: &[TaskDescs]) -> (Hw, String) {
    if let Some(t) = l
        .tensor_desc_list
        .iter()
        .find(|t| t.pixel_format == PixelFormat::FEATURE_X8)
    {
        return (
            Hw::NV_SMALL,
            format!("tensor '{}' has pixel format FEATURE_X8", t.name),
        );
    }
    for (ti, t) in tasks.iter().enumerate() {
        let TaskDescs::Dla(d) = t else { continue };
        let (Ok(ops), Ok(surfs)) = (&d.ops.value, &d.surfaces.value) else {
            continue;
        };
        for (i, (op, s)) in ops.iter().zip(surfs).enumerate() {
            for (name, c) in feature_cubes(&op.desc, &s.desc) {
                if c.mem_type != mem_type::HW
                    && c.width > 0
                    && c.line_stride > 0
                    && u64::from(c.line_stride) < 32 * u64::from(c.width)
                {
                    return (
                        Hw::NV_SMALL,
                        format!(
                            "task {ti}, op {i}: {name} cube has line stride {} for width {} (< 32 bytes per pixel)",
                            c.line_stride, c.width
                        ),
                    );
                }
            }
        }
    }
    (
        Hw::NV_FULL,
        "no evidence of 8-byte atoms; default nv_full".to_string(),
    )
}

/// The DRAM feature cubes of an op (those laid out in memory atoms).
fn feature_cubes<'a>(op: &OpDesc, s: &'a SurfaceDesc) -> Vec<(&'static str, &'a DataCube)> {
    match (op, s) {
        (OpDesc::Conv(o), SurfaceDesc::Conv(s)) if o.data_format == FORMAT_FEATURE => {
            vec![("conv src", &s.src_data)]
        }
        (_, SurfaceDesc::Sdp(s)) => vec![("sdp src", &s.src_data), ("sdp dst", &s.dst_data)],
        (_, SurfaceDesc::Pdp(s)) => vec![("pdp src", &s.src_data), ("pdp dst", &s.dst_data)],
        (_, SurfaceDesc::Cdp(s)) => vec![("cdp src", &s.src_data), ("cdp dst", &s.dst_data)],
        _ => Vec::new(),
    }
}

/// `data_format` of a conv op reading a feature cube (`FORMAT_FEATURE`).
pub const FORMAT_FEATURE: u8 = 36;
