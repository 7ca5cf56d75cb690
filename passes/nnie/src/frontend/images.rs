//! Calibration sets from a folder of images, with a fixed, documented
//! preprocessing (docs/targets/nnie.md):
//!
//! 1. every `*.png`, `*.jpg`, `*.jpeg`, `*.bmp`, `*.pgm`, `*.ppm` directly in the
//!    folder, in file-name order (one set per image);
//! 2. decoded and converted to RGB (graph input with C = 3) or grey (C = 1);
//! 3. resized to the input's H × W with a triangle (bilinear) filter;
//! 4. scaled to `[0, 1]` (pixel / 255) and laid out N×C×H×W (N = 1), float32.
//!
//! Mean/std normalisation belongs in the model (a Sub/Div or BN in front),
//! as nnie_mapper expects its image list raw. These are the defaults of
//! [`onnc_calib::Preprocess`], whose loader this is; [`load_images_with`]
//! takes other values (resize, mean/std or scale, RGB/BGR, layout).
//!
//! In: the folder and the graph (exactly one input of shape `[1, C, H, W]`,
//! C ∈ {1, 3}). Out: one [`DataSet`] per image; the files listed are the
//! images, so the package's `image_list.txt` names them for nnie_mapper.
//!
//! ```no_run
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let sets = onnc_nnie::frontend::load_images(std::path::Path::new("calib_images"), &g).unwrap();
//! assert_eq!(sets[0].inputs[0].1.shape()[0], 1);
//! ```

use std::path::{Path, PathBuf};

use onnc_calib::Preprocess;
use onnc_onnx::Graph;

use super::data::DataSet;
use crate::error::{NnieError, Result};

/// File extensions read as images (lower case).
pub use onnc_calib::images::{is_image, IMAGE_EXTENSIONS};

/// The images directly in `dir`, sorted by file name.
pub fn image_files(dir: &Path) -> Result<Vec<PathBuf>> {
    onnc_calib::images::image_files(dir).map_err(|e| NnieError::Data(e.to_string()))
}

/// One set per image in `dir` with NNIE's preprocessing (see the module doc).
pub fn load_images(dir: &Path, graph: &Graph) -> Result<Vec<DataSet>> {
    load_images_with(dir, graph, &Preprocess::default())
}

/// One set per image in `dir` with the given preprocessing (the same
/// [`Preprocess`] as the NVDLA calibrator's; its default is NNIE's).
pub fn load_images_with(dir: &Path, graph: &Graph, pre: &Preprocess) -> Result<Vec<DataSet>> {
    onnc_calib::load_images(dir, graph, pre).map_err(|e| NnieError::Data(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::Dim;

    fn graph(c: usize) -> Graph {
        let mut g = Graph {
            name: "g".into(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            initializers: Vec::new(),
            nodes: Vec::new(),
        };
        g.inputs.push(onnc_onnx::ValueInfo {
            name: "x".into(),
            dtype: onnc_tensor::DType::F32,
            dims: vec![Dim::Fixed(1), Dim::Fixed(c), Dim::Fixed(2), Dim::Fixed(2)],
        });
        g
    }

    #[test]
    fn an_image_becomes_a_scaled_chw_tensor_and_is_listed() {
        let dir = std::env::temp_dir().join(format!("onnc-nnie-images-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // 2x2 RGB: red, green / blue, white.
        let mut img = image::RgbImage::new(2, 2);
        img.put_pixel(0, 0, image::Rgb([255, 0, 0]));
        img.put_pixel(1, 0, image::Rgb([0, 255, 0]));
        img.put_pixel(0, 1, image::Rgb([0, 0, 255]));
        img.put_pixel(1, 1, image::Rgb([255, 255, 255]));
        img.save(dir.join("b.png")).unwrap();
        img.save(dir.join("a.png")).unwrap();
        std::fs::write(dir.join("notes.txt"), "not an image").unwrap();
        let sets = load_images(&dir, &graph(3)).unwrap();
        assert_eq!(sets.len(), 2);
        assert_eq!(sets[0].files[0].file_name().unwrap(), "a.png");
        let v = sets[0].inputs[0].1.as_f32().unwrap().to_vec();
        // R plane, G plane, B plane (row-major): red at (0,0), green at (1,0), blue at (0,1).
        assert_eq!(
            v,
            vec![1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0]
        );
        let grey = load_images(&dir, &graph(1)).unwrap();
        assert_eq!(grey[0].inputs[0].1.shape(), &[1, 1, 2, 2]);
        assert!(load_images(&dir, &graph(4)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_empty_folder_says_what_it_expected() {
        let dir = std::env::temp_dir().join(format!("onnc-nnie-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = load_images(&dir, &graph(3)).unwrap_err().to_string();
        assert!(e.contains("no images"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
