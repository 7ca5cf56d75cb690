// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Structural verification of the nnie dialect, one rule per chunk, including the NNIE
// restrictions IRDL can express (upsample factor 2, permute order 0,2,3,1, Caffe pooling and
// eltwise enumerations). The clip-value rule (c = 2^(k/16), z consistent with c) is a Rust
// verifier.

func.func @conv_without_weight(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{op expects at least 2 operands, but got 1}}
  %0 = "nnie.conv"(%x) {layer_name = "c", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]} : (tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_missing_weight_clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "weight_clip" is expected but not provided}}
  %0 = "nnie.conv"(%x, %w) {layer_name = "c", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_z = -143 : i64, tops = ["0"]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_input_clip_is_scalar(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.dense_array' but got 'builtin.float'}}
  %0 = "nnie.conv"(%x, %w) {layer_name = "c", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = 4.0 : f32, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_weight_z_is_float(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "nnie.conv"(%x, %w) {layer_name = "c", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143.0 : f32, tops = ["0"]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @fc_four_operands(%x: tensor<1x8xf32>, %w: tensor<2x8xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{op expects at most 3 operands, but got 4}}
  %0 = "nnie.fc"(%x, %w, %b, %b) {layer_name = "fc", input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]} : (tensor<1x8xf32>, tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @fc_missing_layer_name(%x: tensor<1x8xf32>, %w: tensor<2x8xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "layer_name" is expected but not provided}}
  %0 = "nnie.fc"(%x, %w) {input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]} : (tensor<1x8xf32>, tensor<2x8xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @pool_mode_avg(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'"avg"' does not satisfy the constraint}}
  %0 = "nnie.pool"(%x) {layer_name = "p", pool = "avg", kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_global_pooling_is_bool(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'true' does not satisfy the constraint}}
  %0 = "nnie.pool"(%x) {layer_name = "p", pool = "max", kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = true, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>) -> tensor<1x1x1x1xf32>
  return
}

// -----

func.func @eltwise_mixed_shapes(%a: tensor<1x4x8x8xf32>, %b: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expected 'tensor<1x4x8x8xf32>' but got 'tensor<1x4x4x4xf32>'}}
  %0 = "nnie.eltwise"(%a, %b) {layer_name = "e", operation = "sum", input_clip = array<f32: 4.0, 4.0>, input_z = array<i64: -95, -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @eltwise_operation_sub(%a: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'"sub"' does not satisfy the constraint}}
  %0 = "nnie.eltwise"(%a, %a) {layer_name = "e", operation = "sub", input_clip = array<f32: 4.0, 4.0>, input_z = array<i64: -95, -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

// NNIE only upsamples by 2.
func.func @upsample_by_four(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{expected '2 : i64' but got '4 : i64'}}
  %0 = "nnie.upsample"(%x) {layer_name = "u", scale = 4 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x32x32xf32>
  return
}

// -----

// NNIE's Permute only goes from NCHW to NHWC.
func.func @permute_other_order(%x: tensor<1x4x8x6xf32>) {
  // expected-error @+1 {{expected 'array<i64: 0, 2, 3, 1>' but got 'array<i64: 0, 1, 3, 2>'}}
  %0 = "nnie.permute"(%x) {layer_name = "t", order = array<i64: 0, 1, 3, 2>, tops = ["0"]} : (tensor<1x4x8x6xf32>) -> tensor<1x4x6x8xf32>
  return
}

// -----

func.func @concat_without_segment_sizes(%a: tensor<1x4x8x8xf32>, %b: tensor<1x2x8x8xf32>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %0 = "nnie.concat"(%a, %b) {layer_name = "cat", axis = 1 : i64, input_clip = array<f32: 4.0, 4.0>, input_z = array<i64: -95, -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x6x8x8xf32>
  return
}

// -----

func.func @concat_seventeen_slots(%a: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute for specifying operand segments must have 16 elements, but got 17}}
  %0 = "nnie.concat"(%a) {layer_name = "cat", axis = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["0"]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @relu_slope_is_int(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.float' but got 'builtin.integer'}}
  %0 = "nnie.relu"(%x) {layer_name = "r", negative_slope = 0 : i64, tops = ["0"]} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @softmax_missing_axis(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'nnie.softmax' op attribute "axis" is expected but not provided}}
  %0 = "nnie.softmax"(%x) {layer_name = "s", tops = ["0"]} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @reshape_shape_is_tensor(%x: tensor<1x4x1x1xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.dense_array' but got 'builtin.dense_int_or_fp_elements'}}
  %0 = "nnie.reshape"(%x) {layer_name = "r", shape = dense<[0, 4, 1, 1]> : tensor<4xi64>, tops = ["0"]} : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  return
}
