"""Cumulative reductions: cumsum, cumprod, the array API's cumulative_sum/cumulative_prod
and ``ufunc.accumulate`` for the ufuncs with a cumulative primitive, in NumPy's dtypes."""

from __future__ import annotations

import builtins

import numpy as np

from transforms.core import get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._reductions import _op_dtype, flatten_v, store, strong_v
from xnp._util import cast_v, normalize_axis, raw, truth_v, user_cast_v

__all__ = ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod"]


def _cumulative(name, prim, v, axis, dtype, out):
    return store(_cumulative_v(prim, v, axis, dtype, out), out, name)


def _cumulative_v(prim, v, axis, dtype, out):
    aval = get_aval(v)
    if axis is None or aval.ndim == 0:      # a 0-d array counts as 1-d, as in NumPy
        axis = 0 if axis is None else normalize_axis(axis, 1)
        v = flatten_v(v)
    else:
        axis = normalize_axis(axis, aval.ndim)
    dt = _op_dtype(aval.dtype, dtype, out)
    return prim.bind(user_cast_v(v, dt), axis=axis)


def cumsum(a, axis: int | None = None, dtype=None, out=None) -> ndarray:
    """Cumulative sum along ``axis`` (of the flattened array if None)."""
    # (a's value is released before the store: out=a writes in place, a's views see it)
    return store(_cumulative_v(lax.cumsum_p, strong_v(a), axis, dtype, out), out, "cumsum")


def cumprod(a, axis: int | None = None, dtype=None, out=None) -> ndarray:
    """Cumulative product along ``axis`` (of the flattened array if None)."""
    return store(_cumulative_v(lax.cumprod_p, strong_v(a), axis, dtype, out), out,
                 "cumprod")


def accumulate_along(name: str, kind: str, a, axis, dtype, out) -> ndarray:
    """``ufunc.accumulate`` for the ufuncs with a cumulative primitive (``kind``: max,
    min, fmax, fmin (NaN ignored until a number appears), logaddexp, all, any). The
    dtype is the ufunc's (booleans for all/any), not a widened accumulator."""
    v = strong_v(a)
    aval = get_aval(v)
    if axis is None:
        v, axis = flatten_v(v), 0
    else:
        axis = normalize_axis(axis, aval.ndim)
    if kind in ("all", "any"):
        v = truth_v(v)
        v = cast_v(v, np.uint8)
        prim = lax.cummin_p if kind == "all" else lax.cummax_p
        return store(cast_v(prim.bind(v, axis=axis), np.bool_), out, name)
    dt = np.dtype(dtype) if dtype is not None else aval.dtype
    if kind == "logaddexp" and dt.kind not in "fc":
        dt = np.logaddexp.resolve_dtypes((dt, dt, None))[-1]
    v = user_cast_v(v, dt)
    if kind in ("max", "min"):
        prim = lax.cummax_p if kind == "max" else lax.cummin_p
        return store(prim.bind(v, axis=axis), out, name)
    if kind == "logaddexp":
        return store(lax.cumlogsumexp_p.bind(v, axis=axis), out, name)
    # fmax/fmin: NaN loses to any number; the result is NaN only while all so far were NaN.
    if dt.kind not in "fc":
        prim = lax.cummax_p if kind == "fmax" else lax.cummin_p
        return store(prim.bind(v, axis=axis), out, name)
    nan = lax.is_nan_p.bind(v)
    fill = -np.inf if kind == "fmax" else np.inf
    running = (lax.cummax_p if kind == "fmax" else lax.cummin_p).bind(
        lax.select_n_p.bind(nan, v, cast_v(fill, dt)), axis=axis)
    all_nan = cast_v(lax.cummin_p.bind(cast_v(nan, np.uint8), axis=axis), np.bool_)
    return store(lax.select_n_p.bind(all_nan, running, cast_v(np.nan, dt)), out, name)


def _cumulative_api(name, prim, identity, x, axis, dtype, out, include_initial):
    v = strong_v(x)
    aval = get_aval(v)
    if aval.ndim == 0:
        v = lax.reshape_p.bind(v, new_sizes=(1,))
    elif axis is None and aval.ndim > 1:
        raise ValueError("For arrays which have more than one dimension ``axis`` argument "
                         "is required.")
    axis = normalize_axis(0 if axis is None else axis, builtins.max(aval.ndim, 1))
    r = raw(_cumulative(name, prim, v, axis, dtype, None))
    if include_initial:
        shape = list(get_aval(r).shape)
        shape[axis] = 1
        first = lax.broadcast_in_dim_p.bind(cast_v(identity, get_aval(r).dtype),
                                            shape=tuple(shape), broadcast_dimensions=())
        r = lax.concatenate_p.bind(first, r, dimension=axis)
    return store(r, out, name)


def cumulative_sum(x, /, *, axis: int | None = None, dtype=None, out=None,
                   include_initial: builtins.bool = False) -> ndarray:
    """Array API cumulative sum; ``include_initial`` prepends the zero."""
    return _cumulative_api("cumulative_sum", lax.cumsum_p, 0, x, axis, dtype, out,
                           include_initial)


def cumulative_prod(x, /, *, axis: int | None = None, dtype=None, out=None,
                    include_initial: builtins.bool = False) -> ndarray:
    """Array API cumulative product; ``include_initial`` prepends the one."""
    return _cumulative_api("cumulative_prod", lax.cumprod_p, 1, x, axis, dtype, out,
                           include_initial)
