// RUN: onnc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnc-dce))' | FileCheck %s
// RUN: onnc-opt %s --split-input-file --pass-pipeline='builtin.module(onnc-dce)' | FileCheck %s
// RUN: onnc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnc-dce{dialects=nvdla}))' | FileCheck %s --check-prefix=NVDLA-ONLY

// A dead chain goes in one sweep; live ops stay.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT: %[[A:.*]] = "onnx.relu"(%arg0)
// CHECK-NEXT: return %[[A]]
// NVDLA-ONLY-LABEL: func.func @dead_chain
// NVDLA-ONLY: "onnx.sigmoid"
// NVDLA-ONLY: "onnx.tanh"
func.func @dead_chain(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %a = "onnx.relu"(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %b = "onnx.sigmoid"(%a) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %c = "onnx.tanh"(%b) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %a : tensor<1x4xf32>
}

// -----

// Upstream ops are not ours to judge; nothing used is removed.
// CHECK-LABEL: func.func @keeps_used_and_foreign
// CHECK: arith.constant
// CHECK: "onnx.add"
// CHECK-NOT: "onnx.neg"
// CHECK: return
func.func @keeps_used_and_foreign(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = arith.constant dense<1.0> : tensor<4xf32>
  %s = "onnx.add"(%x, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = "onnx.neg"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Hardware-dialect ops are side-effect free too.
// CHECK-LABEL: func.func @dead_constant
// CHECK-NOT: onnx.constant
// CHECK: return %arg0
func.func @dead_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = "onnx.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %x : tensor<2xf32>
}
