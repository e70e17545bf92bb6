"""Control flow: an RNN written with ``scan`` and a ``while_loop``, eagerly and under jit.

    python bench/control_flow.py

A tanh RNN (hidden size 64, 100 steps, float64): the forward pass and its gradient with
respect to the weights, eagerly and compiled, with a Newton iteration as a while_loop.
Prints xnp's times and, side by side in one run, JAX's (jax.lax.scan / while_loop) and a
hand-written NumPy loop's forward pass, where installed.
"""

from __future__ import annotations

import numpy
from _timing import interleaved

import xnp
from xnp import lax


def rnn_xnp(w, h, xs):
    h, ys = lax.scan(lambda h, x: (xnp.tanh(w @ h + x), xnp.sum(h)), h, xs)
    return xnp.sum(h) + xnp.sum(ys)


def newton_xnp(a):
    return lax.while_loop(lambda c: c[1] < 20,
                          lambda c: (0.5 * (c[0] + a / c[0]), c[1] + 1), (a, 0))[0]


def rnn_numpy(w, h, xs):
    total = 0.0
    for x in xs:
        total += h.sum()
        h = numpy.tanh(w @ h + x)
    return h.sum() + total


def main():
    rng = numpy.random.default_rng(0)
    w = rng.normal(size=(64, 64)) / 8
    h = rng.normal(size=64)
    xs = rng.normal(size=(100, 64))
    a = numpy.linspace(1.0, 2.0, 64)
    cases = {
        "rnn forward": (rnn_xnp, (w, h, xs)),
        "rnn grad": (xnp.grad(rnn_xnp), (w, h, xs)),
        "newton while_loop": (newton_xnp, (a,)),
    }
    fns = {}
    for name, (fn, args) in cases.items():
        jitted = xnp.jit(fn)
        numpy.testing.assert_allclose(numpy.asarray(jitted(*args)), numpy.asarray(fn(*args)),
                                      rtol=1e-10)
        fns[f"xnp eager {name}"] = lambda fn=fn, args=args: fn(*args)
        fns[f"xnp jit {name}"] = lambda f=jitted, args=args: f(*args)
    fns["numpy loop rnn forward"] = lambda: rnn_numpy(w, h, xs)
    try:
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)

        def rnn_jax(w, h, xs):
            h, ys = jax.lax.scan(lambda h, x: (jnp.tanh(w @ h + x), jnp.sum(h)), h, xs)
            return jnp.sum(h) + jnp.sum(ys)

        def newton_jax(a):
            return jax.lax.while_loop(lambda c: c[1] < 20,
                                      lambda c: (0.5 * (c[0] + a / c[0]), c[1] + 1),
                                      (a, 0))[0]
        jax_cases = {"rnn forward": (rnn_jax, (w, h, xs)),
                     "rnn grad": (jax.grad(rnn_jax), (w, h, xs)),
                     "newton while_loop": (newton_jax, (a,))}
        for name, (fn, args) in jax_cases.items():
            jitted = jax.jit(fn)
            jargs = [jnp.asarray(x) for x in args]
            jitted(*jargs).block_until_ready()
            fns[f"jax eager {name}"] = lambda fn=fn, args=jargs: \
                jax.block_until_ready(fn(*args))
            fns[f"jax jit {name}"] = lambda f=jitted, args=jargs: f(*args).block_until_ready()
    except ImportError:
        pass
    times = interleaved(fns, number=5, rounds=3)
    for name in cases:
        for mode in ("eager", "jit"):
            x, j = times[f"xnp {mode} {name}"], times.get(f"jax {mode} {name}")
            ratio = f"  {x / j:5.2f}x jax ({j * 1e3:8.3f} ms)" if j else ""
            print(f"{mode:5} {name:18} xnp {x * 1e3:8.3f} ms{ratio}")
    print(f"numpy loop rnn forward   {times['numpy loop rnn forward'] * 1e3:8.3f} ms")


if __name__ == "__main__":
    main()
