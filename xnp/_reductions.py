"""Reductions: sums, products, extrema and their positions, logical reductions, means
and variances, computed as NumPy computes them.

Each function converts its operand to the dtype NumPy accumulates in (the sum of int8 is
int64, the mean of ints is float64, a float16 mean accumulates in float32) and binds one
``reduce_*`` primitive, whose result keeps its operand's dtype. The cumulative sums and
products live in ``xnp._cumulative``, the NaN-ignoring variants in ``xnp._nanfunctions``
and the order statistics (median, percentile, quantile) in ``xnp._quantiles``; all are
re-exported here, so this module is the namespace of every reduction (``ufunc.reduce``
looks reductions up here).
"""

from __future__ import annotations

import builtins
import math
import operator
import warnings

import numpy as np

from transforms.core import Tracer, get_aval
from xnp import _util, lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import canonicalize_dtype, promote_types
from xnp._util import (
    broadcast_to_v,
    cast_v,
    normalize_axis,
    normalize_axis_tuple,
    raw,
    truth_v,
    user_cast_v,
)
from xnp._views import store_through, write_numpy_out
from xnp._writeable import check_writeable
from xnp.lax._base import native

__all__ = [
    "sum", "prod", "max", "min", "amax", "amin", "ptp", "argmax", "argmin", "any", "all",
    "count_nonzero", "mean", "average", "var", "std",
]

Axis = int | tuple | None
INT64 = np.dtype(np.int64)
FLOAT64 = np.dtype(np.float64)
_PY_SCALARS = (builtins.bool, int, float, complex)


# --- helpers shared by the reduction modules ------------------------------------------------
def strong_v(a):
    """The value of ``a`` with a strong (non-weak) dtype, as NumPy sees a reduction input."""
    v = raw(a)
    if type(v) in _PY_SCALARS:
        return np.asarray(v)
    if isinstance(v, Tracer) and v.aval.weak_type:
        return cast_v(v, v.aval.dtype)
    return v


def sum_dtype(dt: np.dtype) -> np.dtype:
    """The dtype NumPy's add/multiply reductions accumulate ``dt`` in by default."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return INT64
    if dt.kind == "u" and dt.itemsize < 8:
        return np.dtype(np.uint64)
    return dt


def mean_dtypes(dt: np.dtype, dtype=None) -> tuple:
    """(accumulation dtype, result dtype) of NumPy's mean."""
    if dtype is not None:
        dtype = canonicalize_dtype(dtype)
        return dtype, dtype
    if dt.kind in "biu":
        return FLOAT64, FLOAT64
    dt = native(dt)                # byte-swapped data averages to native values
    if dt == np.dtype(np.float16):
        return np.dtype(np.float32), dt
    return dt, dt


def keep_v(v, shape: tuple, axes: tuple, keepdims: builtins.bool):
    """Put the reduced axes back as size-1 dimensions when ``keepdims``."""
    if not keepdims:
        return v
    kept = tuple(1 if i in axes else s for i, s in enumerate(shape))
    return lax.reshape_p.bind(v, new_sizes=kept)


def reduced_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def store(v, out, name: str) -> ndarray:
    """Wrap the result, or write it into ``out`` (cast to its dtype) and return ``out``.

    ``out`` is written in place only when nothing else holds its base buffer, so callers
    drop their own reference to the input's value first (``del v``): otherwise
    ``a.sum(axis=0, out=a[2])`` would rebind ``a`` to a copy, and earlier views of ``a``
    would stop following it, where NumPy writes through."""
    if out is None:
        return wrap_scalar_result(v)
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if type(out) is np.ndarray and get_aval(v).shape == out.shape:
        return write_numpy_out(out, user_cast_v(v, out.dtype), name)
    if type(out) is not ndarray:
        raise TypeError(f"{name}: out must be an xnp array, got {type(out).__name__}")
    shape = get_aval(v).shape
    if out.shape != shape:
        raise ValueError(f"{name}: output array of shape {out.shape} does not match the "
                         f"result shape {shape}")
    check_writeable(out, "output array")
    store_through(out, user_cast_v(v, out.dtype))     # NumPy's cast warnings
    return out


def mask_v(v, where, fill, name: str):
    """``v`` where the boolean ``where`` holds (broadcast to v's shape), ``fill`` elsewhere."""
    if where is True:
        return v
    w = raw(where)
    aval = get_aval(v)
    if get_aval(w).dtype.kind != "b":
        raise TypeError(f"{name}: `where` must be a boolean array, got "
                        f"{get_aval(w).dtype.name}")
    w = broadcast_to_v(w, aval.shape)
    return lax.select_n_p.bind(w, cast_v(fill, aval.dtype), v)


def count_v(shape: tuple, axes: tuple, where, name: str):
    """Number of elements reduced: a Python int, or an int64 value when ``where`` masks."""
    if where is True:
        return math.prod([shape[i] for i in axes])
    w = broadcast_to_v(raw(where), shape)
    return lax.reduce_sum_p.bind(cast_v(w, INT64), axes=axes)


def divide_v(total, count, dtype: np.dtype):
    """``total / count`` cast back to ``dtype``, as NumPy's ``true_divide(..., out=total)``.
    A Python int count is weakly typed, as NumPy's: a float32 total is divided in float32."""
    q = lax.div_p.bind(total, count)
    return cast_v(q, dtype)


def scalar_in(value, dtype: np.dtype, name: str):
    """``initial``-style scalar converted to ``dtype`` as NumPy converts it."""
    v = raw(value)
    if type(v) in _PY_SCALARS or isinstance(v, np.generic):
        return np.asarray(dtype.type(v))
    if get_aval(v).shape != ():
        raise ValueError(f"{name}: `initial` must be a scalar, got shape "
                         f"{get_aval(v).shape}")
    return cast_v(v, dtype)


def warn(msg: str) -> None:
    warnings.warn(msg, RuntimeWarning, stacklevel=3)


def concrete_any(v) -> builtins.bool | None:
    """Whether any element of the boolean value ``v`` is true; None when ``v`` is traced."""
    if isinstance(v, Tracer):
        return None
    return builtins.bool(lax.reduce_or_p.bind(v, axes=tuple(range(np.ndim(v)))))


def flatten_v(v):
    return lax.reshape_p.bind(v, new_sizes=(get_aval(v).size,))


# --- sums and products ---------------------------------------------------------------------------
def _op_dtype(dt, dtype, out):
    """The dtype a sum/product computes in: ``dtype``; else, with ``out``, the promotion
    of the input and output dtypes; else NumPy's default accumulation dtype."""
    if dtype is not None:
        return canonicalize_dtype(dtype)
    if out is not None and hasattr(out, "dtype"):
        return promote_types(dt, out.dtype)
    return sum_dtype(dt)


def reduce_axes(axis, ndim: int) -> tuple:
    """The axes of a ufunc-style reduction (sum, prod, max, min, any, all, ...): as
    ``normalize_axis_tuple``, except that a 0-d array also takes a plain integer axis 0
    or -1 (NumPy's rule for 0-d reductions), which reduces nothing."""
    if ndim == 0 and axis is not None and not isinstance(axis, (tuple, list)):
        try:
            if operator.index(axis) in (0, -1):
                return ()
        except TypeError:
            pass
    return normalize_axis_tuple(axis, ndim)


def _accumulating(name, prim, combine, identity, a, axis, dtype, out, keepdims, initial,
                  where):
    v = strong_v(a)
    aval = get_aval(v)
    axes = reduce_axes(axis, aval.ndim)
    dt = _op_dtype(aval.dtype, dtype, out)
    v = user_cast_v(v, dt) if where is True else cast_v(v, dt)
    if dt.kind == "O" and (initial is not None or where is not True):
        # NumPy's object loop starts from ``initial`` and skips masked-out elements
        options = (("axis", axes), ("keepdims", keepdims), ("initial", initial),
                   ("where", raw(where)))
        return store(lax.object_ufunc_p.bind(v, ufunc=np.add if name == "sum" else
                                             np.multiply, method="reduce", options=options),
                     out, name)
    r = prim.bind(mask_v(v, where, identity, name), axes=axes)
    if initial is not None:
        init = scalar_in(initial, dt, name)
        r = combine.bind(r, init)
        if name == "sum" and _is_negative_zero(init):
            r = _negative_zero_sum(v, r, init, axes, where, name)
    del v       # store() writes into out in place only if no local holds its buffer
    return store(keep_v(r, aval.shape, axes, keepdims), out, name)


def _is_negative_zero(c) -> builtins.bool:
    return (type(c) is np.ndarray and c.dtype.kind in "fc" and c == 0
            and builtins.bool(np.signbit(c.real)))


def _negative_zero_sum(v, r, init, axes, where, name):
    """NumPy adds the elements to ``initial``, while the reduction starts from +0.0: with
    ``initial=-0.0`` a sum of negative zeros (or of nothing) is -0.0."""
    zero = np.zeros((), v.dtype)
    negzero = lax.and_p.bind(lax.eq_p.bind(v, zero), lax.signbit_p.bind(
        lax.real_p.bind(v) if v.dtype.kind == "c" else v))
    every = lax.reduce_and_p.bind(mask_v(negzero, where, True, name), axes=axes)
    return lax.select_n_p.bind(every, r, broadcast_to_v(init, get_aval(r).shape))


def sum(a, axis: Axis = None, dtype=None, out=None, keepdims: builtins.bool = False,
        initial=None, where=True) -> ndarray:
    """Sum of elements over ``axis``; bools and small ints accumulate in (u)int64."""
    if axis is None and dtype is None and out is None and initial is None and \
            where is True and not keepdims and isinstance(a, ndarray):
        v = a._value        # the common call: one primitive, no argument processing
        if v.dtype.kind in "fc":
            return wrap(lax.reduce_sum_p.bind(v, axes=tuple(range(v.ndim))))
    return _accumulating("sum", lax.reduce_sum_p, lax.add_p, 0, a, axis, dtype, out,
                         keepdims, initial, where)


def prod(a, axis: Axis = None, dtype=None, out=None, keepdims: builtins.bool = False,
         initial=None, where=True) -> ndarray:
    """Product of elements over ``axis``; bools and small ints accumulate in (u)int64."""
    return _accumulating("prod", lax.reduce_prod_p, lax.mul_p, 1, a, axis, dtype, out,
                         keepdims, initial, where)


# --- extrema ----------------------------------------------------------------------------------
def extremum_v(name, ufunc_name, prim, combine, v, axis, keepdims, initial, where):
    """max/min of the value ``v``; shared with nanmax/nanmin."""
    aval = get_aval(v)
    axes = reduce_axes(axis, aval.ndim)
    empty = builtins.any(aval.shape[i] == 0 for i in axes)
    if initial is None:
        if where is not True:
            raise ValueError(f"reduction operation '{ufunc_name}' does not have an "
                             "identity, so to use a where mask one has to specify 'initial'")
        if empty:
            raise ValueError(f"zero-size array to reduction operation {ufunc_name} which "
                             "has no identity")
        r = prim.bind(v, axes=axes)
    else:
        init = scalar_in(initial, aval.dtype, name)
        if empty:
            mask_v(v, where, init, name)        # where= must still broadcast to v
            r = lax.broadcast_in_dim_p.bind(init, shape=reduced_shape(aval.shape, axes),
                                            broadcast_dimensions=())
        else:
            r = combine.bind(prim.bind(mask_v(v, where, init, name), axes=axes), init)
    return keep_v(r, aval.shape, axes, keepdims)


def max(a, axis: Axis = None, out=None, keepdims: builtins.bool = False, initial=None,
        where=True) -> ndarray:
    """Largest element over ``axis`` (NaN propagates). An empty reduction raises ValueError
    unless ``initial`` is given; ``where`` requires ``initial``, as in NumPy."""
    r = extremum_v("max", "maximum", lax.reduce_max_p, lax.max_p, strong_v(a), axis,
                   keepdims, initial, where)
    return store(r, out, "max")


def min(a, axis: Axis = None, out=None, keepdims: builtins.bool = False, initial=None,
        where=True) -> ndarray:
    """Smallest element over ``axis`` (NaN propagates); see :func:`max`."""
    r = extremum_v("min", "minimum", lax.reduce_min_p, lax.min_p, strong_v(a), axis,
                   keepdims, initial, where)
    return store(r, out, "min")


amax = max
amin = min


def ptp(a, axis: Axis = None, out=None, keepdims: builtins.bool = False) -> ndarray:
    """Range (maximum minus minimum) over ``axis``, in the input dtype."""
    v = strong_v(a)
    hi = extremum_v("ptp", "maximum", lax.reduce_max_p, lax.max_p, v, axis, keepdims,
                    None, True)
    lo = extremum_v("ptp", "minimum", lax.reduce_min_p, lax.min_p, v, axis, keepdims,
                    None, True)
    del v       # store() writes into out in place only if no local holds its buffer
    return store(lax.sub_p.bind(hi, lo), out, "ptp")


def arg_v(prim, v, axis, keepdims):
    """argmax/argmin of the value ``v`` (int64 indices; the first NaN counts as extreme)."""
    aval = get_aval(v)
    if axis is None or aval.ndim == 0:
        if axis is not None:
            normalize_axis(axis, 1)
        r = prim.bind(flatten_v(v), axis=0, index_dtype=INT64)
        if keepdims:
            r = lax.reshape_p.bind(r, new_sizes=(1,) * aval.ndim)
        return r
    ax = normalize_axis(axis, aval.ndim)
    r = prim.bind(v, axis=ax, index_dtype=INT64)
    return keep_v(r, aval.shape, (ax,), keepdims)


def store_index(v, out, name: str) -> ndarray:
    """``store`` for index results: ``out`` must hold int64 safely, as in NumPy."""
    if out is not None and not np.can_cast(out.dtype, INT64, "safe"):
        raise TypeError(f"{name}: cannot cast array data from {out.dtype!r} to "
                        "dtype('int64') according to the rule 'safe'")
    return store(v, out, name)


def argmax(a, axis: int | None = None, out=None, *, keepdims: builtins.bool = False):
    """Index of the first largest element along ``axis`` (of the flattened array if None);
    the first NaN wins, as in NumPy."""
    return store_index(arg_v(lax.argmax_p, strong_v(a), axis, keepdims), out, "argmax")


def argmin(a, axis: int | None = None, out=None, *, keepdims: builtins.bool = False):
    """Index of the first smallest element along ``axis``; the first NaN wins."""
    return store_index(arg_v(lax.argmin_p, strong_v(a), axis, keepdims), out, "argmin")


# --- logical reductions -------------------------------------------------------------------------
def _truth_v(v):
    return truth_v(v)


def _logical(name, prim, identity, a, axis, out, keepdims, where):
    v = strong_v(a)
    aval = get_aval(v)
    axes = reduce_axes(axis, aval.ndim)
    r = prim.bind(mask_v(_truth_v(v), where, identity, name), axes=axes)
    return store(keep_v(r, aval.shape, axes, keepdims), out, name)


def any(a, axis: Axis = None, out=None, keepdims: builtins.bool = False, *,
        where=True) -> ndarray:
    """Whether any element over ``axis`` is non-zero (NaN counts as true)."""
    return _logical("any", lax.reduce_or_p, False, a, axis, out, keepdims, where)


def all(a, axis: Axis = None, out=None, keepdims: builtins.bool = False, *,
        where=True) -> ndarray:
    """Whether all elements over ``axis`` are non-zero (NaN counts as true)."""
    return _logical("all", lax.reduce_and_p, True, a, axis, out, keepdims, where)


def count_nonzero(a, axis: Axis = None, *, keepdims: builtins.bool = False) -> ndarray:
    """Number of non-zero elements over ``axis`` (int64)."""
    v = strong_v(a)
    aval = get_aval(v)
    axes = reduce_axes(axis, aval.ndim)
    r = lax.reduce_sum_p.bind(cast_v(_truth_v(v), INT64), axes=axes)
    return wrap(keep_v(r, aval.shape, axes, keepdims))


# --- means and variances --------------------------------------------------------------------------
def _mean_axes(axis, ndim, where):
    """mean/var/std's axes: a 0-d array takes axis 0 or -1 only with ``where=``, as NumPy."""
    return normalize_axis_tuple(axis, ndim) if where is True else reduce_axes(axis, ndim)


def mean(a, axis: Axis = None, dtype=None, out=None, keepdims: builtins.bool = False, *,
         where=True) -> ndarray:
    """Arithmetic mean over ``axis``: ints give float64, float16 accumulates in float32.
    An empty slice gives NaN with a RuntimeWarning, as in NumPy."""
    v = strong_v(a)
    aval = get_aval(v)
    axes = _mean_axes(axis, aval.ndim, where)
    acc, res = mean_dtypes(aval.dtype, dtype)
    if out is not None and dtype is None and acc == aval.dtype:
        acc = _op_dtype(acc, None, out)    # unless NumPy chose the dtype itself
    count = count_v(aval.shape, axes, where, "mean")
    if type(count) is int and count == 0:
        warn("Mean of empty slice")
    v = user_cast_v(v, acc) if where is True else cast_v(v, acc)    # NumPy's cast warnings
    total = lax.reduce_sum_p.bind(mask_v(v, where, 0, "mean"), axes=axes)
    if out is not None:   # NumPy stores the sum into out, then divides it in place
        total = user_cast_v(total, out.dtype)
        acc = res = np.dtype(out.dtype)
    r = cast_v(divide_v(total, count, acc), res)
    del v       # store() writes into out in place only if no local holds its buffer
    return store(keep_v(r, aval.shape, axes, keepdims), out, "mean")


def _ddof(ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var_v(v, axis, dtype, ddof, keepdims, where, mean):
    """NumPy's variance of the value ``v`` (two passes: mean, then squared deviations)."""
    aval = get_aval(v)
    axes = _mean_axes(axis, aval.ndim, where)
    count = count_v(aval.shape, axes, where, "var")
    if type(count) is int and ddof >= count:
        warn("Degrees of freedom <= 0 for slice")
    acc = canonicalize_dtype(dtype) if dtype is not None else (
        FLOAT64 if aval.dtype.kind in "biu" else aval.dtype)
    if mean is None:
        total = lax.reduce_sum_p.bind(mask_v(cast_v(v, acc), where, 0, "var"), axes=axes)
        m = keep_v(divide_v(total, count, acc), aval.shape, axes, True)
    else:
        m = raw(mean)
    x = lax.sub_p.bind(v, m)
    if get_aval(x).dtype.kind == "c":
        re, im = lax.real_p.bind(x), lax.imag_p.bind(x)
        sq = lax.add_p.bind(lax.mul_p.bind(re, re), lax.mul_p.bind(im, im))
    else:
        sq = lax.mul_p.bind(x, x)
    if dtype is not None:
        sq = cast_v(sq, acc)
    total = lax.reduce_sum_p.bind(mask_v(sq, where, 0, "var"), axes=axes)
    if type(count) is int:
        dof = np.maximum(np.int64(count) - ddof, 0)
    else:
        dof = lax.max_p.bind(lax.sub_p.bind(count, ddof), 0)
    r = divide_v(total, dof, get_aval(total).dtype)
    return keep_v(r, aval.shape, axes, keepdims)


def var(a, axis: Axis = None, dtype=None, out=None, ddof=0,
        keepdims: builtins.bool = False, *, where=True, mean=None, correction=None):
    """Variance over ``axis`` with ``ddof`` (or the array API's ``correction``) delta
    degrees of freedom; ``mean`` may pass a precomputed mean (keepdims shape)."""
    r = var_v(strong_v(a), axis, dtype, _ddof(ddof, correction), keepdims, where, mean)
    return store(r, out, "var")


def std(a, axis: Axis = None, dtype=None, out=None, ddof=0,
        keepdims: builtins.bool = False, *, where=True, mean=None, correction=None):
    """Standard deviation: the square root of :func:`var`."""
    r = var_v(strong_v(a), axis, dtype, _ddof(ddof, correction), keepdims, where, mean)
    _util.check_std_dtype(get_aval(r), out)
    if get_aval(r).dtype.kind == "O":   # each element's own square root, as NumPy's loop
        from xnp._ufuncs import UFUNCS
        return store(raw(UFUNCS["sqrt"](r)), out, "std")
    from xnp._ufunc_composites import sqrt_of_spread_v  # _ufuncs imports this module
    return store(cast_v(sqrt_of_spread_v(r), get_aval(r).dtype), out, "std")


def weights_v(w, shape: tuple, axes: tuple | None):
    """Weights broadcastable against an array of ``shape``, as NumPy's average checks."""
    wshape = get_aval(w).shape
    if wshape == shape:
        return w
    if axes is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if wshape != tuple(shape[ax] for ax in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along "
                         "specified axis.")
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    w = lax.transpose_p.bind(w, permutation=tuple(order))
    return lax.reshape_p.bind(w, new_sizes=tuple(s if ax in axes else 1
                                                 for ax, s in enumerate(shape)))


def average(a, axis: Axis = None, weights=None, returned: builtins.bool = False, *,
            keepdims: builtins.bool = False):
    """Weighted average over ``axis``; with ``returned`` also the sum of the weights.

    Weights summing to zero raise ZeroDivisionError eagerly; under tracing the result is
    then NaN or inf, since the check needs the values.
    """
    v = strong_v(a)
    aval = get_aval(v)
    axes = None if axis is None else normalize_axis_tuple(
        axis, aval.ndim, repeated="repeated axis in `axis` argument")
    if weights is None:
        avg, scl = mean(v, axes, keepdims=keepdims), None    # scl: only if returned
        if not getattr(avg, "size", 1):     # NumPy divides a.size by avg.size for scl
            raise ZeroDivisionError("division by zero")
    else:
        w = weights_v(strong_v(weights), aval.shape, axes)
        wdt = get_aval(w).dtype
        res_dt = np.result_type(aval.dtype, wdt, FLOAT64) if aval.dtype.kind in "biu" \
            else np.result_type(aval.dtype, wdt)
        scl = raw(sum(w, axes, dtype=res_dt, keepdims=keepdims))
        if concrete_any(lax.eq_p.bind(scl, 0)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        weighted = lax.mul_p.bind(cast_v(v, res_dt), cast_v(w, res_dt))
        total = raw(sum(weighted, axes, keepdims=keepdims))
        avg = wrap_scalar_result(lax.div_p.bind(total, scl))   # an object: itself
    if not returned:
        return avg
    if scl is None:
        scl = np.asarray(avg.dtype.type(aval.size / avg.size))
    return avg, wrap_scalar_result(broadcast_to_v(cast_v(scl, avg.dtype), avg.shape))


def aval_of(a):
    return get_aval(strong_v(a))


from xnp._cumulative import *  # noqa: E402, F403
from xnp._cumulative import __all__ as _cumulative_all  # noqa: E402
from xnp._cumulative import accumulate_along  # noqa: E402, F401
from xnp._nanfunctions import *  # noqa: E402, F403
from xnp._nanfunctions import __all__ as _nan_all  # noqa: E402
from xnp._quantiles import *  # noqa: E402, F403
from xnp._quantiles import __all__ as _quantile_all  # noqa: E402

__all__ += _cumulative_all + _nan_all + _quantile_all
