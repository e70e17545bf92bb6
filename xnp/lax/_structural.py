"""Primitives that move, cast or create data: casts, iota, broadcasting, reshaping,
transposition, reversal, concatenation, padding and copying. Shapes are explicit here
(XLA's conventions); the NumPy functions in xnp translate NumPy's arguments to them."""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import normalize_axes, primitive


def _same(x, **_):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


# --- casts -----------------------------------------------------------------------------------
def _convert_impl(x, *, new_dtype, weak_type=False):
    x = np.asarray(x)
    if x.dtype == new_dtype:
        return x
    with np.errstate(invalid="ignore", over="ignore"):
        return x.astype(new_dtype)


def _convert_eval(x, *, new_dtype, weak_type=False):
    return ShapedArray(x.shape, new_dtype, weak_type)


convert_element_type_p = primitive("convert_element_type", impl=_convert_impl,
                                   abstract_eval=_convert_eval)


def _bitcast_eval(x, *, new_dtype):
    old, new = x.dtype.itemsize, np.dtype(new_dtype).itemsize
    if old == new:
        shape = x.shape
    elif old > new:
        shape = (*x.shape, old // new)
    else:
        if not x.shape or x.shape[-1] != new // old:
            raise TypeError(f"bitcast_convert_type: {x.str_short()} cannot be bitcast to "
                            f"{np.dtype(new_dtype).name}: the last dimension must be "
                            f"{new // old}")
        shape = x.shape[:-1]
    return ShapedArray(shape, new_dtype, False)


def _bitcast_impl(x, *, new_dtype):
    x = np.asarray(x)
    if not x.flags.c_contiguous:
        x = x.copy()
    shape = _bitcast_eval(ShapedArray(x.shape, x.dtype), new_dtype=new_dtype).shape
    return x.view(new_dtype).reshape(shape)


bitcast_convert_type_p = primitive("bitcast_convert_type", impl=_bitcast_impl,
                                   abstract_eval=_bitcast_eval)


# --- creation ---------------------------------------------------------------------------------
def _iota_impl(*, dtype, shape, dimension):
    ramp = np.arange(shape[dimension], dtype=dtype)
    view = [1] * len(shape)
    view[dimension] = shape[dimension]
    return np.broadcast_to(ramp.reshape(view), shape)


iota_p = primitive("iota", impl=_iota_impl,
                   abstract_eval=lambda *, dtype, shape, dimension: ShapedArray(shape, dtype))


def _broadcast_in_dim_eval(x, *, shape, broadcast_dimensions):
    ok = len(broadcast_dimensions) == x.ndim and all(
        x.shape[i] in (1, shape[d]) for i, d in enumerate(broadcast_dimensions))
    if not ok:
        raise ValueError(f"broadcast_in_dim: cannot broadcast {x.str_short()} to shape "
                         f"{shape} along dimensions {broadcast_dimensions}")
    return ShapedArray(shape, x.dtype, x.weak_type)


def _broadcast_in_dim_impl(x, *, shape, broadcast_dimensions):
    x = np.asarray(x)
    view = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        view[d] = x.shape[i]
    return np.broadcast_to(x.reshape(view), shape)


broadcast_in_dim_p = primitive("broadcast_in_dim", impl=_broadcast_in_dim_impl,
                               abstract_eval=_broadcast_in_dim_eval)


# --- shape changes ------------------------------------------------------------------------------
def _reshape_eval(x, *, new_sizes):
    if int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape "
                         f"{tuple(new_sizes)}")
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


reshape_p = primitive("reshape", impl=lambda x, *, new_sizes: np.reshape(x, new_sizes),
                      abstract_eval=_reshape_eval)


def _squeeze_eval(x, *, dimensions):
    dims = normalize_axes(dimensions, x.ndim)
    if any(x.shape[d] != 1 for d in dims):
        raise ValueError("cannot select an axis to squeeze out which has size not equal "
                         f"to one (shape {x.shape}, axes {dimensions})")
    shape = tuple(s for i, s in enumerate(x.shape) if i not in dims)
    return ShapedArray(shape, x.dtype, x.weak_type)


squeeze_p = primitive(
    "squeeze", impl=lambda x, *, dimensions: np.squeeze(x, tuple(dimensions)),
    abstract_eval=_squeeze_eval)


def _expand_dims_eval(x, *, dimensions):
    out_ndim = x.ndim + len(dimensions)
    dims = normalize_axes(dimensions, out_ndim)
    if len(set(dims)) != len(dims):
        raise ValueError(f"expand_dims: repeated axis in {dimensions}")
    it = iter(x.shape)
    shape = tuple(1 if i in dims else next(it) for i in range(out_ndim))
    return ShapedArray(shape, x.dtype, x.weak_type)


expand_dims_p = primitive(
    "expand_dims", impl=lambda x, *, dimensions: np.expand_dims(x, tuple(dimensions)),
    abstract_eval=_expand_dims_eval)


def _transpose_eval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise ValueError(f"axes {permutation} don't match array of shape {x.shape}")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


transpose_p = primitive(
    "transpose", impl=lambda x, *, permutation: np.transpose(x, permutation),
    abstract_eval=_transpose_eval)

rev_p = primitive("rev", impl=lambda x, *, dimensions: np.flip(x, tuple(dimensions)),
                  abstract_eval=_same)


def _concatenate_eval(*xs, dimension):
    first = xs[0]
    for x in xs[1:]:
        if x.ndim != first.ndim or any(a != b for i, (a, b) in
                                       enumerate(zip(x.shape, first.shape))
                                       if i != dimension):
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must "
                f"match exactly, but got shapes {first.shape} and {x.shape} "
                f"(axis {dimension})")
        if x.dtype != first.dtype:
            raise TypeError(f"concatenate: operands must share a dtype, got "
                            f"{first.dtype.name} and {x.dtype.name}")
    size = sum(x.shape[dimension] for x in xs)
    shape = (*first.shape[:dimension], size, *first.shape[dimension + 1:])
    return ShapedArray(shape, first.dtype, all(x.weak_type for x in xs))


concatenate_p = primitive(
    "concatenate", impl=lambda *xs, dimension: np.concatenate(xs, axis=dimension),
    abstract_eval=_concatenate_eval)


def _pad_eval(x, padding_value, *, padding_config):
    if len(padding_config) != x.ndim:
        raise ValueError(f"pad: padding_config has {len(padding_config)} entries for "
                         f"an operand of rank {x.ndim}")
    shape = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        if interior < 0:
            raise ValueError(f"pad: interior padding must be >= 0, got {interior}")
        size = lo + hi + n + max(n - 1, 0) * interior
        if size < 0:
            raise ValueError(f"pad: negative output size from {padding_config}")
        shape.append(size)
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


def _pad_impl(x, padding_value, *, padding_config):
    x = np.asarray(x)
    # Interior and non-negative edge padding first, then negative edges as slices.
    grown = [(max(lo, 0), max(hi, 0), it) for lo, hi, it in padding_config]
    shape = [lo + hi + n + max(n - 1, 0) * it for n, (lo, hi, it) in zip(x.shape, grown)]
    out = np.full(shape, padding_value, dtype=x.dtype)
    out[tuple(slice(lo, lo + (n - 1) * (it + 1) + 1 if n else lo, it + 1)
              for n, (lo, hi, it) in zip(x.shape, grown))] = x
    crop = tuple(slice(-lo if lo < 0 else 0, s + hi if hi < 0 else s)
                 for s, (lo, hi, _) in zip(shape, padding_config))
    return out[crop]


pad_p = primitive("pad", impl=_pad_impl, abstract_eval=_pad_eval)

copy_p = primitive("copy", impl=lambda x: np.array(x, copy=True), abstract_eval=_same)

__all__ = [name for name in dir() if name.endswith("_p")]


def _stop_gradient_jvp(primals, tangents):
    from transforms.ad import Zero, tangent_aval
    from transforms.core import get_aval
    (x,) = primals
    return x, Zero(tangent_aval(get_aval(x)))


stop_gradient_p = primitive("stop_gradient", impl=lambda x: x, abstract_eval=_same,
                            jvp=_stop_gradient_jvp)
__all__.append("stop_gradient_p")
