// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(nvdla-load-ctable{file=%S/Inputs/does-not-exist.json})'
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(nvdla-load-ctable)' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: nvdla-load-ctable needs file=<path to the CTable JSON>
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(nvdla-gen-ctable)' 2>&1 | FileCheck %s --check-prefix=NOGEN
// NOGEN: nvdla-gen-ctable needs file=<path of the JSON to write>
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(nvdla-load-ctable{file=%s format=tflite})' 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: option 'format' expects one of ctable, nvidia, calibtable, trt-cache, amct, amct-text, auto, got 'tflite'

// The table cannot be read: an error naming it, and the IR stays as it was.
module attributes {nvdla.config = "nv_full"} {
  // expected-error @+1 {{nvdla-load-ctable: cannot read}}
  func.func @main_graph(%x: tensor<1x16x8x8xf16> {onnx.name = "x"}) -> (tensor<1x16x4x4xf16> {onnx.name = "y"}) {
    %y = "nvdla.pdp"(%x) {hw_layer = "pool", precision = "fp16", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
        stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
        : (tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16>
    return %y : tensor<1x16x4x4xf16>
  }
}
