// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-onnx-to-mvu)'

// BARVINN runs plain chains: a residual join is refused at the join, naming both paths.
func.func @main_graph(%x: tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
  %w = "onnx.constant"() {value = dense<1.0> : tensor<64x64x3x3xf32>} : () -> tensor<64x64x3x3xf32>
  %c = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x64x8x8xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x8x8xf32>
  // expected-error @+1 {{joins two paths}}
  %y = "onnx.add"(%c, %x) : (tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  return %y : tensor<1x64x8x8xf32>
}

// -----

// An op the MVU has no job for is refused at its location.
func.func @main_graph(%x: tensor<1x64x8x8xf32>) -> tensor<1x64x4x4xf32> {
  %w = "onnx.constant"() {value = dense<1.0> : tensor<64x64x3x3xf32>} : () -> tensor<64x64x3x3xf32>
  %c = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x64x8x8xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x8x8xf32>
  // expected-error @+1 {{MaxPool}}
  %y = "onnx.max_pool"(%c) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x8x8xf32>) -> tensor<1x64x4x4xf32>
  return %y : tensor<1x64x4x4xf32>
}
