"""Patterns from real gradient programs (optimisation loops with SciPy, hand-written VJPs,
ODE solvers fed xnp arrays) that once failed: each checked against NumPy or central
finite differences."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import xnp
from transforms.core import TracerArrayConversionError
from transforms.test_util import check_grads

rng = np.random.default_rng(7)


def _logsumexp_with_vjp(scale):
    """A custom_vjp logsumexp whose VJP is ``scale`` times the true one."""
    @xnp.custom_vjp
    def lse(x):
        m = xnp.max(x)
        return m + xnp.log(xnp.sum(xnp.exp(x - m)))

    def fwd(x):
        ans = lse(x)
        return ans, (x, ans)

    def bwd(res, g):
        x, ans = res
        return (scale * g * xnp.exp(x - ans),)

    lse.defvjp(fwd, bwd)
    return lse


@pytest.mark.parametrize("order", [1, 2])
def test_check_grads_reverse_only_on_custom_vjp(order):
    # A custom_vjp function has no forward mode: a reverse-only check compares its VJP
    # with finite differences (it raised "can't apply forward-mode autodiff" before).
    lse = _logsumexp_with_vjp(1.0)
    x = rng.normal(size=6)
    check_grads(lambda y: lse(y ** 2), (x,), order=order, modes=("rev",))


def test_check_grads_reverse_only_catches_a_wrong_vjp():
    lse = _logsumexp_with_vjp(1.5)
    with pytest.raises(AssertionError, match="VJP and JVP disagree"):
        check_grads(lse, (rng.normal(size=5),), order=1, modes=("rev",))


def test_numpy_array_updated_in_place_by_xnp_operand():
    # SciPy's Newton-CG does ``xsupi += alphai * psupi`` with psupi from an xnp hessp.
    a_np, b = rng.normal(size=4), rng.normal(size=4)
    a = a_np.copy()
    a += 2.0 * xnp.asarray(b)
    assert type(a) is np.ndarray
    np.testing.assert_array_equal(a, a_np + 2.0 * b)
    a *= xnp.asarray(b)
    np.testing.assert_array_equal(a, (a_np + 2.0 * b) * b)
    out = np.empty(4)
    r = np.add(xnp.asarray(a_np), xnp.asarray(b), out=out)
    assert r is out
    np.testing.assert_array_equal(out, a_np + b)
    # NumPy's casting rules for the out= array, with NumPy's error.
    i = np.zeros(4, dtype=np.int64)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        i += xnp.asarray(b)
    i += xnp.arange(4)
    np.testing.assert_array_equal(i, np.arange(4))


def test_numpy_out_array_with_traced_operand_is_a_conversion_error():
    def f(x):
        buf = np.zeros(3)
        np.add(buf, x, out=buf)
        return xnp.sum(x)
    with pytest.raises(TracerArrayConversionError):
        xnp.grad(f)(xnp.ones(3))


def test_copy_copy_owns_its_buffer():
    # SciPy's odeint integrates in place in ``copy(y0)``; with a shared buffer the
    # caller's y0 changed and a neural ODE trained from the wrong initial state.
    x = xnp.asarray(np.array([2.0, 0.0, -1.0]))
    y = copy.copy(x)
    assert type(y) is xnp.ndarray
    np.asarray(y)[0] = 9.0
    np.testing.assert_array_equal(x, [2.0, 0.0, -1.0])
    np.testing.assert_array_equal(y, [9.0, 0.0, -1.0])
    # and is differentiable as an identity
    np.testing.assert_array_equal(xnp.grad(lambda z: xnp.sum(copy.copy(z) * 3.0))(x),
                                  np.full(3, 3.0))


def test_scipy_odeint_leaves_xnp_initial_state_alone():
    integrate = pytest.importorskip("scipy.integrate")
    y0_np = np.array([2.0, 0.5])
    y0 = xnp.asarray(y0_np)
    t = np.linspace(0.0, 1.0, 5)
    got = integrate.odeint(lambda y, s: -y, y0, t)
    np.testing.assert_array_equal(y0, y0_np)
    np.testing.assert_allclose(got, integrate.odeint(lambda y, s: -y, y0_np, t), rtol=1e-12)


@pytest.mark.parametrize("method", ["BFGS", "L-BFGS-B", "CG", "Newton-CG", "TNC", "SLSQP",
                                    "trust-constr"])
def test_scipy_minimize_with_xnp_gradients(method):
    # SciPy's optimizers call NumPy on what the objective and jac return; L-BFGS-B and
    # SLSQP then hand np.atleast_1d(g) / np.append(g, 0.0) to Fortran, which takes only
    # numpy.ndarray: NumPy's functions on concrete xnp arrays must return NumPy's arrays.
    optimize = pytest.importorskip("scipy.optimize")

    def f(x):
        return xnp.sum((x - 1.0) ** 2) + x[0] * x[1]

    bounds = [(-5.0, 5.0)] * 3 if method in ("L-BFGS-B", "TNC", "SLSQP", "trust-constr") \
        else None
    result = optimize.minimize(f, np.zeros(3), jac=xnp.grad(f), method=method,
                               bounds=bounds)
    np.testing.assert_allclose(result.x, [2 / 3, 2 / 3, 1.0], atol=1e-4)


def test_numpy_functions_on_concrete_and_traced_xnp_arrays():
    x = xnp.asarray([1.0, 2.0, 3.0])
    grown = np.atleast_1d(x)
    assert type(grown) is np.ndarray and type(np.append(x, 0.0)) is np.ndarray
    # traced: xnp's functions, so the derivative flows through NumPy's names
    g = xnp.grad(lambda v: np.sum(np.append(v, 1.0) * np.atleast_1d(v).sum()))(x)
    np.testing.assert_allclose(g, np.full(3, 2 * 6.0 + 1.0))
    # functions that write into an argument stay xnp's (views and flags are kept)
    y = xnp.zeros(3)
    np.copyto(y, x)
    np.testing.assert_array_equal(y, [1.0, 2.0, 3.0])
