"""FP16 emulation of NVDLA's FP16 datapath on an architecture of
tools/support_models.py (same seeded weights and BatchNorm statistics as its
export): BatchNorm folded into the conv, weights and biases rounded to FP16,
products accumulated in FP32, every fused layer's output rounded to FP16 once
(a residual block's last conv adds the shortcut before that rounding, as the
SDP does). Prints max|err| / max|ref| of the logits against FP32 over N
standard-normal inputs (docs/targets/nvdla.md, "FP16 error of deep
random-weight networks").

Usage: python tools/fp16_emulate.py ARCH [N]     (needs torch, torchvision)
"""
import os, sys, copy, torch, torch.nn as nn
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support_models as sm
from torch.nn.utils.fusion import fuse_conv_bn_eval

name = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
make, shape, _ = sm.ARCHITECTURES[name]
torch.manual_seed(0)
net = make(); sm.recalibrate_batchnorm(net, shape); net.eval()

def fold(m):
    for k, c in list(m.named_children()):
        fold(c)
    names = list(m._modules)
    for i, k in enumerate(names[:-1]):
        a, b = m._modules[k], m._modules[names[i + 1]]
        if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
            m._modules[k] = fuse_conv_bn_eval(a, b); m._modules[names[i + 1]] = nn.Identity()
emu = copy.deepcopy(net)
# torchvision's ResNet Bottleneck keeps conv/bn as attributes in order conv1,bn1,conv2,bn2,conv3,bn3
for m in emu.modules():
    for i in (1, 2, 3):
        c, b = getattr(m, f"conv{i}", None), getattr(m, f"bn{i}", None)
        if isinstance(c, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
            setattr(m, f"conv{i}", fuse_conv_bn_eval(c, b)); setattr(m, f"bn{i}", nn.Identity())
fold(emu)
h = lambda t: t.half().float()
for p in emu.parameters():
    p.data = h(p.data)
def rnd(mod, inp, out):
    return h(out)
skip = set()
for m in emu.modules():  # a block's last conv adds the shortcut in its SDP before rounding
    if type(m).__name__ == "Bottleneck": skip.add(id(m.conv3))
    if type(m).__name__ == "BasicBlock": skip.add(id(m.conv2))
for m in emu.modules():
    if id(m) in skip: continue
    if isinstance(m, (nn.Conv2d, nn.Linear, nn.MaxPool2d, nn.AdaptiveAvgPool2d, nn.AvgPool2d)) or type(m).__name__ in ("Bottleneck", "BasicBlock", "ResBottleneckBlock"):
        m.register_forward_hook(rnd)
g = torch.Generator().manual_seed(1)
worst = 0
for i in range(n):
    x = h(torch.randn(*shape, generator=g))
    with torch.no_grad():
        r, e = net(x), emu(x)
    rel = ((r - e).abs().max() / r.abs().max()).item()
    worst = max(worst, rel)
    print(f"{name} input {i}: max|err| {(r-e).abs().max().item():.3e} = {rel:.3e} of max|ref| {r.abs().max().item():.3e}; top1 {'same' if r.argmax()==e.argmax() else 'DIFFERS'}")
print(f"{name}: worst {worst:.3e}")
