// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_small})'

// nv_small has no SDP Y unit: x − s with s per channel is −(−x + s), which needs a third
// sub-unit to negate. The error is at the sub, says what is missing and what would fix
// it; the IR is left unchanged. (A residual add, s − x and x · s run on X1 and X2.)
func.func @main_graph(%x: tensor<1x16x8x8xf32>, %s: tensor<1x16x1x1xf32>) -> tensor<1x16x8x8xf32> {
  // expected-error @+1 {{needs more SDP sub-units than nv_small has: X1 and X2 (no Y unit)}}
  %y = "onnx.sub"(%x, %s) : (tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x8x8xf32>
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
