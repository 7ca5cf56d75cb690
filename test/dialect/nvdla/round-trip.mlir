// RUN: onnc-opt %s | onnc-opt | FileCheck %s

// Every nvdla op parses, verifies, prints in generic form and parses again. CTable register
// names (`in_cvt.scale`, `x1_op.shift_value`, `y_op.cvt.alu_cvt.enable`, ...) are the attribute
// names themselves: they must print bare and unchanged, so --gen-ctable can use them verbatim.

// LeNet's first layer on nv_small (int8): CONV -> SDP (per-kernel bias, ReLU, requantisation)
// -> PDP. Register values from NVIDIA's nv_small LeNet golden loadable (nvdla/sw).
// CHECK-LABEL: func.func @lenet_conv1
func.func @lenet_conv1(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>, %bias: tensor<20xi16>) -> tensor<1x20x12x12xi8> {
  // CHECK: %[[ACC:.*]] = "nvdla.conv"(%{{.*}}, %{{.*}}) {conv_mode = "direct", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, data_format = "feature", dilation_x = 1 : i64, dilation_y = 1 : i64, hw_layer = "conv1", in_cvt.enable = 0 : i64, in_cvt.offset = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_precision = "int8", mean_ax = 0 : i64, mean_bv = 0 : i64, mean_format = 0 : i64, mean_gu = 0 : i64, mean_ry = 0 : i64, out_cvt.truncate = 0 : i64, out_precision = "int8", pad_val = 0 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_bottom = 0 : i64, pad_y_top = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  // CHECK: %[[SDP:.*]] = "nvdla.sdp"(%[[ACC]], %{{.*}}) {dst_precision = "int8", hw_layer = "conv1", lut_index = -1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, src_precision = "int8"
  // CHECK-SAME: x1_op.act = "relu", x1_op.alu_operand = 0 : i64, x1_op.alu_type = "sum", x1_op.enable = 1 : i64, x1_op.mode = "per_kernel", x1_op.mul_operand = 1 : i64, x1_op.precision = "int16", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.type = "add"
  // CHECK-SAME: x2_op.enable = 0 : i64
  // CHECK-SAME: y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64
  // CHECK-SAME: : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  %act = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  // CHECK: "nvdla.pdp"(%[[SDP]]) {hw_layer = "pool1", pad_bottom = 0 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pool_height = 2 : i64, pool_mode = "max", pool_width = 2 : i64, precision = "int8", stride_x = 2 : i64, stride_y = 2 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  %pool = "nvdla.pdp"(%act) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
      stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return %pool : tensor<1x20x12x12xi8>
}

// Image-mode convolution: the input converter and the mean registers are live.
// CHECK-LABEL: func.func @image_mode_conv
func.func @image_mode_conv(%img: tensor<1x4x224x224xi8>, %w: tensor<64x4x7x7xi8>) -> tensor<1x64x112x112xi32> {
  // CHECK: "nvdla.conv"
  // CHECK-SAME: data_format = "t_r8g8b8a8"
  // CHECK-SAME: in_cvt.enable = 1 : i64, in_cvt.offset = -128 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64
  // CHECK-SAME: mean_ax = 0 : i64, mean_bv = 104 : i64, mean_format = 1 : i64, mean_gu = 117 : i64, mean_ry = 124 : i64, out_cvt.truncate = 4 : i64
  // CHECK-SAME: pad_x_left = 3 : i64
  %y = "nvdla.conv"(%img, %w) {hw_layer = "conv0", conv_mode = "direct", data_format = "t_r8g8b8a8", in_precision = "int8", out_precision = "int8", conv_stride_x = 2 : i64, conv_stride_y = 2 : i64,
      pad_x_left = 3 : i64, pad_x_right = 3 : i64, pad_y_top = 3 : i64, pad_y_bottom = 3 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 1 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, in_cvt.offset = -128 : i64, mean_ry = 124 : i64, mean_gu = 117 : i64, mean_bv = 104 : i64,
      mean_ax = 0 : i64, mean_format = 1 : i64, out_cvt.truncate = 4 : i64}
      : (tensor<1x4x224x224xi8>, tensor<64x4x7x7xi8>) -> tensor<1x64x112x112xi32>
  return %y : tensor<1x64x112x112xi32>
}

// SDP with all three operand cubes (a four-input Sum, as ONNC emits it) and live Y converters.
// CHECK-LABEL: func.func @sdp_sum4
func.func @sdp_sum4(%a: tensor<1x64x8x8xf16>, %b: tensor<1x64x8x8xf16>, %c: tensor<1x64x8x8xf16>, %d: tensor<1x64x8x8xf16>) -> tensor<1x64x8x8xf16> {
  // CHECK: "nvdla.sdp"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {dst_precision = "fp16"{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1>
  // CHECK-SAME: y_op.act = "relu"
  // CHECK-SAME: y_op.cvt.alu_cvt.enable = 1 : i64, y_op.cvt.alu_cvt.offset = -3 : i64, y_op.cvt.alu_cvt.scale = 300 : i64, y_op.cvt.alu_cvt.truncate = 8 : i64
  // CHECK-SAME: y_op.cvt.mul_cvt.enable = 1 : i64, y_op.cvt.mul_cvt.offset = 2 : i64, y_op.cvt.mul_cvt.scale = -7 : i64, y_op.cvt.mul_cvt.truncate = 9 : i64
  %y = "nvdla.sdp"(%a, %b, %c, %d) {hw_layer = "res2a", src_precision = "fp16", dst_precision = "fp16", lut_index = -1 : i64,
      x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_point", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "fp16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 1 : i64, x2_op.alu_type = "sum", x2_op.type = "add", x2_op.mode = "per_point", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "fp16", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 1 : i64, y_op.alu_type = "sum", y_op.type = "add", y_op.mode = "per_point", y_op.act = "relu", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "fp16", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 1 : i64, y_op.cvt.alu_cvt.offset = -3 : i64, y_op.cvt.alu_cvt.scale = 300 : i64, y_op.cvt.alu_cvt.truncate = 8 : i64,
      y_op.cvt.mul_cvt.enable = 1 : i64, y_op.cvt.mul_cvt.offset = 2 : i64, y_op.cvt.mul_cvt.scale = -7 : i64, y_op.cvt.mul_cvt.truncate = 9 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x64x8x8xf16>, tensor<1x64x8x8xf16>, tensor<1x64x8x8xf16>, tensor<1x64x8x8xf16>) -> tensor<1x64x8x8xf16>
  return %y : tensor<1x64x8x8xf16>
}

// SDP alone (no operand cube): per-layer immediates, LUT activation.
// CHECK-LABEL: func.func @sdp_per_layer_lut
func.func @sdp_per_layer_lut(%a: tensor<1x16x4x4xi16>) -> tensor<1x16x4x4xi16> {
  // CHECK: "nvdla.sdp"(%{{.*}}) {dst_precision = "int16", hw_layer = "sig1", lut_index = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0>
  // CHECK-SAME: x1_op.act = "lut", x1_op.alu_operand = -12 : i64, x1_op.alu_type = "sum", x1_op.enable = 1 : i64, x1_op.mode = "per_layer", x1_op.mul_operand = 77 : i64, x1_op.precision = "int16", x1_op.shift_value = 3 : i64, x1_op.truncate = 5 : i64, x1_op.type = "both"
  %y = "nvdla.sdp"(%a) {hw_layer = "sig1", src_precision = "int16", dst_precision = "int16", lut_index = 0 : i64,
      x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "both", x1_op.mode = "per_layer", x1_op.act = "lut", x1_op.shift_value = 3 : i64, x1_op.truncate = 5 : i64, x1_op.precision = "int16", x1_op.alu_operand = -12 : i64, x1_op.mul_operand = 77 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 0, 0, 0>}
      : (tensor<1x16x4x4xi16>) -> tensor<1x16x4x4xi16>
  return %y : tensor<1x16x4x4xi16>
}

// LRN on the CDP with its LUT registers (AlexNet norm1, int8; converter values from ONNC's
// nv_small LRN).
// CHECK-LABEL: func.func @cdp_lrn
func.func @cdp_lrn(%x: tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8> {
  // CHECK: "nvdla.cdp"(%{{.*}}) {alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, bypass_out_mul = 0 : i64, bypass_sqsum = 0 : i64, hw_layer = "norm1", in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, in_precision = "int8", local_size = 5 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_end = 1073741824 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, out_precision = "int8"} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64,
      bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32,
      in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64,
      lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return %y : tensor<1x96x55x55xi8>
}

// ShuffleNet's channel shuffle as ONNC builds it: RUBIK split, BDMA copy, RUBIK merge.
// Then softmax on the CPU emulator.
// CHECK-LABEL: func.func @rubik_bdma_emu
func.func @rubik_bdma_emu(%x: tensor<1x240x28x28xf16>, %p: tensor<1x1000x1x1xf16>) -> (tensor<1x240x28x28xf16>, tensor<1x1000x1x1xf16>) {
  // CHECK: %[[S:.*]] = "nvdla.rubik"(%{{.*}}) {hw_layer = "shuffle3", mode = "split", precision = "fp16", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x240x28x28xf16>) -> tensor<1x240x28x28xf16>
  %s = "nvdla.rubik"(%x) {hw_layer = "shuffle3", precision = "fp16", mode = "split", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x240x28x28xf16>) -> tensor<1x240x28x28xf16>
  // CHECK: %[[C:.*]] = "nvdla.bdma"(%[[S]]) {destination_type = "mc", hw_layer = "shuffle3", source_type = "mc"} : (tensor<1x240x28x28xf16>) -> tensor<1x240x28x28xf16>
  %c = "nvdla.bdma"(%s) {hw_layer = "shuffle3", source_type = "mc", destination_type = "mc"} : (tensor<1x240x28x28xf16>) -> tensor<1x240x28x28xf16>
  // CHECK: "nvdla.rubik"(%[[C]]) {hw_layer = "shuffle3", mode = "merge"
  %m = "nvdla.rubik"(%c) {hw_layer = "shuffle3", precision = "fp16", mode = "merge", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x240x28x28xf16>) -> tensor<1x240x28x28xf16>
  // The op-specific `axis` rides along as a discardable attribute.
  // CHECK: "nvdla.emu"(%{{.*}}) {axis = 1 : i64, hw_layer = "prob", input_scale_factor = 0.117577791 : f32, op_type = "softmax", output_scale_factor = 0.00787401571 : f32, precision = "fp16"}
  %e = "nvdla.emu"(%p) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 0.11757779121398926 : f32,
      output_scale_factor = 0.007874015718698502 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return %m, %e : tensor<1x240x28x28xf16>, tensor<1x1000x1x1xf16>
}

// A depthwise conv keeps its grouped kernel (32 x 1 x 3 x 3) and its group count.
// CHECK-LABEL: func.func @depthwise
// CHECK: "nvdla.conv"(%{{.*}}, %{{.*}}) {{.*}}group = 32 : i64{{.*}} : (tensor<1x32x8x8xf16>, tensor<32x1x3x3xf16>) -> tensor<1x32x6x6xf32>
func.func @depthwise(%x: tensor<1x32x8x8xf16>, %w: tensor<32x1x3x3xf16>) -> tensor<1x32x6x6xf32> {
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "dw", group = 32 : i64, conv_mode = "direct", data_format = "feature", in_precision = "fp16", out_precision = "fp16", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x32x8x8xf16>, tensor<32x1x3x3xf16>) -> tensor<1x32x6x6xf32>
  return %acc : tensor<1x32x6x6xf32>
}
