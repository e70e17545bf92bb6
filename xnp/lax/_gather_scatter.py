"""Gather and scatter: XLA's general indexed reads and writes.

``gather`` and ``scatter`` follow XLA's definitions (index vectors in the last dimension
of ``indices``), which are general enough to express all of NumPy's indexing. Their
NumPy implementations build one broadcast index grid per operand dimension and index once.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import primitive


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
    # A window of 1 on an empty dimension is allowed (its result is empty anyway).
    if len(slice_sizes) != operand.ndim or any(
            not 0 <= k <= max(n, 1) for k, n in zip(slice_sizes, operand.shape)):
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
    if mode != "fill" and dn.start_index_map == (0,) == dn.collapsed_slice_dims and \
            operand.size and tuple(slice_sizes[1:]) == operand.shape[1:] and \
            dn.offset_dims == tuple(range(1, operand.ndim)) and np.ndim(indices) == 2:
        return operand.take(np.asarray(indices)[:, 0], axis=0, mode="clip")  # whole rows
    window_dims = [d for d in range(operand.ndim) if d not in dn.collapsed_slice_dims]
    window_sizes = [slice_sizes[d] for d in window_dims]
    nb = np.ndim(indices) - 1
    out_shape = np.shape(indices)[:-1] + tuple(window_sizes)
    if operand.size == 0 or 0 in out_shape:
        # Every index into an empty operand is out of bounds: "fill" fills them.
        fill = 0 if mode != "fill" else \
            _default_fill(operand.dtype) if fill_value is None else fill_value
        out = np.full(out_shape, fill, operand.dtype)
    elif all(slice_sizes[d] == operand.shape[d] for d in window_dims) and \
            sorted(dn.collapsed_slice_dims) == sorted(dn.start_index_map):
        return _gather_whole_rows(operand, indices, dn, window_dims, mode, fill_value)
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


def _gather_whole_rows(operand, indices, dn, window_dims, mode, fill_value):
    """Gathers that take whole slices along the indexed dimensions (all of NumPy's
    integer-array indexing): one NumPy fancy-indexing call, then a transpose."""
    indices = np.asarray(indices)
    nb = indices.ndim - 1
    key: list = [slice(None)] * operand.ndim
    valid = None
    for k, d in enumerate(dn.start_index_map):
        comp = indices[..., k]
        n = operand.shape[d]
        if mode == "fill":
            ok = (comp >= 0) & (comp < n)
            valid = ok if valid is None else valid & ok
        key[d] = np.minimum(np.maximum(comp, 0), n - 1)
    out = operand[tuple(key)]
    # Where NumPy put the index dimensions: in place if the indexed dims are adjacent.
    adv = sorted(dn.start_index_map)
    batch = [("b", i) for i in range(nb)]
    if adv == list(range(adv[0], adv[0] + len(adv))):
        layout = [("w", d) for d in window_dims if d < adv[0]] + batch + \
            [("w", d) for d in window_dims if d > adv[0]]
    else:
        layout = batch + [("w", d) for d in window_dims]
    wins, bats = iter(window_dims), iter(range(nb))
    target = [("w", next(wins)) if i in dn.offset_dims else ("b", next(bats))
              for i in range(len(layout))]
    out = np.transpose(out, [layout.index(t) for t in target])
    if valid is not None:
        shape = [out.shape[i] if t[0] == "b" else 1 for i, t in enumerate(target)]
        fill = _default_fill(operand.dtype) if fill_value is None else fill_value
        out = np.where(valid.reshape(shape), out,
                       np.asarray(fill, operand.dtype))
    return out


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


# --- derivatives ---------------------------------------------------------------------------------
# Rules bind primitives only. Indices are integers: they get no cotangent (None). gather,
# scatter and scatter_add are linear in their array operands; gather and scatter_add are
# each other's transposes.
from transforms.ad import tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    Zero,
    add_tangents,
    aval_of,
    deftranspose,
    instantiate,
    is_undefined,
    zeros_value,
)
from xnp.lax._elementwise import (  # noqa: E402
    add_p,
    div_p,
    eq_p,
    max_p,
    mul_p,
)
from xnp.lax._selection import select_n_p  # noqa: E402

_I64 = np.dtype(np.int64)
add, mul, eq = add_p.bind, mul_p.bind, eq_p.bind
gather, scatter_add = gather_p.bind, scatter_add_p.bind
select = lambda c, x, y: select_n_p.bind(c, y, x)  # noqa: E731  (x where c, else y)


def _zero_out(out):
    return Zero(tangent_aval(get_aval(out)))


def _convert(x, dtype):
    return convert_element_type_p.bind(x, new_dtype=np.dtype(dtype), weak_type=False)


def _batch_size(vals, dims):
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def take_along_axis(x, idx, axis: int):
    """``x`` indexed along ``axis`` by the integer array ``idx`` (of ``x``'s shape except
    along ``axis``), as one gather; out-of-range indices are clamped."""
    shape = get_aval(idx).shape
    nd = len(shape)
    cols = [_convert(idx, _I64) if d == axis else iota_p.bind(dtype=_I64, shape=shape,
                                                               dimension=d)
            for d in range(nd)]
    full = concatenate_p.bind(*[reshape_p.bind(c, new_sizes=(*shape, 1)) for c in cols],
                              dimension=nd)
    dn = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=tuple(range(nd)),
                                start_index_map=tuple(range(nd)))
    return gather(x, full, dimension_numbers=dn, slice_sizes=(1,) * nd, mode="clip")


# Imported after the names above: _structural imports _reductions, which imports _slicing,
# which imports them (and take_along_axis) from this module.
from xnp.lax._structural import (  # noqa: E402
    broadcast_in_dim_p,
    concatenate_p,
    convert_element_type_p,
    iota_p,
    reshape_p,
)


def _gather_jvp(primals, tangents, *, dimension_numbers, slice_sizes, mode="fill",
                fill_value=None):
    x, indices = primals
    out = gather(x, indices, dimension_numbers=dimension_numbers, slice_sizes=slice_sizes,
                 mode=mode, fill_value=fill_value)
    if type(tangents[0]) is Zero:
        return out, _zero_out(out)
    # Filled (out-of-bounds) windows are constants: their tangent is 0, not the fill value.
    return out, gather(tangents[0], indices, dimension_numbers=dimension_numbers,
                       slice_sizes=slice_sizes, mode=mode, fill_value=0)


def _gather_transpose(ct, x, indices, *, dimension_numbers, slice_sizes, mode="fill",
                      fill_value=None):
    # Out-of-bounds windows were filled ("fill", dropped by the scatter) or clamped ("clip";
    # "promise_in_bounds" clamps too in this implementation, and so does its transpose).
    dn = dimension_numbers
    sdn = ScatterDimensionNumbers(update_window_dims=dn.offset_dims,
                                  inserted_window_dims=dn.collapsed_slice_dims,
                                  scatter_dims_to_operand_dims=dn.start_index_map)
    return [scatter_add(zeros_value(aval_of(x)), indices, ct, dimension_numbers=sdn,
                        mode="fill" if mode == "fill" else "clip"), None]


def _inverse_gather(operand, indices, updates_shape, dn, mode, fill_value=0):
    """The gather reading, for each element of a scatter's updates, the operand element it
    lands on (out-of-bounds windows: ``fill_value`` unless ``mode`` is "clip")."""
    gdn = GatherDimensionNumbers(offset_dims=dn.update_window_dims,
                                 collapsed_slice_dims=dn.inserted_window_dims,
                                 start_index_map=dn.scatter_dims_to_operand_dims)
    window = iter(updates_shape[d] for d in dn.update_window_dims)
    sizes = tuple(1 if d in dn.inserted_window_dims else next(window)
                  for d in range(get_aval(operand).ndim))
    return gather(operand, indices, dimension_numbers=gdn, slice_sizes=sizes,
                  mode="clip" if mode == "clip" else "fill", fill_value=fill_value)


def _scatter_winners(indices, updates_shape, operand_shape, dn, mode):
    """True for the elements of a scatter's updates that are written last to their
    destination (the ones a ``scatter`` keeps when indices repeat)."""
    scatter_axes = tuple(i for i in range(len(updates_shape)) if i not in dn.update_window_dims)
    batch = tuple(updates_shape[i] for i in scatter_axes)
    n = int(np.prod(batch, dtype=np.int64))
    ids = add(reshape_p.bind(iota_p.bind(dtype=_I64, shape=(n,), dimension=0),
                             new_sizes=batch), 1)
    ids = broadcast_in_dim_p.bind(ids, shape=tuple(updates_shape),
                                  broadcast_dimensions=scatter_axes)
    zeros = broadcast_in_dim_p.bind(np.zeros((), _I64), shape=tuple(operand_shape),
                                    broadcast_dimensions=())
    written = scatter_p.bind(zeros, indices, ids, dimension_numbers=dn, mode=mode)
    return eq(_inverse_gather(written, indices, updates_shape, dn, mode), ids)


def _scatter_linear_jvp(prim):
    def jvp(primals, tangents, **params):
        x, indices, updates = primals
        out = prim.bind(x, indices, updates, **params)
        tx, _, tu = tangents
        if type(tx) is Zero and type(tu) is Zero:
            return out, _zero_out(out)
        return out, prim.bind(instantiate(tx), indices, instantiate(tu), **params)
    return jvp


def _scatter_add_transpose(ct, x, indices, updates, *, dimension_numbers, mode="fill"):
    t_u = _inverse_gather(ct, indices, aval_of(updates).shape, dimension_numbers, mode) \
        if is_undefined(updates) else None
    return [ct if is_undefined(x) else None, None, t_u]


def _scatter_transpose(ct, x, indices, updates, *, dimension_numbers, mode="fill"):
    # The operand's cotangent is zero where it was overwritten; with repeated indices only
    # the update that was written last (the one kept) receives the cotangent.
    dn, ua = dimension_numbers, aval_of(updates)
    t_x = scatter_p.bind(ct, indices, zeros_value(ua), dimension_numbers=dn, mode=mode) \
        if is_undefined(x) else None
    t_u = None
    if is_undefined(updates):
        won = _scatter_winners(indices, ua.shape, get_aval(ct).shape, dn, mode)
        t_u = select(won, _inverse_gather(ct, indices, ua.shape, dn, mode), 0)
    return [t_x, None, t_u]


def _scatter_mul_jvp(primals, tangents, *, dimension_numbers, mode="fill"):
    # out = x * P, P the product of the updates landing on each element. dP/du_j is the
    # product of the other updates at u_j's destination: counting the zero updates there
    # keeps it exact without dividing by zero (second derivatives are exact unless two
    # zero updates share a destination).
    x, indices, u = primals
    tx, _, tu = tangents
    kw = dict(dimension_numbers=dimension_numbers, mode=mode)
    out = scatter_mul_p.bind(x, indices, u, **kw)
    xa = tangent_aval(get_aval(x))
    ones = add(zeros_value(xa), 1)
    t = _zero_out(out)
    if type(tx) is not Zero:
        t = mul(tx, scatter_mul_p.bind(ones, indices, u, **kw))
    if type(tu) is not Zero:
        is_zero = eq(u, 0)
        safe_u = select(is_zero, 1, u)
        n_zeros = scatter_add(zeros_value(ShapedArray(xa.shape, _I64)), indices,
                              _convert(is_zero, _I64), **kw)
        n_zeros = _inverse_gather(n_zeros, indices, get_aval(u).shape, dimension_numbers, mode)
        prod = _inverse_gather(scatter_mul_p.bind(ones, indices, safe_u, **kw), indices,
                               get_aval(u).shape, dimension_numbers, mode)
        others = select(is_zero, select(eq(n_zeros, 1), prod, 0),
                        select(eq(n_zeros, 0), div_p.bind(prod, safe_u), 0))
        t = add_tangents(t, mul(x, scatter_add(zeros_value(xa), indices, mul(tu, others), **kw)))
    return out, t


def _scatter_extremum_jvp(prim):
    # The tangent comes from the contenders equal to the result at each element: the
    # operand's value and the updates landing there. Ties split evenly among them, as for
    # reduce_max and in JAX.
    def jvp(primals, tangents, *, dimension_numbers, mode="fill"):
        x, indices, u = primals
        tx, _, tu = tangents
        kw = dict(dimension_numbers=dimension_numbers, mode=mode)
        out = prim.bind(x, indices, u, **kw)
        xa = tangent_aval(get_aval(out))
        kept = eq(x, out)
        won = eq(u, _inverse_gather(out, indices, get_aval(u).shape, dimension_numbers, mode,
                                    fill_value=None))
        count = add(_convert(kept, xa.dtype),
                    scatter_add(zeros_value(xa), indices, _convert(won, xa.dtype), **kw))
        t = _zero_out(out)
        if type(tx) is not Zero:
            t = select(kept, tx, 0)
        if type(tu) is not Zero:
            t = add_tangents(t, scatter_add(zeros_value(xa), indices, select(won, tu, 0), **kw))
        return out, t if type(t) is Zero else div_p.bind(t, max_p.bind(count, 1))
    return jvp


gather_p.jvp = _gather_jvp
deftranspose(gather_p, _gather_transpose)
scatter_add_p.jvp = _scatter_linear_jvp(scatter_add_p)
deftranspose(scatter_add_p, _scatter_add_transpose)
scatter_p.jvp = _scatter_linear_jvp(scatter_p)
deftranspose(scatter_p, _scatter_transpose)
scatter_mul_p.jvp = _scatter_mul_jvp
scatter_min_p.jvp = _scatter_extremum_jvp(scatter_min_p)
scatter_max_p.jvp = _scatter_extremum_jvp(scatter_max_p)


# --- batching ------------------------------------------------------------------------------------
# Rules receive values with a batch dimension (an int) or None, bind primitives only, and
# return (batched value, its batch dimension). Batched indices get an iota column that
# selects each member's slice of a batched operand.
from xnp.lax._batch_util import bdim_to_front, moveaxis_v  # noqa: E402


def _with_member_column(idx):
    """``idx`` (batch first, index vectors last) as int64, with the batch position
    prepended to every index vector."""
    idx = _convert(idx, _I64)
    shape = get_aval(idx).shape
    col = iota_p.bind(dtype=_I64, shape=(*shape[:-1], 1), dimension=0)
    return concatenate_p.bind(col, idx, dimension=len(shape) - 1)


def _gather_batch(vals, dims, *, dimension_numbers, slice_sizes, mode="fill",
                  fill_value=None):
    (x, idx), (dx, di) = vals, dims
    dn = dimension_numbers
    kw = dict(mode=mode, fill_value=fill_value)
    up = lambda dims: tuple(d + 1 for d in dims)  # noqa: E731
    if di is None:
        # The batch dimension becomes a full-size window, the first one (output dim 0).
        x = moveaxis_v(x, dx, 0)
        new = GatherDimensionNumbers(offset_dims=(0, *up(dn.offset_dims)),
                                     collapsed_slice_dims=up(dn.collapsed_slice_dims),
                                     start_index_map=up(dn.start_index_map))
        return gather(x, idx, dimension_numbers=new,
                      slice_sizes=(get_aval(x).shape[0], *slice_sizes), **kw), 0
    idx = moveaxis_v(idx, di, 0)
    if dx is None:
        # The batch dimension is the first batch dimension of the indices (output dim 0).
        new = GatherDimensionNumbers(offset_dims=up(dn.offset_dims),
                                     collapsed_slice_dims=dn.collapsed_slice_dims,
                                     start_index_map=dn.start_index_map)
        return gather(x, idx, dimension_numbers=new, slice_sizes=slice_sizes, **kw), 0
    # Both: each index vector also picks its member's slice of the operand.
    x = moveaxis_v(x, dx, 0)
    new = GatherDimensionNumbers(offset_dims=up(dn.offset_dims),
                                 collapsed_slice_dims=(0, *up(dn.collapsed_slice_dims)),
                                 start_index_map=(0, *up(dn.start_index_map)))
    return gather(x, _with_member_column(idx), dimension_numbers=new,
                  slice_sizes=(1, *slice_sizes), **kw), 0


def _scatter_batch(prim):
    def rule(vals, dims, *, dimension_numbers, mode="fill"):
        (x, idx, u), (dx, di, du) = vals, dims
        dn = dimension_numbers
        size = _batch_size(vals, dims)
        up = lambda dims: tuple(d + 1 for d in dims)  # noqa: E731
        x = bdim_to_front(x, dx, size)
        u = bdim_to_front(u, du, size)
        if di is None:
            # Shared indices: the batch dimension is a full-size window, the first one.
            new = ScatterDimensionNumbers(
                update_window_dims=(0, *up(dn.update_window_dims)),
                inserted_window_dims=up(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=up(dn.scatter_dims_to_operand_dims))
            return prim.bind(x, idx, u, dimension_numbers=new, mode=mode), 0
        idx = _with_member_column(moveaxis_v(idx, di, 0))
        new = ScatterDimensionNumbers(
            update_window_dims=up(dn.update_window_dims),
            inserted_window_dims=(0, *up(dn.inserted_window_dims)),
            scatter_dims_to_operand_dims=(0, *up(dn.scatter_dims_to_operand_dims)))
        return prim.bind(x, idx, u, dimension_numbers=new, mode=mode), 0
    prim.batch = rule


gather_p.batch = _gather_batch
for _p in (scatter_p, scatter_add_p, scatter_mul_p, scatter_min_p, scatter_max_p):
    _scatter_batch(_p)
del _p


# --- lowering to StableHLO ----------------------------------------------------------------------
# XLA's gather clamps start positions (modes "clip" and "promise_in_bounds"); "fill" masks
# the out-of-bounds windows afterwards. XLA's scatter skips out-of-bounds windows (every
# mode but "clip", which clamps first). Duplicate indices apply in order on the CPU backend.
from transforms.lowering import i64_array  # noqa: E402
from xnp.lax._lower_util import np_maximum, np_minimum  # noqa: E402


def _dims_attr(kind, **fields):
    body = ", ".join(f"{k} = [{', '.join(map(str, v))}]" if isinstance(v, tuple) else
                     f"{k} = {v}" for k, v in fields.items())
    return f"#stablehlo.{kind}<{body}>"


def _index_values(ctx, indices):
    """``indices`` as int32 or int64 (others become int64, as the implementations do)."""
    return indices if indices.dtype in (np.int32, np.int64) else ctx.convert(indices, _I64)


def _upper_bounds(ctx, indices, shape, index_map, sizes):
    """The largest in-bounds start position for each index vector component, broadcast to
    the shape of ``indices``."""
    hi = np.array([max(shape[d] - sizes[d], 0) for d in index_map], indices.dtype)
    return ctx.broadcast(ctx.constant(hi), indices.shape, dims=[indices.ndim - 1])


def _gather_lower(ctx, x, indices, *, dimension_numbers, slice_sizes, mode="fill",
                  fill_value=None):
    dn, out = dimension_numbers, ctx.avals_out[0]
    fill = _default_fill(x.dtype) if fill_value is None else fill_value
    if 0 in x.shape or 0 in out.shape:
        return ctx.full(out.shape, fill if mode == "fill" else 0, x.dtype)
    indices = _index_values(ctx, indices)
    last = indices.ndim - 1
    got = ctx.op("stablehlo.gather", [x, indices], out, {
        "dimension_numbers": _dims_attr(
            "gather", offset_dims=tuple(dn.offset_dims),
            collapsed_slice_dims=tuple(dn.collapsed_slice_dims),
            start_index_map=tuple(dn.start_index_map), index_vector_dim=last),
        "slice_sizes": i64_array(slice_sizes), "indices_are_sorted": "false"})
    if mode != "fill":
        return got
    hi = _upper_bounds(ctx, indices, x.shape, dn.start_index_map, slice_sizes)
    ok = ctx.binary("and", ctx.compare(indices, ctx.full(indices.shape, 0, indices.dtype), "GE"),
                    ctx.compare(indices, hi, "LE"))
    scalar = ((), np.bool_)
    valid = ctx.op("stablehlo.reduce", [ok, ctx.constant(np.bool_(True))],
                   (indices.shape[:-1], np.bool_), {"dimensions": i64_array([last])},
                   regions=[ctx.region([scalar, scalar], lambda p, q: ctx.binary("and", p, q))])
    batch_dims = [i for i in range(out.ndim) if i not in dn.offset_dims]
    return ctx.select(ctx.broadcast(valid, out.shape, dims=batch_dims), got,
                      ctx.full(out.shape, fill, x.dtype))


def _scatter_lowering(prim, combine):
    def rule(ctx, x, indices, updates, *, dimension_numbers, mode="fill"):
        dn = dimension_numbers
        if 0 in x.shape or 0 in updates.shape:
            return x
        indices = _index_values(ctx, indices)
        if mode == "clip":
            window = iter(updates.shape[d] for d in dn.update_window_dims)
            sizes = [1 if d in dn.inserted_window_dims else next(window)
                     for d in range(x.ndim)]
            hi = _upper_bounds(ctx, indices, x.shape, dn.scatter_dims_to_operand_dims, sizes)
            indices = ctx.op("stablehlo.clamp", [ctx.full(indices.shape, 0, indices.dtype),
                                                 indices, hi], (indices.shape, indices.dtype))
        scalar = ((), x.dtype)
        body = ctx.region([scalar, scalar], lambda old, new: combine(ctx, old, new))
        return ctx.op("stablehlo.scatter", [x, indices, updates], ctx.avals_out[0], {
            "scatter_dimension_numbers": _dims_attr(
                "scatter", update_window_dims=tuple(dn.update_window_dims),
                inserted_window_dims=tuple(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=tuple(dn.scatter_dims_to_operand_dims),
                index_vector_dim=indices.ndim - 1),
            "indices_are_sorted": "false", "unique_indices": "false"}, regions=[body])
    rule.__name__ = f"_{prim.name}_lower"
    prim.lower = rule


def _logical_or(name, logical):
    """``name`` (add, multiply) as NumPy applies it: ``logical`` (or, and) for bools."""
    return lambda ctx, a, b: ctx.binary(logical if a.dtype == np.bool_ else name, a, b)


gather_p.lower = _gather_lower
_scatter_lowering(scatter_p, lambda ctx, old, new: new)
_scatter_lowering(scatter_add_p, _logical_or("add", "or"))
_scatter_lowering(scatter_mul_p, _logical_or("multiply", "and"))
_scatter_lowering(scatter_min_p, np_minimum)
_scatter_lowering(scatter_max_p, np_maximum)
