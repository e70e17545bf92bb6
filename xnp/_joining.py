"""Joining and splitting arrays: concatenate, stack and friends, split, block, append,
insert, delete and trim_zeros (re-exported by ``xnp._manipulation``).

Joins promote their operands to NumPy's result dtype before binding ``concatenate`` (whose
operands must share a dtype). Index arguments (split points, insert/delete positions) are
static: concrete values are required, as they decide the output shapes.
"""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer, concrete_or_error, is_eager
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._creation import _traced_int
from xnp._dtypes import can_cast, result_type
from xnp._eager_numpy import native_arrays
from xnp._shapes import (
    atleast_v,
    concat_v,
    flatten_v,
    shape_v,
    slice_axis_v,
    take_static_v,
    transpose_v,
    value,
    value_as,
)
from xnp._util import (
    broadcast_to_v,
    dtype_of,
    normalize_axis,
    normalize_axis_tuple,
    raw,
    truth_v,
    user_cast_v,
)
from xnp._views import store_through
from xnp._writeable import check_writeable

__all__ = [
    "concatenate", "concat", "stack", "unstack", "hstack", "vstack", "dstack",
    "column_stack", "split", "array_split", "hsplit", "vsplit", "dsplit", "block",
    "append", "insert", "delete", "trim_zeros",
]


# --- joining ----------------------------------------------------------------------------------
_MAX_ARRAYS = 2**31 - 1                # NumPy's limit on the arrays one call joins


def _items(arrays) -> list:
    """The values of a sequence of arrays; an array counts as the sequence of its rows."""
    if isinstance(arrays, (ndarray, np.ndarray, Tracer)):
        v = raw(arrays)
        if not shape_v(v):
            raise ValueError("zero-dimensional arrays cannot be concatenated")
        return [raw(row) for row in unstack(wrap(v))]
    if not hasattr(arrays, "__getitem__"):
        raise TypeError("arrays to stack must be passed as a \"sequence\" type such as list "
                        "or tuple.")
    return [raw(a) for a in arrays]


def _join_dtype(values, dtype, casting: str, out=None):
    if dtype is None:
        dt = result_type(*values) if out is None else out.dtype
        if casting in ("same_kind", "unsafe") and out is None:
            return dt
    else:
        dt = np.dtype(dtype)
    for v in values:
        src = dtype_of(v)
        if not can_cast(src, dt, casting):
            raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to "
                            f"the rule {casting!r}")
    return dt


def _numpy_joins(values: list, dtype, casting: str) -> bool:
    """Whether NumPy's own joining function gives what the primitives compute: the common
    eager call, on native numeric NumPy values with NumPy's default dtype and casting
    (NumPy then also raises its own errors)."""
    return dtype is None and casting == "same_kind" and len(values) > 1 and is_eager() and \
        all(type(v) is np.ndarray and v.ndim and v.dtype.isnative and
            v.dtype.kind in "biufc" for v in values)


# NumPy's functions without their __array_function__ dispatch step (for its own arrays)
_numpy_concatenate = getattr(np.concatenate, "_implementation", np.concatenate)
_numpy_stack = getattr(np.stack, "_implementation", np.stack)


def concatenate_v(values: list, axis, dt):
    """Concatenate raw values along ``axis`` (None: flattened) after casting to ``dt``."""
    if not values:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        values = [flatten_v(v) for v in values]
        axis = 0
    shapes = [shape_v(v) for v in values]
    nd = len(shapes[0])
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, nd)
    for i, s in enumerate(shapes[1:], 1):
        if len(s) != nd:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array "
                f"at index 0 has {nd} dimension(s) and the array at index {i} has "
                f"{len(s)} dimension(s)")
        for d in range(nd):
            if d != axis and s[d] != shapes[0][d]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis "
                    f"must match exactly, but along dimension {d}, the array at index 0 "
                    f"has size {shapes[0][d]} and the array at index {i} has size {s[d]}")
    values = [user_cast_v(v, dt) for v in values]     # NumPy's cast warnings
    if len(values) == 1:
        return lax.copy_p.bind(values[0])
    return concat_v(values, axis)


def _to_out(result, out, what: str):
    if out is None:
        return wrap(result)
    if type(out) is not ndarray:
        raise TypeError(f"{what}: out must be an xnp array, got {type(out).__name__}")
    if out.shape != shape_v(result):
        raise ValueError(f"Output array is the wrong shape: {out.shape} for a result of "
                         f"shape {shape_v(result)}")
    check_writeable(out, "output array")
    store_through(out, user_cast_v(result, out.dtype))
    return out


def concatenate(arrays, /, axis=0, out=None, *, dtype=None,
                casting: str = "same_kind") -> ndarray:
    """Join arrays along an existing axis (flattened first if ``axis`` is None).

    The result dtype is NumPy's promotion of the inputs (Python scalars weakly typed, as
    in NumPy), or ``dtype``; inputs must cast to it under ``casting``.
    """
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    if type(arrays) in (list, tuple) and len(arrays) > _MAX_ARRAYS:
        raise ValueError(f"concatenate() only supports up to {_MAX_ARRAYS} arrays but got "
                         f"{len(arrays)}.")
    if out is None and dtype is None and casting == "same_kind":
        values = native_arrays(arrays)      # (the common call, checked cheaply first)
        if values is not None:
            return wrap(_numpy_concatenate(values, axis=axis))
    values = _items(arrays)
    if not values:
        raise ValueError("need at least one array to concatenate")
    if out is None and _numpy_joins(values, dtype, casting):
        return wrap(_numpy_concatenate(values, axis=axis))
    dt = _join_dtype(values, dtype, casting, out)
    return _to_out(concatenate_v(values, axis, dt), out, "concatenate")


def concat(arrays, /, axis=0, out=None, *, dtype=None, casting: str = "same_kind"):
    """Array API name of :func:`concatenate`."""
    return concatenate(arrays, axis, out, dtype=dtype, casting=casting)


def stack(arrays, axis: int = 0, out=None, *, dtype=None,
          casting: str = "same_kind") -> ndarray:
    """Join arrays of one shape along a new axis."""
    if out is not None and dtype is not None:
        raise TypeError("stack() only takes `out` or `dtype` as an argument, but both were "
                        "provided.")
    if out is None and dtype is None and casting == "same_kind":
        values = native_arrays(arrays)      # (the common call, checked cheaply first)
        if values is not None:
            return wrap(_numpy_stack(values, axis=axis))
    values = [value(v) for v in _items(arrays)]
    if not values:
        raise ValueError("need at least one array to stack")
    if out is None and _numpy_joins(values, dtype, casting):
        return wrap(_numpy_stack(values, axis=axis))
    shape = shape_v(values[0])
    if any(shape_v(v) != shape for v in values[1:]):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(axis, len(shape) + 1)
    new = (*shape[:axis], 1, *shape[axis:])
    dt = _join_dtype(values, dtype, casting, out)
    values = [lax.reshape_p.bind(v, new_sizes=new) for v in values]
    return _to_out(concatenate_v(values, axis, dt), out, "stack")


def unstack(x, /, *, axis: int = 0) -> tuple:
    """Split an array into the tuple of its slices along ``axis`` (removing it)."""
    v = value(x)
    shape = shape_v(v)
    if not shape:
        raise ValueError("Input array must be at least 1-d.")
    axis = normalize_axis(axis, len(shape))
    if type(x) is ndarray:      # views of ``x`` (integer indexes), as NumPy's
        lead = (slice(None),) * axis
        return tuple(x[lead + (i,)] for i in range(shape[axis]))
    rest = shape[:axis] + shape[axis + 1:]
    return tuple(wrap(lax.reshape_p.bind(slice_axis_v(v, axis, i, i + 1), new_sizes=rest))
                 for i in range(shape[axis]))


def _stack_values(tup, ndim):
    return [atleast_v(value(v), ndim) for v in _items(tup)]


def hstack(tup, *, dtype=None, casting: str = "same_kind") -> ndarray:
    """Stack horizontally: along axis 1, or axis 0 for 1-d inputs."""
    values = _stack_values(tup, 1)
    if not values:
        raise ValueError("need at least one array to concatenate")
    axis = 0 if len(shape_v(values[0])) == 1 else 1
    if _numpy_joins(values, dtype, casting):
        return wrap(_numpy_concatenate(values, axis=axis))
    return wrap(concatenate_v(values, axis, _join_dtype(values, dtype, casting)))


def vstack(tup, *, dtype=None, casting: str = "same_kind") -> ndarray:
    """Stack vertically (along axis 0) after making inputs at least 2-d."""
    values = _stack_values(tup, 2)
    if not values:
        raise ValueError("need at least one array to concatenate")
    if _numpy_joins(values, dtype, casting):
        return wrap(_numpy_concatenate(values, axis=0))
    return wrap(concatenate_v(values, 0, _join_dtype(values, dtype, casting)))


def dstack(tup) -> ndarray:
    """Stack along the third axis after making inputs at least 3-d (``(n,)`` becomes
    ``(1, n, 1)``)."""
    from xnp._manipulation import atleast_3d
    values = [raw(atleast_3d(wrap(value(v)))) for v in _items(tup)]
    if not values:
        raise ValueError("need at least one array to concatenate")
    return wrap(concatenate_v(values, 2, result_type(*values)))


def column_stack(tup) -> ndarray:
    """Stack 1-d arrays as columns of a 2-d array (2-d inputs as they are)."""
    values = []
    for v in _items(tup):
        v = value(v)
        if len(shape_v(v)) < 2:
            v = transpose_v(atleast_v(v, 2), None)
        values.append(v)
    if not values:
        raise ValueError("need at least one array to concatenate")
    return wrap(concatenate_v(values, 1, result_type(*values)))


# --- splitting --------------------------------------------------------------------------------
def array_split(ary, indices_or_sections, axis: int = 0) -> list:
    """Split into sub-arrays along ``axis``: ``n`` sections of sizes differing by at most
    one (the first ones larger), or at the given indices (as Python slices would)."""
    v = value(ary)
    shape = shape_v(v)
    total = shape[axis]          # IndexError for a bad axis, as in NumPy
    axis = axis % len(shape)
    points = _split_points(indices_or_sections, total)
    pieces = []
    lead = (slice(None),) * axis
    for start, stop in zip(points[:-1], points[1:]):
        start, stop, _ = slice(start, stop).indices(total)
        if type(ary) is ndarray:    # views of ``ary`` (basic slices), as NumPy's pieces
            pieces.append(ary[lead + (slice(start, max(start, stop)),)])
        else:
            pieces.append(wrap(slice_axis_v(v, axis, start, max(start, stop))))
    return pieces


def _split_points(spec, total: int) -> list:
    if isinstance(spec, (ndarray, Tracer)):
        spec = np.asarray(concrete_or_error(spec, "xnp.split (indices_or_sections)"))
    try:
        return [0, *(int(i) if isinstance(i, (np.integer, ndarray)) else i for i in spec),
                total]
    except TypeError:
        sections = int(spec)
    if sections <= 0:
        raise ValueError("number sections must be larger than 0.")
    each, extras = divmod(total, sections)
    sizes = [each + 1] * extras + [each] * (sections - extras)
    return [0, *np.cumsum(sizes).tolist()]


def split(ary, indices_or_sections, axis: int = 0) -> list:
    """Split into equal sections (a ValueError if they cannot be equal) or at indices."""
    try:
        len(indices_or_sections)
    except TypeError:
        spec = indices_or_sections
        if isinstance(spec, (ndarray, Tracer)):
            spec = np.asarray(concrete_or_error(spec, "xnp.split")).item()
        if shape_v(value(ary))[axis] % spec:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def _split_nd(ary, spec, axis, min_ndim, name):
    nd = len(shape_v(value(ary)))
    if nd < min_ndim:
        raise ValueError(f"{name} only works on arrays of {min_ndim} or more dimensions")
    return split(ary, spec, axis if nd > 1 or name != "hsplit" else 0)


def hsplit(ary, indices_or_sections) -> list:
    """Split along axis 1 (axis 0 for 1-d arrays)."""
    return _split_nd(ary, indices_or_sections, 1, 1, "hsplit")


def vsplit(ary, indices_or_sections) -> list:
    """Split along axis 0 (arrays of at least 2 dimensions)."""
    return _split_nd(ary, indices_or_sections, 0, 2, "vsplit")


def dsplit(ary, indices_or_sections) -> list:
    """Split along axis 2 (arrays of at least 3 dimensions)."""
    return _split_nd(ary, indices_or_sections, 2, 3, "dsplit")


# --- block ----------------------------------------------------------------------------------------
def _index_str(index) -> str:
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_depths(arrays, index=()):
    """(index of the first bottom element, the largest array ndim) of a block nesting."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_index_str(index)} is a tuple. Only lists can be used to arrange "
                        "blocks, and np.block does not allow implicit conversion from tuple "
                        "to ndarray.")
    if isinstance(arrays, list) and arrays:
        results = [_block_depths(a, (*index, i)) for i, a in enumerate(arrays)]
        first, max_nd = results[0]
        for idx, nd in results[1:]:
            max_nd = max(max_nd, nd)
            if len(idx) != len(first):
                raise ValueError(
                    f"List depths are mismatched. First element was at depth {len(first)}, "
                    f"but there is an element at depth {len(idx)} ({_index_str(idx)})")
            if idx[-1] is None:
                first = idx
        return first, max_nd
    if isinstance(arrays, list):
        return (*index, None), 0
    return index, len(shape_v(raw(arrays)))


def _block(arrays, depth: int, max_depth: int, ndim: int):
    if depth < max_depth:
        parts = [_block(a, depth + 1, max_depth, ndim) for a in arrays]
        return concatenate_v(parts, ndim - (max_depth - depth), result_type(*parts))
    return atleast_v(value(arrays), ndim)


def block(arrays) -> ndarray:
    """Assemble an array from nested lists of blocks: the innermost lists are joined along
    the last axis, the next along the second last, and so on."""
    bottom, arr_nd = _block_depths(arrays)
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_index_str(bottom)} cannot be empty")
    depth = len(bottom)
    ndim = max(arr_nd, depth)
    out = _block(arrays, 0, depth, ndim)
    return wrap(out if depth else lax.copy_p.bind(out))


# --- append, insert, delete -------------------------------------------------------------------
def _flat_or_axis(arr, axis):
    v = value(arr)
    if axis is None:
        if len(shape_v(v)) != 1:
            v = flatten_v(v)
        return v, 0
    return v, normalize_axis(axis, len(shape_v(v)))


def append(arr, values, axis=None) -> ndarray:
    """``arr`` with ``values`` appended along ``axis`` (both flattened if it is None)."""
    v = value(arr)
    w = value(values)
    if axis is None:
        v = flatten_v(v)
        w = flatten_v(w)
        axis = 0
    return wrap(concatenate_v([v, w], axis, result_type(v, w)))


def _static_index(obj, what: str) -> np.ndarray:
    if isinstance(obj, (ndarray, Tracer)):
        return np.asarray(concrete_or_error(obj, f"xnp.{what} (obj)"))
    return np.asarray(obj)


def delete(arr, obj, axis=None) -> ndarray:
    """``arr`` without the entries ``obj`` (an int, slice, index list or boolean mask)
    along ``axis`` (of the flattened array if it is None). ``obj`` must be concrete."""
    v, axis = _flat_or_axis(arr, axis)
    n = shape_v(v)[axis]
    keep = np.ones(n, bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        idx = _static_index(obj, "delete")
        if idx.dtype == bool:
            if idx.shape != (n,):
                raise ValueError("boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {n}")
            keep = ~idx
        else:
            if idx.size == 0 and not isinstance(obj, (np.ndarray, ndarray, Tracer)):
                idx = idx.astype(np.intp)     # [] is an empty index list; float arrays raise
            if idx.dtype.kind not in "iu":
                raise IndexError("arrays used as indices must be of integer (or boolean) "
                                 "type")
            bad = idx[(idx < -n) | (idx >= n)]
            if bad.size:
                raise IndexError(f"index {bad.flat[0]} is out of bounds for axis {axis} "
                                 f"with size {n}")
            keep[idx] = False
    if keep.all():
        return wrap(lax.copy_p.bind(v))
    return wrap(take_static_v(v, np.flatnonzero(keep), axis))


def insert(arr, obj, values, axis=None) -> ndarray:
    """``arr`` with ``values`` inserted before the indices ``obj`` along ``axis`` (of the
    flattened array if it is None), following NumPy's broadcasting rules for a scalar
    index and for index sequences. ``obj`` must be concrete."""
    v, axis = _flat_or_axis(arr, axis)
    shape = shape_v(v)
    n = shape[axis]
    dt = dtype_of(v)
    if isinstance(obj, slice):
        idx = np.arange(*obj.indices(n), dtype=np.intp)
    elif _traced_int(obj):       # under jit, as JAX allows (clamped to [-n, n])
        return wrap(_insert_one(v, axis, None, raw(obj), value_as(values, dt)))
    else:
        idx = _static_index(obj, "insert")
        if idx.dtype == bool:
            if idx.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one "
                                 "dimensional")
            idx = np.flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional "
                             "or scalar")
    w = value_as(values, dt)
    if idx.size == 1:
        return wrap(_insert_one(v, axis, idx, obj, w))
    if idx.size == 0 and not isinstance(obj, (np.ndarray, ndarray, Tracer)):
        idx = idx.astype(np.intp)
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    idx = np.where(idx < 0, idx + n, idx)
    k = len(idx)
    order = np.argsort(idx, kind="stable")
    idx[order] += np.arange(k)
    new_len = n + k
    bad = idx[(idx < -new_len) | (idx >= new_len)]
    if bad.size:
        raise IndexError(f"index {bad[0]} is out of bounds for axis {axis} with size "
                         f"{new_len}")
    target = (*shape[:axis], k, *shape[axis + 1:])
    try:
        w = _assignable(w, target, fancy=True)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {shape_v(w)} could not be "
                         f"broadcast to indexing result of shape {target}") from None
    if not k:
        return wrap(lax.copy_p.bind(v))
    source = np.empty(new_len, np.int64)
    is_new = np.zeros(new_len, bool)
    is_new[idx] = True
    source[idx] = n + np.arange(k)
    source[~is_new] = np.arange(n)
    return wrap(take_static_v(concat_v([v, w], axis), source, axis))


def _assignable(w, target, fancy: bool = False):
    """``w`` broadcast to ``target`` as an assignment does: leading size-1 axes beyond
    the target's rank are dropped first (any leading axes, for an assignment through an
    index array when the rest of ``w`` is empty)."""
    shape = shape_v(w)
    extra = len(shape) - len(target)
    rest = shape[extra:]
    if extra > 0 and (all(d == 1 for d in shape[:extra]) or fancy and 0 in rest):
        if 0 in rest:
            return broadcast_to_v(lax.broadcast_in_dim_p.bind(
                np.zeros((), dtype_of(w)), shape=rest, broadcast_dimensions=()), target)
        w = lax.reshape_p.bind(w, new_sizes=rest)
    return broadcast_to_v(w, target)


def _insert_one(v, axis, idx, obj, w):
    """``w`` inserted before one index: ``idx`` (a NumPy array, from ``obj``), or None
    with ``obj`` a traced integer."""
    shape = shape_v(v)
    n = shape[axis]
    if idx is not None:
        if idx.dtype.kind not in "iu":   # NumPy slices with the index
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
        index = int(idx.reshape(()) if idx.ndim == 0 else idx[0])
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        index = index + n if index < 0 else index
    w = atleast_v(w, len(shape))
    if idx is None or idx.ndim == 0:
        # a scalar index inserts `values` as a whole along the axis (a[:, 0:1] = values)
        wnd = len(shape_v(w))
        w = transpose_v(w, [*range(1, axis + 1), 0, *range(axis + 1, wnd)])
    k = shape_v(w)[axis]
    target = (*shape[:axis], k, *shape[axis + 1:])
    try:
        w = _assignable(w, target)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {shape_v(w)} into "
                         f"shape {target}") from None
    if idx is None:                     # position p of the result reads source[p]
        from xnp._indexing_funcs import take
        i = lax.convert_element_type_p.bind(obj, new_dtype=np.dtype(np.int64), weak_type=False)
        i = lax.clamp_p.bind(np.int64(0), lax.select_n_p.bind(
            lax.lt_p.bind(i, np.int64(0)), i, lax.add_p.bind(i, np.int64(n))), np.int64(n))
        p = np.arange(n + k)
        source = lax.select_n_p.bind(lax.lt_p.bind(p, i), lax.select_n_p.bind(
            lax.lt_p.bind(p, lax.add_p.bind(i, np.int64(k))), p - k,
            lax.add_p.bind(lax.sub_p.bind(p, i), np.int64(n))), p)
        return raw(take(wrap(concat_v([v, w], axis)), wrap(source), axis=axis))
    parts = [slice_axis_v(v, axis, 0, index), w, slice_axis_v(v, axis, index, n)]
    return concat_v([p for p in parts if shape_v(p)[axis] or p is w], axis)


# --- trim_zeros ---------------------------------------------------------------------------------
def trim_zeros(filt, trim: str = "fb", axis=None) -> ndarray:
    """Remove the leading (``'f'``) and/or trailing (``'b'``) zeros along ``axis`` (all
    axes by default: the bounding box of the non-zeros).

    The output shape depends on the values, which must therefore be concrete.
    """
    v = value(filt)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    shape = shape_v(v)
    axes = normalize_axis_tuple(axis, len(shape))
    if not axes:
        return wrap(v)
    nonzero = truth_v(v)
    bounds = _nonzero_bounds(nonzero, shape)
    starts, stops = [0] * len(shape), list(shape)
    for ax in axes:
        first, last = bounds[ax] if bounds else (0, -1)
        if not bounds or "f" in trim:
            starts[ax] = first
        if not bounds or "b" in trim:
            stops[ax] = last + 1
    stops = [max(a, b) for a, b in zip(starts, stops)]
    if type(filt) is list and len(shape) == 1:     # NumPy trims a list to a list
        return filt[starts[0]:stops[0]]
    return wrap(lax.slice_p.bind(v, start_indices=tuple(starts), limit_indices=tuple(stops)))


def _nonzero_bounds(nonzero, shape):
    """Per axis, the first and last index holding a non-zero (None if there is none)."""
    if 0 in shape:
        return None
    out = []
    for ax, n in enumerate(shape):
        others = tuple(d for d in range(len(shape)) if d != ax)
        line = lax.reduce_or_p.bind(nonzero, axes=others) if others else nonzero
        first = lax.argmax_p.bind(line, axis=0, index_dtype=np.dtype(np.int64))
        back = lax.argmax_p.bind(lax.rev_p.bind(line, dimensions=(0,)), axis=0,
                                 index_dtype=np.dtype(np.int64))
        anyv = lax.reduce_or_p.bind(line, axes=(0,))
        if not concrete_or_error(anyv, "xnp.trim_zeros"):
            return None
        first = int(concrete_or_error(first, "xnp.trim_zeros"))
        out.append((first, n - 1 - int(concrete_or_error(back, "xnp.trim_zeros"))))
    return out
