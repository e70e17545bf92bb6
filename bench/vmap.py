"""Per-example gradients with eager vmap(grad(loss)) against a Python loop of grad calls.

    python bench/vmap.py

Logistic-regression loss, 100 features, batch 128, float64. Prints both times and the
speedup, measured side by side in one run (JAX's and MLX's eager vmap(grad) too, where
they are installed).
"""

from __future__ import annotations

import numpy
from _timing import best_time, interleaved

import xnp


def main():
    rng = numpy.random.default_rng(0)
    w = rng.normal(size=100)
    xs = rng.normal(size=(128, 100))
    ys = (rng.uniform(size=128) > 0.5).astype(numpy.float64)

    def loss(w, x, y):
        p = 1.0 / (1.0 + xnp.exp(-(x @ w)))
        return -(y * xnp.log(p) + (1.0 - y) * xnp.log(1.0 - p))

    wx, xx, yx = xnp.asarray(w), xnp.asarray(xs), xnp.asarray(ys)
    per_example = xnp.vmap(xnp.grad(loss), in_axes=(None, 0, 0))
    g = xnp.grad(loss)
    rows = [(xx[i], yx[i]) for i in range(128)]

    expected = numpy.stack([numpy.asarray(g(wx, x, y)) for x, y in rows])
    assert numpy.allclose(per_example(wx, xx, yx), expected)

    fns = {"xnp vmap(grad)": lambda: per_example(wx, xx, yx)}
    try:
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)

        def jloss(w, x, y):
            p = 1.0 / (1.0 + jnp.exp(-(x @ w)))
            return -(y * jnp.log(p) + (1.0 - y) * jnp.log(1.0 - p))
        jf = jax.vmap(jax.grad(jloss), in_axes=(None, 0, 0))
        jw, jx, jy = jnp.asarray(w), jnp.asarray(xs), jnp.asarray(ys)
        fns["jax eager vmap(grad)"] = lambda: jf(jw, jx, jy).block_until_ready()
    except ImportError:
        pass
    try:
        import mlx.core as mx

        def mloss(w, x, y):
            p = 1.0 / (1.0 + mx.exp(-(x @ w)))
            return -(y * mx.log(p) + (1.0 - y) * mx.log(1.0 - p))
        mf = mx.vmap(mx.grad(mloss), in_axes=(None, 0, 0))
        mw, mxs, mys = (mx.array(a, dtype=mx.float64) for a in (w, xs, ys))
        fns["mlx eager vmap(grad)"] = lambda: mx.eval(mf(mw, mxs, mys))
    except ImportError:
        pass
    times = interleaved(fns, 20)
    times["xnp loop of grad"] = best_time(lambda: [g(wx, x, y) for x, y in rows], 2)
    print("per-example gradients, logistic regression, 100 features, batch 128, float64:")
    for k, t in times.items():
        print(f"  {k:22s} {t * 1e3:9.3f} ms")
    print(f"  speedup of vmap over the loop: "
          f"{times['xnp loop of grad'] / times['xnp vmap(grad)']:.1f}x")
    if "mlx eager vmap(grad)" in times:
        print(f"  xnp vmap(grad) / MLX's: "
              f"{times['xnp vmap(grad)'] / times['mlx eager vmap(grad)']:.2f}")


if __name__ == "__main__":
    main()
