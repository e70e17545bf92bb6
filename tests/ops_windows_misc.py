"""Registry entries for mask_indices, apply_over_axes, histogram2d, histogramdd, polydiv
and the poly1d class (evaluation, arithmetic and calculus through its coefficients).
The window functions have their entries in ops_windows.py."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

import xnp

# --- mask_indices and apply_over_axes ----------------------------------------------------------
_MASKS = st.sampled_from([np.triu, np.tril])


def _mask_samples():
    return st.tuples(st.integers(-1, 5), _MASKS, st.integers(-3, 3)).map(
        lambda t: Sample((t[0], t[1], t[2])))


def _sum_keep(a, axis):
    return a.sum(axis=axis, keepdims=True)


def _mean_drop(a, axis):
    return a.mean(axis=axis)


def _bad_shape(a, axis):
    return a.sum()


def _apply_samples():
    funcs = st.sampled_from([np.sum, _sum_keep, _mean_drop, np.cumsum])
    return S.arrays(np.float64, S.shapes(1, 3, min_side=1), finite=True).flatmap(
        lambda a: st.tuples(funcs, st.lists(st.integers(-a.ndim, a.ndim - 1), max_size=3),
                            st.booleans()).map(
            lambda t: Sample((t[0], a, t[1][0] if t[2] and t[1] else t[1]))))


# --- histograms --------------------------------------------------------------------------------
def _hist_extra(dims, weights_dtype=np.float64):
    def build(n):
        bins = st.one_of(
            st.integers(1, 5), st.lists(st.integers(1, 4), min_size=dims, max_size=dims),
            st.lists(st.one_of(st.integers(1, 4), st.just([-2.0, -0.5, 0.0, 1.0, 2.5])),
                     min_size=dims, max_size=dims))
        extra = st.fixed_dictionaries({}, optional={
            "range": st.just([(-2.0, 2.0)] * dims), "density": st.booleans(),
            "weights": S.arrays(np.dtype(weights_dtype), (n,), finite=True, min_value=0,
                                max_value=2)})
        return st.tuples(bins, extra)
    return build


def _columns(n, dims, dtype=np.float64):
    if np.dtype(dtype).kind == "f":
        col = S.arrays(np.dtype(dtype), (n,), finite=True, min_value=-3, max_value=3)
    else:
        col = S.arrays(np.dtype(dtype), (n,), min_value=-3, max_value=3)
    return st.lists(col, min_size=dims, max_size=dims)


def _hist2d_samples(dtypes=(np.float64, np.float32, np.int64, np.bool_)):
    def build(t):
        n, dtype = t
        return st.tuples(_columns(n, 2, dtype), _hist_extra(2)(n))
    return st.tuples(st.integers(0, 8), st.sampled_from(dtypes)).flatmap(build).map(
        lambda t: Sample((t[0][0], t[0][1]), {"bins": t[1][0], **t[1][1]}))


def _hist2d_nan_samples():
    """NaN and values on the edges with an explicit range."""
    pick = st.sampled_from([np.nan, -2.0, 2.0, 0.0, 1.0, 5.0, -0.5])
    col = st.lists(pick, min_size=0, max_size=6).map(lambda v: np.array(v, np.float64))
    return st.tuples(col, st.integers(1, 4)).map(lambda t: Sample(
        (t[0], t[0][::-1].copy()), {"bins": t[1], "range": [(-2.0, 2.0), (-2.0, 2.0)]}))


def _histdd_samples():
    def build(t):
        n, dims = t
        return st.tuples(_columns(n, dims), _hist_extra(dims)(n))
    return st.tuples(st.integers(0, 8), st.integers(1, 3)).flatmap(build).map(
        lambda t: Sample((np.stack(t[0], axis=1).reshape(-1, len(t[0])),),
                         {"bins": t[1][0], **t[1][1]}))


def _hist_weight_samples():
    """Integer points, float weights: the counts' derivative in the weights."""
    def build(n):
        return st.tuples(_columns(n, 2, np.int64),
                         S.arrays(np.dtype(np.float64), (n,), finite=True, min_value=0,
                                  max_value=2), st.booleans())
    return st.integers(1, 8).flatmap(build).map(lambda t: Sample(
        (t[0][0], t[0][1]), {"bins": [3, [-3.0, 0.0, 1.0, 3.0]], "weights": t[1],
                             "density": t[2]}))


_X = np.arange(5.0)
_HIST_ERRORS = [
    Sample((_X, _X), {"bins": 0}),
    Sample((_X, _X), {"bins": 2.5}),
    Sample((_X, _X), {"bins": [[1.0, 0.0], 2]}),
    Sample((_X, _X), {"bins": [[], 2]}),
    Sample((_X, _X), {"range": [(1.0, 0.0), None]}),
    Sample((_X, _X), {"range": [(0.0, np.inf), None]}),
    Sample((_X, _X), {"range": [(0.0, 1.0)]}),
    Sample((_X, _X[:3]),),
    Sample((_X, _X), {"weights": np.ones(3)}),
    Sample((_X, _X), {"weights": np.ones(5) + 1j}),
    Sample((_X, _X), {"bins": "auto"}),
    Sample((np.array([np.nan, 1.0]), np.array([0.0, 1.0])),),
]
_HISTDD_ERRORS = [
    Sample((np.ones((4, 3)),), {"bins": [2, 2]}),
    Sample((np.ones((4, 3)),), {"bins": [2, 2, [[1.0]]]}),
    Sample((np.ones((4, 3)),), {"range": [(0, 1)] * 2}),
    Sample((np.ones((2, 4, 3)),),),
    Sample((_X,), {"bins": np.array([0.0, 1.0, 2.0])}),   # edges must come in a list
]


# --- polynomials -------------------------------------------------------------------------------
def _coeffs(dtypes=(np.float64, np.int64), min_value=-3, max_value=3, min_size=1):
    return st.sampled_from(dtypes).flatmap(lambda d: S.arrays(
        d, st.integers(min_size, 5).map(lambda n: (n,)), finite=True, min_value=min_value,
        max_value=max_value))


def _points():
    return S.arrays(np.float64, S.shapes(0, 2, max_side=4), finite=True, min_value=-2,
                    max_value=2)


def _combine(mod):
    """poly1d arithmetic and calculus, returned as coefficient arrays."""
    def f(a, b):
        p, q = mod.poly1d(a), mod.poly1d(b)
        return ((p * q - p + 2.0 * q).coeffs, (p ** 2).coeffs, p(q).coeffs,
                p.deriv().coeffs, p.integ(k=1.5).coeffs, (q / 4).coeffs, (-p).coeffs)
    return f


def _poly_call(mod):
    return lambda c, x: mod.poly1d(c)(x)


_POS = _coeffs(min_value=2, max_value=3)       # no cancellation: traced shapes match

ENTRIES = [
    OpInfo("mask_indices", _mask_samples(), differentiable=False),
    OpInfo("apply_over_axes", _apply_samples(), rtol=1e-12,
           errors=[Sample((_bad_shape, np.ones((2, 3, 4)), [0])),
                   Sample((np.sum, np.ones((2, 3)), [2]))]),
    OpInfo("histogram2d", _hist2d_samples(), rtol=1e-12, differentiable=False,
           errors=_HIST_ERRORS),
    OpInfo("histogram2d", _hist2d_nan_samples(), id="histogram2d-nan-edges",
           differentiable=False),
    OpInfo("histogram2d", _hist_weight_samples(), id="histogram2d-weights", rtol=1e-12),
    OpInfo("histogramdd", _histdd_samples(), rtol=1e-12, differentiable=False,
           errors=_HISTDD_ERRORS),
    # The remainder drops its leading near-zero coefficients: a value-dependent length.
    OpInfo("polydiv", st.tuples(_coeffs(min_size=2), _coeffs().filter(lambda v: v[0] != 0))
           .map(lambda t: Sample(t)),
           rtol=1e-9, atol=1e-12, traceable=False,
           errors=[Sample((np.array([]), np.array([1.0])))]),
    OpInfo("poly1d", st.tuples(_coeffs(), _points()).map(lambda t: Sample(t)),
           op=_poly_call(xnp), ref=_poly_call(np), id="poly1d-call", rtol=1e-12),
    OpInfo("poly1d", st.tuples(_POS, _POS).map(lambda t: Sample(t)), op=_combine(xnp),
           ref=_combine(np), id="poly1d-arithmetic", rtol=1e-12),
]
