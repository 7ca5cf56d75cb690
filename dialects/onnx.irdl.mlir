// The `onnx` dialect: ONNX operators as imported by `onnc-translate --import-onnx`.
//
// Loaded into every onnc context (and into `mlir-opt-22 --irdl-file=`). IRDL gives structural
// verification only; shape rules, value ranges and cross-attribute rules are Rust verifiers.
// Ops print in MLIR's generic form. Spec pages: https://onnx.ai/onnx/operators/onnx__<Op>.html
//
// Conventions (docs/dialects/onnx.md has the long form):
// * Op names are the ONNX op_type in snake_case: `_` goes before every capital that follows a
//   lowercase letter or a digit, then everything is lowercased (Conv -> onnx.conv,
//   ConvTranspose -> onnx.conv_transpose, MatMul -> onnx.mat_mul, PRelu -> onnx.prelu,
//   LRN -> onnx.lrn). IRDL (LLVM 22) rejects capitals in op, operand and result names, so
//   `onnx.Conv` cannot be defined. Each op's block names its ONNX op_type ("Spec: onnx__Conv").
//   Operand and result names are the ONNX names lowercased. Attribute names are ONNX's exactly.
//   Unknown operators (and ops of other domains) become `onnx.custom`.
// * Every op takes the operand form of the latest opset ("opset-normalized"): for example
//   Reshape/Squeeze/Unsqueeze/Split/Pad/Slice/ReduceMean/ReduceSum take their axes, sizes or
//   shape as an operand, Clip takes min/max as operands. The importer converts older forms
//   (each op's block says what it converts).
// * The importer materializes every ONNX default, so an attribute that always has a value after
//   defaults (or that is computable, like Conv's kernel_shape from the weight shape) is declared and required
//   here. Attributes with neither (Split's num_outputs, Dropout's seed, ...) are not declared
//   and stay discardable attributes, kept verbatim.
// * Attribute kinds:  INT    -> IntegerAttr, i64        (irdl.base "#builtin.integer")
//                     FLOAT  -> FloatAttr, f32          (irdl.base "#builtin.float")
//                     STRING -> StringAttr              (irdl.base "#builtin.string")
//                     INTS   -> array<i64: ...>         (irdl.base "#builtin.dense_array")
//                     TENSOR -> dense<...> / dense_resource<...> elements attribute
//   0/1 flags and string enums are checked exactly (irdl.any_of of irdl.is). IRDL cannot check
//   the integer width or the dense_array element type; the Rust verifier does.
// * Operands and results are ranked builtin tensors (`!builtin.tensor`; dimensions may be
//   dynamic, `tensor<?x3xf32>`). Unranked tensors (`tensor<*xf32>`) are rejected: the importer
//   gives every value its rank. Every operand and result has its own constraint value: in IRDL
//   one constraint value used twice means "the same type", and before shape inference the
//   importer may give a result a less precise type than its input.
// * Optional operands use `optional`. An op with two or more optional/variadic operands carries
//   `operandSegmentSizes = array<i32: ...>` (one entry per declared operand: 1 for a single,
//   0 or 1 for an optional, the count for a variadic); same for results and
//   `resultSegmentSizes`. Ops that need it: BatchNormalization (results), Clip, Concat,
//   Custom (both), Dropout, Pad, Resize, Slice.
// * All values of one variadic group must have the same type (IRDL binds the group's single
//   constraint value to the first value's type). Where the values naturally differ (Concat
//   inputs, Custom inputs/outputs) the op has numbered optional "slots" instead of a variadic
//   group; Sum/Max/Min inputs and Split outputs also use slots (16 each).
// * Every IRDL constraint value below belongs to exactly one operand, result or attribute: a
//   value shared by two attributes would force them to be equal.

irdl.dialect @onnx {

  // ===------------------------------------------------------------------------------------===
  // Constants and weights
  // ===------------------------------------------------------------------------------------===

  // onnx.constant: a constant tensor; also how initializers (weights) are imported.
  // Spec: onnx__Constant (opset 25). The importer folds value_float(s)/value_int(s)/
  //   value_string(s) into `value`; sparse_value is rejected by the importer.
  // Operands: none.
  // Results:  output: the tensor; its type equals the type of `value`.
  // Attributes:
  //   value  elements attribute: dense<...> (small constants), dense_resource<...> (weights,
  //          zero-copy blob) or a dense string elements attribute.
  // Example:
  //   %w = "onnx.constant"() {value = dense_resource<conv1_w> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32>
  irdl.operation @constant {
    %v_dense = irdl.base "#builtin.dense_int_or_fp_elements"
    %v_resource = irdl.base "#builtin.dense_resource_elements"
    %v_string = irdl.base "#builtin.dense_string_elements"
    %value = irdl.any_of(%v_dense, %v_resource, %v_string)
    irdl.attributes { "value" = %value }
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // onnx.constant_of_shape: a tensor of the given shape filled with one value.
  // Spec: onnx__ConstantOfShape (opset 25).
  // Operands: input: 1-D i64 tensor, the output shape.
  // Results:  output: tensor whose element type is that of `value`.
  // Attributes:
  //   value  one-element dense elements attribute (default: dense<0.0> : tensor<1xf32>,
  //          materialized by the importer).
  // Example:
  //   %y = "onnx.constant_of_shape"(%s) {value = dense<0.0> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  irdl.operation @constant_of_shape {
    %v_dense = irdl.base "#builtin.dense_int_or_fp_elements"
    %v_resource = irdl.base "#builtin.dense_resource_elements"
    %value = irdl.any_of(%v_dense, %v_resource)
    irdl.attributes { "value" = %value }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.custom: any operator the importer does not know (other domains, newer ops).
  // Kept so that a model always imports; `legalize-*` reports it as unsupported.
  // Operands: inputs_0 ... inputs_15, all optional "slots", filled from the front in node input
  //           order (an empty ONNX input name cannot be represented and is rejected).
  // Results:  outputs_0 ... outputs_15, the same way.
  //   Slots, not one variadic group: in IRDL (LLVM 22) all values of one variadic group must
  //   have the same type, and a custom op's inputs rarely do. So the op always carries
  //   operandSegmentSizes and resultSegmentSizes, 16 entries each, 1 for a used slot and 0 for
  //   the rest; used slots form a prefix (Rust verifier). More than 16 inputs or outputs is an
  //   import error.
  // Attributes:
  //   op_type  string, the ONNX op_type (e.g. "NonMaxSuppression")
  //   domain   string, the ONNX domain ("" for the default domain, "com.microsoft", ...)
  //   The node's own attributes are kept as discardable attributes under their ONNX names.
  // Example:
  //   %y = "onnx.custom"(%x, %w) {op_type = "FusedMatMul", domain = "com.microsoft", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  irdl.operation @custom {
    %op_type = irdl.base "#builtin.string"
    %domain = irdl.base "#builtin.string"
    irdl.attributes { "op_type" = %op_type, "domain" = %domain }
    %inputs_0 = irdl.base "!builtin.tensor"
    %inputs_1 = irdl.base "!builtin.tensor"
    %inputs_2 = irdl.base "!builtin.tensor"
    %inputs_3 = irdl.base "!builtin.tensor"
    %inputs_4 = irdl.base "!builtin.tensor"
    %inputs_5 = irdl.base "!builtin.tensor"
    %inputs_6 = irdl.base "!builtin.tensor"
    %inputs_7 = irdl.base "!builtin.tensor"
    %inputs_8 = irdl.base "!builtin.tensor"
    %inputs_9 = irdl.base "!builtin.tensor"
    %inputs_10 = irdl.base "!builtin.tensor"
    %inputs_11 = irdl.base "!builtin.tensor"
    %inputs_12 = irdl.base "!builtin.tensor"
    %inputs_13 = irdl.base "!builtin.tensor"
    %inputs_14 = irdl.base "!builtin.tensor"
    %inputs_15 = irdl.base "!builtin.tensor"
    %outputs_0 = irdl.base "!builtin.tensor"
    %outputs_1 = irdl.base "!builtin.tensor"
    %outputs_2 = irdl.base "!builtin.tensor"
    %outputs_3 = irdl.base "!builtin.tensor"
    %outputs_4 = irdl.base "!builtin.tensor"
    %outputs_5 = irdl.base "!builtin.tensor"
    %outputs_6 = irdl.base "!builtin.tensor"
    %outputs_7 = irdl.base "!builtin.tensor"
    %outputs_8 = irdl.base "!builtin.tensor"
    %outputs_9 = irdl.base "!builtin.tensor"
    %outputs_10 = irdl.base "!builtin.tensor"
    %outputs_11 = irdl.base "!builtin.tensor"
    %outputs_12 = irdl.base "!builtin.tensor"
    %outputs_13 = irdl.base "!builtin.tensor"
    %outputs_14 = irdl.base "!builtin.tensor"
    %outputs_15 = irdl.base "!builtin.tensor"
    irdl.operands(
      inputs_0: optional %inputs_0, inputs_1: optional %inputs_1, inputs_2: optional %inputs_2, inputs_3: optional %inputs_3,
      inputs_4: optional %inputs_4, inputs_5: optional %inputs_5, inputs_6: optional %inputs_6, inputs_7: optional %inputs_7,
      inputs_8: optional %inputs_8, inputs_9: optional %inputs_9, inputs_10: optional %inputs_10, inputs_11: optional %inputs_11,
      inputs_12: optional %inputs_12, inputs_13: optional %inputs_13, inputs_14: optional %inputs_14, inputs_15: optional %inputs_15
    )
    irdl.results(
      outputs_0: optional %outputs_0, outputs_1: optional %outputs_1, outputs_2: optional %outputs_2, outputs_3: optional %outputs_3,
      outputs_4: optional %outputs_4, outputs_5: optional %outputs_5, outputs_6: optional %outputs_6, outputs_7: optional %outputs_7,
      outputs_8: optional %outputs_8, outputs_9: optional %outputs_9, outputs_10: optional %outputs_10, outputs_11: optional %outputs_11,
      outputs_12: optional %outputs_12, outputs_13: optional %outputs_13, outputs_14: optional %outputs_14, outputs_15: optional %outputs_15
    )
  }

  // ===------------------------------------------------------------------------------------===
  // Convolution and matrix products
  // ===------------------------------------------------------------------------------------===

  // onnx.conv: N-d convolution.
  // Spec: onnx__Conv (opset 22).
  // Operands: x  input, N x C x D1 x ... x Dn
  //           w  weights, M x C/group x k1 x ... x kn
  //           b  optional bias, M
  // Results:  y  N x M x E1 x ... x En
  // Attributes (n = number of spatial axes):
  //   auto_pad      string: "NOTSET" | "SAME_UPPER" | "SAME_LOWER" | "VALID" (default "NOTSET")
  //   dilations     array<i64>, n entries >= 1 (default all 1)
  //   group         i64 >= 1, divides C and M (default 1)
  //   kernel_shape  array<i64>, n entries >= 1 (the importer takes it from w when absent)
  //   pads          array<i64>, 2n entries >= 0: [x1_begin, ..., xn_begin, x1_end, ..., xn_end]
  //                 (default all 0)
  //   strides       array<i64>, n entries >= 1 (default all 1)
  // Example:
  //   %y = "onnx.conv"(%x, %w, %b) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  irdl.operation @conv {
    %ap_notset = irdl.is "NOTSET"
    %ap_upper = irdl.is "SAME_UPPER"
    %ap_lower = irdl.is "SAME_LOWER"
    %ap_valid = irdl.is "VALID"
    %auto_pad = irdl.any_of(%ap_notset, %ap_upper, %ap_lower, %ap_valid)
    %dilations = irdl.base "#builtin.dense_array"
    %group = irdl.base "#builtin.integer"
    %kernel_shape = irdl.base "#builtin.dense_array"
    %pads = irdl.base "#builtin.dense_array"
    %strides = irdl.base "#builtin.dense_array"
    irdl.attributes {
      "auto_pad" = %auto_pad,
      "dilations" = %dilations,
      "group" = %group,
      "kernel_shape" = %kernel_shape,
      "pads" = %pads,
      "strides" = %strides
    }
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, b: optional %b)
    irdl.results(y: %y)
  }

  // onnx.conv_transpose: N-d transposed convolution (deconvolution).
  // Spec: onnx__ConvTranspose (opset 22).
  // Operands: x  input, N x C x D1 x ... x Dn
  //           w  weights, C x M/group x k1 x ... x kn
  //           b  optional bias, M
  // Results:  y  N x M x E1 x ... x En
  // Attributes: as onnx.conv, plus
  //   output_padding  array<i64>, n entries >= 0, each < max(stride, dilation) (default all 0)
  //   output_shape (no default) is not declared; when the model has it, it stays a discardable
  //   attribute and the importer also materializes the pads it implies.
  // Example:
  //   %y = "onnx.conv_transpose"(%x, %w) {auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x8x8xf32>
  irdl.operation @conv_transpose {
    %ap_notset = irdl.is "NOTSET"
    %ap_upper = irdl.is "SAME_UPPER"
    %ap_lower = irdl.is "SAME_LOWER"
    %ap_valid = irdl.is "VALID"
    %auto_pad = irdl.any_of(%ap_notset, %ap_upper, %ap_lower, %ap_valid)
    %dilations = irdl.base "#builtin.dense_array"
    %group = irdl.base "#builtin.integer"
    %kernel_shape = irdl.base "#builtin.dense_array"
    %output_padding = irdl.base "#builtin.dense_array"
    %pads = irdl.base "#builtin.dense_array"
    %strides = irdl.base "#builtin.dense_array"
    irdl.attributes {
      "auto_pad" = %auto_pad,
      "dilations" = %dilations,
      "group" = %group,
      "kernel_shape" = %kernel_shape,
      "output_padding" = %output_padding,
      "pads" = %pads,
      "strides" = %strides
    }
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, b: optional %b)
    irdl.results(y: %y)
  }

  // onnx.gemm: Y = alpha * A' * B' + beta * C, with A' = transpose(A) if transA, else A.
  // Spec: onnx__Gemm (opset 13).
  // Operands: a  M x K (K x M when transA = 1)
  //           b  K x N (N x K when transB = 1)
  //           c  optional, unidirectionally broadcastable to M x N
  // Results:  y  M x N
  // Attributes:
  //   alpha   f32 (default 1.0)
  //   beta    f32 (default 1.0)
  //   transA  i64, 0 or 1 (default 0)
  //   transB  i64, 0 or 1 (default 0)
  // Example:
  //   %y = "onnx.gemm"(%a, %b, %c) {alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  irdl.operation @gemm {
    %alpha = irdl.base "#builtin.float"
    %beta = irdl.base "#builtin.float"
    %ta0 = irdl.is 0 : i64
    %ta1 = irdl.is 1 : i64
    %transA = irdl.any_of(%ta0, %ta1)
    %tb0 = irdl.is 0 : i64
    %tb1 = irdl.is 1 : i64
    %transB = irdl.any_of(%tb0, %tb1)
    irdl.attributes { "alpha" = %alpha, "beta" = %beta, "transA" = %transA, "transB" = %transB }
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, c: optional %c)
    irdl.results(y: %y)
  }

  // onnx.mat_mul: matrix product with numpy.matmul semantics (batch dimensions broadcast).
  // Spec: onnx__MatMul (opset 13).
  // Operands: a, b. Results: y. Attributes: none.
  // Example:
  //   %y = "onnx.mat_mul"(%a, %b) : (tensor<1x4x8xf32>, tensor<8x16xf32>) -> tensor<1x4x16xf32>
  irdl.operation @mat_mul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b)
    irdl.results(y: %y)
  }

  // onnx.batch_normalization: Y = (X - mean) / sqrt(var + epsilon) * scale + B, per channel.
  // Spec: onnx__BatchNormalization (opset 15). Older opsets (spatial, is_test, consumed_inputs)
  //   are converted by the importer.
  // Operands: x (N x C x ...), scale (C), b (C), input_mean (C), input_var (C).
  // Results:  y; running_mean and running_var are optional (training mode only), so the op
  //           always carries resultSegmentSizes = array<i32: 1, r, r> with r in {0, 1}.
  // Attributes:
  //   epsilon        f32 > 0 (default 1e-5)
  //   momentum       f32 in [0, 1] (default 0.9)
  //   training_mode  i64, 0 or 1 (default 0)
  // Example:
  //   %y = "onnx.batch_normalization"(%x, %s, %b, %m, %v) {epsilon = 1.0e-05 : f32, momentum = 0.9 : f32, training_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @batch_normalization {
    %epsilon = irdl.base "#builtin.float"
    %momentum = irdl.base "#builtin.float"
    %tm0 = irdl.is 0 : i64
    %tm1 = irdl.is 1 : i64
    %training_mode = irdl.any_of(%tm0, %tm1)
    irdl.attributes { "epsilon" = %epsilon, "momentum" = %momentum, "training_mode" = %training_mode }
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %input_mean = irdl.base "!builtin.tensor"
    %input_var = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %running_mean = irdl.base "!builtin.tensor"
    %running_var = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, scale: %scale, b: %b, input_mean: %input_mean, input_var: %input_var)
    irdl.results(y: %y, running_mean: optional %running_mean, running_var: optional %running_var)
  }

  // ===------------------------------------------------------------------------------------===
  // Activations
  // ===------------------------------------------------------------------------------------===

  // onnx.relu: Y = max(X, 0). Spec: onnx__Relu (opset 14). No attributes.
  // Example:
  //   %y = "onnx.relu"(%x) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @relu {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.leaky_relu: Y = X if X >= 0 else alpha * X. Spec: onnx__LeakyRelu (opset 16).
  // Attributes:
  //   alpha  f32 (default 0.01)
  // Example:
  //   %y = "onnx.leaky_relu"(%x) {alpha = 0.1 : f32} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @leaky_relu {
    %alpha = irdl.base "#builtin.float"
    irdl.attributes { "alpha" = %alpha }
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.prelu: Y = X if X >= 0 else slope * X; slope broadcasts unidirectionally to X.
  // Spec: onnx__PRelu (opset 16). No attributes.
  // Example:
  //   %y = "onnx.prelu"(%x, %s) : (tensor<1x16x8x8xf32>, tensor<16x1x1xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @prelu {
    %x = irdl.base "!builtin.tensor"
    %slope = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, slope: %slope)
    irdl.results(y: %y)
  }

  // onnx.sigmoid: Y = 1 / (1 + exp(-X)). Spec: onnx__Sigmoid (opset 13). No attributes.
  // Example:
  //   %y = "onnx.sigmoid"(%x) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  irdl.operation @sigmoid {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.tanh: output = tanh(input). Spec: onnx__Tanh (opset 13). No attributes.
  // Example:
  //   %y = "onnx.tanh"(%x) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  irdl.operation @tanh {
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.clip: output = min(max(input, min), max).
  // Spec: onnx__Clip (opset 13). Opset < 11 min/max attributes become scalar onnx.constant
  //   operands in the importer.
  // Operands: input; min and max are optional scalar tensors, so the op always carries
  //           operandSegmentSizes = array<i32: 1, a, b> (a, b in {0, 1}; e.g. only max:
  //           array<i32: 1, 0, 1>).
  // Results:  output. Attributes: none.
  // Example:
  //   %y = "onnx.clip"(%x, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x16xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16xf32>
  irdl.operation @clip {
    %input = irdl.base "!builtin.tensor"
    %min = irdl.base "!builtin.tensor"
    %max = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, min: optional %min, max: optional %max)
    irdl.results(output: %output)
  }

  // ===------------------------------------------------------------------------------------===
  // Element-wise arithmetic (multidirectional numpy broadcasting)
  // ===------------------------------------------------------------------------------------===

  // onnx.add: C = A + B. Spec: onnx__Add (opset 14). Old broadcast/axis attributes (opset < 7)
  //   are converted by the importer (explicit onnx.unsqueeze/onnx.reshape of b).
  // Example:
  //   %c = "onnx.add"(%a, %b) : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @add {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b)
    irdl.results(c: %c)
  }

  // onnx.sub: C = A - B. Spec: onnx__Sub (opset 14).
  // Example:
  //   %c = "onnx.sub"(%a, %b) : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  irdl.operation @sub {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b)
    irdl.results(c: %c)
  }

  // onnx.mul: C = A * B. Spec: onnx__Mul (opset 14).
  // Example:
  //   %c = "onnx.mul"(%a, %b) : (tensor<1x16x8x8xf32>, tensor<16x1x1xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @mul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b)
    irdl.results(c: %c)
  }

  // onnx.div: C = A / B (integer division truncates). Spec: onnx__Div (opset 14).
  // Example:
  //   %c = "onnx.div"(%a, %b) : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  irdl.operation @div {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b)
    irdl.results(c: %c)
  }

  // onnx.pow: Z = X ^ Y. Spec: onnx__Pow (opset 15).
  // Example:
  //   %z = "onnx.pow"(%x, %y) : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  irdl.operation @pow {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %z = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, y: %y)
    irdl.results(z: %z)
  }

  // onnx.sum: element-wise sum of 1 to 16 inputs, with multidirectional broadcasting.
  // Spec: onnx__Sum (opset 13).
  // Operands: data_0 ... data_15: data_0 required, the rest optional "slots" filled from the
  //   front in input order, so the op always carries operandSegmentSizes (16 entries, 1 for a
  //   used slot). Slots, not one variadic group: in IRDL (LLVM 22) the values of a variadic
  //   group share one constraint and so one type, and broadcasting inputs differ in shape.
  //   More than 16 inputs: the importer builds a tree of ops.
  // Results:  sum. Attributes: none.
  // Example:
  //   %s = "onnx.sum"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16x4x4xf32>, tensor<16x1x1xf32>) -> tensor<1x16x4x4xf32>
  irdl.operation @sum {
    %data_0 = irdl.base "!builtin.tensor"
    %data_1 = irdl.base "!builtin.tensor"
    %data_2 = irdl.base "!builtin.tensor"
    %data_3 = irdl.base "!builtin.tensor"
    %data_4 = irdl.base "!builtin.tensor"
    %data_5 = irdl.base "!builtin.tensor"
    %data_6 = irdl.base "!builtin.tensor"
    %data_7 = irdl.base "!builtin.tensor"
    %data_8 = irdl.base "!builtin.tensor"
    %data_9 = irdl.base "!builtin.tensor"
    %data_10 = irdl.base "!builtin.tensor"
    %data_11 = irdl.base "!builtin.tensor"
    %data_12 = irdl.base "!builtin.tensor"
    %data_13 = irdl.base "!builtin.tensor"
    %data_14 = irdl.base "!builtin.tensor"
    %data_15 = irdl.base "!builtin.tensor"
    %sum_result = irdl.base "!builtin.tensor"
    irdl.operands(
      data_0: %data_0, data_1: optional %data_1, data_2: optional %data_2, data_3: optional %data_3,
      data_4: optional %data_4, data_5: optional %data_5, data_6: optional %data_6, data_7: optional %data_7,
      data_8: optional %data_8, data_9: optional %data_9, data_10: optional %data_10, data_11: optional %data_11,
      data_12: optional %data_12, data_13: optional %data_13, data_14: optional %data_14, data_15: optional %data_15
    )
    irdl.results(sum: %sum_result)
  }

  // onnx.max: element-wise maximum of 1 to 16 inputs, with multidirectional broadcasting.
  // Spec: onnx__Max (opset 13).
  // Operands: data_0 ... data_15: data_0 required, the rest optional "slots" filled from the
  //   front in input order, so the op always carries operandSegmentSizes (16 entries, 1 for a
  //   used slot). Slots, not one variadic group: in IRDL (LLVM 22) the values of a variadic
  //   group share one constraint and so one type, and broadcasting inputs differ in shape.
  //   More than 16 inputs: the importer builds a tree of ops.
  // Results:  max. Attributes: none.
  // Example:
  //   %s = "onnx.max"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16x4x4xf32>, tensor<16x1x1xf32>) -> tensor<1x16x4x4xf32>
  irdl.operation @max {
    %data_0 = irdl.base "!builtin.tensor"
    %data_1 = irdl.base "!builtin.tensor"
    %data_2 = irdl.base "!builtin.tensor"
    %data_3 = irdl.base "!builtin.tensor"
    %data_4 = irdl.base "!builtin.tensor"
    %data_5 = irdl.base "!builtin.tensor"
    %data_6 = irdl.base "!builtin.tensor"
    %data_7 = irdl.base "!builtin.tensor"
    %data_8 = irdl.base "!builtin.tensor"
    %data_9 = irdl.base "!builtin.tensor"
    %data_10 = irdl.base "!builtin.tensor"
    %data_11 = irdl.base "!builtin.tensor"
    %data_12 = irdl.base "!builtin.tensor"
    %data_13 = irdl.base "!builtin.tensor"
    %data_14 = irdl.base "!builtin.tensor"
    %data_15 = irdl.base "!builtin.tensor"
    %max_result = irdl.base "!builtin.tensor"
    irdl.operands(
      data_0: %data_0, data_1: optional %data_1, data_2: optional %data_2, data_3: optional %data_3,
      data_4: optional %data_4, data_5: optional %data_5, data_6: optional %data_6, data_7: optional %data_7,
      data_8: optional %data_8, data_9: optional %data_9, data_10: optional %data_10, data_11: optional %data_11,
      data_12: optional %data_12, data_13: optional %data_13, data_14: optional %data_14, data_15: optional %data_15
    )
    irdl.results(max: %max_result)
  }

  // onnx.min: element-wise minimum of 1 to 16 inputs, with multidirectional broadcasting.
  // Spec: onnx__Min (opset 13).
  // Operands: data_0 ... data_15: data_0 required, the rest optional "slots" filled from the
  //   front in input order, so the op always carries operandSegmentSizes (16 entries, 1 for a
  //   used slot). Slots, not one variadic group: in IRDL (LLVM 22) the values of a variadic
  //   group share one constraint and so one type, and broadcasting inputs differ in shape.
  //   More than 16 inputs: the importer builds a tree of ops.
  // Results:  min. Attributes: none.
  // Example:
  //   %s = "onnx.min"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x16x4x4xf32>, tensor<16x1x1xf32>) -> tensor<1x16x4x4xf32>
  irdl.operation @min {
    %data_0 = irdl.base "!builtin.tensor"
    %data_1 = irdl.base "!builtin.tensor"
    %data_2 = irdl.base "!builtin.tensor"
    %data_3 = irdl.base "!builtin.tensor"
    %data_4 = irdl.base "!builtin.tensor"
    %data_5 = irdl.base "!builtin.tensor"
    %data_6 = irdl.base "!builtin.tensor"
    %data_7 = irdl.base "!builtin.tensor"
    %data_8 = irdl.base "!builtin.tensor"
    %data_9 = irdl.base "!builtin.tensor"
    %data_10 = irdl.base "!builtin.tensor"
    %data_11 = irdl.base "!builtin.tensor"
    %data_12 = irdl.base "!builtin.tensor"
    %data_13 = irdl.base "!builtin.tensor"
    %data_14 = irdl.base "!builtin.tensor"
    %data_15 = irdl.base "!builtin.tensor"
    %min_result = irdl.base "!builtin.tensor"
    irdl.operands(
      data_0: %data_0, data_1: optional %data_1, data_2: optional %data_2, data_3: optional %data_3,
      data_4: optional %data_4, data_5: optional %data_5, data_6: optional %data_6, data_7: optional %data_7,
      data_8: optional %data_8, data_9: optional %data_9, data_10: optional %data_10, data_11: optional %data_11,
      data_12: optional %data_12, data_13: optional %data_13, data_14: optional %data_14, data_15: optional %data_15
    )
    irdl.results(min: %min_result)
  }

  // onnx.neg: Y = -X. Spec: onnx__Neg (opset 13).
  // Example:
  //   %y = "onnx.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  irdl.operation @neg {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.sqrt: Y = sqrt(X). Spec: onnx__Sqrt (opset 13).
  // Example:
  //   %y = "onnx.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  irdl.operation @sqrt {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.exp: output = exp(input). Spec: onnx__Exp (opset 13).
  // Example:
  //   %y = "onnx.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  irdl.operation @exp {
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.log: output = ln(input). Spec: onnx__Log (opset 13).
  // Example:
  //   %y = "onnx.log"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  irdl.operation @log {
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // ===------------------------------------------------------------------------------------===
  // Pooling and normalization
  // ===------------------------------------------------------------------------------------===

  // onnx.max_pool: N-d max pooling.
  // Spec: onnx__MaxPool (opset 22).
  // Operands: x  N x C x D1 x ... x Dn
  // Results:  y; indices (optional, i64, flattened indices of the maxima).
  // Attributes (n = number of spatial axes):
  //   auto_pad       string: "NOTSET" | "SAME_UPPER" | "SAME_LOWER" | "VALID" (default "NOTSET")
  //   ceil_mode      i64, 0 or 1 (default 0)
  //   dilations      array<i64>, n entries >= 1 (default all 1)
  //   kernel_shape   array<i64>, n entries >= 1 (required by ONNX)
  //   pads           array<i64>, 2n entries >= 0 (default all 0)
  //   storage_order  i64, 0 (row major) or 1 (column major) (default 0)
  //   strides        array<i64>, n entries >= 1 (default all 1)
  // Example:
  //   %y = "onnx.max_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, storage_order = 0 : i64, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  irdl.operation @max_pool {
    %ap_notset = irdl.is "NOTSET"
    %ap_upper = irdl.is "SAME_UPPER"
    %ap_lower = irdl.is "SAME_LOWER"
    %ap_valid = irdl.is "VALID"
    %auto_pad = irdl.any_of(%ap_notset, %ap_upper, %ap_lower, %ap_valid)
    %cm0 = irdl.is 0 : i64
    %cm1 = irdl.is 1 : i64
    %ceil_mode = irdl.any_of(%cm0, %cm1)
    %dilations = irdl.base "#builtin.dense_array"
    %kernel_shape = irdl.base "#builtin.dense_array"
    %pads = irdl.base "#builtin.dense_array"
    %so0 = irdl.is 0 : i64
    %so1 = irdl.is 1 : i64
    %storage_order = irdl.any_of(%so0, %so1)
    %strides = irdl.base "#builtin.dense_array"
    irdl.attributes {
      "auto_pad" = %auto_pad,
      "ceil_mode" = %ceil_mode,
      "dilations" = %dilations,
      "kernel_shape" = %kernel_shape,
      "pads" = %pads,
      "storage_order" = %storage_order,
      "strides" = %strides
    }
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y, indices: optional %indices)
  }

  // onnx.average_pool: N-d average pooling.
  // Spec: onnx__AveragePool (opset 22).
  // Operands: x  N x C x D1 x ... x Dn
  // Results:  y
  // Attributes: auto_pad, ceil_mode, dilations, kernel_shape, pads, strides as onnx.max_pool, and
  //   count_include_pad  i64, 0 or 1: whether pad cells count in the divisor (default 0)
  // Example:
  //   %y = "onnx.average_pool"(%x) {auto_pad = "NOTSET", ceil_mode = 0 : i64, count_include_pad = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 7, 7>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  irdl.operation @average_pool {
    %ap_notset = irdl.is "NOTSET"
    %ap_upper = irdl.is "SAME_UPPER"
    %ap_lower = irdl.is "SAME_LOWER"
    %ap_valid = irdl.is "VALID"
    %auto_pad = irdl.any_of(%ap_notset, %ap_upper, %ap_lower, %ap_valid)
    %cm0 = irdl.is 0 : i64
    %cm1 = irdl.is 1 : i64
    %ceil_mode = irdl.any_of(%cm0, %cm1)
    %cip0 = irdl.is 0 : i64
    %cip1 = irdl.is 1 : i64
    %count_include_pad = irdl.any_of(%cip0, %cip1)
    %dilations = irdl.base "#builtin.dense_array"
    %kernel_shape = irdl.base "#builtin.dense_array"
    %pads = irdl.base "#builtin.dense_array"
    %strides = irdl.base "#builtin.dense_array"
    irdl.attributes {
      "auto_pad" = %auto_pad,
      "ceil_mode" = %ceil_mode,
      "count_include_pad" = %count_include_pad,
      "dilations" = %dilations,
      "kernel_shape" = %kernel_shape,
      "pads" = %pads,
      "strides" = %strides
    }
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.global_average_pool: mean over all spatial axes; Y is N x C x 1 x ... x 1.
  // Spec: onnx__GlobalAveragePool (opset 22). No attributes.
  // Example:
  //   %y = "onnx.global_average_pool"(%x) : (tensor<1x1024x7x7xf32>) -> tensor<1x1024x1x1xf32>
  irdl.operation @global_average_pool {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.global_max_pool: max over all spatial axes; Y is N x C x 1 x ... x 1.
  // Spec: onnx__GlobalMaxPool (opset 22). No attributes.
  // Example:
  //   %y = "onnx.global_max_pool"(%x) : (tensor<1x1024x7x7xf32>) -> tensor<1x1024x1x1xf32>
  irdl.operation @global_max_pool {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.lrn: local response normalization across channels:
  //   y = x / (bias + alpha / size * sum_{size neighbouring channels} x^2) ^ beta
  // Spec: onnx__LRN (opset 13).
  // Attributes:
  //   alpha  f32 (default 1e-4)
  //   beta   f32 (default 0.75)
  //   bias   f32 (default 1.0)
  //   size   i64 >= 1, odd in practice (required by ONNX)
  // Example:
  //   %y = "onnx.lrn"(%x) {alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  irdl.operation @lrn {
    %alpha = irdl.base "#builtin.float"
    %beta = irdl.base "#builtin.float"
    %bias = irdl.base "#builtin.float"
    %size = irdl.base "#builtin.integer"
    irdl.attributes { "alpha" = %alpha, "beta" = %beta, "bias" = %bias, "size" = %size }
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }

  // onnx.softmax: softmax along one axis (opset-13 semantics).
  // Spec: onnx__Softmax (opset 13). Opset < 13 Softmax flattens the input to 2-D at `axis`;
  //   the importer keeps the op when that is the same thing (axis = rank - 1 or rank 2) and
  //   otherwise wraps it in onnx.flatten / onnx.reshape.
  // Attributes:
  //   axis  i64 in [-r, r-1] (default -1)
  // Example:
  //   %y = "onnx.softmax"(%x) {axis = -1 : i64} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  irdl.operation @softmax {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.dropout: identity at inference; random masking in training mode.
  // Spec: onnx__Dropout (opset 22). Opset < 12 `ratio` attributes become an onnx.constant
  //   operand.
  // Operands: data; ratio (optional scalar, default 0.5); training_mode (optional scalar bool),
  //           so the op always carries operandSegmentSizes = array<i32: 1, a, b>.
  // Results:  output; mask (optional, i1).
  // Attributes: seed (no default) is not declared and stays discardable.
  // Example:
  //   %y = "onnx.dropout"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096xf32>) -> tensor<1x4096xf32>
  irdl.operation @dropout {
    %data = irdl.base "!builtin.tensor"
    %ratio = irdl.base "!builtin.tensor"
    %training_mode = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    %mask = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, ratio: optional %ratio, training_mode: optional %training_mode)
    irdl.results(output: %output, mask: optional %mask)
  }

  // ===------------------------------------------------------------------------------------===
  // Tensor manipulation
  // ===------------------------------------------------------------------------------------===

  // onnx.concat: concatenation of one or more tensors along `axis`.
  // Spec: onnx__Concat (opset 13).
  // Operands: inputs_0 (required), inputs_1 ... inputs_31 (optional "slots"), filled from the
  //           front in node input order; their types differ along `axis`.
  //   Slots, not one variadic group: in IRDL (LLVM 22) all values of one variadic group must
  //   have the same type. So the op always carries operandSegmentSizes with 32 entries: 1 for
  //   a used slot, 0 for the rest; used slots form a prefix (Rust verifier). The importer turns
  //   a Concat of more than 32 inputs into a chain of Concats (exact: concatenation along one
  //   axis is associative).
  // Attributes:
  //   axis  i64 in [-r, r-1] (required by ONNX)
  // Example:
  //   %y = "onnx.concat"(%a, %b) {axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  irdl.operation @concat {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %inputs_0 = irdl.base "!builtin.tensor"
    %inputs_1 = irdl.base "!builtin.tensor"
    %inputs_2 = irdl.base "!builtin.tensor"
    %inputs_3 = irdl.base "!builtin.tensor"
    %inputs_4 = irdl.base "!builtin.tensor"
    %inputs_5 = irdl.base "!builtin.tensor"
    %inputs_6 = irdl.base "!builtin.tensor"
    %inputs_7 = irdl.base "!builtin.tensor"
    %inputs_8 = irdl.base "!builtin.tensor"
    %inputs_9 = irdl.base "!builtin.tensor"
    %inputs_10 = irdl.base "!builtin.tensor"
    %inputs_11 = irdl.base "!builtin.tensor"
    %inputs_12 = irdl.base "!builtin.tensor"
    %inputs_13 = irdl.base "!builtin.tensor"
    %inputs_14 = irdl.base "!builtin.tensor"
    %inputs_15 = irdl.base "!builtin.tensor"
    %inputs_16 = irdl.base "!builtin.tensor"
    %inputs_17 = irdl.base "!builtin.tensor"
    %inputs_18 = irdl.base "!builtin.tensor"
    %inputs_19 = irdl.base "!builtin.tensor"
    %inputs_20 = irdl.base "!builtin.tensor"
    %inputs_21 = irdl.base "!builtin.tensor"
    %inputs_22 = irdl.base "!builtin.tensor"
    %inputs_23 = irdl.base "!builtin.tensor"
    %inputs_24 = irdl.base "!builtin.tensor"
    %inputs_25 = irdl.base "!builtin.tensor"
    %inputs_26 = irdl.base "!builtin.tensor"
    %inputs_27 = irdl.base "!builtin.tensor"
    %inputs_28 = irdl.base "!builtin.tensor"
    %inputs_29 = irdl.base "!builtin.tensor"
    %inputs_30 = irdl.base "!builtin.tensor"
    %inputs_31 = irdl.base "!builtin.tensor"
    %concat_result = irdl.base "!builtin.tensor"
    irdl.operands(
      inputs_0: %inputs_0, inputs_1: optional %inputs_1, inputs_2: optional %inputs_2, inputs_3: optional %inputs_3,
      inputs_4: optional %inputs_4, inputs_5: optional %inputs_5, inputs_6: optional %inputs_6, inputs_7: optional %inputs_7,
      inputs_8: optional %inputs_8, inputs_9: optional %inputs_9, inputs_10: optional %inputs_10, inputs_11: optional %inputs_11,
      inputs_12: optional %inputs_12, inputs_13: optional %inputs_13, inputs_14: optional %inputs_14, inputs_15: optional %inputs_15,
      inputs_16: optional %inputs_16, inputs_17: optional %inputs_17, inputs_18: optional %inputs_18, inputs_19: optional %inputs_19,
      inputs_20: optional %inputs_20, inputs_21: optional %inputs_21, inputs_22: optional %inputs_22, inputs_23: optional %inputs_23,
      inputs_24: optional %inputs_24, inputs_25: optional %inputs_25, inputs_26: optional %inputs_26, inputs_27: optional %inputs_27,
      inputs_28: optional %inputs_28, inputs_29: optional %inputs_29, inputs_30: optional %inputs_30, inputs_31: optional %inputs_31
    )
    irdl.results(concat_result: %concat_result)
  }

  // onnx.split: split a tensor along `axis` into parts (equal, or the sizes in `split`).
  // Spec: onnx__Split (opset 18). Opset < 13 `split` attributes become an onnx.constant operand.
  // Operands: input; split (optional 1-D i64, the output sizes).
  // Results:  outputs_0 ... outputs_15: outputs_0 required, the rest optional "slots" filled
  //           from the front, so the op always carries resultSegmentSizes (16 entries). Slots, not
  //           a variadic group, because uneven parts have different types (see onnx.sum).
  // Attributes:
  //   axis  i64 in [-r, r-1] (default 0)
  //   num_outputs (no default; only when `split` is absent) stays discardable.
  // Example:
  //   %a, %b = "onnx.split"(%x, %s) {axis = 1 : i64, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x48x8x8xf32>, tensor<2xi64>) -> (tensor<1x32x8x8xf32>, tensor<1x16x8x8xf32>)
  irdl.operation @split {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %input = irdl.base "!builtin.tensor"
    %split = irdl.base "!builtin.tensor"
    %outputs_0 = irdl.base "!builtin.tensor"
    %outputs_1 = irdl.base "!builtin.tensor"
    %outputs_2 = irdl.base "!builtin.tensor"
    %outputs_3 = irdl.base "!builtin.tensor"
    %outputs_4 = irdl.base "!builtin.tensor"
    %outputs_5 = irdl.base "!builtin.tensor"
    %outputs_6 = irdl.base "!builtin.tensor"
    %outputs_7 = irdl.base "!builtin.tensor"
    %outputs_8 = irdl.base "!builtin.tensor"
    %outputs_9 = irdl.base "!builtin.tensor"
    %outputs_10 = irdl.base "!builtin.tensor"
    %outputs_11 = irdl.base "!builtin.tensor"
    %outputs_12 = irdl.base "!builtin.tensor"
    %outputs_13 = irdl.base "!builtin.tensor"
    %outputs_14 = irdl.base "!builtin.tensor"
    %outputs_15 = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, split: optional %split)
    irdl.results(
      outputs_0: %outputs_0, outputs_1: optional %outputs_1, outputs_2: optional %outputs_2, outputs_3: optional %outputs_3,
      outputs_4: optional %outputs_4, outputs_5: optional %outputs_5, outputs_6: optional %outputs_6, outputs_7: optional %outputs_7,
      outputs_8: optional %outputs_8, outputs_9: optional %outputs_9, outputs_10: optional %outputs_10, outputs_11: optional %outputs_11,
      outputs_12: optional %outputs_12, outputs_13: optional %outputs_13, outputs_14: optional %outputs_14, outputs_15: optional %outputs_15
    )
  }

  // onnx.slice: numpy-style strided slice.
  // Spec: onnx__Slice (opset 13). Opset < 10 starts/ends/axes attributes become operands.
  // Operands: data; starts, ends (1-D i32/i64); axes, steps (optional 1-D), so the op always
  //           carries operandSegmentSizes = array<i32: 1, 1, 1, a, s>.
  // Results:  output. Attributes: none.
  // Example:
  //   %y = "onnx.slice"(%x, %st, %en, %ax) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<1x64x8x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x32x8x8xf32>
  irdl.operation @slice {
    %data = irdl.base "!builtin.tensor"
    %starts = irdl.base "!builtin.tensor"
    %ends = irdl.base "!builtin.tensor"
    %axes = irdl.base "!builtin.tensor"
    %steps = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, starts: %starts, ends: %ends, axes: optional %axes, steps: optional %steps)
    irdl.results(output: %output)
  }

  // onnx.gather: take entries of `data` along `axis` at `indices`.
  // Spec: onnx__Gather (opset 13).
  // Attributes:
  //   axis  i64 in [-r, r-1] (default 0)
  // Example:
  //   %y = "onnx.gather"(%x, %i) {axis = 0 : i64} : (tensor<10x16xf32>, tensor<3xi64>) -> tensor<3x16xf32>
  irdl.operation @gather {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %data = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, indices: %indices)
    irdl.results(output: %output)
  }

  // onnx.reshape: reshape `data` to `shape` (0 copies the input dim unless allowzero, -1 infers).
  // Spec: onnx__Reshape (opset 25). Opset < 5 `shape` attributes become an onnx.constant operand.
  // Attributes:
  //   allowzero  i64, 0 or 1 (default 0)
  // Example:
  //   %y = "onnx.reshape"(%x, %s) {allowzero = 0 : i64} : (tensor<1x256x6x6xf32>, tensor<2xi64>) -> tensor<1x9216xf32>
  irdl.operation @reshape {
    %az0 = irdl.is 0 : i64
    %az1 = irdl.is 1 : i64
    %allowzero = irdl.any_of(%az0, %az1)
    irdl.attributes { "allowzero" = %allowzero }
    %data = irdl.base "!builtin.tensor"
    %shape = irdl.base "!builtin.tensor"
    %reshaped = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, shape: %shape)
    irdl.results(reshaped: %reshaped)
  }

  // onnx.expand: broadcast `input` to `shape` (numpy bidirectional broadcasting).
  // Spec: onnx__Expand (opset 13). Also what the importer inserts to make broadcasting in
  //   onnx.sum/Max/Min explicit.
  // Operands: input; shape (1-D i64). Attributes: none.
  // Example:
  //   %y = "onnx.expand"(%x, %s) : (tensor<16x1x1xf32>, tensor<4xi64>) -> tensor<1x16x8x8xf32>
  irdl.operation @expand {
    %input = irdl.base "!builtin.tensor"
    %shape = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, shape: %shape)
    irdl.results(output: %output)
  }

  // onnx.flatten: reshape to 2-D: [d0 * ... * d(axis-1), d(axis) * ... * d(r-1)].
  // Spec: onnx__Flatten (opset 25).
  // Attributes:
  //   axis  i64 in [-r, r] (default 1)
  // Example:
  //   %y = "onnx.flatten"(%x) {axis = 1 : i64} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  irdl.operation @flatten {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.transpose: permute axes.
  // Spec: onnx__Transpose (opset 25).
  // Attributes:
  //   perm  array<i64>, a permutation of [0, r) (default: reversed axes, materialized)
  // Example:
  //   %y = "onnx.transpose"(%x) {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x2x4x8x8xf32>) -> tensor<1x4x2x8x8xf32>
  irdl.operation @transpose {
    %perm = irdl.base "#builtin.dense_array"
    irdl.attributes { "perm" = %perm }
    %data = irdl.base "!builtin.tensor"
    %transposed = irdl.base "!builtin.tensor"
    irdl.operands(data: %data)
    irdl.results(transposed: %transposed)
  }

  // onnx.squeeze: remove size-1 axes.
  // Spec: onnx__Squeeze (opset 25). Opset < 13 `axes` attributes become an onnx.constant operand.
  // Operands: data; axes (optional 1-D i64; absent = all size-1 axes).
  // Example:
  //   %y = "onnx.squeeze"(%x, %a) : (tensor<1x512x1x1xf32>, tensor<2xi64>) -> tensor<1x512xf32>
  irdl.operation @squeeze {
    %data = irdl.base "!builtin.tensor"
    %axes = irdl.base "!builtin.tensor"
    %squeezed = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, axes: optional %axes)
    irdl.results(squeezed: %squeezed)
  }

  // onnx.unsqueeze: insert size-1 axes.
  // Spec: onnx__Unsqueeze (opset 25). Opset < 13 `axes` attributes become an onnx.constant
  //   operand.
  // Operands: data; axes (1-D i64).
  // Example:
  //   %y = "onnx.unsqueeze"(%x, %a) : (tensor<16xf32>, tensor<2xi64>) -> tensor<16x1x1xf32>
  irdl.operation @unsqueeze {
    %data = irdl.base "!builtin.tensor"
    %axes = irdl.base "!builtin.tensor"
    %expanded = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, axes: %axes)
    irdl.results(expanded: %expanded)
  }

  // onnx.pad: pad a tensor.
  // Spec: onnx__Pad (opset 25). Opset < 11 pads/value attributes become operands.
  // Operands: data; pads (1-D i64, [x1_begin, ..., x1_end, ...]); constant_value (optional
  //           scalar); axes (optional 1-D), so the op always carries
  //           operandSegmentSizes = array<i32: 1, 1, c, a>.
  // Attributes:
  //   mode  string: "constant" | "reflect" | "edge" | "wrap" (default "constant")
  // Example:
  //   %y = "onnx.pad"(%x, %p, %v) {mode = "constant", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x3x8x8xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x3x10x10xf32>
  irdl.operation @pad {
    %m_constant = irdl.is "constant"
    %m_reflect = irdl.is "reflect"
    %m_edge = irdl.is "edge"
    %m_wrap = irdl.is "wrap"
    %mode = irdl.any_of(%m_constant, %m_reflect, %m_edge, %m_wrap)
    irdl.attributes { "mode" = %mode }
    %data = irdl.base "!builtin.tensor"
    %pads = irdl.base "!builtin.tensor"
    %constant_value = irdl.base "!builtin.tensor"
    %axes = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, pads: %pads, constant_value: optional %constant_value, axes: optional %axes)
    irdl.results(output: %output)
  }

  // onnx.upsample: resize by per-axis scales (deprecated in ONNX since opset 10; kept because
  //   NNIE's Caffe flavour has an Upsample layer and old models use it).
  // Spec: onnx__Upsample (opset 9 form). Opset 7 `scales` attributes become an onnx.constant
  //   operand.
  // Operands: x; scales (1-D f32, one entry per axis, each >= 1).
  // Attributes:
  //   mode  string: "nearest" | "linear" (default "nearest")
  // Example:
  //   %y = "onnx.upsample"(%x, %s) {mode = "nearest"} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  irdl.operation @upsample {
    %m_nearest = irdl.is "nearest"
    %m_linear = irdl.is "linear"
    %mode = irdl.any_of(%m_nearest, %m_linear)
    irdl.attributes { "mode" = %mode }
    %x = irdl.base "!builtin.tensor"
    %scales = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, scales: %scales)
    irdl.results(y: %y)
  }

  // onnx.resize: resize with nearest, linear or cubic interpolation.
  // Spec: onnx__Resize (opset 19). Older forms (opset 10: X, scales) gain empty roi/sizes.
  // Operands: x; roi, scales, sizes (all optional; exactly one of scales/sizes in practice),
  //           so the op always carries operandSegmentSizes = array<i32: 1, r, s, z>.
  // Attributes:
  //   antialias                       i64, 0 or 1 (default 0)
  //   coordinate_transformation_mode  string: "half_pixel" | "half_pixel_symmetric" |
  //                                   "pytorch_half_pixel" | "align_corners" | "asymmetric" |
  //                                   "tf_crop_and_resize" (default "half_pixel")
  //   cubic_coeff_a                   f32 (default -0.75)
  //   exclude_outside                 i64, 0 or 1 (default 0)
  //   extrapolation_value             f32 (default 0.0)
  //   keep_aspect_ratio_policy        string: "stretch" | "not_larger" | "not_smaller"
  //                                   (default "stretch")
  //   mode                            string: "nearest" | "linear" | "cubic" (default "nearest")
  //   nearest_mode                    string: "round_prefer_floor" | "round_prefer_ceil" |
  //                                   "floor" | "ceil" (default "round_prefer_floor")
  //   axes (no default: all axes) stays discardable.
  // Example:
  //   %y = "onnx.resize"(%x, %s) {antialias = 0 : i64, coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = 0 : i64, extrapolation_value = 0.000000e+00 : f32, keep_aspect_ratio_policy = "stretch", mode = "nearest", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x16x8x8xf32>, tensor<4xf32>) -> tensor<1x16x16x16xf32>
  irdl.operation @resize {
    %aa0 = irdl.is 0 : i64
    %aa1 = irdl.is 1 : i64
    %antialias = irdl.any_of(%aa0, %aa1)
    %ct_half_pixel = irdl.is "half_pixel"
    %ct_half_pixel_symmetric = irdl.is "half_pixel_symmetric"
    %ct_pytorch_half_pixel = irdl.is "pytorch_half_pixel"
    %ct_align_corners = irdl.is "align_corners"
    %ct_asymmetric = irdl.is "asymmetric"
    %ct_tf_crop_and_resize = irdl.is "tf_crop_and_resize"
    %coordinate_transformation_mode = irdl.any_of(%ct_half_pixel, %ct_half_pixel_symmetric, %ct_pytorch_half_pixel, %ct_align_corners, %ct_asymmetric, %ct_tf_crop_and_resize)
    %cubic_coeff_a = irdl.base "#builtin.float"
    %eo0 = irdl.is 0 : i64
    %eo1 = irdl.is 1 : i64
    %exclude_outside = irdl.any_of(%eo0, %eo1)
    %extrapolation_value = irdl.base "#builtin.float"
    %ka_stretch = irdl.is "stretch"
    %ka_not_larger = irdl.is "not_larger"
    %ka_not_smaller = irdl.is "not_smaller"
    %keep_aspect_ratio_policy = irdl.any_of(%ka_stretch, %ka_not_larger, %ka_not_smaller)
    %m_nearest = irdl.is "nearest"
    %m_linear = irdl.is "linear"
    %m_cubic = irdl.is "cubic"
    %mode = irdl.any_of(%m_nearest, %m_linear, %m_cubic)
    %nm_round_prefer_floor = irdl.is "round_prefer_floor"
    %nm_round_prefer_ceil = irdl.is "round_prefer_ceil"
    %nm_floor = irdl.is "floor"
    %nm_ceil = irdl.is "ceil"
    %nearest_mode = irdl.any_of(%nm_round_prefer_floor, %nm_round_prefer_ceil, %nm_floor, %nm_ceil)
    irdl.attributes {
      "antialias" = %antialias,
      "coordinate_transformation_mode" = %coordinate_transformation_mode,
      "cubic_coeff_a" = %cubic_coeff_a,
      "exclude_outside" = %exclude_outside,
      "extrapolation_value" = %extrapolation_value,
      "keep_aspect_ratio_policy" = %keep_aspect_ratio_policy,
      "mode" = %mode,
      "nearest_mode" = %nearest_mode
    }
    %x = irdl.base "!builtin.tensor"
    %roi = irdl.base "!builtin.tensor"
    %scales = irdl.base "!builtin.tensor"
    %sizes = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, roi: optional %roi, scales: optional %scales, sizes: optional %sizes)
    irdl.results(y: %y)
  }

  // onnx.reduce_mean: mean over `axes`.
  // Spec: onnx__ReduceMean (opset 18). Opset < 18 `axes` attributes become an onnx.constant
  //   operand.
  // Operands: data; axes (optional 1-D i64; absent = all axes unless noop_with_empty_axes).
  // Attributes:
  //   keepdims              i64, 0 or 1 (default 1)
  //   noop_with_empty_axes  i64, 0 or 1 (default 0)
  // Example:
  //   %y = "onnx.reduce_mean"(%x, %a) {keepdims = 1 : i64, noop_with_empty_axes = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<2xi64>) -> tensor<1x64x1x1xf32>
  irdl.operation @reduce_mean {
    %kd0 = irdl.is 0 : i64
    %kd1 = irdl.is 1 : i64
    %keepdims = irdl.any_of(%kd0, %kd1)
    %ne0 = irdl.is 0 : i64
    %ne1 = irdl.is 1 : i64
    %noop_with_empty_axes = irdl.any_of(%ne0, %ne1)
    irdl.attributes { "keepdims" = %keepdims, "noop_with_empty_axes" = %noop_with_empty_axes }
    %data = irdl.base "!builtin.tensor"
    %axes = irdl.base "!builtin.tensor"
    %reduced = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, axes: optional %axes)
    irdl.results(reduced: %reduced)
  }

  // onnx.reduce_sum: sum over `axes`.
  // Spec: onnx__ReduceSum (opset 13). Opset < 13 `axes` attributes become an onnx.constant
  //   operand.
  // Operands, attributes: as onnx.reduce_mean.
  // Example:
  //   %y = "onnx.reduce_sum"(%x, %a) {keepdims = 0 : i64, noop_with_empty_axes = 0 : i64} : (tensor<1x64x8x8xf32>, tensor<1xi64>) -> tensor<1x8x8xf32>
  irdl.operation @reduce_sum {
    %kd0 = irdl.is 0 : i64
    %kd1 = irdl.is 1 : i64
    %keepdims = irdl.any_of(%kd0, %kd1)
    %ne0 = irdl.is 0 : i64
    %ne1 = irdl.is 1 : i64
    %noop_with_empty_axes = irdl.any_of(%ne0, %ne1)
    irdl.attributes { "keepdims" = %keepdims, "noop_with_empty_axes" = %noop_with_empty_axes }
    %data = irdl.base "!builtin.tensor"
    %axes = irdl.base "!builtin.tensor"
    %reduced = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, axes: optional %axes)
    irdl.results(reduced: %reduced)
  }

  // onnx.identity: output = input. Spec: onnx__Identity (opset 25). No attributes.
  // Example:
  //   %y = "onnx.identity"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  irdl.operation @identity {
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.cast: element type conversion.
  // Spec: onnx__Cast (opset 28; round_mode since opset 24).
  // Attributes:
  //   to          i64, an ONNX TensorProto.DataType code (1 FLOAT, 7 INT64, 10 FLOAT16, ...);
  //               must agree with the result element type (Rust verifier)
  //   saturate    i64, 0 or 1; only meaningful for float8 targets (default 1)
  //   round_mode  string: "up" | "down" | "nearest"; only for float8e8m0 (default "up")
  // Example:
  //   %y = "onnx.cast"(%x) {round_mode = "up", saturate = 1 : i64, to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  irdl.operation @cast {
    %to = irdl.base "#builtin.integer"
    %sat0 = irdl.is 0 : i64
    %sat1 = irdl.is 1 : i64
    %saturate = irdl.any_of(%sat0, %sat1)
    %rm_up = irdl.is "up"
    %rm_down = irdl.is "down"
    %rm_nearest = irdl.is "nearest"
    %round_mode = irdl.any_of(%rm_up, %rm_down, %rm_nearest)
    irdl.attributes { "round_mode" = %round_mode, "saturate" = %saturate, "to" = %to }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // onnx.shape: the shape of `data` as a 1-D i64 tensor, optionally sliced to [start, end).
  // Spec: onnx__Shape (opset 25).
  // Attributes:
  //   start  i64 (default 0; negative counts from the back)
  //   end (no default: up to the last axis) stays discardable.
  // Example:
  //   %s = "onnx.shape"(%x) {start = 0 : i64} : (tensor<1x3x8x8xf32>) -> tensor<4xi64>
  irdl.operation @shape {
    %start = irdl.base "#builtin.integer"
    irdl.attributes { "start" = %start }
    %data = irdl.base "!builtin.tensor"
    %shape = irdl.base "!builtin.tensor"
    irdl.operands(data: %data)
    irdl.results(shape: %shape)
  }
}
