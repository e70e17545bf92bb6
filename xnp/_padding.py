"""``pad`` with all of NumPy's modes (re-exported by ``xnp._manipulation``).

As in NumPy, axes are padded one after the other, each seeing the padding already added
along the previous axes (this decides the corners). Constant padding is one ``pad``
primitive; the other modes concatenate slices, reversals, broadcasts and reductions of the
array along each axis, reproducing NumPy's iterative algorithm for wide reflections.
"""

from __future__ import annotations

import math

import numpy as np

from transforms.core import Tracer, concrete_or_error
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._shapes import (
    concat_v,
    shape_v,
    slice_axis_v,
    transpose_v,
    value,
    value_as,
)
from xnp._util import broadcast_to_v, cast_v, dtype_of, raw

__all__ = ["pad"]

_ALLOWED = {
    "empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
    "linear_ramp": ("end_values",), "maximum": ("stat_length",),
    "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def pad(array, pad_width, mode="constant", **kwargs) -> ndarray:
    """Pad an array, as :func:`numpy.pad`: modes 'constant' (``constant_values``),
    'edge', 'linear_ramp' (``end_values``), 'maximum', 'minimum', 'mean', 'median'
    (``stat_length``), 'reflect', 'symmetric' (``reflect_type``), 'wrap', 'empty', or a
    function ``f(vector, iaxis_pad_width, iaxis, kwargs)`` that assigns into ``vector``.

    Differences: 'empty' pads with zeros (NumPy leaves memory uninitialised); a padding
    function receives an xnp array whose in-place assignments are collected.
    """
    v = value(array)
    shape = shape_v(v)
    nd = len(shape)
    widths = _pad_widths(pad_width, nd)
    if callable(mode):
        return wrap(_pad_callable(v, widths, mode, kwargs))
    if mode not in _ALLOWED:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - set(_ALLOWED[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if mode in ("constant", "empty"):
        fill = kwargs.get("constant_values", 0) if mode == "constant" else 0
        return wrap(_pad_constant(v, widths, _value_pairs(fill, nd)))
    if 0 in shape:
        for axis, (lo, hi) in enumerate(widths):
            if shape[axis] == 0 and (lo or hi):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        return wrap(_pad_constant(v, widths, [(0, 0)] * nd))
    original = v
    if mode in ("maximum", "minimum", "mean", "median"):
        lengths = _pairs(kwargs.get("stat_length"), nd, as_index=True)
        for axis, (lo, hi) in enumerate(widths):
            v = _pad_stat(v, axis, lo, hi, lengths[axis], mode)
        return wrap(lax.copy_p.bind(v) if v is original else v)
    ends = _value_pairs(kwargs.get("end_values", 0), nd) if mode == "linear_ramp" else None
    for axis, (lo, hi) in enumerate(widths):
        if not (lo or hi) and mode != "linear_ramp":   # NumPy builds even empty ramps
            continue
        if mode == "edge" or (mode in ("reflect", "symmetric") and shape[axis] == 1):
            v = _pad_edge(v, axis, lo, hi)
        elif mode == "linear_ramp":
            v = _pad_ramp(v, axis, lo, hi, ends[axis])
        elif mode == "wrap":
            v = _pad_wrap(v, axis, lo, hi)
        else:
            odd = kwargs.get("reflect_type", "even") == "odd"
            v = _pad_reflect(v, axis, lo, hi, mode == "symmetric", odd)
    # Zero widths give a new array, as NumPy's
    return wrap(lax.copy_p.bind(v) if v is original else v)


# --- arguments ----------------------------------------------------------------------------------
def _pad_widths(pad_width, nd: int) -> list:
    if type(pad_width) is int and pad_width >= 0:
        return [(pad_width, pad_width)] * nd
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * nd
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif isinstance(width, tuple) and len(width) == 2 and all(
                    isinstance(w, int) for w in width):
                seq[axis] = width
            else:
                raise TypeError(f"pad: invalid pad width {width!r} for axis {axis}")
        pad_width = seq
    if isinstance(pad_width, (ndarray, Tracer)):
        pad_width = concrete_or_error(pad_width, "xnp.pad (pad_width)")
    widths = np.asarray(pad_width)
    if widths.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(lo), int(hi)) for lo, hi in _pairs(widths, nd, as_index=True)]


def _pairs(x, nd: int, as_index: bool = False) -> list:
    """NumPy's reading of a per-axis (before, after) argument: one value, one pair, or an
    array broadcastable to ``(nd, 2)``. The items keep NumPy's types (which matter to the
    dtype of a linear ramp)."""
    if x is None:
        return [(None, None)] * nd
    x = np.array(x)
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3 and x.size == 1:
        x = x.ravel()
        if as_index and x[0] < 0:
            raise ValueError("index can't contain negative values")
        return [(x[0], x[0])] * nd
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        x = x.ravel()
        if as_index and (x[0] < 0 or x[1] < 0):
            raise ValueError("index can't contain negative values")
        return [(x[0], x[1])] * nd
    if as_index and x.size and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return [tuple(p) for p in np.broadcast_to(x, (nd, 2)).tolist()]


def _value_pairs(x, nd: int) -> list:
    """As :func:`_pairs` for fill values, which may also be traced arrays."""
    v = raw(x)
    if type(v) in (int, float, bool):
        return [(np.asarray(v)[()],) * 2] * nd     # NumPy reads the fill as array items
    if not isinstance(v, Tracer):
        return _pairs(np.asarray(v) if isinstance(v, np.ndarray) else v, nd)
    size, shape = v.aval.size, v.aval.shape
    if len(shape) < 3 and size == 1:
        s = lax.reshape_p.bind(v, new_sizes=())
        return [(s, s)] * nd
    if len(shape) < 3 and size == 2 and shape != (2, 1):
        flat = lax.reshape_p.bind(v, new_sizes=(2,))
        lo, hi = (_item(flat, (i,)) for i in range(2))
        return [(lo, hi)] * nd
    grid = broadcast_to_v(v, (nd, 2))
    return [(_item(grid, (i, 0)), _item(grid, (i, 1))) for i in range(nd)]


def _item(v, index):
    part = lax.slice_p.bind(v, start_indices=index, limit_indices=tuple(i + 1 for i in index))
    return lax.reshape_p.bind(part, new_sizes=())


# --- modes --------------------------------------------------------------------------------------
def _widen(x, axis, k):
    """Broadcast ``x`` (size 1 along ``axis``) to size ``k`` along ``axis``."""
    shape = list(shape_v(x))
    shape[axis] = k
    return lax.broadcast_in_dim_p.bind(x, shape=tuple(shape),
                                       broadcast_dimensions=tuple(range(len(shape))))


def _fill_as(f, dt: np.dtype):
    """A constant fill as NumPy's ``padded[...] = f`` stores the NumPy scalar ``f``:
    through ``int()`` into signed integers (ValueError for NaN, OverflowError for inf), a
    cast into the others (with its floating-point warnings)."""
    if isinstance(f, np.generic) and f.dtype.kind in "biufc" and dt.kind in "biufc":
        slot = np.empty((), dt)
        slot[()] = f
        return slot
    return value_as(f, dt)


def _pad_constant(v, widths, fills):
    dt = dtype_of(v)
    if not widths:
        return lax.copy_p.bind(v)
    first = fills[0][0]
    flat = [f for pair in fills for f in pair]
    if all(f is first for f in flat) or all(not isinstance(f, Tracer) for f in flat) and all(
            np.array_equal(f, first) for f in flat):
        fill = _fill_as(first, dt)
        if not any(lo or hi for lo, hi in widths):
            return lax.copy_p.bind(v)
        config = tuple((lo, hi, 0) for lo, hi in widths)
        return lax.pad_p.bind(v, fill, padding_config=config)
    fills = [tuple(_fill_as(f, dt) for f in pair) for pair in fills]
    if not any(lo or hi for lo, hi in widths):
        return lax.copy_p.bind(v)
    nd = len(widths)
    for axis, ((lo, hi), (flo, fhi)) in enumerate(zip(widths, fills)):
        for k, fill, side in ((lo, flo, 0), (hi, fhi, 1)):
            if k:
                config = tuple((k * (side == 0), k * (side == 1), 0) if d == axis else
                               (0, 0, 0) for d in range(nd))
                v = lax.pad_p.bind(v, fill, padding_config=config)
    return v


def _pad_edge(v, axis, lo, hi):
    n = shape_v(v)[axis]
    parts = [_widen(slice_axis_v(v, axis, 0, 1), axis, lo)] if lo else []
    parts.append(v)
    if hi:
        parts.append(_widen(slice_axis_v(v, axis, n - 1, n), axis, hi))
    return concat_v(parts, axis)


def _pad_ramp(v, axis, lo, hi, ends):
    from xnp._ranges import linspace_v
    dt = dtype_of(v)
    n = shape_v(v)[axis]
    parts = []
    for k, end, edge_at in ((lo, ends[0], 0), (hi, ends[1], n - 1)):
        edge = lax.squeeze_p.bind(slice_axis_v(v, axis, edge_at, edge_at + 1),
                                  dimensions=(axis,))
        ramp = linspace_v(end, edge, k, False, dt, axis)   # built (and checked) for k = 0
        parts.append(ramp if k else None)
    left, right = parts
    out = [left] if left is not None else []
    out.append(v)
    if right is not None:
        out.append(lax.rev_p.bind(right, dimensions=(axis,)))
    return concat_v(out, axis)


def _pad_reflect(v, axis, lo, hi, symmetric: bool, odd: bool):
    n = shape_v(v)[axis]
    e = 1 if symmetric else 0
    while lo > 0 or hi > 0:
        length = shape_v(v)[axis]
        chunk_max = length // n * n if symmetric else (length - 1) // (n - 1) * (n - 1)
        if lo > 0:
            c = min(chunk_max, lo)
            chunk = lax.rev_p.bind(slice_axis_v(v, axis, 1 - e, c + 1 - e), dimensions=(axis,))
            if odd:
                chunk = _odd(slice_axis_v(v, axis, 0, 1), chunk, dtype_of(v))
            v = concat_v([chunk, v], axis)
            lo -= c
        if hi > 0:
            c = min(chunk_max, hi)
            length = shape_v(v)[axis]
            chunk = lax.rev_p.bind(slice_axis_v(v, axis, length - 1 - c + e, length - 1 + e),
                                   dimensions=(axis,))
            if odd:
                chunk = _odd(slice_axis_v(v, axis, length - 1, length), chunk, dtype_of(v))
            v = concat_v([v, chunk], axis)
            hi -= c
    return v


def _odd(edge, chunk, dt):
    """``2 * edge - chunk`` in NumPy's arithmetic, stored back in the array's dtype."""
    return cast_v(lax.sub_p.bind(lax.mul_p.bind(2, edge), chunk), dt)


def _pad_wrap(v, axis, lo, hi):
    n = shape_v(v)[axis]
    while lo > 0 or hi > 0:
        period = shape_v(v)[axis] // n * n
        new_lo = new_hi = 0
        if lo > 0:
            c = min(period, lo)
            v = concat_v([slice_axis_v(v, axis, period - c, period), v], axis)
            new_lo = lo - period if lo > period else 0
        if hi > 0:
            c = min(period, hi)
            length = shape_v(v)[axis]
            v = concat_v([v, slice_axis_v(v, axis, length - period, length - period + c)],
                         axis)
            new_hi = hi - period if hi > period else 0
        lo, hi = new_lo, new_hi
    return v


def _pad_stat(v, axis, lo, hi, lengths, mode):
    n = shape_v(v)[axis]
    left_len, right_len = (n if k is None or n < k else int(k) for k in lengths)
    if (left_len == 0 or right_len == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    if not (lo or hi):
        return v
    dt = dtype_of(v)
    left = _stat(slice_axis_v(v, axis, 0, left_len), axis, mode, dt)
    right = left if left_len == right_len == n else \
        _stat(slice_axis_v(v, axis, n - right_len, n), axis, mode, dt)
    parts = [_widen(left, axis, lo)] if lo else []
    parts.append(v)
    if hi:
        parts.append(_widen(right, axis, hi))
    return concat_v(parts, axis)


def _stat(chunk, axis, mode, dt):
    """The statistic of ``chunk`` along ``axis`` (kept with size 1), rounded for integer
    arrays and stored in ``dt``, as NumPy's pad computes it."""
    if mode == "maximum":
        s = lax.reduce_max_p.bind(chunk, axes=(axis,))
    elif mode == "minimum":
        s = lax.reduce_min_p.bind(chunk, axes=(axis,))
    elif mode == "mean":
        s = _mean(chunk, axis)
    else:
        s = _median(chunk, axis, dt)
    if dt.kind in "iu" and dtype_of(s).kind not in "iu":
        s = lax.round_p.bind(s)
    s = lax.expand_dims_p.bind(cast_v(s, dt), dimensions=(axis,))
    return s


def _mean(x, axis):
    """NumPy's mean: summed in float64 for integers and float32 for float16."""
    dt = dtype_of(x)
    acc = np.dtype(np.float64) if dt.kind in "biu" else \
        np.dtype(np.float32) if dt == np.float16 else dt
    total = lax.reduce_sum_p.bind(cast_v(x, acc), axes=(axis,))
    mean = lax.div_p.bind(total, acc.type(shape_v(x)[axis]))
    return cast_v(mean, dt) if dt == np.float16 else mean


def _median(x, axis, dt):
    n = shape_v(x)[axis]
    (ordered,) = lax.sort_p.bind(x, dimension=axis, is_stable=True, num_keys=1)
    mid = slice_axis_v(ordered, axis, (n - 1) // 2, n // 2 + 1)
    med = _mean(mid, axis)
    if dt.kind in "fc" and n:
        last = lax.squeeze_p.bind(slice_axis_v(ordered, axis, n - 1, n), dimensions=(axis,))
        nan = cast_v(np.nan, dtype_of(med))
        med = lax.select_n_p.bind(lax.is_nan_p.bind(last), med, nan)
    return med


def _pad_callable(v, widths, function, kwargs):
    dt = dtype_of(v)
    v = _pad_constant(v, widths, [(0, 0)] * len(widths))
    nd = len(widths)
    for axis in range(nd):
        perm = [d for d in range(nd) if d != axis] + [axis]
        moved = transpose_v(v, perm)
        outer, length = shape_v(moved)[:-1], shape_v(moved)[-1]
        count = math.prod(outer)
        rows = lax.reshape_p.bind(moved, new_sizes=(count, length))
        results = []
        for i in range(count):
            row = wrap(lax.reshape_p.bind(slice_axis_v(rows, 0, i, i + 1),
                                          new_sizes=(length,)))
            function(row, widths[axis], axis, kwargs)
            if row.shape != (length,):
                raise ValueError(f"pad: the padding function changed the vector's shape "
                                 f"from {(length,)} to {row.shape}")
            results.append(lax.reshape_p.bind(cast_v(raw(row), dt), new_sizes=(1, length)))
        if results:
            rows = concat_v(results, 0)
        moved = lax.reshape_p.bind(rows, new_sizes=shape_v(moved))
        v = transpose_v(moved, np.argsort(perm).tolist())
    return v
