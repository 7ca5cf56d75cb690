// RUN: onnc-opt %s | onnc-opt | FileCheck %s

// mvu ops parse, verify, print in generic form and parse again. Register values are the
// MVU_Code_Gen formulas for BARVINN's distilled ResNet-18 (2-bit) and SimpleConv (8-bit)
// (MVU_Code_Gen tables as reproduced in the BARVINN docs).

// ResNet-18/CIFAR conv2_x: [1,32,32] input blocks, [1,3,3] filter blocks, 2-bit.
// CHECK-LABEL: func.func @resnet18_conv2
func.func @resnet18_conv2(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8> {
  // CHECK: "mvu.conv"(%{{.*}}, %{{.*}}) {aprec = 2 : i64, asigned = 0 : i64, countdown = 1080 : i64, fshape = array<i64: 1, 3, 3>, ijump = array<i64: -132, -132, 60, 2, 0>, ilength = array<i64: 0, 3, 2, 2, 0>, ishape = array<i64: 1, 32, 32>, maxpool = 0 : i64, mul_mode = 1 : i64, mvu = 0 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, oprec = 2 : i64, pads = array<i64: 1, 1, 1, 1>, quant_msb = 1 : i64, strides = array<i64: 1, 1>, wjump = array<i64: -16, 2, -16, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wprec = 2 : i64, wsigned = 0 : i64} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>,
      ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return %y : tensor<1x64x32x32xi8>
}

// conv3_x.0: stride 2, 64 -> 128 channels, with a scaler and a bias, result broadcast to MVUs
// 1 and 2.
// CHECK-LABEL: func.func @resnet18_conv3_stride2
func.func @resnet18_conv3_stride2(%x: tensor<1x64x32x32xi8>, %w: tensor<128x64x3x3xi8>, %s: tensor<128xi16>, %b: tensor<128xi32>) -> tensor<1x128x16x16xi8> {
  // CHECK: "mvu.conv"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}countdown = 1080 : i64, fshape = array<i64: 2, 3, 3>, ijump = array<i64: -130, -132, 60, 2, 0>, ilength = array<i64: 0, 7, 2, 2, 0>
  // CHECK-SAME: mvu = 1 : i64, omvu_mask = 6 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>
  // CHECK-SAME: strides = array<i64: 2, 2>, wjump = array<i64: -34, 2, -16, 2, 0>, wlength = array<i64: 0, 1, 3, 8, 0>
  // CHECK-SAME: : (tensor<1x64x32x32xi8>, tensor<128x64x3x3xi8>, tensor<128xi16>, tensor<128xi32>) -> tensor<1x128x16x16xi8>
  %y = "mvu.conv"(%x, %w, %s, %b) {mvu = 1 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 2, 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 7, 2, 2, 0>,
      ijump = array<i64: -130, -132, 60, 2, 0>, wlength = array<i64: 0, 1, 3, 8, 0>, wjump = array<i64: -34, 2, -16, 2, 0>,
      countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 6 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x64x32x32xi8>, tensor<128x64x3x3xi8>, tensor<128xi16>, tensor<128xi32>) -> tensor<1x128x16x16xi8>
  return %y : tensor<1x128x16x16xi8>
}

// SimpleConv at 8/8/8 bits with 2x2/2 max pooling and only a bias: one job per pooled pixel.
// CHECK-LABEL: func.func @simple_conv_8bit
func.func @simple_conv_8bit(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %b: tensor<64xi32>) -> tensor<1x64x16x16xi8> {
  // CHECK: "mvu.conv"(%{{.*}}, %{{.*}}, %{{.*}}) {aprec = 8 : i64, asigned = 1 : i64, countdown = 2304 : i64
  // CHECK-SAME: ijump = array<i64: -280, -520, -528, 240, 8>, ilength = array<i64: 0, 1, 63, 2, 2>
  // CHECK-SAME: maxpool = 1 : i64
  // CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 0, 1>
  // CHECK-SAME: pool_ceil_mode = 0 : i64, pool_kernel = array<i64: 2, 2>, pool_pads = array<i64: 0, 0, 0, 0>, pool_strides = array<i64: 2, 2>
  // CHECK-SAME: wjump = array<i64: -64, -64, -64, 0, 8>, wlength = array<i64: 0, 1, 63, 0, 8>, wprec = 8 : i64, wsigned = 1 : i64}
  %y = "mvu.conv"(%x, %w, %b) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 1 : i64, wsigned = 1 : i64, ishape = array<i64: 1, 32, 32>,
      fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 1 : i64, pool_kernel = array<i64: 2, 2>,
      pool_strides = array<i64: 2, 2>, pool_pads = array<i64: 0, 0, 0, 0>, pool_ceil_mode = 0 : i64, ilength = array<i64: 0, 1, 63, 2, 2>,
      ijump = array<i64: -280, -520, -528, 240, 8>, wlength = array<i64: 0, 1, 63, 0, 8>, wjump = array<i64: -64, -64, -64, 0, 8>,
      countdown = 2304 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>, tensor<64xi32>) -> tensor<1x64x16x16xi8>
  return %y : tensor<1x64x16x16xi8>
}

// The classifier: 512 -> 10, 2-bit, on MVU 7.
// CHECK-LABEL: func.func @classifier
func.func @classifier(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>, %s: tensor<10xi16>, %b: tensor<10xi32>) -> (tensor<1x10xi8>, tensor<1x10xi8>) {
  // CHECK: "mvu.matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {aprec = 2 : i64, asigned = 0 : i64, countdown = 32 : i64, fshape = array<i64: 1, 10, 512>, ijump = array<i64: -14, 2, 0, 0, 0>, ilength = array<i64: 0, 0, 0, 0, 0>, ishape = array<i64: 8, 1, 1>, mul_mode = 2 : i64, mvu = 7 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>, oprec = 8 : i64, quant_msb = 9 : i64, wjump = array<i64: 2, -14, 2, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wprec = 2 : i64, wsigned = 1 : i64} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  // Without scaler and bias.
  // CHECK: "mvu.matmul"(%{{.*}}, %{{.*}}) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 0, 0>{{.*}}} : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  %z = "mvu.matmul"(%x, %w) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>,
      fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>,
      wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  return %y, %z : tensor<1x10xi8>, tensor<1x10xi8>
}
