// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Structural verification of the mvu dialect, one rule per chunk. Register ranges (15-bit
// jumps and lengths, 29-bit countdown, precisions 1..16) are Rust verifiers.

// Two optional operands: the segment sizes decide the operand count.
func.func @conv_one_operand(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute for specifying operand segments must have 4 elements, but got 2}}
  %0 = "mvu.conv"(%x) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1>}
      : (tensor<1x64x32x32xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_segment_sum(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{sum of elements in 'operandSegmentSizes' attribute must be equal to the number of operands}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_weight_segment_zero(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{element 1 in 'operandSegmentSizes' attribute must be equal to 1}}
  %0 = "mvu.conv"(%x) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0>}
      : (tensor<1x64x32x32xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_segment_sizes(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_missing_countdown(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "countdown" is expected but not provided}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_missing_wjump(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "wjump" is expected but not provided}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, countdown = 1080 : i64, mul_mode = 1 : i64,
      quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_missing_strides(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "strides" is expected but not provided}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>, ijump = array<i64: -132, -132, 60, 2, 0>,
      wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64, mul_mode = 1 : i64,
      quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_ilength_is_array_attr(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{expected base attribute 'builtin.dense_array' but got 'builtin.array'}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = [0, 3, 2, 2, 0],
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_aprec_is_float(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2.0 : f32, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_mul_mode_four(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'4 : i64' does not satisfy the constraint}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 4 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_wsigned_two(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'2 : i64' does not satisfy the constraint}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 2 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_maxpool_i1(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'true' does not satisfy the constraint}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = true, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @matmul_missing_countdown(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "countdown" is expected but not provided}}
  %0 = "mvu.matmul"(%x, %w) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_unranked_weight(%x: tensor<1x64x32x32xi8>, %w: tensor<*xi8>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "mvu.matmul"(%x, %w) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<*xi8>) -> tensor<1x10xi8>
  return
}
