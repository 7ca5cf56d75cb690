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
//! as nnie_mapper expects its image list raw.
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

use onnc_onnx::{Dim, Graph};
use onnc_tensor::Tensor;

use super::data::DataSet;
use crate::error::{NnieError, Result};

/// File extensions read as images (lower case).
pub const IMAGE_EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "bmp", "pgm", "ppm"];

/// Whether `p` has one of [`IMAGE_EXTENSIONS`].
pub fn is_image(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The images directly in `dir`, sorted by file name.
pub fn image_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for e in
        std::fs::read_dir(dir).map_err(|e| NnieError::Data(format!("{}: {e}", dir.display())))?
    {
        let p = e
            .map_err(|e| NnieError::Data(format!("{}: {e}", dir.display())))?
            .path();
        if p.is_file() && is_image(&p) {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

/// One set per image in `dir` (see the module doc).
pub fn load_images(dir: &Path, graph: &Graph) -> Result<Vec<DataSet>> {
    let [input] = graph.inputs.as_slice() else {
        return Err(NnieError::Data(format!(
            "{}: an image folder feeds a model with exactly one input; this one has {} (use input_<k>.pb sets)",
            dir.display(),
            graph.inputs.len()
        )));
    };
    let dims: Option<Vec<usize>> = input
        .dims
        .iter()
        .map(|d| {
            if let Dim::Fixed(n) = d {
                Some(*n)
            } else {
                None
            }
        })
        .collect();
    let (c, h, w) = match dims.as_deref() {
        Some(&[1, c, h, w]) if c == 1 || c == 3 => (c, h, w),
        _ => {
            return Err(NnieError::Data(format!(
                "{}: input `{}` must be [1, C, H, W] with C = 1 or 3 to take images (use input_<k>.pb sets otherwise)",
                dir.display(),
                input.name
            )))
        }
    };
    let files = image_files(dir)?;
    if files.is_empty() {
        return Err(NnieError::Data(format!(
            "{}: no images (.{}) and no input_0.pb / test_data_set_*/",
            dir.display(),
            IMAGE_EXTENSIONS.join(", .")
        )));
    }
    files
        .into_iter()
        .map(|path| {
            let img = image::open(&path).map_err(|e| {
                NnieError::Data(format!("{}: cannot decode the image: {e}", path.display()))
            })?;
            let img = img.resize_exact(w as u32, h as u32, image::imageops::FilterType::Triangle);
            let mut data = vec![0f32; c * h * w];
            if c == 3 {
                let rgb = img.to_rgb8();
                for (x, y, px) in rgb.enumerate_pixels() {
                    for ch in 0..3 {
                        data[ch * h * w + y as usize * w + x as usize] = f32::from(px[ch]) / 255.0;
                    }
                }
            } else {
                let grey = img.to_luma8();
                for (x, y, px) in grey.enumerate_pixels() {
                    data[y as usize * w + x as usize] = f32::from(px[0]) / 255.0;
                }
            }
            let t = Tensor::from_f32(vec![1, c, h, w], data)
                .map_err(|e| NnieError::Data(format!("{}: {e}", path.display())))?;
            Ok(DataSet {
                inputs: vec![(input.name.clone(), t)],
                files: vec![path],
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
