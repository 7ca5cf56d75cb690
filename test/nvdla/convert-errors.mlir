// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_small})'

// nv_small has no SDP element-wise unit: a residual add cannot be lowered. The error is at
// the add, says what is missing and what would fix it; the IR is left unchanged.
func.func @main_graph(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %w = "onnx.constant"() {value = dense<0.1> : tensor<16x16x3x3xf32>} : () -> tensor<16x16x3x3xf32>
  %c = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  // expected-error @+1 {{element-wise}}
  %y = "onnx.add"(%c, %x) : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

// -----

// An op NVDLA has no engine for (and the EMU does not run) is refused at its location.
func.func @main_graph(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  // expected-error @+1 {{Exp}}
  %y = "onnx.exp"(%x) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

// -----

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_medium})' 2>&1 | FileCheck %s --check-prefix=CONFIG
// CONFIG: option 'config' expects one of nv_full, nv_large, nv_small, got 'nv_medium'
func.func @f() {
  return
}
