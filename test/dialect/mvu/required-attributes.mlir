// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Every declared attribute of every mvu op is required: one chunk per attribute, each
// the op's documented example (from dialects/mvu.irdl.mlir) with that one attribute
// removed. When an op gains or loses an attribute, add or remove its chunk here.

func.func @conv_without_mvu(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "mvu" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_aprec(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "aprec" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_wprec(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "wprec" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_oprec(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "oprec" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_asigned(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "asigned" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_wsigned(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "wsigned" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_ishape(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "ishape" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_fshape(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "fshape" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_strides(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "strides" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_pads(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "pads" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_maxpool(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "maxpool" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_ilength(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "ilength" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_ijump(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "ijump" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_wlength(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "wlength" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_wjump(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "wjump" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_countdown(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "countdown" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_mul_mode(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "mul_mode" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_quant_msb(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "quant_msb" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @conv_without_omvu_mask(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op attribute "omvu_mask" is expected but not provided}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @matmul_without_mvu(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "mvu" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_aprec(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "aprec" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_wprec(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "wprec" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_oprec(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "oprec" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_asigned(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "asigned" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_wsigned(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "wsigned" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_ishape(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "ishape" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_fshape(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "fshape" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_ilength(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "ilength" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_ijump(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "ijump" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_wlength(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "wlength" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_wjump(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "wjump" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_countdown(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "countdown" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_mul_mode(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "mul_mode" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_quant_msb(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "quant_msb" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_without_omvu_mask(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{'mvu.matmul' op attribute "omvu_mask" is expected but not provided}}
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}
