// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// The virtual view ops (nvdla.concat / nvdla.reshape / nvdla.slice) and the configuration
// rules that read the module's nvdla.config (dialects/src/verify/nvdla_config.rs).

// Valid views on nv_full.
module attributes {nvdla.config = "nv_full"} {
  func.func @views(%a: tensor<1x16x8x8xf16>, %b: tensor<1x32x8x8xf16>, %v: tensor<1x1000x1x1xf16>) -> (tensor<1x48x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x1000xf16>) {
    %c = "nvdla.concat"(%a, %b) {hw_layer = "cat", axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
        : (tensor<1x16x8x8xf16>, tensor<1x32x8x8xf16>) -> tensor<1x48x8x8xf16>
    %s = "nvdla.slice"(%b) {hw_layer = "half", c_start = 16 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x16x8x8xf16>
    %r = "nvdla.reshape"(%v) {hw_layer = "flat"} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000xf16>
    return %c, %s, %r : tensor<1x48x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x1000xf16>
  }
}

// -----

func.func @concat_channels(%a: tensor<1x16x8x8xf16>, %b: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{output has 40 channels but the members have 48 in all}}
  %c = "nvdla.concat"(%a, %b) {hw_layer = "cat", axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (tensor<1x16x8x8xf16>, tensor<1x32x8x8xf16>) -> tensor<1x40x8x8xf16>
  return
}

// -----

func.func @concat_spatial(%a: tensor<1x16x8x8xf16>, %b: tensor<1x32x4x4xf16>) {
  // expected-error @+1 {{member 1 has shape [1, 32, 4, 4] but every member needs the output's N, H and W [1, 48, 8, 8]}}
  %c = "nvdla.concat"(%a, %b) {hw_layer = "cat", axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (tensor<1x16x8x8xf16>, tensor<1x32x4x4xf16>) -> tensor<1x48x8x8xf16>
  return
}

// -----

func.func @slice_window(%b: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{channel window [24, 40) exceeds the input's 32 channels}}
  %s = "nvdla.slice"(%b) {hw_layer = "half", c_start = 24 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x16x8x8xf16>
  return
}

// -----

func.func @slice_negative(%b: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{c_start = -16 must be >= 0}}
  %s = "nvdla.slice"(%b) {hw_layer = "half", c_start = -16 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x16x8x8xf16>
  return
}

// -----

func.func @reshape_count(%v: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{output has 999 elements but the input has 1000}}
  %r = "nvdla.reshape"(%v) {hw_layer = "flat"} : (tensor<1x1000x1x1xf16>) -> tensor<1x999xf16>
  return
}

// -----

// nv_small runs INT8 only.
module attributes {nvdla.config = "nv_small"} {
  func.func @fp16_on_small(%x: tensor<1x16x8x8xf16>) {
    // expected-error @+1 {{precision "fp16" is not supported by nv_small (it runs int8)}}
    %y = "nvdla.pdp"(%x) {hw_layer = "pool", precision = "fp16", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
        stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
        : (tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16>
    return
  }
}

// -----

// nv_large has no RUBIK.
module attributes {nvdla.config = "nv_large"} {
  func.func @rubik_on_large(%x: tensor<1x32x8x8xi8>) {
    // expected-error @+1 {{nv_large has no RUBIK engine}}
    %y = "nvdla.rubik"(%x) {hw_layer = "rbk", precision = "int8", mode = "contract", stride_x = 1 : i64, stride_y = 1 : i64}
        : (tensor<1x32x8x8xi8>) -> tensor<1x32x8x8xi8>
    return
  }
}

// -----

// nv_small has no SDP lookup table.
module attributes {nvdla.config = "nv_small"} {
  func.func @lut_on_small(%a: tensor<1x16x4x4xi8>) {
    // expected-error @+1 {{y_op.act = "lut" but nv_small has no SDP lookup table}}
    %y = "nvdla.sdp"(%a) {hw_layer = "sig1", src_precision = "int8", dst_precision = "int8", lut_index = 0 : i64, x1_op.enable = 0 : i64, x1_op.alu_type = "sum",
        x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8",
        x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none",
        x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
        x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 1 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
        y_op.act = "lut", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
        y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
        y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
        out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0>}
        : (tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
    return
  }
}

// -----

// nv_small has no SDP Y (EW) unit; its X2 reads a per-point operand cube.
module attributes {nvdla.config = "nv_small"} {
  func.func @eltwise_on_small(%a: tensor<1x16x4x4xi8>, %b: tensor<1x16x4x4xi8>) {
    // expected-error @+1 {{y_op.enable = 1 but nv_small has no SDP Y (EW) unit (use X1 and X2)}}
    %y = "nvdla.sdp"(%a, %b) {hw_layer = "add1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 0 : i64, x1_op.alu_type = "sum",
        x1_op.type = "none", x1_op.mode = "per_layer", x1_op.act = "none", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int8",
        x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 1 : i64, x2_op.alu_type = "sum", x2_op.type = "add",
        x2_op.mode = "per_point", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8",
        x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 1 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer",
        y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
        y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
        y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
        out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64, out_cvt.truncate = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>}
        : (tensor<1x16x4x4xi8>, tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
    return
  }
}

// -----

// nv_large has no BDMA.
module attributes {nvdla.config = "nv_large"} {
  func.func @bdma_on_large(%x: tensor<1x32x8x8xi8>) {
    // expected-error @+1 {{nv_large has no BDMA engine}}
    %y = "nvdla.bdma"(%x) {hw_layer = "copy1", source_type = "mc", destination_type = "mc"} : (tensor<1x32x8x8xi8>) -> tensor<1x32x8x8xi8>
    return
  }
}

// -----

// nv_small runs batch 1 only; nv_full up to 32.
module attributes {nvdla.config = "nv_small"} {
  func.func @batch_on_small(%x: tensor<2x16x8x8xi8>) {
    // expected-error @+1 {{batch 2 exceeds nv_small's maximum of 1}}
    %y = "nvdla.pdp"(%x) {hw_layer = "pool", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
        stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
        : (tensor<2x16x8x8xi8>) -> tensor<2x16x4x4xi8>
    return
  }
}
