// RUN: onnc-opt %s | onnc-opt | FileCheck %s

// nnie ops parse, verify, print in generic form and parse again. Clip values are powers of
// 2^(1/16) and z = round(16 * log2(c)) - 127 (c = 4 -> z = -95, c = 2 -> -111, c = 0.5 -> -143).

// A small classification net: conv, relu, pool, residual eltwise, fc, softmax.
// CHECK-LABEL: func.func @classifier
func.func @classifier(%x: tensor<1x3x32x32xf32>, %w1: tensor<16x3x3x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3x3xf32>,
                      %fw: tensor<10x256xf32>, %fb: tensor<10xf32>) -> tensor<1x10xf32> {
  // CHECK: %[[C1:.*]] = "nnie.conv"(%{{.*}}, %{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, kernel = array<i64: 3, 3>, layer_name = "conv1", pad = array<i64: 1, 1>, stride = array<i64: 1, 1>, tops = ["c1"], weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  %c1 = "nnie.conv"(%x, %w1, %b1) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>,
      dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>,
      weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["c1"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  // CHECK: %[[R1:.*]] = "nnie.relu"(%[[C1]]) {layer_name = "relu1", negative_slope = 0.000000e+00 : f32, tops = ["r1"]}
  %r1 = "nnie.relu"(%c1) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = ["r1"]} : (tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  // Bias omitted.
  // CHECK: %[[C2:.*]] = "nnie.conv"(%[[R1]], %{{.*}}) {{{.*}}layer_name = "conv2"{{.*}}} : (tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x32x32xf32>
  %c2 = "nnie.conv"(%r1, %w2) {layer_name = "conv2", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>,
      dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 2.0>, input_z = array<i64: -111>,
      weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["c2"]} : (tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x32x32xf32>
  // One clip value per input.
  // CHECK: %[[E:.*]] = "nnie.eltwise"(%[[C2]], %[[R1]]) {input_clip = array<f32: 4.000000e+00, 2.000000e+00>, input_z = array<i64: -95, -111>, layer_name = "res1", operation = "sum", tops = ["e"]}
  %e = "nnie.eltwise"(%c2, %r1) {layer_name = "res1", operation = "sum", input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>, tops = ["e"]}
      : (tensor<1x16x32x32xf32>, tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  // CHECK: %[[P:.*]] = "nnie.pool"(%[[E]]) {global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, kernel = array<i64: 8, 8>, layer_name = "pool1", pad = array<i64: 0, 0>, pool = "ave", stride = array<i64: 8, 8>, tops = ["p"]} : (tensor<1x16x32x32xf32>) -> tensor<1x16x4x4xf32>
  %p = "nnie.pool"(%e) {layer_name = "pool1", pool = "ave", kernel = array<i64: 8, 8>, stride = array<i64: 8, 8>, pad = array<i64: 0, 0>,
      global_pooling = 0 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["p"]} : (tensor<1x16x32x32xf32>) -> tensor<1x16x4x4xf32>
  // CHECK: %[[F:.*]] = "nnie.fc"(%[[P]], %{{.*}}, %{{.*}}) {input_clip = array<f32: 8.000000e+00>, input_z = array<i64: -79>, layer_name = "fc", tops = ["f"], weight_clip = 2.500000e-01 : f32, weight_z = -159 : i64}
  %f = "nnie.fc"(%p, %fw, %fb) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["f"]}
      : (tensor<1x16x4x4xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  // CHECK: "nnie.softmax"(%[[F]]) {axis = 1 : i64, layer_name = "prob", tops = ["s"]} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %s = "nnie.softmax"(%f) {layer_name = "prob", axis = 1 : i64, tops = ["s"]} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %s : tensor<1x10xf32>
}

// A detection-style neck: 2x upsample, concat of differently sized inputs, permute, reshape.
// CHECK-LABEL: func.func @neck
func.func @neck(%a: tensor<1x32x8x8xf32>, %b: tensor<1x16x16x16xf32>, %g: tensor<1x64x16x16xf32>) {
  // CHECK: %[[U:.*]] = "nnie.upsample"(%{{.*}}) {input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, layer_name = "up1", scale = 2 : i64, tops = ["u"]} : (tensor<1x32x8x8xf32>) -> tensor<1x32x16x16xf32>
  %u = "nnie.upsample"(%a) {layer_name = "up1", scale = 2 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["u"]} : (tensor<1x32x8x8xf32>) -> tensor<1x32x16x16xf32>
  // CHECK: %[[C:.*]] = "nnie.concat"(%[[U]], %{{.*}}) {axis = 1 : i64, input_clip = array<f32: 4.000000e+00, 2.000000e+00>, input_z = array<i64: -95, -111>, layer_name = "cat1", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["c"]} : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x48x16x16xf32>
  %c = "nnie.concat"(%u, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>,
      operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["c"]} : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x48x16x16xf32>
  // CHECK: "nnie.permute"(%[[C]]) {layer_name = "perm1", order = array<i64: 0, 2, 3, 1>, tops = ["t"]} : (tensor<1x48x16x16xf32>) -> tensor<1x16x16x48xf32>
  %t = "nnie.permute"(%c) {layer_name = "perm1", order = array<i64: 0, 2, 3, 1>, tops = ["t"]} : (tensor<1x48x16x16xf32>) -> tensor<1x16x16x48xf32>
  // Global max pooling; max-pool ops in MQBench are quantized like the others.
  // CHECK: "nnie.pool"(%{{.*}}) {global_pooling = 1 : i64{{.*}}pool = "max"
  %gp = "nnie.pool"(%g) {layer_name = "gpool", pool = "max", kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0>,
      global_pooling = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["gp"]} : (tensor<1x64x16x16xf32>) -> tensor<1x64x1x1xf32>
  // CHECK: "nnie.reshape"(%{{.*}}) {layer_name = "flat", shape = array<i64: 0, -1, 1, 1>, tops = ["r"]} : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  %r = "nnie.reshape"(%gp) {layer_name = "flat", shape = array<i64: 0, -1, 1, 1>, tops = ["r"]} : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  return
}

// A depthwise Deconvolution of ones (nearest upsampling by 3): output s*(H-1) + k - 2p = 24.
// CHECK-LABEL: func.func @deconv
func.func @deconv(%x: tensor<1x8x8x8xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x24x24xf32> {
  // CHECK: "nnie.deconv"(%{{.*}}, %{{.*}}) {group = 8 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, kernel = array<i64: 3, 3>, layer_name = "up3", pad = array<i64: 0, 0>, stride = array<i64: 3, 3>, tops = ["y"], weight_clip = 1.000000e+00 : f32, weight_z = -127 : i64} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x24x24xf32>
  %y = "nnie.deconv"(%x, %w) {layer_name = "up3", kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0>, group = 8 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 1.0 : f32, weight_z = -127 : i64, tops = ["y"]} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x24x24xf32>
  return %y : tensor<1x8x24x24xf32>
}
