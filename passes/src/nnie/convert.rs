//! `convert-onnx-to-nnie{calib=DIR | mqbench=FILE.json ...}` — a legalized
//! `onnx`-dialect function → calibrated NNIE layers (the `nnie` level).
//!
//! Input: the `onnx` level after `onnx-simplify` and
//! `onnc-legalize{target=nnie}` → Output: [`crate::pipeline::NnieModule`]:
//! one calibrated `onnc_nnie` layer per `nnie` op, with its quantization
//! registers (`input_clip`/`input_z` per data input, `weight_clip`/`weight_z`
//! for conv, deconv and fc), and the `nnie_mapper` package made from them
//! (Caffe prototxt and caffemodel, clip table, `.cfg`, image list, the
//! calibration inputs it names) plus `quant_report.json`.
//!
//! Options (the clip source is exactly one of the first two):
//! - `calib=DIR`: calibration sets — ONNX test data (`input_<k>.pb`,
//!   `test_data_set_*/`), `.npy` sets, or a folder of images;
//! - `mqbench=FILE.json`: MQBench's NNIE deploy table (clips snapped to the grid);
//! - `bits=8`: code width (16 is refused: its code is not public);
//! - `eval=DIR`: held-out sets for `quant_report.json` (default: the calibration sets);
//! - `name=STEM`: package file stem (default: the graph's name, file-safe);
//! - image preprocessing, refused for tensor data: `resize=` (`stretch`,
//!   `HxW`, …), `pixel-scale=`, `mean=a,b,c`, `std=a,b,c`, `channel-order=rgb|bgr`
//!   (defaults: NNIE's `p/255`, RGB, stretched). The `.cfg` says the same.
//!
//! ```text
//! onnc-opt m.mlir --pass-pipeline='builtin.module(onnx-simplify, onnc-legalize{target=nnie}, convert-onnx-to-nnie{calib=calib/})'
//! ```
//!
//! The pass runs in memory (see [`crate::pipeline`]): the module changes
//! level from `onnx` to `nnie`. Failure modes: no or two clip sources, bad
//! preprocessing, a layer NNIE cannot run, calibration or MQBench-table
//! problems — each at its node's location when it has one; the IR is
//! unchanged. The layers' non-fatal findings (e.g. a depthwise convolution)
//! are warnings.

use crate::pipeline::{mlir_face, Diags, Module, NnieModule, Pass};
use onnc_dialects::pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration};
use onnc_nnie::frontend::{CalibSource, CompileOptions};
use std::path::PathBuf;

const fn text(name: &'static str, help: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Str,
        default: "",
        help,
    }
}

/// Registration of `convert-onnx-to-nnie`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "convert-onnx-to-nnie",
    summary: "Calibrate a legalized network and lower it to NNIE layers (the nnie level)",
    anchor: "builtin.module",
    options: &[
        text(
            "calib",
            "calibration folder: input_<k>.pb sets, .npy sets or images",
        ),
        text(
            "mqbench",
            "MQBench NNIE deploy JSON with the clip table (instead of calib)",
        ),
        OptionSpec {
            name: "bits",
            kind: OptionKind::Int { min: 1, max: 64 },
            default: "8",
            help: "code width in bits (8; 16 is refused)",
        },
        text("eval", "held-out sets for quant_report.json"),
        text("name", "package file stem (default: the graph name)"),
        text("resize", "image resizing: stretch, HxW, ..."),
        text(
            "pixel-scale",
            "multiplier of the 0-255 pixel value (default 1/255)",
        ),
        text("mean", "per-channel mean a,b,c subtracted after scaling"),
        text("std", "per-channel std a,b,c dividing after the mean"),
        text("channel-order", "rgb or bgr"),
    ],
    factory: |o: &PassOptions| mlir_face::body("convert-onnx-to-nnie", o),
};

/// Option `k`'s value when given (not empty).
fn set<'a>(o: &'a PassOptions, k: &str) -> Option<&'a str> {
    Some(o.str(k)).filter(|v| !v.is_empty())
}

/// The front end's options from the pass's textual ones. Err: no or two
/// clip sources, a calibration path that is not a folder, preprocessing
/// for tensor data or a value that does not parse.
pub fn options(o: &PassOptions) -> Result<CompileOptions, String> {
    let calib = match (o.str("calib"), o.str("mqbench")) {
        ("", "") => {
            return Err(
                "convert-onnx-to-nnie needs calibration data: calib=DIR (input_<k>.pb sets, .npy files or images) or mqbench=FILE.json"
                    .into(),
            )
        }
        (d, "") => CalibSource::from_dir(&PathBuf::from(d))
            .map_err(|e| e.replacen("--calib", "calib", 1))?,
        ("", j) => CalibSource::Mqbench(PathBuf::from(j)),
        _ => return Err("convert-onnx-to-nnie: give calib or mqbench, not both".into()),
    };
    let mut p = onnc_calib::Preprocess::default();
    let given: Vec<&str> = ["resize", "pixel-scale", "mean", "std", "channel-order"]
        .into_iter()
        .filter(|k| !o.str(k).is_empty())
        .collect();
    if let (CalibSource::TestData(d) | CalibSource::Npy(d), Some(k)) = (&calib, given.first()) {
        return Err(format!(
            "{k} preprocesses calibration images, but '{}' holds tensors (input_<k>.pb or .npy), which are fed as they are",
            d.display()
        ));
    }
    let bad = |k: &str, e: &dyn std::fmt::Display| format!("{k}: {e}");
    if let Some(v) = set(o, "resize") {
        p.resize = v.parse().map_err(|e| bad("resize", &e))?;
    }
    if let Some(v) = set(o, "pixel-scale") {
        p.scale = v.parse().map_err(|e| bad("pixel-scale", &e))?;
    }
    if let Some(v) = set(o, "mean") {
        p.mean = onnc_calib::Preprocess::parse_triplet("mean", v).map_err(|e| bad("mean", &e))?;
    }
    if let Some(v) = set(o, "std") {
        p.std = onnc_calib::Preprocess::parse_triplet("std", v).map_err(|e| bad("std", &e))?;
    }
    if let Some(v) = set(o, "channel-order") {
        p.order = v.parse().map_err(|e| bad("channel-order", &e))?;
    }
    let mut opts = CompileOptions::new(calib);
    opts.bits = o.int("bits") as u32;
    opts.legalize = false;
    opts.preprocess = p.validated().map_err(|e| e.to_string())?;
    opts.eval = Some(o.str("eval"))
        .filter(|s| !s.is_empty())
        .map(PathBuf::from);
    opts.name = Some(o.str("name"))
        .filter(|s| !s.is_empty())
        .map(String::from);
    Ok(opts)
}

/// The in-memory `convert-onnx-to-nnie`: the module changes level from
/// `onnx` to `nnie`.
pub fn memory(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(with_options(options(o)?))
}

/// `convert-onnx-to-nnie` with every option of the front end, beyond the
/// pass's textual ones (MQBench name maps, progress bars): what `onnc
/// compile --target nnie` runs. In: the options. Out: the pass; on the
/// `nnie` level it leads to, the package is the one `onnc_nnie::frontend::compile`
/// makes with `opts`.
pub fn with_options(opts: CompileOptions) -> Box<dyn Pass> {
    Box::new(Convert { opts })
}

struct Convert {
    opts: CompileOptions,
}

impl Pass for Convert {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let graph = module.onnx_mut("convert-onnx-to-nnie").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        match onnc_nnie::frontend::compile(graph, &self.opts) {
            Ok(compiled) => {
                for w in compiled.warnings() {
                    diags.warning(None, w.clone());
                }
                *module = Module::Nnie(NnieModule::new(compiled));
                Ok(())
            }
            Err(onnc_nnie::NnieError::Refused(ps)) => {
                for p in &ps {
                    let node = Some(p.node.as_str()).filter(|n| !n.is_empty());
                    diags.error(node, p.to_string());
                }
                Err(PassFailed)
            }
            Err(e) => {
                diags.error(None, e.to_string());
                Err(PassFailed)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_dialects::pass_api::parse_options;

    fn opts(raw: &str) -> Result<CompileOptions, String> {
        options(&parse_options(
            REGISTRATION.flag,
            REGISTRATION.options,
            raw,
        )?)
    }

    fn data(rel: &str) -> String {
        format!("{}/nnie/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn exactly_one_clip_source() {
        assert!(opts("").unwrap_err().contains("needs calibration data"));
        let both = format!("calib={} mqbench=q.json", data("nnie_cnn_calib"));
        assert!(opts(&both).unwrap_err().contains("not both"));
        assert!(opts("calib=/no/such/dir")
            .unwrap_err()
            .contains("not a directory"));
        let mq = opts("mqbench=q.json").unwrap();
        assert_eq!(mq.calib, CalibSource::Mqbench("q.json".into()));
    }

    #[test]
    fn test_data_is_detected_and_refuses_image_options() {
        let dir = data("nnie_cnn_calib");
        let o = opts(&format!("calib={dir} bits=8 name=net")).unwrap();
        assert_eq!(o.calib, CalibSource::TestData(dir.clone().into()));
        assert_eq!(
            (o.bits, o.name.as_deref(), o.legalize),
            (8, Some("net"), false)
        );
        let e = opts(&format!("calib={dir} mean=1,2,3")).unwrap_err();
        assert!(e.contains("mean preprocesses calibration images"), "{e}");
    }

    /// The level change on the CNN fixture: the nnie level holds exactly the
    /// package the engine makes, and a second run refuses the level.
    #[test]
    fn onnx_level_becomes_the_nnie_level() {
        let g = onnc_onnx::load(data("nnie_cnn.onnx"), &Default::default())
            .unwrap()
            .graph;
        let mut o = CompileOptions::new(CalibSource::TestData(data("nnie_cnn_calib").into()));
        o.legalize = true;
        let direct = onnc_nnie::frontend::compile(&g, &o).unwrap();
        let mut module = Module::Onnx(g);
        let mut diags = Diags::new();
        let pass = with_options(o);
        pass.run(&mut module, &mut diags).unwrap();
        let m = module.nnie("test").unwrap();
        assert_eq!(m.compiled.package(), direct.package());
        assert_eq!(m.compiled.layers(), direct.layers());
        assert!(m.compiled.layers().iter().any(|l| l.weight_clip.is_some()));
        assert!(pass.run(&mut module, &mut diags).is_err());
        let e = diags.take();
        assert!(
            e.iter()
                .any(|d| d.message.contains("expects the onnx level")),
            "{e:?}"
        );
    }

    #[test]
    fn image_preprocessing_is_parsed() {
        let o = opts(
            "mqbench=q.json mean=0.5,0.5,0.5 std=0.25,0.25,0.25 channel-order=bgr pixel-scale=1",
        )
        .unwrap();
        assert_eq!(o.preprocess.mean, [0.5; 3]);
        assert_eq!(o.preprocess.std, [0.25; 3]);
        assert_eq!(o.preprocess.order, onnc_calib::ChannelOrder::Bgr);
        assert_eq!(o.preprocess.scale, 1.0);
        assert!(opts("mqbench=q.json std=0,1,1").is_err());
        assert!(opts("mqbench=q.json channel-order=gbr").is_err());
    }
}
