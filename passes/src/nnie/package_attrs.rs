//! The package's own inputs as attributes of the `nnie` level's function:
//! what `onnc_nnie::frontend::build_package` needs besides the layers, the
//! quality report and the warnings.
//!
//! In (writing): the module's [`PackageInputs`], report and warnings. Out:
//! the function's attributes
//!
//! ```text
//! nnie.package = {name = "main_graph", image_list = ["calibration_data/input_0.pb"],
//!                 image_type = 0 : i64, rgb_order = "RGB", norm_type = 0 : i64,
//!                 data_scale = 1.0 : f32, [channel_means = array<f32: ...>,]
//!                 is_simulation = 0 : i64, cfg_references_clip_table = false}
//! nnie.files = [{path = "calibration_data/input_0.pb", bytes = dense_resource<..> : tensor<Nxui8>}, ...]
//! nnie.quant_report = {outputs = [{name = "y", elements = .., cosine = .., ...}], ...}
//!                                                      (quant_report.json's metrics: super::report_attr)
//! nnie.warnings = ["..."]                              (only when there are some)
//! ```
//!
//! and back (reading): the same values, or a message naming the missing,
//! unknown or ill-typed attribute. [`FUNCTION_ATTRS`] and [`PACKAGE_KEYS`]
//! are the reader's lists of what it requires and accepts; the header of
//! `dialects/nnie.irdl.mlir` and `docs/dialects/nnie.md` list the same
//! (tied by `level_contract_tests.rs`). `nnie.files` keeps the files in
//! package order (a list, not a dictionary: MLIR sorts dictionary keys).

use crate::blobs::Blobs;
use crate::level_text::sanitize;
use melior::ir::{
    attribute::{
        ArrayAttribute, BoolAttribute, DictionaryAttribute, FloatAttribute, IntegerAttribute,
        StringAttribute,
    },
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, Identifier, OperationRef, Type,
};
use onnc_dialects::ir;
use onnc_nnie::frontend::PackageInputs;
use onnc_nnie::{CfgPreprocess, PackageOptions, QuantReport};
use onnc_tensor::{DType, Tensor};

/// The function attribute with the package name, list and mapper options.
pub const PACKAGE: &str = "nnie.package";
/// The function attribute with the calibration files.
pub const FILES: &str = "nnie.files";
/// The function attribute with `quant_report.json`.
pub const REPORT: &str = "nnie.quant_report";
/// The function attribute with the compile's warnings.
pub const WARNINGS: &str = "nnie.warnings";

/// The function's attributes at the nnie level: `(name, required)`.
pub const FUNCTION_ATTRS: [(&str, bool); 4] = [
    (PACKAGE, true),
    (REPORT, true),
    (FILES, false),
    (WARNINGS, false),
];

/// The keys of [`PACKAGE`]: `(key, required)`; no other key is accepted.
pub const PACKAGE_KEYS: [(&str, bool); 9] = [
    ("name", true),
    ("image_list", true),
    ("image_type", true),
    ("rgb_order", true),
    ("norm_type", true),
    ("data_scale", true),
    ("channel_means", false),
    ("is_simulation", true),
    ("cfg_references_clip_table", true),
];

pub(super) fn int(context: &melior::Context, v: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), v).into()
}

fn strings<'c>(context: &'c melior::Context, v: &[String]) -> Attribute<'c> {
    let items: Vec<Attribute> = v
        .iter()
        .map(|s| StringAttribute::new(context, s).into())
        .collect();
    ArrayAttribute::new(context, &items).into()
}

pub(super) fn dict<'c>(
    context: &'c melior::Context,
    entries: Vec<(&str, Attribute<'c>)>,
) -> Attribute<'c> {
    let entries: Vec<(Identifier, Attribute)> = entries
        .into_iter()
        .map(|(k, v)| (Identifier::new(context, k), v))
        .collect();
    DictionaryAttribute::new(context, &entries).into()
}

/// The function's attributes for the package inputs `p`, `report` and
/// `warnings` (see the module doc).
pub fn write<'c>(
    context: &'c melior::Context,
    p: &PackageInputs,
    report: &QuantReport,
    warnings: &[String],
    weights: &Blobs<'c>,
) -> Result<Vec<(Identifier<'c>, Attribute<'c>)>, String> {
    let pre = &p.options.preprocess;
    let mut package = vec![
        ("name", StringAttribute::new(context, &p.name).into()),
        ("image_list", strings(context, &p.image_list)),
        ("image_type", int(context, i64::from(pre.image_type))),
        (
            "rgb_order",
            StringAttribute::new(context, &pre.rgb_order).into(),
        ),
        ("norm_type", int(context, i64::from(pre.norm_type))),
        (
            "data_scale",
            FloatAttribute::new(context, Type::float32(context), f64::from(pre.data_scale)).into(),
        ),
        (
            "is_simulation",
            int(context, i64::from(p.options.is_simulation)),
        ),
        (
            "cfg_references_clip_table",
            BoolAttribute::new(context, p.options.cfg_references_clip_table).into(),
        ),
    ];
    if let Some(means) = &pre.channel_means {
        let text: Vec<String> = means.iter().map(|&m| super::to_ir::float_text(m)).collect();
        let text = format!("array<f32: {}>", text.join(", "));
        package.push((
            "channel_means",
            Attribute::parse(context, &text).ok_or(format!("'{text}' does not parse"))?,
        ));
    }
    let mut out = vec![(Identifier::new(context, PACKAGE), dict(context, package))];
    if !p.files.is_empty() {
        let mut files = Vec::new();
        for (path, bytes) in &p.files {
            let t = Tensor::from_le_bytes(DType::U8, vec![bytes.len()], bytes)
                .map_err(|e| format!("calibration file {path}: {e}"))?;
            let blob = weights.resource_attr(context, t, &format!("file_{}", sanitize(path)));
            files.push(dict(
                context,
                vec![
                    ("path", StringAttribute::new(context, path).into()),
                    ("bytes", blob),
                ],
            ));
        }
        out.push((
            Identifier::new(context, FILES),
            ArrayAttribute::new(context, &files).into(),
        ));
    }
    out.push((
        Identifier::new(context, REPORT),
        super::report_attr::write(context, report),
    ));
    if !warnings.is_empty() {
        out.push((
            Identifier::new(context, WARNINGS),
            strings(context, warnings),
        ));
    }
    Ok(out)
}

fn string_list(a: Attribute, what: &str) -> Result<Vec<String>, String> {
    let arr =
        ArrayAttribute::try_from(a).map_err(|_| format!("{what} is not an array of strings"))?;
    (0..arr.len())
        .map(|i| {
            arr.element(i)
                .ok()
                .and_then(ir::str_attr)
                .ok_or(format!("{what}[{i}] is not a string"))
        })
        .collect()
}

/// Err when `func` lacks a required attribute of [`FUNCTION_ATTRS`] or has
/// an `nnie.*` attribute that is not one of them (a misspelt optional one
/// would otherwise be dropped without a word).
fn check_function_attrs(func: &OperationRef) -> Result<(), String> {
    if func.attribute(PACKAGE).is_err() {
        return Err(format!("the function is not at the nnie level: it has no '{PACKAGE}' attribute (the package name, image list and mapper options; run convert-onnx-to-nnie first)"));
    }
    for (k, _) in FUNCTION_ATTRS.iter().filter(|(_, required)| *required) {
        if func.attribute(k).is_err() {
            return Err(format!("the function has no '{k}' attribute"));
        }
    }
    for (name, _) in func.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        if name.starts_with("nnie.") && !FUNCTION_ATTRS.iter().any(|(k, _)| *k == name) {
            let known: Vec<&str> = FUNCTION_ATTRS.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "the function has an unknown attribute '{name}' (the nnie level's: {})",
                known.join(", ")
            ));
        }
    }
    Ok(())
}

/// What the function's attributes say (see the module doc): the package
/// inputs, the report and the warnings; Err names the attribute at fault.
pub fn read(func: &OperationRef) -> Result<(PackageInputs, QuantReport, Vec<String>), String> {
    check_function_attrs(func)?;
    let package = func
        .attribute(PACKAGE)
        .map_err(|_| format!("the function has no '{PACKAGE}' attribute"))?;
    let d = DictionaryAttribute::try_from(package)
        .map_err(|_| format!("'{PACKAGE}' is not a dictionary"))?;
    for i in 0..d.len() {
        let key = d.element(i).map_err(|e| e.to_string())?.0;
        let key = key.as_string_ref().as_str().unwrap_or("").to_string();
        if !PACKAGE_KEYS.iter().any(|(k, _)| *k == key) {
            let known: Vec<&str> = PACKAGE_KEYS.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "'{PACKAGE}' has an unknown key '{key}' (its keys: {})",
                known.join(", ")
            ));
        }
    }
    for (k, _) in PACKAGE_KEYS.iter().filter(|(_, required)| *required) {
        if d.element_by_name(k).is_none() {
            return Err(format!("'{PACKAGE}' has no '{k}'"));
        }
    }
    let get = |k: &str| {
        d.element_by_name(k)
            .ok_or(format!("'{PACKAGE}' has no '{k}'"))
    };
    let uint = |k: &str| -> Result<u32, String> {
        ir::int_attr(get(k)?)
            .and_then(|(v, _)| u32::try_from(v).ok())
            .ok_or(format!("'{PACKAGE}': '{k}' is not a non-negative i64"))
    };
    let text = |k: &str| ir::str_attr(get(k)?).ok_or(format!("'{PACKAGE}': '{k}' is not a string"));
    let data_scale = ir::float_attr(get("data_scale")?)
        .ok_or(format!("'{PACKAGE}': 'data_scale' is not an f32"))? as f32;
    let flag = get("cfg_references_clip_table")?;
    let cfg_references_clip_table = BoolAttribute::try_from(flag)
        .map(|b| b.value())
        .map_err(|_| format!("'{PACKAGE}': 'cfg_references_clip_table' is not true or false"))?;
    let channel_means = match d.element_by_name("channel_means") {
        None => None,
        Some(a) => Some(ir::f32_array_attr(a).ok_or(format!(
            "'{PACKAGE}': 'channel_means' is not an array<f32: ...>"
        ))?),
    };
    let options = PackageOptions {
        is_simulation: uint("is_simulation")?,
        preprocess: CfgPreprocess {
            image_type: uint("image_type")?,
            rgb_order: text("rgb_order")?,
            norm_type: uint("norm_type")?,
            data_scale,
            channel_means,
        },
        cfg_references_clip_table,
    };
    let mut files = Vec::new();
    if let Ok(a) = func.attribute(FILES) {
        let arr = ArrayAttribute::try_from(a).map_err(|_| format!("'{FILES}' is not an array"))?;
        for i in 0..arr.len() {
            let e = arr.element(i).map_err(|e| e.to_string())?;
            let f = DictionaryAttribute::try_from(e)
                .map_err(|_| format!("'{FILES}'[{i}] is not a dictionary {{path, bytes}}"))?;
            let path = f
                .element_by_name("path")
                .and_then(ir::str_attr)
                .ok_or(format!("'{FILES}'[{i}] has no string 'path'"))?;
            let bytes = f
                .element_by_name("bytes")
                .and_then(ir::resource_to_tensor)
                .filter(|t| t.dtype() == DType::U8)
                .ok_or(format!(
                    "'{FILES}'[{i}] ({path}): 'bytes' is not a dense_resource of ui8 with its blob (was the text printed with elided resources?)"
                ))?;
            files.push((path, bytes.le_bytes().to_vec()));
        }
    }
    let report = func.attribute(REPORT).map_err(|_| {
        format!("the function has no '{REPORT}' attribute (quant_report.json's metrics)")
    })?;
    let report = super::report_attr::read(report).map_err(|e| format!("'{REPORT}': {e}"))?;
    let warnings = match func.attribute(WARNINGS) {
        Ok(a) => string_list(a, &format!("'{WARNINGS}'"))?,
        Err(_) => Vec::new(),
    };
    let inputs = PackageInputs {
        name: text("name")?,
        options,
        image_list: string_list(get("image_list")?, &format!("'{PACKAGE}': 'image_list'"))?,
        files,
    };
    Ok((inputs, report, warnings))
}
