"""Reductions, arg-reductions, cumulative scans, sorting and top_k.

Reductions keep their operand's dtype (``reduce_sum`` of int32 is int32); the NumPy
functions choose NumPy's accumulation dtype and convert before reducing.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import normalize_axes, primitive


def _reduce_eval(x, *, axes):
    axes = normalize_axes(axes, x.ndim)
    shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    return ShapedArray(shape, x.dtype, x.weak_type)


def _reduction(name, reducer, identity_ok=True):
    def impl(x, *, axes):
        x = np.asarray(x)
        return np.asarray(reducer(x, axis=tuple(axes), dtype=x.dtype))
    return primitive(name, impl=impl, abstract_eval=_reduce_eval)


def _extremum(name, reducer):
    def impl(x, *, axes):
        x = np.asarray(x)
        if x.size == 0 and any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"zero-size array to reduction operation {name} which has "
                             "no identity")
        return np.asarray(reducer(x, axis=tuple(axes)))
    return primitive(name, impl=impl, abstract_eval=_reduce_eval)


def _bool_reducer(ufunc):
    def reducer(x, axis, dtype):
        return ufunc.reduce(x, axis=axis, dtype=dtype)
    return reducer


reduce_sum_p = _reduction("reduce_sum", np.sum)
reduce_prod_p = _reduction("reduce_prod", np.prod)
reduce_max_p = _extremum("reduce_max", np.max)
reduce_min_p = _extremum("reduce_min", np.min)
reduce_and_p = _reduction("reduce_and", _bool_reducer(np.bitwise_and))
reduce_or_p = _reduction("reduce_or", _bool_reducer(np.bitwise_or))
reduce_xor_p = _reduction("reduce_xor", _bool_reducer(np.bitwise_xor))


def _arg_eval(x, *, axis, index_dtype):
    (axis,) = normalize_axes((axis,), x.ndim)
    if x.shape[axis] == 0:
        raise ValueError("attempt to get argmax/argmin of an empty sequence")
    return ShapedArray(tuple(s for i, s in enumerate(x.shape) if i != axis), index_dtype)


argmax_p = primitive(
    "argmax", abstract_eval=_arg_eval,
    impl=lambda x, *, axis, index_dtype: np.asarray(np.argmax(x, axis=axis), index_dtype))
argmin_p = primitive(
    "argmin", abstract_eval=_arg_eval,
    impl=lambda x, *, axis, index_dtype: np.asarray(np.argmin(x, axis=axis), index_dtype))


def _cumulative(name, accumulate):
    def impl(x, *, axis, reverse=False):
        x = np.asarray(x)
        if reverse:
            x = np.flip(x, axis)
        out = np.asarray(accumulate(x, axis=axis, dtype=x.dtype))
        return np.flip(out, axis) if reverse else out

    def abstract_eval(x, *, axis, reverse=False):
        normalize_axes((axis,), x.ndim)
        return ShapedArray(x.shape, x.dtype, x.weak_type)
    return primitive(name, impl=impl, abstract_eval=abstract_eval)


def _logaddexp_accumulate(x, axis, dtype):
    return np.logaddexp.accumulate(x, axis=axis, dtype=dtype)


cumsum_p = _cumulative("cumsum", np.add.accumulate)
cumprod_p = _cumulative("cumprod", np.multiply.accumulate)
cummax_p = _cumulative("cummax", np.maximum.accumulate)
cummin_p = _cumulative("cummin", np.minimum.accumulate)
cumlogsumexp_p = _cumulative("cumlogsumexp", _logaddexp_accumulate)


# --- sorting ------------------------------------------------------------------------------------
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
    # Stable descending order: sort the negated ranks so that ties keep index order.
    order = np.argsort(_descending_key(x), axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


def _descending_key(x):
    if x.dtype.kind in "biu":
        return -x.astype(np.int64) if x.dtype.kind != "u" else np.iinfo(x.dtype).max - x
    # NaN counts as the largest value, as in XLA's total order.
    return np.where(np.isnan(x), -np.inf, -x.astype(np.float64))


top_k_p = primitive("top_k", impl=_top_k_impl, abstract_eval=_top_k_eval,
                    multiple_results=True)

__all__ = [name for name in dir() if name.endswith("_p")]
