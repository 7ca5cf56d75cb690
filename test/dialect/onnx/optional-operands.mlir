// RUN: onnc-opt %s | onnc-opt | FileCheck %s

// Optional operands and numbered slots. An op with two or more optional/variadic operands
// (results) carries operandSegmentSizes (resultSegmentSizes), one entry per declared operand,
// and the entries say which optional operands are present.

// CHECK-LABEL: func.func @clip
func.func @clip(%x: tensor<1x16xf32>, %lo: tensor<f32>, %hi: tensor<f32>) {
  // CHECK: "onnx.clip"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x16xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16xf32>
  %0 = "onnx.clip"(%x, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x16xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16xf32>
  // Only max (ReLU6-style upper bound without a lower one).
  // CHECK: "onnx.clip"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %1 = "onnx.clip"(%x, %hi) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  // Only min.
  // CHECK: "onnx.clip"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>}
  %2 = "onnx.clip"(%x, %lo) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  // Neither.
  // CHECK: "onnx.clip"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %3 = "onnx.clip"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return
}

// CHECK-LABEL: func.func @slice_pad_dropout
func.func @slice_pad_dropout(%x: tensor<1x64x8x8xf32>, %i: tensor<1xi64>, %p: tensor<8xi64>, %v: tensor<f32>, %r: tensor<f32>, %t: tensor<i1>) {
  // CHECK: "onnx.slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}
  %0 = "onnx.slice"(%x, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<1x64x8x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x32x8x8xf32>
  // Steps without axes.
  // CHECK: "onnx.slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
  %1 = "onnx.slice"(%x, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>} : (tensor<1x64x8x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x32x8x8xf32>
  // CHECK: "onnx.pad"(%{{.*}}, %{{.*}}, %{{.*}}) {mode = "constant", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x64x8x8xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x64x10x10xf32>
  %2 = "onnx.pad"(%x, %p, %v) {mode = "constant", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x64x8x8xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x64x10x10xf32>
  // CHECK: "onnx.pad"(%{{.*}}, %{{.*}}) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
  %3 = "onnx.pad"(%x, %p) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<8xi64>) -> tensor<1x64x10x10xf32>
  // CHECK: "onnx.dropout"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %4 = "onnx.dropout"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  // With ratio, training_mode and the optional mask result (one optional result: no
  // resultSegmentSizes), and the discardable seed.
  // CHECK: %{{.*}}:2 = "onnx.dropout"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1>, seed = 7 : i64} : (tensor<1x64x8x8xf32>, tensor<f32>, tensor<i1>) -> (tensor<1x64x8x8xf32>, tensor<1x64x8x8xi1>)
  %5:2 = "onnx.dropout"(%x, %r, %t) {operandSegmentSizes = array<i32: 1, 1, 1>, seed = 7 : i64} : (tensor<1x64x8x8xf32>, tensor<f32>, tensor<i1>) -> (tensor<1x64x8x8xf32>, tensor<1x64x8x8xi1>)
  return
}

// CHECK-LABEL: func.func @resize
func.func @resize(%x: tensor<1x16x8x8xf32>, %roi: tensor<8xf32>, %sc: tensor<4xf32>, %sz: tensor<4xi64>) {
  // CHECK: "onnx.resize"(%{{.*}}, %{{.*}}) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  %0 = "onnx.resize"(%x, %sc) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -0.75 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.0 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  // sizes instead of scales, with roi.
  // CHECK: "onnx.resize"(%{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}mode = "linear"{{.*}}operandSegmentSizes = array<i32: 1, 1, 0, 1>}
  %1 = "onnx.resize"(%x, %roi, %sz) {antialias = 1 : i64, coordinate_transformation_mode = "tf_crop_and_resize", cubic_coeff_a = -0.5 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.0 : f32, keep_aspect_ratio_policy = "not_larger", mode = "linear", nearest_mode = "round_prefer_floor", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<1x16x8x8xf32>, tensor<8xf32>, tensor<4xi64>) -> tensor<1x16x16x16xf32>
  return
}

// Concat: numbered slots (32, the first required), because its inputs have different types.
// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>, %c: tensor<1x16x8x8xf32>) -> (tensor<1x112x8x8xf32>, tensor<1x64x8x8xf32>) {
  // CHECK: "onnx.concat"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x112x8x8xf32>
  %0 = "onnx.concat"(%a, %b, %c) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x112x8x8xf32>
  // A single input.
  // CHECK: "onnx.concat"(%{{.*}}) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 0,
  %1 = "onnx.concat"(%a) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  return %0, %1 : tensor<1x112x8x8xf32>, tensor<1x64x8x8xf32>
}

// Custom: 16 operand slots and 16 result slots, all optional; the node's own attributes ride
// along as discardable attributes.
// CHECK-LABEL: func.func @custom
func.func @custom(%x: tensor<1x100x4xf32>, %s: tensor<1x1x100xf32>) {
  // CHECK: "onnx.custom"(%{{.*}}, %{{.*}}) {center_point_box = 0 : i64, domain = "", op_type = "NonMaxSuppression", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x100x4xf32>, tensor<1x1x100xf32>) -> tensor<?x3xi64>
  %0 = "onnx.custom"(%x, %s) {op_type = "NonMaxSuppression", domain = "", center_point_box = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x100x4xf32>, tensor<1x1x100xf32>) -> tensor<?x3xi64>
  // Two results of different types, no inputs.
  // CHECK: %{{.*}}:2 = "onnx.custom"() {domain = "ai.onnc.test", op_type = "TwoOutputs", operandSegmentSizes = array<i32: 0,{{.*}}>, resultSegmentSizes = array<i32: 1, 1, 0,{{.*}}>} : () -> (tensor<2xf32>, tensor<3xi8>)
  %1:2 = "onnx.custom"() {op_type = "TwoOutputs", domain = "ai.onnc.test", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : () -> (tensor<2xf32>, tensor<3xi8>)
  return
}
