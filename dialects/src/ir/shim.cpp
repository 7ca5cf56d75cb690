//===- shim.cpp - register Rust passes in MLIR's pass registry ------------===//
//
// The MLIR C API cannot register a pass under a textual name, so a pipeline
// string such as `builtin.module(func.func(onnx-dce{keep-dead=false}))` could
// not name a Rust pass. This file is the whole C++ side of onnc: one function
// that registers a named pass *pipeline* whose builder calls back into Rust.
// Rust parses the raw option string, creates the external pass, and adds it to
// the given OpPassManager. Errors go to MLIR's pipeline-parser error handler,
// so they are reported with the position in the pipeline string.
//
// In:  a pass argument, its description, a Rust callback and its user data.
// Out: `mlir::registerPassPipeline` entry; nothing else is touched.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace {
using ErrorHandler = llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>;

/// Forwards one error message from Rust to MLIR's pipeline error handler.
void forwardError(MlirStringRef message, void *handler) {
  auto *h = static_cast<ErrorHandler *>(handler);
  (void)(*h)(llvm::Twine(llvm::StringRef(message.data, message.length)));
}
} // namespace

extern "C" {

/// Called by MLIR while it parses a pipeline that names the pass. `anchor` is
/// the operation name of `pm` ("any" for an op-agnostic manager). Returns
/// false after reporting through `onError(message, errorData)`.
typedef bool (*OnncPassBuilder)(void *userData, MlirOpPassManager pm,
                                MlirStringRef anchor, MlirStringRef options,
                                void (*onError)(MlirStringRef, void *),
                                void *errorData);

/// Registers `argument` (kept alive by the caller for the whole process).
void onncRegisterPass(MlirStringRef argument, MlirStringRef description,
                      OnncPassBuilder builder, void *userData) {
  mlir::registerPassPipeline(
      unwrap(argument), unwrap(description),
      [builder, userData](mlir::OpPassManager &pm, llvm::StringRef options,
                          ErrorHandler errorHandler) -> mlir::LogicalResult {
        llvm::StringRef anchor = pm.getOpAnchorName();
        bool ok = builder(userData, wrap(&pm), wrap(anchor), wrap(options),
                          forwardError, &errorHandler);
        return mlir::success(ok);
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {});
}

} // extern "C"

extern "C" {
/// Parses `source` as mlir-opt does: a top-level `builtin.module` is used as
/// is, any other top-level ops are wrapped in an implicit module. Locations
/// name `sourceName`. Returns a null operation on failure (diagnostics went to
/// the context's handlers).
MlirOperation onncParseModule(MlirContext context, MlirStringRef source,
                              MlirStringRef sourceName) {
  mlir::ParserConfig config(unwrap(context));
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      unwrap(source), config, unwrap(sourceName));
  if (!module)
    return MlirOperation{nullptr};
  return wrap(module.release().getOperation());
}
} // extern "C"

extern "C" {
/// Emits a diagnostic of `severity` (0 error, 1 warning, 2 remark) at `loc`;
/// the C API only offers errors.
void onncEmitDiagnostic(MlirLocation loc, int severity, MlirStringRef message) {
  llvm::StringRef text(message.data, message.length);
  switch (severity) {
  case 1:
    mlir::emitWarning(unwrap(loc), text);
    break;
  case 2:
    mlir::emitRemark(unwrap(loc), text);
    break;
  default:
    mlir::emitError(unwrap(loc), text);
    break;
  }
}
} // extern "C"

extern "C" {
/// The bytes behind a `dense_resource` attribute, without copying. Returns
/// false when `attr` is not a dense resource or its blob is missing (e.g. the
/// text elided it).
bool onncDenseResourceBytes(MlirAttribute attr, const void **data, size_t *size) {
  auto resource = llvm::dyn_cast<mlir::DenseResourceElementsAttr>(unwrap(attr));
  if (!resource)
    return false;
  mlir::AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return false;
  llvm::ArrayRef<char> bytes = blob->getData();
  *data = bytes.data();
  *size = bytes.size();
  return true;
}
} // extern "C"

extern "C" {
/// Whether diagnostics on an operation get a "see current operation" note
/// (mlir-opt turns it off under --verify-diagnostics).
void onncContextSetPrintOpOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printOpOnDiagnostic(enable);
}

/// Whether diagnostics carry the stack trace of where they were emitted.
void onncContextSetPrintStackTraceOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printStackTraceOnDiagnostic(enable);
}
} // extern "C"
