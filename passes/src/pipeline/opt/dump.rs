//! mlir-opt's instrumentation for in-memory passes: IR dumps before/after
//! each pass in MLIR's exact format, the tree of dump files, and the timing
//! report.
//!
//! In: the flags (`ir::PipelineOptions`) and, per pass, its flag and the
//! MLIR module as it stands (the caller writes the in-memory functions back
//! before asking for a dump). Out: on stderr (or under
//! `--mlir-print-ir-tree-dir`) what MLIR's `IRPrinterInstrumentation` prints
//! for a pass anchored on `builtin.module`:
//!
//! ```text
//! // -----// IR Dump After onnx-simplify (onnx-simplify) //----- //
//! module {
//! ...
//! ```
//!
//! MLIR runs between in-memory runs get their own tree directory, whose
//! files are moved into the real tree renumbered, so the numbering is one
//! sequence over the whole pipeline as with one pass manager.

use melior::ir::{operation::OperationLike, OperationRef};
use onnc_dialects::ir::{self, PipelineOptions, PrintOptions};
use std::{
    collections::HashMap,
    io::Write,
    path::{Path, PathBuf},
    time::Duration,
};

/// The dump state of one `onnc-opt` pipeline run.
pub struct Dumper {
    options: PipelineOptions,
    /// Per directory of the tree (relative to its root), the next file number.
    counters: HashMap<PathBuf, usize>,
    /// Scratch trees handed to MLIR runs so far.
    scratch: usize,
}

/// The directory MLIR names after an op: `builtin_module_no-symbol-name`.
fn op_dir(op: &OperationRef) -> String {
    let name = op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap_or("op")
        .replace('.', "_");
    let symbol = op
        .attribute("sym_name")
        .ok()
        .and_then(ir::str_attr)
        .unwrap_or_else(|| "no-symbol-name".to_string());
    format!("{name}_{symbol}")
}

impl Dumper {
    /// The dumper for `options`.
    pub fn new(options: &PipelineOptions) -> Dumper {
        Dumper {
            options: options.clone(),
            counters: HashMap::new(),
            scratch: 0,
        }
    }

    /// Whether the IR is printed before each pass.
    pub fn before_all(&self) -> bool {
        self.options.print_before_all
    }

    /// Whether any "after" dump is asked for (MLIR's `printAfter`).
    fn print_after(&self) -> bool {
        let o = &self.options;
        o.print_after_all || o.print_after_change || o.print_after_failure
    }

    /// Whether the IR is printed after every pass that succeeded.
    pub fn after_all(&self) -> bool {
        self.print_after() && !self.options.print_after_failure && !self.options.print_after_change
    }

    /// Whether the IR is printed after a pass that succeeded and changed it.
    pub fn after_change(&self) -> bool {
        self.print_after() && !self.options.print_after_failure && self.options.print_after_change
    }

    /// Whether the IR is printed after a pass that failed (as MLIR does with
    /// any of the "after" flags).
    pub fn after_failure(&self) -> bool {
        self.print_after()
    }

    fn print_options(&self) -> PrintOptions {
        PrintOptions {
            local_scope: false,
            assume_verified: false,
            ..self.options.print.clone()
        }
    }

    /// The module as a dump prints it (for `--mlir-print-ir-after-change`).
    pub fn text(&self, module: &OperationRef) -> String {
        ir::print_op(module, &self.print_options())
    }

    /// One dump: `when` is `Before`, `After` or `After ... Failed`.
    fn dump(&mut self, when: &str, failed: bool, flag: &str, module: &OperationRef) {
        let mut s = format!("// -----// IR Dump {when} {flag}");
        if failed {
            s.push_str(" Failed");
        }
        s.push_str(&format!(" ({flag})"));
        if self.options.print_module_scope {
            s.push_str(" ('builtin.module' operation");
            if let Some(sym) = module.attribute("sym_name").ok().and_then(ir::str_attr) {
                s.push_str(&format!(": @{sym}"));
            }
            s.push(')');
        }
        s.push_str(" //----- //\n");
        s.push_str(&self.text(module));
        s.push_str("\n\n");
        match self.options.print_tree_dir.clone() {
            None => {
                let _ = std::io::stderr().write_all(s.as_bytes());
            }
            Some(root) => {
                let dir = PathBuf::from(op_dir(module));
                let n = self.counters.entry(dir.clone()).or_insert(0);
                let path = Path::new(&root).join(&dir).join(format!("{n}_{flag}.mlir"));
                *n += 1;
                let written = std::fs::create_dir_all(path.parent().unwrap_or(Path::new(&root)))
                    .and_then(|_| std::fs::write(&path, s.as_bytes()));
                if let Err(e) = written {
                    onnc_io::stderr::line(&format!(
                        "onnc-opt: warning: cannot write IR dump '{}': {e}",
                        path.display()
                    ));
                }
            }
        }
    }

    /// The dump before `flag` runs.
    pub fn before(&mut self, flag: &str, module: &OperationRef) {
        self.dump("Before", false, flag, module);
    }

    /// The dump after `flag` succeeded.
    pub fn after(&mut self, flag: &str, module: &OperationRef) {
        self.dump("After", false, flag, module);
    }

    /// The dump after `flag` failed (the IR as it was before the pass).
    pub fn failed(&mut self, flag: &str, module: &OperationRef) {
        if self.after_failure() {
            self.dump("After", true, flag, module);
        }
    }

    /// The options for an MLIR run: its tree dumps go to a scratch
    /// directory, moved in by [`Dumper::collect`].
    pub fn mlir_options(&mut self) -> PipelineOptions {
        let mut o = self.options.clone();
        if let Some(root) = &self.options.print_tree_dir {
            self.scratch += 1;
            o.print_tree_dir = Some(self.scratch_dir(root).display().to_string());
        }
        o
    }

    fn scratch_dir(&self, root: &str) -> PathBuf {
        Path::new(root).join(format!(".onnc-opt-mlir-run-{}", self.scratch))
    }

    /// Moves the last MLIR run's dump files into the tree, renumbered as one
    /// pass manager would have numbered them. MLIR names a dump
    /// `<c1>_<c2>_..._<pass>.mlir` under one directory per op on its path,
    /// `c1` being the module's dump index (for a nested op: the module's last
    /// index, 0 if none) and the last `c` the op's own; only the module's
    /// index runs on across runs (in-memory passes dump only the module, and
    /// writing functions back makes new function ops, as rebuilding did).
    pub fn collect(&mut self) {
        let Some(root) = self.options.print_tree_dir.clone() else {
            return;
        };
        let scratch = self.scratch_dir(&root);
        let mut files = Vec::new();
        let mut dirs = vec![scratch.clone()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if let Ok(rel) = p.strip_prefix(&scratch) {
                    let when = e.metadata().and_then(|m| m.modified()).ok();
                    files.push((rel.to_path_buf(), when));
                }
            }
        }
        let split = |p: &Path| -> Option<(PathBuf, usize, String)> {
            let top = PathBuf::from(p.components().next()?.as_os_str());
            let (n, rest) = p.file_name()?.to_str()?.split_once('_')?;
            Some((top, n.parse().ok()?, rest.to_string()))
        };
        let module_level = |p: &Path| p.components().count() == 2;
        // Per module directory, the indices its own dumps got in the run
        // (from 0, or from 1 when a nested dump read the index first).
        let mut own: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for (rel, _) in &files {
            if let (true, Some((top, n, _))) = (module_level(rel), split(rel)) {
                own.entry(top).or_default().push(n);
            }
        }
        own.values_mut().for_each(|v| v.sort_unstable());
        let rank = |top: &PathBuf, n: usize| {
            own.get(top)
                .map_or(0, |v| v.iter().filter(|&&m| m < n).count())
        };
        for (rel, when) in &files {
            let Some((top, n, rest)) = split(rel) else {
                continue;
            };
            let base = self.counters.get(&top).copied().unwrap_or(0);
            let module_dumped_before = module_level(rel)
                || files
                    .iter()
                    .any(|(other, w)| module_level(other) && other.starts_with(&top) && w <= when);
            let first = if module_dumped_before {
                base + rank(&top, n)
            } else {
                base.saturating_sub(1)
            };
            let to = Path::new(&root)
                .join(rel.parent().unwrap_or(Path::new("")))
                .join(format!("{first}_{rest}"));
            let moved = std::fs::create_dir_all(to.parent().unwrap_or(Path::new(&root)))
                .and_then(|_| std::fs::rename(scratch.join(rel), &to));
            if let Err(e) = moved {
                onnc_io::stderr::line(&format!(
                    "onnc-opt: warning: cannot move IR dump to '{}': {e}",
                    to.display()
                ));
            }
        }
        for (top, v) in own {
            *self.counters.entry(top).or_insert(0) += v.len();
        }
        let _ = std::fs::remove_dir_all(&scratch);
    }
}

/// `--mlir-timing` for an in-memory run, in MLIR's report format: each
/// pass, and the conversions between MLIR and memory.
#[derive(Default)]
pub struct Timing {
    rows: Vec<(String, Duration)>,
}

impl Timing {
    /// Records `what` as taking `d`.
    pub fn add(&mut self, what: &str, d: Duration) {
        self.rows.push((what.to_string(), d));
    }

    /// The report (empty when nothing was recorded).
    pub fn report(&self) -> String {
        if self.rows.is_empty() {
            return String::new();
        }
        let total: f64 = self.rows.iter().map(|(_, d)| d.as_secs_f64()).sum();
        let rule =
            "===-------------------------------------------------------------------------===";
        let mut s = format!(
            "{rule}\n                         ... Execution time report ...\n{rule}\n  Total Execution Time: {total:.4} seconds\n\n  ----Wall Time----  ----Name----\n"
        );
        let pct = |t: f64| if total > 0.0 { 100.0 * t / total } else { 0.0 };
        for (what, d) in &self.rows {
            let t = d.as_secs_f64();
            s.push_str(&format!("  {t:>8.4} ({:>5.1}%)  {what}\n", pct(t)));
        }
        s.push_str(&format!("  {total:>8.4} ({:>5.1}%)  Total\n", 100.0));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flag combinations as MLIR's IR printer reads them: any "after"
    /// flag dumps a failed pass; `after-failure` silences the others;
    /// `after-change` narrows `after-all`.
    #[test]
    fn after_flags_combine_as_in_mlir() {
        let d = |all, change, failure| {
            let d = Dumper::new(&PipelineOptions {
                print_after_all: all,
                print_after_change: change,
                print_after_failure: failure,
                ..Default::default()
            });
            (d.after_all(), d.after_change(), d.after_failure())
        };
        assert_eq!(d(false, false, false), (false, false, false));
        assert_eq!(d(true, false, false), (true, false, true));
        assert_eq!(d(false, true, false), (false, true, true));
        assert_eq!(d(true, true, false), (false, true, true));
        assert_eq!(d(true, false, true), (false, false, true));
        assert_eq!(d(false, false, true), (false, false, true));
    }

    #[test]
    fn timing_report_has_mlirs_shape() {
        let mut t = Timing::default();
        t.add("onnx-simplify", Duration::from_millis(30));
        t.add("(MLIR to memory)", Duration::from_millis(10));
        let r = t.report();
        assert!(r.contains("... Execution time report ..."), "{r}");
        assert!(r.contains("    0.0300 ( 75.0%)  onnx-simplify\n"), "{r}");
        assert!(r.ends_with("    0.0400 (100.0%)  Total\n"), "{r}");
        assert!(Timing::default().report().is_empty());
    }
}
