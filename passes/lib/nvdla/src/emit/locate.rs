//! Where each placed feature tensor of a [`Program`] sits in the loadable
//! [`emit()`](super::emit) writes for it: for tools that read intermediate
//! surfaces out of a simulated memory (`onnc-run --compare-target`'s
//! per-layer table).
//!
//! In: a planned [`Program`]. Out: per tensor id, `None` for fused streams
//! and weights, else the memory id and a tensor descriptor (offset, size,
//! dims, strides, element type) in the same form as a bindable tensor's.
//! The memory ids are those of the emitted memory list (the same
//! `MemPlan` numbering the emitter uses).
//!
//! ```text
//! program: x (bind input), c1 (act @ 0), y (bind output)
//! locate → [Some((3, x @ 0)), Some((2, c1 @ 0)), Some((4, y @ 0))]
//! ```

use onnc_nvdla_loadable::enums::{DataCategory, DataFormat, DataType, PixelFormat, PixelMapping};
use onnc_nvdla_loadable::TensorDescListEntry;

use super::error::Result;
use super::memory::{place, MemPlan};
use crate::config::Config;
use crate::program::{Precision, Program, TensorKind};

/// A feature tensor's bytes: memory id and descriptor.
pub type Located = (u16, TensorDescListEntry);

/// The memory location of every placed 4-D feature tensor (see the module doc).
pub fn locate(p: &Program) -> Result<Vec<Option<Located>>> {
    let cfg = Config::get(p.config);
    let mem = MemPlan::new(p, &cfg)?;
    let mut out = Vec::with_capacity(p.tensors.len());
    for (t, tensor) in p.tensors.iter().enumerate() {
        let feature = matches!(
            tensor.kind,
            TensorKind::Activation | TensorKind::Input(_) | TensorKind::Output(_)
        );
        if !feature || tensor.shape.len() != 4 {
            out.push(None);
            continue;
        }
        let pl = place(p, t)?;
        let mem_id = mem.mem_of(p, t)?;
        let s = &tensor.shape;
        out.push(Some((
            mem_id,
            TensorDescListEntry {
                name: tensor.name.clone(),
                id: t as u16,
                mem_id,
                size: pl.size,
                offset: pl.offset,
                data_format: DataFormat::NCxHWx,
                data_type: match tensor.precision {
                    Precision::Int8 => DataType::INT8,
                    Precision::Int16 => DataType::INT16,
                    Precision::Fp16 => DataType::HALF,
                },
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
            },
        )));
    }
    Ok(out)
}
