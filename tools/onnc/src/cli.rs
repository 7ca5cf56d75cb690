//! Command-line syntax of `onnc`.
//!
//! In: `argv`. Out: a [`Cli`]. ONNC's single-dash spellings
//! (`-gen-ctable F`, `-load-ctable F`) are accepted and mean the
//! double-dash options.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// onnc: compile ONNX models for NVDLA, BARVINN MVU and HiSilicon NNIE.
#[derive(Parser, Debug)]
#[command(name = "onnc", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile an ONNX model for a target.
    Compile(Compile),
    /// Print the per-layer table of a report written by `compile --report`.
    Report(Report),
}

/// `onnc compile`.
#[derive(Args, Debug, Clone)]
pub struct Compile {
    /// The ONNX model.
    pub model: PathBuf,
    /// nv_full | nv_large | nv_small | mvu | nnie.
    #[arg(long, default_value = "nv_full")]
    pub target: String,
    /// Output: the loadable (NVDLA), the MLIR file (--emit mlir), or a directory (mvu, nnie).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// What to write for NVDLA targets: `loadable` (default) or `mlir` (the final nvdla IR).
    #[arg(long, default_value = "loadable")]
    pub emit: String,
    /// Write the JSON report (hw layers, op counts, memory) here and print the per-layer table.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Write ONNC's calibration-table template (CTable JSON) here.
    #[arg(long = "gen-ctable")]
    pub gen_ctable: Option<PathBuf>,
    /// Set quantization registers from this CTable JSON.
    #[arg(long = "load-ctable")]
    pub load_ctable: Option<PathBuf>,
    /// Set quantization registers from NVIDIA's per-tensor calibtable JSON.
    #[arg(long = "load-calibtable")]
    pub load_calibtable: Option<PathBuf>,
    /// Fix a graph input's shape: `name=1x3x224x224` (repeatable).
    #[arg(long = "input-shape")]
    pub input_shape: Vec<String>,
    /// Write the IR after each stage into this directory (`01-import.mlir`, ...).
    #[arg(long = "dump-ir-after-all")]
    pub dump_ir_after_all: Option<PathBuf>,
    /// NVDLA descriptor layout: current (firmware 0.12.x) or legacy (2018, ONNC's).
    #[arg(long = "nvdla-abi", default_value = "current")]
    pub nvdla_abi: String,
    /// Show a progress line per stage even when stderr is not a terminal (`never` hides it).
    #[arg(long, default_value = "auto")]
    pub progress: String,
    /// MVU: activation precision in bits (1..16).
    #[arg(long, default_value_t = 8)]
    pub aprec: u32,
    /// MVU: weight precision in bits (1..16).
    #[arg(long, default_value_t = 8)]
    pub wprec: u32,
    /// MVU: output precision in bits (1..16).
    #[arg(long, default_value_t = 8)]
    pub oprec: u32,
    /// MVU: one weight scale per output channel (default: per layer).
    #[arg(long)]
    pub per_channel: bool,
    /// MVU: seed of the test-vector input.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// MVU: do not refuse layers beyond one MVU's RAMs (BARVINN's generator checks none).
    #[arg(long = "no-ram-check")]
    pub no_ram_check: bool,
    /// MVU: quantizer MSB index for every layer (0..26; default oprec - 1).
    #[arg(long = "quant-msb")]
    pub quant_msb: Option<u32>,
    /// NNIE: calibration data: a folder of `input_<k>.pb` sets (ONNX test-data layout) or of images.
    #[arg(long)]
    pub calib: Option<PathBuf>,
    /// NNIE: clip values from MQBench's deploy JSON instead of calibration.
    #[arg(long)]
    pub mqbench: Option<PathBuf>,
    /// NNIE: quantization bits (8).
    #[arg(long, default_value_t = 8)]
    pub bits: u32,
}

/// `onnc report`.
#[derive(Args, Debug)]
pub struct Report {
    /// A report written by `onnc compile --report`.
    pub report: PathBuf,
}

/// Parses `argv` (with ONNC's single-dash spellings rewritten).
pub fn parse(args: &[String]) -> Result<Cli, clap::Error> {
    let args: Vec<String> = args
        .iter()
        .map(|a| match a.as_str() {
            "-gen-ctable" | "-load-ctable" | "-load-calibtable" | "-input-shape" | "-dump-ir-after-all" => format!("-{a}"),
            _ => match a.split_once('=') {
                Some((k, v)) if ["-gen-ctable", "-load-ctable"].contains(&k) => format!("-{k}={v}"),
                _ => a.clone(),
            },
        })
        .collect();
    Cli::try_parse_from(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn onnc_single_dash_spellings_are_accepted() {
        let c = parse(&args("onnc compile m.onnx -gen-ctable t.json -load-ctable=u.json")).unwrap();
        let Command::Compile(c) = c.command else { panic!("not compile") };
        assert_eq!(c.gen_ctable.unwrap(), PathBuf::from("t.json"));
        assert_eq!(c.load_ctable.unwrap(), PathBuf::from("u.json"));
    }

    #[test]
    fn unknown_flags_are_errors() {
        assert!(parse(&args("onnc compile m.onnx --frobnicate")).is_err());
    }
}
