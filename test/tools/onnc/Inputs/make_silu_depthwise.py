"""Makes silu_depthwise.onnx for ../diagnostics.test ("innocent op" blame,
issue 19 item 11).

x [1,3,8,8] → conv1 → gate (sp1 = Softplus, silu1 = Mul) → dw (depthwise
3×3 Conv, 16 groups) → relu → y: an EfficientNet-B0 block in small, its
gate a Softplus: nv_small has no SDP lookup table, so it cannot run the
Softplus (a Sigmoid it now runs as X-unit ramps, `nvdla/sigmoid-to-ramps`);
the depthwise Conv it runs (legalization splits it per channel). onnc used to
blame the Conv too ("depthwise Conv is not supported by nv_small"), as it
did for all 16 depthwise Convs, the Flatten and the Gemm of EfficientNet-B0.

Run: python3 make_silu_depthwise.py (writes next to this script).
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rng = np.random.default_rng(19)
    w1 = numpy_helper.from_array(
        (rng.standard_normal((16, 3, 3, 3)) * 0.1).astype(np.float32), "w1")
    wd = numpy_helper.from_array(
        (rng.standard_normal((16, 1, 3, 3)) * 0.1).astype(np.float32), "wd")
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Softplus", ["c1"], ["s1"], name="sp1"),
        helper.make_node("Mul", ["c1", "s1"], ["m1"], name="silu1"),
        helper.make_node("Conv", ["m1", "wd"], ["d"], name="dw",
                         pads=[1, 1, 1, 1], group=16),
        helper.make_node("Relu", ["d"], ["y"], name="relu"),
    ]
    graph = helper.make_graph(
        nodes, "silu_depthwise",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 8, 8])],
        [w1, wd])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(HERE, "silu_depthwise.onnx"))


if __name__ == "__main__":
    main()
