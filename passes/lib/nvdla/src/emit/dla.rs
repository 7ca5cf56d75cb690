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
//! feature strides. Conv CBUF use (`entry_per_slice`, banks) follows the
//! official compiler: full weights if they fit beside the input, else two
//! kernel groups (ping-pong), else one; an input that does not fit is an
//! error (height splitting is not implemented). Example: NN_L0_0's conv1
//! (28×28×1 fp16, 20×5×5 kernels) gets `entry_per_slice 7, data_bank 1,
//! weight_bank 1, release 28`.

use std::collections::BTreeMap;

use onnc_nvdla_loadable::desc::container::op_type;
use onnc_nvdla_loadable::desc::{
    mem_type, BdmaOpDesc, BdmaSurfaceDesc, BdmaTransferDesc, CdpOpDesc, CdpSurfaceDesc,
    ConvOpDesc, ConvSurfaceDesc, CvtParam, DataCube, LutParam, OpDesc, PdpOpDesc, PdpSurfaceDesc,
    RubikOpDesc, RubikSurfaceDesc, SdpCvt, SdpOp, SdpOpDesc, SdpSurfaceDesc, SurfaceDesc,
};

use super::attrs::{precision_code, A};
use super::deps::{Node, Region};
use super::encode::{Encoded, SDP_UNITS};
use super::error::{EmitError, Result};
use super::lut::lrn_lut;
use super::memory::{place, MemPlan};
use super::weights::feature_geometry;
use crate::config::Config;
use crate::program::{Engine, Op, Program, TensorId, TensorKind};

/// `FORMAT_FEATURE`.
const FORMAT_FEATURE: u8 = 36;

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
    u16::try_from(v).map_err(|_| EmitError::Tensor {
        tensor: t.to_string(),
        problem: format!("{what} {v} does not fit a 16-bit descriptor field"),
    })
}

fn u32_of(v: u64, t: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| EmitError::Tensor {
        tensor: t.to_string(),
        problem: format!("{v} bytes does not fit a 32-bit descriptor field"),
    })
}

impl Ctx<'_> {
    /// `[N, C, H, W]` of a feature tensor.
    fn nchw(&self, t: TensorId) -> Result<[usize; 4]> {
        let tensor = &self.p.tensors[t];
        <[usize; 4]>::try_from(tensor.shape.as_slice()).map_err(|_| EmitError::Tensor {
            tensor: tensor.name.clone(),
            problem: format!("feature tensors must be 4-D [N, C, H, W], got {:?}", tensor.shape),
        })
    }

    /// The data cube of a feature tensor (memory or fused).
    pub(crate) fn cube(&self, t: TensorId) -> Result<DataCube> {
        let tensor = &self.p.tensors[t];
        let name = &tensor.name;
        let [_, c, h, w] = self.nchw(t)?;
        let (width, height, channel) = (dims(w, "width", name)?, dims(h, "height", name)?, dims(c, "channels", name)?);
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
        Ok(DataCube {
            mem_type: mem_type::MC,
            address: self.mem.existing(self.p, t)? as i16,
            offset: 0,
            size: u32_of(pl.size, name)?,
            width,
            height,
            channel,
            reserved0: 0,
            line_stride: pl.line_stride,
            surf_stride: pl.surf_stride,
            plane_stride: 0,
        })
    }

    /// The cube of an operand that is a weight (encoded) or a feature.
    fn operand_cube(&self, t: TensorId) -> Result<DataCube> {
        let Some(e) = self.weights.get(&t) else {
            return self.cube(t);
        };
        let name = &self.p.tensors[t].name;
        Ok(DataCube {
            mem_type: mem_type::MC,
            address: self.mem.existing(self.p, t)? as i16,
            size: u32_of(e.bytes.len() as u64, name)?,
            width: dims(e.whc[0], "width", name)?,
            height: dims(e.whc[1], "height", name)?,
            channel: dims(e.whc[2], "channels", name)?,
            line_stride: e.line_stride as u32,
            surf_stride: e.surf_stride as u32,
            ..Default::default()
        })
    }

    fn region(&self, t: TensorId) -> Result<Option<Region>> {
        if matches!(self.p.tensors[t].kind, TensorKind::Fused) {
            return Ok(None);
        }
        let pl = place(self.p, t)?;
        Ok(Some((self.mem.mem_of(self.p, t)?, pl.offset, pl.size)))
    }

    /// Descriptors and graph node of one DLA op.
    pub(crate) fn describe(&self, op: &Op, luts: &mut Vec<LutParam>) -> Result<(OpDesc, SurfaceDesc, Node)> {
        let a = A::new(op);
        let ty = dla_type(op.engine).ok_or_else(|| a.op_err("is not a DLA engine op (internal)"))?;
        let input = |i: usize| -> Result<TensorId> {
            op.inputs
                .get(i)
                .copied()
                .flatten()
                .ok_or_else(|| a.op_err(format!("operand {i} is missing")))
        };
        let mut reads = Vec::new();
        for t in op.operands() {
            reads.extend(self.region(t)?);
        }
        let writes: Vec<Region> = self.region(op.output)?.into_iter().collect();
        if op.engine != Engine::Conv && op.engine != Engine::Sdp && matches!(self.p.tensors[op.output].kind, TensorKind::Fused) {
            return Err(a.op_err("its output is a fused stream; only conv (and an SDP feeding a PDP) write on-the-fly data"));
        }
        let (desc, surf) = match op.engine {
            Engine::Conv => self.conv(op, &a, input(0)?, input(1)?)?,
            Engine::Sdp => self.sdp(op, &a, input(0)?)?,
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

    fn conv(&self, op: &Op, a: &A, x: TensorId, w: TensorId) -> Result<(OpDesc, SurfaceDesc)> {
        let [n, c, h, wd] = self.nchw(x)?;
        let wt = &self.p.tensors[w];
        let [k, wc, r, s] = <[usize; 4]>::try_from(wt.shape.as_slice())
            .map_err(|_| a.op_err(format!("weight '{}' must be [K, C, R, S], got {:?}", wt.name, wt.shape)))?;
        let [_, ko, e, f] = self.nchw(op.output)?;
        if ko != k {
            return Err(a.op_err(format!("output has {ko} channels but the weight has {k} kernels")));
        }
        if !matches!(self.p.tensors[op.output].kind, TensorKind::Fused) {
            return Err(a.op_err("the output must be the fused accumulator (TensorKind::Fused) read by an SDP"));
        }
        let fmt = a.str("data_format")?;
        if fmt != "feature" {
            return Err(EmitError::Unsupported(format!(
                "conv '{}': image input (data_format \"{fmt}\") needs channel pre-extension of the weights; only \"feature\" is emitted",
                op.hw_layer
            )));
        }
        let in_p = a.precision("in_precision")?;
        let cfg = self.cfg;
        let entry = cfg.cbuf_entry_bytes.max(1);
        let per_entry = (entry / cfg.mem_atom_bytes).max(1);
        let atoms = (c * in_p.bytes()).div_ceil(cfg.mem_atom_bytes);
        let rem = atoms % per_entry;
        let frac = match rem {
            0 => 0,
            3 => wd,
            _ => (rem * wd).div_ceil(per_entry),
        };
        let eps = (atoms / per_entry) * wd + frac;
        let epb = (cfg.cbuf_bank_bytes / entry).max(1);
        let data_bank = (eps * h).div_ceil(epb).max(1);
        let wbytes = self.weights.get(&w).map_or(0, |e| e.bytes.len());
        let bpk = wc * r * s * in_p.bytes();
        let kpg = super::weights::kernels_per_group(cfg, in_p);
        let banks = |bytes: usize| bytes.div_ceil(entry).div_ceil(epb).max(1);
        let (full, group) = (banks(wbytes), banks(bpk * kpg.min(k)));
        let weight_bank = if data_bank + full <= cfg.cbuf_banks {
            full
        } else if data_bank + 2 * group <= cfg.cbuf_banks {
            2 * group
        } else if data_bank + group <= cfg.cbuf_banks {
            group
        } else {
            return Err(a.op_err(format!(
                "needs {data_bank} CBUF banks for its input and {group} for one kernel group, more than the {} banks of {}; splitting the input height is not implemented",
                cfg.cbuf_banks, cfg.name
            )));
        };
        let name = &self.p.tensors[x].name;
        let d = ConvOpDesc {
            conv_mode: a.pick("conv_mode", &["direct", "winograd"])?,
            entry_per_slice: dims(eps, "entries per slice", name)?,
            data_format: FORMAT_FEATURE,
            fetch_grain: 1,
            batch: n.clamp(1, 255) as u8,
            data_bank: data_bank as u8,
            weight_bank: weight_bank as u8,
            release: dims(h, "height", name)?,
            input_width_csc: dims(wd, "width", name)?,
            input_height_csc: dims(h, "height", name)?,
            input_channel_csc: dims(c, "channels", name)?,
            kernel_width_csc: dims(s, "kernel width", name)?,
            kernel_height_csc: dims(r, "kernel height", name)?,
            kernel_channel_csc: dims(wc, "kernel channels", name)?,
            input_width_cmac: dims(f, "output width", name)?,
            input_height_cmac: dims(e, "output height", name)?,
            bytes_per_kernel: bpk as u32,
            mean_ry: a.int_in("mean_ry", 0, 65535)? as u16 as i16,
            mean_gu: a.int_in("mean_gu", 0, 65535)? as u16 as i16,
            mean_bv: a.int_in("mean_bv", 0, 65535)? as u16 as i16,
            mean_ax: a.int_in("mean_ax", 0, 65535)? as u16 as i16,
            mean_format: a.int_in("mean_format", 0, 1)? as u8,
            conv_stride_x: a.int_in("conv_stride_x", 1, 8)? as u8,
            conv_stride_y: a.int_in("conv_stride_y", 1, 8)? as u8,
            pad_x_left: a.int_in("pad_x_left", 0, 31)? as u8,
            pad_x_right: a.int_in("pad_x_right", 0, 31)? as u8,
            pad_y_top: a.int_in("pad_y_top", 0, 31)? as u8,
            pad_y_bottom: a.int_in("pad_y_bottom", 0, 31)? as u8,
            dilation_x: a.int_in("dilation_x", 1, 32)? as u8,
            dilation_y: a.int_in("dilation_y", 1, 32)? as u8,
            in_precision: precision_code(in_p),
            out_precision: precision_code(a.precision("out_precision")?),
            pad_val: a.i16("pad_val")?,
            in_cvt: CvtParam {
                scale: a.i16("in_cvt.scale")?,
                truncate: a.int_in("in_cvt.truncate", 0, 63)? as u8,
                enable: a.int_in("in_cvt.enable", 0, 1)? as u8,
                offset: a.i32("in_cvt.offset")?,
            },
            out_cvt: CvtParam {
                scale: 1,
                truncate: a.int_in("out_cvt.truncate", 0, 63)? as u8,
                enable: 1,
                offset: 0,
            },
            ..Default::default()
        };
        let sd = ConvSurfaceDesc {
            weight_data: self.operand_cube(w)?,
            src_data: self.cube(x)?,
            dst_data: self.cube(op.output)?,
            ..Default::default()
        };
        Ok((OpDesc::Conv(d), SurfaceDesc::Conv(sd)))
    }

    fn sdp_unit(&self, a: &A, unit: &str, with_cvt: bool) -> Result<SdpOp> {
        let f = |field: &str| format!("{unit}.{field}");
        let cvt = |which: &str| -> Result<CvtParam> {
            let g = |field: &str| format!("{unit}.cvt.{which}.{field}");
            Ok(CvtParam {
                scale: a.i16(&g("scale"))?,
                truncate: a.int_in(&g("truncate"), 0, 63)? as u8,
                enable: a.int_in(&g("enable"), 0, 1)? as u8,
                offset: a.i32(&g("offset"))?,
            })
        };
        Ok(SdpOp {
            enable: a.int_in(&f("enable"), 0, 1)? as u8,
            alu_type: a.pick(&f("alu_type"), &["max", "min", "sum", "eql"])?,
            op_type: a.pick(&f("type"), &["none", "mul", "add", "both"])?,
            mode: a.pick(&f("mode"), &["per_layer", "per_kernel", "per_point"])?,
            act: a.pick(&f("act"), &["none", "relu", "lut", "prelu"])?,
            shift_value: a.int_in(&f("shift_value"), 0, 63)? as u8,
            truncate: a.int_in(&f("truncate"), 0, 63)? as u8,
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

    fn sdp(&self, op: &Op, a: &A, x: TensorId) -> Result<(OpDesc, SurfaceDesc)> {
        let lut = a.int_in("lut_index", -1, 255)?;
        if lut >= 0 {
            return Err(EmitError::Unsupported(format!(
                "sdp '{}': lut_index {lut}; SDP lookup-table activations have no table source yet (only CDP LRN tables are built)",
                op.hw_layer
            )));
        }
        let d = SdpOpDesc {
            src_precision: precision_code(a.precision("src_precision")?),
            dst_precision: precision_code(a.precision("dst_precision")?),
            lut_index: -1,
            out_cvt: CvtParam {
                scale: a.i16("out_cvt.scale")?,
                truncate: a.int_in("out_cvt.truncate", 0, 63)? as u8,
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
                Some(t) => self.operand_cube(t),
                None => Ok(DataCube::default()),
            }
        };
        let sd = SdpSurfaceDesc {
            src_data: self.cube(x)?,
            x1_data: operand(1)?,
            x2_data: operand(2)?,
            y_data: operand(3)?,
            dst_data: self.cube(op.output)?,
        };
        Ok((OpDesc::Sdp(d), SurfaceDesc::Sdp(sd)))
    }

    fn pdp(&self, _op: &Op, a: &A, x: TensorId) -> Result<(OpDesc, SurfaceDesc)> {
        let d = PdpOpDesc {
            split_num: 1,
            pool_mode: a.pick("pool_mode", &["avg", "max", "min"])?,
            pool_width: (a.int_in("pool_width", 1, 8)? - 1) as u8,
            pool_height: (a.int_in("pool_height", 1, 8)? - 1) as u8,
            stride_x: a.int_in("stride_x", 1, 8)? as u8,
            stride_y: a.int_in("stride_y", 1, 8)? as u8,
            pad_left: a.int_in("pad_left", 0, 7)? as u8,
            pad_right: a.int_in("pad_right", 0, 7)? as u8,
            pad_top: a.int_in("pad_top", 0, 7)? as u8,
            pad_bottom: a.int_in("pad_bottom", 0, 7)? as u8,
            precision: precision_code(a.precision("precision")?),
            ..Default::default()
        };
        let sd = PdpSurfaceDesc {
            src_data: self.cube(x)?,
            dst_data: self.cube(_op.output)?,
        };
        Ok((OpDesc::Pdp(d), SurfaceDesc::Pdp(sd)))
    }

    fn cdp(&self, op: &Op, a: &A, x: TensorId, luts: &mut Vec<LutParam>) -> Result<(OpDesc, SurfaceDesc)> {
        let in_p = a.precision("in_precision")?;
        let out_p = a.precision("out_precision")?;
        if in_p != out_p {
            return Err(a.err("out_precision", format!("is {out_p} but in_precision is {in_p}; CDP converts no precision")));
        }
        let local_size = a.int_in("local_size", 3, 9)?;
        let lut = lrn_lut(
            a.float("alpha")?,
            a.float("beta")?,
            a.float("bias")?,
            local_size,
            in_p,
            a.int_in("lut_param.linear_exp_offset.exp_offset", -128, 127)?,
            a.int_in("lut_param.linear_only_offset.frac_bits", -128, 127)?,
            a.int_in("lut_param.linear_only_start", 0, (1 << 38) - 1)? as u64,
            a.int_in("lut_param.linear_only_end", 0, (1 << 38) - 1)? as u64,
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
                truncate: a.int_in("in_cvt.truncate", 0, 63)? as u8,
                enable: 1,
                offset: a.i32("in_cvt.offset")?,
            },
            out_cvt: CvtParam {
                scale: a.i16("out_cvt.scale")?,
                truncate: a.int_in("out_cvt.truncate", 0, 63)? as u8,
                enable: 1,
                offset: a.i32("out_cvt.offset")?,
            },
            local_size: local_size as u8,
            bypass_sqsum: a.int_in("bypass_sqsum", 0, 1)? as u8,
            bypass_out_mul: a.int_in("bypass_out_mul", 0, 1)? as u8,
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
            stride_x: a.int_in("stride_x", 1, 8)? as u8,
            stride_y: a.int_in("stride_y", 1, 8)? as u8,
        };
        // A plane is one surface of the cube: plane stride = surface stride.
        let mut src = self.cube(x)?;
        src.plane_stride = src.surf_stride;
        let mut dst = self.cube(op.output)?;
        dst.plane_stride = dst.surf_stride;
        Ok((OpDesc::Rubik(d), SurfaceDesc::Rubik(RubikSurfaceDesc { src_data: src, dst_data: dst })))
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
