// Every op no rule makes legal is reported at once, at its own location, naming
// the op, the target and the violated limit.
// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnc-legalize{target=nv_full})'

func.func @main_graph(%x: tensor<1x4x20x20xf32>) -> (tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>) {
  // expected-error @+1 {{'MaxPool' cannot run on nv_full: MaxPool kernel 9 exceeds nv_full's limit of 8}}
  %a = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 9, 9>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 1, 1>} : (tensor<1x4x20x20xf32>) -> tensor<1x4x12x12xf32>
  // expected-error @+1 {{'MaxPool' cannot run on nv_full}}
  %b = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 9, 9>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 1, 1>} : (tensor<1x4x20x20xf32>) -> tensor<1x4x12x12xf32>
  return %a, %b : tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>
}
