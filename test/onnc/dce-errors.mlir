// Bad options are refused before anything runs, with the option named.
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnc-dce{dialects=tosa})' 2>&1 | FileCheck %s --check-prefix=DIALECT
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnc-dce{dialect=onnx})' 2>&1 | FileCheck %s --check-prefix=TYPO
// DIALECT: 'tosa' is not one of onnc's dialects (onnx, nvdla, nnie, mvu)
// TYPO: pass 'onnc-dce' has no option 'dialect'; did you mean 'dialects'?
func.func @f() {
  return
}
