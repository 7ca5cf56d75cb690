func.func @f() -> tensor<2xf32> {
  %w = "onnx.constant"() {value = dense_resource<w> : tensor<2xf32>} : () -> tensor<2xf32>
  return %w : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x000000000000803F0000803F"
    }
  }
#-}
