"""Independent oracles for tests: running one call with NumPy and with xnp and comparing
the outcomes (the helper of the regression tests found by NumPy's own test files,
tests/test_numpy_suite_*.py), and central differences of a scalar function."""

from __future__ import annotations

import numpy as np

import xnp


def run(fn, m):
    """``fn(m)``, or the exception it raised."""
    try:
        return fn(m)
    except Exception as e:   # noqa: BLE001 - the exception itself is compared
        return e


def same(fn, *, message=None):
    """``fn(numpy)`` and ``fn(xnp)`` agree: both raise the same exception type (whose
    message contains ``message`` when given), or give equal values of one shape and
    dtype (tuples and lists compared item by item)."""
    want, got = run(fn, np), run(fn, xnp)
    if isinstance(want, Exception):
        kind = next(t for t in type(want).__mro__ if not t.__module__.startswith("numpy._"))
        assert isinstance(got, kind), f"{got!r} instead of {want!r}"
        if message is not None:
            assert message in str(want) and message in str(got), (want, got)
        return
    assert not isinstance(got, Exception), f"xnp raised {got!r}, NumPy gave {want!r}"
    equal(want, got)


def equal(want, got):
    """Equal values of one shape and dtype (tuples and lists item by item)."""
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (want, got)
        for w, g in zip(want, got):
            equal(w, g)
        return
    if want is None or isinstance(want, (str, bool, int, float)):
        assert want == got or (want != want and got != got), (want, got)   # NaN == NaN
        return
    w, g = np.asarray(want), np.asarray(got)
    assert (w.shape, w.dtype) == (g.shape, g.dtype), (w.shape, w.dtype, g.shape, g.dtype)
    np.testing.assert_array_equal(g, w)


def central_differences(f, x, eps=1e-6) -> np.ndarray:
    """The gradient of the scalar function ``f`` at the NumPy array ``x`` by central
    differences (``f`` is called on float64 NumPy arrays)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        out[i] = (float(f(x + d)) - float(f(x - d))) / (2 * eps)
    return out
