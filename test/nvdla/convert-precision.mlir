// convert-onnx-to-nvdla{precision=}: nv_full lowers to INT8 when asked (i8 feature
// tensors, int8 ops, calibrated afterwards by nvdla-load-ctable), FP16 by default;
// a precision the configuration's datapath lacks is refused when the pipeline is parsed.
// RUN: onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_full precision=int8})' | FileCheck %s --check-prefix=INT8
// RUN: onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_full})' | FileCheck %s --check-prefix=FP16
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_small precision=fp16})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(convert-onnx-to-nvdla{precision=int16})' 2>&1 | FileCheck %s --check-prefix=ENUM

// INT8: "nvdla.pdp"({{.*}}) {{{.*}}precision = "int8"{{.*}}} : (tensor<1x16x8x8xi8>) -> tensor<1x16x4x4xi8>
// FP16: "nvdla.pdp"({{.*}}) {{{.*}}precision = "fp16"{{.*}}} : (tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16>
// BAD: nv_small cannot compile in fp16; it compiles in int8
// ENUM: option 'precision' expects one of auto, fp16, int8, got 'int16'
func.func @main_graph(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x4x4xf32> {
  %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>) -> tensor<1x16x4x4xf32>
  return %y : tensor<1x16x4x4xf32>
}
