// RUN: onnc-opt %s --split-input-file --verify-diagnostics

// The Rust semantic rules of the nnie dialect (dialects/src/verify/nnie.rs): one chunk per rule.
// The first chunk holds valid ops that pass every rule; each later chunk breaks one rule.
// 8-bit log quantization: a clip c must be 2^(k/16) (16*log2(c) an integer, tolerance 1e-4)
// and z = round(16*log2(c)) - 127 (c = 4 -> -95, 2 -> -111, 0.5 -> -143).

// Valid ops that pass every rule: clip values on the 2^(k/16) grid (also off the powers of
// two: 2^(1/16) with z = -126, 2^(-5/16) with z = -132), grouped/strided/dilated conv, Caffe's
// ceil-mode pooling (including the rule that drops a last window starting in the padding),
// an empty clip list for eltwise prod, negative axes.
func.func @valid(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>, %y: tensor<1x8x9x9xf32>, %wg: tensor<8x2x3x3xf32>,
                 %p: tensor<1x16x4x4xf32>, %v: tensor<2x256xf32>, %fw: tensor<10x256xf32>, %fb: tensor<10xf32>, %big: tensor<1x64x112x112xf32>,
                 %small: tensor<1x8x5x5xf32>, %a: tensor<1x16x8x8xf32>, %a2: tensor<1x16x8x8xf32>, %ca: tensor<1x32x16x16xf32>,
                 %cb: tensor<1x16x16x16xf32>, %cc: tensor<1x32x16x4xf32>) {
  %c = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["c"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  %c2 = "nnie.conv"(%x, %w) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 1.04427378>, input_z = array<i64: -126>, weight_clip = 0.805245165 : f32, weight_z = -132 : i64, tops = ["c2"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  %g = "nnie.conv"(%y, %wg) {layer_name = "dw", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 2, 2>, dilation = array<i64: 2, 2>, group = 4 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["g"]}
      : (tensor<1x8x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x5x5xf32>
  %f = "nnie.fc"(%p, %fw, %fb) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["f"]}
      : (tensor<1x16x4x4xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %f2 = "nnie.fc"(%v, %fw) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["f2"]}
      : (tensor<2x256xf32>, tensor<10x256xf32>) -> tensor<2x10xf32>
  %pl = "nnie.pool"(%big) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["pl"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %p2 = "nnie.pool"(%y) {layer_name = "pool1", pool = "ave", kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["p2"]}
      : (tensor<1x8x9x9xf32>) -> tensor<1x8x5x5xf32>
  %p3 = "nnie.pool"(%small) {layer_name = "pool1", pool = "max", kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["p3"]}
      : (tensor<1x8x5x5xf32>) -> tensor<1x8x3x3xf32>
  %gp = "nnie.pool"(%big) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["gp"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  %e = "nnie.eltwise"(%a, %a2, %a) {layer_name = "res1", operation = "sum", input_clip = array<f32: 4.0, 2.0, 0.0625>, input_z = array<i64: -95, -111, -191>, tops = ["e"]}
      : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = "nnie.eltwise"(%a, %a2) {layer_name = "res1", operation = "prod", input_clip = array<f32>, input_z = array<i64>, tops = ["e2"]}
      : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %k = "nnie.concat"(%ca, %cb) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>,
      operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["k"]}
      : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x48x16x16xf32>
  %k2 = "nnie.concat"(%ca, %cc, %ca) {layer_name = "cat1", axis = -1 : i64, input_clip = array<f32: 4.0, 4.0, 4.0>, input_z = array<i64: -95, -95, -95>,
      operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["k2"]}
      : (tensor<1x32x16x16xf32>, tensor<1x32x16x4xf32>, tensor<1x32x16x16xf32>) -> tensor<1x32x16x36xf32>
  %u = "nnie.upsample"(%a) {layer_name = "up1", scale = 2 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["u"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  %r = "nnie.relu"(%a) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = ["r"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %s = "nnie.softmax"(%f) {layer_name = "prob", axis = 1 : i64, tops = ["s"]}
      : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %s2 = "nnie.softmax"(%f) {layer_name = "prob2", axis = -1 : i64, tops = ["s2"]}
      : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %rs = "nnie.reshape"(%gp) {layer_name = "flat", shape = array<i64: 0, -1, 1, 1>, tops = ["rs"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  %rs2 = "nnie.reshape"(%a) {layer_name = "fold", shape = array<i64: 0, 4, 0, 32>, tops = ["rs2"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x4x8x32xf32>
  %t = "nnie.permute"(%ca) {layer_name = "perm1", order = array<i64: 0, 2, 3, 1>, tops = ["t"]}
      : (tensor<1x32x16x16xf32>) -> tensor<1x16x16x32xf32>
  return
}

// -----

// 3 is not a power of 2^(1/16): the vendor mapper rejects it (gfpq_param_table_8bit.txt).
func.func @clip_off_grid(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op input_clip[0] = 3 is not 2^(k/16) for an integer k (16*log2(c) = 25.3594)}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 3.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

// 4.01 is off by 0.06 grid steps, far above the 1e-4 tolerance.
func.func @clip_nearly_on_grid(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input_clip[0] = 4.010000228881836 is not 2^(k/16) for an integer k (16*log2(c) = 32.0576)}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.01>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @clip_zero(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input_clip[0] = 0 must be a finite value > 0}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 0.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @clip_negative(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input_clip[0] = -4 must be a finite value > 0}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: -4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @z_mismatch(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input_z[0] = -94 does not match input_clip[0] = 4 (round(16*log2(c)) - 127 = -95)}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -94>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @z_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input_z has 2 entries but input_clip has 1}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95, -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @clip_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input_clip has 2 entries but the op has 1 data input(s)}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0, 4.0>, input_z = array<i64: -95, -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @clip_i64_array(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'input_clip' must be array<f32: ...>}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<i64: 4>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @z_i32_array(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'input_z' must be array<i64: ...>}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i32: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @weight_clip_off_grid(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{weight_clip = 0.30000001192092896 is not 2^(k/16) for an integer k (16*log2(c) = -27.7914)}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.3 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @weight_z_mismatch(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{weight_z = -142 does not match weight_clip = 0.5 (round(16*log2(c)) - 127 = -143)}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -142 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @weight_clip_f64(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'weight_clip' must be an f32 float, got f64}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f64, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_layer_name_empty(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'nnie.conv' op layer_name must not be empty}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_group_i32(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'group' must be a 64-bit integer (i64), got i32}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i32,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_group_zero(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{group = 0 must be >= 1}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_group_divides_c(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{group 2 does not divide the 3 input channels}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 2 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_group_divides_o(%x: tensor<1x3x32x32xf32>, %w: tensor<16x1x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{group 3 does not divide the 16 output channels}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 3 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_weight_channels(%x: tensor<1x3x32x32xf32>, %w: tensor<16x2x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{weight dim 1 is 2 but 3 input channels with group 1 need 3}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x2x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_kernel_vs_weight(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{kernel [5, 5] does not match the weight's spatial dims [3, 3]}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 5, 5>, stride = array<i64: 1, 1>, pad = array<i64: 2, 2>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_kernel_entries(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{kernel has 3 entries but needs 2}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{stride[1] = 0 must be >= 1}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 0>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_pad_negative(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{pad[1] = -1 must be >= 0}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, -1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{dilation[0] = 0 must be >= 1}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 0, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_kernel_i32(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'kernel' must be array<i64: ...>}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i32: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_bias_shape(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{bias must have shape [16], got [8]}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<8xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_output_shape(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{output shape [1, 16, 30, 30] does not match the convolution's [1, 16, 32, 32]}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{input must have rank 4, got rank 3 [3, 32, 32]}}
  %0 = "nnie.conv"(%x, %w, %b) {layer_name = "conv1", kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, dilation = array<i64: 1, 1>, group = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 0.5 : f32, weight_z = -143 : i64, tops = ["0"]}
      : (tensor<3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @fc_weight_k(%x: tensor<1x16x4x4xf32>, %w: tensor<10x128xf32>, %b: tensor<10xf32>) {
  // expected-error @+1 {{weight has 128 inputs per output but the input has K = 256}}
  %0 = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["0"]}
      : (tensor<1x16x4x4xf32>, tensor<10x128xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @fc_input_rank(%x: tensor<1x16x16xf32>, %w: tensor<10x256xf32>, %b: tensor<10xf32>) {
  // expected-error @+1 {{input must be N x K or N x C x H x W, got rank 3}}
  %0 = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["0"]}
      : (tensor<1x16x16xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @fc_output_shape(%x: tensor<1x16x4x4xf32>, %w: tensor<10x256xf32>, %b: tensor<10xf32>) {
  // expected-error @+1 {{output shape [1, 12] does not match N x O = [1, 10]}}
  %0 = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["0"]}
      : (tensor<1x16x4x4xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<1x12xf32>
  return
}

// -----

func.func @fc_bias_shape(%x: tensor<1x16x4x4xf32>, %w: tensor<10x256xf32>, %b: tensor<1x10xf32>) {
  // expected-error @+1 {{bias must have shape [10], got [1, 10]}}
  %0 = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["0"]}
      : (tensor<1x16x4x4xf32>, tensor<10x256xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @fc_weight_z(%x: tensor<1x16x4x4xf32>, %w: tensor<10x256xf32>, %b: tensor<10xf32>) {
  // expected-error @+1 {{weight_z = -160 does not match weight_clip = 0.25 (round(16*log2(c)) - 127 = -159)}}
  %0 = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 8.0>, input_z = array<i64: -79>, weight_clip = 0.25 : f32, weight_z = -160 : i64, tops = ["0"]}
      : (tensor<1x16x4x4xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @fc_input_clip(%x: tensor<1x16x4x4xf32>, %w: tensor<10x256xf32>, %b: tensor<10xf32>) {
  // expected-error @+1 {{input_clip[0] = 10 is not 2^(k/16) for an integer k (16*log2(c) = 53.1508)}}
  %0 = "nnie.fc"(%x, %w, %b) {layer_name = "fc", input_clip = array<f32: 10.0>, input_z = array<i64: -74>, weight_clip = 0.25 : f32, weight_z = -159 : i64, tops = ["0"]}
      : (tensor<1x16x4x4xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return
}

// -----

// NNIE pools in Caffe's ceil mode: 112 with kernel 3, stride 2 gives 56 rows, not floor's 55.
func.func @pool_floor_rounding(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{output shape [1, 64, 55, 55] does not match the pooling's [1, 64, 56, 56] (Caffe rounds up)}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x55x55xf32>
  return
}

// -----

// Caffe drops a last window that would start in the bottom/right padding.
func.func @pool_padding_window(%x: tensor<1x8x5x5xf32>) {
  // expected-error @+1 {{output shape [1, 8, 4, 4] does not match the pooling's [1, 8, 3, 3]}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x8x5x5xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @pool_global_shape(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{output shape [1, 64, 2, 2] does not match the pooling's [1, 64, 1, 1]}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 1 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x2x2xf32>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{kernel[0] = 0 must be >= 1}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 0, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_stride_entries(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{stride has 1 entries but needs 2}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_pad_negative(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{pad[0] = -1 must be >= 0}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: -1, 0>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @pool_clip(%x: tensor<1x64x112x112xf32>) {
  // expected-error @+1 {{input_z[0] = -96 does not match input_clip[0] = 4}}
  %0 = "nnie.pool"(%x) {layer_name = "pool1", pool = "max", kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0>, global_pooling = 0 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -96>, tops = ["0"]}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @eltwise_one_input(%a: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.eltwise' op needs at least 2 inputs, got 1}}
  %0 = "nnie.eltwise"(%a) {layer_name = "res1", operation = "sum", input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @eltwise_clip_count(%a: tensor<1x16x8x8xf32>, %b: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{input_clip has 1 entries but the op has 2 data input(s)}}
  %0 = "nnie.eltwise"(%a, %b) {layer_name = "res1", operation = "sum", input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

// Only prod may leave the clip list empty (MQBench emits none for it).
func.func @eltwise_sum_needs_clips(%a: tensor<1x16x8x8xf32>, %b: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{input_clip has 0 entries but the op has 2 data input(s)}}
  %0 = "nnie.eltwise"(%a, %b) {layer_name = "res1", operation = "sum", input_clip = array<f32>, input_z = array<i64>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @eltwise_second_clip(%a: tensor<1x16x8x8xf32>, %b: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{input_clip[1] = 2.5 is not 2^(k/16) for an integer k (16*log2(c) = 21.1508)}}
  %0 = "nnie.eltwise"(%a, %b) {layer_name = "res1", operation = "sum", input_clip = array<f32: 4.0, 2.5>, input_z = array<i64: -95, -106>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @eltwise_output_shape(%a: tensor<1x16x8x8xf32>, %b: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{output shape [1, 16, 4, 4] differs from input shape [1, 16, 8, 8]}}
  %0 = "nnie.eltwise"(%a, %b) {layer_name = "res1", operation = "sum", input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x4x4xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<1x32x16x16xf32>, %b: tensor<1x16x16x16xf32>) {
  // expected-error @+1 {{axis 4 is out of range [-4, 3] for rank 4}}
  %0 = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 4 : i64, input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>,
      operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["0"]}
      : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x48x16x16xf32>
  return
}

// -----

func.func @concat_off_axis(%a: tensor<1x32x16x16xf32>, %b: tensor<1x16x8x16xf32>) {
  // expected-error @+1 {{input 1 has shape [1, 16, 8, 16] which differs from input 0 [1, 32, 16, 16] off axis 1}}
  %0 = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>,
      operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["0"]}
      : (tensor<1x32x16x16xf32>, tensor<1x16x8x16xf32>) -> tensor<1x48x16x16xf32>
  return
}

// -----

func.func @concat_output_shape(%a: tensor<1x32x16x16xf32>, %b: tensor<1x16x16x16xf32>) {
  // expected-error @+1 {{output shape [1, 40, 16, 16] does not match the concatenation's [1, 48, 16, 16]}}
  %0 = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>,
      operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["0"]}
      : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x40x16x16xf32>
  return
}

// -----

func.func @concat_slots_prefix(%a: tensor<1x32x16x16xf32>, %b: tensor<1x16x16x16xf32>) {
  // expected-error @+1 {{operandSegmentSizes must fill slots from the front}}
  %0 = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.0, 2.0>, input_z = array<i64: -95, -111>,
      operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["0"]}
      : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x48x16x16xf32>
  return
}

// -----

func.func @concat_clip_count(%a: tensor<1x32x16x16xf32>, %b: tensor<1x16x16x16xf32>) {
  // expected-error @+1 {{input_clip has 1 entries but the op has 2 data input(s)}}
  %0 = "nnie.concat"(%a, %b) {layer_name = "cat1", axis = 1 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>,
      operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, tops = ["0"]}
      : (tensor<1x32x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x48x16x16xf32>
  return
}

// -----

func.func @upsample_output_shape(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{output shape [1, 16, 8, 8] is not the 2x upsampled [1, 16, 16, 16]}}
  %0 = "nnie.upsample"(%x) {layer_name = "up1", scale = 2 : i64, input_clip = array<f32: 4.0>, input_z = array<i64: -95>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @upsample_clip(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{input_clip[0] = 5 is not 2^(k/16)}}
  %0 = "nnie.upsample"(%x) {layer_name = "up1", scale = 2 : i64, input_clip = array<f32: 5.0>, input_z = array<i64: -90>, tops = ["0"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<1x10xf32>) {
  // expected-error @+1 {{axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "nnie.softmax"(%x) {layer_name = "prob", axis = 2 : i64, tops = ["0"]}
      : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @softmax_layer_name_empty(%x: tensor<1x10xf32>) {
  // expected-error @+1 {{'nnie.softmax' op layer_name must not be empty}}
  %0 = "nnie.softmax"(%x) {layer_name = "", axis = 1 : i64, tops = ["0"]}
      : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @relu_slope_f64(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{attribute 'negative_slope' must be an f32 float, got f64}}
  %0 = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.0 : f64, tops = ["0"]}
      : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @reshape_batch(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{shape [1, -1, 1, 1] must start with 0 (NNIE copies the batch)}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 1, -1, 1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  return
}

// -----

func.func @reshape_entries(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{shape has 3 entries but needs 4}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, -1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  return
}

// -----

func.func @reshape_two_inferred(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{shape [0, -1, -1, 1] may infer (-1) at most one dim}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, -1, -1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  return
}

// -----

func.func @reshape_negative(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{shape[1] = -2 must be >= -1}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, -2, 1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  return
}

// -----

func.func @reshape_output_dims(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{output shape [1, 32, 2, 1] does not match shape [0, 64, 1, 1]}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, 64, 1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x32x2x1xf32>
  return
}

// -----

func.func @reshape_element_count(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{output has 32 elements but the input has 64}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, -1, 1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x32x1x1xf32>
  return
}

// -----

// NNIE accepts only 4-D reshapes.
func.func @reshape_rank(%x: tensor<1x64x1x1xf32>) {
  // expected-error @+1 {{output must have rank 4, got rank 2 [1, 64]}}
  %0 = "nnie.reshape"(%x) {layer_name = "flat", shape = array<i64: 0, -1, 1, 1>, tops = ["0"]}
      : (tensor<1x64x1x1xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @permute_output_shape(%x: tensor<1x48x16x16xf32>) {
  // expected-error @+1 {{output shape [1, 48, 16, 16] is not the NHWC permutation [1, 16, 16, 48]}}
  %0 = "nnie.permute"(%x) {layer_name = "perm1", order = array<i64: 0, 2, 3, 1>, tops = ["0"]}
      : (tensor<1x48x16x16xf32>) -> tensor<1x48x16x16xf32>
  return
}

// -----

func.func @deconv_output_shape(%x: tensor<1x8x8x8xf32>, %w: tensor<8x1x3x3xf32>) {
  // expected-error @+1 {{output shape [1, 8, 23, 23] does not match the deconvolution's [1, 8, 24, 24]}}
  %0 = "nnie.deconv"(%x, %w) {layer_name = "up3", kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0>, group = 8 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 1.0 : f32, weight_z = -127 : i64, tops = ["0"]}
      : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x23x23xf32>
  return
}

// -----

func.func @deconv_weight_channels(%x: tensor<1x8x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error @+1 {{weight dim 0 is 4; it must equal the 8 input channels, which group 8 divides}}
  %0 = "nnie.deconv"(%x, %w) {layer_name = "up3", kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0>, group = 8 : i64,
      input_clip = array<f32: 4.0>, input_z = array<i64: -95>, weight_clip = 1.0 : f32, weight_z = -127 : i64, tops = ["0"]}
      : (tensor<1x8x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x8x24x24xf32>
  return
}

// -----

// tops names each result's Caffe blob: one name per result, none empty.
func.func @tops_count(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.relu' op tops names 2 blob(s) but the op has 1 result(s)}}
  %0 = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = ["a", "b"]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @tops_empty_name(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.relu' op tops[0] must be a non-empty string (a Caffe blob name)}}
  %0 = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = [""]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @tops_not_strings(%x: tensor<1x16x8x8xf32>) {
  // expected-error @+1 {{'nnie.relu' op tops[0] must be a non-empty string (a Caffe blob name)}}
  %0 = "nnie.relu"(%x) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = [1 : i64]} : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return
}
