// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(mvu-verify)'

// mvu-verify reads the level with the --to-mvu-config reader: an op without a name
// location has no layer name (and no file names), refused at the op.
func.func @main_graph(%x: tensor<1x64x32x32xi8> {onnx.name = "x"}) -> tensor<1x64x32x32xi8> {
  %w = arith.constant dense<1> : tensor<64x64x3x3xi8>
  // expected-error @+1 {{mvu-verify: the op has no name location loc("<onnx node>")}}
  %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>, ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return %y : tensor<1x64x32x32xi8>
}

// -----

// An op of no level the mvu level holds.
func.func @main_graph(%x: tensor<4xf32> {onnx.name = "x"}) -> tensor<4xf32> {
  // expected-error @+1 {{mvu-verify: 'arith.addf' op has no MVU meaning}}
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
