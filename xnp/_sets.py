"""Set routines: unique (and the array API's unique_all, unique_counts, unique_inverse,
unique_values), isin, intersect1d, union1d, setdiff1d and setxor1d.

All are built from a stable sort, a mask of the wanted sorted positions, and a
*compaction*: a scatter of positions into ``size`` output slots followed by gathers. Their
output length depends on the values, so, as in JAX, each accepts ``size=`` (pad with
``fill_value`` or truncate to exactly ``size`` entries; then the function traces) and
``fill_value=`` (default: the first, i.e. smallest, result value, or 0 for an empty
result; indices and counts are padded with 0). Without ``size`` the length is read from
the concrete data, which raises ConcretizationTypeError under tracing.

Results are always sorted: ``unique(..., sorted=False)`` and the ``unique_*`` functions,
whose order NumPy leaves unspecified, return NumPy's sorted order.
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

import numpy as np

from transforms.core import CompositePrimitive, Tracer, concrete_or_error, get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._dtypes import is_inexact, result_dtype_of_avals
from xnp._sorting import (
    INDEX,
    SMALL_SEARCH,
    flatten_v,
    iota_v,
    search_sorted_v,
    sort_along_v,
    strong_value,
    take_v,
)
from xnp._util import cast_v, normalize_axis, raw, shape_of, where_v, wrap

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
           "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"]


class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


# --- building blocks on values ---------------------------------------------------------------
def _shift_pairs(v):
    """``(v[1:], v[:-1])`` of a 1-d value (both empty if ``v`` is)."""
    n = shape_of(v)[0]
    if not n:
        return v, v
    return (lax.slice_p.bind(v, start_indices=(1,), limit_indices=(n,)),
            lax.slice_p.bind(v, start_indices=(0,), limit_indices=(n - 1,)))


def _starts_mask(columns, n: int, equal_nan: bool):
    """For ``n`` sorted rows given as 1-d columns: True at the first row of each group of
    equal rows."""
    if n == 0:
        return np.zeros((0,), np.bool_)
    differs = np.zeros((n - 1,), np.bool_)     # no columns: all rows are equal
    for i, col in enumerate(columns):
        later, earlier = _shift_pairs(col)
        ne = lax.ne_p.bind(later, earlier)
        if equal_nan and is_inexact(get_aval(col).dtype):
            both_nan = lax.and_p.bind(lax.is_nan_p.bind(later), lax.is_nan_p.bind(earlier))
            ne = lax.and_p.bind(ne, lax.not_p.bind(both_nan))
        differs = ne if i == 0 else lax.or_p.bind(differs, ne)
    return lax.concatenate_p.bind(_TRUE1, differs, dimension=0)


_TRUE1 = np.ones((1,), np.bool_)


def _concat_v(*vs):
    return lax.concatenate_p.bind(*vs, dimension=0)


def _fit(v, size: int):
    """The first ``size`` entries of ``v`` along axis 0, zero-padded if it is shorter."""
    shape = shape_of(v)
    n = shape[0]
    if size == n:
        return v
    if size < n:
        return lax.slice_p.bind(v, start_indices=(0,) * len(shape),
                                limit_indices=(size, *shape[1:]))
    return _concat_v(v, np.zeros((size - n, *shape[1:]), get_aval(v).dtype))


def _compact(mask, operands, size, what: str, extra: int = 0):
    """The entries of the 1-d ``operands`` where ``mask`` is True, in order, in
    ``size + extra`` slots (a stable sort that brings the selected entries first).

    Returns ``(compacted operands, valid, size)``; ``valid`` marks the filled slots, and is
    None when every slot is filled (no ``size`` given and no ``extra`` slots).
    """
    if size is None:
        count = lax.reduce_sum_p.bind(cast_v(mask, INDEX), axes=(0,))
        size = int(concrete_or_error(
            count, f"{what} (its result size depends on the values; pass size= (and "
            "fill_value=) for a fixed-size result)"))
        padded = extra > 0
    else:
        size = _check_size(size, what)
        padded = True
    key, *ops = sort_along_v((lax.not_p.bind(mask), *operands), 0)
    slots = size + extra
    valid = _fit(lax.not_p.bind(key), slots) if padded else None
    return [_fit(op, slots) for op in ops], valid, size


def _check_size(size, what):
    value = concrete_or_error(raw(size), f"{what}: size")
    try:
        size = operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: size must be an integer, got {size!r}") from None
    if size < 0:
        raise ValueError(f"{what}: size must be >= 0, got {size}")
    return size


def _leading(mask, shape):
    """A 1-d mask broadcast along the leading axis of ``shape``."""
    if len(shape) == 1:
        return mask
    return lax.broadcast_in_dim_p.bind(mask, shape=tuple(shape), broadcast_dimensions=(0,))


def _padded(values, valid, fill_value):
    """Replace the padding slots of ``values`` (along axis 0) by ``fill_value``, by
    default the first slot (the smallest result value), or 0 if no slot is filled."""
    shape = shape_of(values)
    if valid is None or not shape[0]:
        return values
    dt = get_aval(values).dtype
    if fill_value is None:
        first = lax.slice_p.bind(values, start_indices=(0,) * len(shape),
                                 limit_indices=(1, *shape[1:]))
        any_valid = lax.slice_p.bind(valid, start_indices=(0,), limit_indices=(1,))
        fill = where_v(_leading(any_valid, shape_of(first)), first, cast_v(0, dt))
    else:
        fill = cast_v(raw(fill_value), dt)
    return where_v(_leading(valid, shape), values, fill)


def _zero_padded(indices, valid):
    return indices if valid is None else where_v(valid, indices, cast_v(0, INDEX))


def _sorted_with_perm(v1d, equal_nan=True):
    """Stable sort of a 1-d value, the sorting permutation and the group-start mask."""
    n = shape_of(v1d)[0]
    s, perm = sort_along_v((v1d, iota_v((n,))), 0)
    return s, perm, _starts_mask([s], n, equal_nan)


def _isin_v(element, test, test_sorted=False):
    """Whether each element equals a value of the 1-d ``test``."""
    eshape, m = shape_of(element), shape_of(test)[0]
    if m == 0:
        return np.zeros(eshape, np.bool_)
    if m * max(int(np.prod(eshape, dtype=np.int64)), 1) <= SMALL_SEARCH:
        column = lax.reshape_p.bind(element, new_sizes=(*eshape, 1)) if eshape else element
        return lax.reduce_or_p.bind(lax.eq_p.bind(column, test), axes=(len(eshape),))
    if not test_sorted:
        test = sort_along_v((test,), 0)[0]
    pos = search_sorted_v(test, element)
    return lax.eq_p.bind(take_v(test, lax.min_p.bind(pos, m - 1)), element)


def _common_1d(*arrays):
    """Flattened values cast to their common dtype (NumPy's concatenate rules)."""
    values = [raw(a) for a in arrays]
    dt = result_dtype_of_avals([get_aval(v) for v in values])
    return [flatten_v(cast_v(v, dt)) for v in values]


# --- unique ---------------------------------------------------------------------------------
def unique(ar, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           sorted: bool = True, size: int | None = None, fill_value: Any = None):
    """The sorted unique elements of an array, as :func:`numpy.unique`.

    Optionally also the index of the first occurrence of each unique value, the inverse
    indices (the shape of ``ar`` for ``axis=None``, 1-d otherwise, as NumPy 2) and the
    counts. With ``axis``, unique sub-arrays along that axis (rows holding NaN never
    compare equal, as in NumPy). ``sorted=False`` still sorts. ``size``/``fill_value``
    as in JAX (see the module docstring).
    """
    options = dict(return_index=bool(return_index), return_inverse=bool(return_inverse),
                   return_counts=bool(return_counts), axis=axis, equal_nan=bool(equal_nan))
    if size is None and fill_value is None:
        result = [wrap(r) for r in unique_p.bind(strong_value(ar), **options)]
        return result[0] if len(result) == 1 else tuple(result)
    return _unique_general(ar, **options, size=size, fill_value=fill_value)


def _unique_numpy(v, **options):
    out = np.unique(v, **options)
    return [np.asarray(r) for r in (out if isinstance(out, tuple) else (out,))]


def _unique_composite(v, **options):
    out = _unique_general(wrap(v), **options)
    return [raw(r) for r in (out if isinstance(out, tuple) else (out,))]


# Eagerly numpy.unique; under transformations (which need size=) the sort-and-compact
# composition.
unique_p = CompositePrimitive("unique", impl=_unique_numpy, expand=_unique_composite,
                              multiple_results=True)


def _unique_general(ar, return_index=False, return_inverse=False, return_counts=False,
                    axis=None, *, equal_nan=True, size=None, fill_value=None):
    """:func:`unique` through primitives (every case; the only one for traced inputs)."""
    v = strong_value(ar)
    shape = shape_of(v)
    if axis is None:
        flat = flatten_v(v)
        n = shape_of(flat)[0]
        sorted_values, perm, mask = _sorted_with_perm(flat, equal_nan)
        operands = [sorted_values, perm] if return_index else [sorted_values]
    else:
        if isinstance(axis, (tuple, list)):
            raise ValueError(f"unique: axis must be an integer or None, got {axis!r}")
        axis = normalize_axis(axis, len(shape))
        n = shape[axis]
        rows, columns = _rows_v(v, axis)
        perm = iota_v((n,))
        if columns:
            *columns, perm = sort_along_v((*columns, perm), 0, num_keys=len(columns))
        mask = _starts_mask(columns, n, equal_nan=False)
        operands = [perm]
    if return_counts:
        operands.append(iota_v((n,)))
    outs, valid, size = _compact(mask, operands, size, "xnp.unique",
                                   extra=int(return_counts))
    slot_valid = None if valid is None else _fit(valid, size)
    if axis is None:
        values = _fit(outs[0], size)
        first = _fit(outs[1], size) if return_index else None
    else:
        first = _fit(outs[0], size)
        values = take_v(rows, first)
    values = _padded(values, slot_valid, fill_value)
    if axis is not None:
        values = _unrows_v(values, shape, axis)
    result = [wrap(values)]
    if return_index:
        result.append(wrap(_zero_padded(first, slot_valid)))
    if return_inverse:
        ids = lax.sub_p.bind(lax.cumsum_p.bind(cast_v(mask, INDEX), axis=0), 1)
        inverse = sort_along_v((perm, ids), 0)[1]       # ids back in the original order
        result.append(wrap(lax.reshape_p.bind(inverse, new_sizes=shape)
                           if axis is None else inverse))
    if return_counts:
        # Counts are the distances between group starts (n after the last group).
        starts = where_v(valid, outs[-1], n)
        later, earlier = _shift_pairs(starts)
        result.append(wrap(lax.sub_p.bind(later, earlier)))
    return result[0] if len(result) == 1 else tuple(result)


def _rows_v(v, axis):
    """``v`` with ``axis`` moved first and the rest flattened: (rows array, its columns)."""
    shape = shape_of(v)
    perm = (axis, *(d for d in range(len(shape)) if d != axis))
    moved = lax.transpose_p.bind(v, permutation=perm)
    n, m = shape[axis], int(np.prod([shape[d] for d in perm[1:]], dtype=np.int64))
    rows = lax.reshape_p.bind(moved, new_sizes=(n, m))
    cols = lax.transpose_p.bind(rows, permutation=(1, 0))
    columns = [lax.reshape_p.bind(lax.slice_p.bind(cols, start_indices=(j, 0),
                                                   limit_indices=(j + 1, n)),
                                  new_sizes=(n,)) for j in range(m)]
    return rows, columns


def _unrows_v(rows, shape, axis):
    """Undo :func:`_rows_v` for ``k`` rows: back to ``shape`` with ``k`` along ``axis``."""
    k = shape_of(rows)[0]
    rest = [shape[d] for d in range(len(shape)) if d != axis]
    moved = lax.reshape_p.bind(rows, new_sizes=(k, *rest))
    back = list(range(1, len(shape)))
    back.insert(axis, 0)
    return lax.transpose_p.bind(moved, permutation=tuple(back))


def unique_values(x, /, *, size: int | None = None, fill_value: Any = None) -> ndarray:
    """The unique values of ``x`` (array API); NaNs are all distinct. Sorted in xnp."""
    return unique(x, equal_nan=False, size=size, fill_value=fill_value)


def unique_counts(x, /, *, size: int | None = None,
                  fill_value: Any = None) -> UniqueCountsResult:
    """Unique values and their counts (array API); NaNs are all distinct."""
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False, size=size,
                                      fill_value=fill_value))


def unique_inverse(x, /, *, size: int | None = None,
                   fill_value: Any = None) -> UniqueInverseResult:
    """Unique values and the inverse indices, shaped as ``x`` (array API)."""
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False, size=size,
                                       fill_value=fill_value))


def unique_all(x, /, *, size: int | None = None, fill_value: Any = None) -> UniqueAllResult:
    """Unique values, first indices, inverse indices and counts (array API)."""
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True, equal_nan=False, size=size,
                                   fill_value=fill_value))


# --- membership and set operations -------------------------------------------------------------
def _check_isin_kind(kind, element, test):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {str(kind)!r}. Please use None, 'sort' or 'table'.")
    if kind == "table" and any(get_aval(v).dtype.kind not in "biu" for v in (element, test)):
        raise ValueError("The 'table' method is only supported for boolean or integer "
                         "arrays. Please select 'sort' or None for kind.")
    t = get_aval(test)
    if kind == "table" and t.dtype.kind in "iu" and t.size and not isinstance(test, Tracer):
        # NumPy's table holds test - min(test) in test's dtype, which must not overflow.
        axes = tuple(range(t.ndim))
        span = (int(lax.reduce_max_p.bind(test, axes=axes))
                - int(lax.reduce_min_p.bind(test, axes=axes)))
        if span > np.iinfo(t.dtype).max:
            raise RuntimeError("You have specified kind='table', but the range of values in "
                               "`ar2` or `ar1` exceed the maximum integer of the datatype. "
                               "Please set `kind` to None or 'sort'.")


def isin(element, test_elements, assume_unique: bool = False, invert: bool = False, *,
         kind: str | None = None) -> ndarray:
    """Whether each element of ``element`` occurs in ``test_elements``, as
    :func:`numpy.isin` (bool, the shape of ``element``). ``kind`` is validated; the
    result is computed by comparing all pairs (small inputs) or by sorting
    ``test_elements`` and a binary search."""
    ev, tv = strong_value(element), strong_value(test_elements)
    _check_isin_kind(kind, ev, tv)
    found = _isin_v(ev, flatten_v(tv))
    found = lax.not_p.bind(found) if invert else found
    return wrap(np.asarray(found) if isinstance(found, np.generic) else found)  # 0-d too


def intersect1d(ar1, ar2, assume_unique: bool = False, return_indices: bool = False, *,
                size: int | None = None, fill_value: Any = None):
    """The sorted values in both arrays, as :func:`numpy.intersect1d`, optionally with
    the indices of their first occurrences in the flattened ``ar1`` and ``ar2``."""
    a1, a2 = _common_1d(strong_value(ar1), strong_value(ar2))
    n1, n2 = shape_of(a1)[0], shape_of(a2)[0]
    if assume_unique:
        # NumPy's algorithm: adjacent equal values in the sorted concatenation.
        aux, perm = sort_along_v((_concat_v(a1, a2), iota_v((n1 + n2,))), 0)
        later, earlier = _shift_pairs(aux)
        keep = lax.eq_p.bind(later, earlier)
        perm_later, perm_earlier = _shift_pairs(perm)
        (values, i1, i2), valid, size = _compact(
            keep, [earlier, perm_earlier, perm_later], size, "xnp.intersect1d")
        i2 = lax.sub_p.bind(i2, n1)
    else:
        s1, p1, m1 = _sorted_with_perm(a1)
        s2, p2 = sort_along_v((a2, iota_v((n2,))), 0)
        keep = lax.and_p.bind(m1, _isin_v(s1, s2, test_sorted=True))
        (values, i1), valid, size = _compact(keep, [s1, p1], size, "xnp.intersect1d")
        i2 = take_v(p2, search_sorted_v(s2, values)) if return_indices else None
    values = wrap(_padded(values, valid, fill_value))
    if not return_indices:
        return values
    return values, wrap(_zero_padded(i1, valid)), wrap(_zero_padded(i2, valid))


def union1d(ar1, ar2, *, size: int | None = None, fill_value: Any = None) -> ndarray:
    """The sorted unique values in either array, as :func:`numpy.union1d`."""
    return unique(wrap(_concat_v(*_common_1d(ar1, ar2))), size=size, fill_value=fill_value)


def setdiff1d(ar1, ar2, assume_unique: bool = False, *, size: int | None = None,
              fill_value: Any = None) -> ndarray:
    """The values of ``ar1`` not in ``ar2``, as :func:`numpy.setdiff1d` (sorted and unique
    unless ``assume_unique``, in which case ``ar1``'s order is kept); ``ar1``'s dtype."""
    a1 = flatten_v(strong_value(ar1))
    if assume_unique:
        candidates, starts = a1, None
    else:
        candidates, _, starts = _sorted_with_perm(a1)
    keep = lax.not_p.bind(_isin_v(candidates, flatten_v(strong_value(ar2))))
    if starts is not None:
        keep = lax.and_p.bind(starts, keep)
    (values,), valid, _ = _compact(keep, [candidates], size, "xnp.setdiff1d")
    return wrap(_padded(values, valid, fill_value))


def setxor1d(ar1, ar2, assume_unique: bool = False, *, size: int | None = None,
             fill_value: Any = None) -> ndarray:
    """The sorted values in exactly one of the arrays, as :func:`numpy.setxor1d`."""
    if assume_unique:   # NumPy concatenates the inputs as given: Python scalars are weak
        a1, a2 = _common_1d(ar1, ar2)
        aux = sort_along_v((_concat_v(a1, a2),), 0)[0]
        ok = np.ones(shape_of(aux), np.bool_)
    else:
        # Only the first of each group of duplicates in either array takes part: sort
        # those first (by the key "not taking part", then by value).
        # each array's duplicates in its own dtype, as NumPy's unique before concatenate
        # (int64 and uint64 values meet as float64, where distinct ones may coincide)
        v1, v2 = (flatten_v(strong_value(a)) for a in (ar1, ar2))
        (s1, _, m1), (s2, _, m2) = _sorted_with_perm(v1), _sorted_with_perm(v2)
        s1, s2 = _common_1d(s1, s2)
        left_out = lax.not_p.bind(_concat_v(m1, m2))
        left_out, aux = sort_along_v((left_out, _concat_v(s1, s2)), 0, num_keys=2)
        ok = lax.not_p.bind(left_out)
    (values,), valid, _ = _compact(_xor_keep(aux, ok), [aux], size, "xnp.setxor1d")
    return wrap(_padded(values, valid, fill_value))


def _xor_keep(aux, ok):
    """Positions of the sorted ``aux`` (taking part where ``ok``, a prefix) whose value
    differs from both neighbours taking part."""
    if not shape_of(aux)[0]:
        return ok
    later, earlier = _shift_pairs(aux)
    ne = lax.ne_p.bind(later, earlier)
    next_ok = _concat_v(_shift_pairs(ok)[0], np.zeros((1,), np.bool_))
    differs_prev = _concat_v(_TRUE1, ne)
    differs_next = lax.or_p.bind(_concat_v(ne, _TRUE1), lax.not_p.bind(next_ok))
    return lax.and_p.bind(ok, lax.and_p.bind(differs_prev, differs_next))
