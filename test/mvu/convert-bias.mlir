// RUN: onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-mvu{aprec=2 wprec=2 oprec=2})' | FileCheck %s
// RUN: onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-mvu{aprec=2 wprec=2 oprec=2})' | FileCheck %s --check-prefix=FLOAT

// A conv's bias is what the configuration loads into the MVU's bias RAM: `c` of the
// scaler's `acc · b + c`, in accumulator units, round(B / weight scale). Here the 2-bit
// weights are unsigned (mul_mode 1: {0, +1}), 0.5 becomes the code 3 (scale 0.5/3), so the
// bias 2.0 is 12 units: the op's `bias` operand is an i32 constant of 12s.
// CHECK: %[[W:.*]] = arith.constant dense_resource<[[WN:.*]]> : tensor<64x64x3x3xi8>
// CHECK: %[[B:.*]] = arith.constant dense_resource<[[BN:.*]]> : tensor<64xi32>
// CHECK: "mvu.conv"(%arg0, %[[W]], %[[B]]) {{{.*}}mul_mode = 1 : i64{{.*}}operandSegmentSizes = array<i32: 1, 1, 0, 1>
// CHECK: [[WN]]: "0x01000000030303
// CHECK: [[BN]]: "0x040000000C0000000C000000
// The float bias and weight scale stay on the op too (what the configuration writer
// reads): bias_values 2.0 per channel, weight_scales 0.5/3.
// FLOAT: "mvu.conv"({{.*}}bias_values = array<f32: 2.000000e+00, {{.*}}onnx_op = "Conv"{{.*}}relu = 1 : i64{{.*}}weight_scales = array<f32: 0.166666672>
func.func @main_graph(%x: tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
  %w = "onnx.constant"() {value = dense<0.5> : tensor<64x64x3x3xf32>} : () -> tensor<64x64x3x3xf32>
  %b = "onnx.constant"() {value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
  %c = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x64x8x8xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
  %y = "onnx.relu"(%c) : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  return %y : tensor<1x64x8x8xf32>
}
