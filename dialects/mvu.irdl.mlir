// The `mvu` dialect: jobs for the Matrix-Vector Units of BARVINN (8 MVUs driven by the PITO
// RISC-V barrel processor, one hart per MVU).
//
// An MVU computes 1x64 by 64x64 binary matrix-vector products, one per cycle, and builds
// multi-bit arithmetic bit-serially, so every job is described by precisions, by the loop
// counts ("length") and address jumps of the input and weight address generators, and by a
// cycle countdown. Produced by `convert-onnx-to-mvu`. The MVU emitter (config table, RISC-V
// CSR program, bit-serial weight and test-vector files) does not read it yet: `onnc compile
// --target mvu` writes them from the in-memory level (issue #17, item 5).
// Sources (facts only): hossein1387/BARVINN docs/design.rst, hossein1387/MVU_Code_Gen,
// obilaniu/MVU verification/lib/mvu/mvu_pkg.sv.
//
// Conventions (docs/dialects/mvu.md has the long form):
// * Channels are counted in blocks of 64: iC = ceil(C_in / 64), fC = ceil(C_out / 64).
// * Register arrays (ilength, ijump, wlength, wjump) have 5 entries, index 0 first, as in the
//   MVU_Code_Gen tables; a length holds "count - 1".
// * Integers are i64 IntegerAttr, integer lists array<i64: ...>; widths and ranges are in the
//   doc blocks and checked by the Rust verifier. 0/1 flags and mul_mode are checked exactly.
// * scaler and bias are optional operands (per output channel; scaler: 16-bit fixed point,
//   bias: 32-bit fixed point, only the low 27 bits used). Two optionals, so both ops always
//   carry operandSegmentSizes = array<i32: 1, 1, s, b>. Without a scaler the emitter writes
//   ones (bypass); without a bias, zeros.
// * Output jump/length registers (mvuolength_*, mvuojump_*) are not modelled yet: the public
//   generator writes them from the input values (a bug) and their formulas are not documented.

irdl.dialect @mvu {

  // mvu.conv: a 2-D convolution as a sequence of MVU jobs, one job per output row.
  // Formulas (MVU_Code_Gen, verified against its ResNet-18 table): with ip = aprec,
  // wp = wprec, input [iC, iH, iW], filter [fC, fH, fW], stride sW:
  //   ilength = [0, ip*wp*fC - 1, fH - 1, iC*fW - 1, 0]
  //   wlength = [0, fC - 1, ip*wp - 1, iC*fW*fH - 1, 0]
  //   countdown = iC*fW * fH * ip*wp * fC * (iW - fW + 1) / sW
  //   total cycles of the layer = countdown * ceil((iW + pad_top + pad_left) / sW)
  // With maxpool = 1 the conv runs one job per pooled pixel and filter block (the pooler keeps
  // one running maximum per lane), window kH x kW, taps = iC*fW*fH, conv strides sH, sW
  // (onnc_mvu_hw::pooled_registers, the formulas the back end uses):
  //   ilength = [0, kW - 1, ip*wp - 1, fH - 1, iC*fW - 1]
  //   wlength = [0, kW - 1, ip*wp - 1, 0, taps - 1]
  //   wjump   = [r, r, r, 0, wp], r = -wp*(taps - 1)
  //   ijump   = [ip*(iC*((sH - fH + 1)*iW - (kW - 1)*sW - fW) + 1), -ip*(iC*(fH - 1)*iW + (fW - sW)*iC - 1),
  //              -ip*(iC*(fH - 1)*iW + iC*fW - 1), ip*(iC*(iW - fW) + 1), ip]
  //   countdown = kH*kW*ip*wp*taps; the output is the pooled grid; every window lies inside the
  //   conv's output (no pool padding, no ceil-mode overhang)
  // Operands: input   activations, N x C x H x W (stored NHWC bit-serially, 64-channel blocks)
  //           weight  O x I x kH x kW, constant
  //           scaler, bias  optional, O entries each
  // Results:  output
  // Attributes:
  //   ishape            array<i64: iC, iH, iW>, iC in 64-channel blocks
  //   fshape            array<i64: fC, fH, fW>, fC in 64-channel blocks
  //   strides           array<i64: sH, sW>, each >= 1
  //   pads              array<i64: top, left, bottom, right>, ONNX order, each >= 0
  //   maxpool           0 | 1, max-pool the job's outputs (mvucommand bit 29)
  //   pool_kernel       array<i64: kH, kW>, pool_strides array<i64: sH, sW>, pool_pads
  //                     array<i64: top, left, bottom, right>, pool_ceil_mode 0 or 1: the ONNX
  //                     MaxPool window over the conv's output; present exactly when maxpool = 1
  //                     (not IRDL-declared: the Rust verifier requires them with maxpool = 1)
  //   mvu               0..7, the MVU (and PITO hart) that runs the job
  //   aprec, wprec, oprec   1..16, activation, weight and output precision in bits
  //                     (the 6-bit fields of mvuprecision: wprec | aprec << 6 | oprec << 12)
  //   asigned, wsigned  0 | 1, input / weights signed (mvuprecision bits 25 / 24)
  //   ilength, wlength  array<i64>, 5 entries, each 0..2^15-1: loop counts minus one of the
  //                     input / weight address generators, index 0 = outermost loop
  //   ijump, wjump      array<i64>, 5 entries, each -2^14..2^14-1: address jumps in 64-bit
  //                     words (input) / 4096-bit words (weights) at the end of each loop
  //   countdown         1..2^29-1, clock cycles of one job (mvucommand bits 28..0)
  //   mul_mode          0..3, mvucommand bits 31..30: 0 = {0,0}, 1 = {0,+1}, 2 = {-1,+1},
  //                     3 = {0,-1} (how a weight bit is read)
  //   quant_msb         0..26, quantizer MSB index (mvuquant low bits; the scaler output is BSCALERP = 27 bits wide)
  //   omvu_mask         0..255, destination MVUs of the result (mvuobaseptr bits 31..24,
  //                     bit k = MVU k; more than one bit broadcasts over the crossbar)
  //   Optional, what the configuration writer reads beyond the registers (convert-onnx-to-mvu
  //   writes them; the Rust verifier checks them when present):
  //   onnx_op           string, the ONNX op type of the layer's node (Conv, Gemm, MatMul, ...)
  //   weight_name       string, the weight initializer; the weight file is <weight_name>.hex
  //   relu              0 or 1 : i64, a ReLU in the layer's output pipeline
  //   weight_scales     array<f32>, 1 (per layer) or O (per output channel) entries, each > 0:
  //                     float weight = code * scale
  //   bias_values       array<f32>, O entries: the float bias (the bias operand holds it in
  //                     accumulator units)
  //   weight_layout     "as_layer" or "transposed": the ONNX weight operand's layout
  //   output_end        string, the ONNX value where the layer's output pipeline ends
  //   sum_of            N >= 1 : i64, a GlobalAveragePool computed as the sum of N pixels
  // Example (BARVINN SimpleConv: 64 -> 64 channels, 3x3, pad 1, 8-bit):
  //   %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, wprec = 8 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 0 : i64,
  //        ishape = array<i64: 1, 32, 32>, fshape = array<i64: 1, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, maxpool = 0 : i64,
  //        ilength = array<i64: 0, 63, 2, 2, 0>, ijump = array<i64: -528, -528, 240, 8, 0>,
  //        wlength = array<i64: 0, 0, 63, 8, 0>, wjump = array<i64: -64, 8, -64, 8, 0>,
  //        countdown = 17280 : i64, mul_mode = 1 : i64, quant_msb = 15 : i64, omvu_mask = 1 : i64,
  //        operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x64x32x32xi8>, tensor<64x64x3x3xi8>) -> tensor<1x64x32x32xi8>
  irdl.operation @conv {
    %mvu = irdl.base "#builtin.integer"
    %aprec = irdl.base "#builtin.integer"
    %wprec = irdl.base "#builtin.integer"
    %oprec = irdl.base "#builtin.integer"
    %as_0 = irdl.is 0 : i64
    %as_1 = irdl.is 1 : i64
    %asigned = irdl.any_of(%as_0, %as_1)
    %ws_0 = irdl.is 0 : i64
    %ws_1 = irdl.is 1 : i64
    %wsigned = irdl.any_of(%ws_0, %ws_1)
    %ilength = irdl.base "#builtin.dense_array"
    %ijump = irdl.base "#builtin.dense_array"
    %wlength = irdl.base "#builtin.dense_array"
    %wjump = irdl.base "#builtin.dense_array"
    %countdown = irdl.base "#builtin.integer"
    %mm_0 = irdl.is 0 : i64
    %mm_1 = irdl.is 1 : i64
    %mm_2 = irdl.is 2 : i64
    %mm_3 = irdl.is 3 : i64
    %mul_mode = irdl.any_of(%mm_0, %mm_1, %mm_2, %mm_3)
    %quant_msb = irdl.base "#builtin.integer"
    %omvu_mask = irdl.base "#builtin.integer"
    %ishape = irdl.base "#builtin.dense_array"
    %fshape = irdl.base "#builtin.dense_array"
    %strides = irdl.base "#builtin.dense_array"
    %pads = irdl.base "#builtin.dense_array"
    %mp_0 = irdl.is 0 : i64
    %mp_1 = irdl.is 1 : i64
    %maxpool = irdl.any_of(%mp_0, %mp_1)
    irdl.attributes {
      "mvu" = %mvu,
      "aprec" = %aprec,
      "wprec" = %wprec,
      "oprec" = %oprec,
      "asigned" = %asigned,
      "wsigned" = %wsigned,
      "ishape" = %ishape,
      "fshape" = %fshape,
      "strides" = %strides,
      "pads" = %pads,
      "maxpool" = %maxpool,
      "ilength" = %ilength,
      "ijump" = %ijump,
      "wlength" = %wlength,
      "wjump" = %wjump,
      "countdown" = %countdown,
      "mul_mode" = %mul_mode,
      "quant_msb" = %quant_msb,
      "omvu_mask" = %omvu_mask
    }
    %input = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %scaler = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, weight: %weight, scaler: optional %scaler, bias: optional %bias)
    irdl.results(output: %output)
  }

  // mvu.matmul: a matrix-vector product (Gemm/MatMul with a batch of 1) on one MVU, one job per
  // 64-row block of the output.
  // Formulas (MVU_Code_Gen HEAD): weight d0 x d1, m_h = ceil(d0 / 64), m_w = ceil(d1 / 64):
  //   ilength = [0, m_h - 1, 0, 0, 0]        ijump = [-ip*(m_w - 1), ip, 0, 0, 0]
  //   wlength = [0, wp*ip - 1, m_w - 1, 0, 0] wjump = [wp, -wp*(m_w - 1), wp, 0, 0]
  //   countdown = m_w * m_h * ip * wp
  // Operands: input   the activation vector, 1 x K, or a conv's 1 x C x H x W output read
  //                   flattened (K = C*H*W, ONNX Flatten)
  //           weight  d0 x d1, constant (PyTorch Gemm: out x in)
  //           scaler, bias  optional, one entry per output
  // Results:  output  1 x N
  // Attributes:
  //   ishape            array<i64: iC, 1, 1>, the input vector in 64-element blocks
  //   fshape            array<i64: fC, d0, d1>, fC = ceil(out / 64)
  //   mvu               0..7, the MVU (and PITO hart) that runs the job
  //   aprec, wprec, oprec   1..16, activation, weight and output precision in bits
  //                     (the 6-bit fields of mvuprecision: wprec | aprec << 6 | oprec << 12)
  //   asigned, wsigned  0 | 1, input / weights signed (mvuprecision bits 25 / 24)
  //   ilength, wlength  array<i64>, 5 entries, each 0..2^15-1: loop counts minus one of the
  //                     input / weight address generators, index 0 = outermost loop
  //   ijump, wjump      array<i64>, 5 entries, each -2^14..2^14-1: address jumps in 64-bit
  //                     words (input) / 4096-bit words (weights) at the end of each loop
  //   countdown         1..2^29-1, clock cycles of one job (mvucommand bits 28..0)
  //   mul_mode          0..3, mvucommand bits 31..30: 0 = {0,0}, 1 = {0,+1}, 2 = {-1,+1},
  //                     3 = {0,-1} (how a weight bit is read)
  //   quant_msb         0..26, quantizer MSB index (mvuquant low bits; the scaler output is BSCALERP = 27 bits wide)
  //   omvu_mask         0..255, destination MVUs of the result (mvuobaseptr bits 31..24,
  //                     bit k = MVU k; more than one bit broadcasts over the crossbar)
  //   Optional, what the configuration writer reads beyond the registers (convert-onnx-to-mvu
  //   writes them; the Rust verifier checks them when present):
  //   onnx_op           string, the ONNX op type of the layer's node (Conv, Gemm, MatMul, ...)
  //   weight_name       string, the weight initializer; the weight file is <weight_name>.hex
  //   relu              0 or 1 : i64, a ReLU in the layer's output pipeline
  //   weight_scales     array<f32>, 1 (per layer) or O (per output channel) entries, each > 0:
  //                     float weight = code * scale
  //   bias_values       array<f32>, O entries: the float bias (the bias operand holds it in
  //                     accumulator units)
  //   weight_layout     "as_layer" or "transposed": the ONNX weight operand's layout
  //   output_end        string, the ONNX value where the layer's output pipeline ends
  // Example (512 -> 10 classifier, 2-bit):
  //   %y = "mvu.matmul"(%x, %w, %s, %b) {mvu = 7 : i64, aprec = 2 : i64, wprec = 2 : i64, oprec = 8 : i64, asigned = 0 : i64, wsigned = 1 : i64,
  //        ishape = array<i64: 8, 1, 1>, fshape = array<i64: 1, 10, 512>,
  //        ilength = array<i64: 0, 0, 0, 0, 0>, ijump = array<i64: -14, 2, 0, 0, 0>,
  //        wlength = array<i64: 0, 3, 7, 0, 0>, wjump = array<i64: 2, -14, 2, 0, 0>,
  //        countdown = 32 : i64, mul_mode = 2 : i64, quant_msb = 9 : i64, omvu_mask = 1 : i64,
  //        operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x512xi8>, tensor<10x512xi8>, tensor<10xi16>, tensor<10xi32>) -> tensor<1x10xi8>
  irdl.operation @matmul {
    %mvu = irdl.base "#builtin.integer"
    %aprec = irdl.base "#builtin.integer"
    %wprec = irdl.base "#builtin.integer"
    %oprec = irdl.base "#builtin.integer"
    %as_0 = irdl.is 0 : i64
    %as_1 = irdl.is 1 : i64
    %asigned = irdl.any_of(%as_0, %as_1)
    %ws_0 = irdl.is 0 : i64
    %ws_1 = irdl.is 1 : i64
    %wsigned = irdl.any_of(%ws_0, %ws_1)
    %ilength = irdl.base "#builtin.dense_array"
    %ijump = irdl.base "#builtin.dense_array"
    %wlength = irdl.base "#builtin.dense_array"
    %wjump = irdl.base "#builtin.dense_array"
    %countdown = irdl.base "#builtin.integer"
    %mm_0 = irdl.is 0 : i64
    %mm_1 = irdl.is 1 : i64
    %mm_2 = irdl.is 2 : i64
    %mm_3 = irdl.is 3 : i64
    %mul_mode = irdl.any_of(%mm_0, %mm_1, %mm_2, %mm_3)
    %quant_msb = irdl.base "#builtin.integer"
    %omvu_mask = irdl.base "#builtin.integer"
    %ishape = irdl.base "#builtin.dense_array"
    %fshape = irdl.base "#builtin.dense_array"
    irdl.attributes {
      "mvu" = %mvu,
      "aprec" = %aprec,
      "wprec" = %wprec,
      "oprec" = %oprec,
      "asigned" = %asigned,
      "wsigned" = %wsigned,
      "ishape" = %ishape,
      "fshape" = %fshape,
      "ilength" = %ilength,
      "ijump" = %ijump,
      "wlength" = %wlength,
      "wjump" = %wjump,
      "countdown" = %countdown,
      "mul_mode" = %mul_mode,
      "quant_msb" = %quant_msb,
      "omvu_mask" = %omvu_mask
    }
    %input = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %scaler = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, weight: %weight, scaler: optional %scaler, bias: optional %bias)
    irdl.results(output: %output)
  }
}
