// RUN: split-file %s %t
// RUN: for f in bn gemm gap subdiv transpose stride layernorm; do onnc-opt %t/$f.mlir --pass-pipeline='builtin.module(onnc-legalize{target=nv_full})' --mlir-print-debuginfo || exit 1; done | FileCheck %s
// Numerics: every case computes the same before and after (reference interpreter, seeded inputs).
// RUN: onnc-run %t/bn.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 1 | FileCheck %s --check-prefix=NUM
// RUN: onnc-run %t/gemm.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 2 | FileCheck %s --check-prefix=NUM
// RUN: onnc-run %t/gap.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 3 | FileCheck %s --check-prefix=NUM
// RUN: onnc-run %t/subdiv.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 4 | FileCheck %s --check-prefix=NUM
// RUN: onnc-run %t/transpose.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 5 | FileCheck %s --check-prefix=NUM
// RUN: onnc-run %t/stride.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 6 | FileCheck %s --check-prefix=NUM
// RUN: onnc-run %t/layernorm.mlir --compare-pipeline 'builtin.module(onnc-legalize{target=nv_full})' --random-inputs 7 | FileCheck %s --check-prefix=NUM
// NUM: ok

//--- bn.mlir
// BatchNormalization folds into the preceding Conv; the merged op keeps both names.
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.batch_normalization
// CHECK: "onnx.conv"{{.*}} loc(#[[FUSED:loc[0-9]*]])
// CHECK-DAG: #[[CONV:loc[0-9]+]] = loc("conv1")
// CHECK-DAG: #[[BN:loc[0-9]+]] = loc("bn1")
// CHECK-DAG: #[[FUSED]] = loc(fused[#[[CONV]], #[[BN]]])
func.func @main_graph(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = "onnx.constant"() {value = dense<0.5> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32> loc("w")
  %c = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> loc("conv1")
  %s = "onnx.constant"() {value = dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf32>} : () -> tensor<4xf32> loc("s")
  %b = "onnx.constant"() {value = dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>} : () -> tensor<4xf32> loc("b")
  %m = "onnx.constant"() {value = dense<[0.0, 1.0, -1.0, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32> loc("m")
  %v = "onnx.constant"() {value = dense<[1.0, 0.5, 2.0, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32> loc("v")
  %n = "onnx.batch_normalization"(%c, %s, %b, %m, %v) {epsilon = 1.0e-05 : f32, momentum = 0.9 : f32, resultSegmentSizes = array<i32: 1, 0, 0>, training_mode = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> loc("bn1")
  return %n : tensor<1x4x8x8xf32>
}

//--- gemm.mlir
// Flatten -> Reshape, Gemm -> 1x1 Conv (with reshapes around it).
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.flatten
// CHECK-NOT: onnx.gemm
// CHECK: "onnx.conv"
func.func @main_graph(%x: tensor<1x4x2x2xf32>) -> tensor<1x5xf32> {
  %f = "onnx.flatten"(%x) {axis = 1 : i64} : (tensor<1x4x2x2xf32>) -> tensor<1x16xf32> loc("flat")
  %w = "onnx.constant"() {value = dense<0.25> : tensor<5x16xf32>} : () -> tensor<5x16xf32> loc("fc_w")
  %b = "onnx.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>} : () -> tensor<5xf32> loc("fc_b")
  %y = "onnx.gemm"(%f, %w, %b) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x16xf32>, tensor<5x16xf32>, tensor<5xf32>) -> tensor<1x5xf32> loc("fc")
  return %y : tensor<1x5xf32>
}

//--- gap.mlir
// A 16x16 GlobalAveragePool exceeds PDP's 8x8 window: split into pools <= 8 (and a correcting Mul if needed).
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.global_average_pool
// CHECK: "onnx.average_pool"{{.*}}kernel_shape = array<i64: [[K:[1-8]]], [[K]]>
func.func @main_graph(%x: tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32> {
  %y = "onnx.global_average_pool"(%x) : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32> loc("gap")
  return %y : tensor<1x8x1x1xf32>
}

//--- subdiv.mlir
// Sub/Div by a constant become Add/Mul; Softmax goes to the CPU path (EMU).
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.sub
// CHECK-NOT: onnx.div
// CHECK: "onnx.softmax"{{.*}}onnc.device = "cpu"
func.func @main_graph(%x: tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32> {
  %k = "onnx.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32> loc("k")
  %a = "onnx.sub"(%x, %k) : (tensor<1x10x1x1xf32>, tensor<f32>) -> tensor<1x10x1x1xf32> loc("sub")
  %b = "onnx.div"(%a, %k) : (tensor<1x10x1x1xf32>, tensor<f32>) -> tensor<1x10x1x1xf32> loc("div")
  %s = "onnx.softmax"(%b) {axis = 1 : i64} : (tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32> loc("softmax")
  return %s : tensor<1x10x1x1xf32>
}

//--- transpose.mlir
// An NCHW -> NHWC -> NCHW round trip composes to the identity and disappears
// (each Transpose alone moves spatial axes, which nv_full refuses).
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.transpose
// CHECK: "onnx.relu"
func.func @main_graph(%x: tensor<1x4x3x5xf32>) -> tensor<1x4x3x5xf32> {
  %t = "onnx.transpose"(%x) {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x3x5xf32>) -> tensor<1x3x5x4xf32> loc("to_nhwc")
  %u = "onnx.transpose"(%t) {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x3x5x4xf32>) -> tensor<1x4x3x5xf32> loc("to_nchw")
  %y = "onnx.relu"(%u) : (tensor<1x4x3x5xf32>) -> tensor<1x4x3x5xf32> loc("r")
  return %y : tensor<1x4x3x5xf32>
}

//--- stride.mlir
// A stride above the hardware's 8 (ViT's 16x16 patch embedding at stride 16) runs
// at stride 8, then a strided Slice keeps every other row and column
// (nvdla/conv-stride-split; exact).
// CHECK-LABEL: func.func @main_graph
// CHECK: "onnx.conv"{{.*}}strides = array<i64: 8, 8>
// CHECK: "onnx.slice"
func.func @main_graph(%x: tensor<1x3x32x32xf32>) -> tensor<1x4x2x2xf32> {
  %w = "onnx.constant"() {value = dense<0.25> : tensor<4x3x16x16xf32>} : () -> tensor<4x3x16x16xf32> loc("w")
  %c = "onnx.conv"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 16, 16>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 16, 16>} : (tensor<1x3x32x32xf32>, tensor<4x3x16x16xf32>) -> tensor<1x4x2x2xf32> loc("patch")
  return %c : tensor<1x4x2x2xf32>
}

//--- layernorm.mlir
// Layer normalization written out op by op (PyTorch before opset 17) is one
// LayerNormalization over the last axis with the same epsilon
// (common/layer-norm-fuse), which the NVDLA lowering maps over 3-D tokens.
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: onnx.reduce_mean
// CHECK-NOT: onnx.sqrt
// CHECK: "onnx.custom"{{.*}}axis = -1 : i64{{.*}}epsilon = 9.99999974E-6 : f32{{.*}}op_type = "LayerNormalization"
// CHECK-NOT: onnx.div
// CHECK: return
func.func @main_graph(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %axes = "onnx.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64> loc("axes")
  %two = "onnx.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32> loc("two")
  %eps = "onnx.constant"() {value = dense<9.99999974E-6> : tensor<f32>} : () -> tensor<f32> loc("eps")
  %m = "onnx.reduce_mean"(%x, %axes) {keepdims = 1 : i64, noop_with_empty_axes = 0 : i64} : (tensor<1x4x8xf32>, tensor<1xi64>) -> tensor<1x4x1xf32> loc("mean")
  %d = "onnx.sub"(%x, %m) : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x8xf32> loc("centre")
  %d2 = "onnx.pow"(%d, %two) : (tensor<1x4x8xf32>, tensor<f32>) -> tensor<1x4x8xf32> loc("square")
  %v = "onnx.reduce_mean"(%d2, %axes) {keepdims = 1 : i64, noop_with_empty_axes = 0 : i64} : (tensor<1x4x8xf32>, tensor<1xi64>) -> tensor<1x4x1xf32> loc("var")
  %ve = "onnx.add"(%v, %eps) : (tensor<1x4x1xf32>, tensor<f32>) -> tensor<1x4x1xf32> loc("add_eps")
  %s = "onnx.sqrt"(%ve) : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32> loc("std")
  %y = "onnx.div"(%d, %s) : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x8xf32> loc("norm")
  return %y : tensor<1x4x8xf32>
}
