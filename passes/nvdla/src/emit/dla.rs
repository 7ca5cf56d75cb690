//! Op and surface descriptors of DLA ops, filled from attributes and placements.
//!
//! In: one non-virtual DLA [`Op`], the planned [`Program`], the memory plan
//! and the encoded weights. Out: its `OpDesc`, `SurfaceDesc` and the
//! [`Node`] (type, regions read and written) the dependency graph needs;
//! CDP ops also append their LUT to the task's LUT list.
//!
//! Cubes: a tensor in memory is `type MC`, `address` = its region's address
//! id (task address lists map global ids 1..Ni to themselves), `offset` 0,
//! size/strides from its placement, `w×h×c` from `[N, C, H, W]`. A
//! [`TensorKind::Fused`] tensor is `type HW`, `address −1`, with packed
//! feature strides. Conv CBUF use (`entry_per_slice`, banks, row bands)
//! comes from [`super::split`]. A conv split into row bands is described once
//! per [`Band`] and so is its fused SDP: the conv reads the band's input
//! lines, the SDP writes the band's output rows and reads its per-point
//! operands at the same rows; such a window is a sub-region of the tensor
//! (`address` of the region starting `top · line_stride` bytes in, size
//! `(surfaces − 1) · surf_stride + rows · line_stride`). A conv split into
//! channel chunks ([`super::chan_split`]) is described once per chunk (and
//! row band): its input, output and per-point windows start at the chunk's
//! first surface, its weights and per-kernel operands are byte ranges of
//! their blobs. Example: NN_L0_0's
//! conv1 (28×28×1 fp16, 20×5×5 kernels) gets `entry_per_slice 7,
//! data_bank 1, weight_bank 1, release 28` and one band.

use std::collections::BTreeMap;

use onnc_nvdla_loadable::desc::container::op_type;
use onnc_nvdla_loadable::desc::{
    mem_type, BdmaOpDesc, BdmaSurfaceDesc, BdmaTransferDesc, CdpOpDesc, CdpSurfaceDesc, ConvOpDesc,
    ConvSurfaceDesc, CvtParam, DataCube, LutParam, OpDesc, PdpOpDesc, PdpSurfaceDesc, RubikOpDesc,
    RubikSurfaceDesc, SdpCvt, SdpOp, SdpOpDesc, SdpSurfaceDesc, SurfaceDesc,
};

use super::attrs::{precision_code, A};
use super::deps::{Node, Region};
use super::encode::{Encoded, SDP_UNITS};
use super::lut::lrn_lut;
use super::memory::{place, MemPlan};
use super::split::{Band, Chunk, ConvPlan};
use super::weights::feature_geometry;
use crate::config::Config;
use crate::program::{Engine, Op, Program, TensorId, TensorKind};
use crate::registers::attr_key;
use crate::{Error, Result};

/// `FORMAT_FEATURE`.
const FORMAT_FEATURE: u8 = 36;

/// The part of a cube a job reads or writes: rows `(top, count)` and
/// channels `(first, count)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Win {
    pub(crate) rows: (usize, usize),
    pub(crate) chans: (usize, usize),
}

/// A sub-region of a tensor a banded or chunked job uses: a window of a
/// cube, or a byte range of an encoded weight (a chunk's kernels, a chunk
/// of per-kernel operands) holding `chans` channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Cube(Win),
    Bytes { off: u64, len: u64, chans: usize },
}

/// Shared inputs of descriptor building.
pub(crate) struct Ctx<'a> {
    pub(crate) p: &'a Program,
    pub(crate) cfg: &'a Config,
    pub(crate) mem: &'a MemPlan,
    pub(crate) weights: &'a BTreeMap<TensorId, Encoded>,
}

/// The processor type of a DLA engine.
pub(crate) fn dla_type(e: Engine) -> Option<u8> {
    Some(match e {
        Engine::Bdma => op_type::BDMA,
        Engine::Conv => op_type::CONV,
        Engine::Sdp => op_type::SDP,
        Engine::Pdp => op_type::PDP,
        Engine::Cdp => op_type::CDP,
        Engine::Rubik => op_type::RUBIK,
        _ => return None,
    })
}

fn dims(v: usize, what: &str, t: &str) -> Result<u16> {
    u16::try_from(v).map_err(|_| Error::Tensor {
        tensor: t.to_string(),
        problem: format!("{what} {v} does not fit a 16-bit descriptor field"),
    })
}

fn u32_of(v: u64, t: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::Tensor {
        tensor: t.to_string(),
        problem: format!("{v} bytes does not fit a 32-bit descriptor field"),
    })
}

impl Ctx<'_> {
    /// `[N, C, H, W]` of a feature tensor.
    fn nchw(&self, t: TensorId) -> Result<[usize; 4]> {
        let tensor = &self.p.tensors[t];
        <[usize; 4]>::try_from(tensor.shape.as_slice()).map_err(|_| Error::Tensor {
            tensor: tensor.name.clone(),
            problem: format!(
                "feature tensors must be 4-D [N, C, H, W], got {:?}",
                tensor.shape
            ),
        })
    }

    /// The data cube of a feature tensor (memory or fused).
    pub(crate) fn cube(&self, t: TensorId) -> Result<DataCube> {
        self.cube_rows(t, None)
    }

    /// The data cube of window `win` of a feature tensor, or of all of it.
    fn cube_rows(&self, t: TensorId, win: Option<Win>) -> Result<DataCube> {
        let tensor = &self.p.tensors[t];
        let name = &tensor.name;
        let [_, full_c, full_h, w] = self.nchw(t)?;
        let h = win.map_or(full_h, |r| r.rows.1);
        let c = win.map_or(full_c, |r| r.chans.1);
        let (width, height, channel) = (
            dims(w, "width", name)?,
            dims(h, "height", name)?,
            dims(c, "channels", name)?,
        );
        if matches!(tensor.kind, TensorKind::Fused) {
            let cpa = self.cfg.channels_per_atom(tensor.precision);
            let (line, surf, size) = feature_geometry(w, h, c, cpa, tensor.precision.bytes());
            return Ok(DataCube {
                mem_type: mem_type::HW,
                address: -1,
                size: u32_of(size as u64, name)?,
                width,
                height,
                channel,
                line_stride: u32_of(line as u64, name)?,
                surf_stride: u32_of(surf as u64, name)?,
                ..Default::default()
            });
        }
        let pl = place(self.p, t)?;
        let (address, size) = match win {
            Some(r) => {
                let (rel, size) = self.window(t, r)?;
                (self.mem.existing_at(self.p, t, rel, size)?, size)
            }
            None => (self.mem.existing(self.p, t)?, pl.size),
        };
        Ok(DataCube {
            mem_type: mem_type::MC,
            address: address as i16,
            offset: 0,
            size: u32_of(size, name)?,
            width,
            height,
            channel,
            reserved0: 0,
            line_stride: pl.line_stride,
            surf_stride: pl.surf_stride,
            plane_stride: 0,
        })
    }

    /// The cube of an operand that is a weight (encoded) or a feature, or
    /// of `part` of it.
    fn operand_cube(&self, t: TensorId, part: Option<Part>) -> Result<DataCube> {
        let Some(e) = self.weights.get(&t) else {
            return match part {
                Some(Part::Cube(win)) => self.cube_rows(t, Some(win)),
                None => self.cube_rows(t, None),
                Some(Part::Bytes { .. }) => Err(Error::Tensor {
                    tensor: self.p.tensors[t].name.clone(),
                    problem: "a byte range of a feature tensor was asked for (internal)".into(),
                }),
            };
        };
        let name = &self.p.tensors[t].name;
        let (address, size, height, channel) = match part {
            Some(Part::Cube(r)) => {
                let (rel, size) = self.window(t, r)?;
                (
                    self.mem.existing_at(self.p, t, rel, size)?,
                    size,
                    r.rows.1,
                    r.chans.1,
                )
            }
            Some(Part::Bytes { off, len, chans }) => (
                self.mem.existing_at(self.p, t, off, len)?,
                len,
                e.whc[1],
                chans,
            ),
            None => (
                self.mem.existing(self.p, t)?,
                e.len() as u64,
                e.whc[1],
                e.whc[2],
            ),
        };
        Ok(DataCube {
            mem_type: mem_type::MC,
            address: address as i16,
            size: u32_of(size, name)?,
            width: dims(e.whc[0], "width", name)?,
            height: dims(height, "height", name)?,
            channel: dims(channel, "channels", name)?,
            line_stride: e.line_stride as u32,
            surf_stride: e.surf_stride as u32,
            ..Default::default()
        })
    }

    fn region_rows(&self, t: TensorId, part: Option<Part>) -> Result<Option<Region>> {
        if matches!(self.p.tensors[t].kind, TensorKind::Fused) {
            return Ok(None);
        }
        let pl = place(self.p, t)?;
        let mem = self.mem.mem_of(self.p, t)?;
        Ok(Some(match part {
            Some(part) => {
                let (rel, size) = self.part_region(t, part)?;
                (mem, pl.offset + rel, size)
            }
            None => (mem, pl.offset, pl.size),
        }))
    }

    /// `(offset inside t's region, bytes)` of `part` of `t`.
    pub(crate) fn part_region(&self, t: TensorId, part: Part) -> Result<(u64, u64)> {
        match part {
            Part::Cube(win) => self.window(t, win),
            Part::Bytes { off, len, .. } => Ok((off, len)),
        }
    }

    /// `(offset inside t's region, bytes)` of window `win` (rows and
    /// channels) of a cube in memory: a feature tensor, or a weight encoded
    /// as a cube. The channels start at a surface boundary.
    pub(crate) fn window(&self, t: TensorId, win: Win) -> Result<(u64, u64)> {
        let ((top, rows), (c0, nc)) = (win.rows, win.chans);
        let tensor = &self.p.tensors[t];
        let [n, c, h, _] =
            <[usize; 4]>::try_from(tensor.shape.as_slice()).map_err(|_| Error::Tensor {
                tensor: tensor.name.clone(),
                problem: format!(
                    "a row band needs a 4-D [N, C, H, W] cube, got {:?}",
                    tensor.shape
                ),
            })?;
        let (line, surf) = match self.weights.get(&t) {
            Some(e) => (e.line_stride as u64, e.surf_stride as u64),
            None => {
                let pl = place(self.p, t)?;
                if n != 1 {
                    return Err(Error::Tensor {
                        tensor: tensor.name.clone(),
                        problem: format!("batch {n}: row bands of a split convolution are emitted for batch 1 only"),
                    });
                }
                (u64::from(pl.line_stride), u64::from(pl.surf_stride))
            }
        };
        if top + rows > h || rows == 0 {
            return Err(Error::Tensor {
                tensor: tensor.name.clone(),
                problem: format!(
                    "rows {top}..{} are outside its height {h} (internal)",
                    top + rows
                ),
            });
        }
        let cpa = self.cfg.channels_per_atom(tensor.precision).max(1);
        if c0 + nc > c || nc == 0 || c0 % cpa != 0 {
            return Err(Error::Tensor {
                tensor: tensor.name.clone(),
                problem: format!(
                    "channels {c0}..{} are outside its {c} channels or do not start a surface of {cpa} (internal)",
                    c0 + nc
                ),
            });
        }
        let (s0, surfaces) = ((c0 / cpa) as u64, nc.div_ceil(cpa) as u64);
        Ok((
            s0 * surf + top as u64 * line,
            (surfaces - 1) * surf + rows as u64 * line,
        ))
    }

    /// The parts `(tensor, part)` a job reads or writes in memory, other
    /// than whole tensors: the conv's input lines (and channels) and its
    /// chunk's weights, the SDP's output rows (and channels), per-point
    /// operand windows and per-kernel operand chunks. Empty without a band.
    pub(crate) fn band_windows(
        &self,
        op: &Op,
        band: Option<&Band>,
    ) -> Result<Vec<(TensorId, Part)>> {
        let Some(b) = band else { return Ok(Vec::new()) };
        let chans = |t: TensorId, first: usize, count: usize| -> Result<(usize, usize)> {
            Ok(match b.chunk {
                Some(_) => (first, count),
                None => (0, self.nchw(t)?[1]),
            })
        };
        let mut out = Vec::new();
        let (k0, k) = b.chunk.map_or((0, 0), |c| (c.k0, c.k));
        match op.engine {
            Engine::Conv => {
                if let Some(x) = op.inputs.first().copied().flatten() {
                    let (c0, c) = b.chunk.map_or((0, 0), |c| (c.c0, c.c));
                    let win = Win {
                        rows: (b.in_top, b.in_rows),
                        chans: chans(x, c0, c)?,
                    };
                    out.push((x, Part::Cube(win)));
                }
                if let (Some(w), Some(ch)) = (op.inputs.get(1).copied().flatten(), b.chunk) {
                    let part = Part::Bytes {
                        off: ch.w_off as u64,
                        len: ch.w_bytes as u64,
                        chans: ch.c,
                    };
                    out.push((w, part));
                }
            }
            Engine::Sdp => {
                let rows = (b.out_top, b.out_rows);
                if !matches!(self.p.tensors[op.output].kind, TensorKind::Fused) {
                    let win = Win {
                        rows,
                        chans: chans(op.output, k0, k)?,
                    };
                    out.push((op.output, Part::Cube(win)));
                }
                for (slot, unit) in SDP_UNITS.iter().enumerate() {
                    let Some(t) = op.inputs.get(slot + 1).copied().flatten() else {
                        continue;
                    };
                    match op.str(&attr_key(&[unit, "mode"])) {
                        Some("per_point") => {
                            let win = Win {
                                rows,
                                chans: chans(t, k0, k)?,
                            };
                            out.push((t, Part::Cube(win)));
                        }
                        Some("per_kernel") if b.chunk.is_some() => {
                            // Per-kernel data is K elements back to back
                            // (two values each for `both`).
                            let parts = if op.str(&attr_key(&[unit, "type"])) == Some("both") {
                                2
                            } else {
                                1
                            };
                            let elem = (self.p.tensors[t].precision.bytes() * parts) as u64;
                            let off = k0 as u64 * elem;
                            if off % self.cfg.mem_atom_bytes as u64 != 0 {
                                return Err(A::new(op).op_err(format!(
                                    "the per-kernel operand of {unit} for channels {k0}.. starts at byte {off}, not at a memory atom (internal)"
                                )));
                            }
                            out.push((
                                t,
                                Part::Bytes {
                                    off,
                                    len: k as u64 * elem,
                                    chans: k,
                                },
                            ));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        Ok(out)
    }

    /// The CBUF plan of a conv op emitted whole: the one `nvdla-split-conv`
    /// recorded ([`Program::cbuf`](crate::Program::cbuf), checked against
    /// the conv), else its one-band allotment when it fits the CBUF whole;
    /// a conv that needs row bands but has no recorded plan is refused.
    pub(crate) fn conv_plan(&self, op: &Op) -> Result<ConvPlan> {
        let a = A::new(op);
        if let Some(rec) = self.p.cbuf.get(&op.hw_layer) {
            let (g, cbuf) = super::chunking::conv_geom(self.p, self.cfg, op, None)?;
            return super::split::check(&g, &cbuf, rec).map_err(|m| {
                a.op_err(format!(
                    "its recorded CBUF plan (nvdla.cbuf) does not fit it: {m}"
                ))
            });
        }
        let plan = self
            .conv_plan_of(op, None)
            .map_err(super::split_conv::unsplittable)?;
        if plan.bands.len() > 1 {
            return Err(a.op_err(format!(
                "does not fit the CBUF whole ({} row bands needed on {}) and has no CBUF plan (nvdla.cbuf); run nvdla-split-conv before emission (`onnc compile` runs it)",
                plan.bands.len(),
                self.cfg.name
            )));
        }
        Ok(plan)
    }

    /// The CBUF plan of a conv op, or of one channel chunk of it
    /// ([`super::chunking::cbuf_plan`]).
    pub(crate) fn conv_plan_of(&self, op: &Op, chunk: Option<&Chunk>) -> Result<ConvPlan> {
        super::chunking::cbuf_plan(self.p, self.cfg, op, chunk)
    }

    /// Descriptors and graph node of one DLA op, or of one row band of a
    /// split conv or its fused SDP.
    pub(crate) fn describe(
        &self,
        op: &Op,
        band: Option<&Band>,
        luts: &mut Vec<LutParam>,
    ) -> Result<(OpDesc, SurfaceDesc, Node)> {
        let a = A::new(op);
        let ty =
            dla_type(op.engine).ok_or_else(|| a.op_err("is not a DLA engine op (internal)"))?;
        let input = |i: usize| -> Result<TensorId> {
            op.inputs
                .get(i)
                .copied()
                .flatten()
                .ok_or_else(|| a.op_err(format!("operand {i} is missing")))
        };
        let windows = self.band_windows(op, band)?;
        let part_of = |t: TensorId| windows.iter().find(|(u, _)| *u == t).map(|(_, r)| *r);
        let mut reads = Vec::new();
        for t in op.operands() {
            reads.extend(self.region_rows(t, part_of(t))?);
        }
        let writes: Vec<Region> = self
            .region_rows(op.output, part_of(op.output))?
            .into_iter()
            .collect();
        if op.engine != Engine::Conv
            && op.engine != Engine::Sdp
            && matches!(self.p.tensors[op.output].kind, TensorKind::Fused)
        {
            return Err(a.op_err("its output is a fused stream; only conv (and an SDP feeding a PDP) write on-the-fly data"));
        }
        let (desc, surf) = match op.engine {
            Engine::Conv => self.conv(op, &a, input(0)?, input(1)?, band)?,
            Engine::Sdp => self.sdp(op, &a, input(0)?, band, luts)?,
            Engine::Pdp => self.pdp(op, &a, input(0)?)?,
            Engine::Cdp => self.cdp(op, &a, input(0)?, luts)?,
            Engine::Rubik => self.rubik(op, &a, input(0)?)?,
            Engine::Bdma => self.bdma(op, &a, input(0)?)?,
            _ => unreachable!("dla_type filtered the engine"),
        };
        Ok((
            desc,
            surf,
            Node {
                ty,
                reads,
                writes,
                fused_parent: None,
            },
        ))
    }

    fn conv(
        &self,
        op: &Op,
        a: &A,
        x: TensorId,
        w: TensorId,
        band: Option<&Band>,
    ) -> Result<(OpDesc, SurfaceDesc)> {
        let [n, full_c, h, wd] = self.nchw(x)?;
        let wt = &self.p.tensors[w];
        // A grouped conv is described as its dense kernel (zeros outside
        // the groups), which is what its weight blob holds.
        let group = crate::grouped_kernel::conv_group(op);
        let [full_k, full_wc, r, s] = crate::grouped_kernel::dense_shape(&wt.shape, group)
            .ok_or_else(|| {
                a.op_err(format!(
                    "weight '{}' must be [K, C/group, R, S] with K a multiple of group = {group}, got {:?}",
                    wt.name, wt.shape
                ))
            })?;
        let [_, full_ko, e, f] = self.nchw(op.output)?;
        let chunk = band.and_then(|b| b.chunk);
        // A channel chunk is a conv of its own: its kernels over its input channels.
        let (c, wc, k, ko) = match chunk {
            Some(ch) => (ch.c, ch.c, ch.k, ch.k),
            None => (full_c, full_wc, full_k, full_ko),
        };
        if ko != k {
            return Err(a.op_err(format!(
                "output has {ko} channels but the weight has {k} kernels"
            )));
        }
        if !matches!(self.p.tensors[op.output].kind, TensorKind::Fused) {
            return Err(a.op_err(
                "the output must be the fused accumulator (TensorKind::Fused) read by an SDP",
            ));
        }
        let fmt = a.str("data_format")?;
        if fmt != "feature" {
            return Err(Error::Unsupported(format!(
                "conv '{}': image input (data_format \"{fmt}\") needs channel pre-extension of the weights; only \"feature\" is emitted",
                op.hw_layer
            )));
        }
        let in_p = a.precision("in_precision")?;
        let plan = match &chunk {
            None => self.conv_plan(op)?,
            Some(ch) => self.conv_plan_of(op, Some(ch))?,
        };
        let whole = plan.bands[0];
        let b = match band {
            Some(b) => *b,
            None if plan.bands.len() == 1 => whole,
            None => {
                return Err(a.op_err(format!(
                    "needs {} row bands to fit the CBUF but was described whole (internal)",
                    plan.bands.len()
                )))
            }
        };
        let (eps, data_bank, weight_bank) = (plan.eps, plan.data_bank, plan.weight_bank);
        let bpk = wc * r * s * in_p.bytes();
        let (c0, k0) = chunk.map_or((0, 0), |ch| (ch.c0, ch.k0));
        let rows = (b.in_rows != h || c != full_c).then_some(Win {
            rows: (b.in_top, b.in_rows),
            chans: (c0, c),
        });
        let out_rows = (b.out_rows != e || k != full_k).then_some(Win {
            rows: (b.out_top, b.out_rows),
            chans: (k0, k),
        });
        let name = &self.p.tensors[x].name;
        let d = ConvOpDesc {
            conv_mode: a.pick("conv_mode", &["direct", "winograd"])?,
            entry_per_slice: dims(eps, "entries per slice", name)?,
            data_format: FORMAT_FEATURE,
            fetch_grain: 1,
            batch: n.clamp(1, 255) as u8,
            data_bank: data_bank as u8,
            weight_bank: weight_bank as u8,
            weight_reuse: u8::from(b.reuse_weights),
            skip_weight_rls: u8::from(b.skip_weight_release),
            release: dims(b.in_rows, "height", name)?,
            input_width_csc: dims(wd, "width", name)?,
            input_height_csc: dims(b.in_rows, "height", name)?,
            input_channel_csc: dims(c, "channels", name)?,
            kernel_width_csc: dims(s, "kernel width", name)?,
            kernel_height_csc: dims(r, "kernel height", name)?,
            kernel_channel_csc: dims(wc, "kernel channels", name)?,
            input_width_cmac: dims(f, "output width", name)?,
            input_height_cmac: dims(b.out_rows, "output height", name)?,
            bytes_per_kernel: bpk as u32,
            mean_ry: a.reg("mean_ry")? as u16 as i16,
            mean_gu: a.reg("mean_gu")? as u16 as i16,
            mean_bv: a.reg("mean_bv")? as u16 as i16,
            mean_ax: a.reg("mean_ax")? as u16 as i16,
            mean_format: a.reg("mean_format")? as u8,
            conv_stride_x: a.reg("conv_stride_x")? as u8,
            conv_stride_y: a.reg("conv_stride_y")? as u8,
            pad_x_left: a.reg("pad_x_left")? as u8,
            pad_x_right: a.reg("pad_x_right")? as u8,
            pad_y_top: b.pad_top as u8,
            pad_y_bottom: b.pad_bottom as u8,
            dilation_x: a.reg("dilation_x")? as u8,
            dilation_y: a.reg("dilation_y")? as u8,
            in_precision: precision_code(in_p),
            out_precision: precision_code(a.precision("out_precision")?),
            pad_val: a.i16("pad_val")?,
            in_cvt: CvtParam {
                scale: a.i16("in_cvt.scale")?,
                truncate: a.reg("in_cvt.truncate")? as u8,
                enable: a.reg("in_cvt.enable")? as u8,
                offset: a.i32("in_cvt.offset")?,
            },
            out_cvt: CvtParam {
                scale: 1,
                truncate: a.reg("out_cvt.truncate")? as u8,
                enable: 1,
                offset: 0,
            },
            ..Default::default()
        };
        let weight_part = chunk.map(|ch| Part::Bytes {
            off: ch.w_off as u64,
            len: ch.w_bytes as u64,
            chans: ch.c,
        });
        let sd = ConvSurfaceDesc {
            weight_data: self.operand_cube(w, weight_part)?,
            src_data: self.cube_rows(x, rows)?,
            dst_data: self.cube_rows(op.output, out_rows)?,
            ..Default::default()
        };
        Ok((OpDesc::Conv(d), SurfaceDesc::Conv(sd)))
    }

    fn sdp_unit(&self, a: &A, unit: &str, with_cvt: bool) -> Result<SdpOp> {
        let f = |field: &str| attr_key(&[unit, field]);
        let cvt = |which: &str| -> Result<CvtParam> {
            let g = |field: &str| attr_key(&[unit, "cvt", which, field]);
            Ok(CvtParam {
                scale: a.i16(&g("scale"))?,
                truncate: a.reg(&g("truncate"))? as u8,
                enable: a.reg(&g("enable"))? as u8,
                offset: a.i32(&g("offset"))?,
            })
        };
        Ok(SdpOp {
            enable: a.reg(&f("enable"))? as u8,
            alu_type: a.pick(&f("alu_type"), &["max", "min", "sum", "eql"])?,
            op_type: a.pick(&f("type"), &["none", "mul", "add", "both"])?,
            mode: a.pick(&f("mode"), &["per_layer", "per_kernel", "per_point"])?,
            act: a.pick(&f("act"), &["none", "relu", "lut", "prelu"])?,
            shift_value: a.reg(&f("shift_value"))? as u8,
            truncate: a.reg(&f("truncate"))? as u8,
            precision: precision_code(a.precision(&f("precision"))?),
            alu_operand: a.i32(&f("alu_operand"))?,
            mul_operand: a.i32(&f("mul_operand"))?,
            cvt: if with_cvt {
                SdpCvt {
                    alu_cvt: cvt("alu_cvt")?,
                    mul_cvt: cvt("mul_cvt")?,
                }
            } else {
                SdpCvt::default()
            },
        })
    }

    fn sdp(
        &self,
        op: &Op,
        a: &A,
        x: TensorId,
        band: Option<&Band>,
        luts: &mut Vec<LutParam>,
    ) -> Result<(OpDesc, SurfaceDesc)> {
        let chans = band.and_then(|b| b.chunk).map(|ch| (ch.k0, ch.k));
        let rows = band
            .map(|b| -> Result<Win> {
                Ok(Win {
                    rows: (b.out_top, b.out_rows),
                    chans: match chans {
                        Some(c) => c,
                        None => (0, self.nchw(x)?[1]),
                    },
                })
            })
            .transpose()?;
        let windows = self.band_windows(op, band)?;
        let part_of = |t: TensorId| windows.iter().find(|(u, _)| *u == t).map(|(_, r)| *r);
        let lut_index = super::lut_sdp::lut_index(a, luts)?;
        let d = SdpOpDesc {
            src_precision: precision_code(a.precision("src_precision")?),
            dst_precision: precision_code(a.precision("dst_precision")?),
            lut_index,
            out_cvt: CvtParam {
                scale: a.i16("out_cvt.scale")?,
                truncate: a.reg("out_cvt.truncate")? as u8,
                enable: 1,
                offset: a.i32("out_cvt.offset")?,
            },
            conv_mode: 0,
            batch_num: self.nchw(x)?[0].clamp(1, 255) as u8,
            reserved0: 0,
            batch_stride: 0,
            x1_op: self.sdp_unit(a, SDP_UNITS[0], false)?,
            x2_op: self.sdp_unit(a, SDP_UNITS[1], false)?,
            y_op: self.sdp_unit(a, SDP_UNITS[2], true)?,
        };
        let operand = |slot: usize| -> Result<DataCube> {
            match op.inputs.get(slot).copied().flatten() {
                Some(t) => self.operand_cube(t, part_of(t)),
                None => Ok(DataCube::default()),
            }
        };
        let sd = SdpSurfaceDesc {
            src_data: self.cube_rows(x, rows)?,
            x1_data: operand(1)?,
            x2_data: operand(2)?,
            y_data: operand(3)?,
            dst_data: self.cube_rows(op.output, rows)?,
        };
        Ok((OpDesc::Sdp(d), SurfaceDesc::Sdp(sd)))
    }

    fn pdp(&self, _op: &Op, a: &A, x: TensorId) -> Result<(OpDesc, SurfaceDesc)> {
        let prec = a.precision("precision")?;
        let [_, _, _, out_w] = self.nchw(_op.output)?;
        let sp = super::pdp_split::split(
            out_w,
            a.reg("pool_width")? as usize,
            a.reg("pool_height")? as usize,
            a.reg("stride_x")? as usize,
            a.reg("stride_y")? as usize,
            a.reg("pad_left")? as usize,
            a.reg("pad_right")? as usize,
            prec == crate::Precision::Int8,
            self.cfg.atomic_k,
        )
        .map_err(|m| a.op_err(m))?;
        let name = &self.p.tensors[x].name;
        let d = PdpOpDesc {
            split_num: sp.split_num as u8,
            partial_in_width_first: dims(sp.in_first, "partial input width", name)?,
            partial_in_width_mid: dims(sp.in_mid, "partial input width", name)?,
            partial_in_width_last: dims(sp.in_last, "partial input width", name)?,
            partial_width_first: dims(sp.out_first, "partial output width", name)?,
            partial_width_mid: dims(sp.out_mid, "partial output width", name)?,
            partial_width_last: dims(sp.out_last, "partial output width", name)?,
            pool_mode: a.pick("pool_mode", &["avg", "max", "min"])?,
            pool_width: (a.reg("pool_width")? - 1) as u8,
            pool_height: (a.reg("pool_height")? - 1) as u8,
            stride_x: a.reg("stride_x")? as u8,
            stride_y: a.reg("stride_y")? as u8,
            pad_left: a.reg("pad_left")? as u8,
            pad_right: a.reg("pad_right")? as u8,
            pad_top: a.reg("pad_top")? as u8,
            pad_bottom: a.reg("pad_bottom")? as u8,
            precision: precision_code(a.precision("precision")?),
            ..Default::default()
        };
        let sd = PdpSurfaceDesc {
            src_data: self.cube(x)?,
            dst_data: self.cube(_op.output)?,
        };
        Ok((OpDesc::Pdp(d), SurfaceDesc::Pdp(sd)))
    }

    fn cdp(
        &self,
        op: &Op,
        a: &A,
        x: TensorId,
        luts: &mut Vec<LutParam>,
    ) -> Result<(OpDesc, SurfaceDesc)> {
        let in_p = a.precision("in_precision")?;
        let out_p = a.precision("out_precision")?;
        if in_p != out_p {
            return Err(a.err(
                "out_precision",
                format!("is {out_p} but in_precision is {in_p}; CDP converts no precision"),
            ));
        }
        let local_size = a.reg("local_size")?;
        let lut = lrn_lut(
            a.float("alpha")?,
            a.float("beta")?,
            a.float("bias")?,
            local_size,
            in_p,
            a.reg("lut_param.linear_exp_offset.exp_offset")?,
            a.reg("lut_param.linear_only_offset.frac_bits")?,
            a.reg("lut_param.linear_only_start")? as u64,
            a.reg("lut_param.linear_only_end")? as u64,
        );
        let index = match luts.iter().position(|l| l == &lut) {
            Some(i) => i,
            None => {
                luts.push(lut);
                luts.len() - 1
            }
        };
        let d = CdpOpDesc {
            in_precision: precision_code(in_p),
            out_precision: precision_code(out_p),
            lut_index: index as i16,
            in_cvt: CvtParam {
                scale: a.i16("in_cvt.scale")?,
                truncate: a.reg("in_cvt.truncate")? as u8,
                enable: 1,
                offset: a.i32("in_cvt.offset")?,
            },
            out_cvt: CvtParam {
                scale: a.i16("out_cvt.scale")?,
                truncate: a.reg("out_cvt.truncate")? as u8,
                enable: 1,
                offset: a.i32("out_cvt.offset")?,
            },
            local_size: local_size as u8,
            bypass_sqsum: a.reg("bypass_sqsum")? as u8,
            bypass_out_mul: a.reg("bypass_out_mul")? as u8,
            reserved0: 0,
        };
        let sd = CdpSurfaceDesc {
            src_data: self.cube(x)?,
            dst_data: self.cube(op.output)?,
        };
        Ok((OpDesc::Cdp(d), SurfaceDesc::Cdp(sd)))
    }

    fn rubik(&self, op: &Op, a: &A, x: TensorId) -> Result<(OpDesc, SurfaceDesc)> {
        if !self.cfg.has_rubik {
            return Err(a.op_err(format!("{} has no RUBIK engine", self.cfg.name)));
        }
        let d = RubikOpDesc {
            mode: a.pick("mode", &["contract", "split", "merge"])?,
            precision: precision_code(a.precision("precision")?),
            stride_x: a.reg("stride_x")? as u8,
            stride_y: a.reg("stride_y")? as u8,
        };
        // A plane is one surface of the cube: plane stride = surface stride.
        let mut src = self.cube(x)?;
        src.plane_stride = src.surf_stride;
        let mut dst = self.cube(op.output)?;
        dst.plane_stride = dst.surf_stride;
        Ok((
            OpDesc::Rubik(d),
            SurfaceDesc::Rubik(RubikSurfaceDesc {
                src_data: src,
                dst_data: dst,
            }),
        ))
    }

    fn bdma(&self, op: &Op, a: &A, x: TensorId) -> Result<(OpDesc, SurfaceDesc)> {
        if !self.cfg.has_bdma {
            return Err(a.op_err(format!("{} has no BDMA engine", self.cfg.name)));
        }
        let (src, dst) = (self.cube(x)?, self.cube(op.output)?);
        let prec = self.p.tensors[x].precision;
        let cpa = self.cfg.channels_per_atom(prec);
        let line = u32::from(src.width) * (cpa * prec.bytes()) as u32;
        let t = BdmaTransferDesc {
            source_address: src.address,
            destination_address: dst.address,
            line_size: line,
            line_repeat: u32::from(src.height),
            source_line: src.line_stride,
            destination_line: dst.line_stride,
            surface_repeat: (usize::from(src.channel).div_ceil(cpa)) as u32,
            source_surface: src.surf_stride,
            destination_surface: dst.surf_stride,
        };
        let mut sd = BdmaSurfaceDesc {
            source_type: a.pick("source_type", &["mc", "cv"])?,
            destination_type: a.pick("destination_type", &["mc", "cv"])?,
            num_transfers: 1,
            ..Default::default()
        };
        sd.transfers[0] = t;
        Ok((
            OpDesc::Bdma(BdmaOpDesc {
                num_transfers: 1,
                reserved0: 0,
            }),
            SurfaceDesc::Bdma(sd),
        ))
    }
}
