//! The calibration inputs inside the package, so it can be copied whole to
//! the machine with the HiSilicon SDK.
//!
//! In: the clip source, the calibration sets (with the files they came
//! from), the graph and the image preprocessing. Out: [`PackageData`] —
//! `image_list.txt`'s entries, relative to the package directory, the files
//! they name, and the `.cfg` preprocessing keys that match them:
//!
//! * images: `calibration_images/<file name>` — each image as calibration
//!   saw it (decoded, resized or cropped to the input's H × W, RGB or grey,
//!   8 bits) stored as lossless PNG (`.png` appended to other extensions),
//!   so the mapper's own normalisation (`[norm_type]`, `[data_scale]`,
//!   `[mean_file]`, `[RGB_order]`, from [`CfgPreprocess::from_images`])
//!   reproduces the calibration's inputs;
//! * `.pb` / `.npy` sets: `calibration_data/<path under --calib>`, copied
//!   byte for byte, written as feature maps ([`CfgPreprocess::tensors`]);
//! * an MQBench table: no data; the list holds a placeholder and a warning
//!   says to add images.

use std::io::Cursor;
use std::path::Path;

use onnc_calib::Preprocess;
use onnc_onnx::{Dim, Graph};

use super::data::DataSet;
use super::CalibSource;
use crate::cfg_preprocess::CfgPreprocess;
use crate::error::{NnieError, Result};

/// Folder of the images inside a package.
pub const IMAGES_DIR: &str = "calibration_images";
/// Folder of the tensor sets inside a package.
pub const DATA_DIR: &str = "calibration_data";
/// The image list entry of a package without calibration data.
pub const PLACEHOLDER: &str = "calibration_images/REPLACE_ME.jpg";

/// What the package holds of the calibration inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageData {
    /// `image_list.txt`'s entries, relative to the package directory.
    pub list: Vec<String>,
    /// `(path in the package, content)`.
    pub files: Vec<(String, Vec<u8>)>,
    /// The `.cfg` preprocessing keys.
    pub preprocess: CfgPreprocess,
    /// Something the user must do before running the mapper.
    pub warning: Option<String>,
}

fn utf8(p: &Path) -> Result<String> {
    p.to_str().map(str::to_string).ok_or_else(|| {
        NnieError::Data(format!(
            "{}: the file name is not UTF-8, which image_list.txt cannot hold; rename it",
            p.display()
        ))
    })
}

/// The channel count of an `[N, C, H, W]` input with C ∈ {1, 3}, else 3.
pub(crate) fn channels(graph: &Graph) -> usize {
    match graph.inputs.first().map(|v| v.dims.as_slice()) {
        Some([_, Dim::Fixed(c @ (1 | 3)), _, _]) => *c,
        _ => 3,
    }
}

/// The calibration inputs of `source` for the package (see the module doc).
pub fn package_data(
    source: &CalibSource,
    sets: &[DataSet],
    graph: &Graph,
    pre: &Preprocess,
) -> Result<PackageData> {
    let mut list = Vec::new();
    let mut files = Vec::new();
    match source {
        CalibSource::Images(dir) => {
            let input = onnc_calib::images::image_input(dir, graph, pre)
                .map_err(|e| NnieError::Data(e.to_string()))?;
            for path in sets.iter().flat_map(|s| s.files.iter()) {
                let mut name = utf8(Path::new(path.file_name().unwrap_or_default()))?;
                if !name.to_ascii_lowercase().ends_with(".png") {
                    name.push_str(".png");
                }
                let img = onnc_calib::images::resized_image(path, &input, pre)
                    .map_err(|e| NnieError::Data(e.to_string()))?;
                let mut png = Vec::new();
                img.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
                    .map_err(|e| NnieError::Data(format!("{}: {e}", path.display())))?;
                let entry = format!("{IMAGES_DIR}/{name}");
                list.push(entry.clone());
                files.push((entry, png));
            }
            Ok(PackageData {
                list,
                files,
                preprocess: CfgPreprocess::from_images(pre, input.1)?,
                warning: None,
            })
        }
        CalibSource::TestData(dir) | CalibSource::Npy(dir) => {
            for path in sets.iter().flat_map(|s| s.files.iter()) {
                let rel = path.strip_prefix(dir).unwrap_or(path);
                let rel = utf8(rel)?.replace('\\', "/");
                let entry = format!("{DATA_DIR}/{rel}");
                if list.contains(&entry) {
                    continue;
                }
                let bytes = std::fs::read(path)
                    .map_err(|e| NnieError::Io(format!("{}: {e}", path.display())))?;
                list.push(entry.clone());
                files.push((entry, bytes));
            }
            Ok(PackageData {
                list,
                files,
                preprocess: CfgPreprocess::tensors(),
                warning: None,
            })
        }
        CalibSource::Mqbench(_) => Ok(PackageData {
            list: vec![PLACEHOLDER.to_string()],
            files,
            preprocess: CfgPreprocess::from_images(pre, channels(graph))?,
            warning: Some(format!(
                "the package holds no calibration images (the clips come from the MQBench table): put images in {IMAGES_DIR}/ and list them in image_list.txt before running nnie_mapper"
            )),
        }),
    }
}
