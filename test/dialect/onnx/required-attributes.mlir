// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Every declared attribute of every onnx op is required: one chunk per attribute, each
// the op's documented example (from dialects/onnx.irdl.mlir) with that one attribute
// removed. When an op gains or loses an attribute, add or remove its chunk here.

func.func @constant_without_value() {
  // expected-error @+1 {{'onnx.constant' op attribute "value" is expected but not provided}}
  %w = "onnx.constant"() : () -> tensor<64x3x7x7xf32>
  return
}

// -----

func.func @constant_of_shape_without_value(%s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.constant_of_shape' op attribute "value" is expected but not provided}}
  %y = "onnx.constant_of_shape"(%s) : (tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @custom_without_op_type(%x: tensor<1x8xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'onnx.custom' op attribute "op_type" is expected but not provided}}
  %y = "onnx.custom"(%x, %w) {domain = "com.microsoft", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @custom_without_domain(%x: tensor<1x8xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'onnx.custom' op attribute "domain" is expected but not provided}}
  %y = "onnx.custom"(%x, %w) {op_type = "FusedMatMul", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @conv_without_auto_pad(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "auto_pad" is expected but not provided}}
  %y = "onnx.conv"(%x, %w, %b) {dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_dilations(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "dilations" is expected but not provided}}
  %y = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_group(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "group" is expected but not provided}}
  %y = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_kernel_shape(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "kernel_shape" is expected but not provided}}
  %y = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_pads(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "pads" is expected but not provided}}
  %y = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_strides(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "strides" is expected but not provided}}
  %y = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_transpose_without_auto_pad(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "auto_pad" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_transpose_without_dilations(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "dilations" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_transpose_without_group(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "group" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_transpose_without_kernel_shape(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "kernel_shape" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_transpose_without_output_padding(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "output_padding" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_transpose_without_pads(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "pads" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_transpose_without_strides(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x2x2xf32>) {
  // expected-error @+1 {{'onnx.conv_transpose' op attribute "strides" is expected but not provided}}
  %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @gemm_without_alpha(%a: tensor<1x2048xf32>, %b: tensor<1000x2048xf32>, %c: tensor<1000xf32>) {
  // expected-error @+1 {{'onnx.gemm' op attribute "alpha" is expected but not provided}}
  %y = "onnx.gemm"(%a, %b, %c) {beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @gemm_without_beta(%a: tensor<1x2048xf32>, %b: tensor<1000x2048xf32>, %c: tensor<1000xf32>) {
  // expected-error @+1 {{'onnx.gemm' op attribute "beta" is expected but not provided}}
  %y = "onnx.gemm"(%a, %b, %c) {alpha = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @gemm_without_transA(%a: tensor<1x2048xf32>, %b: tensor<1000x2048xf32>, %c: tensor<1000xf32>) {
  // expected-error @+1 {{'onnx.gemm' op attribute "transA" is expected but not provided}}
  %y = "onnx.gemm"(%a, %b, %c) {alpha = 1.0 : f32, beta = 1.0 : f32, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @gemm_without_transB(%a: tensor<1x2048xf32>, %b: tensor<1000x2048xf32>, %c: tensor<1000xf32>) {
  // expected-error @+1 {{'onnx.gemm' op attribute "transB" is expected but not provided}}
  %y = "onnx.gemm"(%a, %b, %c) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @batch_normalization_without_epsilon(%x: tensor<1x16x8x8xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.batch_normalization' op attribute "epsilon" is expected but not provided}}
  %y = "onnx.batch_normalization"(%x, %s, %b, %m, %v) {momentum = 0.9 : f32, training_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @batch_normalization_without_momentum(%x: tensor<1x16x8x8xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.batch_normalization' op attribute "momentum" is expected but not provided}}
  %y = "onnx.batch_normalization"(%x, %s, %b, %m, %v) {epsilon = 1.0e-05 : f32, training_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @batch_normalization_without_training_mode(%x: tensor<1x16x8x8xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'onnx.batch_normalization' op attribute "training_mode" is expected but not provided}}
  %y = "onnx.batch_normalization"(%x, %s, %b, %m, %v) {epsilon = 1.0e-05 : f32, momentum = 0.9 : f32, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @leaky_relu_without_alpha(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'onnx.leaky_relu' op attribute "alpha" is expected but not provided}}
  %y = "onnx.leaky_relu"(%x) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @max_pool_without_auto_pad(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "auto_pad" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @max_pool_without_ceil_mode(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "ceil_mode" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @max_pool_without_dilations(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "dilations" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @max_pool_without_kernel_shape(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "kernel_shape" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @max_pool_without_pads(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "pads" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @max_pool_without_storage_order(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "storage_order" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @max_pool_without_strides(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'onnx.max_pool' op attribute "strides" is expected but not provided}}
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @average_pool_without_auto_pad(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "auto_pad" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 7, 7>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @average_pool_without_ceil_mode(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "ceil_mode" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 7, 7>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @average_pool_without_count_include_pad(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "count_include_pad" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 7, 7>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @average_pool_without_dilations(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "dilations" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, kernel_shape = array<i64: 7, 7>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @average_pool_without_kernel_shape(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "kernel_shape" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @average_pool_without_pads(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "pads" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 7, 7>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @average_pool_without_strides(%x: tensor<1x512x7x7xf32>) {
  // expected-error @+1 {{'onnx.average_pool' op attribute "strides" is expected but not provided}}
  %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 7, 7>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @lrn_without_alpha(%x: tensor<1x96x55x55xf32>) {
  // expected-error @+1 {{'onnx.lrn' op attribute "alpha" is expected but not provided}}
  %y = "onnx.lrn"(%x) {beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  return
}

// -----

func.func @lrn_without_beta(%x: tensor<1x96x55x55xf32>) {
  // expected-error @+1 {{'onnx.lrn' op attribute "beta" is expected but not provided}}
  %y = "onnx.lrn"(%x) {alpha = 9.99999974E-5 : f32, bias = 1.000000e+00 : f32, size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  return
}

// -----

func.func @lrn_without_bias(%x: tensor<1x96x55x55xf32>) {
  // expected-error @+1 {{'onnx.lrn' op attribute "bias" is expected but not provided}}
  %y = "onnx.lrn"(%x) {alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  return
}

// -----

func.func @lrn_without_size(%x: tensor<1x96x55x55xf32>) {
  // expected-error @+1 {{'onnx.lrn' op attribute "size" is expected but not provided}}
  %y = "onnx.lrn"(%x) {alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  return
}

// -----

func.func @softmax_without_axis(%x: tensor<1x1000xf32>) {
  // expected-error @+1 {{'onnx.softmax' op attribute "axis" is expected but not provided}}
  %y = "onnx.softmax"(%x) : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @concat_without_axis(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>) {
  // expected-error @+1 {{'onnx.concat' op attribute "axis" is expected but not provided}}
  %y = "onnx.concat"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  return
}

// -----

func.func @split_without_axis(%x: tensor<1x64x8x8xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.split' op attribute "axis" is expected but not provided}}
  %a, %b = "onnx.split"(%x, %s) {resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> (tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>)
  return
}

// -----

func.func @gather_without_axis(%x: tensor<10x16xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.gather' op attribute "axis" is expected but not provided}}
  %y = "onnx.gather"(%x, %i) : (tensor<10x16xf32>, tensor<3xi64>) -> tensor<3x16xf32>
  return
}

// -----

func.func @reshape_without_allowzero(%x: tensor<1x256x6x6xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.reshape' op attribute "allowzero" is expected but not provided}}
  %y = "onnx.reshape"(%x, %s) : (tensor<1x256x6x6xf32>, tensor<2xi64>) -> tensor<1x9216xf32>
  return
}

// -----

func.func @flatten_without_axis(%x: tensor<1x512x1x1xf32>) {
  // expected-error @+1 {{'onnx.flatten' op attribute "axis" is expected but not provided}}
  %y = "onnx.flatten"(%x) : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  return
}

// -----

func.func @transpose_without_perm(%x: tensor<1x2x4x8x8xf32>) {
  // expected-error @+1 {{'onnx.transpose' op attribute "perm" is expected but not provided}}
  %y = "onnx.transpose"(%x) : (tensor<1x2x4x8x8xf32>) -> tensor<1x4x2x8x8xf32>
  return
}

// -----

func.func @pad_without_mode(%x: tensor<1x3x8x8xf32>, %p: tensor<8xi64>, %v: tensor<f32>) {
  // expected-error @+1 {{'onnx.pad' op attribute "mode" is expected but not provided}}
  %y = "onnx.pad"(%x, %p, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x3x8x8xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x3x10x10xf32>
  return
}

// -----

func.func @upsample_without_mode(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.upsample' op attribute "mode" is expected but not provided}}
  %y = "onnx.upsample"(%x, %s) : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_antialias(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "antialias" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_coordinate_transformation_mode(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "coordinate_transformation_mode" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_cubic_coeff_a(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "cubic_coeff_a" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_exclude_outside(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "exclude_outside" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_extrapolation_value(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "extrapolation_value" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_keep_aspect_ratio_policy(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "keep_aspect_ratio_policy" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_mode(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "mode" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @resize_without_nearest_mode(%x: tensor<1x16x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.resize' op attribute "nearest_mode" is expected but not provided}}
  %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @reduce_mean_without_keepdims(%x: tensor<1x64x8x8xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.reduce_mean' op attribute "keepdims" is expected but not provided}}
  %y = "onnx.reduce_mean"(%x, %a) {noop_with_empty_axes = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x64x1x1xf32>
  return
}

// -----

func.func @reduce_mean_without_noop_with_empty_axes(%x: tensor<1x64x8x8xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.reduce_mean' op attribute "noop_with_empty_axes" is expected but not provided}}
  %y = "onnx.reduce_mean"(%x, %a) {keepdims = 1 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x64x1x1xf32>
  return
}

// -----

func.func @reduce_sum_without_keepdims(%x: tensor<1x64x8x8xf32>, %a: tensor<1xi64>) {
  // expected-error @+1 {{'onnx.reduce_sum' op attribute "keepdims" is expected but not provided}}
  %y = "onnx.reduce_sum"(%x, %a) {noop_with_empty_axes = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<1xi64>) -> tensor<1x8x8xf32>
  return
}

// -----

func.func @reduce_sum_without_noop_with_empty_axes(%x: tensor<1x64x8x8xf32>, %a: tensor<1xi64>) {
  // expected-error @+1 {{'onnx.reduce_sum' op attribute "noop_with_empty_axes" is expected but not provided}}
  %y = "onnx.reduce_sum"(%x, %a) {keepdims = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<1xi64>) -> tensor<1x8x8xf32>
  return
}

// -----

func.func @cast_without_round_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.cast' op attribute "round_mode" is expected but not provided}}
  %y = "onnx.cast"(%x) {saturate = 1 : i64, to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @cast_without_saturate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.cast' op attribute "saturate" is expected but not provided}}
  %y = "onnx.cast"(%x) {round_mode = "up", to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @cast_without_to(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.cast' op attribute "to" is expected but not provided}}
  %y = "onnx.cast"(%x) {round_mode = "up", saturate = 1 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @shape_without_start(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.shape' op attribute "start" is expected but not provided}}
  %s = "onnx.shape"(%x) : (tensor<1x3x8x8xf32>) -> tensor<4xi64>
  return
}
