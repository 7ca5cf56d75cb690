// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Structural verification that the IRDL definitions give the onnx dialect, one rule per
// chunk. Semantic rules (shapes, ranges, attribute lengths) are Rust verifiers and are tested
// with their passes.

// === Operand and result counts ===

func.func @relu_two_operands(%x: tensor<4xf32>) {
  // expected-error @+1 {{op expects exactly 1 operands, but got 2}}
  %0 = "onnx.relu"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @add_one_operand(%x: tensor<4xf32>) {
  // expected-error @+1 {{op expects exactly 2 operands, but got 1}}
  %0 = "onnx.add"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @conv_too_many_operands(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{op expects at most 3 operands, but got 4}}
  %0 = "onnx.conv"(%x, %w, %b, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_no_weight(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{op expects at least 2 operands, but got 1}}
  %0 = "onnx.conv"(%x) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @relu_two_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{op expects exactly 1 results, but got 2}}
  %0:2 = "onnx.relu"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @max_pool_three_results(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{op expects at most 2 results, but got 3}}
  %0:3 = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<1x1x2x2xi64>)
  return
}

// -----

func.func @sum_no_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{op expects exactly 1 results, but got 0}}
  "onnx.sum"(%x, %x) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

// === Missing attributes ===

func.func @conv_missing_kernel_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'onnx.conv' op attribute "kernel_shape" is expected but not provided}}
  %0 = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @softmax_missing_axis(%x: tensor<1x10xf32>) {
  // expected-error @+1 {{'onnx.softmax' op attribute "axis" is expected but not provided}}
  %0 = "onnx.softmax"(%x) : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @constant_missing_value() {
  // expected-error @+1 {{'onnx.constant' op attribute "value" is expected but not provided}}
  %0 = "onnx.constant"() : () -> tensor<2xf32>
  return
}

// -----

func.func @custom_missing_domain(%x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.custom' op attribute "domain" is expected but not provided}}
  %0 = "onnx.custom"(%x) {op_type = "Gelu", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// === Wrong attribute kinds ===

func.func @conv_group_is_float(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1.0 : f32, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides_is_array_attr(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.dense_array' but got 'builtin.array'}}
  %0 = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @leaky_relu_alpha_is_int(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.float' but got 'builtin.integer'}}
  %0 = "onnx.leaky_relu"(%x) {alpha = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_op_type_is_int(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.string' but got 'builtin.integer'}}
  %0 = "onnx.custom"(%x) {op_type = 3 : i64, domain = "", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @constant_value_is_scalar() {
  // expected-error @+1 {{'3.000000e+00 : f32' does not satisfy the constraint}}
  %0 = "onnx.constant"() {value = 3.0 : f32} : () -> tensor<f32>
  return
}

// -----

func.func @conv_auto_pad_unknown(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'"SAME"' does not satisfy the constraint}}
  %0 = "onnx.conv"(%x, %w) {auto_pad = "SAME", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @gemm_trans_a_is_two(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{'2 : i64' does not satisfy the constraint}}
  %0 = "onnx.gemm"(%a, %a) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 2 : i64, transB = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Flags are i64: a 0/1 of another integer type is rejected.
func.func @gemm_trans_b_is_i32(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{'1 : i32' does not satisfy the constraint}}
  %0 = "onnx.gemm"(%a, %a) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i32} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @pad_mode_unknown(%x: tensor<4xf32>, %p: tensor<2xi64>) {
  // expected-error @+1 {{'"symmetric"' does not satisfy the constraint}}
  %0 = "onnx.pad"(%x, %p) {mode = "symmetric", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return
}

// -----

func.func @resize_mode_unknown(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'"bicubic"' does not satisfy the constraint}}
  %0 = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -0.75 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.0 : f32, keep_aspect_ratio_policy = "stretch", mode = "bicubic", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

// === Operand and result types ===

func.func @relu_on_memref(%x: memref<4xf32>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.memref'}}
  %0 = "onnx.relu"(%x) : (memref<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @relu_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "onnx.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// Slot ops need their segment sizes.
func.func @sum_without_segments(%a: tensor<1x16xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{operandSegmentSizes}}
  %0 = "onnx.sum"(%a, %b) : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  return
}

// -----

// Slots are filled from the front (Rust verifier).
func.func @split_slot_gap(%x: tensor<1x48xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.split' op resultSegmentSizes must fill slots from the front}}
  %0:2 = "onnx.split"(%x, %s) {axis = 1 : i64, resultSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x48xf32>, tensor<2xi64>) -> (tensor<1x32xf32>, tensor<1x16xf32>)
  return
}

// -----

// === Segment sizes ===

func.func @clip_without_segment_sizes(%x: tensor<4xf32>, %lo: tensor<f32>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %0 = "onnx.clip"(%x, %lo) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_segment_sizes_too_short(%x: tensor<4xf32>, %lo: tensor<f32>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute for specifying operand segments must have 3 elements, but got 2}}
  %0 = "onnx.clip"(%x, %lo) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_optional_segment_of_two(%x: tensor<4xf32>, %lo: tensor<f32>) {
  // expected-error @+1 {{element 1 in 'operandSegmentSizes' attribute must be equal to 0 or 1}}
  %0 = "onnx.clip"(%x, %lo, %lo) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_segment_sum_mismatch(%x: tensor<4xf32>, %lo: tensor<f32>) {
  // expected-error @+1 {{sum of elements in 'operandSegmentSizes' attribute must be equal to the number of operands}}
  %0 = "onnx.clip"(%x, %lo) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_segment_sizes_i64(%x: tensor<4xf32>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected to be a dense i32 array}}
  %0 = "onnx.clip"(%x) {operandSegmentSizes = array<i64: 1, 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @batch_norm_without_result_segment_sizes(%x: tensor<1x2xf32>, %c: tensor<2xf32>) {
  // expected-error @+1 {{'resultSegmentSizes' attribute is expected but not provided}}
  %0 = "onnx.batch_normalization"(%x, %c, %c, %c, %c) {epsilon = 1.0e-5 : f32, momentum = 0.9 : f32, training_mode = 0 : i64} : (tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return
}

// -----

// The first Concat slot is required.
func.func @concat_first_slot_empty(%a: tensor<1x4xf32>) {
  // expected-error @+1 {{element 0 in 'operandSegmentSizes' attribute must be equal to 1}}
  %0 = "onnx.concat"(%a) {axis = 1 : i64, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

// Each slot has its own constraint, so Concat inputs may differ; but a slot is a tensor.
func.func @concat_memref_slot(%a: tensor<1x4xf32>, %b: memref<1x4xf32>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.memref'}}
  %0 = "onnx.concat"(%a, %b) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x4xf32>, memref<1x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

// === Names ===

// IRDL op names are snake_case: ONNX's op_type spelling is not an op of the dialect.
func.func @camel_case_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{unregistered operation 'onnx.Relu' found in dialect ('onnx') that does not allow unknown operations}}
  %0 = "onnx.Relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
