"""jit's calling conventions found by running JAX's api_test against xnp: callables
without ``__name__`` (functools.partial), static parameters given by position or by name
whichever of static_argnums/static_argnames named them, disable_jit(False). Oracle: the
same function run eagerly (NumPy values)."""

from __future__ import annotations

import functools

import numpy as np

import xnp
from transforms import core, disable_jit, jit, scan


def f(x, flag, scale=2.0):
    return x * scale if flag else xnp.zeros_like(x)


def test_jit_of_functools_partial():
    g = jit(functools.partial(scan, lambda c, x: (c + x, c * x)))
    carry, ys = g(0.0, xnp.arange(4.0))
    np.testing.assert_allclose(carry, 6.0)
    np.testing.assert_allclose(ys, [0.0, 0.0, 2.0, 9.0])   # y = c * x before the update
    assert "scan" in repr(g)


def test_static_parameters_by_position_or_by_name():
    x = np.array([1.0, -2.0])
    for g in (jit(f, static_argnames="flag"), jit(f, static_argnames=["flag"]),
              jit(f, static_argnums=1)):
        np.testing.assert_allclose(g(x, True), f(x, True))
        np.testing.assert_allclose(g(x, False), f(x, False))
        np.testing.assert_allclose(g(x, flag=True), f(x, True))
        np.testing.assert_allclose(g(x, flag=False, scale=3.0), f(x, False, 3.0))
        np.testing.assert_allclose(g(x=x, flag=True), f(x, True))


def test_disable_jit_false_reenables_jit():
    traced = []

    @jit
    def h(x):
        traced.append(isinstance(core.unwrap(x), core.Tracer))
        return x + 1

    with disable_jit():
        np.testing.assert_allclose(h(np.ones(2)), 2.0)
        assert traced == [False]                # ran eagerly on the concrete value
        with disable_jit(False):
            np.testing.assert_allclose(h(np.ones(2)), 2.0)
    assert traced == [False, True]              # then traced for compilation
