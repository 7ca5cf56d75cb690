//! NVDLA loadables: read, write, dump and verify.
//!
//! A loadable is the FlatBuffers container (`proto/nvdla/loadable.fbs`, root
//! table `Loadable`, version 0.7.0) that the open-source NVDLA runtime loads;
//! some of its blobs are firmware descriptors laid out byte for byte as in
//! `dla_interface.h` / `emu_interface.h`. Facts: research/nvdla.md.
//!
//! ```no_run
//! use onnc_nvdla_loadable::{detect_abi, dump_detected, verify, Loadable};
//! let bytes = std::fs::read("model.nvdla")?;
//! let l = Loadable::read(&bytes)?;          // bytes → model (never panics)
//! let abi = detect_abi(&l).abi;             // Abi::Current or Abi::Legacy
//! print!("{}", dump_detected(&l));          // text dump
//! for v in verify(&l, abi) { eprintln!("{v}"); }
//! let again = l.write();                    // model → bytes, "NVDA"
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules:
//! * [`model`] — the container model; [`Loadable::read`] / [`Loadable::write`].
//! * [`enums`] — open enums of the schema (unknown values survive).
//! * [`desc`] — descriptor codecs (`decode(&[u8], Abi)` / `encode(Abi)`),
//!   one file per engine, plus whole-blob helpers.
//! * [`layout`] — follows a task's pointers to its descriptor blobs.
//! * [`detect`] — ABI auto-detection.
//! * [`convert_abi`] — re-lays descriptors from one ABI to the other.
//! * [`dump()`] / [`dump_detected`] — the text dump.
//! * [`verify()`] — the rules of research/nvdla.md §1–§2.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod abi;
pub mod convert;
pub mod desc;
pub mod detect;
mod dump;
pub mod enums;
mod error;
mod fb;
pub mod layout;
pub mod model;
mod read;
pub mod schema;
pub mod text;
pub mod verify;
mod write;

pub use abi::Abi;
pub use convert::convert_abi;
pub use detect::{detect_abi, AbiGuess};
pub use dump::{dump, dump_detected};
pub use error::{Error, Result};
pub use model::*;
pub use verify::{verify, verify_with, Severity, VerifyOptions, Violation};
pub use write::Reserved;
