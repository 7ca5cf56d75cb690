//! The `.cfg` preprocessing keys that make `nnie_mapper` see the inputs the
//! calibration saw.
//!
//! In: the calibration's image preprocessing ([`onnc_calib::Preprocess`]:
//! `x = (p·scale − mean[c]) / std[c]` for a pixel `p ∈ [0, 255]`) and the
//! input's channel count, or nothing for tensor data. Out: [`CfgPreprocess`]
//! — `[image_type]`, `[RGB_order]`, `[norm_type]`, `[data_scale]` and the
//! per-channel means for `[mean_file]` — or an error when the mapper cannot
//! express the preprocessing.
//!
//! The mapper normalises `x = (p − M[c]) · D` (HiSilicon's cfg reference:
//! `[norm_type]` 0 none, 2 channel means, 3 `data_scale`, 5 channel means
//! then `data_scale`; the channel mean file holds one number per line, one
//! line per channel). So `D = scale / std` and `M[c] = mean[c] / scale`,
//! which needs one `std` for every channel: the mapper has one `data_scale`.
//! `[RGB_order]` is the channel order the network takes (`--channel-order`);
//! the package's images are stored in R, G, B order like any image file.
//! Tensor data (`.pb`, `.npy` sets) is already the network's input: it is
//! written as a feature map (`[image_type] 0`) with no normalisation
//! (`[norm_type] 0`, `[data_scale] 1`).
//!
//! ```
//! use onnc_nnie::CfgPreprocess;
//! let p = CfgPreprocess::from_images(&onnc_calib::Preprocess::default(), 3).unwrap();
//! assert_eq!((p.rgb_order.as_str(), p.norm_type, p.data_scale), ("RGB", 3, 1.0 / 255.0));
//! ```

use onnc_calib::{ChannelOrder, Preprocess};

use crate::error::{NnieError, Result};

/// Name of the channel mean file inside a package (`[norm_type]` 2 or 5).
pub const CHANNEL_MEAN_FILE: &str = "channel_mean.txt";

/// The preprocessing keys of a mapper `.cfg`.
#[derive(Debug, Clone, PartialEq)]
pub struct CfgPreprocess {
    /// `[image_type]`: 1 images, 0 feature maps (tensor data).
    pub image_type: u32,
    /// `[RGB_order]`: `RGB` or `BGR`.
    pub rgb_order: String,
    /// `[norm_type]`: 0 none, 2 channel means, 3 data scale, 5 both.
    pub norm_type: u32,
    /// `[data_scale]`: the multiplier after the mean.
    pub data_scale: f32,
    /// The per-channel means in pixel units (`[mean_file]`), `None` when
    /// `[norm_type]` subtracts none.
    pub channel_means: Option<Vec<f32>>,
}

impl CfgPreprocess {
    /// The keys for images preprocessed with `pre` into `channels` (1 or 3)
    /// channels; an error when the channels' stds differ (see the module doc).
    pub fn from_images(pre: &Preprocess, channels: usize) -> Result<Self> {
        let used = channels.clamp(1, 3);
        let std = &pre.std[..used];
        if std.iter().any(|s| *s != std[0]) {
            return Err(NnieError::MapperConfig(format!(
                "--std {} differs per channel, but nnie_mapper has one [data_scale] for every channel; \
give one --std value, or put the per-channel division into the model (a Div or BatchNormalization in front) and calibrate without it",
                std.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
            )));
        }
        let data_scale = (pre.scale / std[0]) as f32;
        let means: Vec<f32> = pre.mean[..used]
            .iter()
            .map(|m| (m / pre.scale) as f32)
            .collect();
        let has_mean = means.iter().any(|m| *m != 0.0);
        let norm_type = match (has_mean, data_scale == 1.0) {
            (false, true) => 0,
            (true, true) => 2,
            (false, false) => 3,
            (true, false) => 5,
        };
        Ok(Self {
            image_type: 1,
            rgb_order: match pre.order {
                ChannelOrder::Rgb => "RGB",
                ChannelOrder::Bgr => "BGR",
            }
            .to_string(),
            norm_type,
            data_scale,
            channel_means: has_mean.then_some(means),
        })
    }

    /// The keys for tensor data fed as it is (feature maps, no normalisation).
    pub fn tensors() -> Self {
        Self {
            image_type: 0,
            rgb_order: "RGB".to_string(),
            norm_type: 0,
            data_scale: 1.0,
            channel_means: None,
        }
    }

    /// The channel mean file's text: one mean per line, `None` without means.
    pub fn mean_file_text(&self) -> Option<String> {
        self.channel_means
            .as_ref()
            .map(|m| m.iter().map(|v| format!("{v}\n")).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pre(scale: f64, mean: [f64; 3], std: [f64; 3], order: ChannelOrder) -> Preprocess {
        Preprocess {
            scale,
            mean,
            std,
            order,
            ..Preprocess::default()
        }
    }

    #[test]
    fn torchvision_imagenet_with_one_std_is_norm_type_5() {
        let p = pre(
            1.0 / 255.0,
            [0.485, 0.456, 0.406],
            [0.25; 3],
            ChannelOrder::Rgb,
        );
        let c = CfgPreprocess::from_images(&p, 3).unwrap();
        assert_eq!(c.norm_type, 5);
        assert_eq!(c.data_scale, (1.0 / 255.0 / 0.25) as f32);
        assert_eq!(c.mean_file_text().unwrap(), "123.675\n116.28\n103.53\n");
        // the mapper's x = (p − M)·D equals the calibrator's for every pixel value
        let m = c.channel_means.as_ref().unwrap();
        for v in [0.0, 17.0, 128.0, 255.0] {
            for (ch, mean) in m.iter().enumerate() {
                let mapper = (v - f64::from(*mean)) * f64::from(c.data_scale);
                assert!((mapper - f64::from(p.normalise(ch, v))).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn caffe_bgr_means_without_scale_is_norm_type_2() {
        let p = pre(1.0, [104.0, 117.0, 123.0], [1.0; 3], ChannelOrder::Bgr);
        let c = CfgPreprocess::from_images(&p, 3).unwrap();
        assert_eq!((c.rgb_order.as_str(), c.norm_type), ("BGR", 2));
        assert_eq!(c.mean_file_text().unwrap(), "104\n117\n123\n");
        let raw = CfgPreprocess::from_images(&pre(1.0, [0.0; 3], [1.0; 3], ChannelOrder::Rgb), 3);
        assert_eq!(raw.unwrap().norm_type, 0);
    }

    #[test]
    fn grey_uses_the_first_channel_only() {
        let p = pre(
            1.0 / 255.0,
            [0.5, 9.0, 9.0],
            [0.5, 0.1, 0.1],
            ChannelOrder::Rgb,
        );
        let c = CfgPreprocess::from_images(&p, 1).unwrap();
        assert_eq!(c.mean_file_text().unwrap(), "127.5\n");
        assert_eq!(c.data_scale, (2.0 / 255.0) as f32);
    }

    #[test]
    fn per_channel_std_is_refused_with_the_fix() {
        let p = pre(
            1.0 / 255.0,
            [0.485, 0.456, 0.406],
            [0.229, 0.224, 0.225],
            ChannelOrder::Rgb,
        );
        let e = CfgPreprocess::from_images(&p, 3).unwrap_err().to_string();
        assert!(
            e.contains("one [data_scale]") && e.contains("give one --std"),
            "{e}"
        );
    }

    #[test]
    fn tensors_are_feature_maps() {
        let t = CfgPreprocess::tensors();
        assert_eq!((t.image_type, t.norm_type, t.data_scale), (0, 0, 1.0));
        assert_eq!(t.mean_file_text(), None);
    }
}
