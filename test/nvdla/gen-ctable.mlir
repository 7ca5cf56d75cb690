// RUN: onnc-opt %s --verify-diagnostics --pass-pipeline='builtin.module(nvdla-gen-ctable{file=%t.missing-dir/table.json})'
// RUN: rm -f %t.json && onnc-opt %s --pass-pipeline='builtin.module(nvdla-gen-ctable{file=%t.json})' -o /dev/null
// RUN: FileCheck %s --check-prefix=GEN < %t.json
// A CDP layer has a CDP and a LUT block; a PDP layer has no calibration registers.
// GEN: "pool.CDP": {
// GEN: "cdp:in_cvt.scale": 1,
// GEN: "pool.LUT": {
// GEN-NOT: "pool2.

// The table cannot be written (its folder does not exist): an error at the module naming the
// file, and no table.
// expected-error @+1 {{nvdla-gen-ctable: cannot write}}
module attributes {nvdla.config = "nv_full"} {
  func.func @main_graph(%x: tensor<1x16x8x8xf16> {onnx.name = "x"}) -> (tensor<1x16x4x4xf16> {onnx.name = "y"}) {
    %y = "nvdla.cdp"(%x) {hw_layer = "pool", in_precision = "fp16", out_precision = "fp16", local_size = 5 : i64, bypass_sqsum = 0 : i64,
        bypass_out_mul = 0 : i64, alpha = 9.99999974E-5 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32,
        in_cvt.offset = 0 : i64, in_cvt.scale = 1 : i64, in_cvt.truncate = 0 : i64, out_cvt.offset = 0 : i64, out_cvt.scale = 1 : i64,
        out_cvt.truncate = 0 : i64, lut_index = 0 : i64, lut_param.linear_exp_offset.exp_offset = 0 : i64,
        lut_param.linear_only_offset.frac_bits = 0 : i64, lut_param.linear_only_start = 0 : i64, lut_param.linear_only_end = 1073741824 : i64}
        : (tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16>
    %z = "nvdla.pdp"(%y) {hw_layer = "pool2", precision = "fp16", pool_mode = "max", pool_width = 2 : i64, pool_height = 2 : i64,
        stride_x = 2 : i64, stride_y = 2 : i64, pad_left = 0 : i64, pad_right = 0 : i64, pad_top = 0 : i64, pad_bottom = 0 : i64}
        : (tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16>
    return %z : tensor<1x16x4x4xf16>
  }
}
