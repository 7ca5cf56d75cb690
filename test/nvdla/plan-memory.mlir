// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(nvdla-plan-memory)'

// The failure paths of the nvdla passes' conversion to the back end's program
// (passes/src/nvdla/from_ir.rs), seen through nvdla-plan-memory.

// A module that was never converted for a configuration.
// expected-error @+1 {{nvdla-plan-memory: the module has no nvdla.config attribute (run convert-onnx-to-nvdla{config=...} first)}}
func.func @main_graph(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  return %x : tensor<1x16x8x8xf16>
}

// -----

// An onnx op left over.
module attributes {nvdla.config = "nv_full"} {
  func.func @main_graph(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
    // expected-error @+1 {{'onnx.relu' op is left over: the NVDLA back end needs every op lowered (run convert-onnx-to-nvdla)}}
    %y = "onnx.relu"(%x) : (tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16>
    return %y : tensor<1x16x8x8xf16>
  }
}

// -----

// A network input of a type NVDLA does not bind.
module attributes {nvdla.config = "nv_full"} {
  // expected-error @+1 {{argument 0 ('x') has element type f32; NVDLA inputs are f16, i8 or i16}}
  func.func @main_graph(%x: tensor<1x16x8x8xf32> {onnx.name = "x"}) -> tensor<1x16x8x8xf32> {
    return %x : tensor<1x16x8x8xf32>
  }
}
