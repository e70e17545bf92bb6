"""Slicing primitives: static slices, dynamic slices and dynamic updates.

Gather and scatter, XLA's general indexed reads and writes, are in ``_gather_scatter``.
"""

from __future__ import annotations

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


__all__ = ["slice_p", "dynamic_slice_p", "dynamic_update_slice_p"]


# --- derivatives ---------------------------------------------------------------------------------
# Rules bind primitives only. Start positions are integers: they get no cotangent (None).
# All three primitives are linear in their array operands.
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    Zero,
    aval_of,
    deflinear,
    deftranspose,
    instantiate,
    is_undefined,
    zeros_value,
)

# gather and scatter back the batched dynamic slices; take_along_axis is re-exported.
from xnp.lax._gather_scatter import (  # noqa: E402, F401
    _I64,
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
    _batch_size,
    _convert,
    _zero_out,
    gather,
    scatter_p,
    take_along_axis,
)
from xnp.lax._structural import (  # noqa: E402
    broadcast_in_dim_p,
    concatenate_p,
    iota_p,
    pad_p,
    reshape_p,
)


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides=None):
    # Zeros around and between the kept elements: a pad with interior stride - 1.
    shape, cta = aval_of(x).shape, get_aval(ct)
    strides = strides or (1,) * len(shape)
    config = tuple((lo, n - lo - ((k - 1) * st + 1) if k else n - lo, st - 1)
                   for n, lo, k, st in zip(shape, start_indices, cta.shape, strides))
    return [pad_p.bind(ct, np.zeros((), cta.dtype), padding_config=config)]


def _dynamic_slice_jvp(primals, tangents, *, slice_sizes):
    x, *starts = primals
    out = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    if type(tangents[0]) is Zero:
        return out, _zero_out(out)
    return out, dynamic_slice_p.bind(tangents[0], *starts, slice_sizes=slice_sizes)


def _dynamic_slice_transpose(ct, x, *starts, slice_sizes):
    # Both primitives clamp their starts the same way, so the window lands where it came from.
    zeros = zeros_value(aval_of(x))
    return [dynamic_update_slice_p.bind(zeros, ct, *starts)] + [None] * len(starts)


def _dus_jvp(primals, tangents):
    x, update, *starts = primals
    out = dynamic_update_slice_p.bind(x, update, *starts)
    tx, tu = tangents[:2]
    if type(tx) is Zero and type(tu) is Zero:
        return out, _zero_out(out)
    return out, dynamic_update_slice_p.bind(instantiate(tx), instantiate(tu), *starts)


def _dus_transpose(ct, x, update, *starts):
    ua = aval_of(update)
    t_x = dynamic_update_slice_p.bind(ct, zeros_value(ua), *starts) if is_undefined(x) else None
    t_u = dynamic_slice_p.bind(ct, *starts, slice_sizes=ua.shape) if is_undefined(update) \
        else None
    return [t_x, t_u] + [None] * len(starts)


deflinear(slice_p, _slice_transpose)
dynamic_slice_p.jvp = _dynamic_slice_jvp
deftranspose(dynamic_slice_p, _dynamic_slice_transpose)
dynamic_update_slice_p.jvp = _dus_jvp
deftranspose(dynamic_update_slice_p, _dus_transpose)


# --- batching ------------------------------------------------------------------------------------
# Rules receive values with a batch dimension (an int) or None, bind primitives only, and
# return (batched value, its batch dimension). Per-member start positions become index
# columns of a gather/scatter, with an iota column selecting each member's slice of a
# batched operand.
from xnp.lax._batch_util import bdim_to_front, moveaxis_v  # noqa: E402
from xnp.lax._selection import clamp_p  # noqa: E402


def _insert(seq, pos, item):
    out = list(seq)
    out.insert(pos, item)
    return tuple(out)


def _start_columns(starts, dims, size, extra=None):
    """An int64 (size, n) array of per-member start vectors (``extra`` prepended)."""
    cols = [] if extra is None else [extra]
    for s, d in zip(starts, dims):
        s = _convert(s, _I64)
        if d is None:
            cols.append(broadcast_in_dim_p.bind(s, shape=(size, 1), broadcast_dimensions=()))
        else:
            cols.append(reshape_p.bind(s, new_sizes=(size, 1)))
    return concatenate_p.bind(*cols, dimension=1)


def _slice_batch(vals, dims, *, start_indices, limit_indices, strides=None):
    (x,), (d,) = vals, dims
    size = get_aval(x).shape[d]
    return slice_p.bind(x, start_indices=_insert(start_indices, d, 0),
                        limit_indices=_insert(limit_indices, d, size),
                        strides=None if strides is None else _insert(strides, d, 1)), d


def _dynamic_slice_batch(vals, dims, *, slice_sizes):
    (x, *starts), (dx, *ds) = vals, dims
    size = _batch_size(vals, dims)
    if all(d is None for d in ds):
        return dynamic_slice_p.bind(x, *_insert(starts, dx, 0),
                                    slice_sizes=_insert(slice_sizes, dx, size)), dx
    # Per-member starts: a gather of one window per member, clamped ("clip") exactly as
    # dynamic_slice clamps its starts.
    n = len(slice_sizes)
    window = tuple(range(1, n + 1))
    if dx is None:
        idx = _start_columns(starts, ds, size)
        dn = GatherDimensionNumbers(offset_dims=window, collapsed_slice_dims=(),
                                    start_index_map=tuple(range(n)))
        return gather(x, idx, dimension_numbers=dn, slice_sizes=tuple(slice_sizes),
                      mode="clip"), 0
    x = moveaxis_v(x, dx, 0)
    member = iota_p.bind(dtype=_I64, shape=(size, 1), dimension=0)
    idx = _start_columns(starts, ds, size, extra=member)
    dn = GatherDimensionNumbers(offset_dims=window, collapsed_slice_dims=(0,),
                                start_index_map=tuple(range(n + 1)))
    return gather(x, idx, dimension_numbers=dn, slice_sizes=(1, *slice_sizes),
                  mode="clip"), 0


def _dus_batch(vals, dims):
    (x, update, *starts), (dx, du, *ds) = vals, dims
    size = _batch_size(vals, dims)
    x = bdim_to_front(x, dx, size)
    update = bdim_to_front(update, du, size)
    if all(d is None for d in ds):
        return dynamic_update_slice_p.bind(x, update, 0, *starts), 0
    # Per-member starts: clamp them as dynamic_update_slice does, then scatter one window
    # per member (an iota column picks the member's slice of the operand).
    xshape, ushape = get_aval(x).shape[1:], get_aval(update).shape[1:]
    clamped = [clamp_p.bind(np.zeros((), _I64), _convert(s, _I64), np.asarray(n - k, _I64))
               for s, n, k in zip(starts, xshape, ushape)]
    member = iota_p.bind(dtype=_I64, shape=(size, 1), dimension=0)
    idx = _start_columns(clamped, ds, size, extra=member)
    nd = len(xshape)
    dn = ScatterDimensionNumbers(update_window_dims=tuple(range(1, nd + 1)),
                                 inserted_window_dims=(0,),
                                 scatter_dims_to_operand_dims=tuple(range(nd + 1)))
    return scatter_p.bind(x, idx, update, dimension_numbers=dn, mode="clip"), 0


slice_p.batch = _slice_batch
dynamic_slice_p.batch = _dynamic_slice_batch
dynamic_update_slice_p.batch = _dus_batch


# --- lowering to StableHLO ----------------------------------------------------------------------
# XLA clamps dynamic start positions exactly as the implementations above do.
from transforms.lowering import i64_array  # noqa: E402


def _slice_lower(ctx, x, *, start_indices, limit_indices, strides=None):
    return ctx.op("stablehlo.slice", [x], ctx.avals_out[0], {
        "start_indices": i64_array(start_indices), "limit_indices": i64_array(limit_indices),
        "strides": i64_array(strides or (1,) * x.ndim)})


def _start_values(ctx, starts, shape):
    """Start positions of one integer type (int64 if they differ); uint64 ones are first
    reduced to the dimension size (which clamps the same), as int64 cannot hold them all."""
    if len({s.dtype for s in starts}) == 1 and starts[0].dtype != np.uint64:
        return list(starts)
    return [ctx.convert(ctx.binary("minimum", s, ctx.constant(np.uint64(n)))
                        if s.dtype == np.uint64 else s, _I64)
            for s, n in zip(starts, shape)]


def _dynamic_slice_lower(ctx, x, *starts, slice_sizes):
    return ctx.op("stablehlo.dynamic_slice", [x, *_start_values(ctx, starts, x.shape)],
                  ctx.avals_out[0], {"slice_sizes": i64_array(slice_sizes)})


def _dus_lower(ctx, x, update, *starts):
    return ctx.op("stablehlo.dynamic_update_slice",
                  [x, update, *_start_values(ctx, starts, x.shape)], ctx.avals_out[0])


slice_p.lower = _slice_lower
dynamic_slice_p.lower = _dynamic_slice_lower
dynamic_update_slice_p.lower = _dus_lower
