// Invalid IR: errors carry file:line:col, the exit status is 1, and -o is not written.
// RUN: not onnc-opt %s -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out
// CHECK: invalid-ir.mlir:9:8: error: op expects exactly 1 operands, but got 0
// CHECK-NEXT: invalid-ir.mlir:9:8: note: see current operation: {{.*}}"onnx.relu"()
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // An unknown attribute is fine (discardable); a missing operand is not.
  %a = "onnx.relu"(%x) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
  %b = "onnx.relu"() : () -> tensor<4xf32>
  return %a : tensor<4xf32>
}
