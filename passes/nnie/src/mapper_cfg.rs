//! The `nnie_mapper` configuration file (`.cfg`) and its calibration image list.
//!
//! In: paths of the package's files and the mapper options. Out: the `.cfg`
//! text — one `[key] value` line per option, in the order of the public
//! example configs (`rinetd/nnie_mapper`, `nnie_mapper/yolov3_inst.cfg`) — and
//! `image_list.txt` (one image path per line).
//!
//! Known meanings (from public configs and the research notes, not from a
//! vendor manual): `[is_simulation] 0` compiles instructions (`inst`), `1` a
//! functional simulation (`func`); `[compile_mode] 0` is 8-bit (community
//! configs annotate `1` as 16-bit, which this crate does not support for its
//! clip tables); `[mean_file] null` means no mean file; `[gfpq_param_file]`
//! (an external clip-table file) is only parsed by newer mapper generations
//! (MindSpore Lite's DPICO adapter), so it is written only when set. Other
//! numeric options are written as given; the defaults are the values of the
//! public example.
//!
//! ```
//! use onnc_nnie::MapperConfig;
//! let cfg = MapperConfig::new("net.prototxt", "net.caffemodel", "inst/net", "image_list.txt");
//! let text = cfg.to_cfg_string().unwrap();
//! assert!(text.starts_with("[prototxt_file] net.prototxt\n[caffemodel_file] net.caffemodel\n[batch_num] 1\n"));
//! assert_eq!(MapperConfig::parse(&text).unwrap(), cfg);
//! ```

use std::fmt::Write as _;

use crate::error::{NnieError, Result};

/// Options of one `nnie_mapper` run.
#[derive(Debug, Clone, PartialEq)]
pub struct MapperConfig {
    /// `[prototxt_file]`: the deploy prototxt.
    pub prototxt_file: String,
    /// `[caffemodel_file]`: the caffemodel.
    pub caffemodel_file: String,
    /// `[batch_num]` (example: 1).
    pub batch_num: u32,
    /// `[net_type]` (example: 0).
    pub net_type: u32,
    /// `[sparse_rate]` (example: 0).
    pub sparse_rate: f32,
    /// `[compile_mode]`: 0 = 8-bit (example: 0).
    pub compile_mode: u32,
    /// `[is_simulation]`: 0 = instruction (`inst`), 1 = functional (`func`).
    pub is_simulation: u32,
    /// `[log_level]` (example: 2).
    pub log_level: u32,
    /// `[instruction_name]`: base name of the output `.wk` file.
    pub instruction_name: String,
    /// `[RGB_order]` (example: `BGR`).
    pub rgb_order: String,
    /// `[data_scale]` (example: 0.0039062).
    pub data_scale: f32,
    /// `[internal_stride]` (example: 16).
    pub internal_stride: u32,
    /// `[image_list]`: the calibration image list file.
    pub image_list: String,
    /// `[image_type]` (example: 1).
    pub image_type: u32,
    /// `[mean_file]`; `None` is written as `null`.
    pub mean_file: Option<String>,
    /// `[norm_type]` (example: 3).
    pub norm_type: u32,
    /// `[gfpq_param_file]`: external clip table (newer mappers only); omitted when `None`.
    pub gfpq_param_file: Option<String>,
}

impl MapperConfig {
    /// A configuration with the public example's values for every option.
    pub fn new(
        prototxt_file: &str,
        caffemodel_file: &str,
        instruction_name: &str,
        image_list: &str,
    ) -> Self {
        Self {
            prototxt_file: prototxt_file.to_string(),
            caffemodel_file: caffemodel_file.to_string(),
            batch_num: 1,
            net_type: 0,
            sparse_rate: 0.0,
            compile_mode: 0,
            is_simulation: 0,
            log_level: 2,
            instruction_name: instruction_name.to_string(),
            rgb_order: "BGR".to_string(),
            data_scale: 0.0039062,
            internal_stride: 16,
            image_list: image_list.to_string(),
            image_type: 1,
            mean_file: None,
            norm_type: 3,
            gfpq_param_file: None,
        }
    }

    /// The `(key, value)` lines in file order.
    fn entries(&self) -> Vec<(&'static str, String)> {
        let mut e = vec![
            ("prototxt_file", self.prototxt_file.clone()),
            ("caffemodel_file", self.caffemodel_file.clone()),
            ("batch_num", self.batch_num.to_string()),
            ("net_type", self.net_type.to_string()),
            ("sparse_rate", self.sparse_rate.to_string()),
            ("compile_mode", self.compile_mode.to_string()),
            ("is_simulation", self.is_simulation.to_string()),
            ("log_level", self.log_level.to_string()),
            ("instruction_name", self.instruction_name.clone()),
            ("RGB_order", self.rgb_order.clone()),
            ("data_scale", self.data_scale.to_string()),
            ("internal_stride", self.internal_stride.to_string()),
            ("image_list", self.image_list.clone()),
            ("image_type", self.image_type.to_string()),
            (
                "mean_file",
                self.mean_file.clone().unwrap_or_else(|| "null".to_string()),
            ),
            ("norm_type", self.norm_type.to_string()),
        ];
        if let Some(f) = &self.gfpq_param_file {
            e.push(("gfpq_param_file", f.clone()));
        }
        e
    }

    /// The `.cfg` text; fails if a value is empty or contains a line break.
    pub fn to_cfg_string(&self) -> Result<String> {
        let mut out = String::new();
        for (key, value) in self.entries() {
            check_value(key, &value)?;
            let _ = writeln!(out, "[{key}] {value}");
        }
        Ok(out)
    }

    /// Parse a `.cfg` (`#` comment lines and blank lines skipped). Every key
    /// this struct knows must appear, except `gfpq_param_file`; unknown keys
    /// are errors.
    pub fn parse(text: &str) -> Result<Self> {
        let mut cfg = Self::new("", "", "", "");
        let mut seen: Vec<String> = Vec::new();
        for (lineno, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: &str| NnieError::MapperConfig(format!("line {}: {m}", lineno + 1));
            let rest = line
                .strip_prefix('[')
                .ok_or_else(|| err("expected `[key] value`"))?;
            let (key, value) = rest.split_once(']').ok_or_else(|| err("missing `]`"))?;
            let value = value.trim().to_string();
            let int = |v: &str| {
                v.parse::<u32>()
                    .map_err(|_| err(&format!("[{key}] expects an integer")))
            };
            let float = |v: &str| {
                v.parse::<f32>()
                    .map_err(|_| err(&format!("[{key}] expects a number")))
            };
            match key {
                "prototxt_file" => cfg.prototxt_file = value,
                "caffemodel_file" => cfg.caffemodel_file = value,
                "batch_num" => cfg.batch_num = int(&value)?,
                "net_type" => cfg.net_type = int(&value)?,
                "sparse_rate" => cfg.sparse_rate = float(&value)?,
                "compile_mode" => cfg.compile_mode = int(&value)?,
                "is_simulation" => cfg.is_simulation = int(&value)?,
                "log_level" => cfg.log_level = int(&value)?,
                "instruction_name" => cfg.instruction_name = value,
                "RGB_order" => cfg.rgb_order = value,
                "data_scale" => cfg.data_scale = float(&value)?,
                "internal_stride" => cfg.internal_stride = int(&value)?,
                "image_list" => cfg.image_list = value,
                "image_type" => cfg.image_type = int(&value)?,
                "mean_file" => cfg.mean_file = (value != "null").then_some(value),
                "norm_type" => cfg.norm_type = int(&value)?,
                "gfpq_param_file" => cfg.gfpq_param_file = Some(value),
                other => return Err(err(&format!("unknown key [{other}]"))),
            }
            if seen.iter().any(|k| k == key) {
                return Err(err(&format!("duplicate key [{key}]")));
            }
            seen.push(key.to_string());
        }
        for (key, _) in cfg.entries() {
            if key != "gfpq_param_file" && !seen.iter().any(|k| k == key) {
                return Err(NnieError::MapperConfig(format!("missing key [{key}]")));
            }
        }
        Ok(cfg)
    }
}

fn check_value(key: &str, value: &str) -> Result<()> {
    if value.is_empty() {
        return Err(NnieError::MapperConfig(format!("[{key}] is empty")));
    }
    if value.contains(['\n', '\r']) {
        return Err(NnieError::MapperConfig(format!(
            "[{key}] contains a line break"
        )));
    }
    Ok(())
}

/// The calibration image list: one path per line, trailing newline. Paths
/// must be non-empty and free of line breaks; at least one is required.
pub fn image_list<S: AsRef<str>>(paths: &[S]) -> Result<String> {
    if paths.is_empty() {
        return Err(NnieError::MapperConfig("image list is empty".to_string()));
    }
    let mut out = String::new();
    for p in paths {
        check_value("image_list entry", p.as_ref())?;
        out.push_str(p.as_ref());
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_public_example_layout() {
        let cfg = MapperConfig::new(
            "./m/yolov3.prototxt",
            "./m/yolov3.caffemodel",
            "./inst/inst_yolov3_inst",
            "./image_ref_list.txt",
        );
        let expected = "[prototxt_file] ./m/yolov3.prototxt\n[caffemodel_file] ./m/yolov3.caffemodel\n\
[batch_num] 1\n[net_type] 0\n[sparse_rate] 0\n[compile_mode] 0\n[is_simulation] 0\n[log_level] 2\n\
[instruction_name] ./inst/inst_yolov3_inst\n[RGB_order] BGR\n[data_scale] 0.0039062\n[internal_stride] 16\n\
[image_list] ./image_ref_list.txt\n[image_type] 1\n[mean_file] null\n[norm_type] 3\n";
        assert_eq!(cfg.to_cfg_string().unwrap(), expected);
    }

    #[test]
    fn gfpq_file_and_round_trip() {
        let mut cfg = MapperConfig::new("a", "b", "c", "d");
        cfg.gfpq_param_file = Some("net_gfpq_param_dict.json".into());
        cfg.mean_file = Some("mean.txt".into());
        cfg.is_simulation = 1;
        let text = cfg.to_cfg_string().unwrap();
        assert!(text.ends_with("[norm_type] 3\n[gfpq_param_file] net_gfpq_param_dict.json\n"));
        assert_eq!(MapperConfig::parse(&text).unwrap(), cfg);
    }

    #[test]
    fn rejects_bad_values_and_files() {
        let mut cfg = MapperConfig::new("a\nb", "b", "c", "d");
        assert!(cfg.to_cfg_string().is_err());
        cfg.prototxt_file = String::new();
        assert!(cfg.to_cfg_string().is_err());
        assert!(MapperConfig::parse("[bogus] 1").is_err());
        assert!(MapperConfig::parse("[batch_num] x").is_err());
        assert!(MapperConfig::parse("batch_num 1").is_err());
        assert!(MapperConfig::parse("[batch_num] 1").is_err()); // missing keys
        let ok = MapperConfig::new("a", "b", "c", "d")
            .to_cfg_string()
            .unwrap();
        assert!(MapperConfig::parse(&format!("{ok}[batch_num] 2\n")).is_err()); // duplicate
        assert!(MapperConfig::parse(&format!("# comment\n\n{ok}")).is_ok());
    }

    #[test]
    fn image_lists() {
        assert_eq!(image_list(&["a.jpg", "b.jpg"]).unwrap(), "a.jpg\nb.jpg\n");
        assert!(image_list::<&str>(&[]).is_err());
        assert!(image_list(&["a\nb"]).is_err());
    }
}
