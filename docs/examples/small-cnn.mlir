// A small CNN block in the onnx dialect, as the importer writes it: conv,
// batch-norm, relu, pool, a classifier, and one dead branch left over from an
// export. Used by the README's first command.
func.func @main_graph(%input: tensor<1x3x32x32xf32>) -> tensor<1x10xf32> {
  %w1 = "onnx.constant"() {value = dense<0.01> : tensor<16x3x3x3xf32>} : () -> tensor<16x3x3x3xf32> loc("conv1_w")
  %b1 = "onnx.constant"() {value = dense<0.0> : tensor<16xf32>} : () -> tensor<16xf32> loc("conv1_b")
  %c1 = "onnx.conv"(%input, %w1, %b1) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32> loc("conv1")
  %r1 = "onnx.relu"(%c1) : (tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> loc("relu1")
  %p1 = "onnx.max_pool"(%r1) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32> loc("pool1")
  %dead = "onnx.sigmoid"(%p1) : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32> loc("unused_branch")
  %g = "onnx.global_average_pool"(%p1) : (tensor<1x16x16x16xf32>) -> tensor<1x16x1x1xf32> loc("gap")
  %f = "onnx.flatten"(%g) {axis = 1 : i64} : (tensor<1x16x1x1xf32>) -> tensor<1x16xf32> loc("flatten")
  %w2 = "onnx.constant"() {value = dense<0.02> : tensor<10x16xf32>} : () -> tensor<10x16xf32> loc("fc_w")
  %b2 = "onnx.constant"() {value = dense<0.0> : tensor<10xf32>} : () -> tensor<10xf32> loc("fc_b")
  %y = "onnx.gemm"(%f, %w2, %b2) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<1x10xf32> loc("fc")
  return %y : tensor<1x10xf32>
}
