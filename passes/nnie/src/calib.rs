//! Calibration: per-layer activation ranges and weight clips, snapped to the grid.
//!
//! In: activation batches per layer (any number of batches, in a fixed order),
//! weight tensors. Out: one [`ClipValue`] per layer.
//!
//! Methods ([`CalibMethod`]):
//! * `MaxAbs` — running `max |x|` over all batches. This is MQBench's NNIE
//!   weight observer (MinMax) and the default for activations here.
//! * `EmaMaxAbs` — MQBench's NNIE activation observer: per batch, `min` and
//!   `max` follow an exponential moving average (`v ← r·v + (1−r)·batch`, first
//!   batch initialises, `r` = [`CalibConfig::ema_ratio`], MQBench default 0.9),
//!   and the clip is the running max over batches of `max(−ema_min, ema_max)`
//!   (`NNIEFakeQuantize.data_max`).
//! * `Percentile(p)` — the `p`-th percentile of `|x|` from a histogram
//!   (see [`AbsHistogram`]); ignores rare outliers.
//! * `Mse` — NNIE-aware search: among the grid clips from
//!   `ceil(16·log2 max|x|)` down 64 steps (4 octaves), the one whose 8-bit
//!   log quantizer minimises the histogram-weighted squared error of `|x|`
//!   (bin centres, positive branch); ties keep the larger clip.
//!
//! KL-divergence calibration (TensorRT's entropy method) is not implemented:
//! it assumes uniform linear bins, which NNIE's log code does not have; `Mse`
//! measures the real quantizer instead.
//!
//! Every method but `Mse` yields a real value that is then snapped with the
//! chosen [`SnapMode`]; `Mse` already returns a grid value.
//!
//! ```
//! use onnc_nnie::{CalibConfig, CalibMethod, Calibrator, SnapMode};
//! let mut cal = Calibrator::new(CalibConfig::default()).unwrap();
//! cal.observe("conv1", &[0.5, -3.0, 1.0]).unwrap();
//! cal.observe("conv1", &[2.0]).unwrap();
//! cal.observe("relu1", &[0.25]).unwrap();
//! let clips = cal.clips(CalibMethod::MaxAbs, SnapMode::Nearest).unwrap();
//! assert_eq!(clips[0].0, "conv1");
//! assert_eq!(clips[0].1.index(), 25); // 16*log2(3) = 25.36
//! ```

use std::collections::HashMap;

use rayon::prelude::*;

use crate::code::LogQuantizer;
use crate::error::{NnieError, Result};
use crate::grid::{ClipValue, SnapMode, CLIP_INDEX_MIN};
use crate::histogram::{AbsHistogram, DEFAULT_HISTOGRAM_BINS};

/// MQBench's default EMA ratio for NNIE activations.
pub const DEFAULT_EMA_RATIO: f32 = 0.9;

/// How far below `ceil(16·log2 max|x|)` the `Mse` search looks (grid steps).
pub const MSE_SEARCH_STEPS: i64 = 64;

/// How a layer's clip value is derived from its statistics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CalibMethod {
    /// Running max of `|x|`.
    MaxAbs,
    /// MQBench's EMA min/max observer.
    EmaMaxAbs,
    /// Percentile of `|x|`, `0 < p ≤ 100`.
    Percentile(f64),
    /// Grid search minimising the squared quantization error.
    Mse,
}

/// Options of the activation observers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibConfig {
    /// EMA ratio `r` in `[0, 1)` for [`CalibMethod::EmaMaxAbs`].
    pub ema_ratio: f32,
    /// Histogram bins (even, ≥ 2) for `Percentile` and `Mse`.
    pub histogram_bins: usize,
}

impl Default for CalibConfig {
    fn default() -> Self {
        Self {
            ema_ratio: DEFAULT_EMA_RATIO,
            histogram_bins: DEFAULT_HISTOGRAM_BINS,
        }
    }
}

/// Statistics of one activation tensor over the calibration batches.
#[derive(Debug, Clone, PartialEq)]
pub struct ActivationObserver {
    ema_ratio: f32,
    ema: Option<(f32, f32)>,
    ema_peak: f32,
    batches: u64,
    hist: AbsHistogram,
}

impl ActivationObserver {
    /// An observer with the given options.
    pub fn new(config: CalibConfig) -> Result<Self> {
        if !(config.ema_ratio >= 0.0 && config.ema_ratio < 1.0) {
            return Err(NnieError::Calibration(format!(
                "ema_ratio must be in [0, 1), got {}",
                config.ema_ratio
            )));
        }
        Ok(Self {
            ema_ratio: config.ema_ratio,
            ema: None,
            ema_peak: 0.0,
            batches: 0,
            hist: AbsHistogram::new(config.histogram_bins)?,
        })
    }

    /// Record one batch (empty batches are ignored, as MQBench does). NaN or
    /// infinite values are errors and leave the observer unchanged.
    pub fn observe(&mut self, batch: &[f32]) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        self.hist.add(batch)?;
        let (lo, hi) = batch
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        let r = self.ema_ratio;
        let (lo, hi) = match self.ema {
            None => (lo, hi),
            Some((elo, ehi)) => (elo * r + lo * (1.0 - r), ehi * r + hi * (1.0 - r)),
        };
        self.ema = Some((lo, hi));
        self.ema_peak = self.ema_peak.max((-lo).max(hi));
        self.batches += 1;
        Ok(())
    }

    /// Number of (non-empty) batches seen.
    pub fn batches(&self) -> u64 {
        self.batches
    }

    /// Running max of `|x|`.
    pub fn max_abs(&self) -> f32 {
        self.hist.max_abs()
    }

    /// The histogram of `|x|`.
    pub fn histogram(&self) -> &AbsHistogram {
        &self.hist
    }

    /// The real (un-snapped) clip for a method; `Mse` returns its grid value.
    pub fn raw_clip(&self, method: CalibMethod) -> Result<f32> {
        Ok(match method {
            CalibMethod::Mse => self.clip(method, SnapMode::Nearest)?.value_f32(),
            _ => self.real_clip(method)?,
        })
    }

    fn real_clip(&self, method: CalibMethod) -> Result<f32> {
        if self.batches == 0 {
            return Err(NnieError::Calibration("no data observed".to_string()));
        }
        let c = match method {
            CalibMethod::MaxAbs => self.max_abs(),
            CalibMethod::EmaMaxAbs => self.ema_peak,
            CalibMethod::Percentile(p) => self.hist.percentile(p)?,
            CalibMethod::Mse => self.max_abs(),
        };
        if c > 0.0 {
            Ok(c)
        } else {
            Err(NnieError::Calibration(
                "all observed values are zero; no clip value exists".to_string(),
            ))
        }
    }

    /// The grid clip for a method and snapping mode.
    pub fn clip(&self, method: CalibMethod, snap: SnapMode) -> Result<ClipValue> {
        let c = self.real_clip(method)?;
        match method {
            CalibMethod::Mse => mse_search(&self.hist, ClipValue::snap(c, SnapMode::Up)?),
            _ => ClipValue::snap(c, snap),
        }
    }
}

/// Pick the grid clip at or below `top` minimising the squared error.
fn mse_search(hist: &AbsHistogram, top: ClipValue) -> Result<ClipValue> {
    let w = hist.bin_width();
    let centres: Vec<(f32, f64)> = hist
        .bins()
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(i, &c)| (((i as f64 + 0.5) * w) as f32, c as f64))
        .collect();
    let lowest = (top.index() - MSE_SEARCH_STEPS).max(CLIP_INDEX_MIN);
    let mut best: Option<(f64, ClipValue)> = None;
    for k in (lowest..=top.index()).rev() {
        let clip = ClipValue::from_index(k)?;
        let q = LogQuantizer::from_clip(clip);
        let err: f64 = centres
            .iter()
            .map(|&(x, n)| {
                let d = f64::from(x) - f64::from(q.decode(q.encode_non_nan(x)));
                n * d * d
            })
            .sum();
        if best.is_none_or(|(e, _)| err < e) {
            best = Some((err, clip));
        }
    }
    best.map(|(_, c)| c)
        .ok_or_else(|| NnieError::Calibration("empty MSE search range".to_string()))
}

/// Per-layer observers, kept in first-observation order (deterministic output).
#[derive(Debug, Clone)]
pub struct Calibrator {
    config: CalibConfig,
    layers: Vec<(String, ActivationObserver)>,
    index: HashMap<String, usize>,
}

impl Calibrator {
    /// An empty calibrator; fails on invalid options.
    pub fn new(config: CalibConfig) -> Result<Self> {
        ActivationObserver::new(config)?; // validate once
        Ok(Self {
            config,
            layers: Vec::new(),
            index: HashMap::new(),
        })
    }

    /// The index of a layer's observer, made on first sight.
    fn slot(&mut self, layer: &str) -> Result<usize> {
        Ok(match self.index.get(layer) {
            Some(&i) => i,
            None => {
                self.layers
                    .push((layer.to_string(), ActivationObserver::new(self.config)?));
                self.index.insert(layer.to_string(), self.layers.len() - 1);
                self.layers.len() - 1
            }
        })
    }

    /// Record one batch of the named layer's activation.
    pub fn observe(&mut self, layer: &str, batch: &[f32]) -> Result<()> {
        let i = self.slot(layer)?;
        self.layers[i].1.observe(batch)
    }

    /// Record several sets' batches, each set a list of `(layer, batch)` in
    /// the order they were met: the same state as calling
    /// [`observe`](Self::observe) on every pair in order (set by set), but
    /// the layers take their batches in parallel (rayon) — every layer's
    /// batches still arrive in set order, so the result does not depend on
    /// the thread count. On error (the first failing layer in
    /// first-observation order), other layers may already hold their batches.
    pub fn observe_sets(&mut self, sets: &[Vec<(&str, &[f32])>]) -> Result<()> {
        let mut per_layer: Vec<Vec<&[f32]>> = Vec::new();
        for set in sets {
            for &(layer, batch) in set {
                let i = self.slot(layer)?;
                if per_layer.len() <= i {
                    per_layer.resize(i + 1, Vec::new());
                }
                per_layer[i].push(batch);
            }
        }
        let results: Vec<Result<()>> = self
            .layers
            .par_iter_mut()
            .zip(per_layer.par_iter())
            .map(|((_, obs), batches)| batches.iter().try_for_each(|b| obs.observe(b)))
            .collect();
        results.into_iter().collect()
    }

    /// The observer of a layer, if it was observed.
    pub fn layer(&self, name: &str) -> Option<&ActivationObserver> {
        self.index.get(name).map(|&i| &self.layers[i].1)
    }

    /// Layer names in first-observation order.
    pub fn layer_names(&self) -> impl Iterator<Item = &str> {
        self.layers.iter().map(|(n, _)| n.as_str())
    }

    /// One grid clip per layer, in first-observation order. The first failing
    /// layer's error is returned, prefixed with its name.
    pub fn clips(&self, method: CalibMethod, snap: SnapMode) -> Result<Vec<(String, ClipValue)>> {
        self.layers
            .iter()
            .map(|(name, obs)| {
                obs.clip(method, snap)
                    .map(|c| (name.clone(), c))
                    .map_err(|e| match e {
                        NnieError::Calibration(m) => {
                            NnieError::Calibration(format!("layer {name:?}: {m}"))
                        }
                        other => other,
                    })
            })
            .collect()
    }
}

/// The grid clip of a weight tensor: `max |w|` (MQBench's per-tensor MinMax
/// weight observer), snapped. Empty, all-zero or NaN weights are errors.
pub fn weight_clip(weights: &[f32], snap: SnapMode) -> Result<ClipValue> {
    let mut m = 0.0f32;
    for (index, &w) in weights.iter().enumerate() {
        if w.is_nan() {
            return Err(NnieError::NotANumber { index });
        }
        m = m.max(w.abs());
    }
    if m == 0.0 {
        return Err(NnieError::Calibration(
            "weights are empty or all zero; no clip value exists".to_string(),
        ));
    }
    ClipValue::snap(m, snap)
}

/// Clip weights in place to `[−c, c]` (what MQBench's NNIE deploy step does to
/// the exported weights), with `c` the clip's `f32` value.
pub fn clip_weights(weights: &mut [f32], clip: ClipValue) {
    let c = clip.value_f32();
    for w in weights.iter_mut() {
        *w = w.clamp(-c, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_abs_over_batches() {
        let mut o = ActivationObserver::new(CalibConfig::default()).unwrap();
        o.observe(&[1.0, -2.0]).unwrap();
        o.observe(&[]).unwrap();
        o.observe(&[7.5, 0.0]).unwrap();
        assert_eq!(o.batches(), 2);
        assert_eq!(o.raw_clip(CalibMethod::MaxAbs).unwrap(), 7.5);
        assert_eq!(
            o.clip(CalibMethod::MaxAbs, SnapMode::Nearest).unwrap(),
            ClipValue::snap(7.5, SnapMode::Nearest).unwrap()
        );
    }

    #[test]
    fn ema_follows_mqbench() {
        let mut o = ActivationObserver::new(CalibConfig::default()).unwrap();
        o.observe(&[-1.0, 2.0]).unwrap(); // ema = (-1, 2), peak 2
        o.observe(&[-10.0, 12.0]).unwrap(); // ema = (-1.9, 3.0), peak 3
        let c = o.raw_clip(CalibMethod::EmaMaxAbs).unwrap();
        assert!((c - 3.0).abs() < 1e-6, "{c}");
        o.observe(&[0.0, 0.5]).unwrap(); // ema max shrinks, peak stays
        assert!((o.raw_clip(CalibMethod::EmaMaxAbs).unwrap() - 3.0).abs() < 1e-6);
    }

    #[test]
    fn percentile_ignores_outliers() {
        let mut o = ActivationObserver::new(CalibConfig::default()).unwrap();
        let mut xs: Vec<f32> = (0..10_000).map(|i| (i % 100) as f32 / 100.0).collect();
        xs.push(1000.0);
        o.observe(&xs).unwrap();
        let p = o.raw_clip(CalibMethod::Percentile(99.0)).unwrap();
        assert!(p < 2.0, "{p}");
        assert_eq!(o.raw_clip(CalibMethod::MaxAbs).unwrap(), 1000.0);
    }

    #[test]
    fn mse_prefers_tighter_clip_with_outlier() {
        let mut o = ActivationObserver::new(CalibConfig::default()).unwrap();
        let mut xs: Vec<f32> = (1..=20_000).map(|i| (i as f32 / 20_000.0) * 2.0).collect();
        xs.push(64.0);
        o.observe(&xs).unwrap();
        let mse = o.clip(CalibMethod::Mse, SnapMode::Nearest).unwrap();
        let max = o.clip(CalibMethod::MaxAbs, SnapMode::Up).unwrap();
        assert!(mse.index() <= max.index());
        // deterministic
        assert_eq!(mse, o.clip(CalibMethod::Mse, SnapMode::Nearest).unwrap());
    }

    #[test]
    fn calibrator_keeps_order_and_names_errors() {
        let mut cal = Calibrator::new(CalibConfig::default()).unwrap();
        cal.observe("b", &[1.0]).unwrap();
        cal.observe("a", &[2.0]).unwrap();
        cal.observe("b", &[4.0]).unwrap();
        let names: Vec<&str> = cal.layer_names().collect();
        assert_eq!(names, ["b", "a"]);
        let clips = cal.clips(CalibMethod::MaxAbs, SnapMode::Nearest).unwrap();
        assert_eq!(clips[0].1.index(), 32);
        assert_eq!(clips[1].1.index(), 16);
        cal.observe("zeros", &[0.0, 0.0]).unwrap();
        let err = cal
            .clips(CalibMethod::MaxAbs, SnapMode::Nearest)
            .unwrap_err();
        assert!(err.to_string().contains("zeros"), "{err}");
        assert!(Calibrator::new(CalibConfig {
            ema_ratio: 1.5,
            ..CalibConfig::default()
        })
        .is_err());
        assert!(cal.layer("nope").is_none());
    }

    #[test]
    fn observe_sets_equals_observing_in_order() {
        let sets: Vec<Vec<(&str, Vec<f32>)>> = (0..5)
            .map(|k| {
                let x = k as f32;
                vec![
                    ("b", vec![x - 2.0, 0.5 * x, 3.0 / (x + 1.0)]),
                    ("a", vec![-x * x, 1.0]),
                    ("c", if k == 3 { vec![] } else { vec![x + 0.25] }),
                ]
            })
            .collect();
        let mut one = Calibrator::new(CalibConfig::default()).unwrap();
        for set in &sets {
            for (name, xs) in set {
                one.observe(name, xs).unwrap();
            }
        }
        let mut many = Calibrator::new(CalibConfig::default()).unwrap();
        many.observe("c", &[9.0]).unwrap(); // an earlier batch stays first
        let mut seq = Calibrator::new(CalibConfig::default()).unwrap();
        seq.observe("c", &[9.0]).unwrap();
        for set in &sets {
            for (name, xs) in set {
                seq.observe(name, xs).unwrap();
            }
        }
        let borrowed: Vec<Vec<(&str, &[f32])>> = sets
            .iter()
            .map(|s| s.iter().map(|(n, xs)| (*n, xs.as_slice())).collect())
            .collect();
        many.observe_sets(&borrowed[..2]).unwrap();
        many.observe_sets(&borrowed[2..]).unwrap();
        assert_eq!(many.layer_names().collect::<Vec<_>>(), ["c", "b", "a"]);
        for name in ["a", "b", "c"] {
            assert_eq!(many.layer(name), seq.layer(name), "{name}");
        }
        let mut fresh = Calibrator::new(CalibConfig::default()).unwrap();
        fresh.observe_sets(&borrowed).unwrap();
        assert_eq!(fresh.layer_names().collect::<Vec<_>>(), ["b", "a", "c"]);
        for name in ["a", "b", "c"] {
            assert_eq!(fresh.layer(name), one.layer(name), "{name}");
        }
        let bad: Vec<Vec<(&str, &[f32])>> = vec![vec![("a", &[1.0][..]), ("b", &[f32::NAN][..])]];
        assert!(matches!(
            fresh.observe_sets(&bad),
            Err(NnieError::NotANumber { index: 0 })
        ));
    }

    #[test]
    fn weight_clips() {
        let w = [0.1f32, -0.9, 0.5];
        let c = weight_clip(&w, SnapMode::Down).unwrap();
        assert!(c.value() <= 0.9);
        let mut w2 = w;
        clip_weights(&mut w2, c);
        assert!(w2.iter().all(|x| x.abs() <= c.value_f32()));
        assert!(weight_clip(&[], SnapMode::Nearest).is_err());
        assert!(weight_clip(&[0.0], SnapMode::Nearest).is_err());
        assert!(matches!(
            weight_clip(&[f32::NAN], SnapMode::Nearest),
            Err(NnieError::NotANumber { index: 0 })
        ));
    }
}
