"""NumPy's indexing functions: take, put, choose, compress, select, diagonal, nonzero
and in-place fills (index construction is in :mod:`xnp._index_construction`).

They are built on the getitem/scatter machinery of :mod:`xnp._indexing`. Functions that
NumPy documents as modifying an argument in place (put, put_along_axis, place,
fill_diagonal) rebind the xnp array handle they are given and return None; they need an
xnp array there. Functions whose output shape depends on values (nonzero, argwhere,
flatnonzero, extract, compress) accept ``size=``/``fill_value=`` (keyword-only, as in JAX)
to be traceable; without ``size`` they need concrete values.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Sequence

import numpy as np

from transforms.core import CompositePrimitive, Tracer, concrete_or_error
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import result_type
from xnp._index_update import assigned_value, masked_put_value, update_value
from xnp._indexing import index_value, wrap_element
from xnp._util import (
    axis_of_0d_as_1d,
    broadcast_to_v,
    cast_v,
    dtype_of,
    full_v,
    normalize_axis,
    raw,
    shape_of,
    truth_v,
    where_v,
)
from xnp._views import fresh, store_through
from xnp._writeable import check_writeable, read_only

__all__ = [
    "take", "take_along_axis", "put_along_axis", "put", "choose", "compress", "select",
    "piecewise", "diagonal", "trace", "nonzero", "argwhere", "flatnonzero", "extract",
    "place",
]

_I64 = np.dtype(np.int64)
_SIZE_HINT = "pass size= (and fill_value=) for a fixed-size result"


# --- helpers on raw values ----------------------------------------------------------------
def _ravel(v):
    shape = shape_of(v)
    return v if len(shape) == 1 else lax.reshape_p.bind(v, new_sizes=(_prod(shape),))


def _prod(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _iota(n: int):
    return lax.iota_p.bind(dtype=_I64, shape=(n,), dimension=0)


def _plain_numbers(seq) -> bool:
    """Whether a (nested) list or tuple holds only Python numbers."""
    return all(_plain_numbers(x) if isinstance(x, (list, tuple)) else
               type(x) in (bool, int, float) for x in seq)


def _int_index(v, name: str):
    """An index argument as an integer value (NumPy's 'same_kind' cast to intp)."""
    if dtype_of(v).kind not in "biu":
        raise TypeError(f"{name}: Cannot cast array data from {dtype_of(v)!r} to "
                        "dtype('int64') according to the rule 'safe'")
    return cast_v(v, _I64)


def _in_range(idx, n: int, mode: str, name: str):
    """Indices brought into [0, n) by ``mode`` ('wrap' or 'clip'), as int64."""
    idx = cast_v(idx, _I64)
    if mode == "wrap":
        r = lax.rem_p.bind(idx, n)
        return lax.select_n_p.bind(lax.lt_p.bind(r, 0), r, lax.add_p.bind(r, n))
    if mode == "clip":
        return lax.clamp_p.bind(np.int64(0), idx, np.int64(max(n - 1, 0)))
    raise ValueError(f"{name}: clipmode must be one of 'clip', 'raise', or 'wrap' "
                     f"(got {mode!r})")


def _checked_nonneg(idx, n: int, error: Callable[[], Exception]):
    """Indices that must lie in [0, n): checked when concrete, clamped when traced."""
    if isinstance(idx, Tracer):
        return _in_range(idx, n, "clip", "")
    a = np.asarray(idx)
    if a.size and (a.min() < 0 or a.max() >= n):
        raise error()
    return cast_v(idx, _I64)


def _cycled(u, m: int):
    """The flattened ``u`` repeated (or cut) to length ``m``."""
    u = _ravel(u)
    k = shape_of(u)[0]
    if k == m:
        return u
    reps = -(-m // k)
    if reps > 1:
        u = lax.broadcast_in_dim_p.bind(u, shape=(reps, k), broadcast_dimensions=(1,))
        u = lax.reshape_p.bind(u, new_sizes=(reps * k,))
    return lax.slice_p.bind(u, start_indices=(0,), limit_indices=(m,))


def _out(v, out) -> ndarray:
    if out is None:
        return wrap(v)
    if type(out) is not ndarray:
        raise TypeError(f"out must be an xnp array, got {type(out).__name__}")
    check_writeable(out, "output array")
    store_through(out, broadcast_to_v(cast_v(v, out.dtype), out.shape))
    return out


def _handle(a, name: str) -> ndarray:
    if type(a) is not ndarray:
        raise TypeError(f"xnp.{name} modifies its argument in place, so it must be an xnp "
                        f"array (got {type(a).__name__}); xnp values are immutable")
    return a


def _concrete_count(mask_v, what: str) -> int:
    total = lax.reduce_sum_p.bind(cast_v(mask_v, _I64), axes=tuple(range(len(shape_of(
        mask_v)))))
    return int(concrete_or_error(total, f"{what} (its result size depends on the values; "
                                        f"{_SIZE_HINT})"))


def _nonzero_mask(v):
    return truth_v(v)


# --- take / put ---------------------------------------------------------------------------
def take(a, indices, axis: int | None = None, out=None, mode: str = "raise") -> ndarray:
    """Elements of ``a`` at ``indices`` along ``axis`` (the flattened array if None).

    ``mode='raise'`` checks concrete indices (IndexError); traced indices are clamped.
    """
    mode = "raise" if mode is None else mode            # NumPy takes None as the default
    v, axis = axis_of_0d_as_1d(raw(a), axis)
    if axis is None:
        v, axis = _ravel(v), 0
    else:
        axis = normalize_axis(axis, len(shape_of(v)))
    if isinstance(indices, (list, tuple)) and _plain_numbers(indices):
        indices = np.asarray(indices, dtype=np.intp)   # as NumPy: [] and [1.0] convert
    idx = _int_index(raw(indices), "take")
    shape = shape_of(v)
    n = shape[axis]
    out_shape = shape[:axis] + shape_of(idx) + shape[axis + 1:]
    if n == 0 and _prod(out_shape):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if not _prod(shape[:axis]) or (n == 0 and mode != "raise"):   # no index is read
        return _out(full_v(out_shape, 0, dtype_of(v)), out)
    if mode != "raise":
        idx = _in_range(idx, n, mode, "take")
    r = index_value(v, (slice(None),) * axis + (idx,))
    return wrap_element(r) if out is None else _out(r, out)


def _along_axis_key(shape: tuple, idx, axis: int):
    if dtype_of(idx).kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if len(shape_of(idx)) != len(shape):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    nd = len(shape)
    return tuple(idx if d == axis else
                 np.arange(n).reshape(tuple(n if i == d else 1 for i in range(nd)))
                 for d, n in enumerate(shape))


def _along_axis(arr, indices, axis):
    v, idx = raw(arr), raw(indices)
    if axis is None:
        if len(shape_of(idx)) != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        v, axis = _ravel(v), 0
    else:
        axis = normalize_axis(axis, len(shape_of(v)))
    return v, _along_axis_key(shape_of(v), idx, axis)


def take_along_axis(arr, indices, axis: int | None = -1) -> ndarray:
    """``arr`` indexed by ``indices`` along ``axis``, the other axes broadcast (NumPy 2)."""
    v, key = _along_axis(arr, indices, axis)
    return wrap(index_value(v, key))


def put_along_axis(arr, indices, values, axis: int | None) -> None:
    """Assign ``values`` at ``indices`` along ``axis`` of the xnp array ``arr`` (in place:
    the handle is rebound)."""
    arr = _handle(arr, "put_along_axis")
    fresh(arr)
    v, key = _along_axis(arr, indices, axis)
    new = update_value(v, key, assigned_value(values, arr.dtype))
    del v               # a reference to arr's buffer would stop the write in place
    check_writeable(arr)
    store_through(arr, lax.reshape_p.bind(new, new_sizes=arr.shape) if axis is None else new)


def put(a, ind, v, mode: str = "raise") -> None:
    """Set the flat elements ``a.flat[ind] = v`` of the xnp array ``a`` in place; ``v`` is
    repeated as needed. Traced indices with ``mode='raise'`` are clamped."""
    a = _handle(a, "put")
    fresh(a)
    idx = _ravel(cast_v(raw(ind), _I64))
    m = shape_of(idx)[0]
    vals = _ravel(assigned_value(v, a.dtype))
    if m and a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    if m == 0 or shape_of(vals)[0] == 0:
        return
    flat = _ravel(a._value)
    if mode != "raise":
        idx = _in_range(idx, a.size, mode, "put")
    new = update_value(flat, (idx,), _cycled(vals, m))
    del flat            # a view of a's buffer would stop the write in place (see store_value)
    check_writeable(a)
    store_through(a, lax.reshape_p.bind(new, new_sizes=a.shape))


# --- choosing -----------------------------------------------------------------------------
def choose(a, choices, out=None, mode: str = "raise") -> ndarray:
    """``choices[a[i]][i]`` with all arrays broadcast together; one ``select_n``."""
    idx = raw(a)
    if dtype_of(idx).kind not in "biu":
        raise TypeError(f"Cannot cast array data from {dtype_of(idx)!r} to dtype('int64') "
                        "according to the rule 'safe'")
    if isinstance(choices, (list, tuple)):
        cases = [raw(c) for c in choices]
    else:
        cv = raw(choices)
        cases = [index_value(cv, i) for i in range(shape_of(cv)[0])] if shape_of(cv) \
            else [cv]
    n = len(cases)
    if n == 0:
        raise ValueError("0-length sequence.")
    if mode == "raise":
        idx = _checked_nonneg(idx, n, lambda: ValueError("invalid entry in choice array"))
    else:
        idx = _in_range(idx, n, mode, "choose")
    dt = result_type(*cases)
    cases = [cast_v(c, dt) for c in cases]
    r = lax.select_n_p.bind(cast_v(idx, np.int32), *cases)
    return wrap_scalar_result(r) if out is None else _out(r, out)   # 0-d: a scalar


def compress(condition, a, axis: int | None = None, out=None, *, size: int | None = None,
             fill_value=None) -> ndarray:
    """The slices of ``a`` along ``axis`` where ``condition`` is non-zero.

    ``size``/``fill_value`` (as in JAX) give a fixed number of slices, padded with
    ``fill_value`` (default 0); only then can ``compress`` be traced.
    """
    cond = raw(condition)
    if len(shape_of(cond)) != 1:
        raise ValueError("condition must be a 1-d array")
    v, axis = axis_of_0d_as_1d(raw(a), axis)
    if axis is None:
        v, axis = _ravel(v), 0
    else:
        axis = normalize_axis(axis, len(shape_of(v)))
    if size is None:
        (idx,) = _nonzero_v(cond, None, None, "xnp.compress")
        return take(wrap(v), wrap(idx), axis=axis, out=out)
    lead = (slice(None),) * axis
    (idx,) = _nonzero_v(cond, size, shape_of(v)[axis], "xnp.compress")
    fill = 0 if fill_value is None else fill_value
    return _out(index_value(v, lead + (idx,), mode="fill", fill_value=fill), out)


def select(condlist: Sequence, choicelist: Sequence, default: Any = 0) -> ndarray:
    """The element of the first choice whose condition holds, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [raw(c) for c in condlist]
    for i, c in enumerate(conds):
        if dtype_of(c).kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [raw(c) for c in choicelist]
    dt = result_type(*choices, raw(default))
    out = cast_v(raw(default), dt)
    for c, x in zip(reversed(conds), reversed(choices)):
        out = lax.select_n_p.bind(c, out, cast_v(x, dt))
    return wrap(out)


def piecewise(x, condlist, funclist: Sequence, *args, **kw) -> ndarray:
    """``funclist[i]`` (a callable or a scalar) where ``condlist[i]`` holds, else 0; the
    last of ``len(condlist) + 1`` functions applies where no condition holds.

    Unlike NumPy, each callable is evaluated on the whole of ``x`` (so that the result can
    be traced) and must therefore be elementwise.
    """
    v = raw(x)
    ndim = len(shape_of(v))
    if isinstance(condlist, (list, tuple)) and not condlist:
        raise IndexError("list index out of range")     # NumPy reads condlist[0]
    conds = _conditions(condlist, ndim)
    n, nf = len(conds), len(funclist)
    if nf == n + 1:
        anyc = conds[0]
        for c in conds[1:]:
            anyc = lax.or_p.bind(anyc, c)
        conds.append(lax.not_p.bind(anyc) if conds else np.True_)
    elif nf != n:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are "
                         "expected")
    dt = dtype_of(v)
    out = full_v(shape_of(v), 0, dt)
    xs = wrap(v)
    for c, f in zip(conds, funclist):
        if callable(f):
            with np.errstate(all="ignore"):
                val = raw(f(xs, *args, **kw))
        else:       # NumPy assigns it: its conversion errors (out-of-range ints, NaN)
            val = assigned_value(f, dt) if isinstance(f, (int, float, complex)) else raw(f)
        out = lax.select_n_p.bind(c, out, cast_v(val, dt))
    return wrap(broadcast_to_v(out, shape_of(v)))


def _conditions(condlist, ndim: int) -> list:
    """NumPy's reading of ``condlist``: one condition, or a sequence of them."""
    if isinstance(condlist, (list, tuple)):
        items = list(condlist)
        first = items[0] if items else None
        if items and ndim and not isinstance(first, (list, tuple, ndarray, np.ndarray,
                                                     Tracer)):
            items = [condlist]
    else:
        c = raw(condlist)
        cnd = len(shape_of(c))
        items = [c] if cnd == 0 or (cnd == 1 and ndim) else \
            [index_value(c, i) for i in range(shape_of(c)[0])]
    return [cast_v(raw(c), np.bool_) for c in items]


# --- diagonals ----------------------------------------------------------------------------
def _diag_axes(shape: tuple, offset: int, axis1: int, axis2: int):
    nd = len(shape)
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = normalize_axis(axis1, nd, "axis1"), normalize_axis(axis2, nd, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    offset = operator.index(offset)
    n1, n2 = shape[a1], shape[a2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    rows = np.arange(length) + max(0, -offset)
    cols = np.arange(length) + max(0, offset)
    return a1, a2, rows, cols


def diagonal(a, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
    """The diagonal over ``axis1``/``axis2`` as the last axis (a copy, not a view)."""
    v = raw(a)
    shape = shape_of(v)
    a1, a2, rows, cols = _diag_axes(shape, offset, axis1, axis2)
    key = [slice(None)] * len(shape)
    key[a1], key[a2] = rows, cols
    d = index_value(v, tuple(key))
    lo, hi = sorted((a1, a2))
    pos = lo if hi == lo + 1 else 0      # where the indexed axis landed (NumPy's rule)
    nd = len(shape) - 1
    if pos != nd - 1:
        perm = tuple(i for i in range(nd) if i != pos) + (pos,)
        d = lax.transpose_p.bind(d, permutation=perm)
    out = wrap(d)       # NumPy's diagonal is a read-only view
    return read_only(out) if isinstance(out, ndarray) else out


def _sum_dtype(dt: np.dtype) -> np.dtype:
    if dt.kind in "bi" and dt.itemsize < 8:
        return _I64
    if dt.kind == "u" and dt.itemsize < 8:
        return np.dtype(np.uint64)
    return dt


def trace(a, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None,
          out=None) -> ndarray:
    """The sum along the diagonal (NumPy's accumulation dtype: small ints -> int64)."""
    d = raw(diagonal(a, offset, axis1, axis2))
    dt = _sum_dtype(dtype_of(d)) if dtype is None else np.dtype(dtype)
    s = lax.reduce_sum_p.bind(cast_v(d, dt), axes=(len(shape_of(d)) - 1,))
    return wrap_element(s) if out is None else _out(s, out)


# --- nonzero and friends ------------------------------------------------------------------
def _flat_nonzero_v(mask, size: int):
    """Positions of the true elements of the 1-d ``mask``, padded to ``size`` with
    ``fill``: one cumsum and one scatter (each true element i is sent to slot
    cumsum[i] - 1; false elements and the overflow are dropped as out of bounds)."""
    n = shape_of(mask)[0]
    m64 = cast_v(mask, _I64)
    slot = lax.sub_p.bind(lax.cumsum_p.bind(m64, axis=0), 1)
    slot = lax.select_n_p.bind(mask, np.int64(size), slot)
    base = full_v((size,), 0, _I64)
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    pos = lax.scatter_p.bind(base, lax.reshape_p.bind(slot, new_sizes=(n, 1)), _iota(n),
                             dimension_numbers=dn, mode="fill")
    count = lax.reduce_sum_p.bind(m64, axes=(0,))
    return pos, lax.lt_p.bind(_iota(size), count)


def _nonzero_v(v, size, fill_value, what: str) -> list:
    shape = shape_of(v)
    padded = size is not None
    if size is None:
        size = _concrete_count(_ravel(_nonzero_mask(v)), what)
    size = operator.index(size)
    fills = None
    if padded:
        fills = fill_value if isinstance(fill_value, (tuple, list)) else \
            [0 if fill_value is None else fill_value] * len(shape)
        if len(fills) != len(shape):
            raise ValueError(f"fill_value must be a scalar or a tuple of length "
                             f"{len(shape)}; got {fill_value!r}")
        fills = tuple(fills)
        if not all(type(f) in (int, float, bool) or isinstance(f, np.generic)
                   for f in fills):
            return _nonzero_coords(v, size=size, fills=fills)
    return nonzero_p.bind(v, size=size, fills=fills)


def _nonzero_coords(v, *, size, fills):
    """Coordinates of the non-zero elements, ``size`` of them (padded with ``fills``, one
    per axis, or with 0 when None) from a cumsum and a scatter."""
    shape = shape_of(v)
    pos, valid = _flat_nonzero_v(_ravel(_nonzero_mask(v)), size)
    coords = []
    for d, (n, s) in enumerate(zip(shape, _strides(shape, "C"))):
        c = pos if s == 1 else lax.floor_divide_p.bind(pos, np.int64(max(s, 1)))
        coords.append(lax.rem_p.bind(c, np.int64(max(n, 1))) if d else c)
    if fills is not None:
        coords = [where_v(valid, c, cast_v(raw(f), _I64)) for c, f in zip(coords, fills)]
    return coords


def _nonzero_numpy(v, *, size, fills):
    coords = np.nonzero(v) if np.ndim(v) else ()
    fills = fills if fills is not None else (0,) * len(coords)
    out = []
    for c, f in zip(coords, fills):
        c = c[:size].astype(np.int64)
        if len(c) < size:
            c = np.concatenate([c, np.full(size - len(c), f, np.int64)])
        out.append(c)
    return out


# Eagerly numpy.nonzero; under transformations the cumsum-and-scatter composition.
nonzero_p = CompositePrimitive("nonzero", impl=_nonzero_numpy, expand=_nonzero_coords,
                               multiple_results=True)


def nonzero(a, *, size: int | None = None, fill_value=None) -> tuple:
    """Indices of the non-zero elements, one int64 array per axis.

    ``size``/``fill_value`` (JAX's extension) give fixed-size results, padded with
    ``fill_value`` (default 0) or truncated; only then can ``nonzero`` be traced.
    """
    v = raw(a)
    if not shape_of(v):
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return tuple(map(wrap, _nonzero_v(v, size, fill_value, "xnp.nonzero")))


def argwhere(a, *, size: int | None = None, fill_value=None) -> ndarray:
    """Indices of the non-zero elements as a (count, ndim) array (see :func:`nonzero`)."""
    v = raw(a)
    shape = shape_of(v)
    if not shape:
        if size is None:
            size = _concrete_count(_nonzero_mask(v), "xnp.argwhere")
        return wrap(full_v((operator.index(size), 0), 0, _I64))
    coords = _nonzero_v(v, size, fill_value, "xnp.argwhere")
    k = shape_of(coords[0])[0]
    cols = [lax.reshape_p.bind(c, new_sizes=(k, 1)) for c in coords]
    return wrap(cols[0] if len(cols) == 1 else lax.concatenate_p.bind(*cols, dimension=1))


def flatnonzero(a, *, size: int | None = None, fill_value=None) -> ndarray:
    """Indices of the non-zero elements of the flattened array (see :func:`nonzero`)."""
    (pos,) = _nonzero_v(_ravel(raw(a)), size, fill_value, "xnp.flatnonzero")
    return wrap(pos)


def extract(condition, arr, *, size: int | None = None, fill_value=None) -> ndarray:
    """The elements of the flattened ``arr`` where the flattened ``condition`` is
    non-zero; with ``size=`` the result is padded with ``fill_value`` (default 0)."""
    cond = _ravel(raw(condition))
    v = _ravel(raw(arr))
    n = shape_of(v)[0]
    if size is None:
        (pos,) = _nonzero_v(cond, None, None, "xnp.extract")
        return wrap(index_value(v, (pos,)))
    (pos,) = _nonzero_v(cond, size, n, "xnp.extract")
    fill = 0 if fill_value is None else fill_value
    return wrap(index_value(v, (pos,), mode="fill", fill_value=fill))


def place(arr, mask, vals) -> None:
    """Put ``vals`` (repeated as needed) where ``mask`` is true, in the xnp array ``arr``
    (in place: the handle is rebound). Traceable: a cumsum, a gather and a select."""
    arr = _handle(arr, "place")
    fresh(arr)
    m = _ravel(_nonzero_mask(raw(mask)))
    if shape_of(m)[0] != arr.size:
        raise ValueError("place: mask and data must be the same size")
    u = _ravel(masked_put_value(vals, arr.dtype))
    k = shape_of(u)[0]
    if k == 0:
        if _concrete_count(m, "xnp.place with empty vals"):
            raise ValueError("Cannot insert from an empty array!")
        return
    slot = lax.sub_p.bind(lax.cumsum_p.bind(cast_v(m, _I64), axis=0), 1)
    slot = lax.rem_p.bind(lax.max_p.bind(slot, np.int64(0)), np.int64(k))
    picked = index_value(u, (slot,), mode="clip")
    new = lax.select_n_p.bind(m, _ravel(arr._value), picked)
    check_writeable(arr)
    store_through(arr, lax.reshape_p.bind(new, new_sizes=arr.shape))


# --- strides of a C- or F-ordered shape (also used by xnp._index_construction) ------------
def _strides(dims: tuple, order: str) -> list:
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    seq = dims if order == "C" else dims[::-1]
    strides, acc = [], 1
    for n in reversed(seq):
        strides.append(acc)
        acc *= n
    strides.reverse()
    return strides if order == "C" else strides[::-1]


def _dims(shape) -> tuple:
    if isinstance(shape, (int, np.integer)):
        return (operator.index(shape),)
    return tuple(operator.index(n) for n in shape)
