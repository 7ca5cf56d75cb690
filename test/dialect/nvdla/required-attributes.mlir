// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Every declared attribute of every nvdla op is required: one chunk per attribute, each
// the op's documented example (from dialects/nvdla.irdl.mlir) with that one attribute
// removed. When an op gains or loses an attribute, add or remove its chunk here.

func.func @conv_without_hw_layer(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "hw_layer" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_conv_mode(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "conv_mode" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_data_format(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "data_format" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_in_precision(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_precision" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_out_precision(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "out_precision" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_conv_stride_x(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "conv_stride_x" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_conv_stride_y(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "conv_stride_y" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_pad_x_left(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "pad_x_left" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_pad_x_right(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "pad_x_right" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_pad_y_top(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "pad_y_top" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_pad_y_bottom(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "pad_y_bottom" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_dilation_x(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "dilation_x" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_dilation_y(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "dilation_y" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_pad_val(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "pad_val" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_in_cvt_enable(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_cvt.enable" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_in_cvt_scale(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_cvt.scale" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_in_cvt_truncate(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_cvt.truncate" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_in_cvt_offset(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "in_cvt.offset" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_mean_ry(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "mean_ry" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_mean_gu(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "mean_gu" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_mean_bv(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "mean_bv" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_mean_ax(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "mean_ax" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_format = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_mean_format(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "mean_format" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @conv_without_out_cvt_truncate(%x: tensor<1x1x28x28xi8>, %w: tensor<20x1x5x5xi8>) {
  // expected-error @+1 {{'nvdla.conv' op attribute "out_cvt.truncate" is expected but not provided}}
  %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature", in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64, pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64, dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64, in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64, mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  return
}

// -----

func.func @sdp_without_hw_layer(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "hw_layer" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_src_precision(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "src_precision" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_dst_precision(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "dst_precision" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_lut_index(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "lut_index" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_enable(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.enable" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_alu_type(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.alu_type" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_type(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.type" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_mode(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.mode" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_act(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.act" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_shift_value(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.shift_value" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.truncate" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_precision(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.precision" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_alu_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.alu_operand" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x1_op_mul_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x1_op.mul_operand" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_enable(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.enable" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_alu_type(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.alu_type" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_type(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.type" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_mode(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.mode" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_act(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.act" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_shift_value(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.shift_value" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.truncate" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_precision(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.precision" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_alu_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.alu_operand" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_x2_op_mul_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "x2_op.mul_operand" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_enable(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.enable" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_alu_type(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.alu_type" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_type(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.type" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_mode(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.mode" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_act(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.act" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_shift_value(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.shift_value" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.truncate" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_precision(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.precision" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_alu_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.alu_operand" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_mul_operand(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.mul_operand" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_alu_cvt_enable(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.alu_cvt.enable" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_alu_cvt_offset(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.alu_cvt.offset" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_alu_cvt_scale(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.alu_cvt.scale" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_alu_cvt_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.alu_cvt.truncate" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_mul_cvt_enable(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.mul_cvt.enable" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_mul_cvt_offset(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.mul_cvt.offset" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_mul_cvt_scale(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.mul_cvt.scale" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_y_op_cvt_mul_cvt_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "y_op.cvt.mul_cvt.truncate" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_out_cvt_offset(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "out_cvt.offset" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_out_cvt_scale(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "out_cvt.scale" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.truncate = 23 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @sdp_without_out_cvt_truncate(%acc: tensor<1x20x24x24xi32>, %bias: tensor<20xi16>) {
  // expected-error @+1 {{'nvdla.sdp' op attribute "out_cvt.truncate" is expected but not provided}}
  %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64, x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu", x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64, x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none", x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64, y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none", y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64, y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64, y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  return
}

// -----

func.func @pdp_without_hw_layer(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "hw_layer" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_precision(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "precision" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pool_mode(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pool_mode" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pool_width(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pool_width" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pool_height(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pool_height" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_stride_x(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "stride_x" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_stride_y(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "stride_y" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pad_left(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pad_left" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pad_right(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pad_right" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pad_top(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pad_top" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @pdp_without_pad_bottom(%x: tensor<1x20x24x24xi8>) {
  // expected-error @+1 {{'nvdla.pdp' op attribute "pad_bottom" is expected but not provided}}
  %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64} : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  return
}

// -----

func.func @cdp_without_hw_layer(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "hw_layer" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_in_precision(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "in_precision" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_out_precision(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "out_precision" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_local_size(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "local_size" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_bypass_sqsum(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "bypass_sqsum" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_bypass_out_mul(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "bypass_out_mul" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_alpha(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "alpha" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_beta(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "beta" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_bias(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "bias" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_in_cvt_offset(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "in_cvt.offset" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_in_cvt_scale(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "in_cvt.scale" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_in_cvt_truncate(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "in_cvt.truncate" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_out_cvt_offset(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "out_cvt.offset" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_out_cvt_scale(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "out_cvt.scale" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_out_cvt_truncate(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "out_cvt.truncate" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_lut_index(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "lut_index" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_lut_param_linear_exp_offset_exp_offset(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "lut_param.linear_exp_offset.exp_offset" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_lut_param_linear_only_offset_frac_bits(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "lut_param.linear_only_offset.frac_bits" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_lut_param_linear_only_start(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "lut_param.linear_only_start" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_end = 1073741824 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @cdp_without_lut_param_linear_only_end(%x: tensor<1x96x55x55xi8>) {
  // expected-error @+1 {{'nvdla.cdp' op attribute "lut_param.linear_only_end" is expected but not provided}}
  %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64, bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64} : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  return
}

// -----

func.func @rubik_without_hw_layer(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.rubik' op attribute "hw_layer" is expected but not provided}}
  %y = "nvdla.rubik"(%x) {precision = "fp16", mode = "split", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_without_precision(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.rubik' op attribute "precision" is expected but not provided}}
  %y = "nvdla.rubik"(%x) {hw_layer = "shuffle1", mode = "split", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_without_mode(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.rubik' op attribute "mode" is expected but not provided}}
  %y = "nvdla.rubik"(%x) {hw_layer = "shuffle1", precision = "fp16", stride_x = 1 : i64, stride_y = 1 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_without_stride_x(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.rubik' op attribute "stride_x" is expected but not provided}}
  %y = "nvdla.rubik"(%x) {hw_layer = "shuffle1", precision = "fp16", mode = "split", stride_y = 1 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @rubik_without_stride_y(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.rubik' op attribute "stride_y" is expected but not provided}}
  %y = "nvdla.rubik"(%x) {hw_layer = "shuffle1", precision = "fp16", mode = "split", stride_x = 1 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @bdma_without_hw_layer(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.bdma' op attribute "hw_layer" is expected but not provided}}
  %y = "nvdla.bdma"(%x) {source_type = "mc", destination_type = "cv"} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @bdma_without_source_type(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.bdma' op attribute "source_type" is expected but not provided}}
  %y = "nvdla.bdma"(%x) {hw_layer = "copy1", destination_type = "cv"} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @bdma_without_destination_type(%x: tensor<1x32x8x8xf16>) {
  // expected-error @+1 {{'nvdla.bdma' op attribute "destination_type" is expected but not provided}}
  %y = "nvdla.bdma"(%x) {hw_layer = "copy1", source_type = "mc"} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  return
}

// -----

func.func @emu_without_hw_layer(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{'nvdla.emu' op attribute "hw_layer" is expected but not provided}}
  %y = "nvdla.emu"(%x) {op_type = "softmax", precision = "fp16", input_scale_factor = 1.000000e+00 : f32, output_scale_factor = 1.000000e+00 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_without_op_type(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{'nvdla.emu' op attribute "op_type" is expected but not provided}}
  %y = "nvdla.emu"(%x) {hw_layer = "prob", precision = "fp16", input_scale_factor = 1.000000e+00 : f32, output_scale_factor = 1.000000e+00 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_without_precision(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{'nvdla.emu' op attribute "precision" is expected but not provided}}
  %y = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", input_scale_factor = 1.000000e+00 : f32, output_scale_factor = 1.000000e+00 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_without_input_scale_factor(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{'nvdla.emu' op attribute "input_scale_factor" is expected but not provided}}
  %y = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", output_scale_factor = 1.000000e+00 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}

// -----

func.func @emu_without_output_scale_factor(%x: tensor<1x1000x1x1xf16>) {
  // expected-error @+1 {{'nvdla.emu' op attribute "output_scale_factor" is expected but not provided}}
  %y = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.000000e+00 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  return
}
