// MLIR text -> bytecode -> text is lossless.
// RUN: onnc-translate --mlir-to-bytecode %s -o %t.mlirbc
// RUN: onnc-translate --bytecode-to-mlir %t.mlirbc | FileCheck %s
// RUN: onnc-opt %t.mlirbc | FileCheck %s
// CHECK: func.func @f(%arg0: tensor<4xf32>)
// CHECK: "onnx.relu"(%arg0)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "onnx.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
