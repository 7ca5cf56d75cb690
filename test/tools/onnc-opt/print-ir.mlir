// The upstream printing flags work with our passes.
// RUN: onnc-opt %s --pass-pipeline='builtin.module(func.func(onnc-dce),cse)' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: IR Dump After onnc-dce
// AFTER-NOT: "onnx.sigmoid"
// AFTER: IR Dump After CSE

// RUN: onnc-opt %s --pass-pipeline='builtin.module(func.func(onnc-dce))' --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE: IR Dump Before onnc-dce
// BEFORE: "onnx.sigmoid"

// RUN: onnc-opt %s --pass-pipeline='builtin.module(func.func(onnc-dce))' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: onnc-dce

// RUN: onnc-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// LOC: loc("relu1")

// RUN: onnc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// GENERIC: "func.func"() <{
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "onnx.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("relu1")
  %b = "onnx.sigmoid"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
