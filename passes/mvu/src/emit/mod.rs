//! Output writers: JSON, text table, C header, PITO assembly, and the bundle
//! of all of them plus the weight images.
//!
//! In: a [`Table`] (and [`WeightFile`]s). Out: file contents as strings
//! ([`json`], [`text`], [`header`], [`asm`]) or a list of [`OutputFile`]s
//! ([`bundle`]) that [`write_dir`] puts on disk. Everything is deterministic.
//!
//! ```
//! use onnc_mvu::{emit, export_weights, generate, ConvShape, Layer, Options, Precision};
//! let l = Layer::conv("c", ConvShape::new(64, 8, 8, 64, [1, 1]), Precision::new(2, 2, 2))
//!     .with_weight_name("c.weight");
//! let t = generate(&[l.clone()], &Options::default()).unwrap();
//! let w = export_weights(&l, &vec![1; 64 * 64]).unwrap();
//! let files = emit::bundle(&t, &[w], &emit::AsmOptions::default()).unwrap();
//! let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
//! assert_eq!(names, ["mvu_config.json", "mvu_config.txt", "mvu_config.h", "mvu_program.s", "c.weight.hex"]);
//! ```

mod asm;
mod header;
mod json;
mod text;

use std::collections::BTreeSet;
use std::path::Path;

pub use asm::{asm, default_bases, job_count, AsmOptions, ConvJobs, LayerBases, OutputMvus};
pub use header::header;
pub use json::json;
pub use text::text;

use crate::config::Table;
use crate::error::{Error, Result};
use crate::weights::WeightFile;

/// Name of the JSON table.
pub const CONFIG_JSON: &str = "mvu_config.json";
/// Name of the text table.
pub const CONFIG_TXT: &str = "mvu_config.txt";
/// Name of the C header.
pub const CONFIG_HEADER: &str = "mvu_config.h";
/// Name of the assembly listing.
pub const PROGRAM_ASM: &str = "mvu_program.s";

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// File name (no directory).
    pub name: String,
    /// Contents.
    pub contents: String,
}

/// All outputs: the four table files, then the weight images in the given order.
pub fn bundle(
    table: &Table,
    weights: &[WeightFile],
    asm_opts: &AsmOptions,
) -> Result<Vec<OutputFile>> {
    let mut files = vec![
        OutputFile {
            name: CONFIG_JSON.into(),
            contents: json(table),
        },
        OutputFile {
            name: CONFIG_TXT.into(),
            contents: text(table),
        },
        OutputFile {
            name: CONFIG_HEADER.into(),
            contents: header(table),
        },
        OutputFile {
            name: PROGRAM_ASM.into(),
            contents: asm(table, asm_opts)?,
        },
    ];
    let mut names: BTreeSet<String> = files.iter().map(|f| f.name.clone()).collect();
    for w in weights {
        if !table.rows.iter().any(|r| r.name == w.layer) {
            return Err(Error::UnknownLayer {
                layer: w.layer.clone(),
            });
        }
        if !names.insert(w.file_name.clone()) {
            return Err(Error::DuplicateFile {
                layer: w.layer.clone(),
                file: w.file_name.clone(),
            });
        }
        files.push(OutputFile {
            name: w.file_name.clone(),
            contents: w.contents(),
        });
    }
    Ok(files)
}

/// Writes `files` into `dir` (created if missing).
pub fn write_dir(dir: &Path, files: &[OutputFile]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for f in files {
        std::fs::write(dir.join(&f.name), &f.contents)?;
    }
    Ok(())
}
