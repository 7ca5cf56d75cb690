//! Calibration sets from a folder of images.
//!
//! In: a folder and the graph; the graph has exactly one input, of shape
//! `[1, C, H, W]` (or `[1, H, W, C]` with [`Layout::Nhwc`]), C = 1 or 3,
//! and the [`Preprocess`] options. Out: one set per image — every `*.png`,
//! `*.jpg`, `*.jpeg`, `*.bmp`, `*.pgm`, `*.ppm` directly in the folder, in
//! file-name order — with the image as its one file.
//!
//! ```no_run
//! use onnc_calib::{images, Preprocess};
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let sets = images::load_images(std::path::Path::new("calib_images"), &g, &Preprocess::default()).unwrap();
//! assert_eq!(sets[0].inputs[0].1.shape()[0], 1);
//! ```

use std::path::{Path, PathBuf};

use image::imageops::FilterType;
use image::DynamicImage;
use onnc_onnx::{Dim, Graph};
use onnc_tensor::{DType, Tensor};

use crate::error::{CalibError, Result};
use crate::preprocess::{ChannelOrder, Layout, Preprocess, Resize};
use crate::source::DataSet;

/// File extensions read as images (lower case).
pub const IMAGE_EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "bmp", "pgm", "ppm"];

/// Whether `p` has one of [`IMAGE_EXTENSIONS`].
pub fn is_image(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The images directly in `dir`, sorted by path.
pub fn image_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| CalibError::input(dir, e.to_string()))? {
        let p = e.map_err(|e| CalibError::input(dir, e.to_string()))?.path();
        if p.is_file() && is_image(&p) {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

/// The image input: `(name, C, H, W)`, checked (see the module doc).
pub fn image_input(
    dir: &Path,
    graph: &Graph,
    pre: &Preprocess,
) -> Result<(String, usize, usize, usize)> {
    let [input] = graph.inputs.as_slice() else {
        return Err(CalibError::input(
            dir,
            format!(
                "an image folder feeds a model with exactly one input; this one has {} (use input_<k>.pb or .npy sets)",
                graph.inputs.len()
            ),
        ));
    };
    let dims: Vec<Option<usize>> = input.dims.iter().map(Dim::fixed).collect();
    let bad = || {
        CalibError::input(
            dir,
            format!(
                "graph input `{}` is {}; images feed [1, C, H, W] (layout nchw) or [1, H, W, C] (layout nhwc) with C = 1 or 3 and fixed H, W (use input_<k>.pb or .npy sets otherwise)",
                input.name,
                input.type_info()
            ),
        )
    };
    if input.dtype != DType::F32
        || dims.len() != 4
        || matches!(input.dims[0], Dim::Fixed(n) if n != 1)
    {
        return Err(bad());
    }
    let (c, h, w) = match pre.layout {
        Layout::Nchw => (dims[1], dims[2], dims[3]),
        Layout::Nhwc => (dims[3], dims[1], dims[2]),
    };
    match (c, h, w) {
        (Some(c @ (1 | 3)), Some(h), Some(w)) if h > 0 && w > 0 => {
            Ok((input.name.clone(), c, h, w))
        }
        _ => Err(bad()),
    }
}

/// Resize `img` to `w`×`h` as `pre.resize` says.
fn resized(
    path: &Path,
    img: &DynamicImage,
    w: usize,
    h: usize,
    pre: &Preprocess,
) -> Result<DynamicImage> {
    let (w32, h32) = (w as u32, h as u32);
    match pre.resize {
        Resize::Stretch => Ok(img.resize_exact(w32, h32, FilterType::Triangle)),
        Resize::CenterCrop(s) => {
            if (s as usize) < w.max(h) {
                return Err(CalibError::input(
                    path,
                    format!("resize crop:{s} is smaller than the {h}x{w} input; use crop:S with S >= {}", w.max(h)),
                ));
            }
            let (iw, ih) = (img.width().max(1) as u64, img.height().max(1) as u64);
            let (rw, rh) = if iw <= ih {
                (u64::from(s), (ih * u64::from(s) + iw / 2) / iw)
            } else {
                ((iw * u64::from(s) + ih / 2) / ih, u64::from(s))
            };
            let r = img.resize_exact(rw as u32, rh as u32, FilterType::Triangle);
            let (x, y) = ((rw as u32 - w32) / 2, (rh as u32 - h32) / 2);
            Ok(r.crop_imm(x, y, w32, h32))
        }
    }
}

/// The 8-bit picture calibration normalises: `path` decoded, resized as
/// `pre.resize` says to the input's `W`×`H`, and converted to RGB (C = 3,
/// in the file's R, G, B order whatever `pre.order` is) or grey (C = 1).
/// Saved losslessly, it is the image another tool must read to see what the
/// calibrator saw (the NNIE package's `calibration_images/`).
pub fn resized_image(
    path: &Path,
    input: &(String, usize, usize, usize),
    pre: &Preprocess,
) -> Result<DynamicImage> {
    let (_, c, h, w) = input;
    let img = image::open(path)
        .map_err(|e| CalibError::input(path, format!("cannot decode the image: {e}")))?;
    let img = resized(path, &img, *w, *h, pre)?;
    Ok(if *c == 3 {
        DynamicImage::ImageRgb8(img.to_rgb8())
    } else {
        DynamicImage::ImageLuma8(img.to_luma8())
    })
}

/// Read and preprocess one image into the input tensor.
pub fn load_image(
    path: &Path,
    input: &(String, usize, usize, usize),
    pre: &Preprocess,
) -> Result<DataSet> {
    let (name, c, h, w) = input;
    let (c, h, w) = (*c, *h, *w);
    let img = resized_image(path, input, pre)?;
    let mut data = vec![0f32; c * h * w];
    let at = |ch: usize, y: usize, x: usize| match pre.layout {
        Layout::Nchw => ch * h * w + y * w + x,
        Layout::Nhwc => (y * w + x) * c + ch,
    };
    if c == 3 {
        for (x, y, px) in img.to_rgb8().enumerate_pixels() {
            for ch in 0..3 {
                let src = match pre.order {
                    ChannelOrder::Rgb => ch,
                    ChannelOrder::Bgr => 2 - ch,
                };
                data[at(ch, y as usize, x as usize)] = pre.normalise(ch, f64::from(px[src]));
            }
        }
    } else {
        for (x, y, px) in img.to_luma8().enumerate_pixels() {
            data[at(0, y as usize, x as usize)] = pre.normalise(0, f64::from(px[0]));
        }
    }
    let shape = match pre.layout {
        Layout::Nchw => vec![1, c, h, w],
        Layout::Nhwc => vec![1, h, w, c],
    };
    let t = Tensor::from_f32(shape, data).map_err(|e| CalibError::input(path, e.to_string()))?;
    Ok(DataSet {
        inputs: vec![(name.clone(), t)],
        files: vec![path.to_path_buf()],
    })
}

/// One set per image in `dir` (see the module doc).
pub fn load_images(dir: &Path, graph: &Graph, pre: &Preprocess) -> Result<Vec<DataSet>> {
    let pre = pre.validated()?;
    let input = image_input(dir, graph, &pre)?;
    let files = image_files(dir)?;
    if files.is_empty() {
        return Err(CalibError::input(
            dir,
            format!(
                "no images (.{}), no .npy files and no input_0.pb / test_data_set_*/",
                IMAGE_EXTENSIONS.join(", .")
            ),
        ));
    }
    files.iter().map(|p| load_image(p, &input, &pre)).collect()
}
