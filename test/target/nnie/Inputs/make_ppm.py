"""make_ppm.py DIR N: N deterministic 20x24 binary PPM (P6) images, img_<k>.ppm."""
import os, sys
import numpy as np
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(11)
for k in range(n):
    px = rng.integers(0, 256, (20, 24, 3), dtype=np.uint8)
    with open(os.path.join(d, f"img_{k}.ppm"), "wb") as f:
        f.write(b"P6\n24 20\n255\n" + px.tobytes())
