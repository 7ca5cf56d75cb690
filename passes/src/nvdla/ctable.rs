//! `nvdla-load-ctable{file=... format=...}` and `nvdla-gen-ctable{file=...}`
//! — calibration through ONNC's CTable JSON, or any per-tensor calibration
//! file: NVIDIA's calibtable (`nvidia`/`calibtable`), TensorRT's cache
//! (`trt-cache`), Ascend AMCT records (`amct`, `amct-text`); `auto` detects
//! the format from the content (`onnc_nvdla::ctable::formats`).
//!
//! Input: `nvdla` dialect → Output (load): the same ops with the quantization
//! registers the file names overridden; (gen): the IR unchanged and the file
//! written (atomically) with one `"<hw_layer>.<BLOCK>"` entry per register
//! block and each register's current value.
//!
//! ```mlir
//! %y = "nvdla.sdp"(%acc, %b) {hw_layer = "conv1", out_cvt.scale = 1 : i64, ...}
//! ```
//! with `{"conv1.SDP": {"out_cvt.scale": 16557, ...}}` loaded becomes
//! `out_cvt.scale = 16557 : i64`.
//!
//! The formats, ranges and messages live in `onnc_nvdla::ctable`; entries
//! naming tensors the program does not have (removed by fusion) and what a
//! reader could not use are reported as remarks.
//! Failure modes: an unreadable file, malformed JSON, an unknown layer or
//! register (the nearest names are suggested), a value out of its range or
//! of the wrong JSON type — each names the file and the key; nothing is
//! applied unless everything is valid.

use crate::{
    io::write_atomic,
    pipeline::{mlir_face, Diags, Module, Pass},
};
use onnc_dialects::{
    ir::Severity,
    pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration},
};
use onnc_nvdla::ctable::{self, CalibFormat};

/// Registration of `nvdla-load-ctable`.
pub static LOAD: PassRegistration = PassRegistration {
    flag: "nvdla-load-ctable",
    summary: "Set quantization registers from a CTable JSON (or NVIDIA calibtable)",
    anchor: "builtin.module",
    options: &[
        OptionSpec {
            name: "file",
            kind: OptionKind::Str,
            default: "",
            help: "the JSON file to read",
        },
        OptionSpec {
            name: "format",
            kind: OptionKind::Enum(&[
                "ctable",
                "nvidia",
                "calibtable",
                "trt-cache",
                "amct",
                "amct-text",
                "auto",
            ]),
            default: "ctable",
            help: "ONNC's CTable, NVIDIA's calibtable (nvidia), a TensorRT cache, an AMCT record (binary or text), or auto (detected)",
        },
        OptionSpec {
            name: "source",
            kind: OptionKind::Str,
            default: "",
            help: "the name remarks use for the table (default: file; onnc compile passes what the user gave when it wrote the table itself)",
        },
        OptionSpec {
            name: "method",
            kind: OptionKind::Str,
            default: "",
            help: "the calibration method recorded as quant.method (entropy, max, percentile:P, mse; default: what the table says, e.g. a TensorRT cache's header)",
        },
        OptionSpec {
            name: "unused",
            kind: OptionKind::Enum(&["note", "ignore"]),
            default: "note",
            help: "what to do with entries that name no tensor of the program: a remark listing them, or nothing (onnc compile --calib: its table covers every tensor of the ONNX graph, and fusion removes some)",
        },
    ],
    factory: |o: &PassOptions| mlir_face::body("nvdla-load-ctable", o),
};

/// Registration of `nvdla-gen-ctable`.
pub static GEN: PassRegistration = PassRegistration {
    flag: "nvdla-gen-ctable",
    summary: "Write the CTable JSON template with every register's current value",
    anchor: "builtin.module",
    options: &[OptionSpec {
        name: "file",
        kind: OptionKind::Str,
        default: "",
        help: "the JSON file to write",
    }],
    factory: |o: &PassOptions| mlir_face::body("nvdla-gen-ctable", o),
};

/// The options of `nvdla-load-ctable` as the pass uses them.
fn load_options(o: &PassOptions) -> Result<Load, String> {
    let file = o.str("file").to_string();
    if file.is_empty() {
        return Err("nvdla-load-ctable needs file=<path to the CTable JSON>".into());
    }
    let source = match o.str("source") {
        "" => file.clone(),
        s => s.to_string(),
    };
    Ok(Load {
        format: CalibFormat::parse(o.str("format")),
        file,
        source,
        method: Some(o.str("method").to_string()).filter(|m| !m.is_empty()),
        note_unused: o.str("unused") == "note",
    })
}

/// The options of `nvdla-gen-ctable` as the pass uses them.
fn gen_options(o: &PassOptions) -> Result<Gen, String> {
    let file = o.str("file").to_string();
    if file.is_empty() {
        return Err("nvdla-gen-ctable needs file=<path of the JSON to write>".into());
    }
    Ok(Gen { file })
}

struct Load {
    file: String,
    /// `None`: detect from the content.
    format: Option<CalibFormat>,
    /// The table's name in remarks.
    source: String,
    /// `method=`: recorded as `quant.method` over what the table says.
    method: Option<String>,
    /// `unused=note`: list entries that name no tensor in a remark.
    note_unused: bool,
}

impl Load {
    /// Reads the table and sets `p`'s registers. Out: the remarks to show
    /// (entries no tensor matched, the table's own notes), or the messages.
    fn apply(&self, p: &mut onnc_nvdla::Program) -> Result<Vec<String>, Vec<String>> {
        let mut calib = ctable::load_calib(std::path::Path::new(&self.file), self.format)
            .map_err(|e| vec![e.to_string()])?;
        if let (ctable::Calibration::Scales(t), Some(m)) = (&mut calib, &self.method) {
            t.method = Some(m.clone());
        }
        let stats = ctable::apply_calib(p, &calib).map_err(|e| vec![e.to_string()])?;
        let mut notes = Vec::new();
        if self.note_unused && !stats.unmatched.is_empty() {
            notes.push(format!(
                "{}: {} entries name no tensor of the program (removed by fusion?), not used: {}",
                self.source,
                stats.unmatched.len(),
                stats.unmatched.join(", ")
            ));
        }
        notes.extend(stats.notes.iter().map(|n| format!("{}: {n}", self.source)));
        Ok(notes)
    }
}

/// The in-memory `nvdla-load-ctable` (see [`crate::pipeline`]).
pub fn memory_load(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(load_options(o)?))
}

impl Pass for Load {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let n = module.nvdla_mut("nvdla-load-ctable").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        match self.apply(&mut n.program) {
            Ok(notes) => {
                for note in notes {
                    diags.at_module(Severity::Remark, format!("nvdla-load-ctable: {note}"));
                }
                crate::pipeline::program_order::canonical_order(&mut n.program);
                Ok(())
            }
            Err(messages) => {
                for m in messages {
                    diags.error(None, format!("nvdla-load-ctable: {m}"));
                }
                Err(PassFailed)
            }
        }
    }
}

struct Gen {
    file: String,
}

/// The in-memory `nvdla-gen-ctable` (see [`crate::pipeline`]): reads the
/// program, writes the file; the module is unchanged.
pub fn memory_gen(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(gen_options(o)?))
}

impl Pass for Gen {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let n = module.nvdla_mut("nvdla-gen-ctable").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        let json = onnc_nvdla::ctable::gen(&n.program);
        write_atomic(std::path::Path::new(&self.file), json.as_bytes()).map_err(|e| {
            diags.at_module(
                Severity::Error,
                format!("nvdla-gen-ctable: cannot write '{}': {e}", self.file),
            );
            PassFailed
        })
    }
}
