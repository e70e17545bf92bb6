"""Reductions, arg-reductions and cumulative scans (sorting is in ``_sorting.py``).

Reductions keep their operand's dtype (``reduce_sum`` of int32 is int32); the NumPy
functions choose NumPy's accumulation dtype and convert before reducing.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import native, normalize_axes, primitive


def _reduce_eval(x, *, axes):
    axes = normalize_axes(axes, x.ndim)
    shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    return ShapedArray(shape, native(x.dtype), x.weak_type)


def _reduction(name, reducer):
    def impl(x, *, axes):
        x = np.asarray(x)
        # a NumPy scalar for 0-d, as NumPy; byte-swapped data reduces to native values
        return reducer(x, axis=axes, dtype=native(x.dtype))
    return primitive(name, impl=impl, abstract_eval=_reduce_eval)


def _extremum(name, reducer):
    def impl(x, *, axes):
        x = np.asarray(x)
        if x.size == 0 and any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"zero-size array to reduction operation {name} which has "
                             "no identity")
        return reducer(x, axis=tuple(axes))
    return primitive(name, impl=impl, abstract_eval=_reduce_eval)


def _bool_reducer(ufunc):
    def reducer(x, axis, dtype):
        return ufunc.reduce(x, axis=axis, dtype=dtype)
    return reducer


reduce_sum_p = _reduction("reduce_sum", np.add.reduce)
reduce_prod_p = _reduction("reduce_prod", np.multiply.reduce)
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
        out = np.asarray(accumulate(x, axis=axis, dtype=native(x.dtype)))
        return np.flip(out, axis) if reverse else out

    def abstract_eval(x, *, axis, reverse=False):
        normalize_axes((axis,), x.ndim)
        return ShapedArray(x.shape, native(x.dtype), x.weak_type)
    return primitive(name, impl=impl, abstract_eval=abstract_eval)


def _logaddexp_accumulate(x, axis, dtype):
    return np.logaddexp.accumulate(x, axis=axis, dtype=dtype)


cumsum_p = _cumulative("cumsum", np.add.accumulate)
cumprod_p = _cumulative("cumprod", np.multiply.accumulate)
cummax_p = _cumulative("cummax", np.maximum.accumulate)
cummin_p = _cumulative("cummin", np.minimum.accumulate)
cumlogsumexp_p = _cumulative("cumlogsumexp", _logaddexp_accumulate)


__all__ = [name for name in dir() if name.endswith("_p")]


# --- derivatives ---------------------------------------------------------------------------------
# Rules bind primitives only. Products and cumulative products stay exact where factors
# are zero (no division); extrema split ties evenly, as JAX.
from transforms.ad import tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    aval_of,
    defjvp,
    defjvp_ans,
    defjvp_zero,
    deflinear,
)
from xnp.lax._elementwise import (  # noqa: E402
    div_p,
    eq_p,
    exp_p,
    mul_p,
    sub_p,
)
from xnp.lax._selection import select_n_p  # noqa: E402
from xnp.lax._slicing import slice_p, take_along_axis  # noqa: E402
from xnp.lax._structural import (  # noqa: E402
    broadcast_in_dim_p,
    convert_element_type_p,
    iota_p,
    pad_p,
    reshape_p,
    transpose_p,
)

mul, div, eq, reduce_sum = mul_p.bind, div_p.bind, eq_p.bind, reduce_sum_p.bind
select = lambda c, x, y: select_n_p.bind(c, y, x)  # noqa: E731  (x where c, else y)
_I64 = np.dtype(np.int64)


def _kept(ndim, axes):
    return tuple(d for d in range(ndim) if d not in axes)


def _reduce_sum_transpose(ct, x, *, axes):
    xa = aval_of(x)
    kept = _kept(xa.ndim, normalize_axes(axes, xa.ndim))
    return [broadcast_in_dim_p.bind(ct, shape=xa.shape, broadcast_dimensions=kept)]


def _products_of_others(x):
    """For each element along the last axis, the product of all the others: exclusive
    prefix times exclusive suffix products, so zeros need no division."""
    xa = get_aval(x)
    *batch, n = xa.shape
    one = np.ones((), xa.dtype)
    last = len(batch)
    lo, hi = (0,) * xa.ndim, xa.shape
    prefix = slice_p.bind(cumprod_p.bind(x, axis=last), start_indices=lo,
                          limit_indices=(*batch, n - 1))
    suffix = slice_p.bind(cumprod_p.bind(x, axis=last, reverse=True),
                          start_indices=(*lo[:-1], 1), limit_indices=hi)
    edge = ((0, 0, 0),) * last
    return mul(pad_p.bind(prefix, one, padding_config=(*edge, (1, 0, 0))),
               pad_p.bind(suffix, one, padding_config=(*edge, (0, 1, 0))))


def _reduce_prod_tangent(g, x, *, axes):
    # sum_j g_j * prod_{k != j} x_k, with the reduced axes flattened into the last one.
    xa = get_aval(x)
    axes = normalize_axes(axes, xa.ndim)
    kept = _kept(xa.ndim, axes)
    shape = (*(xa.shape[d] for d in kept), int(np.prod([xa.shape[a] for a in axes],
                                                       dtype=np.int64)))
    if shape[-1] == 0:
        return mul(reduce_sum(g, axes=axes), 0)

    def flat(v):
        return reshape_p.bind(transpose_p.bind(v, permutation=(*kept, *sorted(axes))),
                              new_sizes=shape)
    return reduce_sum(mul(flat(g), _products_of_others(flat(x))), axes=(len(kept),))


def _extremum_tangent(g, ans, x, *, axes):
    # Average of the tangents at the positions attaining the extremum (ties split evenly).
    xa = get_aval(x)
    axes = normalize_axes(axes, xa.ndim)
    full = broadcast_in_dim_p.bind(ans, shape=xa.shape,
                                   broadcast_dimensions=_kept(xa.ndim, axes))
    mask = convert_element_type_p.bind(eq(x, full), new_dtype=tangent_aval(xa).dtype,
                                       weak_type=False)
    return div(reduce_sum(mul(g, mask), axes=axes), reduce_sum(mask, axes=axes))


def _pairwise(x, axis):
    """(dims placing x's ``axis`` at a new axis ``axis`` (k), dims placing it at ``axis+1``
    (i), the shape with both): broadcasting layouts for O(n^2) scan derivatives."""
    xa = get_aval(x)
    k_dims = tuple(d + (d > axis) for d in range(xa.ndim))
    i_dims = tuple(d + (d >= axis) for d in range(xa.ndim))
    return k_dims, i_dims, (*xa.shape[:axis], xa.shape[axis], *xa.shape[axis:])


def _scan_mask(n, axis, big, reverse):
    """[k, i] is True where element k enters the scan's output i (k <= i, or k >= i)."""
    tri = np.triu(np.ones((n, n), bool)) if not reverse else np.tril(np.ones((n, n), bool))
    return broadcast_in_dim_p.bind(tri, shape=big, broadcast_dimensions=(axis, axis + 1))


def _cumprod_tangent(g, x, *, axis, reverse=False):
    # out_i = prod_{k <= i} x_k: tangent_i = sum_{k <= i} g_k prod_{m <= i, m != k} x_m.
    # W[k, i] = cumprod over i of x with x_k replaced by 1, masked to k <= i: exact at
    # zeros, O(n^2) along the axis.
    axis = normalize_axes((axis,), get_aval(x).ndim)[0]
    k_dims, i_dims, big = _pairwise(x, axis)
    n = big[axis]
    eye = broadcast_in_dim_p.bind(np.eye(n, dtype=bool), shape=big,
                                  broadcast_dimensions=(axis, axis + 1))
    y = select(eye, 1, broadcast_in_dim_p.bind(x, shape=big, broadcast_dimensions=i_dims))
    w = select(_scan_mask(n, axis, big, reverse), cumprod_p.bind(y, axis=axis + 1,
                                                                 reverse=reverse), 0)
    gb = broadcast_in_dim_p.bind(g, shape=big, broadcast_dimensions=k_dims)
    return reduce_sum(mul(gb, w), axes=(axis,))


def _cumlogsumexp_tangent(g, ans, x, *, axis, reverse=False):
    # tangent_i = sum_{k <= i} g_k exp(x_k - out_i); every exponent kept is <= 0.
    axis = normalize_axes((axis,), get_aval(x).ndim)[0]
    k_dims, i_dims, big = _pairwise(x, axis)
    mask = _scan_mask(big[axis], axis, big, reverse)
    diff = sub_p.bind(broadcast_in_dim_p.bind(x, shape=big, broadcast_dimensions=k_dims),
                      broadcast_in_dim_p.bind(ans, shape=big, broadcast_dimensions=i_dims))
    w = select(mask, exp_p.bind(select(mask, diff, 0)), 0)
    gb = broadcast_in_dim_p.bind(g, shape=big, broadcast_dimensions=k_dims)
    return reduce_sum(mul(gb, w), axes=(axis,))


def _cum_extremum_tangent(g, ans, x, *, axis, reverse=False):
    # The tangent at i is the one at the nearest position up to i (in scan order) holding
    # the running extremum: on ties, the latest such position.
    xa = get_aval(x)
    axis = normalize_axes((axis,), xa.ndim)[0]
    pos = iota_p.bind(dtype=_I64, shape=xa.shape, dimension=axis)
    if not reverse:
        src = cummax_p.bind(select(eq(x, ans), pos, -1), axis=axis)
    else:
        src = cummin_p.bind(select(eq(x, ans), pos, xa.shape[axis]), axis=axis, reverse=True)
    return take_along_axis(g, src, axis)


deflinear(reduce_sum_p, _reduce_sum_transpose)
defjvp(reduce_prod_p, _reduce_prod_tangent)
defjvp_ans(reduce_max_p, _extremum_tangent)
defjvp_ans(reduce_min_p, _extremum_tangent)
for _p in (reduce_and_p, reduce_or_p, reduce_xor_p, argmax_p, argmin_p):
    defjvp_zero(_p)                  # integer or boolean results: nothing flows through
deflinear(cumsum_p, lambda ct, x, *, axis, reverse=False: [
    cumsum_p.bind(ct, axis=axis, reverse=not reverse)])
defjvp(cumprod_p, _cumprod_tangent)
defjvp_ans(cummax_p, _cum_extremum_tangent)
defjvp_ans(cummin_p, _cum_extremum_tangent)
defjvp_ans(cumlogsumexp_p, _cumlogsumexp_tangent)
del _p


# --- batching ------------------------------------------------------------------------------------
# Rules receive values with a batch dimension (an int) or None, bind primitives only, and
# return (batched value, its batch dimension): the axes shift past the batch dimension.
from xnp.lax._batch_util import shift_axes  # noqa: E402


def _axis_of(axis, x, d):
    """``axis`` of the unbatched operand, as an axis of ``x`` batched at ``d``."""
    (axis,) = normalize_axes((axis,), get_aval(x).ndim - 1)
    return axis + (axis >= d)


def _reduce_batch(prim):
    def rule(vals, dims, *, axes):
        (x,), (d,) = vals, dims
        axes = shift_axes(normalize_axes(axes, get_aval(x).ndim - 1), d)
        return prim.bind(x, axes=axes), d - sum(a < d for a in axes)
    prim.batch = rule


def _arg_batch(prim):
    def rule(vals, dims, *, axis, index_dtype):
        (x,), (d,) = vals, dims
        axis = _axis_of(axis, x, d)
        return prim.bind(x, axis=axis, index_dtype=index_dtype), d - (axis < d)
    prim.batch = rule


def _cumulative_batch(prim):
    def rule(vals, dims, *, axis, reverse=False):
        (x,), (d,) = vals, dims
        return prim.bind(x, axis=_axis_of(axis, x, d), reverse=reverse), d
    prim.batch = rule


for _p in (reduce_sum_p, reduce_prod_p, reduce_max_p, reduce_min_p, reduce_and_p,
           reduce_or_p, reduce_xor_p):
    _reduce_batch(_p)
for _p in (argmax_p, argmin_p):
    _arg_batch(_p)
for _p in (cumsum_p, cumprod_p, cummax_p, cummin_p, cumlogsumexp_p):
    _cumulative_batch(_p)
del _p


# --- lowering to StableHLO ----------------------------------------------------------------------
# Reductions are stablehlo.reduce with NumPy's combining function; float16 sums and products
# accumulate in float32, as NumPy's half loops do. Cumulative ops are a sequential loop
# along the axis, so that floating-point results are NumPy's bit for bit (XLA's
# reduce_window reassociates). Orderings (extrema, arg-extrema, sort, top_k) compare
# integer keys made from the bits (order_keys): XLA's CPU float comparisons treat
# subnormals as zero. Off the CPU, reductions compare the floats themselves (reduction_keys).
from transforms.lowering import i64_array  # noqa: E402
from xnp.lax._lower_util import (  # noqa: E402
    is_nan,
    lex_compare,
    reduction_keys,
)


def _scalar(ctx, value, dtype):
    return ctx.constant(np.asarray(value, dtype))


def _and(ctx, *ps):
    """The conjunction of the flags that are not None (None if all are)."""
    ps = [p for p in ps if p is not None]
    out = ps[0] if ps else None
    for p in ps[1:]:
        out = ctx.binary("and", out, p)
    return out


def _not(ctx, p):
    return None if p is None else ctx.unary("not", p)


def _extremum(largest):
    """NumPy's maximum/minimum: ``a`` if it is NaN or wins (float16 and complex: or ties),
    else ``b`` (so a NaN propagates)."""
    def fn(ctx, a, b):
        if a.dtype == np.bool_:
            return ctx.binary("or" if largest else "and", a, b)
        if a.dtype.kind in "iu":
            return ctx.binary("maximum" if largest else "minimum", a, b)
        (an, ka), (bn, kb) = reduction_keys(ctx, a), reduction_keys(ctx, b)
        direction = ("G" if largest else "L") + (
            "E" if a.dtype == np.float16 or a.dtype.kind == "c" else "T")
        wins = _and(ctx, _not(ctx, bn), lex_compare(ctx, ka, kb, direction))
        return ctx.select(ctx.binary("or", an, wins), a, b)
    return fn


def _reduce(ctx, xs, inits, axes, body):
    """stablehlo.reduce of the same-shape ``xs`` over ``axes``; ``body(*accs, *elems)``."""
    shape = tuple(s for i, s in enumerate(xs[0].shape) if i not in axes)
    region = ctx.region([((), x.dtype) for x in xs] * 2, body)
    return ctx.op("stablehlo.reduce", [*xs, *inits], [(shape, x.dtype) for x in xs],
                  {"dimensions": i64_array(sorted(axes))}, regions=[region])


def _extreme(dtype, largest):
    """The identity of max (``largest=False``) or min (``largest=True``)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return largest
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.max if largest else info.min
    inf = np.inf if largest else -np.inf
    return complex(inf, inf) if dtype.kind == "c" else inf


def _combiner(name):
    """(fn(ctx, a, b) elementwise, identity(dtype)) of a reduction or scan."""
    def logical(op, on_bool):
        return lambda ctx, a, b: ctx.binary(on_bool if a.dtype == np.bool_ else op, a, b)
    return {
        "sum": (logical("add", "or"), lambda d: 0),
        "prod": (logical("multiply", "and"), lambda d: 1),
        "max": (_extremum(True), lambda d: _extreme(d, False)),
        "min": (_extremum(False), lambda d: _extreme(d, True)),
        "and": (logical("and", "and"), lambda d: True if d == np.bool_ else -1),
        "or": (logical("or", "or"), lambda d: 0),
        "xor": (logical("xor", "xor"), lambda d: 0),
        "logaddexp": (lambda ctx, a, b: _logaddexp(ctx, a, b), None),
    }[name]


def _reduction_rule(name):
    fn, identity = _combiner(name)

    def rule(ctx, x, *, axes):
        axes = normalize_axes(axes, x.ndim)
        out_dtype = x.dtype
        if name in ("sum", "prod") and x.dtype == np.float16:
            x = ctx.convert(x, np.float32)           # NumPy's half loops add in float
        if not axes:
            return ctx.convert(x, out_dtype)
        init = ctx.constant(np.array(identity(x.dtype)).astype(x.dtype))
        (out,) = _reduce(ctx, [x], [init], axes, lambda a, b: fn(ctx, a, b))
        return ctx.convert(out, out_dtype)
    rule.__name__ = f"_reduce_{name}_lower"
    return rule


def _arg_rule(largest):
    # A (value, index) reduction: the better value wins, a NaN beating everything; ties
    # (NaN with NaN) go to the lower index, so that the first occurrence is returned.
    def body(ctx, av, ai, bv, bi):
        (an, ka), (bn, kb) = reduction_keys(ctx, av), reduction_keys(ctx, bv)
        plain = _and(ctx, _not(ctx, an), _not(ctx, bn))
        better = _and(ctx, plain, lex_compare(ctx, ka, kb, "GT" if largest else "LT"))
        tie = _and(ctx, plain, lex_compare(ctx, ka, kb, "EQ"))
        if an is not None:
            better = ctx.binary("or", better, _and(ctx, an, _not(ctx, bn)))
            tie = ctx.binary("or", tie, _and(ctx, an, bn))
        pick_a = ctx.binary("or", better, ctx.binary("and", tie, ctx.compare(ai, bi, "LT")))
        return [ctx.select(pick_a, av, bv), ctx.select(pick_a, ai, bi)]

    def rule(ctx, x, *, axis, index_dtype):
        (axis,) = normalize_axes((axis,), x.ndim)
        index_dtype = np.dtype(index_dtype)
        idx = ctx.op("stablehlo.iota", [], (x.shape, index_dtype),
                     {"iota_dimension": f"{axis} : i64"})
        inits = [ctx.constant(np.array(_extreme(x.dtype, not largest)).astype(x.dtype)),
                 ctx.constant(np.iinfo(index_dtype).max, index_dtype)]
        return _reduce(ctx, [x, idx], inits, (axis,), lambda *a: body(ctx, *a))[1]
    return rule


def _logaddexp(ctx, x, y):
    """NumPy's npy_logaddexp (computed in float32 for 16-bit floats, as NumPy's loops)."""
    dtype = x.dtype
    if dtype.itemsize < 4:
        x, y = ctx.convert(x, np.float32), ctx.convert(y, np.float32)
    tmp = ctx.binary("subtract", x, y)
    zero = ctx.full(x.shape, 0, x.dtype)
    big = ctx.select(ctx.compare(tmp, zero, "GT"), x, y)
    small = ctx.unary("log_plus_one", ctx.unary("exponential", ctx.unary(
        "negate", ctx.unary("abs", tmp))))
    out = ctx.select(is_nan(ctx, tmp), tmp, ctx.binary("add", big, small))
    twice = ctx.binary("add", x, ctx.full(x.shape, np.log(2), x.dtype))
    out = ctx.select(ctx.compare(x, y, "EQ"), twice, out)
    return ctx.convert(out, dtype)


def _cumulative_rule(name):
    # acc = x[first]; then for each next position p along the axis (in scan order):
    # acc = fn(acc, x[p]) and out[p] = acc -- NumPy's accumulate, one step at a time.
    fn, _ = _combiner(name)

    def rule(ctx, x, *, axis, reverse=False):
        (axis,) = normalize_axes((axis,), x.ndim)
        n = x.shape[axis]
        if n <= 1:
            return x
        i64, scalar = np.dtype(np.int64), ((), np.int64)
        slab = tuple(1 if d == axis else s for d, s in enumerate(x.shape))

        def position(i):                 # the i-th position in scan order
            return ctx.binary("subtract", _scalar(ctx, n - 1, i64), i) if reverse else i

        def at(pos):                     # start indices of the slab at ``pos``
            return [pos if d == axis else _scalar(ctx, 0, i64) for d in range(x.ndim)]

        def take(pos):
            return ctx.op("stablehlo.dynamic_slice", [x, *at(pos)], (slab, x.dtype),
                          {"slice_sizes": i64_array(slab)})
        carry = [scalar, (slab, x.dtype), (x.shape, x.dtype)]

        def cond(i, acc, out):
            return ctx.compare(i, _scalar(ctx, n, i64), "LT")

        def body(i, acc, out):
            pos = position(i)
            acc = fn(ctx, acc, take(pos))
            out = ctx.op("stablehlo.dynamic_update_slice", [out, acc, *at(pos)],
                         (x.shape, x.dtype))
            return [ctx.binary("add", i, _scalar(ctx, 1, i64)), acc, out]

        regions = [ctx.region(carry, cond), ctx.region(carry, body)]
        first = take(_scalar(ctx, n - 1 if reverse else 0, i64))
        outs = ctx.op("stablehlo.while", [_scalar(ctx, 1, i64), first, x], carry,
                      regions=regions)
        return outs[2]
    rule.__name__ = f"_cum{name}_lower"
    return rule


for _p, _name in [(reduce_sum_p, "sum"), (reduce_prod_p, "prod"), (reduce_max_p, "max"),
                  (reduce_min_p, "min"), (reduce_and_p, "and"), (reduce_or_p, "or"),
                  (reduce_xor_p, "xor")]:
    _p.lower = _reduction_rule(_name)
argmax_p.lower = _arg_rule(largest=True)
argmin_p.lower = _arg_rule(largest=False)
for _p, _name in [(cumsum_p, "sum"), (cumprod_p, "prod"), (cummax_p, "max"),
                  (cummin_p, "min"), (cumlogsumexp_p, "logaddexp")]:
    _p.lower = _cumulative_rule(_name)
del _p, _name
