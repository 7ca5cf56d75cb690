// nvdla-split-conv: ResNet-50's stem (3x224x224 -> 64x112x112, 7x7 stride 2 pad 3)
// does not fit nv_full's CBUF whole (49 banks of input, 16 in all). The pass records
// its plan on the conv: the weights (1 bank) stay in the CBUF across 4 bands of
// 31, 31, 31 and 19 output rows read from 15 data banks; only the first band is
// padded on top and only the last below.
//
// RUN: onnc-opt %s --pass-pipeline='builtin.module(onnx-simplify,onnc-legalize{target=nv_full},convert-onnx-to-nvdla{config=nv_full},nvdla-split-conv)' -o %t.split.mlir
// RUN: FileCheck %s < %t.split.mlir
// CHECK: "nvdla.conv"{{.*}}nvdla.cbuf = {data_bank = 15 : i64, in_rows = array<i64: 64, 67, 67, 41>, in_top = array<i64: 0, 59, 121, 183>, keep_weights = array<i64: 1, 1, 1, 0>, out_rows = array<i64: 31, 31, 31, 19>, pad_bottom = array<i64: 0, 0, 0, 2>, pad_top = array<i64: 3, 0, 0, 0>, reuse_weights = array<i64: 0, 1, 1, 1>, weight_bank = 1 : i64}
// CHECK: "nvdla.sdp"
// CHECK-NOT: nvdla.cbuf
//
// The text round trip keeps the plan, and emission writes one conv+SDP pair per band.
// RUN: onnc-opt %t.split.mlir --pass-pipeline='builtin.module(nvdla-plan-memory)' -o %t.planned.mlir
// RUN: FileCheck %s < %t.planned.mlir
// RUN: onnc-translate --to-nvdla-loadable %t.planned.mlir -o %t.nvdla
//
// Emission plans nothing: the same conv without a plan is refused, naming it.
// RUN: onnc-opt %s --pass-pipeline='builtin.module(onnx-simplify,onnc-legalize{target=nv_full},convert-onnx-to-nvdla{config=nv_full},nvdla-plan-memory)' -o %t.unsplit.mlir
// RUN: not onnc-translate --to-nvdla-loadable %t.unsplit.mlir -o %t.bad.nvdla 2>&1 | FileCheck %s --check-prefix=REFUSE
// REFUSE: error: conv op '{{.*}}': does not fit the CBUF whole (4 row bands needed on nv_full) and has no CBUF plan (nvdla.cbuf); run nvdla-split-conv before emission (`onnc compile` runs it)
//
// A plan that does not fit its conv (band 1 one row short) is refused, not emitted.
// RUN: sed 's/out_rows = array<i64: 31, 31, 31, 19>/out_rows = array<i64: 31, 30, 31, 19>/' %t.planned.mlir > %t.bent.mlir
// RUN: not onnc-translate --to-nvdla-loadable %t.bent.mlir -o %t.bad.nvdla 2>&1 | FileCheck %s --check-prefix=BENT
// BENT: error: conv op '{{.*}}': its recorded CBUF plan (nvdla.cbuf) does not fit it: band 1:
//
// A malformed plan is a parse error naming the attribute.
// RUN: sed 's/in_top = array<i64: 0, 59, 121, 183>/in_top = array<i64: 0, 59>/' %t.planned.mlir > %t.short.mlir
// RUN: not onnc-translate --to-nvdla-loadable %t.short.mlir -o %t.bad.nvdla 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: nvdla.cbuf: 'in_top' has 2 elements but out_rows has 4: one per band
func.func @main_graph(%x: tensor<1x3x224x224xf32>) -> tensor<1x64x112x112xf32> {
  %w = arith.constant dense<0.01> : tensor<64x3x7x7xf32>
  %y = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 7, 7>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
  return %y : tensor<1x64x112x112xf32>
}
