// RUN: onnc-opt %s | onnc-opt | FileCheck %s

// Every onnx op parses, verifies, prints in generic form and parses again. One function per
// op family. Ops with several optional operands (segment sizes): optional-operands.mlir.

// CHECK-LABEL: func.func @constants
func.func @constants(%shape: tensor<2xi64>) -> (tensor<64x3x7x7xf32>, tensor<2xi64>, tensor<2x3xf32>) {
  // CHECK: "onnx.constant"() {value = dense_resource<conv1_w> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32>
  %w = "onnx.constant"() {value = dense_resource<conv1_w> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32>
  // CHECK: "onnx.constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: "onnx.constant_of_shape"(%{{.*}}) {value = dense<0.000000e+00> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
  %z = "onnx.constant_of_shape"(%shape) {value = dense<0.0> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
  return %w, %s, %z : tensor<64x3x7x7xf32>, tensor<2xi64>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @conv_family
func.func @conv_family(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>,
                       %xt: tensor<1x8x4x4xf32>, %wt: tensor<8x4x2x2xf32>) -> (tensor<1x16x32x32xf32>, tensor<1x16x16x16xf32>, tensor<1x4x8x8xf32>) {
  // Attributes print sorted; the group attribute keeps its i64 type.
  // CHECK: "onnx.conv"(%{{.*}}, %{{.*}}, %{{.*}}) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  // CHECK-SAME: : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  %0 = "onnx.conv"(%x, %w, %b) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, kernel_shape = array<i64: 3, 3>, group = 1 : i64, dilations = array<i64: 1, 1>, auto_pad = "NOTSET"} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  // Bias omitted: one optional operand needs no segment sizes.
  // CHECK: "onnx.conv"(%{{.*}}, %{{.*}}) {auto_pad = "SAME_UPPER"
  // CHECK-NOT: operandSegmentSizes
  // CHECK-SAME: strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x16x16xf32>
  %1 = "onnx.conv"(%x, %w) {auto_pad = "SAME_UPPER", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x16x16xf32>
  // CHECK: "onnx.conv_transpose"(%{{.*}}, %{{.*}}) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}
  %2 = "onnx.conv_transpose"(%xt, %wt) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  return %0, %1, %2 : tensor<1x16x32x32xf32>, tensor<1x16x16x16xf32>, tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func.func @matrix
func.func @matrix(%a: tensor<1x2048xf32>, %b: tensor<1000x2048xf32>, %c: tensor<1000xf32>,
                  %m: tensor<1x4x8xf32>, %n: tensor<8x16xf32>) -> (tensor<1x1000xf32>, tensor<1x1000xf32>, tensor<1x4x16xf32>) {
  // CHECK: "onnx.gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  %0 = "onnx.gemm"(%a, %b, %c) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  // CHECK: "onnx.gemm"(%{{.*}}, %{{.*}}) {alpha = 5.000000e-01 : f32, beta = 0.000000e+00 : f32
  %1 = "onnx.gemm"(%a, %b) {alpha = 0.5 : f32, beta = 0.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>) -> tensor<1x1000xf32>
  // CHECK: "onnx.mat_mul"(%{{.*}}, %{{.*}}) : (tensor<1x4x8xf32>, tensor<8x16xf32>) -> tensor<1x4x16xf32>
  %2 = "onnx.mat_mul"(%m, %n) : (tensor<1x4x8xf32>, tensor<8x16xf32>) -> tensor<1x4x16xf32>
  return %0, %1, %2 : tensor<1x1000xf32>, tensor<1x1000xf32>, tensor<1x4x16xf32>
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<1x16x8x8xf32>, %s: tensor<16x1x1xf32>, %u: tensor<?x16xf32>) {
  // CHECK: "onnx.relu"(%{{.*}}) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %0 = "onnx.relu"(%x) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  // Before shape inference a result may be less precise than its operand.
  // CHECK: "onnx.relu"(%{{.*}}) : (tensor<1x16x8x8xf32>) -> tensor<?x?x?x?xf32>
  %1 = "onnx.relu"(%x) : (tensor<1x16x8x8xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: "onnx.leaky_relu"(%{{.*}}) {alpha = 1.000000e-01 : f32}
  %2 = "onnx.leaky_relu"(%x) {alpha = 0.1 : f32} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  // CHECK: "onnx.prelu"(%{{.*}}, %{{.*}}) : (tensor<1x16x8x8xf32>, tensor<16x1x1xf32>) -> tensor<1x16x8x8xf32>
  %3 = "onnx.prelu"(%x, %s) : (tensor<1x16x8x8xf32>, tensor<16x1x1xf32>) -> tensor<1x16x8x8xf32>
  // CHECK: "onnx.sigmoid"(%{{.*}}) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %4 = "onnx.sigmoid"(%u) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  // CHECK: "onnx.tanh"
  %5 = "onnx.tanh"(%x) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<1x16xf32>, %b: tensor<16xf32>, %c: tensor<1x16xf32>, %k: tensor<f32>) {
  // CHECK: "onnx.add"(%{{.*}}, %{{.*}}) : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  %0 = "onnx.add"(%a, %b) : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.sub"
  %1 = "onnx.sub"(%a, %b) : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.mul"
  %2 = "onnx.mul"(%a, %k) : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  // CHECK: "onnx.div"
  %3 = "onnx.div"(%a, %k) : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  // CHECK: "onnx.pow"(%{{.*}}, %{{.*}}) : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %4 = "onnx.pow"(%a, %k) : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  // Variadic groups: any count, one type.
  // CHECK: "onnx.sum"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %5 = "onnx.sum"(%a, %c, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.sum"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %6 = "onnx.sum"(%a) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // Broadcasting inputs of different types.
  // CHECK: "onnx.max"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  %7 = "onnx.max"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.min"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %8 = "onnx.min"(%a, %c) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.neg"
  %9 = "onnx.neg"(%a) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.sqrt"
  %10 = "onnx.sqrt"(%a) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.exp"
  %11 = "onnx.exp"(%a) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // CHECK: "onnx.log"
  %12 = "onnx.log"(%a) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return
}

// CHECK-LABEL: func.func @pooling_and_normalization
func.func @pooling_and_normalization(%x: tensor<1x64x112x112xf32>, %y: tensor<1x96x55x55xf32>, %g: tensor<1x1024x7x7xf32>,
                                     %sc: tensor<96xf32>, %bi: tensor<96xf32>, %me: tensor<96xf32>, %va: tensor<96xf32>) {
  // CHECK: "onnx.max_pool"(%{{.*}}) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %0 = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // The optional Indices result.
  // CHECK: %{{.*}}:2 = "onnx.max_pool"(%{{.*}}) {{.*}} : (tensor<1x64x112x112xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xi64>)
  %1:2 = "onnx.max_pool"(%x) {auto_pad = "VALID", ceil_mode = 1 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xi64>)
  // CHECK: "onnx.average_pool"(%{{.*}}) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 1 : i64
  %2 = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 1 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: "onnx.global_average_pool"(%{{.*}}) : (tensor<1x1024x7x7xf32>) -> tensor<1x1024x1x1xf32>
  %3 = "onnx.global_average_pool"(%g) : (tensor<1x1024x7x7xf32>) -> tensor<1x1024x1x1xf32>
  // CHECK: "onnx.global_max_pool"(%{{.*}}) : (tensor<1x1024x7x7xf32>) -> tensor<1x1024x1x1xf32>
  %4 = "onnx.global_max_pool"(%g) : (tensor<1x1024x7x7xf32>) -> tensor<1x1024x1x1xf32>
  // CHECK: "onnx.lrn"(%{{.*}}) {alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, size = 5 : i64}
  %5 = "onnx.lrn"(%y) {alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  // CHECK: "onnx.batch_normalization"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999974E-6 : f32, momentum = 0.899999976 : f32, resultSegmentSizes = array<i32: 1, 0, 0>, training_mode = 0 : i64}
  %6 = "onnx.batch_normalization"(%y, %sc, %bi, %me, %va) {epsilon = 1.0e-5 : f32, momentum = 0.9 : f32, training_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x96x55x55xf32>, tensor<96xf32>, tensor<96xf32>, tensor<96xf32>, tensor<96xf32>) -> tensor<1x96x55x55xf32>
  // Training mode: both optional results present.
  // CHECK: %{{.*}}:3 = "onnx.batch_normalization"{{.*}}resultSegmentSizes = array<i32: 1, 1, 1>, training_mode = 1 : i64}
  %7:3 = "onnx.batch_normalization"(%y, %sc, %bi, %me, %va) {epsilon = 1.0e-5 : f32, momentum = 0.9 : f32, training_mode = 1 : i64, resultSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x96x55x55xf32>, tensor<96xf32>, tensor<96xf32>, tensor<96xf32>, tensor<96xf32>) -> (tensor<1x96x55x55xf32>, tensor<96xf32>, tensor<96xf32>)
  // CHECK: "onnx.softmax"(%{{.*}}) {axis = -1 : i64} : (tensor<1x1024x1x1xf32>) -> tensor<1x1024x1x1xf32>
  %8 = "onnx.softmax"(%3) {axis = -1 : i64} : (tensor<1x1024x1x1xf32>) -> tensor<1x1024x1x1xf32>
  return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<1x64x8x8xf32>, %s2: tensor<2xi64>, %s1: tensor<1xi64>, %t: tensor<1x2x4x8x8xf32>, %v: tensor<16xf32>,
                  %e: tensor<10x16xf32>, %i: tensor<3xi64>, %s4: tensor<4xi64>, %sc: tensor<4xf32>) {
  // Uneven parts have different types.
  // CHECK: %{{.*}}:2 = "onnx.split"(%{{.*}}, %{{.*}}) {axis = 1 : i64, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> (tensor<1x48x8x8xf32>, tensor<1x16x8x8xf32>)
  %0:2 = "onnx.split"(%x, %s2) {axis = 1 : i64, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> (tensor<1x48x8x8xf32>, tensor<1x16x8x8xf32>)
  // num_outputs has no default: it stays a discardable attribute.
  // CHECK: %{{.*}}:4 = "onnx.split"(%{{.*}}) {axis = 1 : i64, num_outputs = 4 : i64, resultSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
  %1:4 = "onnx.split"(%x) {axis = 1 : i64, num_outputs = 4 : i64, resultSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>)
  // CHECK: "onnx.gather"(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<10x16xf32>, tensor<3xi64>) -> tensor<3x16xf32>
  %2 = "onnx.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x16xf32>, tensor<3xi64>) -> tensor<3x16xf32>
  // CHECK: "onnx.reshape"(%{{.*}}, %{{.*}}) {allowzero = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x4096xf32>
  %3 = "onnx.reshape"(%x, %s2) {allowzero = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x4096xf32>
  // CHECK: "onnx.expand"(%{{.*}}, %{{.*}}) : (tensor<16xf32>, tensor<4xi64>) -> tensor<1x16x8x16xf32>
  %4 = "onnx.expand"(%v, %s4) : (tensor<16xf32>, tensor<4xi64>) -> tensor<1x16x8x16xf32>
  // CHECK: "onnx.flatten"(%{{.*}}) {axis = 1 : i64} : (tensor<1x64x8x8xf32>) -> tensor<1x4096xf32>
  %5 = "onnx.flatten"(%x) {axis = 1 : i64} : (tensor<1x64x8x8xf32>) -> tensor<1x4096xf32>
  // CHECK: "onnx.transpose"(%{{.*}}) {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x2x4x8x8xf32>) -> tensor<1x4x2x8x8xf32>
  %6 = "onnx.transpose"(%t) {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x2x4x8x8xf32>) -> tensor<1x4x2x8x8xf32>
  // CHECK: "onnx.squeeze"(%{{.*}}, %{{.*}}) : (tensor<1x64x8x8xf32>, tensor<1xi64>) -> tensor<64x8x8xf32>
  %7 = "onnx.squeeze"(%x, %s1) : (tensor<1x64x8x8xf32>, tensor<1xi64>) -> tensor<64x8x8xf32>
  // CHECK: "onnx.squeeze"(%{{.*}}) : (tensor<1x64x8x8xf32>) -> tensor<64x8x8xf32>
  %8 = "onnx.squeeze"(%x) : (tensor<1x64x8x8xf32>) -> tensor<64x8x8xf32>
  // CHECK: "onnx.unsqueeze"(%{{.*}}, %{{.*}}) : (tensor<16xf32>, tensor<2xi64>) -> tensor<16x1x1xf32>
  %9 = "onnx.unsqueeze"(%v, %s2) : (tensor<16xf32>, tensor<2xi64>) -> tensor<16x1x1xf32>
  // CHECK: "onnx.upsample"(%{{.*}}, %{{.*}}) {mode = "nearest"} : (tensor<1x64x8x8xf32>, tensor<4xf32>) -> tensor<1x64x16x16xf32>
  %10 = "onnx.upsample"(%x, %sc) {mode = "nearest"} : (tensor<1x64x8x8xf32>, tensor<4xf32>) -> tensor<1x64x16x16xf32>
  // CHECK: "onnx.reduce_mean"(%{{.*}}, %{{.*}}) {keepdims = 1 : i64, noop_with_empty_axes = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x64x1x1xf32>
  %11 = "onnx.reduce_mean"(%x, %s2) {keepdims = 1 : i64, noop_with_empty_axes = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x64x1x1xf32>
  // CHECK: "onnx.reduce_sum"(%{{.*}}) {keepdims = 0 : i64, noop_with_empty_axes = 1 : i64} : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %12 = "onnx.reduce_sum"(%x) {keepdims = 0 : i64, noop_with_empty_axes = 1 : i64} : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  // CHECK: "onnx.identity"(%{{.*}}) : (tensor<16xf32>) -> tensor<16xf32>
  %13 = "onnx.identity"(%v) : (tensor<16xf32>) -> tensor<16xf32>
  // CHECK: "onnx.cast"(%{{.*}}) {round_mode = "up", saturate = 1 : i64, to = 10 : i64} : (tensor<16xf32>) -> tensor<16xf16>
  %14 = "onnx.cast"(%v) {to = 10 : i64, saturate = 1 : i64, round_mode = "up"} : (tensor<16xf32>) -> tensor<16xf16>
  // end has no default: it stays a discardable attribute.
  // CHECK: "onnx.shape"(%{{.*}}) {end = 2 : i64, start = 0 : i64} : (tensor<1x64x8x8xf32>) -> tensor<2xi64>
  %15 = "onnx.shape"(%x) {start = 0 : i64, end = 2 : i64} : (tensor<1x64x8x8xf32>) -> tensor<2xi64>
  return
}

// Resource blobs survive the round trip byte for byte.
// CHECK: dialect_resources
// CHECK-NEXT: builtin
// CHECK-NEXT: conv1_w: "0x04000000000000000000803F"
{-#
  dialect_resources: {
    builtin: {
      conv1_w: "0x04000000000000000000803F"
    }
  }
#-}
