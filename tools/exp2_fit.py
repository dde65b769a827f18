#!/usr/bin/env python3
"""The polynomial behind the nets' sigmoid: 2^g on |g| <= 1/2, degree 5, least relative error.

`rust/bot/src/net/network.rs` evaluates 2^t as 2^round(t) times this polynomial of the
remainder g. The fit is iteratively reweighted least squares, which converges to the
equal-ripple (minimax) polynomial; the script prints its coefficients rounded to f32, the
largest relative error of 2^g, and the largest error of the whole sigmoid simulated in f32
operations in the order the Rust code takes them.

Usage (from the repository root; needs numpy):
    python3 tools/exp2_fit.py [--degree 5]
"""

import argparse

import numpy as np

LOG2_E = np.float32(1.4426950408889634)
ROUNDER = np.float32(12582912.0)  # 1.5 * 2^23


def fit(degree):
    g = np.linspace(-0.5, 0.5, 200_001)
    f = 2.0**g
    v = np.vander(g, degree + 1, increasing=True)
    w = np.ones_like(g)
    for _ in range(60):
        c, *_ = np.linalg.lstsq(v * (w / f)[:, None], w, rcond=None)
        err = np.abs((v @ c - f) / f)
        w = w * (err / err.max()) ** 0.3 + 1e-12
    return c.astype(np.float32), float(np.abs((v @ c - f) / f).max())


def sigmoid32(x, c):
    """The Rust sigmoid, operation for operation, in f32."""
    t = np.clip(x * -LOG2_E, np.float32(-115), np.float32(115)).astype(np.float32)
    r = (t + ROUNDER).astype(np.float32)
    g = (t - (r - ROUNDER)).astype(np.float32)
    p = c[-1]
    for k in range(len(c) - 2, -1, -1):
        p = ((p * g).astype(np.float32) + c[k]).astype(np.float32)
    n = r.view(np.int32) - np.array(ROUNDER, dtype=np.float32).view(np.int32)
    e = (p.view(np.int32) + (n << 23)).view(np.float32)
    return (np.float32(1) / (np.float32(1) + e)).astype(np.float32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--degree", type=int, default=5)
    args = parser.parse_args()
    c, rel = fit(args.degree)
    print("coefficients (f32):", ", ".join(repr(float(v)) for v in c))
    print(f"largest relative error of 2^g: {rel:.3g}")
    x = np.linspace(-40, 40, 2_000_001).astype(np.float32)
    want = 1 / (1 + np.exp(-x.astype(np.float64)))
    err = np.abs(sigmoid32(x, c) - want)
    print(f"sigmoid on -40..40: largest absolute error {err.max():.3g}")


if __name__ == "__main__":
    main()
