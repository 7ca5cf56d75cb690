//! The NVDLA hardware the `nvdla` dialect is parameterized by: the three
//! configurations (`nv_full`, `nv_large`, `nv_small`: atoms, CBUF geometry,
//! precisions, engines), the datapath precisions and the register table
//! of the dialect's ops (kinds, ranges, defaults, CTable blocks).
//!
//! In: a configuration name or a precision spelling. Out: [`Config`],
//! [`ConfigName`], [`Precision`]. Both the dialect's verifiers
//! (`onnc-dialects`) and the NVDLA back end (`onnc-nvdla`, which re-exports
//! these types) read them, so the dialect crate depends on no back end.

pub mod config;
pub mod precision;
pub mod registers;

pub use config::{Config, ConfigName};
pub use precision::Precision;
