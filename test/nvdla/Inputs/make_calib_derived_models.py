"""Models whose nv_small programs hold tensors the ONNX graph does not have
(issue 19): the built-in calibrator runs the ONNX graph, so their INT8 scales
are derived (docs/quantization.md, "Tensors the lowering makes").

relu6_s2.onnx  x [1,16,16,16] -> Conv 1x1 (16->32) + BatchNorm + Clip(0,6)
               -> depthwise 3x3 stride 2 + Clip(0,6) -> Conv 1x1 (32->16): MobileNetV2's
               inverted-residual pattern. Clip(0,6) legalizes to Max(x,0) then Min(x,6);
               nv_small has no SDP Y unit, so Max(x,0) must be the X unit's ReLU for
               the Min to fit in the conv's SDP (else a tensor no calibrator saw).
shuffle.onnx   x [1,16,8,8] -> split into halves, one half through 1x1 conv + ReLU,
               Concat, then ShuffleNetV2's channel shuffle (Reshape, Transpose,
               Reshape): lowered to 0/1 selection convolutions whose partial
               result is data movement (takes its input's scale).
gemm_split.onnx  x [1,512,6,6] -> Flatten -> Gemm (18432 -> 8) -> Relu: one group of
               8 kernels over 18432 inputs is 144 KiB, more than nv_small's 128 KiB
               convolution buffer, so the reduction is split in input channels and a
               partial sum is written (its scale from the calibrator's partial-sum
               entry). Not committed (576 KiB of weights): the lit test makes it.
hardswish.onnx x [1,8,8,8] -> Conv 3x3 (8->16) -> HardSwish -> Conv 1x1 (16->8):
               MobileNetV3's activation. nv_small has no LUT, so it legalizes to
               Mul(x, HardSigmoid(x)); the HardSigmoid result (a tensor no calibrator
               saw) takes the exact scale 1/127. Made by the lit test (opset 14).
calib_<model>/sample_{0,1,2}.npy   seeded standard-normal calibration inputs.

relu6_s2 and shuffle (and their calib_ folders) are committed in
test/data/calib-derived/, made by `make_calib_derived_models.py test/data/calib-derived
relu6_s2 shuffle`.

Usage: make_calib_derived_models.py OUT_DIR [MODEL ...]   (default: all four)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
wanted = sys.argv[2:] or ["relu6_s2", "shuffle", "gemm_split", "hardswish"]
os.makedirs(out, exist_ok=True)
N = helper.make_node


def save(name, nodes, inits, x_shape, y_shape, seed, opset=13):
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_calib_derived_models.py")
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, f"{name}.onnx"))
    rng = np.random.default_rng(seed + 100)
    calib = os.path.join(out, f"calib_{name}")
    os.makedirs(calib, exist_ok=True)
    for k in range(3):
        np.save(os.path.join(calib, f"sample_{k}.npy"), rng.standard_normal(x_shape).astype(np.float32))


def conv_w(rng, k, c, kh=1, kw=1):
    return (rng.standard_normal((k, c, kh, kw)) * np.sqrt(2.0 / (c * kh * kw))).astype(np.float32)


def relu6_s2():
    rng = np.random.default_rng(1)
    c, e, hw = 16, 32, 16
    inits = [
        numpy_helper.from_array(conv_w(rng, e, c), "w1"),
        numpy_helper.from_array((1 + 0.1 * rng.standard_normal(e)).astype(np.float32), "g1"),
        numpy_helper.from_array((0.1 * rng.standard_normal(e)).astype(np.float32), "b1"),
        numpy_helper.from_array((0.1 * rng.standard_normal(e)).astype(np.float32), "m1"),
        numpy_helper.from_array((1 + 0.1 * rng.random(e)).astype(np.float32), "v1"),
        numpy_helper.from_array(conv_w(rng, e, 1, 3, 3), "wd"),
        numpy_helper.from_array((0.1 * rng.standard_normal(e)).astype(np.float32), "bd"),
        numpy_helper.from_array(conv_w(rng, c, e), "w2"),
        numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
        numpy_helper.from_array(np.array(6.0, np.float32), "hi"),
    ]
    nodes = [
        N("Conv", ["x", "w1"], ["c1"], name="expand"),
        N("BatchNormalization", ["c1", "g1", "b1", "m1", "v1"], ["n1"], name="bn"),
        N("Clip", ["n1", "lo", "hi"], ["r1"], name="relu6_a"),
        N("Conv", ["r1", "wd", "bd"], ["d"], name="dw", group=e, strides=[2, 2], pads=[1, 1, 1, 1]),
        N("Clip", ["d", "lo", "hi"], ["r2"], name="relu6_b"),
        N("Conv", ["r2", "w2"], ["y"], name="project"),
    ]
    save("relu6_s2", nodes, inits, [1, c, hw, hw], [1, c, hw // 2, hw // 2], 1)


def shuffle():
    rng = np.random.default_rng(2)
    c, half = 16, 8
    inits = [
        numpy_helper.from_array(conv_w(rng, half, half), "w"),
        numpy_helper.from_array((0.1 * rng.standard_normal(half)).astype(np.float32), "b"),
        numpy_helper.from_array(np.array([half, half], np.int64), "split"),
        numpy_helper.from_array(np.array([1, 2, half, 8, 8], np.int64), "s5"),
        numpy_helper.from_array(np.array([1, c, 8, 8], np.int64), "s4"),
    ]
    nodes = [
        N("Split", ["x", "split"], ["x1", "x2"], name="chunk", axis=1),
        N("Conv", ["x2", "w", "b"], ["c2"], name="branch"),
        N("Relu", ["c2"], ["r2"], name="relu"),
        N("Concat", ["x1", "r2"], ["cat"], name="concat", axis=1),
        N("Reshape", ["cat", "s5"], ["g"], name="group"),
        N("Transpose", ["g"], ["t"], name="swap", perm=[0, 2, 1, 3, 4]),
        N("Reshape", ["t", "s4"], ["y"], name="flat"),
    ]
    save("shuffle", nodes, inits, [1, c, 8, 8], [1, c, 8, 8], 2)


def gemm_split():
    rng = np.random.default_rng(3)
    k, n = 512 * 6 * 6, 8
    w = (rng.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32)
    inits = [
        numpy_helper.from_array(w, "w"),
        numpy_helper.from_array((0.1 * rng.standard_normal(n)).astype(np.float32), "b"),
    ]
    nodes = [
        N("Flatten", ["x"], ["f"], name="flatten", axis=1),
        N("Gemm", ["f", "w", "b"], ["g"], name="fc", transB=1),
        N("Relu", ["g"], ["y"], name="relu"),
    ]
    save("gemm_split", nodes, inits, [1, 512, 6, 6], [1, n], 3)


def hardswish():
    rng = np.random.default_rng(4)
    c, e, hw = 8, 16, 8
    inits = [
        numpy_helper.from_array(conv_w(rng, e, c, 3, 3), "w1"),
        numpy_helper.from_array((0.1 * rng.standard_normal(e)).astype(np.float32), "b1"),
        numpy_helper.from_array(conv_w(rng, c, e), "w2"),
    ]
    nodes = [
        N("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        N("HardSwish", ["c1"], ["h"], name="hswish"),
        N("Conv", ["h", "w2"], ["y"], name="conv2"),
    ]
    save("hardswish", nodes, inits, [1, c, hw, hw], [1, c, hw, hw], 4, opset=14)


for name in wanted:
    globals()[name]()
