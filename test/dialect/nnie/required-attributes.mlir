// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Every declared attribute of every nnie op is required: one chunk per attribute, each
// the op's documented example (from dialects/nnie.irdl.mlir) with that one attribute
// removed. When an op gains or loses an attribute, add or remove its chunk here.

func.func @conv_without_layer_name(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_kernel(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "kernel" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_stride(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "stride" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_pad(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "pad" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_dilation(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "dilation" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_group(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "group" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_input_clip(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_input_z(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "input_z" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_weight_clip(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "weight_clip" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_without_weight_z(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "weight_z" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @fc_without_layer_name(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.fc"(%x, %w, %b) {input_clip = array<f32: 8.000000e+00>, input_z = array<i64: -79>, weight_clip = 2.500000e-01 : f32, weight_z = -159 : i64, tops = ["y"]} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @fc_without_input_clip(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.fc"(%x, %w, %b) {layer_name = "fc1000", input_z = array<i64: -79>, weight_clip = 2.500000e-01 : f32, weight_z = -159 : i64, tops = ["y"]} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @fc_without_input_z(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "input_z" is expected but not provided}}
  %y = "nnie.fc"(%x, %w, %b) {layer_name = "fc1000", input_clip = array<f32: 8.000000e+00>, weight_clip = 2.500000e-01 : f32, weight_z = -159 : i64, tops = ["y"]} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @fc_without_weight_clip(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "weight_clip" is expected but not provided}}
  %y = "nnie.fc"(%x, %w, %b) {layer_name = "fc1000", input_clip = array<f32: 8.000000e+00>, input_z = array<i64: -79>, weight_z = -159 : i64, tops = ["y"]} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @fc_without_weight_z(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "weight_z" is expected but not provided}}
  %y = "nnie.fc"(%x, %w, %b) {layer_name = "fc1000", input_clip = array<f32: 8.000000e+00>, input_z = array<i64: -79>, weight_clip = 2.500000e-01 : f32, tops = ["y"]} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @pool_without_layer_name(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.pool"(%x) {pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_pool(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "pool" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_kernel(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "kernel" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_stride(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "stride" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_pad(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "pad" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_global_pooling(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "global_pooling" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_input_clip(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_without_input_z(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "input_z" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @eltwise_without_layer_name(%a: tensor<1x64x56x56xf32>, %b: tensor<1x64x56x56xf32>) {
  // expected-error @+1 {{'nnie.eltwise' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.eltwise"(%a, %b) {operation = "sum", input_clip = array<f32: 4.000000e+00, 2.000000e+00>, input_z = array<i64: -95, -111>, tops = ["y"]} : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @eltwise_without_operation(%a: tensor<1x64x56x56xf32>, %b: tensor<1x64x56x56xf32>) {
  // expected-error @+1 {{'nnie.eltwise' op attribute "operation" is expected but not provided}}
  %y = "nnie.eltwise"(%a, %b) {layer_name = "res2a", input_clip = array<f32: 4.000000e+00, 2.000000e+00>, input_z = array<i64: -95, -111>, tops = ["y"]} : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @eltwise_without_input_clip(%a: tensor<1x64x56x56xf32>, %b: tensor<1x64x56x56xf32>) {
  // expected-error @+1 {{'nnie.eltwise' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.eltwise"(%a, %b) {layer_name = "res2a", operation = "sum", input_z = array<i64: -95, -111>, tops = ["y"]} : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @eltwise_without_input_z(%a: tensor<1x64x56x56xf32>, %b: tensor<1x64x56x56xf32>) {
  // expected-error @+1 {{'nnie.eltwise' op attribute "input_z" is expected but not provided}}
  %y = "nnie.eltwise"(%a, %b) {layer_name = "res2a", operation = "sum", input_clip = array<f32: 4.000000e+00, 2.000000e+00>, tops = ["y"]} : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @concat_without_layer_name(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>) {
  // expected-error @+1 {{'nnie.concat' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.concat"(%a, %b) {axis = 1 : i64, input_clip = array<f32: 4.000000e+00, 4.000000e+00>, input_z = array<i64: -95, -95>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["y"]} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  return
}

// -----

func.func @concat_without_axis(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>) {
  // expected-error @+1 {{'nnie.concat' op attribute "axis" is expected but not provided}}
  %y = "nnie.concat"(%a, %b) {layer_name = "cat1", input_clip = array<f32: 4.000000e+00, 4.000000e+00>, input_z = array<i64: -95, -95>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["y"]} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  return
}

// -----

func.func @concat_without_input_clip(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>) {
  // expected-error @+1 {{'nnie.concat' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_z = array<i64: -95, -95>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["y"]} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  return
}

// -----

func.func @concat_without_input_z(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>) {
  // expected-error @+1 {{'nnie.concat' op attribute "input_z" is expected but not provided}}
  %y = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.000000e+00, 4.000000e+00>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["y"]} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  return
}

// -----

func.func @upsample_without_layer_name(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.upsample' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.upsample"(%x) {scale = 2 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @upsample_without_scale(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.upsample' op attribute "scale" is expected but not provided}}
  %y = "nnie.upsample"(%x) {layer_name = "up1", input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @upsample_without_input_clip(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.upsample' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.upsample"(%x) {layer_name = "up1", scale = 2 : i64, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @upsample_without_input_z(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.upsample' op attribute "input_z" is expected but not provided}}
  %y = "nnie.upsample"(%x) {layer_name = "up1", scale = 2 : i64, input_clip = array<f32: 4.000000e+00>, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @relu_without_layer_name(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.relu' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.relu"(%x) {negative_slope = 0.000000e+00 : f32, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @relu_without_negative_slope(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.relu' op attribute "negative_slope" is expected but not provided}}
  %y = "nnie.relu"(%x) {layer_name = "relu1", tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @softmax_without_layer_name(%x: tensor<1x1000xf32>) {
  // expected-error @+1 {{'nnie.softmax' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.softmax"(%x) {axis = 1 : i64, tops = ["y"]} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @softmax_without_axis(%x: tensor<1x1000xf32>) {
  // expected-error @+1 {{'nnie.softmax' op attribute "axis" is expected but not provided}}
  %y = "nnie.softmax"(%x) {layer_name = "prob", tops = ["y"]} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @reshape_without_layer_name(%x: tensor<1x512x1x1xf32>) {
  // expected-error @+1 {{'nnie.reshape' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.reshape"(%x) {shape = array<i64: 0, 512, 1, 1>, tops = ["y"]} : (tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @reshape_without_shape(%x: tensor<1x512x1x1xf32>) {
  // expected-error @+1 {{'nnie.reshape' op attribute "shape" is expected but not provided}}
  %y = "nnie.reshape"(%x) {layer_name = "flat", tops = ["y"]} : (tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @permute_without_layer_name(%x: tensor<1x16x8x4xf32>) {
  // expected-error @+1 {{'nnie.permute' op attribute "layer_name" is expected but not provided}}
  %y = "nnie.permute"(%x) {order = array<i64: 0, 2, 3, 1>, tops = ["y"]} : (tensor<1x16x8x4xf32>) -> tensor<1x8x4x16xf32>
  return
}

// -----

func.func @permute_without_order(%x: tensor<1x16x8x4xf32>) {
  // expected-error @+1 {{'nnie.permute' op attribute "order" is expected but not provided}}
  %y = "nnie.permute"(%x) {layer_name = "perm1", tops = ["y"]} : (tensor<1x16x8x4xf32>) -> tensor<1x8x4x16xf32>
  return
}

// -----

// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// Every declared attribute of every nnie op is required: one chunk per attribute, each
// the op's documented example (from dialects/nnie.irdl.mlir) with that one attribute
// removed. When an op gains or loses an attribute, add or remove its chunk here.

func.func @conv_without_tops(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op attribute "tops" is expected but not provided}}
  %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @fc_without_tops(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) {
  // expected-error @+1 {{'nnie.fc' op attribute "tops" is expected but not provided}}
  %y = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 8.000000e+00>, input_z = array<i64: -79>, weight_clip = 2.500000e-01 : f32, weight_z = -159 : i64} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @pool_without_tops(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{'nnie.pool' op attribute "tops" is expected but not provided}}
  %y = "nnie.pool"(%x) {layer_name = "pool", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @eltwise_without_tops(%a: tensor<1x64x56x56xf32>, %b: tensor<1x64x56x56xf32>) {
  // expected-error @+1 {{'nnie.eltwise' op attribute "tops" is expected but not provided}}
  %y = "nnie.eltwise"(%a, %b) {layer_name = "eltwise", operation = "sum", input_clip = array<f32: 4.000000e+00, 2.000000e+00>, input_z = array<i64: -95, -111>} : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @concat_without_tops(%a: tensor<1x64x8x8xf32>, %b: tensor<1x32x8x8xf32>) {
  // expected-error @+1 {{'nnie.concat' op attribute "tops" is expected but not provided}}
  %y = "nnie.concat"(%a, %b) {layer_name = "concat", axis = 1 : i64, input_clip = array<f32: 4.000000e+00, 4.000000e+00>, input_z = array<i64: -95, -95>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  return
}

// -----

func.func @upsample_without_tops(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.upsample' op attribute "tops" is expected but not provided}}
  %y = "nnie.upsample"(%x) {layer_name = "upsample", scale = 2 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>} : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @relu_without_tops(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.relu' op attribute "tops" is expected but not provided}}
  %y = "nnie.relu"(%x) {layer_name = "relu", negative_slope = 0.000000e+00 : f32} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @softmax_without_tops(%x: tensor<1x1000xf32>) {
  // expected-error @+1 {{'nnie.softmax' op attribute "tops" is expected but not provided}}
  %y = "nnie.softmax"(%x) {layer_name = "softmax", axis = 1 : i64} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return
}

// -----

func.func @reshape_without_tops(%x: tensor<1x512x1x1xf32>) {
  // expected-error @+1 {{'nnie.reshape' op attribute "tops" is expected but not provided}}
  %y = "nnie.reshape"(%x) {layer_name = "reshape", shape = array<i64: 0, 512, 1, 1>} : (tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
  return
}

// -----

func.func @permute_without_tops(%x: tensor<1x16x8x4xf32>) {
  // expected-error @+1 {{'nnie.permute' op attribute "tops" is expected but not provided}}
  %y = "nnie.permute"(%x) {layer_name = "permute", order = array<i64: 0, 2, 3, 1>} : (tensor<1x16x8x4xf32>) -> tensor<1x8x4x16xf32>
  return
}

// -----

func.func @deconv_without_tops(%x: tensor<1x8x8x8xf32>, %w: tensor<8x1x3x3xf32>) {
  // expected-error @+1 {{'nnie.deconv' op attribute "tops" is expected but not provided}}
  %y = "nnie.deconv"(%x, %w) {layer_name = "up3", kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0>, group = 8 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, weight_clip = 1.000000e+00 : f32, weight_z = -127 : i64} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x24x24xf32>
  return
}

// -----

func.func @slice_without_tops(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.slice' op attribute "tops" is expected but not provided}}
  %y = "nnie.slice"(%x) {layer_name = "half", axis = 1 : i64, start = 0 : i64, end = 8 : i64} : (tensor<1x16x8x8xf32>) -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @split_without_tops(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.split' op attribute "tops" is expected but not provided}}
  %a, %b = "nnie.split"(%x) {layer_name = "chunk", axis = 1 : i64, slice_point = array<i64: 3>, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16x8x8xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x13x8x8xf32>)
  return
}

// -----

func.func @channel_scale_without_tops(%x: tensor<1x16x8x8xf32>, %g: tensor<1x16x1x1xf32>) {
  // expected-error @+1 {{'nnie.channel_scale' op attribute "tops" is expected but not provided}}
  %y = "nnie.channel_scale"(%x, %g) {layer_name = "se_mul", input_clip = array<f32: 4.000000e+00, 1.000000e+00>, input_z = array<i64: -95, -127>} : (tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @affine_without_tops(%x: tensor<1x16x8x8xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.affine' op attribute "tops" is expected but not provided}}
  %y = "nnie.affine"(%x, %s, %b) {layer_name = "bn", input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @sigmoid_without_tops(%x: tensor<1x16x1x1xf32>) {
  // expected-error @+1 {{'nnie.sigmoid' op attribute "tops" is expected but not provided}}
  %y = "nnie.sigmoid"(%x) {layer_name = "gate"} : (tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  return
}

// -----

func.func @tanh_without_tops(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.tanh' op attribute "tops" is expected but not provided}}
  %y = "nnie.tanh"(%x) {layer_name = "t"} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @power_without_tops(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.power' op attribute "tops" is expected but not provided}}
  %y = "nnie.power"(%x) {layer_name = "plus3", power = 1.000000e+00 : f32, scale = 1.000000e+00 : f32, shift = 3.000000e+00 : f32} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @channel_scale_without_input_clip(%x: tensor<1x16x8x8xf32>, %g: tensor<1x16x1x1xf32>) {
  // expected-error @+1 {{'nnie.channel_scale' op attribute "input_clip" is expected but not provided}}
  %y = "nnie.channel_scale"(%x, %g) {layer_name = "se_mul", input_z = array<i64: -95, -127>, tops = ["y"]} : (tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @affine_without_input_z(%x: tensor<1x16x8x8xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.affine' op attribute "input_z" is expected but not provided}}
  %y = "nnie.affine"(%x, %s, %b) {layer_name = "bn", input_clip = array<f32: 4.000000e+00>, tops = ["y"]} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return
}
