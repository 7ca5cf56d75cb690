//! Command-line syntax of `onnc`.
//!
//! In: `argv`. Out: a [`Cli`]. ONNC's single-dash spellings
//! (`-gen-ctable F`, `-load-ctable F`) are accepted and mean the
//! double-dash options. Choices are clap value enums (a bogus value lists
//! the valid ones); a flag the chosen `--target` does not use is an error
//! naming the targets that use it ([`TARGET_FLAGS`]); `-v`/`-q` set the
//! progress lines and the log level unless `--progress`/`RUST_LOG` say
//! otherwise.

use clap::{
    parser::ValueSource, ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand,
    ValueEnum,
};
use std::path::PathBuf;

/// onnc: compile ONNX models for NVDLA, BARVINN MVU and HiSilicon NNIE.
#[derive(Parser, Debug)]
#[command(
    name = "onnc",
    version = crate::common::VERSION,
    after_help = "The other tools are in this binary too: `onnc opt|translate|run ARGS` is \
                  `onnc-opt|onnc-translate|onnc-run ARGS` (see `onnc opt --help`), and so is \
                  this binary started through a link of that name."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// `--diagnostics-format`, `--color` (before or after the subcommand).
    #[command(flatten)]
    pub diagnostics: crate::common::diagnostics::DiagnosticArgs,
}

/// Subcommands.
// Parsed once per run: a boxed `Compile` would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile an ONNX model for a target.
    Compile(Compile),
    /// Print a report written by `compile --report` (table, CSV or JSON; either view; sorted).
    Report(Report),
    /// Print shell completions for onnc, onnc-opt, onnc-translate and onnc-run.
    Completions(Completions),
    /// Write man pages for onnc, onnc-opt, onnc-translate and onnc-run into a directory.
    Man(Man),
}

/// A compilation target.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// NVDLA, full configuration.
    #[value(name = "nv_full")]
    NvFull,
    /// NVDLA, large configuration.
    #[value(name = "nv_large")]
    NvLarge,
    /// NVDLA, small configuration (INT8).
    #[value(name = "nv_small")]
    NvSmall,
    /// BARVINN MVU.
    Mvu,
    /// HiSilicon NNIE.
    Nnie,
}

impl Target {
    /// The name used on the command line and in pass options.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::NvFull => "nv_full",
            Target::NvLarge => "nv_large",
            Target::NvSmall => "nv_small",
            Target::Mvu => "mvu",
            Target::Nnie => "nnie",
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `--emit` writes for NVDLA.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// The loadable.
    Loadable,
    /// The final `nvdla` IR.
    Mlir,
    /// The hardware-layer graph in Graphviz DOT (engines, tensors, memory pools).
    Dot,
}

/// How `onnc report` prints.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// Aligned columns and totals.
    Table,
    /// Comma-separated values, header = column keys, raw numbers (bytes, not KiB).
    Csv,
    /// The report's JSON (the chosen view's rows in the chosen order).
    Json,
}

/// Which rows `onnc report` prints.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportView {
    /// One row per hardware layer, in execution order.
    HwLayers,
    /// One row per node of the ONNX model, in graph order.
    OnnxNodes,
}

/// The NVDLA datapath precision (`--precision`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NvdlaPrecision {
    /// FP16 (nv_full only; its default).
    Fp16,
    /// INT8, with calibration (the only precision of nv_large and nv_small).
    Int8,
}

/// When to print progress lines.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// When stderr is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// NVDLA descriptor layout.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NvdlaAbi {
    /// Firmware 0.12.x.
    Current,
    /// The 2018 layout (ONNC's).
    Legacy,
}

impl NvdlaAbi {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            NvdlaAbi::Current => "current",
            NvdlaAbi::Legacy => "legacy",
        }
    }
}

const NVDLA: &[Target] = &[Target::NvFull, Target::NvLarge, Target::NvSmall];
/// The NVDLA configurations that can compute in INT8 (nv_full only with
/// `--precision int8`, which [`check_target_flags`] checks).
const NVDLA_INT8: &[Target] = &[Target::NvFull, Target::NvLarge, Target::NvSmall];
/// The targets that calibrate on images (NVDLA INT8 and NNIE) and so take
/// the image preprocessing flags.
const IMAGE_CALIB: &[Target] = &[
    Target::NvFull,
    Target::NvLarge,
    Target::NvSmall,
    Target::Nnie,
];

/// The NVDLA flags that only an INT8 compile uses (clap id, flag).
const INT8_FLAGS: &[(&str, &str)] = &[
    ("calib", "--calib"),
    ("calib_method", "--calib-method"),
    ("resize", "--resize"),
    ("pixel_scale", "--pixel-scale"),
    ("mean", "--mean"),
    ("std", "--std"),
    ("channel_order", "--channel-order"),
    ("load_calib", "--load-calib"),
    ("save_calib", "--save-calib"),
    ("calib_format", "--calib-format"),
    ("allow_uncalibrated", "--allow-uncalibrated"),
];

/// Which targets use a target-specific flag (clap id, flag, targets); a flag
/// given for another target is an error.
pub const TARGET_FLAGS: &[(&str, &str, &[Target])] = &[
    (
        "calib",
        "--calib",
        &[
            Target::NvFull,
            Target::NvLarge,
            Target::NvSmall,
            Target::Nnie,
            Target::Mvu,
        ],
    ),
    ("calib_method", "--calib-method", NVDLA_INT8),
    ("resize", "--resize", IMAGE_CALIB),
    ("pixel_scale", "--pixel-scale", IMAGE_CALIB),
    ("mean", "--mean", IMAGE_CALIB),
    ("std", "--std", IMAGE_CALIB),
    ("channel_order", "--channel-order", IMAGE_CALIB),
    ("mqbench", "--mqbench", &[Target::Nnie]),
    ("eval", "--eval", &[Target::Nnie]),
    ("bits", "--bits", &[Target::Nnie]),
    ("aprec", "--aprec", &[Target::Mvu]),
    ("wprec", "--wprec", &[Target::Mvu]),
    ("oprec", "--oprec", &[Target::Mvu]),
    ("per_channel", "--per-channel", &[Target::Mvu]),
    ("quant_msb", "--quant-msb", &[Target::Mvu]),
    ("no_ram_check", "--no-ram-check", &[Target::Mvu]),
    ("seed", "--seed", &[Target::Mvu]),
    ("precision", "--precision", NVDLA),
    ("memory_svg", "--memory-svg", NVDLA),
    ("memory_csv", "--memory-csv", NVDLA),
    ("gen_ctable", "--gen-ctable", NVDLA),
    ("load_ctable", "--load-ctable", NVDLA),
    ("load_calibtable", "--load-calibtable", NVDLA),
    ("emit", "--emit", NVDLA),
    ("nvdla_abi", "--nvdla-abi", NVDLA),
    ("check_sim", "--check-sim", NVDLA),
    ("load_calib", "--load-calib", NVDLA_INT8),
    ("save_calib", "--save-calib", NVDLA_INT8),
    ("calib_format", "--calib-format", NVDLA_INT8),
    ("allow_uncalibrated", "--allow-uncalibrated", NVDLA_INT8),
];

/// `onnc compile`.
#[derive(Args, Debug, Clone)]
pub struct Compile {
    /// The ONNX model.
    pub model: PathBuf,
    /// The target.
    #[arg(long, value_enum, default_value_t = Target::NvFull)]
    pub target: Target,
    /// Output: the loadable (NVDLA), the MLIR file (--emit mlir), or a directory (mvu, nnie).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// NVDLA: what to write to -o.
    #[arg(long, value_enum, default_value_t = Emit::Loadable)]
    pub emit: Emit,
    /// NVDLA: the datapath precision: fp16 (nv_full's default) or int8
    /// (calibrated; the only precision of nv_large and nv_small).
    #[arg(long, value_enum)]
    pub precision: Option<NvdlaPrecision>,
    /// Write the JSON report (hardware layers, ONNX nodes, MACs, descriptors, memory) here and print the per-layer table.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// NVDLA: draw the activation memory plan (tensors over time × address, the lower bound marked) as SVG here.
    #[arg(long = "memory-svg")]
    pub memory_svg: Option<PathBuf>,
    /// NVDLA: write the memory map (every placed tensor: pool, offset, size, live steps) as CSV here.
    #[arg(long = "memory-csv")]
    pub memory_csv: Option<PathBuf>,
    /// NVDLA: write ONNC's calibration-table template (CTable JSON) here.
    #[arg(long = "gen-ctable")]
    pub gen_ctable: Option<PathBuf>,
    /// NVDLA: set quantization registers from this CTable JSON.
    #[arg(long = "load-ctable")]
    pub load_ctable: Option<PathBuf>,
    /// NVDLA: set quantization registers from NVIDIA's per-tensor calibtable JSON.
    #[arg(long = "load-calibtable")]
    pub load_calibtable: Option<PathBuf>,
    /// NVDLA INT8: calibration from a file: ONNC CTable, NVIDIA calibtable, TensorRT
    /// calibration cache, AMCT record (binary or text); the format is detected
    /// from the content unless --calib-format names it.
    #[arg(long = "load-calib")]
    pub load_calib: Option<PathBuf>,
    /// NVDLA INT8: write the scales used (from --calib or --load-calib) here, in --calib-format.
    #[arg(long = "save-calib")]
    pub save_calib: Option<PathBuf>,
    /// NVDLA: format of --save-calib (default calibtable), or of --load-calib when
    /// nothing is saved: ctable, calibtable, trt-cache, amct, amct-text.
    #[arg(long = "calib-format")]
    pub calib_format: Option<String>,
    /// NVDLA INT8: compile without calibration (identity scales; the numbers are
    /// wrong — for structure tests only).
    #[arg(long = "allow-uncalibrated")]
    pub allow_uncalibrated: bool,
    /// NVDLA: after compiling, run the loadable in the bit-exact simulator and
    /// the model in the reference interpreter on seeded random inputs; fail,
    /// writing nothing, if an output differs beyond FP16's tolerance (then the
    /// per-layer table shows the first wrong layer). `ONNC_CHECK_SIM=1` turns it on.
    #[arg(long = "check-sim")]
    pub check_sim: bool,
    /// Fix graph inputs' shapes: `x=1x3x224x224`, `x:1,3,224,224`, `x=1,3,224,224`;
    /// several: repeat the flag or separate with `;`.
    #[arg(long = "input-shape")]
    pub input_shape: Vec<String>,
    /// Write the IR after each stage into this directory (`01-import.mlir`, ...).
    #[arg(long = "dump-ir-after-all")]
    pub dump_ir_after_all: Option<PathBuf>,
    /// NVDLA: descriptor layout (current: firmware 0.12.x; legacy: 2018, ONNC's).
    #[arg(long = "nvdla-abi", value_enum, default_value_t = NvdlaAbi::Current)]
    pub nvdla_abi: NvdlaAbi,
    /// Progress lines per stage on stderr (default: -v always, -q never, else when a terminal).
    #[arg(long, value_enum, default_value_t = Progress::Auto)]
    pub progress: Progress,
    /// More output on stderr: -v progress lines always; -vv also info logs (stages), -vvv debug, -vvvv trace.
    #[arg(short = 'v', long = "verbose", action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,
    /// Less output on stderr: no progress lines, only errors in the log.
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,
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
    /// NNIE, NVDLA INT8: calibration data: a folder of `input_<k>.pb` sets (ONNX
    /// test-data layout), of `.npy` files, or of images (see --resize, --mean, --std).
    /// MVU: `.pb` or `.npy` sets of input codes (integers in 0..2^aprec-1) that set
    /// each layer's quantizer MSB (instead of --quant-msb).
    #[arg(long)]
    pub calib: Option<PathBuf>,
    /// NVDLA: how --calib chooses each tensor's range: max, percentile[:P]
    /// (default P 99.99), entropy (TensorRT's KL search), mse.
    #[arg(long = "calib-method", default_value = "entropy")]
    pub calib_method: String,
    /// Calibration images: `stretch` to the input's H×W, or `crop:S` (shorter
    /// side to S, then the centre).
    #[arg(long)]
    pub resize: Option<String>,
    /// Calibration images: multiplier of the 0–255 pixel value (default 1/255;
    /// NNIE: the .cfg's [data_scale] is it divided by --std).
    #[arg(long = "pixel-scale")]
    pub pixel_scale: Option<f64>,
    /// Calibration images: per-channel mean subtracted after scaling, `M` or `R,G,B`
    /// (NNIE: written to the package's channel_mean.txt in pixel units).
    #[arg(long)]
    pub mean: Option<String>,
    /// Calibration images: per-channel divisor after the mean, `S` or `R,G,B`
    /// (NNIE: one value for every channel, as the mapper has one [data_scale]).
    #[arg(long)]
    pub std: Option<String>,
    /// Calibration images: `rgb` (default) or `bgr` (Caffe, OpenCV models);
    /// NNIE: the .cfg's [RGB_order].
    #[arg(long = "channel-order", visible_alias = "rgb-order")]
    pub channel_order: Option<String>,
    /// NNIE: clip values from MQBench's deploy JSON instead of calibration;
    /// keys are ONNX node names or output tensor names.
    #[arg(long)]
    pub mqbench: Option<PathBuf>,
    /// NNIE: held-out data for the quality report: a folder with `test_x.npy`
    /// (f32 samples `[N, ...input]`) and `test_y.npy` (integer labels `[N]`)
    /// gives top-1 accuracy of the float and the simulated 8-bit network;
    /// `input_<k>.pb` or `.npy` sets give the error metrics only.
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// NNIE: quantization bits (8).
    #[arg(long, default_value_t = 8)]
    pub bits: u32,
}

impl Compile {
    /// Whether to print progress lines.
    pub fn progress_wanted(&self) -> bool {
        crate::stages::progress_wanted(self.progress)
    }

    /// The log level `-v`/`-q` ask for.
    pub fn log_level(&self) -> &'static str {
        crate::common::logging::level(self.quiet, self.verbose)
    }

    /// Whether the compile is NVDLA INT8: nv_large and nv_small always,
    /// nv_full with `--precision int8`.
    pub fn is_nvdla_int8(&self) -> bool {
        match self.target {
            Target::NvFull => self.precision == Some(NvdlaPrecision::Int8),
            Target::NvLarge | Target::NvSmall => true,
            Target::Nnie | Target::Mvu => false,
        }
    }

    /// The NVDLA target as the library's compile functions take it:
    /// `nv_small`, `nv_full`, or `nv_full:int8` (see
    /// `onnc_passes::numerics::nvdla_spec`).
    pub fn nvdla_spec(&self) -> String {
        if self.target == Target::NvFull && self.is_nvdla_int8() {
            "nv_full:int8".to_string()
        } else {
            self.target.as_str().to_string()
        }
    }
}

/// `onnc report`.
#[derive(Args, Debug)]
pub struct Report {
    /// A report written by `onnc compile --report`.
    pub report: PathBuf,
    /// Rows: hardware layers or the model's ONNX nodes.
    #[arg(long, value_enum, default_value_t = ReportView::HwLayers)]
    pub view: ReportView,
    /// Sort by this column (its CSV header key: macs, descriptors, weight_bytes, name, ...);
    /// numbers largest first, text A→Z.
    #[arg(long)]
    pub sort: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
}

/// `onnc completions`.
#[derive(Args, Debug)]
pub struct Completions {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
    /// Write one file per tool into this directory instead of printing them all.
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// `onnc man`.
#[derive(Args, Debug)]
pub struct Man {
    /// The directory (created if missing).
    pub dir: PathBuf,
}

/// Parses `argv` (with ONNC's single-dash spellings rewritten).
pub fn parse(args: &[String]) -> Result<Cli, clap::Error> {
    let args: Vec<String> = args
        .iter()
        .map(|a| match a.as_str() {
            "-gen-ctable" | "-load-ctable" | "-load-calibtable" | "-input-shape"
            | "-dump-ir-after-all" => format!("-{a}"),
            _ => match a.split_once('=') {
                Some((k, v)) if ["-gen-ctable", "-load-ctable"].contains(&k) => format!("-{k}={v}"),
                _ => a.clone(),
            },
        })
        .collect();
    let matches = Cli::command().try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if let (Command::Compile(c), Some(m)) =
        (&mut cli.command, matches.subcommand_matches("compile"))
    {
        check_target_flags(c, m)?;
        if m.value_source("progress") != Some(ValueSource::CommandLine) {
            c.progress = match (c.quiet, c.verbose) {
                (true, _) => Progress::Never,
                (false, 0) => Progress::Auto,
                _ => Progress::Always,
            };
        }
    }
    Ok(cli)
}

/// A flag given on the command line for a target that does not use it.
fn check_target_flags(c: &Compile, m: &ArgMatches) -> Result<(), clap::Error> {
    for (id, flag, targets) in TARGET_FLAGS {
        if m.value_source(id) == Some(ValueSource::CommandLine) && !targets.contains(&c.target) {
            let names: Vec<&str> = targets.iter().map(|t| t.as_str()).collect();
            let msg = format!(
                "{flag} is not used by --target {}; it is for --target {}",
                c.target,
                names.join(", ")
            );
            let mut cmd = Cli::command();
            cmd.build();
            let sub = cmd.find_subcommand_mut("compile").expect("compile exists");
            return Err(sub.error(clap::error::ErrorKind::ArgumentConflict, msg));
        }
    }
    let error = |msg: String| {
        let mut cmd = Cli::command();
        cmd.build();
        let sub = cmd.find_subcommand_mut("compile").expect("compile exists");
        sub.error(clap::error::ErrorKind::ArgumentConflict, msg)
    };
    if c.precision == Some(NvdlaPrecision::Fp16) && c.target != Target::NvFull {
        return Err(error(format!(
            "--target {} computes in INT8 only; --precision fp16 is for --target nv_full",
            c.target
        )));
    }
    if c.target == Target::NvFull && !c.is_nvdla_int8() {
        for (id, flag) in INT8_FLAGS {
            if m.value_source(id) == Some(ValueSource::CommandLine) {
                return Err(error(format!(
                    "{flag} is for INT8 compiles, and --target nv_full computes in FP16 unless --precision int8 is given"
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn onnc_single_dash_spellings_are_accepted() {
        let c = parse(&args(
            "onnc compile m.onnx -gen-ctable t.json -load-ctable=u.json",
        ))
        .unwrap();
        let Command::Compile(c) = c.command else {
            panic!("not compile")
        };
        assert_eq!(c.gen_ctable.unwrap(), PathBuf::from("t.json"));
        assert_eq!(c.load_ctable.unwrap(), PathBuf::from("u.json"));
    }

    #[test]
    fn unknown_flags_are_errors() {
        assert!(parse(&args("onnc compile m.onnx --frobnicate")).is_err());
    }

    #[test]
    fn flags_of_other_targets_are_errors_defaults_are_not() {
        let e = parse(&args("onnc compile m.onnx --target mvu --calib-method max"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "--calib-method is not used by --target mvu; it is for --target nv_full, nv_large, nv_small"
            ),
            "{e}"
        );
        // The MVU calibrates its quantizer windows on input codes.
        assert!(parse(&args("onnc compile m.onnx --target mvu --calib d")).is_ok());
        // nv_full takes the INT8 flags only with --precision int8.
        let e = parse(&args("onnc compile m.onnx --calib d"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--calib is for INT8 compiles, and --target nv_full computes in FP16 unless --precision int8 is given"),
            "{e}"
        );
        assert!(parse(&args("onnc compile m.onnx --precision int8 --calib d")).is_ok());
        let e = parse(&args(
            "onnc compile m.onnx --target nv_small --precision fp16",
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("--precision fp16 is for --target nv_full"),
            "{e}"
        );
        let e = parse(&args("onnc compile m.onnx --target mvu --memory-svg m.svg"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("it is for --target nv_full, nv_large, nv_small"),
            "{e}"
        );
        assert!(parse(&args("onnc compile m.onnx --target mvu --report r.json")).is_ok());
        assert!(parse(&args(
            "onnc compile m.onnx --target nnie --calib d --report r.json"
        ))
        .is_ok());
        assert!(parse(&args("onnc compile m.onnx --target mvu --aprec 2")).is_ok());
        assert!(parse(&args(
            "onnc compile m.onnx --target nv_small --calib d --calib-method max"
        ))
        .is_ok());
        let e = parse(&args("onnc compile m.onnx --allow-uncalibrated"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--allow-uncalibrated is for INT8 compiles"),
            "{e}"
        );
        assert!(parse(&args(
            "onnc compile m.onnx --target nnie --bits 8 --calib d"
        ))
        .is_ok());
    }

    #[test]
    fn nnie_takes_the_image_preprocessing_flags_and_eval() {
        let c = parse(&args(
            "onnc compile m.onnx --target nnie --calib d --mean 0.5 --std 0.25 --pixel-scale 0.004 --resize crop:20 --rgb-order bgr --eval e",
        ))
        .unwrap();
        let Command::Compile(c) = c.command else {
            panic!("not compile")
        };
        assert_eq!(c.channel_order.as_deref(), Some("bgr"));
        assert_eq!(c.eval, Some(PathBuf::from("e")));
        let e = parse(&args("onnc compile m.onnx --target mvu --mean 0.5"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--mean is not used by --target mvu; it is for --target nv_full, nv_large, nv_small, nnie"),
            "{e}"
        );
        let e = parse(&args("onnc compile m.onnx --target nv_small --eval e"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--eval is not used by --target nv_small; it is for --target nnie"),
            "{e}"
        );
    }

    #[test]
    fn verbosity_sets_progress_unless_given() {
        let progress = |s: &str| match parse(&args(s)).unwrap().command {
            Command::Compile(c) => c.progress,
            _ => unreachable!(),
        };
        assert_eq!(progress("onnc compile m.onnx -q"), Progress::Never);
        assert_eq!(progress("onnc compile m.onnx -v"), Progress::Always);
        assert_eq!(
            progress("onnc compile m.onnx -v --progress never"),
            Progress::Never
        );
        assert!(parse(&args("onnc compile m.onnx -v -q")).is_err());
    }
}
