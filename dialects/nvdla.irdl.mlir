// The `nvdla` dialect: NVIDIA Deep Learning Accelerator hardware layers.
//
// One op per NVDLA processor (engine) job: nvdla.conv (CONV pipeline: CDMA/CSC/CMAC/CACC),
// nvdla.sdp, nvdla.pdp, nvdla.cdp, nvdla.rubik, nvdla.bdma, and nvdla.emu (the UMD's CPU
// emulator). Produced by `convert-onnx-to-nvdla`; consumed by memory planning, fusion and the
// loadable emitter. Attributes mirror the firmware descriptors in nvdla/sw
// `kmd/firmware/include/dla_interface.h` and the
// quantization registers of ONNC's calibration table (CTable).
//
// Conventions (docs/dialects/nvdla.md has the long form):
// * Ops, operands and results have lowercase names (IRDL requires it). Operands and results
//   are builtin tensors; each has its own constraint value (a shared one would force equal
//   types).
// * `hw_layer` (string) names the hardware layer. The CTable key of an op's register block is
//   `<hw_layer>.<BLOCK>`, BLOCK = CONV (nvdla.conv), SDP (nvdla.sdp), CDP and LUT (nvdla.cdp),
//   EMU (nvdla.emu). Several ops may share one hw_layer (a conv and its fused SDP).
// * CTable register names ARE the attribute names: `in_cvt.scale`, `x1_op.shift_value`,
//   `y_op.cvt.alu_cvt.enable`, `lut_param.linear_only_start`, ... are valid bare MLIR
//   identifiers (bare-id allows `.`) and print unquoted, so the mapping is the identity and
//   `onnc --gen-ctable/--load-ctable` read and write them verbatim. The only rewrite: CDP's
//   keys are listed as `cdp:in_cvt.offset` / `cdp.lut_index` in ONNC's documentation; the
//   `cdp:` / `cdp.` prefix is the block and is dropped (`in_cvt.offset`, `lut_index`).
//   Names of other descriptor fields follow the descriptor (`conv_stride_x`, `pool_mode`, ...).
// * Every register is an i64 IntegerAttr whatever its hardware width; its range is in the doc
//   block and checked by the Rust verifier (IRDL checks only the attribute kind). 0/1 enables
//   and enumerations are checked exactly: enumerations are lowercase strings named after the
//   firmware enumerators (`"per_kernel"` for SDP_OP_PER_KERNEL).
// * Precision attributes: "int8" | "int16" | "fp16" (PRECISION_INT8/INT16/FP16).
// * All registers are required: the legalizer writes the defaults (scale 1, shift/truncate 0,
//   enable 0) and calibration (`--load-ctable`) overwrites them.
// * A float32 CTable entry per tensor (`scale`, `offset`) is not a layer register and is not
//   modelled here.
// * Quantization record (optional, not declared: IRDL attributes are required, and an op
//   has it only once calibrated; checked by onnc_nvdla::registers::check_op and
//   onnc_nvdla::qrecord::check). Calibration (`nvdla-load-ctable` with per-tensor scales) sets
//   on every INT8 nvdla.sdp / nvdla.emu whose output converter it derives:
//     quant.calibrated          1 : i64
//     quant.input_scale         f32 > 0, real value of one INT8 step of the input
//     quant.output_scale        f32 > 0, the same for the output
//     quant.weight_scale_mode   "per_channel" | "per_tensor" (sdp after a conv): per-channel
//                               weights are rescaled by x1_op (per_kernel MUL operand, int16,
//                               x1_op.truncate common to all channels)
//     quant.weight_scale_min, quant.weight_scale_max   f32, smallest and largest max|w|/127
//     quant.weight_scale_note   string, why a conv's weights are per tensor
//     quant.method              string, when the table records it ("entropy", "max", ...)
//     quant.format              string, the table's format ("calibtable", "trt-cache", ...)
//   The emitter ignores them; --gen-ctable does not write them.

irdl.dialect @nvdla {

  // nvdla.conv: one direct-mode or image-mode convolution on the CONV pipeline.
  // Manual: NVDLA hardware manual, "Convolution Core"; descriptor dla_conv_op_desc.
  // The accumulator leaves CACC for the SDP (the output is always consumed by an nvdla.sdp that
  // shares its hw_layer when fused). A grouped or depthwise convolution stays one op with its
  // grouped kernel (attribute group = G).
  // Operands: input   feature cube (N x C x H x W) or image (data_format != "feature")
  //           weight  K x C/G x R x S, constant (G = group; K a multiple of G; kernel k reads
  //                   input channels g*C/G .. (g+1)*C/G - 1 of its group g = k / (K/G))
  // Results:  output  N x K x E x F accumulator cube
  // Attributes:
  //   hw_layer           string
  //   conv_mode          "direct" | "winograd"
  //   data_format        "feature" or an image format name ("t_r8g8b8a8", ...; the
  //                      FORMAT_T_* list; checked by the Rust verifier)
  //   in_precision, out_precision   "int8" | "int16" | "fp16"
  //   conv_stride_x, conv_stride_y  1..8
  //   pad_x_left, pad_x_right       0..31 (elements)
  //   pad_y_top, pad_y_bottom       0..31
  //   dilation_x, dilation_y        1..32
  //   pad_val            int16, value of padded elements (in input units)
  //   CTable block CONV (direct mode: only out_cvt.truncate; image mode: all):
  //   in_cvt.enable      0 | 1
  //   in_cvt.scale       int16 (-32768..32767)
  //   in_cvt.truncate    0..63 (right shift)
  //   in_cvt.offset      int16
  //   mean_ry, mean_gu, mean_bv, mean_ax   uint16 (0..65535), per-channel image mean
  //   mean_format        0 (disable) | 1 (enable)
  //   out_cvt.truncate   0..16 (right shift of the 34-bit sum to 32 bits); out_cvt.scale and
  //                      out_cvt.offset are fixed to 1 and 0 by the firmware, so absent here.
  //   group (optional)   i64 >= 1, the group count G; absent means 1 (dense). Not declared below
  //                      (IRDL attributes are required); checked by the Rust verifiers. The
  //                      loadable holds only each group's kernels: emission cuts a grouped conv
  //                      into channel chunks, or lays out its dense K x C x R x S view (zeros
  //                      outside the groups) when it stays whole.
  // Example:
  //   %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", conv_mode = "direct", data_format = "feature",
  //        in_precision = "int8", out_precision = "int8", conv_stride_x = 1 : i64, conv_stride_y = 1 : i64,
  //        pad_x_left = 0 : i64, pad_x_right = 0 : i64, pad_y_top = 0 : i64, pad_y_bottom = 0 : i64,
  //        dilation_x = 1 : i64, dilation_y = 1 : i64, pad_val = 0 : i64,
  //        in_cvt.enable = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, in_cvt.offset = 0 : i64,
  //        mean_ry = 0 : i64, mean_gu = 0 : i64, mean_bv = 0 : i64, mean_ax = 0 : i64, mean_format = 0 : i64,
  //        out_cvt.truncate = 0 : i64} : (tensor<1x1x28x28xi8>, tensor<20x1x5x5xi8>) -> tensor<1x20x24x24xi32>
  irdl.operation @conv {
    %hw_layer = irdl.base "#builtin.string"
    %cm_direct = irdl.is "direct"
    %cm_winograd = irdl.is "winograd"
    %conv_mode = irdl.any_of(%cm_direct, %cm_winograd)
    %data_format = irdl.base "#builtin.string"
    %ip_int8 = irdl.is "int8"
    %ip_int16 = irdl.is "int16"
    %ip_fp16 = irdl.is "fp16"
    %in_precision = irdl.any_of(%ip_int8, %ip_int16, %ip_fp16)
    %op_int8 = irdl.is "int8"
    %op_int16 = irdl.is "int16"
    %op_fp16 = irdl.is "fp16"
    %out_precision = irdl.any_of(%op_int8, %op_int16, %op_fp16)
    %conv_stride_x = irdl.base "#builtin.integer"
    %conv_stride_y = irdl.base "#builtin.integer"
    %pad_x_left = irdl.base "#builtin.integer"
    %pad_x_right = irdl.base "#builtin.integer"
    %pad_y_top = irdl.base "#builtin.integer"
    %pad_y_bottom = irdl.base "#builtin.integer"
    %dilation_x = irdl.base "#builtin.integer"
    %dilation_y = irdl.base "#builtin.integer"
    %pad_val = irdl.base "#builtin.integer"
    %in_cvt_enable_0 = irdl.is 0 : i64
    %in_cvt_enable_1 = irdl.is 1 : i64
    %in_cvt_enable = irdl.any_of(%in_cvt_enable_0, %in_cvt_enable_1)
    %in_cvt_scale = irdl.base "#builtin.integer"
    %in_cvt_truncate = irdl.base "#builtin.integer"
    %in_cvt_offset = irdl.base "#builtin.integer"
    %mean_ry = irdl.base "#builtin.integer"
    %mean_gu = irdl.base "#builtin.integer"
    %mean_bv = irdl.base "#builtin.integer"
    %mean_ax = irdl.base "#builtin.integer"
    %mean_format_0 = irdl.is 0 : i64
    %mean_format_1 = irdl.is 1 : i64
    %mean_format = irdl.any_of(%mean_format_0, %mean_format_1)
    %out_cvt_truncate = irdl.base "#builtin.integer"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "conv_mode" = %conv_mode,
      "data_format" = %data_format,
      "in_precision" = %in_precision,
      "out_precision" = %out_precision,
      "conv_stride_x" = %conv_stride_x,
      "conv_stride_y" = %conv_stride_y,
      "pad_x_left" = %pad_x_left,
      "pad_x_right" = %pad_x_right,
      "pad_y_top" = %pad_y_top,
      "pad_y_bottom" = %pad_y_bottom,
      "dilation_x" = %dilation_x,
      "dilation_y" = %dilation_y,
      "pad_val" = %pad_val,
      "in_cvt.enable" = %in_cvt_enable,
      "in_cvt.scale" = %in_cvt_scale,
      "in_cvt.truncate" = %in_cvt_truncate,
      "in_cvt.offset" = %in_cvt_offset,
      "mean_ry" = %mean_ry,
      "mean_gu" = %mean_gu,
      "mean_bv" = %mean_bv,
      "mean_ax" = %mean_ax,
      "mean_format" = %mean_format,
      "out_cvt.truncate" = %out_cvt_truncate
    }
    %input = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, weight: %weight)
    irdl.results(output: %output)
  }

  // nvdla.sdp: Single Data Point processor: per-element bias/scale/ALU (X1, X2 and Y
  // sub-units) with ReLU/PReLU/LUT activation and the output converter.
  // Manual: "Single Data Point Processor"; descriptor dla_sdp_op_desc / dla_sdp_op.
  // Operands: input  the source cube (the CONV accumulator when fused, else memory)
  //           x1, x2, y   optional operand cubes of the X1, X2, Y sub-units (per-kernel bias
  //                       C, or per-point N x C x H x W); a sub-unit in per_layer mode uses its
  //                       immediates instead. Three optionals, so the op always carries
  //                       operandSegmentSizes = array<i32: 1, a, b, c>.
  // Results:  output
  // Attributes:
  //   hw_layer                      string
  //   src_precision, dst_precision  "int8" | "int16" | "fp16"
  //   lut_index                     -1 (no LUT) or 0..255, index into the loadable's LUT list
  //   For each sub-unit S in x1_op, x2_op, y_op (dla_sdp_op):
  //     S.enable       0 | 1
  //     S.alu_type     "max" | "min" | "sum" | "eql"
  //     S.type         "none" | "mul" | "add" | "both"
  //     S.mode         "per_layer" | "per_kernel" | "per_point"
  //     S.act          "none" | "relu" | "lut" | "prelu"
  //     S.shift_value  0..63 (CTable: x1_op/x2_op; ALU operand left shift)
  //     S.truncate     0..63 (CTable: x1_op/x2_op; right shift after the multiplier)
  //     S.precision    "int8" | "int16" | "fp16", precision of the operand data
  //     S.alu_operand  int32 immediate (per_layer mode; fp16 bit pattern in fp16 mode)
  //     S.mul_operand  int32 immediate (per_layer mode)
  //   CTable block SDP, Y converters (16 -> 17 -> 33 -> 32 bits):
  //     y_op.cvt.alu_cvt.enable 0 | 1; .offset int16; .scale int16; .truncate 0..63
  //     y_op.cvt.mul_cvt.enable 0 | 1; .offset int16; .scale int16; .truncate 0..63
  //   CTable block SDP, output converter (32 -> 33 -> 49 -> 8 bits):
  //     out_cvt.offset    int32
  //     out_cvt.scale     int16
  //     out_cvt.truncate  0..63
  // Example (conv bias per kernel + ReLU, int8 requantisation):
  //   %y = "nvdla.sdp"(%acc, %bias) {hw_layer = "conv1", src_precision = "int8", dst_precision = "int8", lut_index = -1 : i64,
  //        x1_op.enable = 1 : i64, x1_op.alu_type = "sum", x1_op.type = "add", x1_op.mode = "per_kernel", x1_op.act = "relu",
  //        x1_op.shift_value = 0 : i64, x1_op.truncate = 0 : i64, x1_op.precision = "int16", x1_op.alu_operand = 0 : i64, x1_op.mul_operand = 1 : i64,
  //        x2_op.enable = 0 : i64, x2_op.alu_type = "sum", x2_op.type = "none", x2_op.mode = "per_layer", x2_op.act = "none",
  //        x2_op.shift_value = 0 : i64, x2_op.truncate = 0 : i64, x2_op.precision = "int8", x2_op.alu_operand = 0 : i64, x2_op.mul_operand = 1 : i64,
  //        y_op.enable = 0 : i64, y_op.alu_type = "sum", y_op.type = "none", y_op.mode = "per_layer", y_op.act = "none",
  //        y_op.shift_value = 0 : i64, y_op.truncate = 0 : i64, y_op.precision = "int8", y_op.alu_operand = 0 : i64, y_op.mul_operand = 1 : i64,
  //        y_op.cvt.alu_cvt.enable = 0 : i64, y_op.cvt.alu_cvt.offset = 0 : i64, y_op.cvt.alu_cvt.scale = 1 : i64, y_op.cvt.alu_cvt.truncate = 0 : i64,
  //        y_op.cvt.mul_cvt.enable = 0 : i64, y_op.cvt.mul_cvt.offset = 0 : i64, y_op.cvt.mul_cvt.scale = 1 : i64, y_op.cvt.mul_cvt.truncate = 0 : i64,
  //        out_cvt.offset = 0 : i64, out_cvt.scale = 16557 : i64, out_cvt.truncate = 23 : i64,
  //        operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x20x24x24xi32>, tensor<20xi16>) -> tensor<1x20x24x24xi8>
  irdl.operation @sdp {
    %hw_layer = irdl.base "#builtin.string"
    %sp_int8 = irdl.is "int8"
    %sp_int16 = irdl.is "int16"
    %sp_fp16 = irdl.is "fp16"
    %src_precision = irdl.any_of(%sp_int8, %sp_int16, %sp_fp16)
    %dp_int8 = irdl.is "int8"
    %dp_int16 = irdl.is "int16"
    %dp_fp16 = irdl.is "fp16"
    %dst_precision = irdl.any_of(%dp_int8, %dp_int16, %dp_fp16)
    %lut_index = irdl.base "#builtin.integer"
    %x1_enable_0 = irdl.is 0 : i64
    %x1_enable_1 = irdl.is 1 : i64
    %x1_enable = irdl.any_of(%x1_enable_0, %x1_enable_1)
    %x1_alu_max = irdl.is "max"
    %x1_alu_min = irdl.is "min"
    %x1_alu_sum = irdl.is "sum"
    %x1_alu_eql = irdl.is "eql"
    %x1_alu_type = irdl.any_of(%x1_alu_max, %x1_alu_min, %x1_alu_sum, %x1_alu_eql)
    %x1_type_none = irdl.is "none"
    %x1_type_mul = irdl.is "mul"
    %x1_type_add = irdl.is "add"
    %x1_type_both = irdl.is "both"
    %x1_type = irdl.any_of(%x1_type_none, %x1_type_mul, %x1_type_add, %x1_type_both)
    %x1_mode_layer = irdl.is "per_layer"
    %x1_mode_kernel = irdl.is "per_kernel"
    %x1_mode_point = irdl.is "per_point"
    %x1_mode = irdl.any_of(%x1_mode_layer, %x1_mode_kernel, %x1_mode_point)
    %x1_act_none = irdl.is "none"
    %x1_act_relu = irdl.is "relu"
    %x1_act_lut = irdl.is "lut"
    %x1_act_prelu = irdl.is "prelu"
    %x1_act = irdl.any_of(%x1_act_none, %x1_act_relu, %x1_act_lut, %x1_act_prelu)
    %x1_shift_value = irdl.base "#builtin.integer"
    %x1_truncate = irdl.base "#builtin.integer"
    %x1_prec_int8 = irdl.is "int8"
    %x1_prec_int16 = irdl.is "int16"
    %x1_prec_fp16 = irdl.is "fp16"
    %x1_precision = irdl.any_of(%x1_prec_int8, %x1_prec_int16, %x1_prec_fp16)
    %x1_alu_operand = irdl.base "#builtin.integer"
    %x1_mul_operand = irdl.base "#builtin.integer"
    %x2_enable_0 = irdl.is 0 : i64
    %x2_enable_1 = irdl.is 1 : i64
    %x2_enable = irdl.any_of(%x2_enable_0, %x2_enable_1)
    %x2_alu_max = irdl.is "max"
    %x2_alu_min = irdl.is "min"
    %x2_alu_sum = irdl.is "sum"
    %x2_alu_eql = irdl.is "eql"
    %x2_alu_type = irdl.any_of(%x2_alu_max, %x2_alu_min, %x2_alu_sum, %x2_alu_eql)
    %x2_type_none = irdl.is "none"
    %x2_type_mul = irdl.is "mul"
    %x2_type_add = irdl.is "add"
    %x2_type_both = irdl.is "both"
    %x2_type = irdl.any_of(%x2_type_none, %x2_type_mul, %x2_type_add, %x2_type_both)
    %x2_mode_layer = irdl.is "per_layer"
    %x2_mode_kernel = irdl.is "per_kernel"
    %x2_mode_point = irdl.is "per_point"
    %x2_mode = irdl.any_of(%x2_mode_layer, %x2_mode_kernel, %x2_mode_point)
    %x2_act_none = irdl.is "none"
    %x2_act_relu = irdl.is "relu"
    %x2_act_lut = irdl.is "lut"
    %x2_act_prelu = irdl.is "prelu"
    %x2_act = irdl.any_of(%x2_act_none, %x2_act_relu, %x2_act_lut, %x2_act_prelu)
    %x2_shift_value = irdl.base "#builtin.integer"
    %x2_truncate = irdl.base "#builtin.integer"
    %x2_prec_int8 = irdl.is "int8"
    %x2_prec_int16 = irdl.is "int16"
    %x2_prec_fp16 = irdl.is "fp16"
    %x2_precision = irdl.any_of(%x2_prec_int8, %x2_prec_int16, %x2_prec_fp16)
    %x2_alu_operand = irdl.base "#builtin.integer"
    %x2_mul_operand = irdl.base "#builtin.integer"
    %y_enable_0 = irdl.is 0 : i64
    %y_enable_1 = irdl.is 1 : i64
    %y_enable = irdl.any_of(%y_enable_0, %y_enable_1)
    %y_alu_max = irdl.is "max"
    %y_alu_min = irdl.is "min"
    %y_alu_sum = irdl.is "sum"
    %y_alu_eql = irdl.is "eql"
    %y_alu_type = irdl.any_of(%y_alu_max, %y_alu_min, %y_alu_sum, %y_alu_eql)
    %y_type_none = irdl.is "none"
    %y_type_mul = irdl.is "mul"
    %y_type_add = irdl.is "add"
    %y_type_both = irdl.is "both"
    %y_type = irdl.any_of(%y_type_none, %y_type_mul, %y_type_add, %y_type_both)
    %y_mode_layer = irdl.is "per_layer"
    %y_mode_kernel = irdl.is "per_kernel"
    %y_mode_point = irdl.is "per_point"
    %y_mode = irdl.any_of(%y_mode_layer, %y_mode_kernel, %y_mode_point)
    %y_act_none = irdl.is "none"
    %y_act_relu = irdl.is "relu"
    %y_act_lut = irdl.is "lut"
    %y_act_prelu = irdl.is "prelu"
    %y_act = irdl.any_of(%y_act_none, %y_act_relu, %y_act_lut, %y_act_prelu)
    %y_shift_value = irdl.base "#builtin.integer"
    %y_truncate = irdl.base "#builtin.integer"
    %y_prec_int8 = irdl.is "int8"
    %y_prec_int16 = irdl.is "int16"
    %y_prec_fp16 = irdl.is "fp16"
    %y_precision = irdl.any_of(%y_prec_int8, %y_prec_int16, %y_prec_fp16)
    %y_alu_operand = irdl.base "#builtin.integer"
    %y_mul_operand = irdl.base "#builtin.integer"
    %y_alu_cvt_enable_0 = irdl.is 0 : i64
    %y_alu_cvt_enable_1 = irdl.is 1 : i64
    %y_alu_cvt_enable = irdl.any_of(%y_alu_cvt_enable_0, %y_alu_cvt_enable_1)
    %y_alu_cvt_offset = irdl.base "#builtin.integer"
    %y_alu_cvt_scale = irdl.base "#builtin.integer"
    %y_alu_cvt_truncate = irdl.base "#builtin.integer"
    %y_mul_cvt_enable_0 = irdl.is 0 : i64
    %y_mul_cvt_enable_1 = irdl.is 1 : i64
    %y_mul_cvt_enable = irdl.any_of(%y_mul_cvt_enable_0, %y_mul_cvt_enable_1)
    %y_mul_cvt_offset = irdl.base "#builtin.integer"
    %y_mul_cvt_scale = irdl.base "#builtin.integer"
    %y_mul_cvt_truncate = irdl.base "#builtin.integer"
    %out_cvt_offset = irdl.base "#builtin.integer"
    %out_cvt_scale = irdl.base "#builtin.integer"
    %out_cvt_truncate = irdl.base "#builtin.integer"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "src_precision" = %src_precision,
      "dst_precision" = %dst_precision,
      "lut_index" = %lut_index,
      "x1_op.enable" = %x1_enable,
      "x1_op.alu_type" = %x1_alu_type,
      "x1_op.type" = %x1_type,
      "x1_op.mode" = %x1_mode,
      "x1_op.act" = %x1_act,
      "x1_op.shift_value" = %x1_shift_value,
      "x1_op.truncate" = %x1_truncate,
      "x1_op.precision" = %x1_precision,
      "x1_op.alu_operand" = %x1_alu_operand,
      "x1_op.mul_operand" = %x1_mul_operand,
      "x2_op.enable" = %x2_enable,
      "x2_op.alu_type" = %x2_alu_type,
      "x2_op.type" = %x2_type,
      "x2_op.mode" = %x2_mode,
      "x2_op.act" = %x2_act,
      "x2_op.shift_value" = %x2_shift_value,
      "x2_op.truncate" = %x2_truncate,
      "x2_op.precision" = %x2_precision,
      "x2_op.alu_operand" = %x2_alu_operand,
      "x2_op.mul_operand" = %x2_mul_operand,
      "y_op.enable" = %y_enable,
      "y_op.alu_type" = %y_alu_type,
      "y_op.type" = %y_type,
      "y_op.mode" = %y_mode,
      "y_op.act" = %y_act,
      "y_op.shift_value" = %y_shift_value,
      "y_op.truncate" = %y_truncate,
      "y_op.precision" = %y_precision,
      "y_op.alu_operand" = %y_alu_operand,
      "y_op.mul_operand" = %y_mul_operand,
      "y_op.cvt.alu_cvt.enable" = %y_alu_cvt_enable,
      "y_op.cvt.alu_cvt.offset" = %y_alu_cvt_offset,
      "y_op.cvt.alu_cvt.scale" = %y_alu_cvt_scale,
      "y_op.cvt.alu_cvt.truncate" = %y_alu_cvt_truncate,
      "y_op.cvt.mul_cvt.enable" = %y_mul_cvt_enable,
      "y_op.cvt.mul_cvt.offset" = %y_mul_cvt_offset,
      "y_op.cvt.mul_cvt.scale" = %y_mul_cvt_scale,
      "y_op.cvt.mul_cvt.truncate" = %y_mul_cvt_truncate,
      "out_cvt.offset" = %out_cvt_offset,
      "out_cvt.scale" = %out_cvt_scale,
      "out_cvt.truncate" = %out_cvt_truncate
    }
    %input = irdl.base "!builtin.tensor"
    %x1 = irdl.base "!builtin.tensor"
    %x2 = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, x1: optional %x1, x2: optional %x2, y: optional %y)
    irdl.results(output: %output)
  }

  // nvdla.pdp: Planar Data Processor: max/min/average pooling over a window of at most 8x8.
  // Manual: "Planar Data Processor"; descriptor dla_pdp_op_desc. split_num, partial widths
  // and padding_value[] are derived by the emitter.
  // Operands: input. Results: output.
  // Attributes:
  //   hw_layer                  string
  //   precision                 "int8" | "int16" | "fp16"
  //   pool_mode                 "avg" | "max" | "min"
  //   pool_width, pool_height   1..8, the window size in elements (the emitter writes the
  //                             POOL_SIZE_n = n - 1 encoding)
  //   stride_x, stride_y        1..8 (ONNC's limit; the descriptor field is wider)
  //   pad_left, pad_right, pad_top, pad_bottom   0..7
  // Example:
  //   %y = "nvdla.pdp"(%x) {hw_layer = "pool1", precision = "int8", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
  //        stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
  //        : (tensor<1x20x24x24xi8>) -> tensor<1x20x12x12xi8>
  irdl.operation @pdp {
    %hw_layer = irdl.base "#builtin.string"
    %p_int8 = irdl.is "int8"
    %p_int16 = irdl.is "int16"
    %p_fp16 = irdl.is "fp16"
    %precision = irdl.any_of(%p_int8, %p_int16, %p_fp16)
    %pm_avg = irdl.is "avg"
    %pm_max = irdl.is "max"
    %pm_min = irdl.is "min"
    %pool_mode = irdl.any_of(%pm_avg, %pm_max, %pm_min)
    %pool_width = irdl.base "#builtin.integer"
    %pool_height = irdl.base "#builtin.integer"
    %stride_x = irdl.base "#builtin.integer"
    %stride_y = irdl.base "#builtin.integer"
    %pad_left = irdl.base "#builtin.integer"
    %pad_right = irdl.base "#builtin.integer"
    %pad_top = irdl.base "#builtin.integer"
    %pad_bottom = irdl.base "#builtin.integer"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "precision" = %precision,
      "pool_mode" = %pool_mode,
      "pool_width" = %pool_width,
      "pool_height" = %pool_height,
      "stride_x" = %stride_x,
      "stride_y" = %stride_y,
      "pad_left" = %pad_left,
      "pad_right" = %pad_right,
      "pad_top" = %pad_top,
      "pad_bottom" = %pad_bottom
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // nvdla.cdp: Channel Data Processor: local response normalization across channels, the
  // x^-beta part through a lookup table.
  // Manual: "Channel Data Processor"; descriptors dla_cdp_op_desc and dla_lut_param.
  // Operands: input. Results: output.
  // Attributes:
  //   hw_layer                     string
  //   in_precision, out_precision  "int8" | "int16" | "fp16" (must be equal: Rust verifier)
  //   local_size                   3 | 5 | 7 | 9 (checked exactly)
  //   bypass_sqsum, bypass_out_mul 0 | 1
  //   alpha, beta, bias            f32, the LRN parameters the LUT is built from
  //   CTable block CDP (register names without ONNC's "cdp:" / "cdp." prefix):
  //     in_cvt.offset     int8 (-128..127)        (8 -> 9 bits)
  //     in_cvt.scale      int16                   (9 -> 25 bits)
  //     in_cvt.truncate   0..31                   (25 -> 9 bits)
  //     out_cvt.offset    int25 (-2^24..2^24-1)   (25 -> 26 bits)
  //     out_cvt.scale     int16                   (26 -> 42 bits)
  //     out_cvt.truncate  0..63                   (42 -> 8 bits)
  //     lut_index         0..255, index into the loadable's LUT list
  //   CTable block LUT:
  //     lut_param.linear_exp_offset.exp_offset   -128..127
  //     lut_param.linear_only_offset.frac_bits   -128..127
  //     lut_param.linear_only_start              0..2^38-1
  //     lut_param.linear_only_end                0..2^38-1
  // Example:
  //   %y = "nvdla.cdp"(%x) {hw_layer = "norm1", in_precision = "int8", out_precision = "int8", local_size = 5 : i64,
  //        bypass_sqsum = 0 : i64, bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32,
  //        in_cvt.offset = 0 : i64, in_cvt.scale = 25304 : i64, in_cvt.truncate = 13 : i64,
  //        out_cvt.offset = 0 : i64, out_cvt.scale = 16587 : i64, out_cvt.truncate = 27 : i64, lut_index = 0 : i64,
  //        lut_param.linear_exp_offset.exp_offset = 2 : i64, lut_param.linear_only_offset.frac_bits = 0 : i64,
  //        lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64}
  //        : (tensor<1x96x55x55xi8>) -> tensor<1x96x55x55xi8>
  irdl.operation @cdp {
    %hw_layer = irdl.base "#builtin.string"
    %ip_int8 = irdl.is "int8"
    %ip_int16 = irdl.is "int16"
    %ip_fp16 = irdl.is "fp16"
    %in_precision = irdl.any_of(%ip_int8, %ip_int16, %ip_fp16)
    %op_int8 = irdl.is "int8"
    %op_int16 = irdl.is "int16"
    %op_fp16 = irdl.is "fp16"
    %out_precision = irdl.any_of(%op_int8, %op_int16, %op_fp16)
    %ls_3 = irdl.is 3 : i64
    %ls_5 = irdl.is 5 : i64
    %ls_7 = irdl.is 7 : i64
    %ls_9 = irdl.is 9 : i64
    %local_size = irdl.any_of(%ls_3, %ls_5, %ls_7, %ls_9)
    %bs_0 = irdl.is 0 : i64
    %bs_1 = irdl.is 1 : i64
    %bypass_sqsum = irdl.any_of(%bs_0, %bs_1)
    %bm_0 = irdl.is 0 : i64
    %bm_1 = irdl.is 1 : i64
    %bypass_out_mul = irdl.any_of(%bm_0, %bm_1)
    %alpha = irdl.base "#builtin.float"
    %beta = irdl.base "#builtin.float"
    %bias = irdl.base "#builtin.float"
    %in_cvt_offset = irdl.base "#builtin.integer"
    %in_cvt_scale = irdl.base "#builtin.integer"
    %in_cvt_truncate = irdl.base "#builtin.integer"
    %out_cvt_offset = irdl.base "#builtin.integer"
    %out_cvt_scale = irdl.base "#builtin.integer"
    %out_cvt_truncate = irdl.base "#builtin.integer"
    %lut_index = irdl.base "#builtin.integer"
    %exp_offset = irdl.base "#builtin.integer"
    %frac_bits = irdl.base "#builtin.integer"
    %linear_only_start = irdl.base "#builtin.integer"
    %linear_only_end = irdl.base "#builtin.integer"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "in_precision" = %in_precision,
      "out_precision" = %out_precision,
      "local_size" = %local_size,
      "bypass_sqsum" = %bypass_sqsum,
      "bypass_out_mul" = %bypass_out_mul,
      "alpha" = %alpha,
      "beta" = %beta,
      "bias" = %bias,
      "in_cvt.offset" = %in_cvt_offset,
      "in_cvt.scale" = %in_cvt_scale,
      "in_cvt.truncate" = %in_cvt_truncate,
      "out_cvt.offset" = %out_cvt_offset,
      "out_cvt.scale" = %out_cvt_scale,
      "out_cvt.truncate" = %out_cvt_truncate,
      "lut_index" = %lut_index,
      "lut_param.linear_exp_offset.exp_offset" = %exp_offset,
      "lut_param.linear_only_offset.frac_bits" = %frac_bits,
      "lut_param.linear_only_start" = %linear_only_start,
      "lut_param.linear_only_end" = %linear_only_end
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // nvdla.rubik: data reshape engine (nv_full only): contract (deconvolution output), split
  // (a feature cube into planes) and merge (planes into a feature cube). Concat, Split and
  // ShuffleNet's channel shuffle are built from it.
  // Manual: "Rubik"; descriptor dla_rubik_op_desc. Source and destination are memory (never
  // the on-the-fly HW path).
  // Operands: input. Results: output.
  // Attributes:
  //   hw_layer            string
  //   precision           "int8" | "int16" | "fp16"
  //   mode                "contract" | "split" | "merge"
  //   stride_x, stride_y  1..8 in contract mode (the deconvolution stride); 1 otherwise
  // Example:
  //   %y = "nvdla.rubik"(%x) {hw_layer = "shuffle1", precision = "fp16", mode = "split", stride_x = 1 : i64, stride_y = 1 : i64}
  //        : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  irdl.operation @rubik {
    %hw_layer = irdl.base "#builtin.string"
    %p_int8 = irdl.is "int8"
    %p_int16 = irdl.is "int16"
    %p_fp16 = irdl.is "fp16"
    %precision = irdl.any_of(%p_int8, %p_int16, %p_fp16)
    %m_contract = irdl.is "contract"
    %m_split = irdl.is "split"
    %m_merge = irdl.is "merge"
    %mode = irdl.any_of(%m_contract, %m_split, %m_merge)
    %stride_x = irdl.base "#builtin.integer"
    %stride_y = irdl.base "#builtin.integer"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "precision" = %precision,
      "mode" = %mode,
      "stride_x" = %stride_x,
      "stride_y" = %stride_y
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // nvdla.bdma: bridge DMA (nv_full only): a strided memory-to-memory copy, between external
  // memory and CVSRAM or within one of them. Line and surface sizes, repeats and strides
  // (dla_bdma_transfer_desc) are computed by the emitter from the operand layouts.
  // Manual: "Bridge DMA"; descriptor dla_bdma_surface_desc.
  // Operands: input. Results: output (same contents, new place).
  // Attributes:
  //   hw_layer          string
  //   source_type       "mc" (external memory, DLA_MEM_MC) | "cv" (CVSRAM, DLA_MEM_CV)
  //   destination_type  "mc" | "cv"
  // Example:
  //   %y = "nvdla.bdma"(%x) {hw_layer = "copy1", source_type = "mc", destination_type = "cv"} : (tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf16>
  irdl.operation @bdma {
    %hw_layer = irdl.base "#builtin.string"
    %st_mc = irdl.is "mc"
    %st_cv = irdl.is "cv"
    %source_type = irdl.any_of(%st_mc, %st_cv)
    %dt_mc = irdl.is "mc"
    %dt_cv = irdl.is "cv"
    %destination_type = irdl.any_of(%dt_mc, %dt_cv)
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "source_type" = %source_type,
      "destination_type" = %destination_type
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // nvdla.emu: an operation run by the UMD's CPU emulator (an EMU task), for what no engine
  // can do: softmax, power, and log (log needs ONNC's patched UMD).
  // Interface: nvdla/sw umd emu_interface.h (emu_common_op_desc, emu_softmax_op_desc,
  // emu_power_op_desc).
  // Operands: input. Results: output.
  // Attributes:
  //   hw_layer              string
  //   op_type               "softmax" | "power" | "log"
  //   precision             "int8" | "fp16" (the emulator supports only these)
  //   CTable block EMU:
  //     input_scale_factor   f32, int8 input -> real: x = q * input_scale_factor
  //     output_scale_factor  f32, real -> int8 output
  //   Per op_type (not declared; required by the Rust verifier):
  //     softmax: axis (i64, must be 1)
  //     power:   power, scale, shift (f32): y = (shift + scale * x) ^ power
  // Example:
  //   %y = "nvdla.emu"(%x) {hw_layer = "prob", op_type = "softmax", precision = "fp16", input_scale_factor = 1.000000e+00 : f32,
  //        output_scale_factor = 1.000000e+00 : f32, axis = 1 : i64} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000x1x1xf16>
  irdl.operation @emu {
    %hw_layer = irdl.base "#builtin.string"
    %ot_softmax = irdl.is "softmax"
    %ot_power = irdl.is "power"
    %ot_log = irdl.is "log"
    %op_type = irdl.any_of(%ot_softmax, %ot_power, %ot_log)
    %p_int8 = irdl.is "int8"
    %p_fp16 = irdl.is "fp16"
    %precision = irdl.any_of(%p_int8, %p_fp16)
    %input_scale_factor = irdl.base "#builtin.float"
    %output_scale_factor = irdl.base "#builtin.float"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "op_type" = %op_type,
      "precision" = %precision,
      "input_scale_factor" = %input_scale_factor,
      "output_scale_factor" = %output_scale_factor
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // nvdla.concat: concatenation realised by placement (no hardware op). The memory
  // planner places every member inside the result's cube (a window starting at the member's
  // channel offset, which must be a multiple of the channels per memory atom).
  // Operands: inputs_0..inputs_31 (numbered optional slots, since IRDL gives a variadic group
  //           one type); operandSegmentSizes says which are present, filled from the front.
  // Results:  output  N x (sum of C) x H x W
  // Attributes:
  //   hw_layer  string
  //   axis      1 (channels), 2 (rows) or 3 (columns: members are column windows with the
  //             result's strides, how nv_small/nv_large interleave upsampling phases without RUBIK)
  // Example:
  //   %c = "nvdla.concat"(%a, %b) {hw_layer = "cat1", axis = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, ...>}
  //        : (tensor<1x16x8x8xf16>, tensor<1x32x8x8xf16>) -> tensor<1x48x8x8xf16>
  irdl.operation @concat {
    %hw_layer = irdl.base "#builtin.string"
    %axis_c = irdl.is 1 : i64
    %axis_h = irdl.is 2 : i64
    %axis_w = irdl.is 3 : i64
    %axis = irdl.any_of(%axis_c, %axis_h, %axis_w)
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "axis" = %axis
    }
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
    %output = irdl.base "!builtin.tensor"
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
    irdl.results(output: %output)
  }

  // nvdla.reshape: a new shape over the same bytes (Reshape, Flatten, Squeeze, Unsqueeze whose
  // feature-cube layout is unchanged, e.g. N x C x 1 x 1 <-> N x C). No hardware op.
  // Attributes: hw_layer string.
  // Example: %r = "nvdla.reshape"(%x) {hw_layer = "flat"} : (tensor<1x1000x1x1xf16>) -> tensor<1x1000xf16>
  irdl.operation @reshape {
    %hw_layer = irdl.base "#builtin.string"
    irdl.attributes {
      "hw_layer" = %hw_layer
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }

  // nvdla.slice: a channel window [c_start, c_start + C_out) of the input, realised by
  // placement (Split/Slice on channels). No hardware op; c_start must be a multiple of the
  // channels per memory atom (the planner checks it).
  // Attributes: hw_layer string; c_start i64 >= 0.
  // Example: %s = "nvdla.slice"(%x) {hw_layer = "split1_1", c_start = 16 : i64} : (tensor<1x32x8x8xf16>) -> tensor<1x16x8x8xf16>
  irdl.operation @slice {
    %hw_layer = irdl.base "#builtin.string"
    %c_start = irdl.base "#builtin.integer"
    irdl.attributes {
      "hw_layer" = %hw_layer,
      "c_start" = %c_start
    }
    %input = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input)
    irdl.results(output: %output)
  }
}
