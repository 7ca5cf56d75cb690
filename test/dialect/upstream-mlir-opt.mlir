// Our dialect files are plain IRDL: upstream mlir-opt-22 loads each of them with
// --irdl-file and then parses, verifies and prints IR of that dialect, with no onnc code.
//
// RUN: rm -rf %t && split-file %s %t
//
// Each dialect file on its own.
// RUN: %mlir_opt --irdl-file=%dialects_dir/onnx.irdl.mlir %t/onnx.mlir | FileCheck %t/onnx.mlir
// RUN: %mlir_opt --irdl-file=%dialects_dir/nvdla.irdl.mlir %t/nvdla.mlir | FileCheck %t/nvdla.mlir
// RUN: %mlir_opt --irdl-file=%dialects_dir/nnie.irdl.mlir %t/nnie.mlir | FileCheck %t/nnie.mlir
// RUN: %mlir_opt --irdl-file=%dialects_dir/mvu.irdl.mlir %t/mvu.mlir | FileCheck %t/mvu.mlir
//
// The loaded definitions really verify: a bad op is rejected with IRDL's message.
// RUN: not %mlir_opt --irdl-file=%dialects_dir/onnx.irdl.mlir %t/bad-onnx.mlir 2>&1 | FileCheck %t/bad-onnx.mlir
//
// mlir-opt keeps only the LAST --irdl-file flag, so the first dialect is then unknown; load
// several dialects from one concatenated file instead (what the private test setup does).
// RUN: not %mlir_opt --irdl-file=%dialects_dir/onnx.irdl.mlir --irdl-file=%dialects_dir/nvdla.irdl.mlir %t/onnx.mlir 2>&1 | FileCheck %s --check-prefix=LAST-WINS
// LAST-WINS: error: operation being parsed with an unregistered dialect
// RUN: cat %dialects_dir/onnx.irdl.mlir %dialects_dir/nvdla.irdl.mlir %dialects_dir/nnie.irdl.mlir %dialects_dir/mvu.irdl.mlir > %t/all.irdl.mlir
// RUN: %mlir_opt --irdl-file=%t/all.irdl.mlir %t/mixed.mlir | %mlir_opt --irdl-file=%t/all.irdl.mlir | FileCheck %t/mixed.mlir
//
// The dialect files are themselves valid IRDL that mlir-opt verifies and prints.
// RUN: %mlir_opt %dialects_dir/onnx.irdl.mlir | FileCheck %s --check-prefix=IRDL-ONNX
// IRDL-ONNX: irdl.dialect @onnx {
// IRDL-ONNX: irdl.operation @conv {
// IRDL-ONNX: irdl.operation @shape {
// RUN: %mlir_opt %dialects_dir/nvdla.irdl.mlir | FileCheck %s --check-prefix=IRDL-NVDLA
// IRDL-NVDLA: irdl.dialect @nvdla {
// IRDL-NVDLA-COUNT-10: irdl.operation @
// IRDL-NVDLA-NOT: irdl.operation @

//--- onnx.mlir
// CHECK-LABEL: func.func @onnx_sample
// CHECK: "onnx.conv"(%{{.*}}, %{{.*}}) {auto_pad = "NOTSET"
// CHECK: "onnx.relu"
// CHECK: "onnx.global_average_pool"
func.func @onnx_sample(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32> {
  %0 = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = "onnx.relu"(%0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = "onnx.global_average_pool"(%1) : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32>
  return %2 : tensor<1x4x1x1xf32>
}

//--- bad-onnx.mlir
// CHECK: error: 'onnx.softmax' op attribute "axis" is expected but not provided
func.func @bad(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = "onnx.softmax"(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

//--- nvdla.mlir
// CHECK-LABEL: func.func @nvdla_sample
// CHECK: "nvdla.pdp"(%{{.*}}) {hw_layer = "pool1"
// CHECK: "nvdla.emu"(%{{.*}}) {hw_layer = "prob", input_scale_factor = 1.000000e+00 : f32, op_type = "softmax"
func.func @nvdla_sample(%x: tensor<1x16x8x8xi8>, %p: tensor<1x10x1x1xf16>) {
  %0 = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64, stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64} : (tensor<1x16x8x8xi8>) -> tensor<1x16x4x4xi8>
  %1 = "nvdla.emu"(%p) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.0 : f32, output_scale_factor = 1.0 : f32} : (tensor<1x10x1x1xf16>) -> tensor<1x10x1x1xf16>
  return
}

//--- nnie.mlir
// CHECK-LABEL: func.func @nnie_sample
// CHECK: "nnie.upsample"(%{{.*}}) {input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, layer_name = "up", scale = 2 : i64, tops = ["0"]}
func.func @nnie_sample(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32> {
  %0 = "nnie.upsample"(%x) {layer_name = "up", scale = 2 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  return %0 : tensor<1x4x16x16xf32>
}

//--- mvu.mlir
// CHECK-LABEL: func.func @mvu_sample
// CHECK: "mvu.matmul"(%{{.*}}, %{{.*}}) {{{.*}}countdown = 32 : i64
func.func @mvu_sample(%x: tensor<1x512xi8>, %w: tensor<10x512xi8>) -> tensor<1x10xi8> {
  %0 = "mvu.matmul"(%x, %w) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64, ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>, ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>, wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>, countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x512xi8>, tensor<10x512xi8>) -> tensor<1x10xi8>
  return %0 : tensor<1x10xi8>
}

//--- mixed.mlir
// All four dialects in one module: the ONNX graph next to its lowered forms.
// CHECK-LABEL: func.func @mixed
// CHECK: "onnx.relu"
// CHECK: "nvdla.bdma"
// CHECK: "nnie.relu"
// CHECK: "mvu.conv"
func.func @mixed(%x: tensor<1x64x32x32xi8>, %w: tensor<64x64x3x3xi8>, %f: tensor<1x4xf32>) {
  %0 = "onnx.relu"(%f) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = "nvdla.bdma"(%x) {hw_layer = "copy", source_type = "mc", destination_type = "cv"} : (tensor<1x64x32x32xi8>) -> tensor<1x64x32x32xi8>
  %2 = "nnie.relu"(%f) {layer_name = "r", negative_slope = 0.0 : f32, tops = ["2"]} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 2 : i64, asigned = 0 : i64, wsigned = 0 : i64, ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64, ilength = array<i64: 0, 3, 2, 2, 0>, ijump = array<i64: -132, -132, 60, 2, 0>, wlength = array<i64: 0, 0, 3, 8, 0>, wjump = array<i64: -16, 2, -16, 2, 0>, countdown = 1080 : i64, mul_mode = 1 : i64, quant_msb = 1 : i64, omvu_mask = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  return
}
