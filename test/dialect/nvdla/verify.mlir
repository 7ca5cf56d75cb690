// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// The Rust semantic rules of the nvdla dialect (dialects/src/verify/nvdla.rs): one chunk per
// rule. The first chunk holds valid ops of every kind that pass all rules; each later chunk
// breaks one rule of a valid op. Ranges: the op doc blocks in dialects/nvdla.irdl.mlir
// (ONNC's CTable register table and the dla_interface.h fields).

// Valid ops that pass every rule, several at the edges of their ranges. (bn1: a per-kernel
// cube of type both packs scale and bias; its layout is not checked.)
func.func @valid(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>, %bias: tensor<20xi16>, %img: tensor<1x4x224x224xi8>, %w7: tensor<64x4x7x7xi8>,
                 %a16: tensor<1x16x4x4xi16>, %f: tensor<1x64x8x8xf16>, %k: tensor<1x64x1x1xf16>, %n: tensor<1x96x55x55xi8>, %v: tensor<1x512x8x8xf16>,
                 %p1: tensor<1x1000x1x1xf16>, %bn: tensor<40xi16>) {
  %c = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  %s = "nvdla.sdp"(%c, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  %p = "nvdla.pdp"(%s) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  %i = "nvdla.conv"(%img, %w7) {hw_layer = "conv0", conv_mode = "direct", data_format = "t_r8g8b8a8", in_precision = "int8", out_precision = "int8", conv_stride_x = 2 : i64,
      conv_stride_y = 2 : i64, pad_x_left = 3 : i64, pad_x_right = 3 : i64, pad_y_top = 3 : i64, pad_y_bottom = 3 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = -32768 : i64, in_cvt.enable = 1 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      in_cvt.offset = -128 : i64, mean_ry = 124 : i64, mean_gu = 117 : i64, mean_bv = 104 : i64, mean_ax = 0 : i64, mean_format = 1 : i64,
      out_cvt.truncate = 16 : i64}
      : (tensor<1x4x224x224xi8>, tensor<64x4x7x7xi8>) -> tensor<1x64x112x112xi32>
  %d = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 31 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 31 : i64, dilation_x = 2 : i64,
      dilation_y = 2 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x51x51xi32>
  %l = "nvdla.sdp"(%a16) {hw_layer = "sig1", src_precision = "int16", dst_precision = "int16", lut_index = 255 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "both", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 63 : i64, x1_op.truncate = 63 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = -2147483648 : i64, x1_op.mul_operand = 2147483647 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 1 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "lut", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = -2147483648 : i64, out_cvt.scale = -32768 : i64, out_cvt.truncate = 63 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0>}
      : (tensor<1x16x4x4xi16>) -> tensor<1x16x4x4xi16>
  %e = "nvdla.sdp"(%f, %f, %k, %f) {hw_layer = "res2a", src_precision = "fp16", dst_precision = "fp16", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_point", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "fp16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 1 : i64, x2_op.alu_type = "sum", x2_op.type = "mul",
      x2_op.mode = "per_kernel", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "fp16",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 1 : i64, y_op.alu_type = "sum", y_op.type = "add", y_op.mode = "per_point",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "fp16", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 1 : i64, y_op.cvt.alu_cvt.offset = -32768 : i64, y_op.cvt.alu_cvt.scale = 32767 : i64,
      y_op.cvt.alu_cvt.truncate = 63 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x64x8x8xf16>, tensor<1x64x8x8xf16>, tensor<1x64x1x1xf16>, tensor<1x64x8x8xf16>) -> tensor<1x64x8x8xf16>
  %bn1 = "nvdla.sdp"(%c, %bn) {hw_layer = "bn1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "both", x1_op.mode = "per_kernel", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<40xi16>) -> tensor<1x20x24x24xi8>
  %q = "nvdla.pdp"(%s) {hw_layer = "pool1", precision = "int8", pool_mode = "avg", pool_width = 8 : i64, pool_height = 3 : i64, stride_x = 8 : i64, stride_y = 1 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 7 : i64, pad_bottom = 1 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x30x3xi8>
  %r = "nvdla.cdp"(%n) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = -128 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 31 : i64,
      out_cvt.offset = -16777216 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 274877906943 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  %u = "nvdla.rubik"(%v) {hw_layer = "shuffle3", precision = "fp16", mode = "contract", stride_x = 2 : i64, stride_y = 8 : i64}
      : (tensor<1x512x8x8xf16>) -> tensor<1x32x64x16xf16>
  %b = "nvdla.bdma"(%f) {hw_layer = "copy1", source_type = "mc", destination_type = "cv"}
      : (tensor<1x64x8x8xf16>) -> tensor<1x64x8x8xf16>
  %m = "nvdla.emu"(%p1) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, axis = 1 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  %pw = "nvdla.emu"(%p1) {hw_layer = "prob", op_type = "power", precision = "int8", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, power = 2.0 : f32,
      scale = 0.5 : f32, shift = 1.0 : f32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  %lg = "nvdla.emu"(%p1) {hw_layer = "prob", op_type = "log", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @conv_stride_x(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op conv_stride_x = 9 is out of range [1, 8]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 9 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x3xi32>
  return
}

// -----

func.func @conv_stride_y(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{conv_stride_y = 0 is out of range [1, 8]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 0 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_pad_x_left(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{pad_x_left = 32 is out of range [0, 31]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 32 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x56xi32>
  return
}

// -----

func.func @conv_pad_x_right(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{pad_x_right = -1 is out of range [0, 31]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = -1 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x23xi32>
  return
}

// -----

func.func @conv_pad_y_top(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{pad_y_top = 32 is out of range [0, 31]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 32 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x56x24xi32>
  return
}

// -----

func.func @conv_pad_y_bottom(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{pad_y_bottom = 40 is out of range [0, 31]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 40 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x64x24xi32>
  return
}

// -----

func.func @conv_dilation_x(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{dilation_x = 33 is out of range [1, 32]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 33 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_dilation_y(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{dilation_y = 0 is out of range [1, 32]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 0 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x?x24xi32>
  return
}

// -----

func.func @conv_pad_val(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{pad_val = 32768 is out of range [-32768, 32767]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 32768 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_in_cvt_scale(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{in_cvt.scale = -32769 is out of range [-32768, 32767]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = -32769 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_in_cvt_truncate(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{in_cvt.truncate = 64 is out of range [0, 63]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 64 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_in_cvt_offset(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{in_cvt.offset = 40000 is out of range [-32768, 32767]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 40000 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_mean_ry(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{mean_ry = -1 is out of range [0, 65535]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = -1 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_mean_gu(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{mean_gu = 65536 is out of range [0, 65535]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 65536 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_mean_bv(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{mean_bv = 70000 is out of range [0, 65535]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 70000 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_mean_ax(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{mean_ax = -5 is out of range [0, 65535]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = -5 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

// Direct mode: the 34-bit sum is cut to 32 bits, so at most 16 bits of right shift (CTable seed: 0~16).
func.func @conv_out_cvt_truncate(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{out_cvt.truncate = 17 is out of range [0, 16]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 17 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_data_format(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{data_format "rgb" is neither "feature" nor an image format}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "rgb", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

// Image formats are lowercase firmware names.
func.func @conv_data_format_case(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{data_format "T_R8G8B8A8" is neither}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "T_R8G8B8A8", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_hw_layer_empty(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op hw_layer must not be empty}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_i32_register(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{attribute 'in_cvt.truncate' must be a 64-bit integer (i64), got i32}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i32, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_weight_channels(%x: tensor<1x3x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{weight has 1 input channels but the input has 3 (a grouped conv's weight is K x C/group x R x S)}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x3x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_group_channels(%x: tensor<1x6x28x28xi8>, %w: tensor<20x2x5x5xi8>) {
  // expected-error @+1 {{weight has 2 input channels per group × 2 groups but the input has 6 (a grouped conv's weight is K x C/group x R x S)}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", group = 2 : i64, conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x6x28x28xi8>, tensor<20x2x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_group_kernels(%x: tensor<1x6x28x28xi8>, %w: tensor<20x2x5x5xi8>) {
  // expected-error @+1 {{weight has 20 kernels, not a multiple of group = 3}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", group = 3 : i64, conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x6x28x28xi8>, tensor<20x2x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_group_zero(%x: tensor<1x6x28x28xi8>, %w: tensor<20x6x5x5xi8>) {
  // expected-error @+1 {{group = 0 must be >= 1}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", group = 0 : i64, conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x6x28x28xi8>, tensor<20x6x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_output_shape(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{output shape [1, 20, 24, 23] does not match the convolution's [1, 20, 24, 24]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x23xi32>
  return
}

// -----

func.func @conv_output_channels(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{output shape [1, 16, 24, 24] does not match the convolution's [1, 20, 24, 24]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x16x24x24xi32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{input must have rank 4, got rank 3 [1, 28, 28]}}
  %0 = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64,
      conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64,
      dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
      mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64}
      : (tensor<1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @sdp_x1_shift_value(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x1_op.shift_value = 64 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 64 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x1_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x1_op.truncate = -1 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = -1 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x1_alu_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x1_op.alu_operand = 2147483648 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 2147483648 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x1_mul_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x1_op.mul_operand = -2147483649 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = -2147483649 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x2_shift_value(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x2_op.shift_value = 64 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 64 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x2_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x2_op.truncate = -1 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = -1 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x2_alu_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x2_op.alu_operand = 2147483648 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 2147483648 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none",
      y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_x2_mul_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x2_op.mul_operand = -2147483649 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = -2147483649 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none",
      y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_y_shift_value(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.shift_value = 64 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 64 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_y_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.truncate = -1 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = -1 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_y_alu_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.alu_operand = 2147483648 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 2147483648 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_y_mul_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.mul_operand = -2147483649 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = -2147483649 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_alu_cvt_offset(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.cvt.alu_cvt.offset = 32768 is out of range [-32768, 32767]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 32768 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_alu_cvt_scale(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.cvt.alu_cvt.scale = -40000 is out of range [-32768, 32767]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = -40000 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_alu_cvt_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.cvt.alu_cvt.truncate = 64 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 64 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_mul_cvt_offset(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.cvt.mul_cvt.offset = 32768 is out of range [-32768, 32767]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 32768 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_mul_cvt_scale(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.cvt.mul_cvt.scale = -40000 is out of range [-32768, 32767]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = -40000 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_mul_cvt_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.cvt.mul_cvt.truncate = 64 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 64 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_out_cvt_offset(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{out_cvt.offset = 2147483648 is out of range [-2147483648, 2147483647]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 2147483648 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

// out_cvt.scale is int16 (33 -> 49 bits).
func.func @sdp_out_cvt_scale(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{out_cvt.scale = 32768 is out of range [-32768, 32767]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 32768 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_out_cvt_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{out_cvt.truncate = 64 is out of range [0, 63]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 64 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_lut_index_high(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{lut_index = 256 is out of range [-1, 255]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = 256 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_lut_index_low(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{lut_index = -2 is out of range [-1, 255]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -2 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_lut_act_without_lut(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{y_op.act = "lut" needs a LUT but lut_index = -1}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "lut", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
      y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
      y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_missing_cube(%acc: tensor<1x20x24x24xi32>) {
  // expected-error @+1 {{x1 operand cube is missing: x1_op is enabled with type "add" in per_kernel mode}}
  %0 = "nvdla.sdp"(%acc) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 0, 0, 0>}
      : (tensor<1x20x24x24xi32>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_unused_cube(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x2 operand cube is given but x2_op does not read one}}
  %0 = "nvdla.sdp"(%acc, %bias, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

// A sub-unit in per_layer mode uses its immediates, not a cube.
func.func @sdp_per_layer_cube(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{x1 operand cube is given but x1_op does not read one}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_layer", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_per_kernel_shape(%acc: tensor<1x20x24x24xi32>, %bias: tensor<16xi16>) {
  // expected-error @+1 {{x1 operand cube has shape [16] but per_kernel mode needs one entry per channel ([C] or [1, C, 1, 1], C = 20)}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<16xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_per_point_shape(%acc: tensor<1x20x24x24xi32>, %b: tensor<1x20x12x12xi16>) {
  // expected-error @+1 {{x1 operand cube has shape [1, 20, 12, 12] but per_point mode needs the input's shape [1, 20, 24, 24]}}
  %0 = "nvdla.sdp"(%acc, %b) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_point", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<1x20x12x12xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_output_shape(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{output shape [1, 20, 12, 12] differs from input shape [1, 20, 24, 24]}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @sdp_hw_layer_empty(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op hw_layer must not be empty}}
  %0 = "nvdla.sdp"(%acc, %bias) {hw_layer = "", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum",
      x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16",
      x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
      x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
      x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
      y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64,
      y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64,
      y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64,
      y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @pdp_pool_width(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{pool_width = 9 is out of range [1, 8]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 9 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x8xi8>
  return
}

// -----

func.func @pdp_pool_height(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{pool_height = 0 is out of range [1, 8]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 0 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x13x12xi8>
  return
}

// -----

func.func @pdp_stride_x(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{stride_x = 0 is out of range [1, 8]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 0 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_stride_y(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{stride_y = 9 is out of range [1, 8]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 9 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x3x12xi8>
  return
}

// -----

func.func @pdp_pad_left(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{pad_left = 8 is out of range [0, 7]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 8 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x16xi8>
  return
}

// -----

func.func @pdp_pad_right(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{pad_right = -1 is out of range [0, 7]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = -1 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x?xi8>
  return
}

// -----

func.func @pdp_pad_top(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{pad_top = 10 is out of range [0, 7]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 10 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x17x12xi8>
  return
}

// -----

func.func @pdp_pad_bottom(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{pad_bottom = 8 is out of range [0, 7]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 8 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x16x12xi8>
  return
}

// -----

func.func @pdp_output_shape(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{output shape [1, 20, 11, 12] does not match the pooling's [1, 20, 12, 12]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x11x12xi8>
  return
}

// -----

func.func @pdp_output_rank(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{output must have rank 4, got rank 2 [20, 144]}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<20x144xi8>
  return
}

// -----

func.func @pdp_hw_layer_empty(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op hw_layer must not be empty}}
  %0 = "nvdla.pdp"(%x) {hw_layer = "", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64,
      pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
      : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @cdp_precisions_differ(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{in_precision "int8" and out_precision "int16" must be equal}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int16", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

// CDP's input offset is int8 (8 -> 9 bits), unlike CONV's int16.
func.func @cdp_in_cvt_offset(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{in_cvt.offset = 128 is out of range [-128, 127]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 128 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_in_cvt_scale(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{in_cvt.scale = 32768 is out of range [-32768, 32767]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 32768 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_in_cvt_truncate(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{in_cvt.truncate = 32 is out of range [0, 31]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 32 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_out_cvt_offset(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{out_cvt.offset = 16777216 is out of range [-16777216, 16777215]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 16777216 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_out_cvt_scale(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{out_cvt.scale = -32769 is out of range [-32768, 32767]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = -32769 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_out_cvt_truncate(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{out_cvt.truncate = 64 is out of range [0, 63]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 64 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

// CDP always needs its LUT.
func.func @cdp_lut_index(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{lut_index = -1 is out of range [0, 255]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = -1 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_exp_offset(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{lut_param.linear_exp_offset.exp_offset = 128 is out of range [-128, 127]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 128 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_frac_bits(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{lut_param.linear_only_offset.frac_bits = -129 is out of range [-128, 127]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -129 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_linear_only_start(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{lut_param.linear_only_start = -1 is out of range [0, 274877906943]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = -1 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_linear_only_end(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{lut_param.linear_only_end = 274877906944 is out of range [0, 274877906943]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 274877906944 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_linear_only_order(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{lut_param.linear_only_start = 2048 exceeds lut_param.linear_only_end = 1024}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 2048 : i64,
      lut_param.linear_only_end = 1024 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_alpha_f64(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{attribute 'alpha' must be an f32 float, got f64}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f64, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_output_shape(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{output shape [1, 96, 27, 27] differs from input shape [1, 96, 55, 55]}}
  %0 = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64,
      alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
      out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
      lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = -3 : i64, lut_param.linear_only_start = 0 : i64,
      lut_param.linear_only_end = 1073741824 : i64}
      : (tensor<1x96x55x55xi8>) -> tensor<1x96x27x27xi8>
  return
}

// -----

func.func @rubik_contract_stride(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{stride_x = 9 is out of range [1, 8]}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "shuffle3", precision = "fp16", mode = "contract", stride_x = 9 : i64, stride_y = 1 : i64}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_contract_stride_zero(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{stride_y = 0 is out of range [1, 8]}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "shuffle3", precision = "fp16", mode = "contract", stride_x = 1 : i64, stride_y = 0 : i64}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_split_stride(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{stride_y = 2 must be 1 outside contract mode}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "shuffle3", precision = "fp16", mode = "split", stride_x = 1 : i64, stride_y = 2 : i64}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_merge_stride(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{stride_x = 4 must be 1 outside contract mode}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "shuffle3", precision = "fp16", mode = "merge", stride_x = 4 : i64, stride_y = 1 : i64}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

// Contract reads sx·sy phases of at least the output's channels (whole atoms: 3
// channels are padded to 16) and grows H and W by the strides.
func.func @rubik_contract_padded_phases(%x: tensor<1x64x5x6xf16>) -> tensor<1x3x10x12xf16> {
  %0 = "nvdla.rubik"(%x) {hw_layer = "up", precision = "fp16", mode = "contract", stride_x = 2 : i64, stride_y = 2 : i64}
      : (tensor<1x64x5x6xf16>) -> tensor<1x3x10x12xf16>
  return %0 : tensor<1x3x10x12xf16>
}

// -----

func.func @rubik_contract_shape(%x: tensor<1x64x5x6xf16>) {
  // expected-error @+1 {{contract 2×2 of [1, 64, 5, 6] cannot give [1, 3, 10, 11]}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "up", precision = "fp16", mode = "contract", stride_x = 2 : i64, stride_y = 2 : i64}
      : (tensor<1x64x5x6xf16>) -> tensor<1x3x10x11xf16>
  return
}

// -----

func.func @rubik_element_count(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{output has 1024 elements but the input has 2048 (rubik only moves data)}}
  %0 = "nvdla.rubik"(%x) {hw_layer = "shuffle3", precision = "fp16", mode = "split", stride_x = 1 : i64, stride_y = 1 : i64}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x4xf16>
  return
}

// -----

func.func @bdma_output_shape(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{output shape [1, 32, 4, 8] differs from input shape [1, 32, 8, 8]}}
  %0 = "nvdla.bdma"(%x) {hw_layer = "copy1", source_type = "mc", destination_type = "cv"}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x4x8xf16>
  return
}

// -----

func.func @bdma_hw_layer_empty(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.bdma' op hw_layer must not be empty}}
  %0 = "nvdla.bdma"(%x) {hw_layer = "", source_type = "mc", destination_type = "cv"}
      : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

// axis is not declared in IRDL (it depends on op_type); the Rust verifier requires it.
func.func @emu_softmax_missing_axis(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{op_type "softmax" needs an i64 attribute 'axis'}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_softmax_axis(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{axis = 2 must be 1 (the emulator's softmax runs over channels)}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, axis = 2 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_softmax_axis_i32(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{attribute 'axis' must be a 64-bit integer (i64), got i32}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, axis = 1 : i32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_power_missing_shift(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{op_type "power" needs an f32 attribute 'shift'}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "power", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, power = 2.0 : f32,
      scale = 1.0 : f32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_power_missing_all(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+3 {{needs an f32 attribute 'power'}}
  // expected-error @+2 {{needs an f32 attribute 'scale'}}
  // expected-error @+1 {{needs an f32 attribute 'shift'}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "power", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_power_f64(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{attribute 'scale' must be an f32 float, got f64}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "power", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, power = 2.0 : f32,
      scale = 1.0 : f64, shift = 0.0 : f32}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_input_scale_factor(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{input_scale_factor = 0 must be a finite value > 0}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 0.0 : f32, output_scale_factor = 1.0 : f32, axis = 1 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_scale_factor_f64(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{attribute 'input_scale_factor' must be an f32 float, got f64}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 0.5 : f64, output_scale_factor = 1.0 : f32, axis = 1 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_output_scale_factor(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{output_scale_factor = -0.5 must be a finite value > 0}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = -0.5 : f32, axis = 1 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_output_shape(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{output shape [1, 10, 1, 1] differs from input shape [1, 1000, 1, 1]}}
  %0 = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, axis = 1 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x10x1x1xf16>
  return
}

// -----

func.func @emu_hw_layer_empty(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{'nvdla.emu' op hw_layer must not be empty}}
  %0 = "nvdla.emu"(%x) {hw_layer = "", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32, axis = 1 : i64}
      : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}
