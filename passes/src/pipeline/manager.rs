//! [`Manager`]: runs passes over a module, in order, with a hook after each.
//!
//! In: the passes, a module, a diagnostics sink and a hook called after
//! each pass that succeeded (progress lines, IR dumps). Out: the module as
//! the last pass left it, or `Err` after the first pass that failed (its
//! reasons in the diagnostics). Each pass runs inside a `tracing` span
//! named after it.

use super::{Diags, Module, Pass};
use onnc_dialects::pass_api::PassFailed;

/// A pass and the name it is reported under.
pub struct Step {
    /// The flag (`onnx-simplify`).
    pub name: String,
    /// The instance.
    pub pass: Box<dyn Pass>,
}

/// Runs a list of passes.
#[derive(Default)]
pub struct Manager {
    steps: Vec<Step>,
}

impl Manager {
    /// An empty manager.
    pub fn new() -> Manager {
        Manager::default()
    }

    /// Appends the passes of pipeline text `pipeline` (see [`super::parse`]),
    /// reported under `name`.
    pub fn add(&mut self, name: &str, pipeline: &str) -> Result<&mut Self, String> {
        for pass in super::parse(pipeline)? {
            self.steps.push(Step {
                name: name.to_string(),
                pass,
            });
        }
        Ok(self)
    }

    /// The number of passes.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether there is no pass.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Runs every pass; `after(name, module)` follows each one that
    /// succeeded and may stop the run with its own messages.
    pub fn run(
        &self,
        module: &mut Module,
        diags: &mut Diags,
        mut after: impl FnMut(&str, &Module, &mut Diags) -> Result<(), PassFailed>,
    ) -> Result<(), PassFailed> {
        for step in &self.steps {
            let _span = tracing::info_span!("pass", name = %step.name).entered();
            step.pass.run(module, diags)?;
            if diags.has_errors() {
                return Err(PassFailed);
            }
            after(&step.name, module, diags)?;
        }
        Ok(())
    }
}
