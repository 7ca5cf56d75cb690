#!/usr/bin/env python3
"""Trains the three small digit classifiers of the INT8 accuracy check.

In: scikit-learn's bundled `digits` dataset (1797 8x8 grey images of the
digits 0-9, shipped inside the scikit-learn package: nothing is
downloaded), a seed. Out, in the output folder (default: this script's):

* `plain.onnx`    Conv-ReLU ×3 with two MaxPools, Flatten, Gemm;
* `residual.onnx` a residual block (Conv-ReLU-Conv + skip, Add, ReLU),
                  MaxPool, Conv-ReLU, GlobalAveragePool, Gemm;
* `dwsep.onnx`    two depthwise-separable blocks (3x3 depthwise Conv with
                  group = channels, ReLU, 1x1 Conv, ReLU), MaxPool,
                  GlobalAveragePool, Gemm;
* `calib/input_<k>.npy` 100 calibration inputs, float32 [1, 1, 8, 8]
  (drawn from the training split, the usual practice);
* `test_x.npy` float32 [600, 1, 8, 8] and `test_y.npy` int64 [600]: the
  held-out test split, never seen in training or calibration;
* `accuracy.txt` each model's FP32 top-1 on the test split (numpy).

Every model takes `x` [1, 1, 8, 8] (pixel / 16, in [0, 1]) and gives
`logits` [1, 10]. Training is plain numpy (im2col convolutions, Adam,
softmax cross-entropy), seeded, single-threaded BLAS, so a rerun on the
same numpy gives the same files.

    pip install scikit-learn onnx numpy
    python3 train_classifiers.py [OUT_DIR]
"""

import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402

SEED = 20240618
N_TEST = 600
N_CALIB = 100
EPOCHS = 40
BATCH = 32


# ---------------------------------------------------------------- layers


def patches(x, k, pad):
    """[N, C, H, W] → [N, C, k*k, H, W] (stride 1, zero padding `pad`)."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = h + 2 * pad - k + 1, w + 2 * pad - k + 1
    out = np.empty((n, c, k * k, ho, wo), dtype=x.dtype)
    for i in range(k):
        for j in range(k):
            out[:, :, i * k + j] = xp[:, :, i : i + ho, j : j + wo]
    return out


def unpatches(dp, shape, k, pad):
    """The adjoint of `patches`: [N, C, k*k, Ho, Wo] → [N, C, H, W]."""
    n, c, h, w = shape
    ho, wo = dp.shape[3], dp.shape[4]
    dx = np.zeros((n, c, h + 2 * pad, w + 2 * pad), dtype=dp.dtype)
    for i in range(k):
        for j in range(k):
            dx[:, :, i : i + ho, j : j + wo] += dp[:, :, i * k + j]
    return dx[:, :, pad : pad + h, pad : pad + w]


class Conv:
    def __init__(self, rng, name, cin, cout, k, group=1):
        fan_in = cin // group * k * k
        self.name, self.k, self.group = name, k, group
        self.w = (rng.standard_normal((cout, cin // group, k, k)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        self.b = np.zeros(cout, dtype=np.float32)

    def params(self):
        return [self.w, self.b]

    def forward(self, x):
        n, c, h, w = x.shape
        g, k = self.group, self.k
        o = self.w.shape[0]
        p = patches(x, k, k // 2)  # [N, C, kk, H, W]
        p = p.reshape(n, g, c // g * k * k, h * w)
        wg = self.w.reshape(g, o // g, c // g * k * k)
        y = np.einsum("ngkp,gok->ngop", p, wg).reshape(n, o, h, w)
        self.cache = (x.shape, p, wg)
        return y + self.b[None, :, None, None]

    def backward(self, dy):
        shape, p, wg = self.cache
        n, c, h, w = shape
        g, k = self.group, self.k
        o = self.w.shape[0]
        dyg = dy.reshape(n, g, o // g, h * w)
        self.grads = [
            np.einsum("ngop,ngkp->gok", dyg, p).reshape(self.w.shape),
            dy.sum(axis=(0, 2, 3)),
        ]
        dp = np.einsum("ngop,gok->ngkp", dyg, wg).reshape(n, c, k * k, h, w)
        return unpatches(dp, shape, k, k // 2)

    def onnx(self, x, y, nodes, inits):
        inits += [numpy_helper.from_array(self.w, self.name + "_w"), numpy_helper.from_array(self.b, self.name + "_b")]
        p = self.k // 2
        nodes.append(
            helper.make_node(
                "Conv", [x, self.name + "_w", self.name + "_b"], [y], name=self.name,
                kernel_shape=[self.k, self.k], pads=[p, p, p, p], group=self.group,
            )
        )


class Relu:
    def forward(self, x):
        self.mask = x > 0
        return x * self.mask

    def backward(self, dy):
        return dy * self.mask


class MaxPool2:
    def forward(self, x):
        n, c, h, w = x.shape
        r = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, h // 2, w // 2, 4)
        self.arg = r.argmax(axis=-1)
        self.shape = x.shape
        return r.max(axis=-1)

    def backward(self, dy):
        n, c, h, w = self.shape
        d = np.zeros((n, c, h // 2, w // 2, 4), dtype=dy.dtype)
        np.put_along_axis(d, self.arg[..., None], dy[..., None], axis=-1)
        return d.reshape(n, c, h // 2, w // 2, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, h, w)


class Gap:
    def forward(self, x):
        self.shape = x.shape
        return x.mean(axis=(2, 3))

    def backward(self, dy):
        n, c, h, w = self.shape
        return np.broadcast_to(dy[:, :, None, None] / (h * w), self.shape).astype(dy.dtype)


class Flatten:
    def forward(self, x):
        self.shape = x.shape
        return x.reshape(x.shape[0], -1)

    def backward(self, dy):
        return dy.reshape(self.shape)


class Dense:
    def __init__(self, rng, name, cin, cout):
        self.name = name
        self.w = (rng.standard_normal((cout, cin)) * np.sqrt(1.0 / cin)).astype(np.float32)
        self.b = np.zeros(cout, dtype=np.float32)

    def params(self):
        return [self.w, self.b]

    def forward(self, x):
        self.x = x
        return x @ self.w.T + self.b

    def backward(self, dy):
        self.grads = [dy.T @ self.x, dy.sum(axis=0)]
        return dy @ self.w

    def onnx(self, x, y, nodes, inits):
        inits += [numpy_helper.from_array(self.w, self.name + "_w"), numpy_helper.from_array(self.b, self.name + "_b")]
        nodes.append(helper.make_node("Gemm", [x, self.name + "_w", self.name + "_b"], [y], name=self.name, transB=1))


# ---------------------------------------------------------------- models


class Model:
    """A list of steps; ("res", start) saves the current value, ("add", start)
    adds it back (the skip of a residual block)."""

    def __init__(self, name, steps):
        self.name, self.steps = name, steps

    def layers(self):
        return [s for s in self.steps if not isinstance(s, tuple)]

    def forward(self, x):
        saved = None
        for s in self.steps:
            if isinstance(s, tuple):
                saved = x if s[0] == "res" else saved
                x = x + saved if s[0] == "add" else x
            else:
                x = s.forward(x)
        return x

    def backward(self, d):
        skip = None
        for s in reversed(self.steps):
            if isinstance(s, tuple):
                if s[0] == "add":
                    skip = d
                else:
                    d = d + skip
            else:
                d = s.backward(d)

    def to_onnx(self):
        nodes, inits = [], []
        cur, saved, k = "x", None, 0

        def fresh(kind):
            nonlocal k
            k += 1
            return f"{kind}{k}"

        for s in self.steps:
            if isinstance(s, tuple):
                if s[0] == "res":
                    saved = cur
                else:
                    y = fresh("add")
                    nodes.append(helper.make_node("Add", [cur, saved], [y], name=y))
                    cur = y
                continue
            if isinstance(s, (Conv, Dense)):
                y = s.name
                s.onnx(cur, y, nodes, inits)
            else:
                kind = {Relu: "relu", MaxPool2: "pool", Gap: "gap", Flatten: "flatten"}[type(s)]
                y = fresh(kind)
                op = {Relu: "Relu", MaxPool2: "MaxPool", Gap: "GlobalAveragePool", Flatten: "Flatten"}[type(s)]
                attrs = {"kernel_shape": [2, 2], "strides": [2, 2]} if kind == "pool" else {}
                nodes.append(helper.make_node(op, [cur], [y], name=y, **attrs))
            cur = y
        nodes[-1].output[0] = "logits"
        graph = helper.make_graph(
            nodes, self.name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])],
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
            inits,
        )
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="train_classifiers.py")
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m


def plain(rng):
    return Model("plain", [
        Conv(rng, "conv1", 1, 16, 3), Relu(),
        Conv(rng, "conv2", 16, 16, 3), Relu(), MaxPool2(),
        Conv(rng, "conv3", 16, 32, 3), Relu(), MaxPool2(),
        Flatten(), Dense(rng, "fc", 128, 10),
    ])


def residual(rng):
    return Model("residual", [
        Conv(rng, "conv1", 1, 16, 3), Relu(),
        ("res", None), Conv(rng, "conv2", 16, 16, 3), Relu(), Conv(rng, "conv3", 16, 16, 3), ("add", None), Relu(),
        MaxPool2(),
        Conv(rng, "conv4", 16, 32, 3), Relu(),
        Gap(), Flatten(), Dense(rng, "fc", 32, 10),
    ])


def dwsep(rng):
    return Model("dwsep", [
        Conv(rng, "conv1", 1, 16, 3), Relu(),
        Conv(rng, "dw1", 16, 16, 3, group=16), Relu(), Conv(rng, "pw1", 16, 32, 1), Relu(),
        MaxPool2(),
        Conv(rng, "dw2", 32, 32, 3, group=32), Relu(), Conv(rng, "pw2", 32, 32, 1), Relu(),
        Gap(), Flatten(), Dense(rng, "fc", 32, 10),
    ])


# ---------------------------------------------------------------- training


def train(model, x, y, rng):
    params = [p for l in model.layers() if hasattr(l, "params") for p in l.params()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    for epoch in range(EPOCHS):
        lr = 3e-3 * (0.5 ** (epoch // 10))
        order = rng.permutation(len(x))
        for i in range(0, len(x), BATCH):
            idx = order[i : i + BATCH]
            logits = model.forward(x[idx])
            z = logits - logits.max(axis=1, keepdims=True)
            prob = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
            d = prob
            d[np.arange(len(idx)), y[idx]] -= 1
            model.backward((d / len(idx)).astype(np.float32))
            grads = [g for l in model.layers() if hasattr(l, "params") for g in l.grads]
            t += 1
            for p, g, mi, vi in zip(params, grads, m, v):
                mi *= 0.9
                mi += 0.1 * g
                vi *= 0.999
                vi += 0.001 * g * g
                mh = mi / (1 - 0.9**t)
                vh = vi / (1 - 0.999**t)
                p -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def accuracy(model, x, y):
    return float((model.forward(x).argmax(axis=1) == y).mean())


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    d = load_digits()
    x = (d.images.astype(np.float32) / 16.0)[:, None, :, :]
    y = d.target.astype(np.int64)
    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(x))
    test, train_idx = order[:N_TEST], order[N_TEST:]
    calib = train_idx[:N_CALIB]
    os.makedirs(os.path.join(out, "calib"), exist_ok=True)
    for k, i in enumerate(calib):
        np.save(os.path.join(out, "calib", f"input_{k}.npy"), x[i : i + 1])
    np.save(os.path.join(out, "test_x.npy"), x[test])
    np.save(os.path.join(out, "test_y.npy"), y[test])
    lines = []
    for make in (plain, residual, dwsep):
        model = make(rng)
        train(model, x[train_idx], y[train_idx], rng)
        acc = accuracy(model, x[test], y[test])
        onnx.save(model.to_onnx(), os.path.join(out, model.name + ".onnx"))
        lines.append(f"{model.name}: FP32 top-1 {acc * 100:.2f}% on {N_TEST} held-out digits (numpy)")
        print(lines[-1], flush=True)
    with open(os.path.join(out, "accuracy.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
