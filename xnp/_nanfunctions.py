"""NaN-ignoring reductions: nansum, nanprod, nanmean, nanvar, nanstd, nanmax, nanmin,
nanargmax, nanargmin, nancumsum and nancumprod (the order statistics are in
``xnp._quantiles``).

As in NumPy, NaN is first replaced by the operation's neutral value (0 for sums, 1 for
products, -inf/+inf for extrema) and the ordinary reduction runs on the result; integer
and boolean inputs, which cannot hold NaN, go straight to the ordinary reduction.
All-NaN slices give NaN with a RuntimeWarning (nanmax, nanmean, ...) or raise ValueError
(nanargmax); these checks need concrete values, see the function notes.
"""

from __future__ import annotations

import builtins

import numpy as np

from transforms.core import get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._dtypes import canonicalize_dtype, is_inexact
from xnp._reductions import (
    INT64,
    Axis,
    arg_v,
    concrete_any,
    cumprod,
    cumsum,
    divide_v,
    extremum_v,
    keep_v,
    mask_v,
    mean,
    prod,
    reduce_axes,
    store,
    store_index,
    strong_v,
    sum,
    var,
    warn,
)
from xnp._util import cast_v, check_std_dtype, normalize_axis_tuple, raw

__all__ = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
           "nanargmax", "nanargmin", "nancumsum", "nancumprod"]


def _replace_nan(a, value):
    """(the value of ``a`` with NaN replaced by ``value``, the NaN mask or None)."""
    v = strong_v(a)
    dt = get_aval(v).dtype
    if not is_inexact(dt):
        return v, None
    isnan = lax.is_nan_p.bind(v)
    return lax.select_n_p.bind(isnan, v, cast_v(value, dt)), isnan


def nansum(a, axis: Axis = None, dtype=None, out=None, keepdims: builtins.bool = False,
           initial=None, where=True) -> ndarray:
    """:func:`xnp.sum` treating NaN as zero."""
    v, _ = _replace_nan(a, 0)
    return sum(v, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis: Axis = None, dtype=None, out=None, keepdims: builtins.bool = False,
            initial=None, where=True) -> ndarray:
    """:func:`xnp.prod` treating NaN as one."""
    v, _ = _replace_nan(a, 1)
    return prod(v, axis, dtype, out, keepdims, initial, where)


def nancumsum(a, axis: int | None = None, dtype=None, out=None) -> ndarray:
    """:func:`xnp.cumsum` treating NaN as zero."""
    v, _ = _replace_nan(a, 0)
    return cumsum(v, axis, dtype, out)


def nancumprod(a, axis: int | None = None, dtype=None, out=None) -> ndarray:
    """:func:`xnp.cumprod` treating NaN as one."""
    v, _ = _replace_nan(a, 1)
    return cumprod(v, axis, dtype, out)


def _check_inexact(dtype, out):
    if dtype is not None and not is_inexact(canonicalize_dtype(dtype)):
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and not is_inexact(out.dtype):
        raise TypeError("If a is inexact, then out must be inexact")


def _valid_count(isnan, axes, where):
    valid = cast_v(lax.not_p.bind(isnan), INT64)
    return lax.reduce_sum_p.bind(mask_v(valid, where, 0, "nanmean"), axes=axes)


def _divide_by_count(total, count, dtype):
    """``total / count`` without NumPy's divide warnings: an empty slice has already been
    reported by its own warning, as NumPy's nan-functions do."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return divide_v(total, count, dtype)


def nanmean(a, axis: Axis = None, dtype=None, out=None, keepdims: builtins.bool = False,
            *, where=True) -> ndarray:
    """Mean of the non-NaN elements; a slice without any gives NaN with a RuntimeWarning
    (the warning needs concrete values and is not given under tracing)."""
    v, isnan = _replace_nan(a, 0)
    if isnan is None:
        return mean(v, axis, dtype, out, keepdims, where=where)
    _check_inexact(dtype, out)
    aval = get_aval(v)
    axes = reduce_axes(axis, aval.ndim)
    count = _valid_count(isnan, axes, where)
    total = raw(sum(v, axes, dtype, None, False, None, where))
    if concrete_any(lax.eq_p.bind(count, 0)):
        warn("Mean of empty slice")
    r = _divide_by_count(total, count, get_aval(total).dtype)
    return store(keep_v(r, aval.shape, axes, keepdims), out, "nanmean")


def _nanvar_v(a, axis, dtype, ddof, keepdims, where, mean, correction, out=None):
    v, isnan = _replace_nan(a, 0)
    if isnan is None:
        return raw(var(v, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                   correction=correction))
    _check_inexact(dtype, out)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    aval = get_aval(v)
    axes = reduce_axes(axis, aval.ndim)
    count = _valid_count(isnan, axes, where)
    if mean is None:
        total = raw(sum(v, axes, dtype, None, False, None, where))
        m = keep_v(_divide_by_count(total, count, get_aval(total).dtype), aval.shape, axes, True)
    else:
        m = raw(mean)
    x = cast_v(lax.sub_p.bind(v, m), aval.dtype)
    x = lax.select_n_p.bind(isnan, x, cast_v(0, aval.dtype))
    if aval.dtype.kind == "c":
        sq = lax.real_p.bind(lax.mul_p.bind(x, lax.conj_p.bind(x)))
    else:
        sq = lax.mul_p.bind(x, x)
    total = raw(sum(sq, axes, dtype, None, False, None, where))
    dof = lax.sub_p.bind(count, ddof)
    r = _divide_by_count(total, dof, get_aval(total).dtype)
    bad = lax.le_p.bind(dof, 0)
    if concrete_any(bad):
        warn("Degrees of freedom <= 0 for slice.")
    r = lax.select_n_p.bind(bad, r, cast_v(np.nan, get_aval(r).dtype))
    return keep_v(r, aval.shape, axes, keepdims)


def nanvar(a, axis: Axis = None, dtype=None, out=None, ddof=0,
           keepdims: builtins.bool = False, *, where=True, mean=None,
           correction=None) -> ndarray:
    """Variance of the non-NaN elements; slices with ``count - ddof <= 0`` give NaN."""
    r = _nanvar_v(a, axis, dtype, ddof, keepdims, where, mean, correction, out)
    return store(r, out, "nanvar")


def nanstd(a, axis: Axis = None, dtype=None, out=None, ddof=0,
           keepdims: builtins.bool = False, *, where=True, mean=None,
           correction=None) -> ndarray:
    """Standard deviation of the non-NaN elements: the square root of :func:`nanvar`."""
    r = _nanvar_v(a, axis, dtype, ddof, keepdims, where, mean, correction, out)
    check_std_dtype(get_aval(r), out)
    from xnp._ufunc_composites import sqrt_of_spread_v  # _ufuncs imports this module
    return store(cast_v(sqrt_of_spread_v(r), get_aval(r).dtype), out, "nanstd")


def _nan_extremum(name, ufunc_name, prim, combine, fill, a, axis, out, keepdims, initial,
                  where):
    v, isnan = _replace_nan(a, fill)
    r = extremum_v(name, ufunc_name, prim, combine, v, axis, keepdims, initial, where)
    if isnan is not None and initial is None:
        aval = get_aval(v)
        axes = reduce_axes(axis, aval.ndim)
        all_nan = keep_v(lax.reduce_and_p.bind(isnan, axes=axes), aval.shape, axes,
                         keepdims)
        if concrete_any(all_nan):
            warn("All-NaN slice encountered")
        if aval.dtype.kind == "c":
            # NumPy's fmax/fmin keep the first NaN of an all-NaN slice (nan+1j stays
            # nan+1j): the NaN-propagating extremum of the original values is that element
            nan = extremum_v(name, ufunc_name, prim, combine, strong_v(a), axis, keepdims,
                             None, where)
        else:
            nan = cast_v(np.nan, aval.dtype)
        r = lax.select_n_p.bind(all_nan, r, nan)
    return store(r, out, name)


def _extreme_fill(a, sign):
    dt = get_aval(strong_v(a)).dtype
    return complex(sign * np.inf, sign * np.inf) if dt.kind == "c" else sign * np.inf


def nanmax(a, axis: Axis = None, out=None, keepdims: builtins.bool = False, initial=None,
           where=True) -> ndarray:
    """Largest non-NaN element; an all-NaN slice gives NaN with a RuntimeWarning (the
    warning needs concrete values and is not given under tracing)."""
    return _nan_extremum("nanmax", "fmax", lax.reduce_max_p, lax.max_p,
                         _extreme_fill(a, -1), a, axis, out, keepdims, initial, where)


def nanmin(a, axis: Axis = None, out=None, keepdims: builtins.bool = False, initial=None,
           where=True) -> ndarray:
    """Smallest non-NaN element; see :func:`nanmax`."""
    return _nan_extremum("nanmin", "fmin", lax.reduce_min_p, lax.min_p,
                         _extreme_fill(a, 1), a, axis, out, keepdims, initial, where)


def _nan_arg(name, prim, sign, a, axis, out, keepdims):
    v, isnan = _replace_nan(a, _extreme_fill(a, sign))
    r = arg_v(prim, v, axis, keepdims)
    if isnan is not None:
        all_nan = lax.reduce_and_p.bind(isnan, axes=_arg_axes(v, axis))
        if concrete_any(all_nan):
            raise ValueError("All-NaN slice encountered")
        all_nan = _keep_like(all_nan, r)
        r = lax.select_n_p.bind(all_nan, r, cast_v(-1, INT64))
    return store_index(r, out, name)


def _arg_axes(v, axis):
    ndim = get_aval(v).ndim
    return tuple(range(ndim)) if axis is None or ndim == 0 else \
        normalize_axis_tuple(axis, ndim)


def _keep_like(mask, r):
    return lax.reshape_p.bind(mask, new_sizes=get_aval(r).shape)


def nanargmax(a, axis: int | None = None, out=None, *,
              keepdims: builtins.bool = False) -> ndarray:
    """Index of the largest non-NaN element. An all-NaN slice raises ValueError eagerly;
    under tracing, where that cannot be checked, its index is -1 (as in JAX)."""
    return _nan_arg("nanargmax", lax.argmax_p, -1, a, axis, out, keepdims)


def nanargmin(a, axis: int | None = None, out=None, *,
              keepdims: builtins.bool = False) -> ndarray:
    """Index of the smallest non-NaN element; see :func:`nanargmax`."""
    return _nan_arg("nanargmin", lax.argmin_p, 1, a, axis, out, keepdims)



