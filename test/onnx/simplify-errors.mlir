// onnx-simplify works on functions of onnx ops; anything else is reported at the op.
// RUN: onnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnx-simplify)'

func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{onnx-simplify: 'arith.addf' op has no ONNX form; only onnx dialect ops (and arith.constant tensors) export}}
  %y = arith.addf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnx-simplify{fold-limit=-1})' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: option 'fold-limit' expects an integer in [0, 9223372036854775807], got '-1'
func.func @f() {
  return
}
