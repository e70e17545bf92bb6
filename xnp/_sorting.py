"""Sorting and searching: sort, argsort, sort_complex, partition, argpartition, lexsort and
searchsorted, built on the multi-operand ``sort`` primitive, gathers and comparisons.

Every sort here is stable and orders values as NumPy does: NaN last, and complex numbers
lexicographically (real, then imaginary part), where a NaN only in the imaginary part sorts
after all NaN-free values and a NaN in the real part after that. Hence ``argsort`` gives
NumPy's ``argsort(kind='stable')`` whatever ``kind`` says, and ``partition`` and
``argpartition`` return a fully sorted array (one valid partition among those NumPy allows).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from numpy.exceptions import AxisError

from transforms.core import Tracer, concrete_or_error, get_aval, is_eager
from xnp import lax
from xnp._array import ndarray
from xnp._dtypes import is_inexact, result_dtype_of_avals
from xnp._util import cast_v, normalize_axis, raw, shape_of, where_v, wrap

__all__ = ["sort", "argsort", "sort_complex", "partition", "argpartition", "lexsort",
           "searchsorted"]

INDEX = np.dtype(np.int64)


# --- value helpers shared with xnp._sets -------------------------------------------------------
def strong_value(x):
    """The value of ``x`` with a strong dtype: Python scalars take NumPy's default dtypes."""
    if type(x) is int and not -2**63 <= x < 2**63:
        return np.asarray(x)            # as NumPy: uint64 (or object) beyond int64
    v = raw(x)
    a = get_aval(v)
    return cast_v(v, a.dtype) if a.weak_type else v


def flatten_v(v):
    return lax.reshape_p.bind(v, new_sizes=(get_aval(v).size,))


def iota_v(shape, dimension=0):
    return lax.iota_p.bind(dtype=INDEX, shape=tuple(shape), dimension=dimension)


def sort_along_v(operands, dimension, num_keys=1):
    """Stable sort of ``operands`` (same shape) by the first ``num_keys`` of them."""
    return lax.sort_p.bind(*operands, dimension=dimension, is_stable=True, num_keys=num_keys)


def take_v(arr, idx):
    """``arr[idx]`` along axis 0 for an integer index array (clamped into bounds)."""
    a = get_aval(arr)
    ishape = shape_of(idx)
    if not a.shape[0]:
        return np.zeros((*ishape, *a.shape[1:]), a.dtype)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=tuple(range(len(ishape), len(ishape) + a.ndim - 1)),
        collapsed_slice_dims=(0,), start_index_map=(0,))
    idx = lax.reshape_p.bind(cast_v(idx, INDEX), new_sizes=(*ishape, 1))
    return lax.gather_p.bind(arr, idx, dimension_numbers=dnums,
                             slice_sizes=(1, *a.shape[1:]), mode="clip")


def _nan_last_less(x, y):
    isnan = lax.is_nan_p.bind
    return lax.or_p.bind(lax.lt_p.bind(x, y),
                         lax.and_p.bind(lax.not_p.bind(isnan(x)), isnan(y)))


def _nan_equal(x, y):
    isnan = lax.is_nan_p.bind
    return lax.or_p.bind(lax.eq_p.bind(x, y), lax.and_p.bind(isnan(x), isnan(y)))


def _complex_class(z):
    """0 for NaN-free values, 1 for NaN only in the imaginary part, 2 for a NaN real part."""
    real_nan = lax.is_nan_p.bind(lax.real_p.bind(z))
    imag_nan = lax.is_nan_p.bind(lax.imag_p.bind(z))
    only_imag = lax.and_p.bind(imag_nan, lax.not_p.bind(real_nan))
    return lax.add_p.bind(lax.mul_p.bind(cast_v(real_nan, np.int8), 2),
                          cast_v(only_imag, np.int8))


def total_less_v(x, y):
    """``x < y`` in NumPy's sort order (NaN last), on promoted dtypes."""
    dt = result_dtype_of_avals([get_aval(x), get_aval(y)])
    if dt.kind == "c":
        x, y = cast_v(x, dt), cast_v(y, dt)
        cx, cy = _complex_class(x), _complex_class(y)
        rx, ry = lax.real_p.bind(x), lax.real_p.bind(y)
        ix, iy = lax.imag_p.bind(x), lax.imag_p.bind(y)
        within = lax.or_p.bind(_nan_last_less(rx, ry), lax.and_p.bind(
            _nan_equal(rx, ry), _nan_last_less(ix, iy)))
        return lax.or_p.bind(lax.lt_p.bind(cx, cy),
                             lax.and_p.bind(lax.eq_p.bind(cx, cy), within))
    if is_inexact(dt):
        return _nan_last_less(x, y)
    return lax.lt_p.bind(x, y)


# Up to this many comparisons, searches compare every pair (a few cheap elementwise ops)
# instead of running a binary search (one gather per step).
SMALL_SEARCH = 4096


def search_sorted_v(sorted_a, v, right=False):
    """Insertion indices of ``v`` into the sorted 1-d ``sorted_a``."""
    n = get_aval(sorted_a).shape[0]
    vshape = shape_of(v)
    if n * max(int(np.prod(vshape, dtype=np.int64)), 1) <= SMALL_SEARCH:
        # Count the elements before v: those < v (left) or not > v (right).
        column = lax.reshape_p.bind(v, new_sizes=(*vshape, 1)) if vshape else v
        before = lax.not_p.bind(total_less_v(column, sorted_a)) if right else \
            total_less_v(sorted_a, column)
        return lax.reduce_sum_p.bind(cast_v(before, INDEX), axes=(len(vshape),))
    return _binary_search_v(sorted_a, v, right)


def _binary_search_v(sorted_a, v, right):
    """A binary search with a fixed number of gather steps (one per bit of the length)."""
    n = get_aval(sorted_a).shape[0]
    lo = np.zeros(shape_of(v), INDEX)
    step = 1 << (n.bit_length() - 1)
    while step:
        cand = lax.add_p.bind(lo, step)
        pivot = take_v(sorted_a, lax.sub_p.bind(lax.min_p.bind(cand, n), 1))
        go = lax.not_p.bind(total_less_v(v, pivot)) if right else total_less_v(pivot, v)
        lo = where_v(lax.and_p.bind(go, lax.le_p.bind(cand, n)), cand, lo)
        step >>= 1
    return lo


# --- argument checks ------------------------------------------------------------------------------
def _check_kind(kind, stable):
    if kind is None:
        return
    if not isinstance(kind, str):
        raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
    if not kind or kind[0].lower() not in "qhms":
        raise ValueError("sort kind must be one of 'quick', 'heap', or 'stable' "
                         f"(got {kind!r})")
    if stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                         "Use only one of them.")


def _check_order(order, name):
    if order is not None:
        raise ValueError(f"{name}: Cannot specify order when the array has no fields.")


def _along(a, axis, at_least_1d=False):
    """The value to sort and the axis: ``axis=None`` flattens, as NumPy."""
    v = strong_value(a)
    shape = shape_of(v)
    if axis is None or (at_least_1d and not shape):
        return flatten_v(v), 0 if axis is None else normalize_axis(axis, 1)
    return v, normalize_axis(axis, len(shape))


def _argsort_v(v, axis):
    if type(v) is np.ndarray and v.dtype.kind in "biuf" and v.dtype.isnative and is_eager():
        # NumPy's stable argsort is what the sort primitive computes on concrete values
        return np.argsort(v, axis=axis, kind="stable")
    return sort_along_v((v, iota_v(shape_of(v), axis)), axis)[1]


# --- sorting ---------------------------------------------------------------------------------
def sort(a, axis: int | None = -1, kind: str | None = None, order=None, *,
         stable: bool | None = None, descending: bool = False) -> ndarray:
    """Return a sorted copy of an array, as :func:`numpy.sort`.

    The sort is always stable (``kind`` and ``stable`` are validated and otherwise
    ignored); NaN sorts last (first with ``descending=True``, the Array API's keyword,
    which NumPy lacks). ``order`` (structured arrays) is not supported.
    """
    _check_kind(kind, stable)
    _check_order(order, "sort")
    v, axis = _along(a, axis)
    out = sort_along_v((v,), axis)[0]
    return wrap(lax.rev_p.bind(out, dimensions=(axis,)) if descending else out)


def argsort(a, axis: int | None = -1, kind: str | None = None, order=None, *,
            stable: bool | None = None, descending: bool = False) -> ndarray:
    """Indices that sort an array, as :func:`numpy.argsort` (int64).

    Always stable: ties keep their original order, as NumPy's ``kind='stable'``, also
    with ``descending=True`` (the Array API's keyword, which NumPy lacks).
    """
    _check_kind(kind, stable)
    _check_order(order, "argsort")
    v, axis = _along(a, axis, at_least_1d=True)
    if not descending:
        return wrap(_argsort_v(v, axis))
    # Stable descending: sort the reversed array ascending, map its indices back to the
    # original positions and reverse again; ties stay in their original order.
    last = shape_of(v)[axis] - 1
    idx = _argsort_v(lax.rev_p.bind(v, dimensions=(axis,)), axis)
    return wrap(lax.rev_p.bind(lax.sub_p.bind(np.int64(last), idx), dimensions=(axis,)))


def sort_complex(a) -> ndarray:
    """Sort along the last axis and return a complex array, as :func:`numpy.sort_complex`
    (complex64 for 8- and 16-bit integers, clongdouble for longdouble, complex128 for
    other real dtypes)."""
    v, axis = _along(a, -1)
    out = sort_along_v((v,), axis)[0]
    dt = get_aval(out).dtype
    if dt.kind != "c":
        small = dt.kind in "iu" and dt.itemsize <= 2
        out = cast_v(out, np.complex64 if small else
                     np.clongdouble if dt == np.longdouble else np.complex128)
    return wrap(out)


def _kth_list(kth, n: int, empty: bool) -> None:
    """Validate ``kth`` as NumPy does (the result is a full sort, so only errors matter)."""
    k = np.asarray(concrete_or_error(raw(kth), "partition: kth"))
    if k.dtype == bool:
        raise ValueError("Booleans unacceptable as partition index")
    if k.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        raise ValueError(f"kth must be an integer or a 1-d sequence, got shape {k.shape}")
    if empty:
        return
    for item in k.reshape(-1).tolist():
        kk = item + n if item < 0 else item
        if not 0 <= kk < n:
            raise ValueError(f"kth(={kk}) out of bounds ({n})")


def _check_select_kind(kind):
    if kind != "introselect":
        if not isinstance(kind, str):
            raise TypeError(f"select kind must be str, not {type(kind).__name__}")
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")


def partition(a, kth, axis: int | None = -1, kind: str = "introselect",
              order=None) -> ndarray:
    """Partially sort an array around the ``kth`` elements, as :func:`numpy.partition`.

    xnp returns the fully sorted array, which satisfies NumPy's contract (the kth
    elements in their sorted place, smaller ones before, larger ones after); NumPy's own
    result may order the other elements differently.
    """
    _check_select_kind(kind)
    _check_order(order, "partition")
    v, axis = _along(a, axis)
    shape = shape_of(v)
    _kth_list(kth, shape[axis], 0 in shape)
    return wrap(sort_along_v((v,), axis)[0])


def argpartition(a, kth, axis: int | None = -1, kind: str = "introselect",
                 order=None) -> ndarray:
    """Indices that partition an array, as :func:`numpy.argpartition`; xnp returns the
    stable full argsort, a valid partition (see :func:`partition`)."""
    _check_select_kind(kind)
    _check_order(order, "argpartition")
    v, axis = _along(a, axis, at_least_1d=True)
    shape = shape_of(v)
    _kth_list(kth, shape[axis], 0 in shape)
    return wrap(_argsort_v(v, axis))


def lexsort(keys, axis: int = -1) -> ndarray:
    """Indirect stable sort by several keys, the last key primary, as :func:`numpy.lexsort`.

    ``keys`` is a sequence of same-shaped arrays, or an array whose first axis indexes
    the keys.
    """
    if isinstance(keys, (list, tuple)):
        values = [strong_value(k) for k in keys]
    else:
        v = strong_value(keys)
        shape = shape_of(v)
        values = [] if not shape else [_row_v(v, i) for i in range(shape[0])]
    if not values:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = shape_of(values[0])
    if any(shape_of(k) != shape for k in values):
        raise ValueError("all keys need to be the same shape (lexsort got shapes "
                         + ", ".join(str(shape_of(k)) for k in values) + ")")
    if not shape:
        if operator.index(axis) not in (0, -1):
            raise AxisError(axis, 0)
        return wrap(np.zeros((), INDEX))
    axis = normalize_axis(axis, len(shape))
    ops = [*reversed(values), iota_v(shape, axis)]
    return wrap(sort_along_v(ops, axis, num_keys=len(values))[-1])


def _row_v(v, i):
    shape = shape_of(v)
    row = lax.slice_p.bind(v, start_indices=(i, *(0,) * (len(shape) - 1)),
                           limit_indices=(i + 1, *shape[1:]))
    return lax.reshape_p.bind(row, new_sizes=shape[1:])


# --- searching ---------------------------------------------------------------------------------
def _check_sorter_range(s, n: int) -> None:
    """NumPy's "Sorter index out of range." for a concrete ``sorter`` with an entry outside
    ``[0, n)``; a traced sorter is not checked (its out-of-range entries are clamped)."""
    if isinstance(s, Tracer) or n == 0:
        return
    bad = lax.or_p.bind(lax.lt_p.bind(s, cast_v(0, get_aval(s).dtype)),
                                lax.ge_p.bind(s, cast_v(n, get_aval(s).dtype)))
    bad = lax.reduce_or_p.bind(bad, axes=(0,))
    if not isinstance(bad, Tracer) and bool(bad):      # staged under jit: not checked
        raise ValueError("Sorter index out of range.")


def searchsorted(a, v, side: str = "left", sorter: Any = None) -> ndarray:
    """Indices where ``v`` would be inserted into the sorted 1-d ``a`` to keep it sorted,
    as :func:`numpy.searchsorted` (int64, the shape of ``v``).

    ``a`` must be sorted in NumPy's order (NaN last), or ``sorter`` must sort it; a
    ``sorter`` index out of bounds is clamped instead of being undefined behaviour.
    """
    if not isinstance(side, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    av = strong_value(a)
    ndim = len(shape_of(av))
    if ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-d, got {ndim} dimensions (object "
                         f"{'too deep' if ndim > 1 else 'of too small depth'} for desired "
                         "array)")
    if sorter is not None:
        s = strong_value(sorter)
        sa = get_aval(s)
        if sa.dtype.kind not in "iu":
            raise TypeError(f"sorter must only contain integers, got {sa.dtype.name}")
        if sa.ndim != 1:
            raise TypeError(f"could not parse sorter argument (it must be 1-d, got shape "
                            f"{sa.shape})")
        if sa.size != shape_of(av)[0]:
            raise ValueError(f"sorter.size must equal a.size ({sa.size} != "
                             f"{shape_of(av)[0]})")
        _check_sorter_range(s, sa.size)
        av = take_v(av, s)
    return wrap(search_sorted_v(av, strong_value(v), right=side == "right"))
