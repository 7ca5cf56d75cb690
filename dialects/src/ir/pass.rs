//! Passes: registering ours under textual names, and running pipelines.
//!
//! [`register_pass`] hands a [`PassRegistration`] to MLIR's global pass
//! registry through the C++ shim, so `builtin.module(func.func(onnc-dce))`
//! parses like any upstream pipeline. When MLIR parses that element it calls
//! back into [`build_pass`], which checks the anchor, parses the options and
//! adds an external pass wrapping the [`PassBody`].
//!
//! [`PipelineRunner`] parses a pipeline string onto a `builtin.module` pass
//! manager with mlir-opt's instrumentation flags and runs it.

use crate::pass_api::{parse_options, PassBody, PassRegistration};
use melior::{
    ir::{operation::OperationLike, r#type::TypeId, Module, OperationRef},
    pass::{create_external, ExternalPass, RunExternalPass},
    Context, ContextRef, StringRef,
};
use mlir_sys::*;
use std::{
    ffi::c_void,
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{Arc, Mutex, Once},
};

type ErrorSink = unsafe extern "C" fn(MlirStringRef, *mut c_void);
type Builder = unsafe extern "C" fn(
    *mut c_void,
    MlirOpPassManager,
    MlirStringRef,
    MlirStringRef,
    ErrorSink,
    *mut c_void,
) -> bool;

extern "C" {
    fn onncRegisterPass(
        argument: MlirStringRef,
        description: MlirStringRef,
        builder: Builder,
        user_data: *mut c_void,
    );
}

static REGISTERED: Mutex<Vec<&'static PassRegistration>> = Mutex::new(Vec::new());
static UPSTREAM: Once = Once::new();

/// Registers MLIR's own passes (once per process) and then `pass` (once per
/// flag; registering the same flag again is a no-op).
pub fn register_pass(pass: &'static PassRegistration) {
    UPSTREAM.call_once(melior::utility::register_all_passes);
    let Ok(mut done) = REGISTERED.lock() else {
        return;
    };
    if done.iter().any(|p| p.flag == pass.flag) {
        return;
    }
    done.push(pass);
    // SAFETY: `pass` is 'static, so the strings and the user-data pointer
    // stay valid for as long as MLIR's registry can use them.
    unsafe {
        onncRegisterPass(
            StringRef::new(pass.flag).to_raw(),
            StringRef::new(pass.summary).to_raw(),
            build_pass,
            pass as *const PassRegistration as *mut c_void,
        );
    }
}

/// The passes registered so far, in registration order.
pub fn registered_passes() -> Vec<&'static PassRegistration> {
    REGISTERED.lock().map(|v| v.clone()).unwrap_or_default()
}

fn string_of(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR passes a valid (data, length) pair for the duration of the call.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Called by MLIR (through the shim) when a pipeline names one of our passes.
unsafe extern "C" fn build_pass(
    user_data: *mut c_void,
    pm: MlirOpPassManager,
    anchor: MlirStringRef,
    options: MlirStringRef,
    on_error: ErrorSink,
    error_data: *mut c_void,
) -> bool {
    // SAFETY: `user_data` is the `&'static PassRegistration` given at registration.
    let reg: &'static PassRegistration = unsafe { &*(user_data as *const PassRegistration) };
    let report = |message: String| {
        let m = StringRef::new(&message);
        // SAFETY: the shim's error sink is valid for the duration of this call.
        unsafe { on_error(m.to_raw(), error_data) };
        false
    };
    let anchor = string_of(anchor);
    if !reg.anchor.is_empty() && anchor != "any" && anchor != reg.anchor {
        return report(format!(
            "pass '{}' runs on '{}' ops but is scheduled on '{anchor}'; nest it, e.g. {anchor}({}({}))",
            reg.flag, reg.anchor, reg.anchor, reg.flag
        ));
    }
    let parsed = match parse_options(reg.flag, reg.options, &string_of(options)) {
        Ok(o) => o,
        Err(e) => return report(e),
    };
    let body: Arc<dyn PassBody> = match catch_unwind(|| (reg.factory)(&parsed)) {
        Ok(Ok(b)) => Arc::from(b),
        Ok(Err(e)) => return report(format!("pass '{}': {e}", reg.flag)),
        Err(_) => {
            return report(format!(
                "pass '{}': internal error while creating the pass (a bug)",
                reg.flag
            ))
        }
    };
    let pass = create_external(
        Instance { reg, body },
        TypeId::create(reg),
        reg.flag,
        reg.flag,
        reg.summary,
        reg.anchor,
        &[],
    );
    // SAFETY: the pass manager is the one MLIR is filling; it takes ownership.
    unsafe { mlirOpPassManagerAddOwnedPass(pm, pass.to_raw()) };
    true
}

/// One scheduled instance of a pass of ours, as MLIR's external pass sees it.
#[derive(Clone)]
struct Instance {
    reg: &'static PassRegistration,
    body: Arc<dyn PassBody>,
}

impl<'c> RunExternalPass<'c> for Instance {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, op: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        // A panic must not unwind into C++: report it as an internal error.
        let result = catch_unwind(AssertUnwindSafe(|| self.body.run(op)));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(_)) => pass.signal_failure(),
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                super::emit_error(
                    op.location(),
                    &format!("internal error in pass '{}' (a bug): {why}", self.reg.flag),
                );
                pass.signal_failure();
            }
        }
    }
}

/// mlir-opt's pass-manager instrumentation flags.
#[derive(Debug, Clone, Default)]
pub struct PipelineOptions {
    /// `--mlir-print-ir-before-all`.
    pub print_before_all: bool,
    /// `--mlir-print-ir-after-all`.
    pub print_after_all: bool,
    /// `--mlir-print-ir-after-change`.
    pub print_after_change: bool,
    /// `--mlir-print-ir-after-failure`.
    pub print_after_failure: bool,
    /// `--mlir-print-ir-module-scope`.
    pub print_module_scope: bool,
    /// `--mlir-print-ir-tree-dir=DIR`: dumps go to files under DIR instead of stderr.
    pub print_tree_dir: Option<String>,
    /// `--mlir-timing`: a timing report on stderr when the pipeline ends.
    pub timing: bool,
    /// `--mlir-pass-statistics`.
    pub statistics: bool,
    /// Run the verifier after each pass (`--verify-each`, on by default in mlir-opt).
    pub verify_each: bool,
    /// Printing flags of the IR dumps.
    pub print: super::PrintOptions,
}

/// A parsed pipeline on a `builtin.module` pass manager.
pub struct PipelineRunner<'c> {
    raw: MlirPassManager,
    _context: std::marker::PhantomData<&'c Context>,
}

unsafe extern "C" fn collect(s: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `String` passed by `PipelineRunner::new`.
    let out = unsafe { &mut *(data as *mut String) };
    out.push_str(&string_of(s));
}

impl<'c> PipelineRunner<'c> {
    /// Parses `pipeline` (e.g. `builtin.module(canonicalize,func.func(onnc-dce))`;
    /// empty means no passes). Errors carry MLIR's message, which points into
    /// the pipeline string.
    pub fn new(
        context: &'c Context,
        pipeline: &str,
        options: &PipelineOptions,
    ) -> Result<Self, String> {
        UPSTREAM.call_once(melior::utility::register_all_passes);
        let anchor = StringRef::new("builtin.module");
        // SAFETY: the context outlives the runner (lifetime 'c).
        let raw = unsafe { mlirPassManagerCreateOnOperation(context.to_raw(), anchor.to_raw()) };
        let runner = PipelineRunner {
            raw,
            _context: std::marker::PhantomData,
        };
        // SAFETY: `raw` is a live pass manager for every call below.
        unsafe {
            mlirPassManagerEnableVerifier(raw, options.verify_each);
            if !pipeline.trim().is_empty() {
                let mut message = String::new();
                let text = StringRef::new(pipeline);
                let ok = mlirParsePassPipeline(
                    mlirPassManagerGetAsOpPassManager(raw),
                    text.to_raw(),
                    Some(collect),
                    &mut message as *mut String as *mut c_void,
                );
                if ok.value == 0 {
                    let message = message.trim_end().to_string();
                    return Err(if message.is_empty() {
                        format!("invalid pass pipeline '{pipeline}'")
                    } else {
                        message
                    });
                }
            }
            let o = options;
            if o.print_before_all
                || o.print_after_all
                || o.print_after_change
                || o.print_after_failure
            {
                let flags = mlirOpPrintingFlagsCreate();
                if o.print.generic {
                    mlirOpPrintingFlagsPrintGenericOpForm(flags);
                }
                if o.print.debug_info {
                    mlirOpPrintingFlagsEnableDebugInfo(flags, true, o.print.pretty_debug_info);
                }
                if let Some(n) = o.print.elide_elements_larger_than {
                    mlirOpPrintingFlagsElideLargeElementsAttrs(flags, n as isize);
                }
                if let Some(n) = o.print.elide_resources_larger_than {
                    mlirOpPrintingFlagsElideLargeResourceString(flags, n as isize);
                }
                let dir = o.print_tree_dir.clone().unwrap_or_default();
                mlirPassManagerEnableIRPrinting(
                    raw,
                    o.print_before_all,
                    o.print_after_all || o.print_after_change || o.print_after_failure,
                    o.print_module_scope,
                    o.print_after_change,
                    o.print_after_failure,
                    flags,
                    StringRef::new(&dir).to_raw(),
                );
                mlirOpPrintingFlagsDestroy(flags);
            }
            if o.timing {
                mlirPassManagerEnableTiming(raw);
            }
            if o.statistics {
                mlirPassManagerEnableStatistics(
                    raw,
                    MlirPassDisplayMode_MLIR_PASS_DISPLAY_MODE_PIPELINE,
                );
            }
        }
        Ok(runner)
    }

    /// The pipeline as MLIR prints it (our passes appear without options).
    pub fn pipeline_text(&self) -> String {
        let mut s = String::new();
        // SAFETY: `raw` is live.
        unsafe {
            mlirPrintPassPipeline(
                mlirPassManagerGetAsOpPassManager(self.raw),
                Some(collect),
                &mut s as *mut String as *mut c_void,
            );
        }
        s
    }

    /// Runs the pipeline on `module`. `false` means a pass failed; the
    /// reasons are in the context's diagnostics.
    pub fn run(&self, module: &mut Module<'c>) -> bool {
        // SAFETY: both are live; the module belongs to this runner's context.
        unsafe { mlirPassManagerRunOnOp(self.raw, module.as_operation().to_raw()).value != 0 }
    }
}

impl Drop for PipelineRunner<'_> {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once. Prints the timing report if enabled.
        unsafe { mlirPassManagerDestroy(self.raw) }
    }
}
