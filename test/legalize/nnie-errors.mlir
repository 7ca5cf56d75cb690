// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnc-legalize{target=nnie})'

// A depthwise Conv is legal on NNIE (Caffe runs it as a group convolution; the NNIE back end
// warns that nnie_mapper maps it slowly), so this chunk produces no diagnostic.
func.func @main_graph(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %w = "onnx.constant"() {value = dense<0.1> : tensor<8x1x3x3xf32>} : () -> tensor<8x1x3x3xf32> loc("w")
  %y = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 8 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

// -----

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnc-legalize{target=tpu})' 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: option 'target' expects one of nv_full, nv_large, nv_small, nnie, mvu, got 'tpu'
func.func @f() {
  return
}
