//! Image preprocessing: how a picture becomes a model input tensor. One
//! struct for every target (the NNIE front end uses it too).
//!
//! In: a decoded image and the model input's shape. Out: an f32 tensor
//! `[1, C, H, W]` ([`Layout::Nchw`]) or `[1, H, W, C]` ([`Layout::Nhwc`]),
//! C = 3 (colour, channel order [`ChannelOrder`]) or 1 (grey).
//!
//! Steps, in order:
//! 1. **resize** ([`Resize`]): `stretch` to exactly H×W (the default, what
//!    NNIE does), or `crop:S` — shorter side to S keeping the aspect ratio,
//!    then the centre H×W (torchvision's `Resize(S)` + `CenterCrop`;
//!    `crop:256` for 224×224 ImageNet models). Triangle (bilinear) filter.
//! 2. **channels**: RGB or BGR (Caffe models) for C = 3, luma for C = 1.
//! 3. **normalise** every pixel `p ∈ [0, 255]` of channel `c`:
//!    `x = (p·scale − mean[c]) / std[c]`, computed in f64 and rounded once
//!    to f32. Defaults: scale 1/255, mean 0, std 1, i.e. `x = p/255 ∈
//!    [0, 1]`. torchvision ImageNet: scale 1/255, mean
//!    0.485,0.456,0.406, std 0.229,0.224,0.225. Caffe: scale 1, mean
//!    104,117,123 (BGR), std 1. For C = 1 only the first mean/std is used.
//!
//! ```
//! use onnc_calib::{ChannelOrder, Layout, Preprocess, Resize};
//! let p = Preprocess::default();
//! assert_eq!((p.resize, p.order, p.layout), (Resize::Stretch, ChannelOrder::Rgb, Layout::Nchw));
//! let caffe = Preprocess {
//!     scale: 1.0,
//!     mean: Preprocess::parse_triplet("mean", "104,117,123").unwrap(),
//!     order: "bgr".parse().unwrap(),
//!     ..Preprocess::default()
//! };
//! assert_eq!(caffe.normalise(0, 104.0), 0.0);
//! assert_eq!("crop:256".parse::<Resize>().unwrap(), Resize::CenterCrop(256));
//! ```

use std::str::FromStr;

use crate::error::{CalibError, Result};

/// How the image is brought to the input's H×W.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Resize {
    /// Exactly H×W, aspect ratio not kept (`stretch`).
    #[default]
    Stretch,
    /// Shorter side to the given size, then the centre H×W (`crop:S`).
    CenterCrop(u32),
}

/// Channel order of a colour input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChannelOrder {
    /// Red, green, blue (`rgb`).
    #[default]
    Rgb,
    /// Blue, green, red (`bgr`; Caffe and OpenCV models).
    Bgr,
}

/// Where the channel axis is in the model input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// `[1, C, H, W]` (`nchw`).
    #[default]
    Nchw,
    /// `[1, H, W, C]` (`nhwc`).
    Nhwc,
}

/// Image preprocessing (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preprocess {
    /// Resizing.
    pub resize: Resize,
    /// Multiplier of the 0–255 pixel value.
    pub scale: f64,
    /// Subtracted after scaling, per channel (in the model's channel order).
    pub mean: [f64; 3],
    /// Divides after the mean, per channel.
    pub std: [f64; 3],
    /// Colour channel order.
    pub order: ChannelOrder,
    /// Model input layout.
    pub layout: Layout,
}

impl Default for Preprocess {
    /// Stretch, `p/255`, RGB, NCHW: NNIE's documented preprocessing.
    fn default() -> Self {
        Preprocess {
            resize: Resize::Stretch,
            scale: 1.0 / 255.0,
            mean: [0.0; 3],
            std: [1.0; 3],
            order: ChannelOrder::Rgb,
            layout: Layout::Nchw,
        }
    }
}

impl Preprocess {
    /// Check the values: finite scale, finite means, finite non-zero stds.
    pub fn validated(self) -> Result<Preprocess> {
        if !self.scale.is_finite() || self.scale == 0.0 {
            return Err(CalibError::option(
                "scale",
                format!("{} must be finite and non-zero", self.scale),
            ));
        }
        if let Some(m) = self.mean.iter().find(|m| !m.is_finite()) {
            return Err(CalibError::option("mean", format!("{m} is not finite")));
        }
        if let Some(s) = self.std.iter().find(|s| !s.is_finite() || **s == 0.0) {
            return Err(CalibError::option(
                "std",
                format!("{s} must be finite and non-zero"),
            ));
        }
        if let Resize::CenterCrop(0) = self.resize {
            return Err(CalibError::option(
                "resize",
                "crop:0 has no pixels; e.g. crop:256",
            ));
        }
        Ok(self)
    }

    /// The value of pixel `p` (0–255) in channel `c` (see the module doc).
    pub fn normalise(&self, c: usize, p: f64) -> f32 {
        ((p * self.scale - self.mean[c]) / self.std[c]) as f32
    }

    /// Parse `a,b,c` (three numbers) or one number used for all three.
    pub fn parse_triplet(key: &str, s: &str) -> Result<[f64; 3]> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let nums: std::result::Result<Vec<f64>, _> =
            parts.iter().map(|p| p.parse::<f64>()).collect();
        match nums.as_deref() {
            Ok([v]) => Ok([*v; 3]),
            Ok([a, b, c]) => Ok([*a, *b, *c]),
            _ => Err(CalibError::option(
                key,
                format!("'{s}' is not one number or three comma-separated numbers (e.g. 0.485,0.456,0.406)"),
            )),
        }
    }
}

impl FromStr for Resize {
    type Err = CalibError;
    fn from_str(s: &str) -> Result<Resize> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == "stretch" {
            return Ok(Resize::Stretch);
        }
        if let Some(n) = lower
            .strip_prefix("crop:")
            .and_then(|n| n.parse::<u32>().ok())
        {
            if n > 0 {
                return Ok(Resize::CenterCrop(n));
            }
        }
        Err(CalibError::option(
            "resize",
            format!("'{s}' is not 'stretch' or 'crop:S' (S > 0, e.g. crop:256)"),
        ))
    }
}

impl FromStr for ChannelOrder {
    type Err = CalibError;
    fn from_str(s: &str) -> Result<ChannelOrder> {
        match s.trim().to_ascii_lowercase().as_str() {
            "rgb" => Ok(ChannelOrder::Rgb),
            "bgr" => Ok(ChannelOrder::Bgr),
            _ => Err(CalibError::option(
                "channel order",
                format!("'{s}' is not 'rgb' or 'bgr'"),
            )),
        }
    }
}

impl FromStr for Layout {
    type Err = CalibError;
    fn from_str(s: &str) -> Result<Layout> {
        match s.trim().to_ascii_lowercase().as_str() {
            "nchw" => Ok(Layout::Nchw),
            "nhwc" => Ok(Layout::Nhwc),
            _ => Err(CalibError::option(
                "layout",
                format!("'{s}' is not 'nchw' or 'nhwc'"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_p_over_255_exactly() {
        let p = Preprocess::default();
        for v in 0..=255u8 {
            assert_eq!(p.normalise(0, f64::from(v)), f32::from(v) / 255.0);
        }
    }

    #[test]
    fn bad_flags_say_what_is_accepted() {
        assert!("crop:0".parse::<Resize>().is_err());
        assert!("fit"
            .parse::<Resize>()
            .unwrap_err()
            .to_string()
            .contains("crop:S"));
        assert!("rgba".parse::<ChannelOrder>().is_err());
        assert!("chw".parse::<Layout>().is_err());
        assert_eq!(Preprocess::parse_triplet("std", "2").unwrap(), [2.0; 3]);
        assert!(Preprocess::parse_triplet("mean", "1,2")
            .unwrap_err()
            .to_string()
            .starts_with("mean:"));
        let p = Preprocess {
            std: [1.0, 0.0, 1.0],
            ..Preprocess::default()
        };
        assert!(p.validated().unwrap_err().to_string().contains("std"));
        let p = Preprocess {
            scale: f64::NAN,
            ..Preprocess::default()
        };
        assert!(p.validated().is_err());
    }
}
