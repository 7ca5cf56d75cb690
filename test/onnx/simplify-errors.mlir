// onnx-simplify works on functions of onnx ops; anything else is reported at the op.
// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnx-simplify)'

func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{onnx-simplify: 'arith.addf' op has no ONNX form; only onnx dialect ops (and arith.constant tensors) export}}
  %y = arith.addf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnx-simplify{fold-limit=-1})' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: option 'fold-limit' expects an integer in [0, 9223372036854775807], got '-1'
func.func @f() {
  return
}

// -----

// A kernel_shape that contradicts the weight's shape once the weight's shape
// is known (found by the mlir fuzz target: onnx-simplify used to succeed and
// leave a conv that did not verify).
// expected-error @+1 {{attribute 'kernel_shape': [3, 3] does not match W's spatial dims [35, 3]}}
func.func @main_graph(%arg0: tensor<1x3x8x8xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "onnx.constant"() {value = dense<[4, 3, 35, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %1 = "onnx.constant_of_shape"(%0) {value = dense<3.000000e-02> : tensor<1xf32>} : (tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %2 = "onnx.conv"(%arg0, %1) {auto_pad = "NOTSET", dilations = array<i64: 2, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %2 : tensor<?x?x?x?xf32>
}
