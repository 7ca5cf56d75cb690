//! The `nnie_mapper` deployment package: every file, named and checked.
//!
//! In: a package name, the Caffe net *with* weights, the snapped clip table,
//! the calibration image paths and mapper options. Out: [`Package`], the file
//! contents in memory (deterministic, no I/O) and [`Package::write_to`].
//!
//! | file | content |
//! |---|---|
//! | `<name>.prototxt` | the net without blobs, Caffe text format |
//! | `<name>.caffemodel` | the net with blobs, binary `NetParameter` |
//! | `<name>.cfg` | `nnie_mapper` options; paths relative to the package directory |
//! | `image_list.txt` | calibration images, one path per line, relative to the package |
//! | `<name>_gfpq_param_dict.json` | per-layer clips on the `2^(k/16)` grid, MQBench's shape |
//! | `channel_mean.txt` | with channel means only: one mean per line (`[mean_file]`) |
//! | `calibration_images/…`, `calibration_data/…` | added by [`Package::push_file`]: the files `image_list.txt` names |
//!
//! Checks: the name is a plain file stem; layer names are unique; every
//! clip-table key is a layer of the net (MQBench's Upsample aliases
//! `<upsample>_permute_<n>` count when `<upsample>` is a layer); every clip is
//! exactly on the grid; an added file's path is relative, inside the
//! package, and new.
//!
//! ```
//! use onnc_nnie::caffe::proto;
//! use onnc_nnie::{ClipTable, ClipValue, Package, PackageOptions};
//! let net = proto::NetParameter {
//!     layer: vec![proto::LayerParameter { name: Some("conv1".into()), ..Default::default() }],
//!     ..Default::default()
//! };
//! let mut clips = ClipTable::new();
//! clips.insert_clips("conv1", &[ClipValue::from_index(40).unwrap()]).unwrap();
//! let pkg = Package::build("resnet", &net, &clips, &["img/0.jpg"], &PackageOptions::default()).unwrap();
//! let names: Vec<&str> = pkg.files().iter().map(|(n, _)| n.as_str()).collect();
//! assert_eq!(names, ["resnet.prototxt", "resnet.caffemodel", "resnet.cfg", "image_list.txt", "resnet_gfpq_param_dict.json"]);
//! ```

use std::collections::HashSet;
use std::path::Path;

use crate::caffe::proto::NetParameter;
use crate::caffe::{deploy_net, to_caffemodel, to_prototxt};
use crate::cfg_preprocess::{CfgPreprocess, CHANNEL_MEAN_FILE};
use crate::error::{NnieError, Result};
use crate::gfpq::ClipTable;
use crate::mapper_cfg::{image_list, MapperConfig};

/// Name of the image list file inside a package.
pub const IMAGE_LIST_FILE: &str = "image_list.txt";

/// Mapper options a package may override (the rest are the public example's).
#[derive(Debug, Clone, PartialEq)]
pub struct PackageOptions {
    /// `[is_simulation]`: 0 = instruction, 1 = functional.
    pub is_simulation: u32,
    /// `[image_type]`, `[RGB_order]`, `[norm_type]`, `[data_scale]` and the
    /// channel means (`[mean_file] channel_mean.txt`). The NNIE front end
    /// sets them from the calibration's preprocessing; the default is the
    /// calibrator's default (`p/255`, RGB, images).
    pub preprocess: CfgPreprocess,
    /// Write `[gfpq_param_file] <name>_gfpq_param_dict.json` into the `.cfg`.
    /// Off by default: only newer mapper generations know the key.
    pub cfg_references_clip_table: bool,
}

impl Default for PackageOptions {
    fn default() -> Self {
        let d = MapperConfig::new("", "", "", "");
        Self {
            is_simulation: d.is_simulation,
            preprocess: CfgPreprocess::from_images(&onnc_calib::Preprocess::default(), 3)
                .expect("the default preprocessing has one std"),
            cfg_references_clip_table: false,
        }
    }
}

/// The files of one package, in a fixed order.
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    files: Vec<(String, Vec<u8>)>,
}

impl Package {
    /// Check the inputs and render every file.
    pub fn build<S: AsRef<str>>(
        name: &str,
        net: &NetParameter,
        clips: &ClipTable,
        images: &[S],
        options: &PackageOptions,
    ) -> Result<Self> {
        check_stem(name)?;
        let mut layers = HashSet::new();
        for layer in &net.layer {
            let n = layer.name.clone().unwrap_or_default();
            if !layers.insert(n.clone()) {
                return Err(NnieError::DuplicateLayer(n));
            }
        }
        for (key, _) in clips.iter() {
            let base = key.rsplit_once("_permute_").map(|(b, _)| b);
            if !layers.contains(key) && !base.is_some_and(|b| layers.contains(b)) {
                return Err(NnieError::ClipTable(format!(
                    "layer {key:?} is not in the net"
                )));
            }
        }
        clips.grid_clips()?;

        let prototxt = format!("{name}.prototxt");
        let caffemodel = format!("{name}.caffemodel");
        let cfg_name = format!("{name}.cfg");
        let table = format!("{name}_gfpq_param_dict.json");
        let mut cfg = MapperConfig::new(&prototxt, &caffemodel, name, IMAGE_LIST_FILE);
        let pre = &options.preprocess;
        cfg.is_simulation = options.is_simulation;
        cfg.image_type = pre.image_type;
        cfg.rgb_order = pre.rgb_order.clone();
        cfg.data_scale = pre.data_scale;
        cfg.norm_type = pre.norm_type;
        let means = pre.mean_file_text();
        if means.is_some() {
            cfg.mean_file = Some(CHANNEL_MEAN_FILE.to_string());
        }
        if options.cfg_references_clip_table {
            cfg.gfpq_param_file = Some(table.clone());
        }
        let mut files = vec![
            (prototxt, to_prototxt(&deploy_net(net))?.into_bytes()),
            (caffemodel, to_caffemodel(net)),
            (cfg_name, cfg.to_cfg_string()?.into_bytes()),
            (
                IMAGE_LIST_FILE.to_string(),
                image_list(images)?.into_bytes(),
            ),
            (table, clips.to_json().into_bytes()),
        ];
        if let Some(text) = means {
            files.push((CHANNEL_MEAN_FILE.to_string(), text.into_bytes()));
        }
        Ok(Self { files })
    }

    /// Adds a file (a calibration image, say) at `path`, relative to the
    /// package directory; refuses an absolute path, one that leaves the
    /// package (`..`), an empty one, or one already in the package.
    pub fn push_file(&mut self, path: &str, content: Vec<u8>) -> Result<()> {
        let p = Path::new(path);
        let inside = !path.is_empty()
            && !path.contains(['\n', '\r', '\\'])
            && p.components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !inside {
            return Err(NnieError::MapperConfig(format!(
                "package file {path:?} must be a relative path inside the package"
            )));
        }
        if self.file(path).is_some() {
            return Err(NnieError::MapperConfig(format!(
                "package file {path:?} is there twice"
            )));
        }
        self.files.push((path.to_string(), content));
        Ok(())
    }

    /// `(file name, content)` pairs in the order of the table above.
    pub fn files(&self) -> &[(String, Vec<u8>)] {
        &self.files
    }

    /// The content of one file.
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.as_slice())
    }

    /// Write every file into `dir` (created if missing), overwriting.
    pub fn write_to(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir)
            .map_err(|e| NnieError::Io(format!("{}: {e}", dir.display())))?;
        for (name, content) in &self.files {
            let path = dir.join(name);
            std::fs::write(&path, content)
                .map_err(|e| NnieError::Io(format!("{}: {e}", path.display())))?;
        }
        Ok(())
    }
}

fn check_stem(name: &str) -> Result<()> {
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name
            .chars()
            .any(|c| matches!(c, '/' | '\\' | '\n' | '\r' | '\0') || c.is_whitespace());
    if bad {
        return Err(NnieError::MapperConfig(format!(
            "package name {name:?} is not a plain file stem"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caffe::proto::LayerParameter;
    use crate::grid::ClipValue;

    fn net(names: &[&str]) -> NetParameter {
        NetParameter {
            layer: names
                .iter()
                .map(|n| LayerParameter {
                    name: Some((*n).into()),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn checks_inputs() {
        let c = ClipValue::from_index(3).unwrap();
        let mut t = ClipTable::new();
        t.insert_clips("a", &[c]).unwrap();
        let o = PackageOptions::default();
        assert!(Package::build("m", &net(&["a"]), &t, &["x.jpg"], &o).is_ok());
        assert!(Package::build("m/x", &net(&["a"]), &t, &["x.jpg"], &o).is_err());
        assert!(Package::build("m", &net(&["b"]), &t, &["x.jpg"], &o).is_err());
        assert!(matches!(
            Package::build("m", &net(&["a", "a"]), &t, &["x.jpg"], &o),
            Err(NnieError::DuplicateLayer(_))
        ));
        assert!(Package::build::<&str>("m", &net(&["a"]), &t, &[], &o).is_err());
        let mut raw = ClipTable::new();
        raw.insert("a", vec![3.0]).unwrap();
        assert!(Package::build("m", &net(&["a"]), &raw, &["x.jpg"], &o).is_err());
        let mut up = ClipTable::new();
        up.push_upsample("up", vec![c.value()]).unwrap();
        assert!(Package::build("m", &net(&["up"]), &up, &["x.jpg"], &o).is_ok());
    }

    #[test]
    fn cfg_says_the_calibration_preprocessing() {
        let mut t = ClipTable::new();
        t.insert_clips("a", &[ClipValue::from_index(3).unwrap()])
            .unwrap();
        let pre = onnc_calib::Preprocess {
            mean: [0.5; 3],
            std: [0.5; 3],
            order: onnc_calib::ChannelOrder::Bgr,
            ..onnc_calib::Preprocess::default()
        };
        let o = PackageOptions {
            preprocess: CfgPreprocess::from_images(&pre, 3).unwrap(),
            ..PackageOptions::default()
        };
        let p = Package::build("m", &net(&["a"]), &t, &["calibration_images/x.png"], &o).unwrap();
        let cfg =
            MapperConfig::parse(std::str::from_utf8(p.file("m.cfg").unwrap()).unwrap()).unwrap();
        assert_eq!(
            (cfg.rgb_order.as_str(), cfg.norm_type, cfg.image_type),
            ("BGR", 5, 1)
        );
        assert_eq!(cfg.data_scale, (2.0 / 255.0) as f32);
        assert_eq!(cfg.mean_file.as_deref(), Some(CHANNEL_MEAN_FILE));
        assert_eq!(p.file(CHANNEL_MEAN_FILE).unwrap(), b"127.5\n127.5\n127.5\n");
        // the default: p/255, RGB, no mean file
        let d = Package::build(
            "m",
            &net(&["a"]),
            &t,
            &["x.png"],
            &PackageOptions::default(),
        )
        .unwrap();
        let text = std::str::from_utf8(d.file("m.cfg").unwrap()).unwrap();
        assert!(
            text.contains("[RGB_order] RGB\n[data_scale] 0.003921569\n"),
            "{text}"
        );
        assert!(text.contains("[mean_file] null\n[norm_type] 3\n"), "{text}");
        assert!(d.file(CHANNEL_MEAN_FILE).is_none());
    }

    #[test]
    fn added_files_stay_inside_the_package() {
        let t = ClipTable::new();
        let o = PackageOptions::default();
        let mut p =
            Package::build("m", &net(&["a"]), &t, &["calibration_images/x.png"], &o).unwrap();
        p.push_file("calibration_images/x.png", vec![1]).unwrap();
        assert_eq!(p.file("calibration_images/x.png").unwrap(), [1]);
        for bad in [
            "",
            "/abs.png",
            "../up.png",
            "a/../../b",
            "m.cfg",
            "calibration_images/x.png",
        ] {
            assert!(p.push_file(bad, vec![]).is_err(), "{bad}");
        }
    }

    #[test]
    fn cfg_points_at_package_files() {
        let mut t = ClipTable::new();
        t.insert_clips("a", &[ClipValue::from_index(3).unwrap()])
            .unwrap();
        let o = PackageOptions {
            cfg_references_clip_table: true,
            ..PackageOptions::default()
        };
        let p = Package::build("m", &net(&["a"]), &t, &["x.jpg"], &o).unwrap();
        let cfg =
            MapperConfig::parse(std::str::from_utf8(p.file("m.cfg").unwrap()).unwrap()).unwrap();
        assert_eq!(cfg.prototxt_file, "m.prototxt");
        assert_eq!(cfg.caffemodel_file, "m.caffemodel");
        assert_eq!(cfg.instruction_name, "m");
        assert_eq!(cfg.image_list, IMAGE_LIST_FILE);
        assert_eq!(
            cfg.gfpq_param_file.as_deref(),
            Some("m_gfpq_param_dict.json")
        );
    }
}
