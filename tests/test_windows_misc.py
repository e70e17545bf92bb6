"""Targeted tests for poly1d, polydiv, histogramdd/histogram2d, mask_indices and
apply_over_axes: what the registry cannot express (the poly1d class, printing, mutation,
error types, behaviour under transformations). NumPy is the oracle throughout."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms import ConcretizationTypeError


def _same(actual, expected):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(actual, expected, rtol=1e-12, equal_nan=True)


# --- poly1d --------------------------------------------------------------------------------------
_PRINTED = [
    [1, 2, 3], [1.5, -2], [0, 0], [], [0, 0, 1, -1], [-1.0, 0, 0], [np.nan, 1],
    [np.inf, -np.inf, 2], [0.1234567, 1e-7, -3e5], [1 + 2j, 1 - 3j, 2j, 0, 0],
    [1e10, -2.5e-5, 0, 3.0] + list(range(1, 21)),       # wraps at 70 columns
    [1] + [0] * 30 + [-1j],
]


@pytest.mark.parametrize("coeffs", _PRINTED, ids=range(len(_PRINTED)))
@pytest.mark.parametrize("variable", [None, "z", "abc"])
def test_poly1d_str_and_repr_are_numpys(coeffs, variable):
    want = np.poly1d(coeffs, variable=variable)
    got = xnp.poly1d(coeffs, variable=variable)
    assert str(got) == str(want)
    assert repr(got) == repr(want)
    _same(got.coeffs, want.coeffs)


def test_poly1d_str_random_coefficients():
    rng = np.random.default_rng(0)
    for _ in range(60):
        n = int(rng.integers(1, 25))
        c = np.round(rng.normal(size=n) * 10.0 ** rng.integers(-6, 8, size=n),
                     int(rng.integers(0, 5)))
        c[rng.random(n) < 0.3] = 0
        if rng.random() < 0.3:
            c = c.astype(int)
        assert str(xnp.poly1d(c)) == str(np.poly1d(c)), c


def test_poly1d_attributes():
    p, q = xnp.poly1d([0, 1, 2, 3]), np.poly1d([0, 1, 2, 3])
    assert p.order == q.order == p.o == len(p) == 2
    assert p.variable == "x"
    assert p.c is p.coeffs and p.coef is p.coeffs and p.coefficients is p.coeffs
    _same(p.coeffs, q.coeffs)
    _same(np.sort_complex(p.roots), np.sort_complex(q.roots))
    _same(p.r, q.r)
    assert [int(c) for c in p] == [int(c) for c in q]
    _same(np.asarray(p), np.asarray(q))
    _same(np.asarray(p, np.float32), np.asarray(q, np.float32))
    with pytest.raises(AttributeError):
        p.coeffs = [1, 2]
    with pytest.raises(TypeError):
        hash(p)
    copy = xnp.poly1d(p, variable="t")
    assert copy.variable == "t" and copy.coeffs is p.coeffs
    _same(xnp.poly1d([1, 2, 3], r=True).coeffs, np.poly1d([1, 2, 3], r=True).coeffs)
    _same(xnp.poly1d([]).coeffs, np.poly1d([]).coeffs)


def test_poly1d_arithmetic_and_calculus():
    p, q = xnp.poly1d([1, 2, 3]), xnp.poly1d([1.5, -2])
    P, Q = np.poly1d([1, 2, 3]), np.poly1d([1.5, -2])
    cases = [
        lambda p, q: p * q, lambda p, q: p + q, lambda p, q: p - q, lambda p, q: 2 * p,
        lambda p, q: p * 2.5, lambda p, q: 3 - p, lambda p, q: p - 3, lambda p, q: p ** 3,
        lambda p, q: p ** 0, lambda p, q: -p, lambda p, q: +p, lambda p, q: p / 2,
        lambda p, q: 2 / q, lambda p, q: p(q), lambda p, q: q(p), lambda p, q: p.deriv(),
        lambda p, q: p.deriv(3), lambda p, q: p.integ(), lambda p, q: p.integ(2, k=[1, 2]),
        lambda p, q: p + [1, 2], lambda p, q: [1, 2] + p, lambda p, q: p * [1, 2],
        lambda p, q: [1, 2] - p, lambda p, q: p * q - p * q,
    ]
    for f in cases:
        got, want = f(p, q), f(P, Q)
        assert isinstance(got, xnp.poly1d)
        _same(got.coeffs, want.coeffs)
        assert str(got) == str(want)
    for f in [lambda p, q: p / q, lambda p, q: [1, 2, 3, 4] / q]:
        got, want = f(p, q), f(P, Q)
        assert all(isinstance(g, xnp.poly1d) for g in got)
        for g, w in zip(got, want):
            _same(g.coeffs, w.coeffs)
    for f in [lambda p: p(2), lambda p: p(np.array([1.0, 2.0])), lambda p: p[0],
              lambda p: p[2], lambda p: p[7], lambda p: p[-1]]:
        _same(f(p), f(P))


def test_poly1d_equality():
    assert xnp.poly1d([1, 2]) == xnp.poly1d([1.0, 2.0])
    assert xnp.poly1d([0, 1, 2]) == xnp.poly1d([1, 2])
    assert xnp.poly1d([1, 2]) != xnp.poly1d([1, 3])
    assert (xnp.poly1d([1, 2]) == xnp.poly1d([1, 2, 3])) is False
    assert xnp.poly1d([1, 2]).__eq__([1, 2]) is NotImplemented


def test_poly1d_setitem():
    p, q = xnp.poly1d([1, 2, 3]), np.poly1d([1, 2, 3])
    for key, val in [(0, 7), (4, 5), (1, 0)]:
        p[key], q[key] = val, val
        _same(p.coeffs, q.coeffs)
        assert p.order == q.order


@pytest.mark.parametrize("bad", [
    lambda m: m.poly1d([1, 2]) ** -1, lambda m: m.poly1d([1, 2]) ** 1.5,
    lambda m: m.poly1d([1, 2]) ** m.poly1d([1]), lambda m: m.poly1d([[1, 2]]),
    lambda m: m.poly1d([1, 2]).__setitem__(-1, 3), lambda m: m.poly1d([1, 2]).deriv(-1),
    lambda m: m.poly1d([1, 2]).integ(-1), lambda m: m.poly1d([1, 2]).integ(3, k=[1, 2]),
])
def test_poly1d_errors_are_numpys(bad):
    with pytest.raises(Exception) as expected:
        bad(np)
    with pytest.raises(type(expected.value)):
        bad(xnp)


def test_poly1d_under_transformations():
    c, x = xnp.asarray([2.0, 1.0, 3.0]), xnp.asarray([0.5, 1.5])
    _same(xnp.jit(lambda c, x: xnp.poly1d(c)(x))(c, x), np.poly1d([2.0, 1.0, 3.0])([0.5, 1.5]))
    _same(xnp.grad(lambda c: xnp.poly1d(c)(1.5))(c), [2.25, 1.5, 1.0])
    # Under grad the coefficients are concrete: leading zeros are stripped as eagerly.
    assert xnp.grad(lambda c: xnp.poly1d(c).order * c.sum())(xnp.asarray([0.0, 1.0])).tolist() \
        == [0.0, 0.0]
    # Under jit traced coefficients are kept as given (the value is unaffected).
    out = xnp.jit(lambda c: (xnp.poly1d(c) ** 2).coeffs)(xnp.asarray([0.0, 1.0, 2.0]))
    _same(out, [0.0, 0.0, 1.0, 4.0, 4.0])
    squares = xnp.vmap(lambda c: (xnp.poly1d(c) ** 2).coeffs)(xnp.asarray([[1.0, 2], [3, 4]]))
    _same(squares, [[1.0, 4, 4], [9, 24, 16]])


# --- polydiv -------------------------------------------------------------------------------------
@pytest.mark.parametrize("u, v", [
    ([1, 2, 3.0], [2, 1]), ([1, 2], [1, 2, 3]), (np.array([1, 2, 3], np.float32), [2, 1]),
    (np.array([1, 2, 3], np.float32), np.array([2, 1], np.float32)), ([1, 2, 1], [1, 1]),
    ([3], [2]), ([1j, 2, 3], [1, 1]), ([1, 2, 3], [0, 1]), ([1, 2, 3], [0]), (5.0, [2.0]),
    ([np.nan, 1, 2], [1, 1]),
])
def test_polydiv_matches_numpy(u, v):
    with np.errstate(all="ignore"):
        want = np.polydiv(u, v)
        got = xnp.polydiv(u, v)
    for g, w in zip(got, want):
        _same(g, w)


def test_polydiv_errors_and_tracing():
    for u, v in [([], [1.0]), ([1.0], [])]:
        with pytest.raises(IndexError):
            np.polydiv(u, v)
        with pytest.raises(IndexError):
            xnp.polydiv(u, v)
    u, v = xnp.asarray([1.0, 2.0, 3.0]), xnp.asarray([2.0, 1.0])
    with pytest.raises(ConcretizationTypeError, match="polydiv"):
        xnp.jit(xnp.polydiv)(u, v)
    _same(xnp.grad(lambda u: xnp.polydiv(u, v)[1].sum())(u), [0.25, -0.5, 1.0])


# --- histograms ----------------------------------------------------------------------------------
def test_histogramdd_sample_layouts():
    rng = np.random.default_rng(1)
    pts = rng.normal(size=(12, 3))
    for sample in [pts, pts[:, 0], list(pts.T), [list(r) for r in pts[:4]], pts[:0]]:
        want = np.histogramdd(sample, bins=3)
        got = xnp.histogramdd(sample, bins=3)
        _same(got[0], want[0])
        assert len(got[1]) == len(want[1])
        for g, w in zip(got[1], want[1]):
            _same(g, w)


def test_histogram2d_edge_dtypes_and_values():
    rng = np.random.default_rng(2)
    x, y = rng.uniform(-3, 3, 30), rng.uniform(-3, 3, 30)
    cases = [
        ((x.astype(np.float32), y.astype(np.float32)), {}),
        ((x.astype(np.float16), y.astype(np.float16)), {"bins": 4}),
        ((x.astype(np.float32), y.astype(np.float32)),
         {"range": [(np.float32(-1), np.float32(1)), (-2, 2)]}),
        ((x, y), {"bins": [3, np.array([-1.0, 0, 0, 2])]}),     # a repeated edge
        ((x * 0 + 1, y), {}),                                   # a constant coordinate
        ((np.round(x).astype(np.int8), y > 0), {"density": True}),
        ((x, y), {"bins": np.array([-3.0, -1.0, 2.0, 3.0])}),   # one edge array for both
    ]
    for args, kw in cases:
        want = np.histogram2d(*args, **kw)
        got = xnp.histogram2d(*(xnp.asarray(a) for a in args), **kw)
        for g, w in zip(got, want):
            _same(g, w)


def test_histograms_under_transformations():
    rng = np.random.default_rng(3)
    x, y, w = (xnp.asarray(rng.uniform(-3, 3, 20)) for _ in range(3))

    def f(x, y, w):
        return xnp.histogram2d(x, y, bins=[3, np.array([-1.0, 0.0, 2.0])], weights=w,
                               density=True)

    for got, want in zip(xnp.jit(f)(x, y, w), f(x, y, w)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12)
    stacked = xnp.asarray(rng.normal(size=(4, 10, 2)))
    hists = xnp.vmap(lambda s: xnp.histogramdd(s, bins=3)[0])(stacked)
    for h, s in zip(np.asarray(hists), np.asarray(stacked)):
        _same(h, np.histogramdd(s, bins=3)[0])
    # The counts are linear in the weights.
    g = xnp.grad(lambda w: xnp.histogram2d(x, y, bins=2, weights=w)[0][0, 0])(w)
    _same(g, _first_bin(x, y))


def _first_bin(x, y):
    """1.0 where the point falls in the first bin of a 2x2 histogram (NumPy's binning)."""
    _, ex, ey = np.histogram2d(np.asarray(x), np.asarray(y), bins=2)
    return ((np.asarray(x) < ex[1]) & (np.asarray(y) < ey[1])).astype(float)


# --- mask_indices and apply_over_axes ----------------------------------------------------------
def test_mask_indices_with_xnp_functions_and_under_jit():
    for n, k in [(0, 0), (1, 0), (4, 1), (4, -2), (3, 5)]:
        for xf, nf in [(xnp.triu, np.triu), (xnp.tril, np.tril)]:
            for g, w in zip(xnp.mask_indices(n, xf, k), np.mask_indices(n, nf, k)):
                _same(g, w)
    a = xnp.arange(16.0).reshape(4, 4)
    got = xnp.jit(lambda a: a[xnp.mask_indices(4, xnp.triu, 1)])(a)
    _same(got, np.arange(16.0).reshape(4, 4)[np.mask_indices(4, np.triu, 1)])
    with pytest.raises(ValueError):
        xnp.mask_indices(-1, xnp.triu)


def test_apply_over_axes_transforms():
    a = np.arange(24.0).reshape(2, 3, 4)
    want = np.apply_over_axes(np.sum, a, [0, 2])
    _same(xnp.apply_over_axes(xnp.sum, xnp.asarray(a), [0, 2]), want)
    _same(xnp.jit(lambda v: xnp.apply_over_axes(xnp.sum, v, (0, -1)))(xnp.asarray(a)),
          np.apply_over_axes(np.sum, a, (0, -1)))
    g = xnp.grad(lambda v: xnp.apply_over_axes(xnp.sum, v, [1]).sum())(xnp.asarray(a))
    _same(g, np.ones_like(a))
    with pytest.raises(ValueError, match="correct shape"):
        xnp.apply_over_axes(lambda v, ax: v.sum(), xnp.asarray(a), [0])
