#!/usr/bin/env python3
"""Models for the scaling part of tools/bench-compile.sh (docs/perf.md):
a chain of N Relu nodes (1x16x8x8) and a graph with N outputs (N Relu nodes
reading one input, each a graph output). Usage: bench_scaling_models.py DIR"""
import os
import sys

from onnx import TensorProto, helper, save


def relu_chain(n: int):
    nodes = [helper.make_node("Relu", [f"t{i}"], [f"t{i + 1}"], name=f"relu{i}") for i in range(n)]
    x = helper.make_tensor_value_info("t0", TensorProto.FLOAT, [1, 16, 8, 8])
    y = helper.make_tensor_value_info(f"t{n}", TensorProto.FLOAT, [1, 16, 8, 8])
    return helper.make_model(helper.make_graph(nodes, f"chain{n}", [x], [y]),
                             opset_imports=[helper.make_opsetid("", 17)], ir_version=10)


def many_outputs(n: int):
    nodes = [helper.make_node("Relu", ["x"], [f"y{i}"], name=f"relu{i}") for i in range(n)]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])
    ys = [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, [1, 16, 8, 8]) for i in range(n)]
    return helper.make_model(helper.make_graph(nodes, f"outputs{n}", [x], ys),
                             opset_imports=[helper.make_opsetid("", 17)], ir_version=10)


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for n in (10_000, 100_000):
        save(relu_chain(n), os.path.join(out, f"relu_chain_{n}.onnx"))
    save(many_outputs(20_000), os.path.join(out, "outputs_20000.onnx"))


if __name__ == "__main__":
    main()
