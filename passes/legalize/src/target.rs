//! Targets and their hardware limits: the numbers rule conditions and the
//! cost models read.
//!
//! In: a target name (`nv_full`, `nv_large`, `nv_small`, `nnie`, `mvu`).
//! Out: a [`Target`] and its [`Config`].
//!
//! Sources: NVDLA limits from ONNC's `Operator.md` and nvdla/sw's
//! `TargetConfig.cpp` (research/nvdla.md §5, research/onnc.md §2.2); NNIE
//! from MQBench's `nnie.rst` (research/targets.md §B.2); MVU from the
//! BARVINN code generator (research/targets.md §A).
//!
//! **Assumed, not sourced** (change when a manual says otherwise): NNIE's
//! kernel/stride/pad limit of 15 and its CPU-path op list; the MVU's kernel ≤ 7,
//! stride ≤ 4, pad ≤ 3 and 3×3 max-pooling without padding.
//!
//! ```
//! use onnc_legalize::Target;
//! let t: Target = "nv_small".parse().unwrap();
//! assert_eq!(t.config().cbuf_bytes, 128 * 1024);
//! assert!(!t.config().has_rubik);
//! ```

use std::fmt;
use std::str::FromStr;

/// A compilation target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// NVDLA nv_full (fp16, RUBIK, BDMA, LUT).
    NvFull,
    /// NVDLA nv_large (int8, no RUBIK/BDMA).
    NvLarge,
    /// NVDLA nv_small (int8, 128 KiB CBUF, no RUBIK/BDMA/LUT).
    NvSmall,
    /// HiSilicon NNIE (Caffe layers through nnie_mapper).
    Nnie,
    /// BARVINN MVU (bit-serial conv/matmul).
    Mvu,
}

/// Every target, in a fixed order.
pub const ALL_TARGETS: [Target; 5] = [
    Target::NvFull,
    Target::NvLarge,
    Target::NvSmall,
    Target::Nnie,
    Target::Mvu,
];

impl Target {
    /// The target's name as spelled on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::NvFull => "nv_full",
            Target::NvLarge => "nv_large",
            Target::NvSmall => "nv_small",
            Target::Nnie => "nnie",
            Target::Mvu => "mvu",
        }
    }

    /// Whether this is an NVDLA configuration.
    pub fn is_nvdla(self) -> bool {
        matches!(self, Target::NvFull | Target::NvLarge | Target::NvSmall)
    }

    /// The target's limits.
    pub fn config(self) -> Config {
        let nvdla = Config {
            conv_kernel_max: 32,
            conv_stride_max: 8,
            conv_pad_max: 31,
            conv_dilation_max: 32,
            pool_kernel_max: 8,
            pool_stride_max: 8,
            pool_pad_max: 7,
            channels_max: 8192,
            cbuf_bytes: 512 * 1024,
            cbuf_banks: 16,
            cbuf_entry_bytes: 128,
            atomic_c: 64,
            atomic_k: 32,
            elem_bytes: 2,
            has_rubik: true,
            has_lut: true,
            relu6: false,
            max_batch: 32,
            cpu_ops: &["Softmax", "Pow"],
            grouped_conv: false,
            depthwise_conv: false,
        };
        match self {
            Target::NvFull => nvdla,
            Target::NvLarge => Config {
                cbuf_entry_bytes: 64,
                elem_bytes: 1,
                has_rubik: false,
                ..nvdla
            },
            Target::NvSmall => Config {
                cbuf_bytes: 128 * 1024,
                cbuf_banks: 32,
                cbuf_entry_bytes: 8,
                atomic_c: 8,
                atomic_k: 8,
                elem_bytes: 1,
                has_rubik: false,
                has_lut: false,
                max_batch: 1,
                ..nvdla
            },
            Target::Nnie => Config {
                conv_kernel_max: 15,
                conv_stride_max: 15,
                conv_pad_max: 15,
                conv_dilation_max: 15,
                pool_kernel_max: 15,
                pool_stride_max: 15,
                pool_pad_max: 15,
                cbuf_bytes: usize::MAX,
                cbuf_banks: 1,
                cbuf_entry_bytes: 1,
                atomic_c: 1,
                atomic_k: 1,
                elem_bytes: 1,
                has_rubik: false,
                has_lut: true,
                relu6: false,
                max_batch: 1,
                cpu_ops: &["Softmax", "Pow", "Log", "Exp", "Sqrt"],
                grouped_conv: true,
                depthwise_conv: true,
                ..nvdla
            },
            // The MVU's limits are its 15-bit length/jump registers and RAM
            // sizes, which the code generator (onnc-mvu) checks per layer
            // with the layer's name; legalization only bounds the shapes.
            Target::Mvu => Config {
                conv_kernel_max: 1 << 15,
                conv_stride_max: 1 << 15,
                conv_pad_max: 1 << 15,
                conv_dilation_max: 1,
                pool_kernel_max: 1 << 15,
                pool_stride_max: 1 << 15,
                pool_pad_max: 1 << 15,
                channels_max: 4096,
                cbuf_bytes: 256 * 1024,
                cbuf_banks: 1,
                cbuf_entry_bytes: 1,
                atomic_c: 64,
                atomic_k: 64,
                elem_bytes: 1,
                has_rubik: false,
                has_lut: false,
                relu6: false,
                max_batch: 1,
                cpu_ops: &[],
                grouped_conv: false,
                depthwise_conv: false,
            },
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Target, crate::Error> {
        ALL_TARGETS
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| crate::Error::UnknownTarget(s.to_string()))
    }
}

/// Hardware limits of one target (all counts inclusive maxima).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Largest convolution kernel side.
    pub conv_kernel_max: usize,
    /// Largest convolution stride.
    pub conv_stride_max: usize,
    /// Largest convolution padding (per side).
    pub conv_pad_max: usize,
    /// Largest convolution dilation.
    pub conv_dilation_max: usize,
    /// Largest pooling window side (NVDLA PDP: 8).
    pub pool_kernel_max: usize,
    /// Largest pooling stride.
    pub pool_stride_max: usize,
    /// Largest pooling padding (per side).
    pub pool_pad_max: usize,
    /// Largest channel count of a feature cube.
    pub channels_max: usize,
    /// Convolution buffer bytes (`usize::MAX`: no on-chip limit the compiler must respect).
    pub cbuf_bytes: usize,
    /// Banks the convolution buffer is allotted in (data and weights each
    /// take whole banks).
    pub cbuf_banks: usize,
    /// Convolution buffer entry bytes (an input line and a kernel group
    /// take whole entries).
    pub cbuf_entry_bytes: usize,
    /// MAC input channels per atom.
    pub atomic_c: usize,
    /// MAC kernels per atom.
    pub atomic_k: usize,
    /// Bytes per element of the computing precision (fp16: 2, int8: 1).
    pub elem_bytes: usize,
    /// Whether RUBIK (and BDMA) exist: channel shuffle.
    pub has_rubik: bool,
    /// Whether the SDP lookup table exists: Sigmoid, Tanh.
    pub has_lut: bool,
    /// Whether `Clip(0, 6)` (ReLU6) runs natively.
    pub relu6: bool,
    /// Largest batch.
    pub max_batch: usize,
    /// Ops the target's CPU path runs (NVDLA: the stock UMD emulator EMU runs
    /// Softmax and Power; ONNC's Log needs a patched UMD and is not listed).
    pub cpu_ops: &'static [&'static str],
    /// Whether grouped (non-depthwise) convolutions run natively.
    pub grouped_conv: bool,
    /// Whether depthwise convolutions run natively.
    pub depthwise_conv: bool,
}
