"""Small ONNX models for the NVDLA lit tests (deterministic weights).

mini_resnet.onnx: conv-bn-relu -> [conv-bn -> add(shortcut) -> relu] -> maxpool -> gemm -> softmax,
the shapes of a residual block; lenet.onnx: LeNet-5 with LRN (conv-pool-lrn-conv-pool-fc-relu-fc-softmax);
nn_l0_0.onnx: the network of NVIDIA's golden NN_L0_0 loadable (Caffe LeNet: power(1,1,0) on the
EMU, conv-pool-conv-pool-fc-relu-fc, softmax on the EMU), same shapes.
"""
import sys, os
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]  # make_models.py DIR [resnet18]
rng = np.random.default_rng(7)

def init(name, shape, scale=0.1):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)

def bn(name, c):
    return [numpy_helper.from_array((1 + 0.1 * rng.standard_normal(c)).astype(np.float32), name + "_s"),
            numpy_helper.from_array((0.1 * rng.standard_normal(c)).astype(np.float32), name + "_b"),
            numpy_helper.from_array((0.1 * rng.standard_normal(c)).astype(np.float32), name + "_m"),
            numpy_helper.from_array((1 + 0.1 * rng.random(c)).astype(np.float32), name + "_v")]

def save(nodes, inits, inp, outp, name):
    g = helper.make_graph(nodes, name, [inp], [outp], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))

# mini_resnet
inits = [init("w1", (16, 3, 3, 3)), init("b1", (16,)), init("w2", (16, 16, 3, 3)), init("fc_w", (10, 16 * 8 * 8)), init("fc_b", (10,))]
inits += bn("bn1", 16) + bn("bn2", 16)
nodes = [
    helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
    helper.make_node("BatchNormalization", ["c1", "bn1_s", "bn1_b", "bn1_m", "bn1_v"], ["n1"], name="bn1"),
    helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
    helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
    helper.make_node("BatchNormalization", ["c2", "bn2_s", "bn2_b", "bn2_m", "bn2_v"], ["n2"], name="bn2"),
    helper.make_node("Add", ["n2", "r1"], ["a2"], name="add2"),
    helper.make_node("Relu", ["a2"], ["r2"], name="relu2"),
    helper.make_node("MaxPool", ["r2"], ["p2"], name="pool2", kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("Flatten", ["p2"], ["f"], name="flatten"),
    helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["g"], name="fc", transB=1),
    helper.make_node("Softmax", ["g"], ["y"], name="prob", axis=1),
]
save(nodes, inits, helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16]),
     helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10]), "mini_resnet")

def lenet(name, head, lrn):
    """LeNet-5 after `head` (nodes producing "s" from "x"), with LRN after pool1 when `lrn`."""
    inits = [init("cw1", (20, 1, 5, 5)), init("cb1", (20,)), init("cw2", (50, 20, 5, 5), 0.05), init("cb2", (50,)),
             init("fw1", (500, 800), 0.03), init("fb1", (500,)), init("fw2", (10, 500), 0.05), init("fb2", (10,)),
             numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one")]
    norm = [helper.make_node("LRN", ["p1"], ["l1"], name="norm1", size=5, alpha=1e-4, beta=0.75, bias=1.0)] if lrn else []
    nodes = head + [
        helper.make_node("Conv", ["s", "cw1", "cb1"], ["c1"], name="conv1"),
        helper.make_node("MaxPool", ["c1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
    ] + norm + [
        helper.make_node("Conv", ["l1" if lrn else "p1", "cw2", "cb2"], ["c2"], name="conv2"),
        helper.make_node("MaxPool", ["c2"], ["p2"], name="pool2", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p2"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fw1", "fb1"], ["i1"], name="ip1", transB=1),
        helper.make_node("Relu", ["i1"], ["r1"], name="relu1"),
        helper.make_node("Gemm", ["r1", "fw2", "fb2"], ["i2"], name="ip2", transB=1),
        helper.make_node("Softmax", ["i2"], ["y"], name="prob", axis=1),
    ]
    save(nodes, inits, helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 28, 28]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10]), name)

# lenet with LRN
lenet("lenet", [helper.make_node("Identity", ["x"], ["s"], name="input")], lrn=True)
# nn_l0_0: NVIDIA's NN_L0_0 golden network (its first layer is an EMU power(1, 1, 0))
lenet("nn_l0_0", [helper.make_node("Pow", ["x", "one"], ["s"], name="scale")], lrn=False)

# resnet18_cifar: ResNet-18 for CIFAR-10 (3x32x32; 3x3 stem, no max pool; 4 stages of 2 basic
# blocks, 1x1 downsample convs at stages 2-4; global average pool; FC 512 -> 10): 20 convolutions.
if "resnet18" in sys.argv[2:]:  # 45 MB of weights: only when asked
    inits, nodes = [], []
    def conv_bn(x, name, cin, cout, k, stride, relu):
        inits.append(init(name + "_w", (cout, cin, k, k), (2.0 / (cin * k * k)) ** 0.5))
        inits.extend(bn(name + "_bn", cout))
        nodes.append(helper.make_node("Conv", [x, name + "_w"], [name + "_c"], name=name, pads=[k // 2] * 4, strides=[stride, stride]))
        nodes.append(helper.make_node("BatchNormalization", [name + "_c"] + [f"{name}_bn_{s}" for s in "sbmv"], [name + "_n"], name=name + "_bn"))
        if not relu:
            return name + "_n"
        nodes.append(helper.make_node("Relu", [name + "_n"], [name + "_r"], name=name + "_relu"))
        return name + "_r"
    x = conv_bn("x", "conv1", 3, 64, 3, 1, True)
    cin = 64
    for stage, cout in enumerate([64, 128, 256, 512]):
        for block in range(2):
            stride = 2 if (stage > 0 and block == 0) else 1
            name = f"layer{stage + 1}_{block}"
            y = conv_bn(x, name + "_conv1", cin, cout, 3, stride, True)
            y = conv_bn(y, name + "_conv2", cout, cout, 3, 1, False)
            short = conv_bn(x, name + "_down", cin, cout, 1, stride, False) if (stride != 1 or cin != cout) else x
            nodes.append(helper.make_node("Add", [y, short], [name + "_add"], name=name + "_add"))
            nodes.append(helper.make_node("Relu", [name + "_add"], [name + "_out"], name=name + "_relu"))
            x, cin = name + "_out", cout
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"], name="avgpool"))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"))
    inits += [init("fc_w", (10, 512), 0.05), init("fc_b", (10,))]
    nodes.append(helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], name="fc", transB=1))
    save(nodes, inits, helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10]), "resnet18_cifar")
