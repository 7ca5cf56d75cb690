//! The driver's outputs, checked before the compile starts (an output that
//! is an input, a missing folder, a directory named as a file) and stdout
//! printing that reports a full or closed stdout instead of panicking.

use crate::cli::Compile;
use onnc_io::OutputKind;
use std::path::{Path, PathBuf};

/// The input files of a compile: the model and every table it reads.
fn inputs(c: &Compile) -> Vec<&Path> {
    let mut v = vec![c.model.as_path()];
    for p in [&c.load_ctable, &c.load_calibtable, &c.mqbench]
        .into_iter()
        .flatten()
    {
        v.push(p);
    }
    v
}

fn refused(e: onnc_io::Error) -> Vec<String> {
    vec![format!("error: {e}")]
}

/// Checks the single-file outputs of `c` (None = not asked for).
pub fn check(c: &Compile, files: &[Option<&PathBuf>]) -> Result<(), Vec<String>> {
    let mut outs: Vec<(&Path, OutputKind)> = files
        .iter()
        .flatten()
        .map(|p| (p.as_path(), OutputKind::File))
        .collect();
    if let Some(d) = &c.dump_ir_after_all {
        if d.exists() && !d.is_dir() {
            return Err(vec![format!(
                "error: cannot write '{}': --dump-ir-after-all needs a directory",
                d.display()
            )]);
        }
        outs.retain(|(p, _)| !p.starts_with(d) || p == d);
    }
    onnc_io::check_inputs(&inputs(c)).map_err(|e| vec![format!("error: {e}")])?;
    onnc_io::check_outputs(&outs, &inputs(c)).map_err(refused)
}

/// Checks a directory output (MVU, NNIE).
pub fn check_dir(c: &Compile, dir: &Path) -> Result<(), Vec<String>> {
    onnc_io::check_inputs(&inputs(c)).map_err(|e| vec![format!("error: {e}")])?;
    onnc_io::check_outputs(&[(dir, OutputKind::Dir)], &inputs(c)).map_err(refused)
}

/// Prints `text` on stdout; a failed write becomes an error message.
pub fn print(text: &str) -> Result<(), Vec<String>> {
    onnc_io::stdout::print(text).map_err(|e| vec![onnc_io::stdout::describe(&e)])
}
