"""``dot_general``: the one contraction primitive behind matmul, dot, tensordot and einsum.

Output dimensions are ordered (batch, lhs free, rhs free), as in XLA. The NumPy
implementation moves dimensions into (batch, free, contracting) order and calls
``numpy.matmul`` once, so it runs at BLAS speed.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from transforms.core import ShapedArray
from xnp._dtypes import result_dtype_of_avals
from xnp.lax._base import native, primitive


def _free_dims(ndim, contract, batch):
    return [d for d in range(ndim) if d not in contract and d not in batch]


def _dot_general_eval(x, y, *, dimension_numbers, preferred_element_type=None):
    (lc, rc), (lb, rb) = dimension_numbers
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise TypeError(f"dot_general: mismatched dimension numbers {dimension_numbers}")
    for a, b in [*zip(lc, rc), *zip(lb, rb)]:
        if not (0 <= a < x.ndim and 0 <= b < y.ndim) or x.shape[a] != y.shape[b]:
            raise ValueError(
                f"dot_general: shapes {x.shape} and {y.shape} are not aligned for "
                f"dimension numbers {dimension_numbers}")
    shape = (*(x.shape[d] for d in lb), *(x.shape[d] for d in _free_dims(x.ndim, lc, lb)),
             *(y.shape[d] for d in _free_dims(y.ndim, rc, rb)))
    dtype = preferred_element_type or result_dtype_of_avals([x, y])
    return ShapedArray(shape, dtype, x.weak_type and y.weak_type)


_OBJECT = np.dtype(object)
# np.dot without its __array_function__ dispatch step (the operands are NumPy arrays)
_np_dot = getattr(np.dot, "_implementation", np.dot)
_LARGE_PRODUCT = 1 << 22        # operand sizes multiplied


def _in_operand_dtype(out, x, y):
    """``out`` in its operands' dtype where they share one (bfloat16 loops return
    float32), in native byte order (as NumPy's products of byte-swapped data)."""
    dt = native(x.dtype)
    return out if out.dtype == dt or x.dtype != y.dtype else out.astype(dt)


def _dot_general_impl(x, y, *, dimension_numbers, preferred_element_type=None):
    x, y = np.asarray(x), np.asarray(y)
    (lc, rc), (lb, rb) = dimension_numbers
    if preferred_element_type is not None:
        x = x.astype(preferred_element_type, copy=False)
        y = y.astype(preferred_element_type, copy=False)
    if not lb and x.ndim and 0 < y.ndim <= 2 and lc == (x.ndim - 1,) and rc == (0,):
        # Matrix/vector products: one BLAS call. np.dot is the cheaper entry point, but it
        # scales by a single-element operand (0 * nan = 0), so those go to np.matmul.
        out = _np_dot(x, y) if x.size > 1 and y.size > 1 else np.matmul(x, y)
        if x.dtype == _OBJECT or y.dtype == _OBJECT:
            return np.asarray(out, dtype=_OBJECT)   # np.dot returns a bare 0-d object
        return _in_operand_dtype(out, x, y)
    if not lb and x.ndim == 2 == y.ndim and len(lc) == 1 and x.size > 1 and y.size > 1:
        # Matrix products with transposed operands (as in backward passes): BLAS reads
        # the transposed views directly, where the general path would copy. np.matmul is
        # the faster entry for large ones (a transposed left operand of a 128x784 by
        # 128x512 float32 product: 552 against 593 us), np.dot for small ones.
        product = _np_dot if x.size * y.size < _LARGE_PRODUCT else np.matmul
        out = product(x if lc == (1,) else x.T, y if rc == (0,) else y.T)
        return _in_operand_dtype(out, x, y)
    if not lc and not lb:
        # Outer products (the transpose of a matrix-vector product): one broadcast multiply.
        out = x.reshape(x.shape + (1,) * y.ndim) * y
        return _in_operand_dtype(out, x, y)
    lf, rf = _free_dims(x.ndim, lc, lb), _free_dims(y.ndim, rc, rb)
    if not lc:
        # Batched outer products (per-example gradients): one broadcast multiply, where
        # matmul would loop over many 1-deep products.
        xt = np.transpose(x, (*lb, *lf))
        yt = np.transpose(y, (*rb, *rf))
        nb = len(lb)
        out = (xt.reshape(xt.shape + (1,) * len(rf)) *
               yt.reshape(yt.shape[:nb] + (1,) * len(lf) + yt.shape[nb:]))
        return _in_operand_dtype(out, x, y)
    xt = np.transpose(x, (*lb, *lf, *lc))
    yt = np.transpose(y, (*rb, *rc, *rf))
    bshape = xt.shape[:len(lb)]
    m = math.prod(xt.shape[len(lb):len(lb) + len(lf)])
    k = math.prod(x.shape[d] for d in lc)
    n = math.prod(yt.shape[len(rb) + len(rc):])
    out = np.matmul(xt.reshape(*bshape, m, k), yt.reshape(*bshape, k, n))
    shape = (*bshape, *(x.shape[d] for d in lf), *(y.shape[d] for d in rf))
    return _in_operand_dtype(out, x, y).reshape(shape)


dot_general_p = primitive("dot_general", impl=_dot_general_impl,
                          abstract_eval=_dot_general_eval)

__all__ = ["dot_general_p"]


# --- derivatives ---------------------------------------------------------------------------------
# Bilinear: the JVP is the sum of the two products with one tangent each; each transpose is
# another dot_general (no conjugation: the pairing is real(sum(u * v)), as JAX).
from transforms.ad import bind_primal, tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    Zero,
    add_tangents,
    aval_of,
    deftranspose,
    fit,
    is_undefined,
    unbroadcast,
)
from xnp.lax._structural import transpose_p  # noqa: E402


def _dot_general_jvp(primals, tangents, *, dimension_numbers, preferred_element_type=None):
    (x, y), (tx, ty) = primals, tangents
    kw = dict(dimension_numbers=dimension_numbers, preferred_element_type=preferred_element_type)
    out = bind_primal(dot_general_p, (x, y), kw)
    oaval = tangent_aval(get_aval(out))
    t = Zero(oaval)
    if type(tx) is not Zero:
        t = add_tangents(t, fit(dot_general_p.bind(tx, y, **kw), oaval))
    if type(ty) is not Zero:
        t = add_tangents(t, fit(dot_general_p.bind(x, ty, **kw), oaval))
    return out, t


def _ranges(*sizes):
    start, out = 0, []
    for n in sizes:
        out.append(tuple(range(start, start + n)))
        start += n
    return out


@functools.lru_cache(maxsize=1024)
def _transpose_lhs_dims(x_ndim, y_ndim, dimension_numbers, swap_ans):
    """How to form the cotangent of x, the lhs of ``dot_general(x, y)``, from ct (whose
    dims are (batch, x free, y free), or (batch, y free, x free) when ``swap_ans``).

    ct's y-free dims are contracted with y's free dims, batching over the batch dims. The
    product has dims (batch, x free, x contracting in y's order) as ``dot_general(ct, y)``
    or (batch, x contracting, x free) as ``dot_general(y, ct)``; whichever needs no
    transpose back to x's order is chosen (so gradients come out C-contiguous), else
    the first. Returns (swap_operands, dimension_numbers, permutation or None)."""
    (xc, yc), (xb, yb) = dimension_numbers
    x_free = _free_dims(x_ndim, xc, xb)
    y_free = _free_dims(y_ndim, yc, yb)
    if swap_ans:
        ct_batch, ct_y, _ = _ranges(len(xb), len(y_free), len(x_free))
    else:
        ct_batch, _, ct_y = _ranges(len(xb), len(x_free), len(y_free))
    xc_by_y = [xc[i] for i in sorted(range(len(yc)), key=yc.__getitem__)]
    identity = tuple(range(x_ndim))
    variants = [(False, ((ct_y, tuple(y_free)), (ct_batch, tuple(yb))), [*xb, *x_free, *xc_by_y]),
                (True, ((tuple(y_free), ct_y), (tuple(yb), ct_batch)), [*xb, *xc_by_y, *x_free])]
    plans = [(swap, dims, tuple(sorted(range(x_ndim), key=order.__getitem__)))
             for swap, dims, order in variants]
    swap, dims, perm = next((p for p in plans if p[2] == identity), plans[0])
    return swap, dims, (None if perm == identity else perm)


def _transpose_lhs(ct, x_aval, y, dimension_numbers, preferred_element_type, swap_ans=False):
    swap, dims, perm = _transpose_lhs_dims(x_aval.ndim, get_aval(y).ndim, dimension_numbers,
                                           swap_ans)
    a, b = (y, ct) if swap else (ct, y)
    out = dot_general_p.bind(a, b, dimension_numbers=dims,
                             preferred_element_type=preferred_element_type)
    if perm is not None:
        out = transpose_p.bind(out, permutation=perm)
    return unbroadcast(out, x_aval)


def _dot_general_transpose(ct, x, y, *, dimension_numbers, preferred_element_type=None):
    (xc, yc), (xb, yb) = dimension_numbers
    t_x = _transpose_lhs(ct, aval_of(x), y, dimension_numbers, preferred_element_type) \
        if is_undefined(x) else None
    t_y = _transpose_lhs(ct, aval_of(y), x, ((yc, xc), (yb, xb)), preferred_element_type,
                         swap_ans=True) if is_undefined(y) else None
    return [t_x, t_y]


dot_general_p.jvp = _dot_general_jvp
deftranspose(dot_general_p, _dot_general_transpose)


# --- batching ------------------------------------------------------------------------------------
# The vmapped dimension joins the contraction: as a new batch dimension pair when both
# operands carry it, as a free dimension of the one operand that does otherwise.
from xnp.lax._batch_util import moveaxis_v  # noqa: E402


def _dot_general_batch(vals, dims, *, dimension_numbers, preferred_element_type=None):
    (x, y), (dx, dy) = vals, dims
    (lc, rc), (lb, rb) = dimension_numbers
    kw = dict(preferred_element_type=preferred_element_type)
    up = lambda ds, d: tuple(a + (a >= d) for a in ds)  # noqa: E731
    if dx is not None and dy is not None:
        x, y = moveaxis_v(x, dx, 0), moveaxis_v(y, dy, 0)
        dn = ((up(lc, 0), up(rc, 0)), ((0, *up(lb, 0)), (0, *up(rb, 0))))
        return dot_general_p.bind(x, y, dimension_numbers=dn, **kw), 0
    if dx is not None:
        lc, lb = up(lc, dx), up(lb, dx)
        free = _free_dims(get_aval(x).ndim, lc, lb)
        out = len(lb) + free.index(dx)
    else:
        rc, rb = up(rc, dy), up(rb, dy)
        free = _free_dims(get_aval(y).ndim, rc, rb)
        n_lhs_free = get_aval(x).ndim - len(lc) - len(lb)
        out = len(lb) + n_lhs_free + free.index(dy)
    dn = ((lc, rc), (lb, rb))
    return dot_general_p.bind(x, y, dimension_numbers=dn, **kw), out


dot_general_p.batch = _dot_general_batch


# --- lowering to StableHLO ----------------------------------------------------------------------
# Operands are converted to the result dtype first (NumPy's matmul loops compute in it);
# float16 and bfloat16 accumulate in float32 and bool products are "or" of "and"s, as in
# NumPy. HIGHEST precision keeps float32 products exact on accelerators too.
from xnp.lax._lower_util import astype  # noqa: E402


def _dims_list(dims):
    return f"[{', '.join(map(str, dims))}]"


def _dot_general_lower(ctx, x, y, *, dimension_numbers, preferred_element_type=None):
    (lc, rc), (lb, rb) = dimension_numbers
    out = ctx.avals_out[0]
    dtype = {np.dtype(np.bool_): np.dtype(np.int32), np.dtype(np.float16): np.dtype(np.float32)
             }.get(out.dtype, np.float32 if out.dtype.name == "bfloat16" else out.dtype)
    x, y = (ctx.convert(astype(ctx, v, out.dtype), dtype) for v in (x, y))
    dims = (f"#stablehlo.dot<lhs_batching_dimensions = {_dims_list(lb)}, "
            f"rhs_batching_dimensions = {_dims_list(rb)}, "
            f"lhs_contracting_dimensions = {_dims_list(lc)}, "
            f"rhs_contracting_dimensions = {_dims_list(rc)}>")
    highest = "#stablehlo<precision HIGHEST>"
    res = ctx.op("stablehlo.dot_general", [x, y], (out.shape, dtype), {
        "dot_dimension_numbers": dims, "precision_config": f"[{highest}, {highest}]"})
    return ctx.convert(res, out.dtype)


dot_general_p.lower = _dot_general_lower
