//! NVDLA hardware configurations (research/nvdla.md §5).
//!
//! In: a configuration name (`nv_full`, `nv_large`, `nv_small`). Out: a
//! [`Config`] with the atoms, CBUF geometry, precisions and engines every
//! pass reads. In IR the configuration is the module attribute
//! `nvdla.config = "nv_full"` ([`Config::to_attr_fields`] lists what a
//! printed module shows beside it).
//!
//! ```
//! use onnc_nvdla_hw::{Config, ConfigName};
//! let c = Config::get(ConfigName::NvSmall);
//! assert_eq!(c.mem_atom_bytes, 8);
//! assert!(!c.has_rubik && !c.has_sdp_lut);
//! assert_eq!("nv_full".parse::<ConfigName>().unwrap(), ConfigName::NvFull);
//! ```

use crate::precision::Precision;
use std::fmt;
use std::str::FromStr;

/// One of the three configurations the official compiler knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConfigName {
    /// nv_full: FP16 (and INT8/INT16), all engines.
    NvFull,
    /// nv_large: INT8 only, no BDMA/RUBIK.
    NvLarge,
    /// nv_small: INT8 only, 8-byte atoms, no BDMA/RUBIK/SDP LUT/SDP Y (EW) unit.
    NvSmall,
}

impl ConfigName {
    /// Every configuration, in a fixed order.
    pub const ALL: [ConfigName; 3] = [ConfigName::NvFull, ConfigName::NvLarge, ConfigName::NvSmall];

    /// The name as spelled on the command line and in IR.
    pub fn as_str(self) -> &'static str {
        match self {
            ConfigName::NvFull => "nv_full",
            ConfigName::NvLarge => "nv_large",
            ConfigName::NvSmall => "nv_small",
        }
    }
}

impl fmt::Display for ConfigName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ConfigName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ConfigName::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown NVDLA configuration '{s}' (expected nv_full, nv_large or nv_small)"
                )
            })
    }
}

/// Hardware parameters of one configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Which configuration.
    pub name: ConfigName,
    /// MAC input channels per atom (atomic-C).
    pub atomic_c: usize,
    /// Kernels per MAC atom (atomic-K).
    pub atomic_k: usize,
    /// Memory atom in bytes (32 on full/large, 8 on small).
    pub mem_atom_bytes: usize,
    /// CBUF banks.
    pub cbuf_banks: usize,
    /// Bytes per CBUF bank.
    pub cbuf_bank_bytes: usize,
    /// CBUF entry width in bytes (weights are padded to it).
    pub cbuf_entry_bytes: usize,
    /// Precisions the datapath supports.
    pub precisions: &'static [Precision],
    /// The precision the compiler uses by default (FP16 on nv_full, INT8 elsewhere).
    pub default_precision: Precision,
    /// BDMA engine present.
    pub has_bdma: bool,
    /// RUBIK engine present.
    pub has_rubik: bool,
    /// SDP lookup table (sigmoid/tanh) present.
    pub has_sdp_lut: bool,
    /// SDP Y (EW) unit present: MUL → ALU on an operand with its own
    /// converter, and the LUT after it. Per-point and per-channel operands
    /// read from memory by the X1 (BS) and X2 (BN) units exist on every
    /// configuration (NVIDIA's compiler runs its element-wise sum on X1).
    pub has_sdp_eltwise: bool,
    /// Largest batch (1 = no batching).
    pub max_batch: usize,
    /// Tensor-desc pixel format of bindable feature tensors (36 FEATURE, 37 FEATURE_X8).
    pub pixel_format: u32,
}

impl Config {
    /// The parameters of `name`.
    pub fn get(name: ConfigName) -> Config {
        match name {
            ConfigName::NvFull => Config {
                name,
                atomic_c: 64,
                atomic_k: 32,
                mem_atom_bytes: 32,
                cbuf_banks: 16,
                cbuf_bank_bytes: 256 * 128,
                cbuf_entry_bytes: 128,
                precisions: &[Precision::Int8, Precision::Int16, Precision::Fp16],
                default_precision: Precision::Fp16,
                has_bdma: true,
                has_rubik: true,
                has_sdp_lut: true,
                has_sdp_eltwise: true,
                max_batch: 32,
                pixel_format: 36,
            },
            ConfigName::NvLarge => Config {
                name,
                atomic_c: 64,
                atomic_k: 32,
                mem_atom_bytes: 32,
                cbuf_banks: 16,
                cbuf_bank_bytes: 512 * 64,
                cbuf_entry_bytes: 64,
                precisions: &[Precision::Int8],
                default_precision: Precision::Int8,
                has_bdma: false,
                has_rubik: false,
                has_sdp_lut: true,
                has_sdp_eltwise: true,
                max_batch: 32,
                pixel_format: 36,
            },
            ConfigName::NvSmall => Config {
                name,
                atomic_c: 8,
                atomic_k: 8,
                mem_atom_bytes: 8,
                cbuf_banks: 32,
                cbuf_bank_bytes: 512 * 8,
                cbuf_entry_bytes: 8,
                precisions: &[Precision::Int8],
                default_precision: Precision::Int8,
                has_bdma: false,
                has_rubik: false,
                has_sdp_lut: false,
                has_sdp_eltwise: false,
                max_batch: 1,
                pixel_format: 37,
            },
        }
    }

    /// Total CBUF bytes.
    pub fn cbuf_bytes(&self) -> usize {
        self.cbuf_banks * self.cbuf_bank_bytes
    }

    /// Channels that share one memory atom at `p` (the feature-cube "surface" group).
    pub fn channels_per_atom(&self, p: Precision) -> usize {
        self.mem_atom_bytes / p.bytes()
    }

    /// Whether the datapath runs `p`.
    pub fn supports(&self, p: Precision) -> bool {
        self.precisions.contains(&p)
    }

    /// The fields a printed module lists in its `nvdla.hw` dictionary
    /// (name, value), in a fixed order.
    pub fn to_attr_fields(&self) -> Vec<(&'static str, i64)> {
        vec![
            ("atomic_c", self.atomic_c as i64),
            ("atomic_k", self.atomic_k as i64),
            ("mem_atom_bytes", self.mem_atom_bytes as i64),
            ("cbuf_banks", self.cbuf_banks as i64),
            ("cbuf_bank_bytes", self.cbuf_bank_bytes as i64),
            ("has_bdma", self.has_bdma as i64),
            ("has_rubik", self.has_rubik as i64),
            ("has_sdp_lut", self.has_sdp_lut as i64),
            ("has_sdp_eltwise", self.has_sdp_eltwise as i64),
            ("max_batch", self.max_batch as i64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbuf_is_512k_on_full_and_large_128k_on_small() {
        assert_eq!(Config::get(ConfigName::NvFull).cbuf_bytes(), 512 * 1024);
        assert_eq!(Config::get(ConfigName::NvLarge).cbuf_bytes(), 512 * 1024);
        assert_eq!(Config::get(ConfigName::NvSmall).cbuf_bytes(), 128 * 1024);
    }

    #[test]
    fn atoms_hold_16_fp16_or_32_int8_channels_on_full() {
        let c = Config::get(ConfigName::NvFull);
        assert_eq!(c.channels_per_atom(Precision::Fp16), 16);
        assert_eq!(c.channels_per_atom(Precision::Int8), 32);
        assert_eq!(
            Config::get(ConfigName::NvSmall).channels_per_atom(Precision::Int8),
            8
        );
    }

    #[test]
    fn names_round_trip_and_unknown_is_an_error() {
        for c in ConfigName::ALL {
            assert_eq!(c.as_str().parse::<ConfigName>().unwrap(), c);
        }
        assert!("nv_medium"
            .parse::<ConfigName>()
            .unwrap_err()
            .contains("nv_full"));
    }
}
