// The `nnie` dialect: layers for HiSilicon's Neural Network Inference Engine (Hi35xx SoCs).
//
// NNIE runs Caffe-style networks compiled by HiSilicon's closed `nnie_mapper`; so these ops
// are Caffe layers restricted to what NNIE accepts, each with its per-layer quantization
// parameters. `convert-onnx-to-nnie` produces it (the `nnie` level, Module::Nnie, printed
// by passes/src/nnie/to_ir.rs); passes/src/nnie/from_ir.rs reads it back, and
// `onnc-translate --to-nnie-package` writes the package (Caffe prototxt + caffemodel, mapper
// .cfg, clip table) from it. The .wk file itself comes from the vendor mapper.
// Quantization: MQBench's NNIE scheme (ModelTC/MQBench, docs and deploy_nnie.py).
//
// Quantization (8-bit, per layer, logarithmic): a tensor with clip value c (its range is
// [-c, c]) has offset z = round(16 * log2(c)) - 127; an 8-bit sign-magnitude code k in 0..127
// means +2^((z + k) / 16) (0x80 | k: negative), and 0x80 is exact zero. All inputs of a
// layer share one z per input, all weights one z_w. The vendor mapper wants c, not z, and c
// must be 2^(k/16) for an integer k. 16-bit mode ([compile_mode] 1) is a network-wide mapper
// setting and its code is not publicly documented: not modelled per layer.
//
// Conventions (docs/dialects/nnie.md has the long form):
// * Op names are the lowercased Caffe layer types (fc = InnerProduct). `layer_name` (string)
//   is the Caffe layer name: the key of the clip table ({"<layer_name>": [c_in0, ...]}).
// * Layers that take part in quantization (conv, deconv, fc, pool, eltwise, concat, upsample,
//   channel_scale, affine) carry input_clip/input_z; layers with weights (conv, deconv, fc)
//   also weight_clip/weight_z. The others (relu, softmax, reshape, permute, slice, split,
//   sigmoid, tanh, power) carry none.
// * Clip lists are array<f32: ...>, z lists array<i64: ...>, other integer lists
//   array<i64: ...>, integers i64. Enumerations are lowercase strings, checked exactly, and so
//   are the NNIE restrictions IRDL can express: upsample scale 2, permute order (0, 2, 3, 1).
// * Operands and results are builtin tensors, each with its own constraint value. eltwise
//   inputs are one variadic group (IRDL then forces one type, which eltwise needs anyway);
//   concat inputs, whose types differ, are 16 numbered optional slots with
//   operandSegmentSizes (16 entries, used slots first); split results likewise, with
//   resultSegmentSizes.
// * Every op carries `tops` (array of strings): the Caffe blob name of each result, one per
//   result; the reader names values by them.
//
// Level attributes (on the func.func, where IRDL cannot declare them; the reader,
// passes/src/nnie/package_attrs.rs, checks them, and a test ties this list to it):
//   nnie.package        required  {name, image_list, image_type, rgb_order, norm_type,
//                                 data_scale, [channel_means], is_simulation,
//                                 cfg_references_clip_table}: the package's file stem, image
//                                 list and the mapper .cfg keys that are not fixed
//   nnie.quant_report   required  {outputs = [{name, elements, cosine, max_abs_err,
//                                 max_rel_err, rmse}, ...], [layers = [...]], [accuracy =
//                                 {samples, float_correct, nnie_correct, agree}]}: the metrics
//                                 as f64 attributes (nan and inf read back exactly)
//   nnie.files          optional  [{path, bytes = dense_resource<..> : tensor<Nxui8>}, ...]:
//                                 the calibration files, in package order
//   nnie.warnings       optional  [string, ...]: the compile's warnings

irdl.dialect @nnie {

  // nnie.conv: Caffe Convolution. NNIE prefers group = 1 (depthwise convolution is slow, and
  // MQBench's deploy code emits no clip values for group != 1).
  // Operands: input N x C x H x W; weight O x C/group x kH x kW (constant, clipped to
  //           [-weight_clip, weight_clip]); bias (optional, O).
  // Results:  output
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   kernel       array<i64: kH, kW>, each >= 1
  //   stride       array<i64: sH, sW>, each >= 1
  //   pad          array<i64: pH, pW>, each >= 0 (Caffe pads both sides equally)
  //   dilation     array<i64: dH, dW>, each >= 1
  //   group        i64 >= 1, divides C and O
  //   input_clip   array<f32>, one clip value c > 0 per data input (the activation range is
  //                [-c, c]); each c = 2^(k/16) for an integer k (the SDK's
  //                gfpq_param_table_8bit.txt rule; Rust verifier)
  //   input_z      array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  //                (derived; kept so passes and dumps need no float math)
  //   weight_clip  f32 > 0, the clip value of the weights (same 2^(k/16) rule)
  //   weight_z     i64, round(16 * log2(weight_clip)) - 127
  // Example:
  //   %y = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>,
  //        dilation = array<i64: 1, 1>, group = 1 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>,
  //        weight_clip = 5.000000e-01 : f32, weight_z = -143 : i64, tops = ["y"]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  irdl.operation @conv {
    %layer_name = irdl.base "#builtin.string"
    %kernel = irdl.base "#builtin.dense_array"
    %stride = irdl.base "#builtin.dense_array"
    %pad = irdl.base "#builtin.dense_array"
    %dilation = irdl.base "#builtin.dense_array"
    %group = irdl.base "#builtin.integer"
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %weight_clip = irdl.base "#builtin.float"
    %weight_z = irdl.base "#builtin.integer"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "kernel" = %kernel,
      "stride" = %stride,
      "pad" = %pad,
      "dilation" = %dilation,
      "group" = %group,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "weight_clip" = %weight_clip,
      "weight_z" = %weight_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, weight: %weight, bias: optional %bias)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.deconv: Caffe Deconvolution (the transpose of a convolution). onnc emits it
  // depthwise (group = C) with a kernel of ones for nearest upsampling by factors that are not
  // powers of two (docs/targets/nnie.md).
  // Operands: input N x C x H x W; weight C x O/group x kH x kW (constant, clipped to
  //           [-weight_clip, weight_clip]); bias (optional, O).
  // Results:  output N x O x (sH*(H-1) + kH - 2*pH) x (sW*(W-1) + kW - 2*pW)
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   kernel       array<i64: kH, kW>, each >= 1
  //   stride       array<i64: sH, sW>, each >= 1
  //   pad          array<i64: pH, pW>, each >= 0 (cut equally from both sides)
  //   group        i64 >= 1, divides C and O
  //   input_clip, input_z, weight_clip, weight_z   as nnie.conv
  // Example:
  //   %y = "nnie.deconv"(%x, %w) {layer_name = "up3", kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0>,
  //        group = 8 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>,
  //        weight_clip = 1.000000e+00 : f32, weight_z = -127 : i64, tops = ["y"]} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x24x24xf32>
  irdl.operation @deconv {
    %layer_name = irdl.base "#builtin.string"
    %kernel = irdl.base "#builtin.dense_array"
    %stride = irdl.base "#builtin.dense_array"
    %pad = irdl.base "#builtin.dense_array"
    %group = irdl.base "#builtin.integer"
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %weight_clip = irdl.base "#builtin.float"
    %weight_z = irdl.base "#builtin.integer"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "kernel" = %kernel,
      "stride" = %stride,
      "pad" = %pad,
      "group" = %group,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "weight_clip" = %weight_clip,
      "weight_z" = %weight_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, weight: %weight, bias: optional %bias)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.fc: Caffe InnerProduct (fully connected): output = input * weight^T + bias.
  // Operands: input N x K (or N x C x H x W, flattened); weight O x K (constant); bias
  //           (optional, O).
  // Results:  output N x O
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   input_clip   array<f32>, one clip value c > 0 per data input (the activation range is
  //                [-c, c]); each c = 2^(k/16) for an integer k (the SDK's
  //                gfpq_param_table_8bit.txt rule; Rust verifier)
  //   input_z      array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  //                (derived; kept so passes and dumps need no float math)
  //   weight_clip  f32 > 0, the clip value of the weights (same 2^(k/16) rule)
  //   weight_z     i64, round(16 * log2(weight_clip)) - 127
  // Example:
  //   %y = "nnie.fc"(%x, %w, %b) {layer_name = "fc1000", input_clip = array<f32: 8.000000e+00>, input_z = array<i64: -79>,
  //        weight_clip = 2.500000e-01 : f32, weight_z = -159 : i64, tops = ["y"]} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  irdl.operation @fc {
    %layer_name = irdl.base "#builtin.string"
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %weight_clip = irdl.base "#builtin.float"
    %weight_z = irdl.base "#builtin.integer"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "weight_clip" = %weight_clip,
      "weight_z" = %weight_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, weight: %weight, bias: optional %bias)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.pool: Caffe Pooling. Output sizes round UP (Caffe's ceil mode, which NNIE requires:
  // an ONNX pool with ceil_mode = 0 legalizes only when both roundings agree).
  // Operands: input N x C x H x W. Results: output.
  // Attributes:
  //   layer_name      string
  //   tops            array of strings, the Caffe blob name of each result (one per result)
  //   pool            "max" | "ave"
  //   kernel          array<i64: kH, kW>, each >= 1 (ignored when global_pooling = 1)
  //   stride          array<i64: sH, sW>, each >= 1
  //   pad             array<i64: pH, pW>, each >= 0
  //   global_pooling  0 | 1
  //   input_clip   array<f32>, one clip value c > 0 per data input (the activation range is
  //                [-c, c]); each c = 2^(k/16) for an integer k (the SDK's
  //                gfpq_param_table_8bit.txt rule; Rust verifier)
  //   input_z      array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  //                (derived; kept so passes and dumps need no float math)
  // Example:
  //   %y = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>,
  //        global_pooling = 0 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  irdl.operation @pool {
    %layer_name = irdl.base "#builtin.string"
    %p_max = irdl.is "max"
    %p_ave = irdl.is "ave"
    %pool = irdl.any_of(%p_max, %p_ave)
    %kernel = irdl.base "#builtin.dense_array"
    %stride = irdl.base "#builtin.dense_array"
    %pad = irdl.base "#builtin.dense_array"
    %gp_0 = irdl.is 0 : i64
    %gp_1 = irdl.is 1 : i64
    %global_pooling = irdl.any_of(%gp_0, %gp_1)
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "pool" = %pool,
      "kernel" = %kernel,
      "stride" = %stride,
      "pad" = %pad,
      "global_pooling" = %global_pooling,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.eltwise: Caffe Eltwise over two or more inputs of one shape.
  // Operands: inputs, variadic, n >= 2 (Rust verifier), all of one type.
  // Results:  output
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   operation    "prod" | "sum" | "max"
  //   input_clip   array<f32>, one clip value c > 0 per data input (the activation range is
  //                [-c, c]); each c = 2^(k/16) for an integer k (the SDK's
  //                gfpq_param_table_8bit.txt rule; Rust verifier)
  //   input_z      array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  //                (derived; kept so passes and dumps need no float math)
  //                (one entry per input; MQBench emits none for "prod", the emitter follows)
  // Example:
  //   %y = "nnie.eltwise"(%a, %b) {layer_name = "res2a", operation = "sum", input_clip = array<f32: 4.000000e+00, 2.000000e+00>,
  //        input_z = array<i64: -95, -111>, tops = ["y"]} : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  irdl.operation @eltwise {
    %layer_name = irdl.base "#builtin.string"
    %op_prod = irdl.is "prod"
    %op_sum = irdl.is "sum"
    %op_max = irdl.is "max"
    %operation = irdl.any_of(%op_prod, %op_sum, %op_max)
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "operation" = %operation,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "tops" = %tops
    }
    %inputs = irdl.base "!builtin.tensor"
    irdl.operands(inputs: variadic %inputs)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.concat: Caffe Concat.
  // Operands: inputs_0 (required) and inputs_1 ... inputs_15 (optional slots, filled from the
  //           front); always with operandSegmentSizes, 16 entries.
  // Results:  output
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   axis         i64, 1 (channels) in practice
  //   input_clip   array<f32>, one clip value c > 0 per data input (the activation range is
  //                [-c, c]); each c = 2^(k/16) for an integer k (the SDK's
  //                gfpq_param_table_8bit.txt rule; Rust verifier)
  //   input_z      array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  //                (derived; kept so passes and dumps need no float math)
  //                (one entry per input)
  // Example:
  //   %y = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.000000e+00, 4.000000e+00>, input_z = array<i64: -95, -95>,
  //        operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["y"]} : (tensor<1x64x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x96x8x8xf32>
  irdl.operation @concat {
    %layer_name = irdl.base "#builtin.string"
    %axis = irdl.base "#builtin.integer"
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
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
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "axis" = %axis,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "tops" = %tops
    }
    irdl.operands(
      inputs_0: %inputs_0, inputs_1: optional %inputs_1, inputs_2: optional %inputs_2, inputs_3: optional %inputs_3,
      inputs_4: optional %inputs_4, inputs_5: optional %inputs_5, inputs_6: optional %inputs_6, inputs_7: optional %inputs_7,
      inputs_8: optional %inputs_8, inputs_9: optional %inputs_9, inputs_10: optional %inputs_10, inputs_11: optional %inputs_11,
      inputs_12: optional %inputs_12, inputs_13: optional %inputs_13, inputs_14: optional %inputs_14, inputs_15: optional %inputs_15
    )
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.upsample: HiSilicon's Upsample extension layer: nearest-neighbour, factor 2 only.
  // MQBench's deploy step maps ONNX Resize/Upsample to it; the mapper lowers it to
  // Upsample + Permute, so the clip table also gets "<layer_name>_permute_<n>" aliases.
  // Operands: input N x C x H x W. Results: output N x C x 2H x 2W.
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   scale        2 (checked exactly)
  //   input_clip   array<f32>, one clip value c > 0 per data input (the activation range is
  //                [-c, c]); each c = 2^(k/16) for an integer k (the SDK's
  //                gfpq_param_table_8bit.txt rule; Rust verifier)
  //   input_z      array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  //                (derived; kept so passes and dumps need no float math)
  // Example:
  //   %y = "nnie.upsample"(%x) {layer_name = "up1", scale = 2 : i64, input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]}
  //        : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  irdl.operation @upsample {
    %layer_name = irdl.base "#builtin.string"
    %scale = irdl.is 2 : i64
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "scale" = %scale,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.relu: Caffe ReLU: output = x if x > 0 else negative_slope * x. Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name      string
  //   tops            array of strings, the Caffe blob name of each result (one per result)
  //   negative_slope  f32 (0.0 for a plain ReLU)
  // Example:
  //   %y = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.000000e+00 : f32, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @relu {
    %layer_name = irdl.base "#builtin.string"
    %negative_slope = irdl.base "#builtin.float"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "negative_slope" = %negative_slope,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.softmax: Caffe Softmax along `axis`. Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   axis        i64, 1 in practice
  // Example:
  //   %y = "nnie.softmax"(%x) {layer_name = "prob", axis = 1 : i64, tops = ["y"]} : (tensor<1x1000xf32>) -> tensor<1x1000xf32>
  irdl.operation @softmax {
    %layer_name = irdl.base "#builtin.string"
    %axis = irdl.base "#builtin.integer"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "axis" = %axis,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.reshape: Caffe Reshape. NNIE accepts only 4-D shapes with dim 0 = 0 (copy the
  // batch); checked by the Rust verifier. Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   shape       array<i64>, 4 entries: [0, c, h, w] (0 copies, -1 infers)
  // Example:
  //   %y = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, 512, 1, 1>, tops = ["y"]} : (tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
  irdl.operation @reshape {
    %layer_name = irdl.base "#builtin.string"
    %shape = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "shape" = %shape,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.permute: HiSilicon's Permute extension layer; NNIE supports only NCHW -> NHWC.
  // Not in the clip table.
  // Operands: input N x C x H x W. Results: output N x H x W x C.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   order       array<i64: 0, 2, 3, 1> (checked exactly)
  // Example:
  //   %y = "nnie.permute"(%x) {layer_name = "perm1", order = array<i64: 0, 2, 3, 1>, tops = ["y"]} : (tensor<1x16x8x4xf32>) -> tensor<1x8x4x16xf32>
  irdl.operation @permute {
    %layer_name = irdl.base "#builtin.string"
    %order = irdl.is array<i64: 0, 2, 3, 1>
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "order" = %order,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.slice: Caffe Slice keeping [start, end) of one axis (the pieces before and after
  // are extra tops nobody reads; onnc's emitter writes them). Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   axis        i64, 1, 2 or 3
  //   start, end  i64, 0 <= start < end <= the axis' length
  // Example:
  //   %y = "nnie.slice"(%x) {layer_name = "half", axis = 1 : i64, start = 0 : i64, end = 8 : i64, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x8x8x8xf32>
  irdl.operation @slice {
    %layer_name = irdl.base "#builtin.string"
    %axis = irdl.base "#builtin.integer"
    %start = irdl.base "#builtin.integer"
    %end = irdl.base "#builtin.integer"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "axis" = %axis,
      "start" = %start,
      "end" = %end,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.split: Caffe Slice with one top per piece (ONNX Split). Not in the clip table.
  // Operands: input. Results: outputs_0 .. outputs_15, one per piece, in order: numbered
  // optional slots with resultSegmentSizes (16 entries, used slots first), because pieces of
  // different sizes have different types (a variadic group would force one type).
  // Attributes:
  //   layer_name   string
  //   tops         array of strings, the Caffe blob name of each result (one per result)
  //   axis         i64, 1, 2 or 3
  //   slice_point  array<i64>, where each piece after the first starts (increasing)
  // Example:
  //   %a, %b = "nnie.split"(%x) {layer_name = "chunk", axis = 1 : i64, slice_point = array<i64: 3>,
  //        resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["a", "b"]} : (tensor<1x16x8x8xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x13x8x8xf32>)
  irdl.operation @split {
    %layer_name = irdl.base "#builtin.string"
    %axis = irdl.base "#builtin.integer"
    %slice_point = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "axis" = %axis,
      "slice_point" = %slice_point,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
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
    irdl.results(
      outputs_0: %outputs_0, outputs_1: optional %outputs_1, outputs_2: optional %outputs_2, outputs_3: optional %outputs_3,
      outputs_4: optional %outputs_4, outputs_5: optional %outputs_5, outputs_6: optional %outputs_6, outputs_7: optional %outputs_7,
      outputs_8: optional %outputs_8, outputs_9: optional %outputs_9, outputs_10: optional %outputs_10, outputs_11: optional %outputs_11,
      outputs_12: optional %outputs_12, outputs_13: optional %outputs_13, outputs_14: optional %outputs_14, outputs_15: optional %outputs_15
    )
  }

  // nnie.channel_scale: a feature map times a per-channel N x C x 1 x 1 feature map (the
  // squeeze-excitation gate): Caffe Flatten of the gate to N x C, then Scale (axis 0) with the
  // two bottoms. Quantized (one input clip per data input: input and gate), but not in the
  // clip table (MQBench skips Mul).
  // Operands: input N x C x H x W, gate N x C x 1 x 1. Results: output N x C x H x W.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   input_clip  array<f32>, two clip values (input, gate), each 2^(k/16) > 0
  //   input_z     array<i64>, z = round(16 * log2(c)) - 127 for each input_clip entry
  // Example:
  //   %y = "nnie.channel_scale"(%x, %g) {layer_name = "se_mul", input_clip = array<f32: 4.000000e+00, 1.000000e+00>, input_z = array<i64: -95, -127>,
  //        tops = ["y"]} : (tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @channel_scale {
    %layer_name = irdl.base "#builtin.string"
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    %gate = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, gate: %gate)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.affine: per-channel y = scale[c] * x + bias[c] with constant scale and bias: Caffe
  // Scale with bias_term (an unfolded BatchNormalization). Quantized, in the clip table.
  // Operands: input N x C x H x W, scale (constant, C), bias (constant, C). Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   input_clip  array<f32>, one clip value (the input), 2^(k/16) > 0
  //   input_z     array<i64>, z = round(16 * log2(c)) - 127 for the input_clip entry
  // Example:
  //   %y = "nnie.affine"(%x, %s, %b) {layer_name = "bn", input_clip = array<f32: 4.000000e+00>, input_z = array<i64: -95>, tops = ["y"]}
  //        : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @affine {
    %layer_name = irdl.base "#builtin.string"
    %input_clip = irdl.base "#builtin.dense_array"
    %input_z = irdl.base "#builtin.dense_array"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "input_clip" = %input_clip,
      "input_z" = %input_z,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, scale: %scale, bias: %bias)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.sigmoid: Caffe Sigmoid. Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  // Example:
  //   %y = "nnie.sigmoid"(%x) {layer_name = "gate", tops = ["y"]} : (tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  irdl.operation @sigmoid {
    %layer_name = irdl.base "#builtin.string"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.tanh: Caffe TanH. Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  // Example:
  //   %y = "nnie.tanh"(%x) {layer_name = "t", tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @tanh {
    %layer_name = irdl.base "#builtin.string"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }

  // nnie.power: Caffe Power: y = (shift + scale * x)^power (power 1: the scalar affine maps
  // Clip, HardSigmoid and HardSwish are built from with ReLU; power -0.5: a layer norm's
  // 1/sqrt(variance + eps)). Not in the clip table.
  // Operands: input. Results: output.
  // Attributes:
  //   layer_name  string
  //   tops        array of strings, the Caffe blob name of each result (one per result)
  //   scale       f32
  //   shift       f32
  //   power       f32
  // Example:
  //   %y = "nnie.power"(%x) {layer_name = "plus3", power = 1.000000e+00 : f32, scale = 1.000000e+00 : f32, shift = 3.000000e+00 : f32, tops = ["y"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  irdl.operation @power {
    %layer_name = irdl.base "#builtin.string"
    %scale = irdl.base "#builtin.float"
    %shift = irdl.base "#builtin.float"
    %power = irdl.base "#builtin.float"
    %tops = irdl.base "#builtin.array"
    irdl.attributes {
      "layer_name" = %layer_name,
      "power" = %power,
      "scale" = %scale,
      "shift" = %shift,
      "tops" = %tops
    }
    %input = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    %output = irdl.base "!builtin.tensor"
    irdl.results(output: %output)
  }
}
