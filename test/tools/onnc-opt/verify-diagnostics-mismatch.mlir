// --verify-diagnostics fails (and says why) when an expectation is not met.
// RUN: not onnc-opt %s --verify-diagnostics 2>&1 | FileCheck %s
// CHECK-DAG: error: unexpected error: op expects exactly 1 operands, but got 0
// CHECK-DAG: error: expected error "no such message" was not produced (expected on line 10)
func.func @f() -> tensor<4xf32> {
  %a = "onnx.relu"() : () -> tensor<4xf32>
  return %a : tensor<4xf32>
}
// expected-error @+1 {{no such message}}
