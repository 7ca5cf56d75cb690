// RUN: onnc-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-simplify)' --mlir-print-debuginfo | FileCheck %s

// A ConstantOfShape weight generator folds into its weight; shapes become static.
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.constant_of_shape
// CHECK: %[[W:.*]] = "onnx.constant"() {onnx.name = "{{[^"]*}}", value = dense_resource<{{.*}}> : tensor<4x3x3x3xf32>}
// CHECK: "onnx.conv"(%arg0, %[[W]]) {{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> loc(#[[CONV:loc[0-9]*]])
// CHECK: #[[CONV]] = loc("conv")
func.func @main_graph(%x: tensor<1x3x8x8xf32>) -> tensor<?x?x?x?xf32> {
  %s = "onnx.constant"() {value = dense<[4, 3, 3, 3]> : tensor<4xi64>} : () -> tensor<4xi64> loc("w_shape")
  %w = "onnx.constant_of_shape"(%s) {value = dense<2.0e-02> : tensor<1xf32>} : (tensor<4xi64>) -> tensor<?x?x?x?xf32> loc("w")
  %y = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> loc("conv")
  return %y : tensor<?x?x?x?xf32>
}

// -----

// Identity and inference Dropout disappear; a dead branch goes; the output name stays.
// CHECK-LABEL: func.func @main_graph
// CHECK-SAME: -> (tensor<2x4xf32> {onnx.name = "out"})
// CHECK-NOT: onnx.identity
// CHECK-NOT: onnx.dropout
// CHECK-NOT: onnx.sigmoid
// CHECK: %[[R:.*]] = "onnx.relu"(%arg0){{.*}} loc(
// CHECK-NEXT: return %[[R]]
func.func @main_graph(%x: tensor<2x4xf32>) -> (tensor<2x4xf32> {onnx.name = "out"}) {
  %r = "onnx.relu"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("relu")
  %d = "onnx.dropout"(%r) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("drop")
  %i = "onnx.identity"(%d) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("id")
  %dead = "onnx.sigmoid"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("unused")
  return %i : tensor<2x4xf32>
}

// -----

// Shape arithmetic on constants folds (Shape -> Gather -> Unsqueeze -> Concat -> Reshape).
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.shape
// CHECK-NOT: onnx.gather
// CHECK-NOT: onnx.concat
// CHECK: %[[S:.*]] = "onnx.constant"() {onnx.name = "{{[^"]*}}", value = dense<[2, -1]> : tensor<2xi64>}
// CHECK: "onnx.reshape"(%arg0, %[[S]]) {allowzero = 0 : i64, onnx.name = "{{[^"]*}}"} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
func.func @main_graph(%x: tensor<2x3x4xf32>) -> tensor<?x?xf32> {
  %c = "onnx.constant"() {value = dense<0.0> : tensor<2x3x4xf32>} : () -> tensor<2x3x4xf32> loc("c")
  %shape = "onnx.shape"(%c) {start = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xi64> loc("shape")
  %i0 = "onnx.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64> loc("i0")
  %d0 = "onnx.gather"(%shape, %i0) {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64> loc("gather")
  %ax = "onnx.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64> loc("ax")
  %u = "onnx.unsqueeze"(%d0, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64> loc("unsq")
  %m1 = "onnx.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64> loc("m1")
  %cat = "onnx.concat"(%u, %m1) {axis = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64> loc("cat")
  %y = "onnx.reshape"(%x, %cat) {allowzero = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32> loc("reshape")
  return %y : tensor<?x?xf32>
}

// -----

// Poolings over one-element windows are the identity and go (torchvision's
// AdaptiveAvgPool2d((7, 7)) on a 7x7 map exports AveragePool 1x1/1; a
// GlobalAveragePool of a 1x1 map); a 1x1 stride-2 pool and a 3x3 stride-1
// pad-1 pool (same shape, mixed pixels) stay.
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.name = "adaptive"
// CHECK-NOT: onnx.global_average_pool
// CHECK: %[[R:.*]] = "onnx.relu"(%arg0)
// CHECK: %[[M:.*]] = "onnx.max_pool"(%[[R]]) {{.*}}strides = array<i64: 2, 2>{{.*}} -> tensor<1x4x4x4xf32>
// CHECK: %[[A:.*]] = "onnx.average_pool"(%[[M]]) {{.*}}kernel_shape = array<i64: 3, 3>{{.*}}pads = array<i64: 1, 1, 1, 1>
// CHECK: %[[G:.*]] = "onnx.max_pool"(%[[A]]) {{.*}} -> tensor<1x4x1x1xf32>
// CHECK-NEXT: "onnx.flatten"(%[[G]])
func.func @main_graph(%x: tensor<1x4x8x8xf32>) -> tensor<?x?xf32> {
  %r = "onnx.relu"(%x) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("relu")
  %a = "onnx.average_pool"(%r) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<?x?x?x?xf32> loc("adaptive")
  %m = "onnx.max_pool"(%a) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> loc("stride2")
  %s = "onnx.average_pool"(%m) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> loc("same")
  %g = "onnx.max_pool"(%s) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 4, 4>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 4, 4>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> loc("to1x1")
  %gap = "onnx.global_average_pool"(%g) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> loc("gap1x1")
  %f = "onnx.flatten"(%gap) {axis = 1 : i64} : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32> loc("flat")
  return %f : tensor<?x?xf32>
}
