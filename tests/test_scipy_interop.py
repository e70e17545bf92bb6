"""SciPy called with xnp arrays (programs written with ``import xnp as np`` that call
SciPy): each call compared with the same call on NumPy arrays."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms.core import TracerArrayConversionError

X = np.array([0.3, 1.5, 2.0, 4.25])


def test_scipy_special_ufuncs_on_concrete_xnp_arrays():
    # SciPy's ufuncs have no __module__ (``__array_ufunc__`` raised AttributeError), and
    # must not be taken for xnp's ufunc of the same name.
    special = pytest.importorskip("scipy.special")
    x = xnp.asarray(X)
    for name in ("gammaln", "expit", "erf", "erfc", "ndtr", "psi", "gamma", "expm1",
                 "log1p", "cbrt", "exp2", "round", "j0"):
        uf = getattr(special, name)
        got, want = uf(x), uf(X)
        assert type(got) is xnp.ndarray and got.dtype == want.dtype, name
        np.testing.assert_array_equal(got, want, err_msg=name)
    got, want = special.xlogy(x, x[::-1]), special.xlogy(X, X[::-1])
    np.testing.assert_array_equal(got, want)
    # 0-d results are NumPy scalars, as with NumPy inputs
    s = special.gammaln(xnp.asarray(3.5))
    assert type(s) is np.float64 and s == special.gammaln(np.asarray(3.5))
    # out= a NumPy array or an xnp array is written; where= is honoured
    out = np.zeros(4)
    assert special.expit(x, out=out) is out
    np.testing.assert_array_equal(out, special.expit(X))
    xout = xnp.zeros(4)
    assert special.erf(x, out=xout, where=x > 1.0) is xout
    np.testing.assert_array_equal(xout, special.erf(X, out=np.zeros(4), where=X > 1.0))
    # Python functions of scipy.special built on those ufuncs
    np.testing.assert_allclose(special.logsumexp(x), special.logsumexp(X), rtol=1e-15)
    np.testing.assert_allclose(special.softmax(x), special.softmax(X), rtol=1e-15)


def test_scipy_special_ufuncs_under_transformations():
    special = pytest.importorskip("scipy.special")
    x = xnp.asarray(X)
    np.testing.assert_allclose(xnp.grad(lambda v: xnp.sum(special.gammaln(v)))(x),
                               special.psi(X), rtol=1e-12)
    e = special.expit(X)
    np.testing.assert_allclose(xnp.vmap(xnp.grad(special.expit))(x), e * (1 - e), rtol=1e-12)
    np.testing.assert_allclose(xnp.jacfwd(special.erf)(x).diagonal(),
                               2 / np.sqrt(np.pi) * np.exp(-X ** 2), rtol=1e-12)
    f = xnp.jit(lambda v: special.ndtr(v) + special.logit(v / 5) + special.erfinv(v / 5))
    np.testing.assert_allclose(f(x), special.ndtr(X) + special.logit(X / 5)
                               + special.erfinv(X / 5), rtol=1e-12)
    # one xnp has no rule for: the conversion error, which says what to write instead
    with pytest.raises(TracerArrayConversionError):
        xnp.grad(lambda v: xnp.sum(special.gamma(v)))(x)


def test_numpy_functions_on_xnp_and_numpy_arrays_together():
    # SciPy's solve_ivp returns np.vstack([y0, ...]).T: with the caller's xnp y0 among
    # NumPy's arrays this was an xnp array, where NumPy inputs give a NumPy array.
    a, b = xnp.asarray([1.0, 2.0]), np.array([3.0, 4.0])
    for fn in (np.vstack, np.concatenate, np.stack):
        got = fn([a, b])
        assert type(got) is np.ndarray
        np.testing.assert_array_equal(got, fn([np.asarray(a), b]))
    # traced: still xnp's, so the derivative flows through
    g = xnp.grad(lambda v: xnp.sum(np.concatenate([b, v]) ** 2))(a)
    np.testing.assert_array_equal(g, [2.0, 4.0])
    integrate = pytest.importorskip("scipy.integrate")
    got = integrate.solve_ivp(lambda t, y: -y, (0.0, 1.0), xnp.asarray([1.0, 2.0]))
    want = integrate.solve_ivp(lambda t, y: -y, (0.0, 1.0), np.array([1.0, 2.0]))
    assert type(got.y) is type(want.y) is np.ndarray
    np.testing.assert_allclose(got.y, want.y, rtol=1e-12)
