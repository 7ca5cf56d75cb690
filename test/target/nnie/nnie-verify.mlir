// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(nnie-verify)'

// nnie-verify reads the level with the --to-nnie-package reader: a conv's weight must be
// an arith.constant (it goes into the caffemodel), refused at the op.
func.func @main_graph(%x: tensor<1x3x8x8xf32> {onnx.name = "x"}, %w: tensor<4x3x1x1xf32> {onnx.name = "w"}) -> tensor<1x4x8x8xf32>
    attributes {nnie.package = {name = "t", image_list = [], image_type = 0 : i64, rgb_order = "RGB", norm_type = 0 : i64, data_scale = 1.0 : f32, is_simulation = 0 : i64, cfg_references_clip_table = false}, nnie.quant_report = {outputs = []}} {
  // expected-error @+1 {{nnie-verify: conv needs a constant weight operand}}
  %y = "nnie.conv"(%x, %w) {layer_name = "conv1", kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  // The refused layer defines no blob, so the function's result is none either.
  // expected-error @+1 {{nnie-verify: result 0 is no layer's output}}
  return %y : tensor<1x4x8x8xf32>
}

// -----

// The quality report's metrics are attributes: an entry without them is refused at the function.
// expected-error @+1 {{nnie-verify: 'nnie.quant_report': outputs[0] has no non-negative integer 'elements'}}
func.func @main_graph(%x: tensor<1x3x8x8xf32> {onnx.name = "x"}) -> tensor<1x3x8x8xf32>
    attributes {nnie.package = {name = "t", image_list = [], image_type = 0 : i64, rgb_order = "RGB", norm_type = 0 : i64, data_scale = 1.0 : f32, is_simulation = 0 : i64, cfg_references_clip_table = false}, nnie.quant_report = {outputs = [{name = "y"}]}} {
  %y = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = ["y"]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %y : tensor<1x3x8x8xf32>
}

// -----

// A required key of nnie.package is missing.
// expected-error @+1 {{nnie-verify: 'nnie.package' has no 'rgb_order'}}
func.func @main_graph(%x: tensor<1x3x8x8xf32> {onnx.name = "x"}) -> tensor<1x3x8x8xf32>
    attributes {nnie.package = {name = "t", image_list = [], image_type = 0 : i64, norm_type = 0 : i64, data_scale = 1.0 : f32, is_simulation = 0 : i64, cfg_references_clip_table = false}, nnie.quant_report = {outputs = []}} {
  %y = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = ["y"]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %y : tensor<1x3x8x8xf32>
}
