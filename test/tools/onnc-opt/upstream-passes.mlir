// Our passes and upstream ones mix in one textual pipeline, with options on both.
// RUN: onnc-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=3},func.func(onnc-dce{dialects=onnx}),cse,symbol-dce)' | FileCheck %s

// symbol-dce removes the unused private function; cse merges the constants;
// onnc-dce removes the dead relu that canonicalize cannot touch (IRDL ops have no traits).
// CHECK-NOT: func.func private @unused
// CHECK-LABEL: func.func @main
// CHECK-COUNT-1: arith.constant
// CHECK-NOT: arith.constant
// CHECK: "onnx.add"
// CHECK-NOT: "onnx.relu"
// CHECK: return
func.func private @unused() {
  return
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant dense<1.0> : tensor<4xf32>
  %c1 = arith.constant dense<1.0> : tensor<4xf32>
  %d = "onnx.relu"(%c1) : (tensor<4xf32>) -> tensor<4xf32>
  %s = "onnx.add"(%x, %c0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = "onnx.add"(%s, %c1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}
