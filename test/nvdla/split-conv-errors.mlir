// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(nvdla-split-conv)'

// The failure paths of nvdla-split-conv (passes/src/nvdla/split.rs): the IR is
// left unchanged and the error says what to run first.

// A module that was never converted for a configuration.
// expected-error @+1 {{nvdla-split-conv: the module has no nvdla.config attribute (run convert-onnx-to-nvdla{config=...} first)}}
func.func @main_graph(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  return %x : tensor<1x16x8x8xf16>
}
