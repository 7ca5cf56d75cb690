//! The package as the `nnie` level keeps it: what the package is made of
//! besides the layers, and the one function that makes it.
//!
//! In: the graph's inputs (Caffe `input` names and shapes), the calibrated
//! layers and [`PackageInputs`] (package name, mapper options with the
//! preprocessing, `image_list.txt`'s entries and the calibration files they
//! name). Out: the [`Package`] — the same bytes whether the layers come from
//! [`super::compile`] or from `nnie` text read back.
//!
//! ```
//! use onnc_nnie::frontend::{build_package, Layer, LayerKind, PackageInputs};
//! use onnc_nnie::{ClipValue, PackageOptions};
//! let mut up = Layer::new("up1", "Resize", LayerKind::Upsample { scale: 2 }, vec!["x".into()], "y");
//! up.input_clips = vec![ClipValue::from_index(32).unwrap()];
//! let p = PackageInputs {
//!     name: "m".into(),
//!     options: PackageOptions::default(),
//!     image_list: vec!["calibration_images/a.png".into()],
//!     files: vec![("calibration_images/a.png".into(), vec![1, 2])],
//! };
//! let pkg = build_package(&[("x".into(), vec![1, 3, 4, 4])], &[up], &p).unwrap();
//! assert_eq!(pkg.file("calibration_images/a.png").unwrap(), [1, 2]);
//! assert!(pkg.file("m_gfpq_param_dict.json").is_some());
//! ```

use super::caffe_net::caffe_net;
use super::layer::{Layer, LayerKind};
use crate::error::Result;
use crate::gfpq::ClipTable;
use crate::package::{Package, PackageOptions};

/// What a package holds besides the net and the clip table.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageInputs {
    /// Package name (the file stem of `<name>.prototxt`, …).
    pub name: String,
    /// Mapper options, the `.cfg` preprocessing included.
    pub options: PackageOptions,
    /// `image_list.txt`'s entries, relative to the package directory.
    pub image_list: Vec<String>,
    /// The calibration files the list names: `(path in the package, bytes)`.
    pub files: Vec<(String, Vec<u8>)>,
}

/// The package of `layers` (see the module doc): Caffe net, clip table
/// (layers in MQBench's table, Upsample under its aliases), `.cfg`, image
/// list, channel means and the calibration files.
pub fn build_package(
    inputs: &[(String, Vec<usize>)],
    layers: &[Layer],
    p: &PackageInputs,
) -> Result<Package> {
    let net = caffe_net(&p.name, inputs, layers);
    let mut table = ClipTable::new();
    for l in layers.iter().filter(|l| l.in_clip_table()) {
        let clips: Vec<f64> = l.input_clips.iter().map(|c| c.value()).collect();
        if matches!(l.kind, LayerKind::Upsample { .. }) {
            table.push_upsample(&l.name, clips)?;
        } else {
            table.insert(&l.name, clips)?;
        }
    }
    let mut package = Package::build(&p.name, &net, &table, &p.image_list, &p.options)?;
    for (path, bytes) in &p.files {
        package.push_file(path, bytes.clone())?;
    }
    Ok(package)
}
