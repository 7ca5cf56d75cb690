// Chunks are processed independently and joined by the marker; line numbers stay absolute.
// RUN: onnc-opt %s --split-input-file | FileCheck %s
// RUN: not onnc-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// CHECK: func.func @first
// CHECK: // -----
// CHECK: func.func @first
// WHOLE: split-input-file.mlir:12:{{[0-9]+}}: error: redefinition of symbol named 'first'
func.func @first() {
  return
}
// -----
func.func @first() {
  return
}
