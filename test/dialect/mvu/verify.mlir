// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// The Rust semantic rules of the mvu dialect (dialects/src/verify/mvu.rs): one chunk per rule.
// The first chunk holds valid ops that pass every rule; each later chunk breaks one rule.
// Register widths and RAM sizes: obilaniu/MVU mvu_pkg.sv (research targets.md A.6); formulas:
// the op doc blocks in dialects/mvu.irdl.mlir (MVU_Code_Gen).

// Valid ops that pass every rule: the ResNet-18/CIFAR and SimpleConv rows of MVU_Code_Gen, a
// 256-channel layer (288 of the 512 weight words), a
// stride whose column count (8 - 2 + 1) / 2 = 3.5 is rounded up, matmuls with and without
// scaler/bias, and every scalar register at an end of its range.
func.func @valid(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %b64: tensor<64xi32>, %w128: tensor<128x64x3x3xi8>, %s128: tensor<128xi16>,
                 %b128: tensor<128xi32>, %x4: tensor<1x256x8x8xi8>, %w4: tensor<256x256x3x3xi8>, %x8: tensor<1x64x8x8xi8>, %w2: tensor<64x64x2x2xi8>,
                 %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>, %ms: tensor<10xi16>, %mb: tensor<10xi32>, %mw3: tensor<100x512xi8>,
                 %mwf: tensor<10x1024xi8>) {
  %c = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  %c8 = "mvu.conv"(%x, %w, %b64) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 1 : i64, wsigned = 1 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 63, 2, 2, 0>,
      ijump = array<i64: -528, -528, 240, 8, 0>, wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>, countdown = 17280 : i64,
      mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>, tensor<64xi32>) -> tensor<1x64x32x32xi8>
  %c3 = "mvu.conv"(%x, %w128, %s128, %b128) {mvu = 1 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 2, 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 7, 2, 2, 0>,
      ijump = array<i64: -130, -132, 60, 2, 0>, wlength = array<i64: 0, 1, 3, 8, 0>, wjump = array<i64: -34, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 6 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x64x32x32xi8>, tensor<128x64x3x3xi8>, tensor<128xi16>, tensor<128xi32>) -> tensor<1x128x16x16xi8>
  %c4 = "mvu.conv"(%x4, %w4) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 4, 8, 8>,
      fshape = array<i64: 4, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 15, 2, 11, 0>,
      ijump = array<i64: -138, -150, 42, 2, 0>, wlength = array<i64: 0, 3, 3, 35, 0>, wjump = array<i64: -286, 2, -70, 2, 0>, countdown = 3456 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x256x8x8xi8>, tensor<256x256x3x3xi8>) -> tensor<1x256x8x8xi8>
  %cr = "mvu.conv"(%x8, %w2) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 16 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 8, 8>,
      fshape = array<i64: 1, 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 1, 1, 0>,
      ijump = array<i64: -16, -18, 14, 2, 0>, wlength = array<i64: 0, 0, 3, 3, 0>, wjump = array<i64: -6, 2, -6, 2, 0>, countdown = 64 : i64,
      mul_mode = 1 : i64, quant_msb = 26 : i64, omvu_mask = 255 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x8x8xi8>, tensor<64x64x2x2xi8>) -> tensor<1x64x4x4xi8>
  %m = "mvu.matmul"(%v, %mw, %ms, %mb) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  %m2 = "mvu.matmul"(%v, %mw) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  %m3 = "mvu.matmul"(%v, %mw3) {mvu = 7 : i64, aprec = 16 : i64, wprec = 16 : i64, oprec = 1 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 2, 100, 512>, ilength = array<i64: 0, 1, 0, 0, 0>, ijump = array<i64: -112, 16, 0, 0, 0>, wlength = array<i64: 0, 255, 7, 0, 0>,
      wjump = array<i64: 16, -112, 16, 0, 0>, countdown = 4096 : i64, mul_mode = 2 : i64, quant_msb = 0 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x512xi8>, tensor<100x512xi8>) -> tensor<1x100xi8>
  // A pooled conv (2x2/2 max pooling, one job per pooled pixel): the registers of
  // onnc_mvu_hw::pooled_registers, the output the pooled grid.
  %p = "mvu.conv"(%x8, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 8, 8>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 1 : i64, pool_kernel = array<i64: 2, 2>,
      pool_strides = array<i64: 2, 2>, pool_pads = array<i64: 0, 0, 0, 0>, pool_ceil_mode = 0 : i64, ilength = array<i64: 0, 1, 3, 2, 2>,
      ijump = array<i64: -22, -34, -36, 12, 2>, wlength = array<i64: 0, 1, 3, 0, 8>, wjump = array<i64: -16, -16, -16, 0, 2>, countdown = 144 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x8x8xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x4x4xi8>
  // A classifier reading a conv's 64x4x4 output flattened (K = 1024).
  %mf = "mvu.matmul"(%p, %mwf) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 16, 1, 1>,
      fshape = array<i64: 1, 10, 1024>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -30, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 15, 0, 0>,
      wjump = array<i64: 2, -30, 2, 0, 0>, countdown = 64 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x4x4xi8>, tensor<10x1024xi8>) -> tensor<1x10xi8>
  return
}

// -----

// maxpool = 1 without its window: the verifier cannot know the pooled registers.
func.func @pool_window_missing(%x: tensor<1x64x8x8xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{maxpool = 1 needs the pool window: missing pool_strides, pool_pads, pool_ceil_mode}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 8, 8>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 1 : i64, pool_kernel = array<i64: 2, 2>,
      ilength = array<i64: 0, 1, 3, 2, 2>,
      ijump = array<i64: -22, -34, -36, 12, 2>, wlength = array<i64: 0, 1, 3, 0, 8>, wjump = array<i64: -16, -16, -16, 0, 2>, countdown = 144 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x8x8xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x4x4xi8>
  return
}

// -----

// A pool window on an unpooled conv.
func.func @pool_window_unpooled(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{pool_kernel given but maxpool is not 1}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, pool_kernel = array<i64: 2, 2>, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// A pooled conv carrying the unpooled (one job per output row) registers and output.
func.func @pool_unpooled_registers(%x: tensor<1x64x8x8xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+5 {{output shape [1, 64, 8, 8] does not match the pooled convolution's [1, 64, 4, 4]}}
  // expected-error @+4 {{ilength = [0, 3, 2, 2, 0] does not match the pooled job's [0, kW - 1, ip*wp - 1, fH - 1, iC*fW - 1] = [0, 1, 3, 2, 2]}}
  // expected-error @+3 {{ijump = [-36, -36, 12, 2, 0] does not match the pooled job's the pooled input jumps = [-22, -34, -36, 12, 2]}}
  // expected-error @+2 {{wlength = [0, 0, 3, 8, 0] does not match the pooled job's}}
  // expected-error @+1 {{countdown = 216 does not match the pooled job's kH*kW*ip*wp*iC*fW*fH = 144}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 8, 8>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 1 : i64, pool_kernel = array<i64: 2, 2>,
      pool_strides = array<i64: 2, 2>, pool_pads = array<i64: 0, 0, 0, 0>, pool_ceil_mode = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -36, -36, 12, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, -16, -16, 0, 2>, countdown = 216 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x8x8xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x8x8xi8>
  return
}

// -----

// A padded pool window: its edge windows are cut short, which one job shape cannot run.
func.func @pool_padded(%x: tensor<1x64x8x8xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{pool window [3, 3] with pads [1, 1, 1, 1] has edge windows cut short on the conv's 8x8 output; the MVU pools whole windows only}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 8, 8>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 1 : i64, pool_kernel = array<i64: 3, 3>,
      pool_strides = array<i64: 2, 2>, pool_pads = array<i64: 1, 1, 1, 1>, pool_ceil_mode = 0 : i64, ilength = array<i64: 0, 2, 3, 2, 2>,
      ijump = array<i64: -24, -34, -36, 12, 2>, wlength = array<i64: 0, 2, 3, 0, 8>, wjump = array<i64: -16, -16, -16, 0, 2>, countdown = 324 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x8x8xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x4x4xi8>
  return
}

// -----

// BARVINN has 8 MVUs.
func.func @mvu_index(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{'mvu.conv' op mvu = 8 is out of range [0, 7]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 8 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @aprec_zero(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{aprec = 0 is out of range [1, 16]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 0 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// MVU_MAX_DATA_PREC = 16 (the 6-bit field could hold 63).
func.func @wprec_high(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{wprec = 17 is out of range [1, 16]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 17 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @oprec_high(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{oprec = 32 is out of range [1, 16]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 32 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// countdown is the 29-bit field of mvucommand.
func.func @countdown_width(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{countdown = 536870912 is out of range [1, 536870911]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 536870912 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @countdown_zero(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{countdown = 0 is out of range [1, 536870911]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 0 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @quant_msb(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{quant_msb = 27 is out of range [0, 26]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 27 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @omvu_mask(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{omvu_mask = 256 is out of range [0, 255]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 256 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @int_width(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{attribute 'mvu' must be a 64-bit integer (i64), got i32}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i32, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// Five address-generator levels (NJUMPS = 5).
func.func @ilength_entries(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{ilength has 4 entries but needs 5}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// Lengths are 15-bit unsigned (BLENGTH = 15).
func.func @ilength_width(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{ilength[1] = 32768 is out of range [0, 32767]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 32768, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @wlength_negative(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{wlength[3] = -1 is out of range [0, 32767]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, -1, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// Jumps are 15-bit two's complement (BJUMP = 15).
func.func @ijump_width(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{ijump[0] = -16385 is out of range [-16384, 16383]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -16385, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @wjump_width(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{wjump[3] = 16384 is out of range [-16384, 16383]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 16384, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @wjump_entries(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{wjump has 6 entries but needs 5}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @ilength_i32(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{attribute 'ilength' must be array<i64: ...>}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i32: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @ishape_entries(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{ishape has 2 entries but needs 3}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @fshape_zero(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{fshape[0] = 0 must be >= 1}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 0, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @strides_entries(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{strides has 1 entries but needs 2}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @pads_negative(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{pads[1] = -1 must be >= 0}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, -1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// Channels count in 64-channel blocks: 64 channels are one block.
func.func @ishape_vs_input(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{ishape = [2, 32, 32] does not match the operands: [ceil(C/64), H, W] = [1, 32, 32]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 2, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @fshape_vs_weight(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{fshape = [1, 3, 5] does not match the operands: [ceil(O/64), kH, kW] = [1, 3, 3]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 5>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @weight_channels(%x: tensor<1x64x32x32xi8>, %w: tensor<64x32x3x3xi8>) {
  // expected-error @+1 {{weight has 32 input channels but the input has 64}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x32x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @output_shape(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{output shape [1, 64, 30, 30] does not match the convolution's [1, 64, 32, 32]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x30x30xi8>
  return
}

// -----

func.func @bias_shape(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %b: tensor<32xi32>) {
  // expected-error @+1 {{bias must have shape [64] (one entry per output channel), got [32]}}
  %0 = "mvu.conv"(%x, %w, %b) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>, tensor<32xi32>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @ilength_formula(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{ilength = [0, 3, 2, 1, 0] does not match [0, ip*wp*fC - 1, fH - 1, iC*fW - 1, 0] = [0, 3, 2, 2, 0]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 1, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @wlength_formula(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{wlength = [0, 0, 3, 9, 0] does not match [0, fC - 1, ip*wp - 1, iC*fW*fH - 1, 0] = [0, 0, 3, 8, 0]}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 9, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// One job walks (iW - fW + 1)/sW = 30 columns of 36 cycles.
func.func @countdown_formula(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+1 {{countdown = 1152 does not match iC*fW*fH*ip*wp*fC * (iW - fW + 1)/sW = 36 * 30}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1152 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

// A fractional column count may round either way, nothing in between.
func.func @countdown_rounding(%x: tensor<1x64x8x8xi8>, %w: tensor<64x64x2x2xi8>) {
  // expected-error @+1 {{countdown = 56 does not match iC*fW*fH*ip*wp*fC * (iW - fW + 1)/sW = 16 * 3 or 4}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 8, 8>,
      fshape = array<i64: 1, 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 1, 1, 0>,
      ijump = array<i64: -16, -18, 14, 2, 0>, wlength = array<i64: 0, 0, 3, 3, 0>, wjump = array<i64: -6, 2, -6, 2, 0>, countdown = 56 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x8x8xi8>, tensor<64x64x2x2xi8>) -> tensor<1x64x4x4xi8>
  return
}

// -----

// The data RAM holds 2^15 64-bit words.
func.func @input_capacity(%x: tensor<1x64x256x256xi8>, %w: tensor<64x64x3x3xi8>) {
  // expected-error @+2 {{input activations need 131072 words (iC*iH*iW*aprec) but one MVU has 32768}}
  // expected-error @+1 {{output activations need 131072 words (fC*OH*OW*oprec) but one MVU has 32768}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 256, 256>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 9144 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x256x256xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x256x256xi8>
  return
}

// -----

// ResNet-18's conv5_x at 2 bits: the registers are right but 512 x 512 x 3 x 3 x 2 bits need 1152
// 4096-bit words, and the weight RAM has 2^9.
func.func @weight_capacity(%x: tensor<1x512x4x4xi8>, %w: tensor<512x512x3x3xi8>) {
  // expected-error @+1 {{weights need 1152 words (fC*iC*fH*fW*wprec) but one MVU has 512}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 8, 4, 4>,
      fshape = array<i64: 8, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 31, 2, 23, 0>,
      ijump = array<i64: -146, -174, 18, 2, 0>, wlength = array<i64: 0, 7, 3, 71, 0>, wjump = array<i64: -1150, 2, -142, 2, 0>, countdown = 4608 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x512x4x4xi8>, tensor<512x512x3x3xi8>) -> tensor<1x512x4x4xi8>
  return
}

// -----

func.func @matmul_batch(%x: tensor<2x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{input batch is 2 but an MVU matmul takes one vector (1 x K)}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<2x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_k(%x: tensor<1x256xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{weight is 10 x 512 but the input has K = 256}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 4, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x256xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_ishape(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{ishape = [4, 1, 1] does not match the operands: [ceil(K/64), 1, 1] = [8, 1, 1]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 4, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_fshape(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{fshape = [1, 10, 256] does not match the operands: [ceil(d0/64), d0, d1] = [1, 10, 512]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 256>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_output_shape(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{output shape [1, 12] does not match 1 x d0 = [1, 10]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x12xi8>
  return
}

// -----

func.func @matmul_input_rank(%x: tensor<512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{input must have rank 2 (1 x K) or 4 (1 x C x H x W, read flattened), got rank 1 [512]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_scaler_shape(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<16xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{scaler must have shape [10] (one entry per output channel), got [16]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<16xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_ilength(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{ilength = [0, 1, 0, 0, 0] does not match [0, m_h - 1, 0, 0, 0] = [0, 0, 0, 0, 0]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 1, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_ijump(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{ijump = [-12, 2, 0, 0, 0] does not match [-ip*(m_w - 1), ip, 0, 0, 0] = [-14, 2, 0, 0, 0]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -12, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_wlength(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{wlength = [0, 3, 8, 0, 0] does not match [0, wp*ip - 1, m_w - 1, 0, 0] = [0, 3, 7, 0, 0]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 8, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_wjump(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{wjump = [2, -14, 4, 0, 0] does not match [wp, -wp*(m_w - 1), wp, 0, 0] = [2, -14, 2, 0, 0]}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 4, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

func.func @matmul_countdown(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) {
  // expected-error @+1 {{countdown = 30 does not match m_w*m_h*ip*wp = 32}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 30 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  return
}

// -----

// Scaler and bias RAMs hold 2^6 words of 64 channels: at most 4096 outputs.
func.func @matmul_scaler_capacity(%x: tensor<1x64xi8>, %w: tensor<4160x64xi8>, %s: tensor<4160xi16>, %b: tensor<4160xi32>) {
  // expected-error @+1 {{scaler/bias need 65 words (m_h) but one MVU has 64}}
  %0 = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 1 : i64, wprec = 1 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 1, 1, 1>,
      fshape = array<i64: 65, 4160, 64>, ilength = array<i64: 0, 64, 0, 0, 0>, ijump = array<i64: 0, 1, 0, 0, 0>, wlength = array<i64: 0, 0, 0, 0, 0>,
      wjump = array<i64: 1, 0, 1, 0, 0>, countdown = 65 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x64xi8>, tensor<4160x64xi8>, tensor<4160xi16>, tensor<4160xi32>) -> tensor<1x4160xi8>
  return
}

// -----

func.func @matmul_weight_capacity(%x: tensor<1x4096xi8>, %w: tensor<64x4096xi8>) {
  // expected-error @+1 {{weights need 1024 words (m_h*m_w*wprec) but one MVU has 512}}
  %0 = "mvu.matmul"(%x, %w) {mvu = 7 : i64, aprec = 2 : i64, wprec = 16 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 64, 1, 1>,
      fshape = array<i64: 1, 64, 4096>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -126, 2, 0, 0, 0>, wlength = array<i64: 0, 31, 63, 0, 0>,
      wjump = array<i64: 16, -1008, 16, 0, 0>, countdown = 2048 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x4096xi8>, tensor<64x4096xi8>) -> tensor<1x64xi8>
  return
}

// -----

// The writer's attributes (dialects/src/verify/mvu_layer.rs), valid: per-layer and
// per-channel scales, a bias per output channel, both layouts.
func.func @layer_attrs_valid(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, onnx_op = "Conv", weight_name = "conv1.weight", relu = 1 : i64, weight_scales = array<f32: 0.125>, bias_values = array<f32: 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5>, weight_layout = "as_layer", output_end = "relu_2"}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  %1 = "mvu.matmul"(%v, %mw) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>, onnx_op = "Gemm", relu = 0 : i64, weight_scales = array<f32: 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25>, weight_layout = "transposed", output_end = "y"}
      : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  return
}

// -----

func.func @weight_scales_count(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{weight_scales has 2 entries but needs 1 (per layer) or 10 (per output channel)}}
  %0 = "mvu.matmul"(%v, %mw) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>, weight_scales = array<f32: 0.25, 0.25>}
      : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  return
}

// -----

func.func @weight_scales_zero(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{weight_scales[0] = 0 must be finite and > 0}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, weight_scales = array<f32: 0.0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @bias_values_count(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{bias_values has 2 entries but needs 64 (one per output channel)}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, bias_values = array<f32: 1.0, 2.0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @relu_two(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{relu must be 0 : i64 or 1 : i64}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, relu = 2 : i64}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @layout_unknown(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{weight_layout = "nchw" must be "as_layer" or "transposed"}}
  %0 = "mvu.matmul"(%v, %mw) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>, weight_layout = "nchw"}
      : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  return
}

// -----

func.func @sum_of_matmul(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{sum_of (a global average pooling's pixel count) is for mvu.conv only}}
  %0 = "mvu.matmul"(%v, %mw) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>, sum_of = 36 : i64}
      : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  return
}

// -----

func.func @onnx_op_empty(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{onnx_op must not be empty}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, onnx_op = ""}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}

// -----

func.func @weight_scales_i64(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %v: tensor<1x512xi8>, %mw: tensor<10x512xi8>) {
  // expected-error @+1 {{attribute 'weight_scales' must be array<f32: ...>}}
  %0 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64,
      mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, weight_scales = array<i64: 1>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}
