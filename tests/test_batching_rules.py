"""Batching rules of every lax primitive: ``vmap`` of the primitive equals the Python loop
over the batch of the unbatched primitive, for mapped axes first, last, in the middle,
negative, and unmapped operands; plus nested vmap and vmap of grad."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.lax import GatherDimensionNumbers as GDN
from xnp.lax import ScatterDimensionNumbers as SDN

B = 3


def _normal(*shape, dtype=np.float64):
    return lambda rng: rng.normal(size=shape).astype(dtype)


def _ints(lo, hi, *shape, dtype=np.int64):
    return lambda rng: rng.integers(lo, hi, size=shape).astype(dtype)


def _scalar_int(lo, hi):
    return lambda rng: np.asarray(rng.integers(lo, hi), np.int32)


def _axis_choices(ndim):
    """Mapped axes of a stacked operand of rank ``ndim + 1``: None, first, last (as a
    negative axis), and one in the middle."""
    out = [None, 0]
    if ndim >= 1:
        out.append(-1)
    if ndim >= 2:
        out.append(1)
    return out


def _assert_same(actual, expected, rtol):
    if isinstance(expected, list):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _assert_same(a, e, rtol)
        return
    a, e = np.asarray(actual), np.asarray(expected)
    assert a.shape == e.shape, (a.shape, e.shape)
    assert a.dtype == e.dtype, (a.dtype, e.dtype)
    if e.dtype.kind in "fc":
        np.testing.assert_allclose(a, e, rtol=rtol, atol=1e-13, equal_nan=True)
    else:
        np.testing.assert_array_equal(a, e)


def _stack(outs):
    if isinstance(outs[0], (list, tuple)):
        return [_stack([o[i] for o in outs]) for i in range(len(outs[0]))]
    return np.stack([np.asarray(o) for o in outs])


def check_all_axes(fn, gens, seed=0, rtol=1e-12, max_combos=None):
    """vmap(fn) against the loop, for every combination of mapped axes of the operands
    (at least one mapped)."""
    rng = np.random.default_rng(seed)
    members = [[g(rng) for _ in range(B)] for g in gens]
    choices = [_axis_choices(np.ndim(m[0])) for m in members]
    combos = [c for c in itertools.product(*choices) if any(a is not None for a in c)]
    if max_combos is not None and len(combos) > max_combos:
        pick = rng.choice(len(combos), size=max_combos, replace=False)
        combos = [combos[i] for i in sorted(pick)]
    for axes in combos:
        per = [[m[k] if a is not None else m[0] for m, a in zip(members, axes)]
               for k in range(B)]
        expected = _stack([fn(*[xnp.asarray(v) for v in args]) for args in per])
        batched = [xnp.asarray(np.stack(m, axis=a)) if a is not None else xnp.asarray(m[0])
                   for m, a in zip(members, axes)]
        out = xnp.vmap(fn, in_axes=axes)(*batched)
        if isinstance(out, tuple):
            out = list(out)
        try:
            _assert_same(out, expected, rtol)
        except AssertionError as e:
            raise AssertionError(f"in_axes={axes}: {e}") from None


def prim(name, **params):
    f = getattr(lax, name)
    return lambda *args: f(*args, **params)


# --- structural ---------------------------------------------------------------------------------
STRUCTURAL = [
    ("convert_int32", prim("convert_element_type", new_dtype=np.dtype(np.int32)),
     [_normal(2, 3)]),
    ("convert_float32", prim("convert_element_type", new_dtype=np.dtype(np.float32),
                             weak_type=False), [_normal(2, 3)]),
    ("bitcast_grow", prim("bitcast_convert_type", new_dtype=np.dtype(np.uint8)),
     [_ints(-1000, 1000, 2, 3, dtype=np.int32)]),
    ("bitcast_shrink", prim("bitcast_convert_type", new_dtype=np.dtype(np.uint16)),
     [_ints(0, 256, 3, 2, dtype=np.uint8)]),
    ("bitcast_same", prim("bitcast_convert_type", new_dtype=np.dtype(np.int64)),
     [_normal(4)]),
    ("broadcast_in_dim", prim("broadcast_in_dim", shape=(2, 3, 4),
                              broadcast_dimensions=(1, 2)), [_normal(3, 1)]),
    ("broadcast_scalar", prim("broadcast_in_dim", shape=(2, 3), broadcast_dimensions=()),
     [_normal()]),
    ("reshape", prim("reshape", new_sizes=(6, 4)), [_normal(2, 3, 4)]),
    ("reshape_flat", prim("reshape", new_sizes=(24,)), [_normal(2, 3, 4)]),
    ("squeeze", prim("squeeze", dimensions=(1, -1)), [_normal(2, 1, 3, 1)]),
    ("expand_dims", prim("expand_dims", dimensions=(0, -1)), [_normal(2, 3)]),
    ("expand_dims_mid", prim("expand_dims", dimensions=(1,)), [_normal(2, 3)]),
    ("transpose", prim("transpose", permutation=(2, 0, 1)), [_normal(2, 3, 4)]),
    ("rev", prim("rev", dimensions=(0, -1)), [_normal(2, 3, 4)]),
    ("concatenate", prim("concatenate", dimension=1),
     [_normal(2, 3), _normal(2, 1), _normal(2, 2)]),
    ("concatenate0", prim("concatenate", dimension=0), [_normal(2, 3), _normal(1, 3)]),
    ("pad", prim("pad", padding_config=((1, 2, 0), (0, 1, 1))), [_normal(2, 3), _normal()]),
    ("pad_negative", prim("pad", padding_config=((-1, 1, 0), (1, -1, 2))),
     [_normal(3, 3), _normal()]),
    ("pad_int", prim("pad", padding_config=((2, 0, 1),)),
     [_ints(0, 9, 3, dtype=np.int32), _ints(-5, 0, dtype=np.int32)]),
    ("copy", prim("copy"), [_normal(2, 3)]),
    ("stop_gradient", lambda x: lax.stop_gradient(x), [_normal(2, 3)]),
]


@pytest.mark.parametrize("fn,gens", [c[1:] for c in STRUCTURAL],
                         ids=[c[0] for c in STRUCTURAL])
def test_structural(fn, gens):
    check_all_axes(fn, gens)


def test_iota_never_batched():
    out = xnp.vmap(lambda: lax.iota(dtype=np.dtype(np.int32), shape=(2, 3), dimension=1),
                   in_axes=(), axis_size=B)()
    np.testing.assert_array_equal(out, np.broadcast_to(np.arange(3, dtype=np.int32),
                                                       (B, 2, 3)))
    x = np.arange(B * 3.0).reshape(B, 3)
    out = xnp.vmap(lambda r: r * lax.iota(dtype=np.dtype(np.float64), shape=(3,),
                                          dimension=0))(xnp.asarray(x))
    np.testing.assert_array_equal(out, x * np.arange(3.0))


def test_pad_batched_padding_value_keeps_dtype():
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    pv = np.array([1.0, 2.0, 3.0])
    out = xnp.vmap(lambda v: lax.pad(xnp.asarray(x), v.astype(np.float32),
                                     padding_config=((1, 0, 0), (0, 0, 1))))(xnp.asarray(pv))
    expected = np.stack([np.asarray(lax.pad(x, np.float32(v),
                                            padding_config=((1, 0, 0), (0, 0, 1))))
                         for v in pv])
    assert np.asarray(out).dtype == np.float32
    np.testing.assert_array_equal(out, expected)


# --- slicing ------------------------------------------------------------------------------------
ROWS = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
POINTS = GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
MIDDLE = GDN(offset_dims=(0, 2), collapsed_slice_dims=(1,), start_index_map=(1,))
WINDOWS = GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(1, 0))

SLICING = [
    ("slice", prim("slice", start_indices=(1, 0), limit_indices=(3, 5)), [_normal(4, 5)]),
    ("slice_strided", prim("slice", start_indices=(0, 1), limit_indices=(4, 5),
                           strides=(3, 2)), [_normal(4, 5)]),
    ("dynamic_slice", prim("dynamic_slice", slice_sizes=(2, 3)),
     [_normal(5, 6), _scalar_int(-3, 8), _scalar_int(-3, 8)]),
    ("dynamic_slice_1d", prim("dynamic_slice", slice_sizes=(4,)),
     [_normal(6), _scalar_int(-2, 9)]),
    ("dynamic_update_slice", lambda x, u, i, j: lax.dynamic_update_slice(x, u, i, j),
     [_normal(5, 6), _normal(2, 3), _scalar_int(-3, 8), _scalar_int(-3, 8)]),
    ("gather_rows_fill", prim("gather", dimension_numbers=ROWS, slice_sizes=(1, 4),
                              mode="fill"), [_normal(5, 4), _ints(-1, 6, 3, 1)]),
    ("gather_rows_clip", prim("gather", dimension_numbers=ROWS, slice_sizes=(1, 4),
                              mode="clip"), [_normal(5, 4), _ints(-2, 7, 3, 1)]),
    ("gather_points", prim("gather", dimension_numbers=POINTS, slice_sizes=(1, 1)),
     [_normal(5, 4), _ints(0, 4, 2, 3, 2, dtype=np.int32)]),
    ("gather_middle", prim("gather", dimension_numbers=MIDDLE, slice_sizes=(5, 1, 3),
                           mode="fill", fill_value=-7.0), [_normal(5, 4, 3), _ints(-1, 5, 2, 1)]),
    ("gather_windows", prim("gather", dimension_numbers=WINDOWS, slice_sizes=(2, 3),
                            mode="clip"), [_normal(5, 6), _ints(-1, 7, 4, 2)]),
]


@pytest.mark.parametrize("fn,gens", [c[1:] for c in SLICING], ids=[c[0] for c in SLICING])
def test_slicing(fn, gens):
    check_all_axes(fn, gens)


SCATTER_ROWS = SDN(update_window_dims=(1,), inserted_window_dims=(0,),
                   scatter_dims_to_operand_dims=(0,))
SCATTER_POINTS = SDN(update_window_dims=(), inserted_window_dims=(0, 1),
                     scatter_dims_to_operand_dims=(0, 1))
SCATTER_WINDOWS = SDN(update_window_dims=(0, 2), inserted_window_dims=(),
                      scatter_dims_to_operand_dims=(1, 0))


@pytest.mark.parametrize("name", ["scatter", "scatter_add", "scatter_mul", "scatter_min",
                                  "scatter_max"])
@pytest.mark.parametrize("mode", ["fill", "clip"])
def test_scatter(name, mode):
    check_all_axes(prim(name, dimension_numbers=SCATTER_ROWS, mode=mode),
                   [_normal(5, 4), _ints(-1, 6, 3, 1), _normal(3, 4)], seed=1)
    check_all_axes(prim(name, dimension_numbers=SCATTER_POINTS, mode=mode),
                   [_normal(5, 4), _ints(0, 4, 2, 2, dtype=np.int32), _normal(2)], seed=2)
    # updates (window 0, scatter 1, window 2): a scatter dimension between windows
    check_all_axes(prim(name, dimension_numbers=SCATTER_WINDOWS, mode=mode),
                   [_normal(5, 6), _ints(-1, 6, 2, 2), _normal(2, 2, 3)], seed=3,
                   max_combos=30)


# --- reductions ---------------------------------------------------------------------------------
REDUCTIONS = [
    *[(f"{n}{axes}", prim(n, axes=axes), [_normal(3, 4, 2)])
      for n in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min")
      for axes in [(0, 2), (-1,), (1,), ()]],
    *[(f"{n}", prim(n, axes=(0, -1)), [_ints(0, 8, 3, 4, 2, dtype=np.int32)])
      for n in ("reduce_and", "reduce_or", "reduce_xor")],
    ("reduce_or_bool", prim("reduce_or", axes=(1,)),
     [lambda rng: rng.random((3, 4)) < 0.2]),
    *[(f"{n}{axis}", prim(n, axis=axis, index_dtype=np.dtype(np.int32)),
       [lambda rng: rng.integers(0, 3, (3, 4, 2)) * 1.0])
      for n in ("argmax", "argmin") for axis in (0, 1, -1)],
    *[(f"{n}{axis}{rev}", prim(n, axis=axis, reverse=rev), [_normal(3, 4)])
      for n in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp")
      for axis in (0, -1) for rev in (False, True)],
    ("sort", prim("sort", dimension=-1), [_normal(3, 4)]),
    ("sort_2_operands", prim("sort", dimension=0, num_keys=1),
     [_ints(0, 3, 4, 3), _normal(4, 3)]),
    ("sort_2_keys", prim("sort", dimension=1, num_keys=2),
     [_ints(0, 2, 3, 5), _ints(0, 3, 3, 5), _normal(3, 5)]),
    ("top_k", prim("top_k", k=2), [_normal(3, 5)]),
    ("top_k_ties", prim("top_k", k=3), [_ints(0, 3, 2, 5, dtype=np.int32)]),
]


@pytest.mark.parametrize("fn,gens", [c[1:] for c in REDUCTIONS],
                         ids=[c[0] for c in REDUCTIONS])
def test_reductions(fn, gens):
    check_all_axes(fn, gens, max_combos=40)


# --- dot_general --------------------------------------------------------------------------------
DOTS = [
    ("matmul", (((1,), (0,)), ((), ())), [_normal(3, 4), _normal(4, 5)]),
    ("matvec", (((1,), (0,)), ((), ())), [_normal(3, 4), _normal(4)]),
    ("vecvec", (((0,), (0,)), ((), ())), [_normal(4), _normal(4)]),
    ("outer", (((), ()), ((), ())), [_normal(2), _normal(3)]),
    ("batched", (((2,), (1,)), ((0,), (0,))), [_normal(2, 3, 4), _normal(2, 4, 5)]),
    ("batched_mixed", (((0,), (2,)), ((2,), (0,))), [_normal(4, 3, 2), _normal(2, 5, 4)]),
    ("two_contract", (((0, 2), (1, 0)), ((), ())), [_normal(3, 2, 4), _normal(4, 3, 5)]),
]


@pytest.mark.parametrize("dn,gens", [c[1:] for c in DOTS], ids=[c[0] for c in DOTS])
def test_dot_general(dn, gens):
    check_all_axes(prim("dot_general", dimension_numbers=dn), gens)


def test_dot_general_preferred_element_type():
    check_all_axes(prim("dot_general", dimension_numbers=(((1,), (0,)), ((), ())),
                        preferred_element_type=np.dtype(np.float32)),
                   [_ints(-3, 3, 2, 3, dtype=np.int32), _ints(-3, 3, 3, 2, dtype=np.int32)])


# --- nesting and compositions -------------------------------------------------------------------
def _double_loop(f, x, y):
    # x mapped along (outer 0, inner 1 of the member), y mapped along outer 0 only
    return np.stack([np.stack([np.asarray(f(xnp.asarray(x[i, :, j]), xnp.asarray(y[i])))
                               for j in range(x.shape[2])]) for i in range(x.shape[0])])


@pytest.mark.parametrize("f", [
    lambda a, b: lax.dot_general(a, b, dimension_numbers=(((0,), (1,)), ((), ()))),
    lambda a, b: lax.gather(b, lax.convert_element_type(
        lax.reshape(lax.clamp(0, a, 3.0), new_sizes=(4, 1)), new_dtype=np.dtype(np.int64)),
        dimension_numbers=ROWS, slice_sizes=(1, 4), mode="clip"),
    lambda a, b: lax.sort(a, b[0], dimension=0, num_keys=1)[1],
    lambda a, b: lax.concatenate(a, b[:, 0], dimension=0),
    lambda a, b: lax.dynamic_slice(b, lax.convert_element_type(
        a[0], new_dtype=np.dtype(np.int32)), 1, slice_sizes=(2, 2)),
], ids=["dot_general", "gather", "sort", "concatenate", "dynamic_slice"])
def test_nested_vmap(f):
    rng = np.random.default_rng(5)
    x = np.round(rng.normal(size=(3, 4, 2)) * 2)
    y = rng.normal(size=(3, 4, 4))
    out = xnp.vmap(xnp.vmap(f, in_axes=(1, None)), in_axes=(0, 0))(xnp.asarray(x),
                                                                   xnp.asarray(y))
    np.testing.assert_allclose(out, _double_loop(f, x, y), rtol=1e-12)


def test_vmap_of_grad_compositions():
    rng = np.random.default_rng(7)
    w = rng.normal(size=(4, 3))
    xs = rng.normal(size=(5, 2, 4))
    idx = np.array([2, 0, 2])

    def f(w, x):
        h = x @ w                                   # (2, 3)
        g = xnp.where(h > 0, h ** 2, xnp.sin(h))
        picked = g[:, idx] * w[1:3, ::2][:, :1]     # gather + strided slice
        return xnp.sum(g) + xnp.sum(picked * picked) + xnp.sum(xnp.max(w * x[0][:, None],
                                                                       axis=0))

    g = xnp.grad(f)
    loop_ = np.stack([np.asarray(g(xnp.asarray(w), xnp.asarray(x))) for x in xs])
    out = xnp.vmap(g, in_axes=(None, 0))(xnp.asarray(w), xnp.asarray(xs))
    np.testing.assert_allclose(out, loop_, rtol=1e-12)
    ws = rng.normal(size=(5, 4, 3))
    loop_ = np.stack([np.asarray(g(xnp.asarray(a), xnp.asarray(x))) for a, x in zip(ws, xs)])
    out = xnp.vmap(g, in_axes=(0, 0))(xnp.asarray(ws), xnp.asarray(xs))
    np.testing.assert_allclose(out, loop_, rtol=1e-12)
    # with respect to x, mapped along its last axis
    gx = xnp.grad(f, argnums=1)
    loop_ = np.stack([np.asarray(gx(xnp.asarray(w), xnp.asarray(x))) for x in xs])
    out = xnp.vmap(gx, in_axes=(None, 2), out_axes=0)(xnp.asarray(w),
                                                      xnp.asarray(np.moveaxis(xs, 0, 2)))
    np.testing.assert_allclose(out, loop_, rtol=1e-12)


# --- custom derivatives -------------------------------------------------------------------------
def test_custom_jvp_under_vmap_keeps_weak_scalars():
    x = np.array([0.0, 1.5, -2.0], np.float16)
    out = xnp.vmap(lambda a: xnp.hypot(0, a))(xnp.asarray(x))
    assert np.asarray(out).dtype == np.float16
    np.testing.assert_array_equal(out, np.hypot(0, x))


def _custom_vjp_fn():
    @xnp.custom_vjp
    def g(x, y):
        return xnp.sin(x) * y

    g.defvjp(lambda x, y: (xnp.sin(x) * y, (xnp.cos(x), y, xnp.sin(x))),
             lambda r, ct: (ct * r[0] * r[1], ct * r[2]))
    return g


def test_custom_lin_batching():
    from transforms.ad import backward_pass
    from transforms.jaxpr import make_jaxpr
    g = _custom_vjp_fn()
    x, y = np.array([0.1, 0.2]), np.array([1.5, 2.0])
    _, f_jvp = xnp.linearize(g, xnp.asarray(x), xnp.asarray(y))
    ts = xnp.asarray(np.ones((3, 2)))
    jaxpr = make_jaxpr(xnp.vmap(f_jvp, in_axes=(0, 1)))(ts, ts.T)   # custom_lin, batched
    cts = np.arange(6.0).reshape(3, 2)
    tx, ty = backward_pass(jaxpr.jaxpr, jaxpr.consts, [cts])
    np.testing.assert_allclose(tx, np.cos(x) * y * cts)
    np.testing.assert_allclose(ty, (np.sin(x) * cts).T)
    with pytest.raises(TypeError, match="forward-mode"):
        xnp.vmap(lambda t: xnp.jvp(g, (xnp.asarray(x), xnp.asarray(y)), (t, t))[1])(ts)
    # batched residuals (linearized inside vmap) reach the same clear error
    with pytest.raises(TypeError, match="forward-mode"):
        xnp.vmap(lambda a, t: xnp.linearize(g, a, xnp.asarray(y))[1](t, t))(ts, ts)
    out = xnp.vmap(lambda a, c: xnp.vjp(g, a, xnp.asarray(y))[1](c)[0])(ts, 2 * ts)
    np.testing.assert_allclose(out, np.broadcast_to(2 * np.cos(1.0) * y, (3, 2)))
