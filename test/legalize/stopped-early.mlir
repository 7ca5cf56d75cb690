// When equality saturation stops at a limit before trying every rewrite, the
// refusal says so and names the option that explores further: the ops it lists
// may have a legal form the run did not reach. Here the Sub and Div by a
// constant become Add and Mul (and Softmax goes to the CPU path) with the
// default limits, but not within a node limit of 1.
// RUN: onnc-opt %s --pass-pipeline='builtin.module(onnc-legalize{target=nv_full})' | FileCheck %s --check-prefix=OK
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnc-legalize{target=nv_full node-limit=1})' 2>&1 | FileCheck %s
// OK-NOT: onnx.sub
// OK-NOT: onnx.div
// CHECK: node 'sub' (Sub): error: cannot run on nv_full: Sub of a constant runs as an Add on nv_full
// CHECK: node 'div' (Div): error: cannot run on nv_full
// CHECK: legalization stopped at its e-node limit ({{[0-9]+}} e-nodes) before trying every rewrite, so some of these ops may have a legal form it did not reach; a larger onnc-legalize{node-limit=…} explores further
// CHECK: error: 3 problems
func.func @main_graph(%x: tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32> {
  %k = "onnx.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32> loc("k")
  %a = "onnx.sub"(%x, %k) : (tensor<1x10x1x1xf32>, tensor<f32>) -> tensor<1x10x1x1xf32> loc("sub")
  %b = "onnx.div"(%a, %k) : (tensor<1x10x1x1xf32>, tensor<f32>) -> tensor<1x10x1x1xf32> loc("div")
  %s = "onnx.softmax"(%b) {axis = 1 : i64} : (tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32> loc("softmax")
  return %s : tensor<1x10x1x1xf32>
}
