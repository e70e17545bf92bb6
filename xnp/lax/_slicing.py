"""Slicing primitives: static and dynamic slices, dynamic updates, gather and scatter.

``gather`` and ``scatter`` follow XLA's definitions (index vectors in the last dimension
of ``indices``), which are general enough to express all of NumPy's indexing. Their
NumPy implementations build one broadcast index grid per operand dimension and index once.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import primitive


# --- static slice ---------------------------------------------------------------------------
def _slice_eval(x, *, start_indices, limit_indices, strides=None):
    strides = strides or (1,) * x.ndim
    if not (len(start_indices) == len(limit_indices) == len(strides) == x.ndim):
        raise ValueError(f"slice: index lists must have length {x.ndim} for {x.str_short()}")
    shape = []
    for n, lo, hi, st in zip(x.shape, start_indices, limit_indices, strides):
        if not 0 <= lo <= hi <= n or st < 1:
            raise ValueError(f"slice: invalid slice {lo}:{hi}:{st} of a dimension of size "
                             f"{n} in {x.str_short()}")
        shape.append(max(0, -(-(hi - lo) // st)))
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


def _slice_impl(x, *, start_indices, limit_indices, strides=None):
    strides = strides or (1,) * len(start_indices)
    return np.asarray(x)[tuple(map(slice, start_indices, limit_indices, strides))]


slice_p = primitive("slice", impl=_slice_impl, abstract_eval=_slice_eval)


# --- dynamic slice and update --------------------------------------------------------------
def _clamped_starts(shape, starts, sizes):
    return [min(max(int(s), 0), n - k) for n, s, k in zip(shape, starts, sizes)]


def _dynamic_slice_eval(x, *starts, slice_sizes):
    if len(starts) != x.ndim or len(slice_sizes) != x.ndim:
        raise TypeError(f"dynamic_slice: need {x.ndim} start indices and slice sizes for "
                        f"{x.str_short()}, got {len(starts)} and {len(slice_sizes)}")
    if any(s.shape != () or s.dtype.kind not in "iu" for s in starts):
        raise TypeError("dynamic_slice: start indices must be integer scalars")
    if any(not 0 <= k <= n for n, k in zip(x.shape, slice_sizes)):
        raise TypeError(f"dynamic_slice: slice sizes {slice_sizes} do not fit "
                        f"{x.str_short()}")
    return ShapedArray(tuple(slice_sizes), x.dtype, x.weak_type)


def _dynamic_slice_impl(x, *starts, slice_sizes):
    x = np.asarray(x)
    starts = _clamped_starts(x.shape, starts, slice_sizes)
    return x[tuple(slice(s, s + k) for s, k in zip(starts, slice_sizes))]


dynamic_slice_p = primitive("dynamic_slice", impl=_dynamic_slice_impl,
                            abstract_eval=_dynamic_slice_eval)


def _dus_eval(x, update, *starts):
    if update.ndim != x.ndim or len(starts) != x.ndim or any(
            u > n for u, n in zip(update.shape, x.shape)):
        raise TypeError(f"dynamic_update_slice: update {update.str_short()} does not fit "
                        f"operand {x.str_short()} with {len(starts)} start indices")
    if update.dtype != x.dtype:
        raise TypeError(f"dynamic_update_slice: update dtype {update.dtype.name} differs "
                        f"from operand dtype {x.dtype.name}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _dus_impl(x, update, *starts):
    out = np.array(x, copy=True)
    update = np.asarray(update)
    starts = _clamped_starts(out.shape, starts, update.shape)
    out[tuple(slice(s, s + k) for s, k in zip(starts, update.shape))] = update
    return out


dynamic_update_slice_p = primitive("dynamic_update_slice", impl=_dus_impl,
                                   abstract_eval=_dus_eval)


# --- gather -----------------------------------------------------------------------------------
class GatherDimensionNumbers(NamedTuple):
    """XLA gather dimensions; the index vector is the last dimension of ``indices``."""
    offset_dims: tuple
    collapsed_slice_dims: tuple
    start_index_map: tuple


class ScatterDimensionNumbers(NamedTuple):
    """XLA scatter dimensions; the index vector is the last dimension of ``indices``."""
    update_window_dims: tuple
    inserted_window_dims: tuple
    scatter_dims_to_operand_dims: tuple


GATHER_MODES = ("clip", "fill", "promise_in_bounds")


def _gather_eval(operand, indices, *, dimension_numbers, slice_sizes, mode="fill",
                 fill_value=None):
    dn = dimension_numbers
    if indices.dtype.kind not in "iu":
        raise TypeError(f"gather: indices must be integers, got {indices.dtype.name}")
    if indices.ndim == 0 or indices.shape[-1] != len(dn.start_index_map):
        raise TypeError(f"gather: the last dimension of indices {indices.shape} must be "
                        f"{len(dn.start_index_map)}")
    if len(slice_sizes) != operand.ndim or any(
            not 0 <= k <= n for k, n in zip(slice_sizes, operand.shape)):
        raise TypeError(f"gather: slice sizes {slice_sizes} do not fit {operand.str_short()}")
    window = [k for d, k in enumerate(slice_sizes) if d not in dn.collapsed_slice_dims]
    batch = iter(indices.shape[:-1])
    wins = iter(window)
    ndim = len(window) + indices.ndim - 1
    shape = tuple(next(wins) if i in dn.offset_dims else next(batch) for i in range(ndim))
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _window_grid(shape, indices, index_map, window_dims, window_sizes, sizes, mode):
    """Broadcast index arrays, one per operand dimension, of shape batch + window."""
    indices = np.asarray(indices).astype(np.int64, copy=False)
    batch_shape = indices.shape[:-1]
    nb, nw = len(batch_shape), len(window_dims)
    valid = np.ones(batch_shape, bool)
    grid = []
    for d, n in enumerate(shape):
        if d in index_map:
            start = indices[..., index_map.index(d)]
            valid &= (start >= 0) & (start <= n - sizes[d])
            start = np.clip(start, 0, max(n - sizes[d], 0))
        else:
            start = np.zeros(batch_shape, np.int64)
        start = start.reshape(batch_shape + (1,) * nw)
        if d in window_dims:
            j = window_dims.index(d)
            ramp = np.arange(window_sizes[j]).reshape(
                (1,) * nb + tuple(window_sizes[j] if i == j else 1 for i in range(nw)))
            start = start + ramp
        grid.append(start)
    return tuple(grid), valid.reshape(batch_shape + (1,) * nw)


def _gather_impl(operand, indices, *, dimension_numbers, slice_sizes, mode="fill",
                 fill_value=None):
    operand = np.asarray(operand)
    dn = dimension_numbers
    window_dims = [d for d in range(operand.ndim) if d not in dn.collapsed_slice_dims]
    window_sizes = [slice_sizes[d] for d in window_dims]
    nb = np.ndim(indices) - 1
    out_shape = np.shape(indices)[:-1] + tuple(window_sizes)
    if operand.size == 0 or 0 in out_shape:
        out = np.zeros(out_shape, operand.dtype)
    else:
        grid, valid = _window_grid(operand.shape, indices, dn.start_index_map, window_dims,
                                   window_sizes, slice_sizes, mode)
        out = np.broadcast_to(operand[grid], out_shape)
        if mode == "fill":
            fill = _default_fill(operand.dtype) if fill_value is None else fill_value
            out = np.where(valid, out, np.asarray(fill, operand.dtype))
    # Output order: window dims at offset_dims, batch dims everywhere else.
    ndim = len(out_shape)
    batch_src, win_src = iter(range(nb)), iter(range(nb, ndim))
    perm = [next(win_src) if i in dn.offset_dims else next(batch_src) for i in range(ndim)]
    return np.transpose(out, perm)


def _default_fill(dtype):
    if dtype.kind in "fc" or dtype.name == "bfloat16":
        return np.nan
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).max if dtype.kind == "u" else np.iinfo(dtype).min


gather_p = primitive("gather", impl=_gather_impl, abstract_eval=_gather_eval)


# --- scatter ------------------------------------------------------------------------------------
def _scatter_eval(operand, indices, updates, *, dimension_numbers, mode="fill"):
    dn = dimension_numbers
    if indices.dtype.kind not in "iu":
        raise TypeError(f"scatter: indices must be integers, got {indices.dtype.name}")
    if indices.ndim == 0 or indices.shape[-1] != len(dn.scatter_dims_to_operand_dims):
        raise TypeError(f"scatter: the last dimension of indices {indices.shape} must be "
                        f"{len(dn.scatter_dims_to_operand_dims)}")
    scatter_shape = tuple(s for i, s in enumerate(updates.shape)
                          if i not in dn.update_window_dims)
    if scatter_shape != indices.shape[:-1]:
        raise TypeError(f"scatter: updates {updates.shape} do not match indices "
                        f"{indices.shape} with update_window_dims {dn.update_window_dims}")
    if updates.dtype != operand.dtype:
        raise TypeError(f"scatter: updates dtype {updates.dtype.name} differs from operand "
                        f"dtype {operand.dtype.name}")
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _scatter(name, combine):
    def impl(operand, indices, updates, *, dimension_numbers, mode="fill"):
        dn = dimension_numbers
        out = np.array(operand, copy=True)
        updates = np.asarray(updates)
        if out.size == 0 or updates.size == 0:
            return out
        window_dims = [d for d in range(out.ndim) if d not in dn.inserted_window_dims]
        window_sizes = [updates.shape[d] for d in dn.update_window_dims]
        sizes = [1] * out.ndim
        for d, k in zip(window_dims, window_sizes):
            sizes[d] = k
        # Bring updates to batch + window order, matching the index grid.
        scatter_axes = [i for i in range(updates.ndim) if i not in dn.update_window_dims]
        upd = np.transpose(updates, scatter_axes + list(dn.update_window_dims))
        grid, valid = _window_grid(out.shape, indices, dn.scatter_dims_to_operand_dims,
                                   window_dims, window_sizes, sizes, mode)
        shape = upd.shape
        grid = [np.broadcast_to(g, shape) for g in grid]
        if mode != "clip":  # out-of-bounds windows are dropped, as in XLA
            keep = np.broadcast_to(valid, shape)
            grid, upd = [g[keep] for g in grid], upd[keep]
        combine(out, tuple(grid), upd)
        return out
    return primitive(name, impl=impl, abstract_eval=_scatter_eval)


def _assign(out, idx, upd):
    out[idx] = upd


scatter_p = _scatter("scatter", _assign)
scatter_add_p = _scatter("scatter_add", np.add.at)
scatter_mul_p = _scatter("scatter_mul", np.multiply.at)
scatter_min_p = _scatter("scatter_min", np.minimum.at)
scatter_max_p = _scatter("scatter_max", np.maximum.at)

__all__ = [name for name in dir() if name.endswith("_p")] + [
    "GatherDimensionNumbers", "ScatterDimensionNumbers"]
