"""Eager reverse mode: xnp.grad against autograd (and torch) on the same code, one run.

    python bench/grad.py

1. grad of f(W, b, x) = sum(tanh(W @ x + b) ** 2), W 32x32 float64: xnp over autograd
   (and MLX, where installed), and xnp's grad over xnp's own forward pass.
2. one training step (grad + SGD) of an MLP 784-512-512-10, batch 128, float32, softmax
   cross-entropy: xnp over the same step written by hand in NumPy.
"""

from __future__ import annotations

import numpy
from _timing import interleaved

import xnp


def small_grad():
    rng = numpy.random.default_rng(0)
    w, b, x = rng.normal(size=(32, 32)), rng.normal(size=32), rng.normal(size=32)

    def f_x(w, b, x):
        return xnp.sum(xnp.tanh(w @ x + b) ** 2)

    wx, bx, xx = xnp.asarray(w), xnp.asarray(b), xnp.asarray(x)
    g = xnp.grad(f_x)
    fns = {"xnp grad": lambda: g(wx, bx, xx), "xnp forward": lambda: f_x(wx, bx, xx),
           "numpy forward": lambda: numpy.sum(numpy.tanh(w @ x + b) ** 2)}
    try:
        import autograd
        import autograd.numpy as anp
        ag = autograd.grad(lambda w, b, x: anp.sum(anp.tanh(anp.dot(w, x) + b) ** 2))
        fns["autograd grad"] = lambda: ag(w, b, x)
    except ImportError:
        pass
    try:
        import mlx.core as mx
        mw, mb, mxx = (mx.array(a, dtype=mx.float64) for a in (w, b, x))
        mg = mx.grad(lambda w, b, x: mx.sum(mx.tanh(w @ x + b) ** 2))
        fns["mlx grad"] = lambda: mx.eval(mg(mw, mb, mxx))
    except ImportError:
        pass
    times = interleaved(fns, 200)
    print("grad of sum(tanh(W @ x + b) ** 2), W 32x32 float64:")
    for k, t in times.items():
        print(f"  {k:14s} {t * 1e6:8.1f} us")
    for other in ("autograd grad", "mlx grad"):
        if other in times:
            print(f"  xnp grad / {other:13s} = {times['xnp grad'] / times[other]:.2f}")
    print(f"  xnp grad / xnp forward   = {times['xnp grad'] / times['xnp forward']:.2f}")


def mlp_step():
    rng = numpy.random.default_rng(0)
    sizes = [784, 512, 512, 10]
    params = [(rng.normal(size=(m, n)).astype(numpy.float32) * numpy.float32(m ** -0.5),
               numpy.zeros(n, numpy.float32)) for m, n in zip(sizes[:-1], sizes[1:])]
    x = rng.normal(size=(128, 784)).astype(numpy.float32)
    labels = rng.integers(0, 10, 128)
    onehot = numpy.eye(10, dtype=numpy.float32)[labels]
    lr = numpy.float32(0.01)

    def loss(params, x, onehot):
        h = x
        for w, b in params[:-1]:
            h = xnp.maximum(h @ w + b, 0.0)
        w, b = params[-1]
        logits = h @ w + b
        logits = logits - xnp.max(logits, axis=1, keepdims=True)
        logp = logits - xnp.log(xnp.sum(xnp.exp(logits), axis=1, keepdims=True))
        return -xnp.mean(xnp.sum(logp * onehot, axis=1))

    grad = xnp.grad(loss)
    px = [(xnp.asarray(w), xnp.asarray(b)) for w, b in params]
    xx, ox = xnp.asarray(x), xnp.asarray(onehot)

    def xnp_step():
        g = grad(px, xx, ox)
        return [(w - lr * gw, b - lr * gb) for (w, b), (gw, gb) in zip(px, g)]

    def numpy_step():
        hs, h = [x], x
        for w, b in params[:-1]:
            h = numpy.maximum(h @ w + b, 0)
            hs.append(h)
        w, b = params[-1]
        logits = h @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = numpy.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        d = (p - onehot) / numpy.float32(len(x))
        new = []
        for i in reversed(range(len(params))):
            w, b = params[i]
            gw, gb = hs[i].T @ d, d.sum(axis=0)
            if i:
                d = (d @ w.T) * (hs[i] > 0)
            new.append((w - lr * gw, b - lr * gb))
        return new[::-1]

    times = interleaved({"xnp": xnp_step, "numpy": numpy_step}, 5, rounds=15)
    print("MLP 784-512-512-10 training step, batch 128, float32:")
    for k, t in times.items():
        print(f"  {k:6s} {t * 1e3:8.2f} ms")
    print(f"  xnp / hand-written numpy = {times['xnp'] / times['numpy']:.2f}")


if __name__ == "__main__":
    small_grad()
    mlp_step()
