// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Structural verification of the nvdla dialect, one rule per chunk: operand counts, segment
// sizes, required registers (by their CTable names), attribute kinds and enumerations.
// Register ranges are Rust verifiers.

func.func @conv_one_operand(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{op expects exactly 2 operands, but got 1}}
  %0 = "nvdla.conv"(%x) {hw_layer = "c", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_missing_in_cvt_scale(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_cvt.scale" is expected but not provided}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "c", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64,
      mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

// Register names keep their dots: `in_cvt_scale` is not `in_cvt.scale`.
func.func @conv_underscore_register_name(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_cvt.scale" is expected but not provided}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "c", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64,
      mean_format = 0 : i64, out_cvt.truncate = 0 : i64, in_cvt_scale = 1 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_missing_hw_layer(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "hw_layer" is expected but not provided}}
  %0 = "nvdla.conv"(%x, %w) {conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64,
      pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64,
      in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64,
      mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_hw_layer_is_symbol(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{expected base attribute 'builtin.string' but got 'builtin.symbol_ref'}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = @conv1, conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_precision_int4(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'"int4"' does not satisfy the constraint}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "c", conv_mode = "direct", data_format = "feature", in_precision = "int4", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_mode_unknown(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'"indirect"' does not satisfy the constraint}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "c", conv_mode = "indirect", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_mean_format_two(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'2 : i64' does not satisfy the constraint}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "c", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 2 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @conv_truncate_is_float(%x: tensor<1x8x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "c", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
      pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
      in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64,
      mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 1.0 : f32}
      : (tensor<1x8x8x8xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  return
}

// -----

func.func @sdp_without_segment_sizes(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_five_operands(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute for specifying operand segments must have 4 elements, but got 5}}
  %0 = "nvdla.sdp"(%a, %b, %b, %b, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>, tensor<16xi16>, tensor<16xi16>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_two_x1_operands(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{element 1 in 'operandSegmentSizes' attribute must be equal to 0 or 1}}
  %0 = "nvdla.sdp"(%a, %b, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 2, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_missing_y_alu_cvt_truncate(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.alu_cvt.truncate" is expected but not provided}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_missing_x2_shift_value(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.shift_value" is expected but not provided}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_mode_per_channel(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'"per_channel"' does not satisfy the constraint}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_channel", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_act_sigmoid(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'"sigmoid"' does not satisfy the constraint}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "sigmoid", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_enable_is_bool(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{'true' does not satisfy the constraint}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = true, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_out_cvt_scale_is_float(%a: tensor<1x16x6x6xi32>, %b: tensor<16xi16>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "nvdla.sdp"(%a, %b) {hw_layer = "s", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
      x1_op.enable = 0 : i64, x1_op.alu_type = "sum", x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
      x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
      y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 1.5 : f32, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x16x6x6xi32>, tensor<16xi16>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @pdp_pool_mode_average(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{'"average"' does not satisfy the constraint}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "p", precision = "int8", pool_mode = "average", pool_width = 2 : i64, pool_height = 2 : i64,
      stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x16x4x4xi8>) -> tensor<1x16x2x2xi8>
  return
}

// -----

func.func @pdp_missing_pad_bottom(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pad_bottom" is expected but not provided}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "p", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
      stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64} : (tensor<1x16x4x4xi8>) -> tensor<1x16x2x2xi8>
  return
}

// -----

func.func @pdp_two_results(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{op expects exactly 1 results, but got 2}}
  %0:2 = "nvdla.pdp"(%x) {hw_layer = "p", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
      stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x16x4x4xi8>) -> (tensor<1x16x2x2xi8>, tensor<1x16x2x2xi8>)
  return
}

// -----

func.func @cdp_local_size_four(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{'4 : i64' does not satisfy the constraint}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "n", in_precision = "int8", out_precision = "int8", local_size = 4 : i64, bypass_sqsum = 0 : i64,
      bypass_out_mul = 0 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64,
      in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 0 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 0 : i64}
      : (tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @cdp_alpha_is_int(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{expected base attribute 'builtin.float' but got 'builtin.integer'}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "n", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64,
      bypass_out_mul = 0 : i64, alpha = 1 : i64, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64,
      in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 0 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 0 : i64}
      : (tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @cdp_missing_lut_end(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "lut_param.linear_only_end" is expected but not provided}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "n", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64,
      bypass_out_mul = 0 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64,
      in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 0 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64}
      : (tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  return
}

// -----

// ONNC documents CDP registers as `cdp:in_cvt.offset`; the block prefix is not part of the attribute name.
func.func @cdp_prefixed_register(%x: tensor<1x16x4x4xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "in_cvt.offset" is expected but not provided}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "n", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64,
      bypass_out_mul = 0 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.scale = 1 : i64,
      in_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 0 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 0 : i64, "cdp:in_cvt.offset" = 0 : i64}
      : (tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @rubik_mode_transpose(%x: tensor<1x16x4x4xf16>) {
  // expected-error @+1 {{'"transpose"' does not satisfy the constraint}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "r", precision = "fp16", mode = "transpose", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16>
  return
}

// -----

func.func @rubik_on_memref(%x: memref<1x16x4x4xf16>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.memref'}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "r", precision = "fp16", mode = "split", stride_x = 1 : i64, stride_y = 1 : i64} : (memref<1x16x4x4xf16>) -> tensor<1x16x4x4xf16>
  return
}

// -----

// BDMA cannot target the on-the-fly HW path.
func.func @bdma_destination_hw(%x: tensor<1x16x4x4xf16>) {
  // expected-error @+1 {{'"hw"' does not satisfy the constraint}}
  %0 = "nvdla.bdma"(%x) {hw_layer = "b", source_type = "mc", destination_type = "hw"} : (tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16>
  return
}

// -----

func.func @bdma_missing_source_type(%x: tensor<1x16x4x4xf16>) {
  // expected-error @+1 {{'nvdla.bdma' op attribute "source_type" is expected but not provided}}
  %0 = "nvdla.bdma"(%x) {hw_layer = "b", destination_type = "cv"} : (tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16>
  return
}

// -----

// The emulator only handles int8 and fp16 buffers.
func.func @emu_int16(%x: tensor<1x10x1x1xi16>) {
  // expected-error @+1 {{'"int16"' does not satisfy the constraint}}
  %0 = "nvdla.emu"(%x) {hw_layer = "e", op_type = "softmax", precision = "int16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, axis = 1 : i64} : (tensor<1x10x1x1xi16>) -> tensor<1x10x1x1xi16>
  return
}

// -----

func.func @emu_op_type_relu(%x: tensor<1x10x1x1xf16>) {
  // expected-error @+1 {{'"relu"' does not satisfy the constraint}}
  %0 = "nvdla.emu"(%x) {hw_layer = "e", op_type = "relu", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32} : (tensor<1x10x1x1xf16>) -> tensor<1x10x1x1xf16>
  return
}

// -----

func.func @emu_scale_factor_is_int(%x: tensor<1x10x1x1xf16>) {
  // expected-error @+1 {{expected base attribute 'builtin.float' but got 'builtin.integer'}}
  %0 = "nvdla.emu"(%x) {hw_layer = "e", op_type = "softmax", precision = "fp16", input_scale_factor = 1 : i64, output_scale_factor = 1.0 : f32} : (tensor<1x10x1x1xf16>) -> tensor<1x10x1x1xf16>
  return
}
