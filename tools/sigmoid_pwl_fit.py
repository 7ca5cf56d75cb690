#!/usr/bin/env python3
"""Minimax piecewise-linear sigmoid for nv_small (no SDP lookup table).

Fits the table in passes/legalize/src/rules/sigmoid_pwl.rs: an odd-symmetric
(about (0, 1/2)), continuous, piecewise-linear f with breakpoints
±b_1 < … < ±b_K, f(b_k) = v_k, f = 1 beyond b_K and 0 below −b_K, so
2K − 1 segments. Minimises max |f − σ| over the real line by Nelder–Mead
from several starts (numpy only; deterministic). Prints, per K, the
breakpoints, values and the max error, as Rust constants.

With --phi it fits the standard normal CDF Phi(x) = (1 + erf(x/sqrt 2))/2
instead, the same shape (odd-symmetric about (0, 1/2), 0 to 1): the table
`ERF_FIT` of the same file, for erf(z) = 2 Phi(sqrt 2 z) - 1 (GELU).

Usage: python3 tools/sigmoid_pwl_fit.py [--phi] [K ...]   (default: 1 2 3 4 5)
"""
import math
import sys

import numpy as np

PHI = "--phi" in sys.argv


def target(x):
    if PHI:
        return 0.5 * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))
    return 1.0 / (1.0 + np.exp(-x))


# A 0.01 grid for the search, a 0.001 grid for the reported error.
X = np.linspace(0.0, 12.0, 1201)
SIG = target(X)
XF = np.linspace(0.0, 16.0, 16001)
SIGF = target(XF)


def unpack(p, k):
    # b: positive increments (cumulative), v: increasing in (1/2, 1).
    b = np.cumsum(np.abs(p[:k]) + 1e-6)
    v = 0.5 + 0.5 * np.cumsum(np.abs(p[k:]))  # k-1 free values
    return b, np.append(v, 1.0)


def f(x, b, v):
    xs = np.concatenate([[0.0], b])
    ys = np.concatenate([[0.5], v])
    return np.interp(x, xs, ys, right=1.0)


def err(p, k):
    b, v = unpack(p, k)
    if np.any(v[:-1] >= 1.0) or np.any(np.diff(v) < 0):
        return 1.0
    return float(np.max(np.abs(f(X, b, v) - SIG)))


def nelder_mead(fun, x0, step=0.3, iters=6000):
    n = len(x0)
    pts = [np.array(x0, float)] + [np.array(x0, float) + step * np.eye(n)[i] for i in range(n)]
    vals = [fun(p) for p in pts]
    for _ in range(iters):
        order = np.argsort(vals)
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        c = np.mean(pts[:-1], axis=0)
        r = c + (c - pts[-1])
        fr = fun(r)
        if fr < vals[0]:
            e = c + 2 * (c - pts[-1])
            fe = fun(e)
            pts[-1], vals[-1] = (e, fe) if fe < fr else (r, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = r, fr
        else:
            ct = c + 0.5 * (pts[-1] - c)
            fc = fun(ct)
            if fc < vals[-1]:
                pts[-1], vals[-1] = ct, fc
            else:
                pts = [pts[0] + 0.5 * (q - pts[0]) for q in pts]
                vals = [fun(q) for q in pts]
    i = int(np.argmin(vals))
    return pts[i], vals[i]


def fit(k):
    rng = np.random.default_rng(k)
    best = None
    for _ in range(4):
        b0 = np.sort(rng.uniform(0.3, 6.0, k))
        inc = np.diff(np.concatenate([[0.0], b0]))
        v0 = target(b0[:-1])
        dv = np.diff(np.concatenate([[0.5], v0])) * 2.0
        p0 = np.concatenate([inc, dv])
        p, e = nelder_mead(lambda q: err(q, k), p0)
        for _ in range(3):
            p, e = nelder_mead(lambda q: err(q, k), p, step=0.02)
        if best is None or e < best[1]:
            best = (p, e)
    b, v = unpack(best[0], k)
    return b, v, float(np.max(np.abs(f(XF, b, v) - SIGF)))


def main():
    ks = [int(a) for a in sys.argv[1:] if a != "--phi"] or [1, 2, 3, 4, 5]
    name = "Phi" if PHI else "sigmoid"
    for k in ks:
        b, v, e = fit(k)
        print(f"// K = {k}: {2 * k - 1} segments, max |f - {name}| = {e:.5f}")
        print(f"BREAKS: {[round(float(t), 4) for t in b]}")
        print(f"VALUES: {[round(float(t), 5) for t in v]}")


if __name__ == "__main__":
    main()
