"""Sorting primitives: ``sort`` (stable, several operands, lexicographic keys) and
``top_k``, with their JVP, batching and lowering rules."""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import normalize_axes, primitive


# --- declarations ----------------------------------------------------------------------------
def _sort_eval(*operands, dimension, is_stable=True, num_keys=1):
    shape = operands[0].shape
    if any(op.shape != shape for op in operands):
        raise ValueError("sort: all operands must have the same shape, got "
                         + ", ".join(str(op.shape) for op in operands))
    normalize_axes((dimension,), max(len(shape), 1))
    return [ShapedArray(op.shape, op.dtype, op.weak_type) for op in operands]


def _sort_impl(*operands, dimension, is_stable=True, num_keys=1):
    operands = [np.asarray(op) for op in operands]
    keys = operands[:num_keys]
    if len(operands) == 1:
        # Values only: stability cannot show (equal values are alike, up to the order of
        # -0.0 and 0.0, which this leaves as numpy.sort does), and NumPy's default sort is
        # several times faster than its stable one. Not for float16: NumPy's default sort
        # rewrites its NaNs as signalling NaNs (0x7c01), which warn in later arithmetic.
        kind = "stable" if keys[0].dtype == np.float16 else None
        return [np.sort(keys[0], axis=dimension, kind=kind)]
    if num_keys == 1:
        perm = np.argsort(keys[0], axis=dimension, kind="stable")
    else:
        # lexsort sorts by its last key first, along the last axis.
        moved = [np.moveaxis(k, dimension, -1) for k in reversed(keys)]
        perm = np.moveaxis(np.lexsort(moved, axis=-1), -1, dimension)
    return [np.take_along_axis(op, perm, axis=dimension) for op in operands]


sort_p = primitive("sort", impl=_sort_impl, abstract_eval=_sort_eval, multiple_results=True)


def _top_k_eval(x, *, k):
    if x.ndim == 0 or not 0 <= k <= x.shape[-1]:
        raise ValueError(f"top_k: k={k} is out of range for operand {x.str_short()}")
    shape = (*x.shape[:-1], k)
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, np.int32)]


def _top_k_impl(x, *, k):
    x = np.asarray(x)
    # Descending, ties in index order: a stable ascending sort of the reversed array, read
    # backwards (negating the values instead overflows at the integer minimum). NaN sorts
    # last in NumPy, so it counts as the largest value, as in XLA's total order.
    n = x.shape[-1]
    ascending = np.argsort(x[..., ::-1], axis=-1, kind="stable")
    order = (n - 1 - ascending[..., ::-1])[..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


top_k_p = primitive("top_k", impl=_top_k_impl, abstract_eval=_top_k_eval,
                    multiple_results=True)

__all__ = ["sort_p", "top_k_p"]


# --- derivatives ---------------------------------------------------------------------------------
from transforms.ad import Zero, tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._slicing import take_along_axis  # noqa: E402
from xnp.lax._structural import iota_p  # noqa: E402

_I64 = np.dtype(np.int64)


def _sort_jvp(primals, tangents, *, dimension, is_stable=True, num_keys=1):
    # Sort an iota along with the operands to learn the permutation, then apply it to
    # every tangent.
    shape = get_aval(primals[0]).shape
    params = dict(dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    if not shape:
        return sort_p.bind(*primals, **params), list(tangents)
    dimension = normalize_axes((dimension,), len(shape))[0]
    *outs, perm = sort_p.bind(*primals, iota_p.bind(dtype=_I64, shape=shape,
                                                    dimension=dimension), **params)
    return outs, [Zero(tangent_aval(get_aval(o))) if type(t) is Zero
                  else take_along_axis(t, perm, dimension) for o, t in zip(outs, tangents)]


def _top_k_jvp(primals, tangents, *, k):
    values, indices = top_k_p.bind(primals[0], k=k)
    t = tangents[0]
    t_values = Zero(tangent_aval(get_aval(values))) if type(t) is Zero else \
        take_along_axis(t, indices, get_aval(values).ndim - 1)
    return [values, indices], [t_values, Zero(tangent_aval(get_aval(indices)))]


sort_p.jvp = _sort_jvp
top_k_p.jvp = _top_k_jvp


# --- batching ------------------------------------------------------------------------------------
from xnp.lax._batch_util import bdim_to_front, moveaxis_v  # noqa: E402


def _sort_batch(vals, dims, *, dimension, is_stable=True, num_keys=1):
    params = dict(is_stable=is_stable, num_keys=num_keys)
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    if get_aval(next(v for v, d in zip(vals, dims) if d is not None)).ndim == 1:
        return list(vals), list(dims)        # scalars per member: sorting is the identity
    xs = [bdim_to_front(v, d, size) for v, d in zip(vals, dims)]
    (axis,) = normalize_axes((dimension,), get_aval(xs[0]).ndim - 1)
    return sort_p.bind(*xs, dimension=axis + 1, **params), [0] * len(xs)


def _top_k_batch(vals, dims, *, k):
    (x,), (d,) = vals, dims
    if d == get_aval(x).ndim - 1:
        x, d = moveaxis_v(x, d, 0), 0
    return top_k_p.bind(x, k=k), [d, d]


sort_p.batch = _sort_batch
top_k_p.batch = _top_k_batch


# --- lowering to StableHLO ----------------------------------------------------------------------
from transforms.lowering import i64_array  # noqa: E402
from xnp.lax._lower_util import (  # noqa: E402
    lex_compare,
    order_keys,
    parts,
)


# Sorting compares integer keys made from the bits (order_keys): XLA's CPU float
# comparisons treat subnormals as zero.
def _sort_keys(ctx, x):
    """Integer keys whose lexicographic order is NumPy's sort order: NaN last; complex
    numbers by which parts are NaN (R + Rj, R + nanj, nan + Rj, nan + nanj), then by
    real and imaginary part."""
    if x.dtype.kind != "c":
        return order_keys(ctx, x)[1]
    (rn, (kr,)), (im, (ki,)) = (order_keys(ctx, p) for p in parts(ctx, x))
    return [rn, im, kr, ki]


def _sort(ctx, operands, dimension, num_keys, keys, direction="LT"):
    """A stable stablehlo.sort of ``operands`` along ``dimension`` by the first
    ``num_keys``, each ordered by the integer keys ``keys(ctx, x)``: ascending, or
    descending with ``direction="GT"`` (ties keep their order either way)."""
    def comparator(*args):
        pairs = [(keys(ctx, args[2 * k]), keys(ctx, args[2 * k + 1])) for k in range(num_keys)]
        return lex_compare(ctx, [k for a, _ in pairs for k in a], [k for _, b in pairs for k in b],
                           direction)
    region = ctx.region([((), op.dtype) for op in operands for _ in (0, 1)], comparator)
    return ctx.op("stablehlo.sort", list(operands), [(op.shape, op.dtype) for op in operands],
                  {"dimension": f"{dimension} : i64", "is_stable": "true"}, regions=[region])


def _sort_lower(ctx, *operands, dimension, is_stable=True, num_keys=1):
    # Always stable: the eager sort is.
    if not operands[0].shape:
        return list(operands)
    (dimension,) = normalize_axes((dimension,), operands[0].ndim)
    return _sort(ctx, operands, dimension, num_keys, _sort_keys)


def _top_k_lower(ctx, x, *, k):
    axis = x.ndim - 1
    idx = ctx.op("stablehlo.iota", [], (x.shape, np.int32), {"iota_dimension": f"{axis} : i64"})
    out_shape = (*x.shape[:-1], k)
    attrs = {"start_indices": i64_array([0] * x.ndim), "limit_indices": i64_array(out_shape),
             "strides": i64_array([1] * x.ndim)}
    return [ctx.op("stablehlo.slice", [v], (out_shape, v.dtype), attrs)
            for v in _sort(ctx, [x, idx], axis, 1, _sort_keys, "GT")]


sort_p.lower = _sort_lower
top_k_p.lower = _top_k_lower
