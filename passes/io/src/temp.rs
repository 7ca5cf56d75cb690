//! Temporary siblings of an output and the sweep of stale ones.
//!
//! A temporary for `dir/name` is `dir/.name.onnc-tmp-<pid>-<n>`: the pid
//! tells a later run whether its writer is still alive. [`sweep_stale`]
//! removes the temporaries of `name` whose process is gone (killed with
//! SIGKILL mid-write, power loss), so nothing accumulates.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The marker between an output's name and the writer's pid.
pub const TMP_MARK: &str = ".onnc-tmp-";

/// The folder holding `path` (`.` for a bare name).
pub fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file name of `path`, or `out` when it has none.
pub fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "out".to_string(), |n| n.to_string_lossy().into_owned())
}

/// A fresh temporary path beside `path` for this process.
pub fn fresh(path: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    parent_of(path).join(format!(
        ".{}{TMP_MARK}{}-{n}",
        name_of(path),
        std::process::id()
    ))
}

/// Whether process `pid` exists (Linux: `/proc/<pid>`; elsewhere assumed alive).
fn alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Removes the temporaries of `path` left by processes that no longer run.
/// Errors are ignored: sweeping is housekeeping, never a reason to fail.
pub fn sweep_stale(path: &Path) {
    let prefix = format!(".{}{TMP_MARK}", name_of(path));
    let Ok(entries) = std::fs::read_dir(parent_of(path)) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid == std::process::id() || alive(pid) {
            continue;
        }
        let p = e.path();
        let _ = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
    }
}
