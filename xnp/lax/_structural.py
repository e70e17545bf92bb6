"""Primitives that move, cast or create data: casts, iota, broadcasting, reshaping,
transposition, reversal, concatenation, padding and copying. Shapes are explicit here
(XLA's conventions); the NumPy functions in xnp translate NumPy's arguments to them."""

from __future__ import annotations

import math

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
    if len(shape) == 1:
        return ramp
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


_SMALL = 4096   # below this many elements a copy is cheaper than np.broadcast_to's view


def _broadcast_in_dim_impl(x, *, shape, broadcast_dimensions):
    x = np.asarray(x)
    view = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        view[d] = x.shape[i]
    x = x.reshape(view)
    if math.prod(shape) <= _SMALL:
        out = np.empty(shape, x.dtype)
        out[...] = x
        return out
    return np.broadcast_to(x, shape)


broadcast_in_dim_p = primitive("broadcast_in_dim", impl=_broadcast_in_dim_impl,
                               abstract_eval=_broadcast_in_dim_eval)


# --- shape changes ------------------------------------------------------------------------------
def _reshape_eval(x, *, new_sizes):
    if int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape "
                         f"{tuple(new_sizes)}")
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


def _reshape_impl(x, *, new_sizes):
    return x.reshape(new_sizes) if type(x) is np.ndarray else np.reshape(x, new_sizes)


reshape_p = primitive("reshape", impl=_reshape_impl,
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
    "transpose", impl=lambda x, *, permutation: np.asarray(x).transpose(permutation),
    abstract_eval=_transpose_eval)

rev_p = primitive("rev", impl=lambda x, *, dimensions: np.flip(x, tuple(dimensions)),
                  abstract_eval=_same)


def _concatenate_eval(*xs, dimension):
    first = xs[0]
    (dimension,) = normalize_axes((dimension,), first.ndim)
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

# ``order`` ('K', 'C' or 'F') is the NumPy memory layout of an eager copy; it changes no
# value, and the other rules ignore it.
copy_p = primitive("copy", impl=lambda x, *, order="K": np.array(x, copy=True, order=order),
                   abstract_eval=_same)

__all__ = [name for name in dir() if name.endswith("_p")]


def _stop_gradient_jvp(primals, tangents):
    from transforms.ad import Zero, tangent_aval
    from transforms.core import get_aval
    (x,) = primals
    # The primal output binds stop_gradient again, so that outer derivatives stop too.
    return stop_gradient_p.bind(x), Zero(tangent_aval(get_aval(x)))


stop_gradient_p = primitive("stop_gradient", impl=lambda x: x, abstract_eval=_same,
                            jvp=_stop_gradient_jvp)
__all__.append("stop_gradient_p")


# --- derivatives: one line per primitive where possible ----------------------------------------
# Rules bind primitives only, so they run under any transformation. Every primitive here
# but the casts is linear; cotangents use the bilinear pairing real(sum(u * v)) (no
# conjugation), as JAX and the elementwise rules.
from transforms.ad import float0, tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    Zero,
    aval_of,
    defjvp_zero,
    deflinear,
    deftranspose,
    fit,
    instantiate,
    is_undefined,
    unbroadcast,
)
from xnp.lax._elementwise import sub_p  # noqa: E402
from xnp.lax._reductions import reduce_sum_p  # noqa: E402
from xnp.lax._slicing import slice_p  # noqa: E402

reshape, reduce_sum = reshape_p.bind, reduce_sum_p.bind


def _convert_jvp(primals, tangents, *, new_dtype, weak_type=False):
    out = convert_element_type_p.bind(primals[0], new_dtype=new_dtype, weak_type=weak_type)
    oaval = tangent_aval(get_aval(out))          # float0 for integer and bool results
    return out, Zero(oaval) if oaval.dtype != np.dtype(new_dtype) else fit(tangents[0], oaval)


def _broadcast_in_dim_transpose(ct, x, *, shape, broadcast_dimensions):
    xshape = aval_of(x).shape
    grown = [d for i, d in enumerate(broadcast_dimensions) if xshape[i] == 1 and shape[d] != 1]
    axes = tuple(d for d in range(len(shape)) if d not in broadcast_dimensions or d in grown)
    return [reshape(reduce_sum(ct, axes=axes) if axes else ct, new_sizes=xshape)]


def _concatenate_transpose(ct, *xs, dimension):
    out, start = [], 0
    shape = get_aval(ct).shape
    for x in xs:
        n = aval_of(x).shape[dimension]
        if is_undefined(x):
            lo = [0] * len(shape)
            hi = list(shape)
            lo[dimension], hi[dimension] = start, start + n
            out.append(slice_p.bind(ct, start_indices=tuple(lo), limit_indices=tuple(hi)))
        else:
            out.append(None)
        start += n
    return out


def _pad_jvp(primals, tangents, *, padding_config):
    # Linear in the operand and the padding value jointly; a zero tangent is made in the
    # operand's tangent type (the padding value may be a Python int, say).
    out = pad_p.bind(*primals, padding_config=padding_config)
    ta = tangent_aval(get_aval(out))
    if all(type(t) is Zero for t in tangents) or ta.dtype == float0:
        return out, Zero(ta)
    tx, tv = (instantiate(Zero(ShapedArray(aval_of(p).shape, ta.dtype))) if type(t) is Zero
              else fit(t, ShapedArray(aval_of(p).shape, ta.dtype))
              for p, t in zip(primals, tangents))
    return out, pad_p.bind(tx, tv, padding_config=padding_config)


def _pad_transpose(ct, x, padding_value, *, padding_config):
    # Undo the edges (negative edges become zero padding), then keep every (interior+1)-th
    # element; the padding value received everything the operand did not.
    cta = get_aval(ct)
    unpad = tuple((-lo, -hi, 0) for lo, hi, _ in padding_config)
    inner = pad_p.bind(ct, np.zeros((), cta.dtype), padding_config=unpad)
    t_x = slice_p.bind(inner, start_indices=(0,) * cta.ndim,
                       limit_indices=get_aval(inner).shape,
                       strides=tuple(it + 1 for _, _, it in padding_config))
    t_pv = None
    if is_undefined(padding_value):
        every = tuple(range(cta.ndim))
        t_pv = unbroadcast(sub_p.bind(reduce_sum(ct, axes=every), reduce_sum(t_x, axes=every)),
                           aval_of(padding_value))
    return [t_x if is_undefined(x) else None, t_pv]


convert_element_type_p.jvp = _convert_jvp
deftranspose(convert_element_type_p, lambda ct, x, **_: [unbroadcast(ct, aval_of(x))])
defjvp_zero(bitcast_convert_type_p)
defjvp_zero(iota_p)
deflinear(broadcast_in_dim_p, _broadcast_in_dim_transpose)
deflinear(reshape_p, lambda ct, x, **_: [reshape(ct, new_sizes=aval_of(x).shape)])
deflinear(squeeze_p, lambda ct, x, **_: [reshape(ct, new_sizes=aval_of(x).shape)])
deflinear(expand_dims_p, lambda ct, x, **_: [reshape(ct, new_sizes=aval_of(x).shape)])
deflinear(transpose_p, lambda ct, x, *, permutation: [
    transpose_p.bind(ct, permutation=tuple(int(i) for i in np.argsort(permutation)))])
deflinear(rev_p, lambda ct, x, *, dimensions: [rev_p.bind(ct, dimensions=dimensions)])
deflinear(concatenate_p, _concatenate_transpose)
pad_p.jvp = _pad_jvp
deftranspose(pad_p, _pad_transpose)
deflinear(copy_p, lambda ct, x, **_: [ct])


# --- batching ------------------------------------------------------------------------------------
# Rules receive values with a batch dimension (an int) or None, bind primitives only, and
# return (batched value, its batch dimension). See transforms/batching.py.
from xnp.lax._batch_util import bdim_to_front, moveaxis_v, shift_axes  # noqa: E402
from xnp.lax._selection import select_n_p  # noqa: E402


def _unary_same_bdim(prim):
    def rule(vals, dims, **params):
        return prim.bind(vals[0], **params), dims[0]
    prim.batch = rule


def _bitcast_batch(vals, dims, *, new_dtype):
    (x,), (d,) = vals, dims
    xa = get_aval(x)
    if xa.dtype.itemsize < np.dtype(new_dtype).itemsize and d == xa.ndim - 1:
        x, d = moveaxis_v(x, d, 0), 0       # the last (consumed) dimension must be data
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), d


def _iota_batch(vals, dims, **params):
    return iota_p.bind(**params), None      # no operands: never batched


def _broadcast_in_dim_batch(vals, dims, *, shape, broadcast_dimensions):
    (x,), (d,) = vals, dims
    x = moveaxis_v(x, d, 0)
    size = get_aval(x).shape[0]
    return broadcast_in_dim_p.bind(
        x, shape=(size, *shape),
        broadcast_dimensions=(0, *(b + 1 for b in broadcast_dimensions))), 0


def _reshape_batch(vals, dims, *, new_sizes):
    (x,), (d,) = vals, dims
    x = moveaxis_v(x, d, 0)
    return reshape_p.bind(x, new_sizes=(get_aval(x).shape[0], *new_sizes)), 0


def _squeeze_batch(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    axes = shift_axes(normalize_axes(dimensions, get_aval(x).ndim - 1), d)
    return squeeze_p.bind(x, dimensions=axes), d - sum(a < d for a in axes)


def _expand_dims_batch(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    x = moveaxis_v(x, d, 0)
    out_ndim = get_aval(x).ndim - 1 + len(dimensions)
    axes = tuple(a + 1 for a in normalize_axes(dimensions, out_ndim))
    return expand_dims_p.bind(x, dimensions=axes), 0


def _transpose_batch(vals, dims, *, permutation):
    (x,), (d,) = vals, dims
    perm = (d, *(p + (p >= d) for p in permutation))
    return transpose_p.bind(x, permutation=perm), 0


def _rev_batch(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    axes = shift_axes(normalize_axes(dimensions, get_aval(x).ndim - 1), d)
    return rev_p.bind(x, dimensions=axes), d


def _concatenate_batch(vals, dims, *, dimension):
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    xs = [bdim_to_front(v, d, size) for v, d in zip(vals, dims)]
    (axis,) = normalize_axes((dimension,), get_aval(xs[0]).ndim - 1)
    return concatenate_p.bind(*xs, dimension=axis + 1), 0


def _pad_batch(vals, dims, *, padding_config):
    (x, pv), (dx, dv) = vals, dims
    if dv is None:
        config = list(padding_config)
        config.insert(dx, (0, 0, 0))
        return pad_p.bind(x, pv, padding_config=tuple(config)), dx
    # A per-member padding value: pad with zeros, then select the padding value wherever
    # the (unbatched) mask of operand positions is False.
    size = get_aval(pv).shape[dv]
    x = bdim_to_front(x, dx, size)
    xa = get_aval(x)
    config = ((0, 0, 0), *padding_config)
    padded = pad_p.bind(x, np.zeros((), xa.dtype), padding_config=config)
    ones = broadcast_in_dim_p.bind(np.ones((), bool), shape=xa.shape[1:],
                                   broadcast_dimensions=())
    mask = pad_p.bind(ones, np.zeros((), bool), padding_config=tuple(padding_config))
    pv = convert_element_type_p.bind(moveaxis_v(pv, dv, 0), new_dtype=xa.dtype,
                                     weak_type=xa.weak_type)
    nd = get_aval(padded).ndim
    pv = broadcast_in_dim_p.bind(pv, shape=(size,) + (1,) * (nd - 1), broadcast_dimensions=(0,))
    return select_n_p.bind(mask, pv, padded), 0


_unary_same_bdim(convert_element_type_p)
bitcast_convert_type_p.batch = _bitcast_batch
iota_p.batch = _iota_batch
broadcast_in_dim_p.batch = _broadcast_in_dim_batch
reshape_p.batch = _reshape_batch
squeeze_p.batch = _squeeze_batch
expand_dims_p.batch = _expand_dims_batch
transpose_p.batch = _transpose_batch
rev_p.batch = _rev_batch
concatenate_p.batch = _concatenate_batch
pad_p.batch = _pad_batch
_unary_same_bdim(copy_p)
_unary_same_bdim(stop_gradient_p)


# --- lowering to StableHLO ----------------------------------------------------------------------
from transforms.lowering import i64_array  # noqa: E402
from xnp.lax._lower_util import astype, real_dtype  # noqa: E402


def _convert_lower(ctx, x, *, new_dtype, weak_type=False):
    return astype(ctx, x, new_dtype)


def _bitcast_lower(ctx, x, *, new_dtype):
    # StableHLO bitcasts neither booleans nor complex numbers: booleans go through uint8,
    # complex numbers through (real, imag) pairs on a last axis of their float type.
    new, out_shape = np.dtype(new_dtype), ctx.avals_out[0].shape
    if x.dtype == np.bool_:
        x = ctx.convert(x, np.uint8)
    if x.dtype.kind == "c":
        parts = [ctx.reshape(ctx.unary(p, x, real_dtype(x.dtype)), (*x.shape, 1))
                 for p in ("real", "imag")]
        x = ctx.op("stablehlo.concatenate", parts, ((*x.shape, 2), parts[0].dtype),
                   {"dimension": f"{x.ndim} : i64"})
    via = np.dtype(np.uint8) if new == np.bool_ else real_dtype(new)
    old_size, new_size = x.dtype.itemsize, via.itemsize
    if old_size < new_size:           # StableHLO wants the last axis to make one element
        x = ctx.reshape(x, (int(np.prod(x.shape)) * old_size // new_size,
                            new_size // old_size))
    shape = x.shape[:-1] if old_size < new_size else \
        x.shape if old_size == new_size else (*x.shape, old_size // new_size)
    y = ctx.op("stablehlo.bitcast_convert", [x], (shape, via))
    if new.kind == "c":
        y = ctx.reshape(y, (*out_shape, 2))
        re, im = (ctx.reshape(ctx.op("stablehlo.slice", [y], ((*out_shape, 1), via), {
            "start_indices": i64_array([0] * len(out_shape) + [i]),
            "limit_indices": i64_array([*out_shape, i + 1]),
            "strides": i64_array([1] * (len(out_shape) + 1))}), out_shape) for i in (0, 1))
        return ctx.op("stablehlo.complex", [re, im], (out_shape, new))
    return ctx.convert(ctx.reshape(y, out_shape), new)


def _iota_lower(ctx, *, dtype, shape, dimension):
    dtype = np.dtype(dtype)
    via = dtype if dtype.kind in "iu" else np.dtype(np.int64)
    out = ctx.op("stablehlo.iota", [], (shape, via),
                 {"iota_dimension": f"{dimension % len(shape)} : i64"})
    return astype(ctx, out, dtype)


def _reshape_lower(ctx, x, **_):
    return ctx.reshape(x, ctx.avals_out[0].shape)


def _transpose_lower(ctx, x, *, permutation):
    return ctx.op("stablehlo.transpose", [x], ctx.avals_out[0],
                  {"permutation": i64_array(permutation)})


def _rev_lower(ctx, x, *, dimensions):
    dims = normalize_axes(dimensions, x.ndim)
    return ctx.op("stablehlo.reverse", [x], ctx.avals_out[0],
                  {"dimensions": i64_array(dims)}) if dims else x


def _concatenate_lower(ctx, *xs, dimension):
    (dimension,) = normalize_axes((dimension,), xs[0].ndim)
    return ctx.op("stablehlo.concatenate", list(xs), ctx.avals_out[0],
                  {"dimension": f"{dimension} : i64"})


def _pad_lower(ctx, x, padding_value, *, padding_config):
    # The padding value is cast as NumPy's np.full casts it.
    value = ctx.reshape(astype(ctx, padding_value, x.dtype, scalar=True), ())
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    return ctx.op("stablehlo.pad", [x, value], ctx.avals_out[0], {
        "edge_padding_low": i64_array(lo), "edge_padding_high": i64_array(hi),
        "interior_padding": i64_array(interior)})


convert_element_type_p.lower = _convert_lower
bitcast_convert_type_p.lower = _bitcast_lower
iota_p.lower = _iota_lower
broadcast_in_dim_p.lower = lambda ctx, x, *, shape, broadcast_dimensions: ctx.broadcast(
    x, shape, broadcast_dimensions)
for _p in (reshape_p, squeeze_p, expand_dims_p):
    _p.lower = _reshape_lower
transpose_p.lower = _transpose_lower
rev_p.lower = _rev_lower
concatenate_p.lower = _concatenate_lower
pad_p.lower = _pad_lower
for _p in (copy_p, stop_gradient_p):
    _p.lower = lambda ctx, x, **_: x
del _p
