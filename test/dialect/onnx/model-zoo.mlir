// RUN: onnc-opt %s | onnc-opt | FileCheck %s

// Pieces of the ONNX model-zoo light nets (onnx/backend/test/data/light, opset 9) written in
// the opset-normalized form the importer produces: weights as dense_resource constants, every
// default materialized, Reshape's shape as an operand, Dropout with its segment sizes,
// Concat with slots. ONNX node names become locations (parsed here; not printed by default).

// SqueezeNet 1.0: a fire module (squeeze 1x1, expand 1x1 and 3x3, concat) and the head.
// CHECK-LABEL: func.func @squeezenet_fire
func.func @squeezenet_fire(%x: tensor<1x96x54x54xf32>) -> tensor<1x1000xf32> {
  %sw = "onnx.constant"() {value = dense_resource<fire2_squeeze_w> : tensor<16x96x1x1xf32>} : () -> tensor<16x96x1x1xf32> loc("fire2/squeeze1x1_w")
  %sb = "onnx.constant"() {value = dense_resource<fire2_squeeze_b> : tensor<16xf32>} : () -> tensor<16xf32>
  %e1w = "onnx.constant"() {value = dense_resource<fire2_e1_w> : tensor<64x16x1x1xf32>} : () -> tensor<64x16x1x1xf32>
  %e3w = "onnx.constant"() {value = dense_resource<fire2_e3_w> : tensor<64x16x3x3xf32>} : () -> tensor<64x16x3x3xf32>
  // CHECK: %[[SQ:.*]] = "onnx.conv"(%{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}kernel_shape = array<i64: 1, 1>{{.*}}} : (tensor<1x96x54x54xf32>, tensor<16x96x1x1xf32>, tensor<16xf32>) -> tensor<1x16x54x54xf32>
  %s = "onnx.conv"(%x, %sw, %sb) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x96x54x54xf32>, tensor<16x96x1x1xf32>, tensor<16xf32>) -> tensor<1x16x54x54xf32> loc("fire2/squeeze1x1")
  // CHECK: %[[SR:.*]] = "onnx.relu"(%[[SQ]])
  %sr = "onnx.relu"(%s) : (tensor<1x16x54x54xf32>) -> tensor<1x16x54x54xf32>
  // CHECK: %[[E1:.*]] = "onnx.conv"(%[[SR]], %{{.*}}) {{.*}} -> tensor<1x64x54x54xf32>
  %e1 = "onnx.conv"(%sr, %e1w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x54x54xf32>, tensor<64x16x1x1xf32>) -> tensor<1x64x54x54xf32>
  // CHECK: %[[E3:.*]] = "onnx.conv"(%[[SR]], %{{.*}}) {{{.*}}pads = array<i64: 1, 1, 1, 1>{{.*}}} {{.*}} -> tensor<1x64x54x54xf32>
  %e3 = "onnx.conv"(%sr, %e3w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x16x54x54xf32>, tensor<64x16x3x3xf32>) -> tensor<1x64x54x54xf32>
  %e1r = "onnx.relu"(%e1) : (tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %e3r = "onnx.relu"(%e3) : (tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  // CHECK: %[[CAT:.*]] = "onnx.concat"(%{{.*}}, %{{.*}}) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, {{.*}}>} : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x128x54x54xf32>
  %cat = "onnx.concat"(%e1r, %e3r) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x128x54x54xf32>
  // Head: dropout (inference: identity), 1x1 conv to 1000 classes, global pool, flatten by
  // reshape, softmax.
  // CHECK: %[[DROP:.*]] = "onnx.dropout"(%[[CAT]]) {operandSegmentSizes = array<i32: 1, 0, 0>}
  %d = "onnx.dropout"(%cat) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x128x54x54xf32>) -> tensor<1x128x54x54xf32>
  %cw = "onnx.constant"() {value = dense_resource<conv10_w> : tensor<1000x128x1x1xf32>} : () -> tensor<1000x128x1x1xf32>
  %c = "onnx.conv"(%d, %cw) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x128x54x54xf32>, tensor<1000x128x1x1xf32>) -> tensor<1x1000x54x54xf32>
  // CHECK: "onnx.global_average_pool"
  %g = "onnx.global_average_pool"(%c) : (tensor<1x1000x54x54xf32>) -> tensor<1x1000x1x1xf32>
  // CHECK: %[[SHAPE:.*]] = "onnx.constant"() {value = dense<[1, 1000]> : tensor<2xi64>}
  %shape = "onnx.constant"() {value = dense<[1, 1000]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: %[[FLAT:.*]] = "onnx.reshape"(%{{.*}}, %[[SHAPE]]) {allowzero = 0 : i64} : (tensor<1x1000x1x1xf32>, tensor<2xi64>) -> tensor<1x1000xf32>
  %f = "onnx.reshape"(%g, %shape) {allowzero = 0 : i64} : (tensor<1x1000x1x1xf32>, tensor<2xi64>) -> tensor<1x1000xf32>
  // CHECK: "onnx.softmax"(%[[FLAT]]) {axis = 1 : i64}
  %p = "onnx.softmax"(%f) {axis = 1 : i64} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %p : tensor<1x1000xf32>
}

// ResNet-50: a bottleneck tail with batch norm and the residual Sum.
// CHECK-LABEL: func.func @resnet_residual
func.func @resnet_residual(%x: tensor<1x256x56x56xf32>, %y: tensor<1x256x56x56xf32>,
                           %s: tensor<256xf32>, %b: tensor<256xf32>, %m: tensor<256xf32>, %v: tensor<256xf32>) -> tensor<1x256x56x56xf32> {
  // CHECK: "onnx.batch_normalization"{{.*}}resultSegmentSizes = array<i32: 1, 0, 0>
  %bn = "onnx.batch_normalization"(%y, %s, %b, %m, %v) {epsilon = 1.0e-5 : f32, momentum = 0.9 : f32, training_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<1x256x56x56xf32>
  // CHECK: %[[SUM:.*]] = "onnx.sum"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x256x56x56xf32>, tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32>
  %sum = "onnx.sum"(%x, %bn) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x256x56x56xf32>, tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32>
  // CHECK: "onnx.relu"(%[[SUM]])
  %r = "onnx.relu"(%sum) : (tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32>
  return %r : tensor<1x256x56x56xf32>
}

// ShuffleNet: the channel shuffle (Reshape, Transpose, Reshape) that ONNC's NVDLA back end
// matches.
// CHECK-LABEL: func.func @shufflenet_channel_shuffle
func.func @shufflenet_channel_shuffle(%x: tensor<1x240x28x28xf32>) -> tensor<1x240x28x28xf32> {
  %s5 = "onnx.constant"() {value = dense<[1, 3, 80, 28, 28]> : tensor<5xi64>} : () -> tensor<5xi64>
  %s4 = "onnx.constant"() {value = dense<[1, 240, 28, 28]> : tensor<4xi64>} : () -> tensor<4xi64>
  %a = "onnx.reshape"(%x, %s5) {allowzero = 0 : i64} : (tensor<1x240x28x28xf32>, tensor<5xi64>) -> tensor<1x3x80x28x28xf32>
  // CHECK: "onnx.transpose"(%{{.*}}) {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x3x80x28x28xf32>) -> tensor<1x80x3x28x28xf32>
  %t = "onnx.transpose"(%a) {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x3x80x28x28xf32>) -> tensor<1x80x3x28x28xf32>
  %b = "onnx.reshape"(%t, %s4) {allowzero = 0 : i64} : (tensor<1x80x3x28x28xf32>, tensor<4xi64>) -> tensor<1x240x28x28xf32>
  return %b : tensor<1x240x28x28xf32>
}

// DenseNet-121 / Inception v2: Unsqueeze with an axes operand (opset 13+ form) on a constant.
// CHECK-LABEL: func.func @unsqueeze_scale
func.func @unsqueeze_scale(%x: tensor<1x64x56x56xf32>, %k: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %axes = "onnx.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: %[[U:.*]] = "onnx.unsqueeze"(%{{.*}}, %{{.*}}) : (tensor<64xf32>, tensor<2xi64>) -> tensor<64x1x1xf32>
  %u = "onnx.unsqueeze"(%k, %axes) : (tensor<64xf32>, tensor<2xi64>) -> tensor<64x1x1xf32>
  // CHECK: "onnx.mul"(%{{.*}}, %[[U]]) : (tensor<1x64x56x56xf32>, tensor<64x1x1xf32>) -> tensor<1x64x56x56xf32>
  %m = "onnx.mul"(%x, %u) : (tensor<1x64x56x56xf32>, tensor<64x1x1xf32>) -> tensor<1x64x56x56xf32>
  return %m : tensor<1x64x56x56xf32>
}
