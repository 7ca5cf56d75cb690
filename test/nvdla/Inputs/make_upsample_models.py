"""Upsampling on NVDLA (issue 19 item 7): Resize and ConvTranspose as a convolution
computing every output phase and a RUBIK contract. Inputs and weights are small
integers, and the interpolation weights multiples of 1/8, so FP16 computes the
nearest and transposed-convolution outputs exactly.

upsample.onnx   inputs x [1,3,5,6], z [1,20,3,4] (20 channels: two FP16 atoms)
                near2      Resize nearest x2, asymmetric/floor, scales (YOLO's FPN)
                near_sizes Resize nearest, sizes 3x along H and 2x along W, half_pixel
                near20     Resize nearest x2 of z (two memory surfaces)
                lin2       Resize linear x2, pytorch_half_pixel (align_corners=False)
                lin4       Resize linear x4, half_pixel
                lin_ac     Resize linear align_corners, sizes s*(in-1)+1 (5->9, 6->11)
                ct1        Relu(ConvTranspose k4 s2 p1 with bias, 3->5 channels)
                ct2        ConvTranspose k3 s2 p1 output_padding 1
                ct3        ConvTranspose k3 s2 p1 (2H-1 rows: the end is cut)
                ct_dw      ConvTranspose k2 s2, group 3 (depthwise)
upsample_inputs/input_{0,1}.pb   integer values in [-4, 4]
refused.onnx    input x [1,3,4,4]; Resize modes no transposed convolution computes
                (align_corners with 2x sizes, cubic, factor 1.5, downsampling,
                asymmetric/round_prefer_floor at 3x) and a dilated ConvTranspose

Usage: make_upsample_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(19)
N = helper.make_node
vi = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
f32 = lambda a, n: numpy_helper.from_array(np.asarray(a, np.float32), n)
i64 = lambda a, n: numpy_helper.from_array(np.asarray(a, np.int64), n)
ints = lambda shape: rng.integers(-3, 4, shape).astype(np.float32)


def save(nodes, name, inputs, outputs, inits):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_upsample_models", ir_version=8)
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def resize(x, y, name, mode="nearest", ctm="asymmetric", nearest="floor", scales=None, sizes=None):
    ins = [x, "", scales or "", sizes or ""] if sizes else [x, "", scales]
    return N("Resize", ins, [y], name=name, mode=mode, coordinate_transformation_mode=ctm, nearest_mode=nearest)


inits = [
    f32([1, 1, 2, 2], "s2"),
    f32([1, 1, 4, 4], "s4"),
    i64([1, 3, 15, 12], "sz_near"),
    i64([1, 3, 9, 11], "sz_ac"),
    f32(ints([3, 5, 4, 4]), "w1"),
    f32(ints([5]), "b1"),
    f32(ints([3, 4, 3, 3]), "w2"),
    f32(ints([3, 1, 2, 2]), "wdw"),
]
nodes = [
    resize("x", "near2", "near2", scales="s2"),
    resize("x", "near_sizes", "near_sizes", ctm="half_pixel", nearest="round_prefer_floor", sizes="sz_near"),
    resize("z", "near20", "near20", scales="s2"),
    resize("x", "lin2", "lin2", mode="linear", ctm="pytorch_half_pixel", scales="s2"),
    resize("x", "lin4", "lin4", mode="linear", ctm="half_pixel", scales="s4"),
    resize("x", "lin_ac", "lin_ac", mode="linear", ctm="align_corners", sizes="sz_ac"),
    N("ConvTranspose", ["x", "w1", "b1"], ["deconv1"], name="deconv1", strides=[2, 2], pads=[1, 1, 1, 1]),
    N("Relu", ["deconv1"], ["ct1"], name="ct1"),
    N("ConvTranspose", ["x", "w2"], ["ct2"], name="ct2", strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1]),
    N("ConvTranspose", ["x", "w2"], ["ct3"], name="ct3", strides=[2, 2], pads=[1, 1, 1, 1]),
    N("ConvTranspose", ["x", "wdw"], ["ct_dw"], name="ct_dw", strides=[2, 2], group=3),
]
outputs = [
    vi("near2", [1, 3, 10, 12]),
    vi("near_sizes", [1, 3, 15, 12]),
    vi("near20", [1, 20, 6, 8]),
    vi("lin2", [1, 3, 10, 12]),
    vi("lin4", [1, 3, 20, 24]),
    vi("lin_ac", [1, 3, 9, 11]),
    vi("ct1", [1, 5, 10, 12]),
    vi("ct2", [1, 4, 10, 12]),
    vi("ct3", [1, 4, 9, 11]),
    vi("ct_dw", [1, 3, 10, 12]),
]
save(nodes, "upsample", [vi("x", [1, 3, 5, 6]), vi("z", [1, 20, 3, 4])], outputs, inits)

d = os.path.join(out, "upsample_inputs")
os.makedirs(d, exist_ok=True)
for i, (name, shape) in enumerate([("x", [1, 3, 5, 6]), ("z", [1, 20, 3, 4])]):
    v = rng.integers(-4, 5, shape).astype(np.float32)
    with open(os.path.join(d, f"input_{i}.pb"), "wb") as f:
        f.write(numpy_helper.from_array(v, name).SerializeToString())

inits = [f32([1, 1, 2, 2], "s2"), f32([1, 1, 1.5, 1.5], "s15"), f32([1, 1, 0.5, 0.5], "s05"), f32([1, 1, 3, 3], "s3"), f32(ints([3, 2, 3, 3]), "w")]
nodes = [
    resize("x", "r_ac", "r_ac", mode="linear", ctm="align_corners", scales="s2"),
    resize("x", "r_cubic", "r_cubic", mode="cubic", ctm="half_pixel", scales="s2"),
    resize("x", "r_frac", "r_frac", scales="s15"),
    resize("x", "r_down", "r_down", scales="s05"),
    resize("x", "r_round3", "r_round3", nearest="round_prefer_floor", scales="s3"),
    N("ConvTranspose", ["x", "w"], ["ct_dil"], name="ct_dil", strides=[2, 2], dilations=[2, 2]),
]
outputs = [vi("r_ac", [1, 3, 8, 8]), vi("r_cubic", [1, 3, 8, 8]), vi("r_frac", [1, 3, 6, 6]), vi("r_down", [1, 3, 2, 2]), vi("r_round3", [1, 3, 12, 12]), vi("ct_dil", [1, 2, 11, 11])]
save(nodes, "refused", [vi("x", [1, 3, 4, 4])], outputs, inits)
