"""The architectures of docs/support.md, built with random weights and exported to ONNX.

Needs torch and torchvision (a scratch environment; see docs/support.md). In:
an output folder. Out: `<name>.onnx` per architecture and `calib/<name>/` with a
few seeded random `.npy` inputs, plus `export.json` naming what was exported,
how (exporter, opset, input shape) and what failed to export.

Only torchvision's constructors and two small designs written here (a CIFAR
ResNet-20 with option-A shortcuts, a YOLO-style detector) are used; no weights
are downloaded.
"""

import json
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

OPSET = 17
CALIB_INPUTS = 3


class OptionAShortcut(nn.Module):
    """He et al.'s CIFAR shortcut: stride-2 subsampling and channel zero padding."""

    def __init__(self, pad):
        super().__init__()
        self.pad = pad

    def forward(self, x):
        return F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, self.pad, self.pad))


class CifarBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.short = OptionAShortcut((cout - cin) // 2) if stride != 1 or cin != cout else nn.Identity()

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(self.b2(self.c2(y)) + self.short(x))


class CifarResNet20(nn.Module):
    """ResNet-20 for 32×32 inputs: 3 stages of 3 basic blocks, 16/32/64 channels."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        blocks, cin = [], 16
        for cout, stride in [(16, 1), (32, 2), (64, 2)]:
            for i in range(3):
                blocks.append(CifarBlock(cin, cout, stride if i == 0 else 1))
                cin = cout
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def conv_bn_silu(cin, cout, k=1, s=1, p=None):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2 if p is None else p, bias=False), nn.BatchNorm2d(cout), nn.SiLU())


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut=True):
        super().__init__()
        self.a = conv_bn_silu(c, c, 1)
        self.b = conv_bn_silu(c, c, 3)
        self.shortcut = shortcut

    def forward(self, x):
        y = self.b(self.a(x))
        return x + y if self.shortcut else y


class C3(nn.Module):
    """CSP block: two 1×1 branches, bottlenecks on one, Concat, 1×1 fuse."""

    def __init__(self, cin, cout, n=1, shortcut=True):
        super().__init__()
        h = cout // 2
        self.a = conv_bn_silu(cin, h)
        self.b = conv_bn_silu(cin, h)
        self.m = nn.Sequential(*[Bottleneck(h, shortcut) for _ in range(n)])
        self.out = conv_bn_silu(2 * h, cout)

    def forward(self, x):
        return self.out(torch.cat([self.m(self.a(x)), self.b(x)], 1))


class SPPF(nn.Module):
    """Three chained 5×5 stride-1 max pools, concatenated with their input."""

    def __init__(self, cin, cout):
        super().__init__()
        h = cin // 2
        self.a = conv_bn_silu(cin, h)
        self.out = conv_bn_silu(4 * h, cout)
        self.pool = nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        x = self.a(x)
        p1 = self.pool(x)
        p2 = self.pool(p1)
        return self.out(torch.cat([x, p1, p2, self.pool(p2)], 1))


class TinyYolo(nn.Module):
    """A YOLOv5-style detector (width 1/4): C3 backbone, SPPF, FPN with nearest upsample, 2 heads."""

    def __init__(self, classes=80, anchors=3):
        super().__init__()
        no = anchors * (classes + 5)
        self.stem = conv_bn_silu(3, 16, 6, 2, 2)
        self.s1 = nn.Sequential(conv_bn_silu(16, 32, 3, 2), C3(32, 32, 1))
        self.s2 = nn.Sequential(conv_bn_silu(32, 64, 3, 2), C3(64, 64, 2))
        self.s3 = nn.Sequential(conv_bn_silu(64, 128, 3, 2), C3(128, 128, 1))
        self.s4 = nn.Sequential(conv_bn_silu(128, 256, 3, 2), C3(256, 256, 1), SPPF(256, 256))
        self.lat = conv_bn_silu(256, 128)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = C3(256, 128, 1, shortcut=False)
        self.head_p4 = nn.Conv2d(128, no, 1)
        self.head_p5 = nn.Conv2d(128, no, 1)

    def forward(self, x):
        p4 = self.s3(self.s2(self.s1(self.stem(x))))
        p5 = self.lat(self.s4(p4))
        f4 = self.fuse(torch.cat([self.up(p5), p4], 1))
        return self.head_p4(f4), self.head_p5(p5)


class SegOut(nn.Module):
    """torchvision's segmenters return a dict; export its 'out' tensor."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x)["out"]


def tv(name, **kw):
    return lambda: getattr(torchvision.models, name)(weights=None, **kw)


def seg(name, **kw):
    return lambda: SegOut(getattr(torchvision.models.segmentation, name)(weights=None, weights_backbone=None, **kw))


# name -> (constructor, input shape, family: "plain" has no residual join or branch)
ARCHITECTURES = {
    "resnet18": (tv("resnet18"), (1, 3, 224, 224), "residual"),
    "resnet50": (tv("resnet50"), (1, 3, 224, 224), "residual"),
    "resnext50_32x4d": (tv("resnext50_32x4d"), (1, 3, 224, 224), "residual"),
    "wide_resnet50_2": (tv("wide_resnet50_2"), (1, 3, 224, 224), "residual"),
    "regnet_x_400mf": (tv("regnet_x_400mf"), (1, 3, 224, 224), "residual"),
    "mobilenet_v2": (tv("mobilenet_v2"), (1, 3, 224, 224), "residual"),
    "mobilenet_v3_large": (tv("mobilenet_v3_large"), (1, 3, 224, 224), "residual"),
    "mnasnet1_0": (tv("mnasnet1_0"), (1, 3, 224, 224), "residual"),
    "efficientnet_b0": (tv("efficientnet_b0"), (1, 3, 224, 224), "residual"),
    "shufflenet_v2_x1_0": (tv("shufflenet_v2_x1_0"), (1, 3, 224, 224), "branched"),
    "squeezenet1_0": (tv("squeezenet1_0"), (1, 3, 224, 224), "branched"),
    "googlenet": (tv("googlenet", aux_logits=False, init_weights=True), (1, 3, 224, 224), "branched"),
    "densenet121": (tv("densenet121"), (1, 3, 224, 224), "branched"),
    "vgg16": (tv("vgg16"), (1, 3, 224, 224), "plain"),
    "alexnet": (tv("alexnet"), (1, 3, 224, 224), "plain"),
    "cifar_resnet20": (CifarResNet20, (1, 3, 32, 32), "residual"),
    "yolo_tiny": (TinyYolo, (1, 3, 256, 256), "branched"),
    "fcn_resnet50": (seg("fcn_resnet50", aux_loss=False), (1, 3, 224, 224), "residual"),
    "lraspp_mobilenet_v3": (seg("lraspp_mobilenet_v3_large"), (1, 3, 224, 224), "residual"),
    "convnext_tiny": (tv("convnext_tiny"), (1, 3, 224, 224), "transformer-like"),
    "vit_b_16": (tv("vit_b_16"), (1, 3, 224, 224), "transformer"),
}


def recalibrate_batchnorm(net, shape, batch=2):
    """Sets every BatchNorm's running statistics from one training-mode pass over random inputs.

    With torchvision's initialisation (running mean 0, variance 1) the activations of
    random-weight depthwise/SE networks shrink layer after layer (MobileNetV2's logits
    are ~1e-9, below FP16's smallest normal), so an FP16 comparison would measure
    underflow; with statistics from data every BatchNorm output has unit variance.
    Returns how many BatchNorm layers were recalibrated.
    """
    bns = [m for m in net.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None  # cumulative average over the pass
    if bns:
        net.train()
        with torch.no_grad():
            net(torch.randn(batch, *shape[1:]))
    return len(bns)


def export_one(name, out_dir, seed):
    """Builds `name` with seeded random weights, BatchNorm statistics from random
    inputs, eval mode, and writes `<name>.onnx`; returns how."""
    make, shape, family = ARCHITECTURES[name]
    torch.manual_seed(seed)
    net = make()
    bn = recalibrate_batchnorm(net, shape)
    net.eval()
    x = torch.randn(*shape)
    path = os.path.join(out_dir, f"{name}.onnx")
    # The fused attention kernel has no ONNX export; the plain one exports as MatMul/Softmax.
    torch.backends.mha.set_fastpath_enabled(False)
    with torch.no_grad():
        try:
            torch.onnx.export(net, (x,), path, opset_version=OPSET, dynamo=False,
                              input_names=["input"], do_constant_folding=True)
            exporter = "torchscript"
        except Exception as e:  # the legacy exporter may be gone: say so in the record
            raise RuntimeError(f"legacy exporter failed: {str(e).splitlines()[0][:200]}") from e
    calib = os.path.join(out_dir, "calib", name)
    os.makedirs(calib, exist_ok=True)
    rng = np.random.default_rng(seed)
    for k in range(CALIB_INPUTS):
        np.save(os.path.join(calib, f"sample_{k}.npy"), rng.standard_normal(shape).astype(np.float32))
    return {"name": name, "shape": list(shape), "family": family, "exporter": exporter, "opset": OPSET,
            "batchnorms_recalibrated": bn}


def export_all(out_dir, names=None, seed=0):
    """Exports every architecture (or `names`) into `out_dir`; writes and returns export.json's record."""
    os.makedirs(out_dir, exist_ok=True)
    record = {"torch": torch.__version__, "torchvision": torchvision.__version__, "models": [], "failed": {}}
    for name in names or ARCHITECTURES:
        path = os.path.join(out_dir, f"{name}.onnx")
        try:
            entry = export_one(name, out_dir, seed)
            record["models"].append(entry)
            print(f"exported {name} ({os.path.getsize(path) >> 20} MiB)", file=sys.stderr)
        except Exception as e:
            record["failed"][name] = str(e).splitlines()[0][:300]
            print(f"export failed: {name}: {record['failed'][name]}", file=sys.stderr)
    with open(os.path.join(out_dir, "export.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    return record
