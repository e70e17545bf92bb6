"""NumPy indexing of xnp arrays: ``x[key]`` (assignment and ``x.at`` live in
:mod:`xnp._index_update`).

A key is parsed once into one entry per dimension (Ellipsis expanded, boolean masks
turned into integer index arrays). Basic keys (integers, slices, None) become static
``slice``/``rev``/``reshape`` primitives, with ``dynamic_slice`` for traced scalar
integers; keys with index arrays become one ``gather`` after the slices are applied.

Differences from NumPy: out-of-bounds *traced* indices cannot raise; they are clamped
(``mode="clip"``) unless ``x.at[...]`` is given ``mode="fill"``/``"drop"``. Boolean masks
must be concrete, except for a single mask in an update whose value broadcasts over the
unmasked axes (``x[mask] = 0``, ``x.at[mask].add(v)``).
"""

from __future__ import annotations

import operator

import numpy as np

from transforms.core import Tracer, concrete_or_error, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._index_eager import index_p, numpy_key
from xnp._util import broadcast_to_v, cast_v, full_v, raw, shape_of
from xnp.lax._base import broadcast_shapes_cached

__all__: list = []

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
          "integer or boolean arrays are valid indices")
_MASK_WHAT = ("Boolean mask indexing x[mask] (its result shape depends on the mask's "
              "values; use xnp.where(mask, x, other), or xnp.nonzero(mask, size=n) to get "
              "a fixed number of indices)")
_I64 = np.dtype(np.int64)
_MODES = (None, "clip", "fill", "drop", "promise_in_bounds")
_FLAT_SCATTER = lax.ScatterDimensionNumbers(
    update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


# --- parsing ------------------------------------------------------------------------------
def _classify(item):
    """(kind, payload) of one key item; kinds: new, ellipsis, int, slice, array, mask."""
    if item is None:
        return "new", None
    if item is Ellipsis:
        return "ellipsis", None
    t = type(item)
    if t is int:
        return "int", item
    if t is slice:
        return "slice", item
    if t is bool or t is np.bool_:
        return "mask", np.asarray(item)
    if isinstance(item, np.integer):
        return "int", int(item)
    v = item._value if t is ndarray else item
    if isinstance(v, (list, tuple, range)):
        v = _sequence_index(v)
    elif not isinstance(v, (np.ndarray, np.generic, Tracer)):
        if hasattr(item, "__index__") and not isinstance(item, float):
            return "int", operator.index(item)
        if not hasattr(item, "__array__"):
            raise IndexError(_VALID)
        v = raw(item)    # an array-like object indexes as its array
    aval = get_aval(v)
    kind = aval.dtype.kind
    if kind == "b":
        return "mask", np.asarray(concrete_or_error(v, _MASK_WHAT))
    if kind not in "iu":
        raise IndexError(_VALID if aval.ndim == 0 and not isinstance(v, Tracer) else
                         "arrays used as indices must be of integer (or boolean) type")
    if aval.ndim == 0:
        return "int", v if isinstance(v, Tracer) else int(v)
    return "array", v


def _sequence_index(seq):
    try:
        v = raw(list(seq))
    except (TypeError, ValueError):
        raise IndexError(_VALID) from None
    if isinstance(v, np.ndarray) and v.size == 0 and v.dtype.kind == "f":
        v = v.astype(np.int64)   # [] indexes with intp, as in NumPy
    return v


def _parse(key, shape: tuple):
    """Entries (kind, payload, axis of x or None), one per dimension of the expanded key
    (every axis of x once, plus the new axes), and whether any index is advanced."""
    entries, advanced, _ = _parse_split(key, shape)
    return entries, advanced


def _parse_split(key, shape: tuple):
    """:func:`_parse`, and whether an Ellipsis of no axes stands between integer or array
    indices: NumPy then counts them as not adjacent (the result's indexed axes go first)."""
    items = key if isinstance(key, tuple) else (key,)
    parsed = []
    consumed = 0
    seen_ellipsis = False
    for item in items:
        kind, payload = _classify(item)
        if kind == "ellipsis":
            if seen_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            seen_ellipsis = True
        elif kind == "mask":
            consumed += payload.ndim
        elif kind != "new":
            consumed += 1
        parsed.append((kind, payload))
    ndim = len(shape)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but "
                         f"{consumed} were indexed")
    if ndim + len(parsed) > 64:        # (only then can new axes pass NumPy's limit)
        result_ndim = ndim + sum(k == "new" for k, _ in parsed) - \
            sum(k == "int" for k, _ in parsed)
        if result_ndim > 64:
            raise IndexError(f"number of dimensions must be within [0, 64], indexing "
                             f"result would have {result_ndim}")
    entries = []
    axis = 0
    advanced = False
    for kind, payload in parsed:
        if kind == "ellipsis":
            for _ in range(ndim - consumed):
                entries.append(("slice", slice(None), axis))
                axis += 1
        elif kind == "new":
            entries.append(("new", None, None))
        elif kind == "mask":
            advanced = True
            axis = _add_mask(entries, payload, shape, axis)
        else:
            advanced = advanced or kind == "array"
            entries.append((kind, payload, axis))
            axis += 1
    entries.extend(("slice", slice(None), a) for a in range(axis, ndim))
    split = False
    if seen_ellipsis and ndim == consumed and advanced:
        kinds = [kind for kind, _ in parsed]
        at = kinds.index("ellipsis")
        split = any(k in _ADVANCED_ITEMS for k in kinds[:at]) and \
            any(k in _ADVANCED_ITEMS for k in kinds[at + 1:])
    return entries, advanced, split


_ADVANCED_ITEMS = ("int", "array", "mask")


def _add_mask(entries, mask, shape, axis):
    """A concrete boolean mask as one integer index array per masked axis; a 0-d mask
    adds an axis of length 1 indexed by [0] (True) or [] (False)."""
    if mask.ndim == 0:
        entries.append(("bool0", np.zeros(int(bool(mask)), np.int64), None))
        return axis
    for i, k in enumerate(mask.shape):
        if shape[axis + i] != k:
            raise IndexError(f"boolean index did not match indexed array along axis "
                             f"{axis + i}; size of axis is {shape[axis + i]} but size of "
                             f"corresponding boolean axis is {k}")
    for i, idx in enumerate(np.nonzero(mask)):
        entries.append(("array", idx, axis + i))
    return axis + mask.ndim


# --- static pieces ------------------------------------------------------------------------
def _static_bound(b):
    if b is None or type(b) is int:
        return b
    if isinstance(b, (Tracer, ndarray)):
        b = concrete_or_error(b, "A slice bound x[start:stop:step] (slices must be static; "
                                 "use xnp.lax.dynamic_slice for traced starts)")
        b = np.asarray(b)
        if b.ndim or b.dtype.kind not in "iub":
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
        return int(b)
    try:
        return operator.index(b)
    except TypeError:
        raise TypeError("slice indices must be integers or None or have an __index__ "
                        "method") from None


def _slice_plan(s: slice, n: int):
    """(start, limit, stride, size, reversed) of a slice as a positive-stride slice."""
    lo, hi, step = slice(_static_bound(s.start), _static_bound(s.stop),
                         _static_bound(s.step)).indices(n)
    size = len(range(lo, hi, step))
    if size == 0:
        return 0, 0, 1, 0, False
    if step > 0:
        return lo, lo + (size - 1) * step + 1, step, size, False
    first = lo + (size - 1) * step
    return first, lo + 1, -step, size, True


def _check_int(i: int, n: int, axis: int) -> int:
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    return i + n if i < 0 else i


def _normalize_traced(i, n: int, axis=None):
    """A traced integer index as int64, negative values counted from the end; on an
    empty axis every index is out of bounds (IndexError, as NumPy raises for any value)."""
    if n == 0 and axis is not None and 0 not in shape_of(i):
        raise IndexError(f"index is out of bounds for axis {axis} with size 0")
    i = cast_v(i, _I64)
    if get_aval(i).dtype.kind == "u":
        return i
    return lax.select_n_p.bind(lax.lt_p.bind(i, 0), i, lax.add_p.bind(i, n))


class _Basic:
    """The primitives for a key of ints, slices and new axes: a dynamic slice for traced
    ints, a static strided slice, reversals, and a reshape to the result shape."""

    __slots__ = ("starts", "limits", "strides", "rev", "dyn", "out_shape", "shape")

    def __init__(self, shape, entries):
        self.shape = shape
        self.starts, self.limits, self.strides = [], [], []
        self.rev, self.dyn, self.out_shape = [], {}, []
        for kind, p, axis in entries:
            if kind == "new":
                self.out_shape.append(1)
                continue
            n = shape[axis]
            if kind == "slice":
                lo, hi, st, size, rev = _slice_plan(p, n)
                self._dim(lo, hi, st)
                self.out_shape.append(size)
                if rev:
                    self.rev.append(axis)
            elif isinstance(p, Tracer):
                self.dyn[axis] = _normalize_traced(p, n, axis)
                self._dim(0, 1, 1)
            else:
                i = _check_int(p, n, axis)
                self._dim(i, i + 1, 1)

    def _dim(self, lo, hi, st):
        self.starts.append(lo)
        self.limits.append(hi)
        self.strides.append(st)

    def window(self) -> tuple:
        return tuple(-(-(hi - lo) // st) for lo, hi, st in
                     zip(self.starts, self.limits, self.strides))

    def apply(self, v):
        shape = self.shape
        if self.dyn:
            shape = tuple(1 if d in self.dyn else n for d, n in enumerate(shape))
            starts = [self.dyn.get(d, 0) for d in range(len(shape))]
            v = lax.dynamic_slice_p.bind(v, *starts, slice_sizes=shape)
        window = self.window()
        if window != shape or any(st != 1 for st in self.strides):
            v = lax.slice_p.bind(v, start_indices=tuple(self.starts),
                                 limit_indices=tuple(self.limits),
                                 strides=tuple(self.strides))
        if self.rev:
            v = lax.rev_p.bind(v, dimensions=tuple(self.rev))
        if tuple(self.out_shape) != window:
            v = lax.reshape_p.bind(v, new_sizes=tuple(self.out_shape))
        return v


# --- advanced indexing --------------------------------------------------------------------
def _concrete_index(idx, n: int, axis, check: bool):
    idx = np.asarray(idx)
    if not idx.size:
        return idx.astype(np.int64, copy=False)
    lo, hi = int(idx.min()), int(idx.max())
    if check and (hi >= n or lo < -n):
        bad = (idx >= n) | (idx < -n) if lo < 0 else idx >= n
        raise IndexError(f"index {idx[bad].flat[0]} is out of bounds for axis {axis} "
                         f"with size {n}")
    idx = idx.astype(np.int64, copy=False)
    return np.where(idx < 0, idx + n, idx) if lo < 0 else idx


def _index_vectors(indices, sizes, axes, check: bool):
    """Broadcast the advanced indices and stack them as gather index vectors."""
    shapes = tuple(shape_of(i) for i in indices)
    try:
        batch = broadcast_shapes_cached(shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + "".join(f"{s} " for s in shapes if s)) from None
    # NumPy checks integers always, but index arrays only where they are used.
    checks = [check and (not s or 0 not in batch) for s in shapes]
    cols = [_normalize_traced(i, n, a if c else None) if isinstance(i, Tracer) else
            _concrete_index(i, n, a, c) for i, n, a, c in zip(indices, sizes, axes, checks)]
    if not any(isinstance(c, Tracer) for c in cols):
        if len(cols) == 1 and cols[0].shape == batch:
            return cols[0][..., None], batch
        out = np.empty(batch + (len(cols),), np.int64)
        for j, c in enumerate(cols):
            out[..., j] = c
        return out, batch
    cols = [lax.reshape_p.bind(broadcast_to_v(c, batch), new_sizes=batch + (1,))
            if isinstance(c, Tracer) else np.broadcast_to(c, batch)[..., None] for c in cols]
    if len(cols) == 1:
        return cols[0], batch
    return lax.concatenate_p.bind(*cols, dimension=len(batch)), batch


def _advanced(v, shape, entries, mode, fill_value, split=False):
    """Slices first, then new axes as length-1 dimensions, then one gather in which every
    int/array entry is an indexed dimension and every other entry a full window."""
    pre = [e if e[0] == "slice" else ("slice", slice(None), e[2])
           for e in entries if e[0] not in ("new", "bool0")]
    basic = _Basic(shape, pre)
    v = basic.apply(v)
    sliced = iter(basic.out_shape)
    y_shape = tuple(1 if kind in ("new", "bool0") else next(sliced)
                    for kind, _, _ in entries)
    if y_shape != tuple(basic.out_shape):
        v = lax.reshape_p.bind(v, new_sizes=y_shape)
    adv = [j for j, (kind, _, _) in enumerate(entries) if kind in ("int", "array", "bool0")]
    indices, batch = _index_vectors([entries[j][1] for j in adv], [y_shape[j] for j in adv],
                                    [entries[j][2] for j in adv], check=mode is None)
    adjacent = adv == list(range(adv[0], adv[-1] + 1)) and not split
    window = [d for d in range(len(y_shape)) if d not in adv]
    if adjacent:
        offset = tuple(d if d < adv[0] else d - len(adv) + len(batch) for d in window)
    else:
        offset = tuple(range(len(batch), len(batch) + len(window)))
    dnums = lax.GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=tuple(adv),
                                       start_index_map=tuple(adv))
    sizes = tuple(1 if d in adv else n for d, n in enumerate(y_shape))
    if any(y_shape[d] == 0 for d in adv):
        # Nothing to gather from (only empty or traced index arrays get here).
        wins, bats = iter(window), iter(batch)
        out_shape = tuple(y_shape[next(wins)] if i in offset else next(bats)
                          for i in range(len(batch) + len(window)))
        fill = 0 if fill_value is None or mode not in ("fill", "drop") else fill_value
        return full_v(out_shape, fill, get_aval(v).dtype)
    if mode in ("fill", "drop"):
        if fill_value is not None:   # a static parameter, cast (unsafely) as JAX does
            with np.errstate(all="ignore"):
                fill_value = np.asarray(fill_value).astype(get_aval(v).dtype)[()]
        return lax.gather_p.bind(v, indices, dimension_numbers=dnums, slice_sizes=sizes,
                                 mode="fill", fill_value=fill_value)
    return lax.gather_p.bind(v, indices, dimension_numbers=dnums, slice_sizes=sizes,
                             mode="clip")


def _take_int(v, i: int, shape: tuple):
    """``v[i]`` for a Python int: the common case, kept short."""
    i = _check_int(i, shape[0], 0)
    v = lax.slice_p.bind(v, start_indices=(i,) + (0,) * (len(shape) - 1),
                         limit_indices=(i + 1,) + shape[1:])
    return lax.reshape_p.bind(v, new_sizes=shape[1:])


def index_value(v, key, mode: str | None = None, fill_value=None):
    """``v[key]`` on a raw value. ``mode=None`` is NumPy's (IndexError for concrete
    out-of-bounds indices, clamping of traced ones); "clip" clamps; "fill"/"drop" give
    ``fill_value`` (default: NaN, the smallest int, True) for out-of-bounds indices."""
    if mode is None and type(v) is np.ndarray and v.ndim:
        plan = numpy_key(key)
        if plan is not None:
            return index_p.bind(v, *plan[1], template=plan[0])
    return general_index_value(v, key, mode, fill_value)


def general_index_value(v, key, mode: str | None = None, fill_value=None):
    """:func:`index_value` through primitives for every key form."""
    if mode not in _MODES:
        raise ValueError(f"invalid indexing mode {mode!r}; expected one of {_MODES}")
    shape = shape_of(v)
    if type(key) is int and mode is None and shape:
        return _take_int(v, key, shape)
    entries, advanced, split = _parse_split(key, shape)
    if not advanced and mode is None:
        return _Basic(shape, entries).apply(v)
    if not any(kind in ("int", "array", "bool0") for kind, _, _ in entries):
        return _Basic(shape, entries).apply(v)
    return _advanced(v, shape, entries, mode, fill_value, split)


def getitem(x, key) -> ndarray:
    """``x[key]`` with NumPy's semantics for every key form (see the module docstring)."""
    return wrap_element(index_value(raw(x), key))


def wrap_element(v):
    """``v`` as an xnp array, or an object array's element as the object itself."""
    if type(v) is np.ndarray or isinstance(v, (np.generic, Tracer)):
        return wrap(v)
    return v
