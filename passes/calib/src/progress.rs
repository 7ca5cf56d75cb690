//! The progress bar of a long pass over calibration sets (or any counted
//! work): drawn on stderr only when it is wanted **and** stderr is a
//! terminal, hidden otherwise (pipes, CI logs and tests stay clean).
//!
//! In: the number of steps, a label, the unit, whether the caller wants
//! progress (`onnc compile --progress`/`-q` decide). Out: an indicatif
//! [`ProgressBar`] — `label [bar] pos/len unit  elapsed (eta …) message`
//! (the message, e.g. the op kind of the current layer, set with
//! `set_message`) — to `inc` from any thread and `finish_and_clear` at
//! the end. Shared by the
//! NVDLA calibrator ([`crate::collect`]), the NNIE frontend, `onnc-run`'s
//! simulation (per layer) and NVDLA weight packing, so every
//! target shows the same bar under the same rule.
//!
//! ```
//! let bar = onnc_calib::progress_bar(24, "calibrating", "sets", true);
//! bar.inc(1); // hidden here: a test's stderr is not a terminal
//! assert!(bar.is_hidden());
//! bar.finish_and_clear();
//! ```

use std::io::IsTerminal;

pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps labelled `label`, counting `unit`; hidden unless
/// `wanted` and stderr is a terminal (see the module doc).
pub fn progress_bar(len: usize, label: &str, unit: &str, wanted: bool) -> ProgressBar {
    if !(wanted && std::io::stderr().is_terminal()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    // Braces in the label or unit would be template syntax: drop them.
    let plain = |s: &str| s.replace(['{', '}'], "");
    let template = format!(
        "{} {{bar:30}} {{pos}}/{{len}} {}  {{elapsed_precise}} (eta {{eta}}) {{msg}}",
        plain(label),
        plain(unit)
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
