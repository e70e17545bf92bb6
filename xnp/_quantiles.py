"""Order statistics: median, percentile and quantile with all thirteen of NumPy's methods
(and weights for ``inverted_cdf``), and their NaN-ignoring variants.

Everything comes from one ``sort`` along the reduced axes (moved last and merged; NaN
sorts last) followed by gathers at the positions NumPy's method formulas give. The NaN
variants count the non-NaN values of each slice and use that count in the same formulas,
so they stay traceable. Dtypes follow NumPy, including its "weak" treatment of a Python
scalar ``q`` (a float32 array gives a float32 quantile for ``q=0.5``).
"""

from __future__ import annotations

import builtins

import numpy as np

from transforms.core import CompositePrimitive, Tracer, get_aval
from xnp import lax
from xnp._array import _wrap, ndarray
from xnp._dtypes import is_inexact, result_type
from xnp._reductions import (
    FLOAT64,
    INT64,
    concrete_any,
    divide_v,
    flatten_v,
    mean_dtypes,
    store,
    strong_v,
    warn,
    weights_v,
)
from xnp._util import broadcast_to_v, cast_v, normalize_axis_tuple, raw, where_v

__all__ = ["median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile"]

B = lax  # short alias for binding below: B.add_p.bind(...)
_CONTINUOUS = {
    # method: (alpha, beta) of Hyndman & Fan's continuous family; None: special formula.
    # Integer alpha and beta keep an integer q integral, as in NumPy.
    "linear": None, "interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5),
    "weibull": (0, 0), "median_unbiased": (1 / 3.0, 1 / 3.0),
    "normal_unbiased": (3 / 8.0, 3 / 8.0), "midpoint": None,
    "averaged_inverted_cdf": None,
}
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
METHODS = tuple(_CONTINUOUS) + _DISCRETE


# --- layout: the reduced axes moved last and merged ------------------------------------------
def to_last_axis(v, axis):
    """(``v`` with the reduced axes merged into one last axis, the keepdims shape)."""
    aval = get_aval(v)
    if axis is None:
        return flatten_v(v), (1,) * aval.ndim
    axes = normalize_axis_tuple(axis, aval.ndim, repeated="repeated axis")
    kept = tuple(i for i in range(aval.ndim) if i not in axes)
    kept_shape = tuple(aval.shape[i] for i in kept)
    if len(axes) != 1 and aval.size == 0 and 0 in kept_shape:
        # NumPy merges the axes with reshape(kept + (-1,)), ambiguous for these shapes.
        raise ValueError(f"cannot reshape array of size 0 into shape {kept_shape + (-1,)}")
    if axes != tuple(range(len(kept), aval.ndim)):
        v = B.transpose_p.bind(v, permutation=kept + axes)
    n = int(np.prod([aval.shape[i] for i in axes], dtype=np.int64))
    v = B.reshape_p.bind(v, new_sizes=kept_shape + (n,))
    return v, tuple(1 if i in axes else s for i, s in enumerate(aval.shape))


def _sort_last(*operands):
    nd = get_aval(operands[0]).ndim
    return B.sort_p.bind(*operands, dimension=nd - 1, is_stable=True, num_keys=1)


def take_last_v(s, idx):
    """``s[..., idx]`` per batch position: ``s`` is B + (n,), ``idx`` (ints) is Q + B."""
    batch = get_aval(s).shape[:-1]
    out_shape = get_aval(idx).shape
    if get_aval(s).size == 0:    # nothing to take from (only reached for empty results)
        return B.broadcast_in_dim_p.bind(cast_v(0, get_aval(s).dtype), shape=out_shape,
                                         broadcast_dimensions=())
    lead = len(out_shape) - len(batch)
    cols = [B.iota_p.bind(dtype=INT64, shape=out_shape, dimension=lead + j)
            for j in range(len(batch))] + [cast_v(idx, INT64)]
    cols = [B.expand_dims_p.bind(c, dimensions=(len(out_shape),)) for c in cols]
    indices = cols[0] if len(cols) == 1 else B.concatenate_p.bind(
        *cols, dimension=len(out_shape))
    k = len(batch) + 1
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=tuple(range(k)),
                                    start_index_map=tuple(range(k)))
    return B.gather_p.bind(s, indices, dimension_numbers=dn, slice_sizes=(1,) * k,
                           mode="clip")


# --- NumPy's virtual indices, gammas and interpolation ------------------------------------------
def _remainder(x, y):
    from xnp._ufuncs import UFUNCS
    return UFUNCS["remainder"]._fn(x, y)


def _minus_one(n):
    return n - 1 if type(n) is int else B.sub_p.bind(n, 1)


def _boundary(index, condition):
    """Index of the discrete methods: previous or next integer, clipped at 0."""
    prev = B.floor_p.bind(index)
    gamma = B.sub_p.bind(index, prev)
    res = cast_v(where_v(condition(gamma, index), prev, B.add_p.bind(prev, 1)), INT64)
    return B.max_p.bind(res, 0)


def _virtual_index(method, n, q):
    """The (possibly fractional) position of quantile ``q`` in ``n`` sorted values."""
    if method == "linear":
        return B.mul_p.bind(_minus_one(n), q)
    if method in ("lower", "higher", "nearest", "midpoint"):
        pos = B.mul_p.bind(_minus_one(n), q)
        if method == "midpoint":
            return B.mul_p.bind(0.5, B.add_p.bind(B.floor_p.bind(pos), B.ceil_p.bind(pos)))
        prim = {"lower": B.floor_p, "higher": B.ceil_p, "nearest": B.round_p}[method]
        return cast_v(prim.bind(pos), INT64)
    if method == "inverted_cdf":
        return _boundary(B.sub_p.bind(B.mul_p.bind(n, q), 1),
                         lambda g, _: B.eq_p.bind(g, 0))
    if method == "closest_observation":
        def odd_at_zero(g, index):
            odd = B.eq_p.bind(_remainder(B.floor_p.bind(index), 2), 1)
            return B.and_p.bind(B.eq_p.bind(g, 0), odd)
        return _boundary(B.sub_p.bind(B.sub_p.bind(B.mul_p.bind(n, q), 1), 0.5),
                         odd_at_zero)
    if method == "averaged_inverted_cdf":
        return B.sub_p.bind(B.mul_p.bind(n, q), 1)
    alpha, beta = _CONTINUOUS[method]
    shift = B.add_p.bind(alpha, B.mul_p.bind(q, 1 - alpha - beta))
    return B.sub_p.bind(B.add_p.bind(B.mul_p.bind(n, q), shift), 1)


def _neighbours(vi, n, inexact):
    """Indices below and above each virtual index; -1 marks the last valid value."""
    prev = B.floor_p.bind(vi)
    nxt = B.add_p.bind(prev, 1)
    above = B.ge_p.bind(vi, _minus_one(n))
    below = B.lt_p.bind(vi, 0)
    fixes = [(above, -1), (below, 0)]
    if inexact:
        fixes.append((B.is_nan_p.bind(vi), -1))
    for cond, value in fixes:
        prev, nxt = where_v(cond, value, prev), where_v(cond, value, nxt)
    return cast_v(prev, INT64), cast_v(nxt, INT64)


def _gamma(method, vi, prev):
    vdt = get_aval(vi).dtype
    g = B.sub_p.bind(vi, prev)
    if method == "midpoint":
        g = where_v(B.eq_p.bind(_remainder(vi, 1), 0), 0.0, 0.5)
    elif method == "averaged_inverted_cdf":
        g = where_v(B.eq_p.bind(g, 0), 0.5, 1.0)
    return cast_v(g, vdt)


def _resolve_last(idx, n):
    """Index -1 (the last valid value) as a position in the sorted slice."""
    if type(n) is int:
        return where_v(B.lt_p.bind(idx, 0), n - 1, idx)
    return where_v(B.lt_p.bind(idx, 0), B.sub_p.bind(n, 1), idx)


def _lerp(a, b, t, dtype):
    """NumPy's two-sided linear interpolation, exact at both ends."""
    diff = B.sub_p.bind(b, a)
    low = B.add_p.bind(a, B.mul_p.bind(diff, cast_v(t, dtype)))
    one_minus = cast_v(B.sub_p.bind(1, t), dtype)
    high = B.sub_p.bind(b, B.mul_p.bind(diff, one_minus))
    return cast_v(where_v(B.ge_p.bind(t, 0.5), high, low), dtype)


def _interpolate(s, n, q, method, weak_q):
    """Quantiles ``q`` (shape Q) of each sorted slice of ``s`` (B + (m,)), of which the
    first ``n`` (an int, or int64 of shape B) are valid. Result shape Q + B."""
    aval = get_aval(s)
    batch = aval.shape[:-1]
    qshape = get_aval(q).shape
    full = qshape + batch
    q = B.reshape_p.bind(q, new_sizes=qshape + (1,) * len(batch))
    if type(n) is not int:
        n = cast_v(n, get_aval(q).dtype)
    vi = _virtual_index(method, n, q)
    vdt = get_aval(vi).dtype
    if method in _DISCRETE or (method == "linear" and vdt.kind in "iu"):
        idx = broadcast_to_v(_resolve_last(vi, n), full)
        return take_last_v(s, idx)
    prev, nxt = _neighbours(vi, n, is_inexact(aval.dtype))
    gamma = _gamma(method, vi, prev)
    lo = take_last_v(s, broadcast_to_v(_resolve_last(prev, n), full))
    hi = take_last_v(s, broadcast_to_v(_resolve_last(nxt, n), full))
    dtype = result_type(aval.dtype, 1.0) if weak_q else result_type(aval.dtype, vdt)
    return _lerp(lo, hi, gamma, dtype)


def _weighted(s, w, q, n_valid):
    """``inverted_cdf`` with weights: the first value whose weight CDF reaches ``q``."""
    batch = get_aval(s).shape[:-1]
    m = get_aval(s).shape[-1]
    cdf = B.cumsum_p.bind(cast_v(w, FLOAT64), axis=len(batch))
    total = B.slice_p.bind(cdf, start_indices=(0,) * len(batch) + (m - 1,),
                           limit_indices=batch + (m,))
    bad = B.is_nan_p.bind(B.div_p.bind(total, total))
    if type(n_valid) is not int:    # all-NaN slices have no weights left: NaN, no error
        bad = B.and_p.bind(bad, B.reshape_p.bind(B.gt_p.bind(n_valid, 0),
                                                 new_sizes=get_aval(bad).shape))
    if concrete_any(bad):
        raise ValueError("Weights included NaN, inf or were all zero.")
    cdf = B.div_p.bind(cdf, total)
    qdt = get_aval(q).dtype
    if qdt.kind == "f":
        cdf = cast_v(cdf, qdt)
    first = B.slice_p.bind(cdf, start_indices=(0,) * (len(batch) + 1),
                           limit_indices=batch + (1,))
    # Leading zero weights must not be chosen for q = 0: NumPy sets zero CDF values to -1.
    cdf = where_v(B.and_p.bind(B.eq_p.bind(first, 0), B.eq_p.bind(cdf, 0)), -1, cdf)
    qshape = get_aval(q).shape
    qb = B.reshape_p.bind(q, new_sizes=qshape + (1,) * len(batch) + (1,))
    below = cast_v(B.lt_p.bind(cdf, qb), INT64)
    idx = B.reduce_sum_p.bind(below, axes=(len(qshape) + len(batch),))
    return take_last_v(s, B.min_p.bind(idx, _minus_one(n_valid)))


# --- the shared driver ---------------------------------------------------------------------------
def _q_value(q, percent: builtins.bool, name: str):
    qv = raw(q)
    if type(qv) in (builtins.bool, int, float) or isinstance(qv, (list, tuple)):
        qv = np.asarray(qv)
    qv = strong_v(qv)
    if percent:
        qv = B.div_p.bind(qv, 100)
    if get_aval(qv).ndim > 2:
        raise ValueError(f"{name}: q must be a scalar or 1d")
    ok = B.and_p.bind(B.ge_p.bind(qv, 0), B.le_p.bind(qv, 1))
    if concrete_any(B.not_p.bind(ok)):
        what = "Percentiles must be in the range [0, 100]" if percent else \
            "Quantiles must be in the range [0, 1]"
        raise ValueError(what)
    return qv


def _weights_like(weights, v, axis, method):
    """The weights, validated and broadcastable against ``v``."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    aval = get_aval(v)
    axes = None if axis is None else normalize_axis_tuple(axis, aval.ndim)
    w = weights_v(strong_v(weights), aval.shape, axes)
    if concrete_any(B.lt_p.bind(w, 0)):
        raise ValueError("Weights must be non-negative.")
    return w


def _check_sample(name, dt, m, qv, method, weighted):
    """NumPy's errors for an empty axis and for interpolating booleans."""
    if m == 0 and (get_aval(qv).size or is_inexact(dt)):
        raise IndexError(f"{name}: cannot take a quantile over an empty axis (index -1 "
                         "is out of bounds for axis 0 with size 0)")
    if dt.kind == "b" and not weighted and method not in _DISCRETE and (
            method != "linear" or get_aval(qv).dtype.kind not in "iu"):
        raise TypeError(f"{name}: interpolating between booleans needs a subtraction, "
                        "which NumPy does not support for booleans")


def _valid_count(isnan):
    """Number of non-NaN values along the last axis."""
    keep = cast_v(B.not_p.bind(isnan), INT64)
    return B.reduce_sum_p.bind(keep, axes=(get_aval(isnan).ndim - 1,))


def _kept_0d(r, keepdims):
    """With ``keepdims`` NumPy's 0-d result is a 0-d array (of a 0-d input), no scalar."""
    return _wrap(np.asarray(r)) if keepdims and isinstance(r, np.generic) else r


def _quantile(name, a, q, axis, out, method, keepdims, weights, percent, skip_nan):
    if weights is None:
        qv = q if type(q) in (builtins.bool, int, float) else raw(q)
        r = quantile_p.bind(strong_v(a), qv, name=name, axis=axis, method=method,
                            keepdims=bool(keepdims))
        return _kept_0d(_store_broadcast(r, out, name), keepdims)
    # NumPy's weighted path returns a 0-d array, never a scalar, for a 0-d result
    return _kept_0d(_store_broadcast(_quantile_values(
        name, a, q, axis, method, keepdims, weights, percent, skip_nan), out, name), True)


def _store_broadcast(r, out, name):
    """``store``, with the result broadcast to ``out``'s shape as a ufunc's output would
    be (NumPy's quantiles and nanmedian write ``out`` so; median and reductions do not)."""
    if out is not None and not isinstance(out, tuple):
        shape, oshape = get_aval(r).shape, np.shape(out)
        if oshape != shape:
            try:
                both = np.broadcast_shapes(shape, oshape)
            except ValueError:
                both = shape
            if both != oshape:
                raise ValueError(f"non-broadcastable output operand with shape {oshape} "
                                 f"doesn't match the broadcast shape {both}")
            r = broadcast_to_v(r, oshape)
    return store(r, out, name)


def _quantile_numpy(v, q, *, name, axis, method, keepdims):
    fn = getattr(np, name)
    r = np.asarray(fn(v, q, axis=axis, method=method, keepdims=keepdims))
    v = np.asarray(v)
    if r.dtype == v.dtype and v.dtype.kind == "f" and v.dtype.itemsize < 8 and \
            np.isnan(v).any():
        # NumPy gives data holding NaN its own dtype where other data gets a wider one:
        # the dtype of NaN-free data, as the traced composition (whose dtype cannot
        # depend on the values) gives.
        stand_in = np.zeros((1,) * v.ndim, v.dtype)
        r = r.astype(np.asarray(fn(stand_in, q, axis=axis, method=method,
                                   keepdims=keepdims)).dtype)
    return r


_QUANTILE_KIND = {"quantile": (False, False), "percentile": (True, False),
                  "nanquantile": (False, True), "nanpercentile": (True, True)}


def _quantile_composite(v, q, *, name, axis, method, keepdims):
    percent, skip_nan = _QUANTILE_KIND[name]
    return _quantile_values(name, v, q, axis, method, keepdims, None, percent, skip_nan)


def _quantile_values(name, a, q, axis, method, keepdims, weights, percent, skip_nan):
    """The quantiles as a raw value, through primitives."""
    v = strong_v(a)
    dt = get_aval(v).dtype
    if dt.kind == "c":
        raise TypeError("a must be an array of real numbers")
    if method not in METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {METHODS}")
    # a Python number, or one passed to jit (a weakly typed tracer), does not widen
    weak_q = type(q) in (int, float) or (isinstance(raw(q), Tracer) and
                                         get_aval(raw(q)).weak_type)
    qv = _q_value(q, percent, name)
    if weights is not None:
        w = _weights_like(weights, v, axis, method)
    if skip_nan and get_aval(v).size == 0:
        from xnp._nanfunctions import nanmean
        return raw(nanmean(v, axis, keepdims=keepdims))
    x, kshape = to_last_axis(v, axis)
    m = get_aval(x).shape[-1]
    _check_sample(name, dt, m, qv, method, weights is not None)
    inexact = is_inexact(dt)
    isnan = B.is_nan_p.bind(x) if inexact else None
    n = _valid_count(isnan) if skip_nan and inexact else m
    if weights is None:
        s = _sort_last(x)[0]
        r = _interpolate(s, n, qv, method, weak_q)
    else:
        wx, _ = to_last_axis(broadcast_to_v(w, get_aval(v).shape), axis)
        if skip_nan and inexact:
            wx = where_v(isnan, cast_v(0, get_aval(wx).dtype), wx)
        s, ws = _sort_last(x, wx)
        r = _weighted(s, ws, qv, n)
    if m:
        r = _nan_fixup(r, s, n, skip_nan, inexact)
    if keepdims:
        r = B.reshape_p.bind(r, new_sizes=get_aval(qv).shape + kshape)
    return r


# Eagerly numpy's quantile functions; under transformations sorting and interpolation.
quantile_p = CompositePrimitive("quantile", impl=_quantile_numpy, expand=_quantile_composite)


def _nan_fixup(r, s, n, skip_nan, inexact):
    """NaN where a slice holds NaN (or, skipping NaN, holds nothing else)."""
    if not inexact:
        return r
    rdt = get_aval(r).dtype
    if skip_nan:
        bad = B.eq_p.bind(n, 0)
        if concrete_any(bad):
            # NumPy warns once per all-NaN slice.
            k = B.reduce_sum_p.bind(cast_v(bad, INT64), axes=tuple(range(get_aval(bad).ndim)))
            for _ in range(builtins.int(k)):
                warn("All-NaN slice encountered")
        fill = cast_v(np.nan, rdt)
    else:
        last = B.slice_p.bind(s, start_indices=(0,) * (get_aval(s).ndim - 1) + (
            get_aval(s).shape[-1] - 1,), limit_indices=get_aval(s).shape)
        last = B.reshape_p.bind(last, new_sizes=get_aval(s).shape[:-1])
        bad = B.is_nan_p.bind(last)
        fill = cast_v(last, rdt)
    shape = get_aval(r).shape
    bad = broadcast_to_v(bad, shape)
    fill = broadcast_to_v(fill, shape)
    return where_v(bad, fill, r)


def quantile(a, q, axis=None, out=None, overwrite_input: builtins.bool = False,
             method: str = "linear", keepdims: builtins.bool = False, *,
             weights=None) -> ndarray:
    """The ``q``-th quantiles (``0 <= q <= 1``, scalar or 1-d) over ``axis``.

    All of NumPy's methods are supported; ``weights`` only with ``inverted_cdf``. A NaN in
    a slice makes its quantiles NaN. ``overwrite_input`` is accepted and ignored (arrays are
    never modified in place). The range checks on ``q`` and ``weights`` need concrete
    values and are skipped under tracing. For data holding NaN NumPy returns a 0-d result
    in the input dtype (its dtype then depends on the values); xnp keeps the dtype it
    gives for other data.
    """
    return _quantile("quantile", a, q, axis, out, method, keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input: builtins.bool = False,
               method: str = "linear", keepdims: builtins.bool = False, *,
               weights=None) -> ndarray:
    """The ``q``-th percentiles (``0 <= q <= 100``); see :func:`quantile`."""
    return _quantile("percentile", a, q, axis, out, method, keepdims, weights, True,
                     False)


def nanquantile(a, q, axis=None, out=None, overwrite_input: builtins.bool = False,
                method: str = "linear", keepdims: builtins.bool = False, *,
                weights=None) -> ndarray:
    """:func:`quantile` ignoring NaN; an all-NaN slice gives NaN with a RuntimeWarning.

    Differs from NumPy in one corner: NumPy takes the result dtype from the first slice,
    so an all-NaN first slice makes it the input dtype; here the dtype never depends on
    the values.
    """
    return _quantile("nanquantile", a, q, axis, out, method, keepdims, weights, False,
                     True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input: builtins.bool = False,
                  method: str = "linear", keepdims: builtins.bool = False, *,
                  weights=None) -> ndarray:
    """:func:`percentile` ignoring NaN; see :func:`nanquantile`."""
    return _quantile("nanpercentile", a, q, axis, out, method, keepdims, weights, True,
                     True)


# --- medians -----------------------------------------------------------------------------------
def _middle(s, n, pair_always):
    """Mean of the middle value(s) of the first ``n`` sorted values of each slice."""
    dt = get_aval(s).dtype
    acc, res = mean_dtypes(dt)
    if type(n) is int:
        lo_i, hi_i = (n - 1) // 2, n // 2
        shape = get_aval(s).shape
        lo = _column(s, lo_i, shape)
        hi = _column(s, hi_i, shape)
        odd = n % 2 == 1
    else:
        lo = take_last_v(s, B.floor_divide_p.bind(B.sub_p.bind(n, 1), 2))
        hi = take_last_v(s, B.floor_divide_p.bind(n, 2))
        odd = B.eq_p.bind(_remainder(n, 2), 1)
    if pair_always and is_inexact(dt):
        # NumPy's masked median (nanmedian along an axis): (lo + hi) / 2 in the input dtype.
        return B.div_p.bind(B.add_p.bind(lo, hi), 2.0)
    # NumPy's mean sums from 0: a -0.0 middle (or pair of them) gives 0.0
    zero = cast_v(0, acc) if acc.kind != "O" else 0
    pair = cast_v(divide_v(B.add_p.bind(B.add_p.bind(cast_v(lo, acc), cast_v(hi, acc)), zero),
                           2, acc), res)
    single = cast_v(divide_v(B.add_p.bind(cast_v(lo, acc), zero), 1, acc), res)
    if type(odd) is builtins.bool:
        return single if odd else pair
    return where_v(odd, single, pair)


def _column(s, i, shape):
    col = B.slice_p.bind(s, start_indices=(0,) * (len(shape) - 1) + (i,),
                         limit_indices=shape[:-1] + (i + 1,))
    return B.reshape_p.bind(col, new_sizes=shape[:-1])


def _median(name, a, axis, out, keepdims, skip_nan):
    from xnp._reductions import mean
    v = strong_v(a)
    dt = get_aval(v).dtype
    if skip_nan and get_aval(v).size == 0:
        from xnp._nanfunctions import nanmean
        return nanmean(v, axis, out=out, keepdims=keepdims)
    x, kshape = to_last_axis(v, axis)
    m = get_aval(x).shape[-1]
    inexact = is_inexact(dt)
    if m == 0 or get_aval(v).size == 0:
        r = raw(mean(x, axis=-1))
    else:
        s = _sort_last(x)[0]
        n = m
        if skip_nan and inexact:
            n = _valid_count(B.is_nan_p.bind(x))
        pair_always = skip_nan and len(get_aval(x).shape) > 1 and m < 600
        r = _middle(s, n, pair_always)
        r = _nan_fixup(r, s, n, skip_nan, inexact)
    if keepdims:
        r = B.reshape_p.bind(r, new_sizes=kshape)
    return _kept_0d(_store_broadcast(r, out, name) if skip_nan else store(r, out, name),
                    keepdims)


def median(a, axis=None, out=None, overwrite_input: builtins.bool = False,
           keepdims: builtins.bool = False) -> ndarray:
    """Median over ``axis``: the mean of the middle value(s), so ints give float64.
    A NaN in a slice makes its median NaN; ``overwrite_input`` is ignored."""
    return _median("median", a, axis, out, keepdims, False)


def nanmedian(a, axis=None, out=None, overwrite_input: builtins.bool = False,
              keepdims: builtins.bool = False) -> ndarray:
    """Median ignoring NaN; an all-NaN slice gives NaN with a RuntimeWarning."""
    return _median("nanmedian", a, axis, out, keepdims, True)


