"""JVP and transpose rules of the structural, slicing, reduction and contraction primitives.

Every case binds a primitive through its ``xnp.lax`` binder and is checked by
``check_grads`` to second order in both modes: JVPs against central differences, VJPs
against JVPs (Re<u, J v> == Re<J^T u, v>), then the same checks on the JVP and VJP
functions themselves. Inputs are fixed random float64 (and complex128 where the primitive
is defined on complex numbers) arrays, chosen away from ties and kinks; the documented tie
behaviour of the extrema is checked separately against explicit formulas. The last part
differentiates the NumPy-level functions built on these primitives.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms import autodiff
from transforms.jaxpr import eval_jaxpr, make_jaxpr
from transforms.test_util import check_grads
from transforms.tree import tree_flatten, tree_map
from xnp import lax
from xnp.lax import GatherDimensionNumbers as GDN
from xnp.lax import ScatterDimensionNumbers as SDN

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")

REAL = [np.float64]
BOTH = [np.float64, np.complex128]


def rand(shape, dtype=np.float64, seed=0, low=None):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape) if low is None else \
        rng.uniform(low, low + 1.0, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1.0, 1.0, shape)
    return np.asarray(x, dtype)


def distinct(shape, seed=0):
    """Real values far from each other (no ties, even after small perturbations)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    return (rng.permutation(n) * 0.37 - n * 0.15 + rng.uniform(-0.05, 0.05, n)).reshape(shape)


IDX = np.asarray  # integer operands are closed over: they are not differentiated

# --- cases: (id, function, argument shapes or arrays, dtypes) ------------------------------------
# A case's args are a tuple of shapes (random inputs of the parametrized dtype) or arrays.

_ROWS = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
_ROWS_S = SDN(update_window_dims=(1,), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,))
_WIN = GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
_WIN_S = SDN(update_window_dims=(1, 2), inserted_window_dims=(),
             scatter_dims_to_operand_dims=(0, 1))
_PTS = GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
_PTS_S = SDN(update_window_dims=(), inserted_window_dims=(0, 1),
             scatter_dims_to_operand_dims=(0, 1))
# Repeated and out-of-bounds row indices; for the windowed case overlapping windows.
_REP = IDX([[0], [2], [0], [3], [2]])
_OOB = IDX([[1], [7], [0], [-3], [1]])
_WIN_IDX = IDX([[0, 1], [1, 0], [0, 1], [3, 2]])       # last window out of bounds for (4, 4)
_PT_IDX = IDX([[0, 1], [2, 3], [0, 1], [1, 1], [5, 0]])


def _dn(lc, rc, lb=(), rb=()):
    return ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))


CASES = [
    # structural
    ("convert_f64_c128", lambda x: lax.convert_element_type(
        x, new_dtype=np.dtype(np.complex128), weak_type=False), [(3, 4)], REAL),
    ("convert_c128_f64", lambda x: lax.convert_element_type(
        x, new_dtype=np.dtype(np.float64), weak_type=False), [(3, 4)], [np.complex128]),
    ("convert_roundtrip_int", lambda x: x * lax.convert_element_type(
        lax.convert_element_type(x * 3, new_dtype=np.dtype(np.int32), weak_type=False),
        new_dtype=np.dtype(np.float64), weak_type=False),
     [np.arange(-4, 8).reshape(3, 4) / 3 + 1 / 6], None),
    ("iota", lambda x: x * lax.iota(dtype=np.dtype(np.float64), shape=(3, 4), dimension=1),
     [(3, 4)], BOTH),
    ("broadcast_in_dim", lambda x: lax.broadcast_in_dim(
        x, shape=(2, 3, 4), broadcast_dimensions=(1,)), [(3,)], BOTH),
    ("broadcast_in_dim_grow1", lambda x: lax.broadcast_in_dim(
        x, shape=(2, 5, 3), broadcast_dimensions=(0, 2)), [(1, 3)], BOTH),
    ("broadcast_in_dim_scalar", lambda x: lax.broadcast_in_dim(
        x, shape=(2, 3), broadcast_dimensions=()), [()], BOTH),
    ("reshape", lambda x: lax.reshape(x, new_sizes=(2, 6)), [(3, 4)], BOTH),
    ("squeeze", lambda x: lax.squeeze(x, dimensions=(1, -1)), [(3, 1, 4, 1)], BOTH),
    ("expand_dims", lambda x: lax.expand_dims(x, dimensions=(0, 2)), [(3, 4)], BOTH),
    ("transpose", lambda x: lax.transpose(x, permutation=(2, 0, 1)), [(2, 3, 4)], BOTH),
    ("rev", lambda x: lax.rev(x, dimensions=(0, 2)), [(2, 3, 4)], BOTH),
    ("concatenate", lambda x, y: lax.concatenate(x, rand((2, 2), x.dtype), y, x, dimension=1),
     [(2, 3), (2, 1)], BOTH),
    ("pad_negative_interior", lambda x, v: lax.pad(
        x, v, padding_config=((1, -1, 1), (-2, 2, 0), (0, 0, 2))), [(3, 4, 2), ()], BOTH),
    ("pad_crop_into_interior", lambda x, v: lax.pad(
        x, v, padding_config=((-2, -3, 2), (0, 1, 1))), [(4, 3), ()], BOTH),
    ("pad_int_literal", lambda x: lax.pad(x, 0, padding_config=((1, 2, 1),)), [(3,)], BOTH),
    ("pad_empty", lambda x, v: lax.pad(x, v, padding_config=((1, 1, 3), (0, 0, 0))),
     [(0, 2), ()], REAL),
    ("copy", lambda x: lax.copy(x), [(3, 4)], BOTH),
    # slicing
    ("slice", lambda x: lax.slice(x, start_indices=(1, 0), limit_indices=(4, 5)),
     [(5, 5)], BOTH),
    ("slice_strided", lambda x: lax.slice(
        x, start_indices=(1, 0, 1), limit_indices=(6, 5, 2), strides=(2, 3, 1)),
     [(7, 5, 3)], BOTH),
    ("slice_empty", lambda x: lax.slice(x, start_indices=(2, 0), limit_indices=(2, 3)),
     [(4, 3)], REAL),
    ("dynamic_slice", lambda x: lax.dynamic_slice(
        x, IDX(1), IDX(2), slice_sizes=(2, 3)), [(4, 5)], BOTH),
    ("dynamic_slice_clamped", lambda x: lax.dynamic_slice(
        x, IDX(-3), IDX(9), slice_sizes=(2, 3)), [(4, 5)], BOTH),
    ("dynamic_update_slice", lambda x, u: lax.dynamic_update_slice(
        x, u, IDX(1), IDX(4)), [(4, 5), (2, 3)], BOTH),
    ("dynamic_update_slice_const_update", lambda x: lax.dynamic_update_slice(
        x, np.ones((2, 2)), IDX(0), IDX(1)), [(3, 3)], REAL),
    ("gather_rows_repeated_clip", lambda x: lax.gather(
        x, _REP, dimension_numbers=_ROWS, slice_sizes=(1, 3), mode="clip"),
     [(4, 3)], BOTH),
    ("gather_rows_oob_clip", lambda x: lax.gather(
        x, _OOB, dimension_numbers=_ROWS, slice_sizes=(1, 3), mode="clip"), [(4, 3)], BOTH),
    ("gather_rows_oob_fill", lambda x: lax.gather(
        x, _OOB, dimension_numbers=_ROWS, slice_sizes=(1, 3), mode="fill", fill_value=0.5),
     [(4, 3)], BOTH),
    ("gather_rows_oob_fill_nan", lambda x: lax.select_n(
        lax.is_nan(g := lax.gather(x, _OOB, dimension_numbers=_ROWS, slice_sizes=(1, 3))),
        g, 2.0), [(4, 3)], REAL),
    ("gather_windows_fill", lambda x: lax.gather(
        x, _WIN_IDX, dimension_numbers=_WIN, slice_sizes=(2, 3), mode="fill",
        fill_value=0.0), [(4, 4)], BOTH),
    ("gather_points_clip", lambda x: lax.gather(
        x, _PT_IDX, dimension_numbers=_PTS, slice_sizes=(1, 1), mode="clip"), [(3, 4)], BOTH),
    ("scatter_add_repeated", lambda x, u: lax.scatter_add(
        x, _REP, u, dimension_numbers=_ROWS_S), [(4, 3), (5, 3)], BOTH),
    ("scatter_add_oob_fill", lambda x, u: lax.scatter_add(
        x, _OOB, u, dimension_numbers=_ROWS_S, mode="fill"), [(4, 3), (5, 3)], BOTH),
    ("scatter_add_oob_clip", lambda x, u: lax.scatter_add(
        x, _OOB, u, dimension_numbers=_ROWS_S, mode="clip"), [(4, 3), (5, 3)], BOTH),
    ("scatter_add_windows", lambda x, u: lax.scatter_add(
        x, _WIN_IDX, u, dimension_numbers=_WIN_S), [(4, 4), (4, 2, 3)], BOTH),
    ("scatter_repeated", lambda x, u: lax.scatter(
        x, _REP, u, dimension_numbers=_ROWS_S), [(4, 3), (5, 3)], BOTH),
    ("scatter_oob_fill", lambda x, u: lax.scatter(
        x, _OOB, u, dimension_numbers=_ROWS_S, mode="fill"), [(4, 3), (5, 3)], BOTH),
    ("scatter_oob_clip", lambda x, u: lax.scatter(
        x, _OOB, u, dimension_numbers=_ROWS_S, mode="clip"), [(4, 3), (5, 3)], BOTH),
    ("scatter_windows_overlap", lambda x, u: lax.scatter(
        x, _WIN_IDX, u, dimension_numbers=_WIN_S), [(4, 4), (4, 2, 3)], BOTH),
    ("scatter_points", lambda x, u: lax.scatter(
        x, _PT_IDX, u, dimension_numbers=_PTS_S), [(3, 4), (5,)], BOTH),
    ("scatter_mul_repeated", lambda x, u: lax.scatter_mul(
        x, _REP, u, dimension_numbers=_ROWS_S), [(4, 3), (5, 3)], BOTH),
    ("scatter_mul_oob_fill", lambda x, u: lax.scatter_mul(
        x, _OOB, u, dimension_numbers=_ROWS_S, mode="fill"), [(4, 3), (5, 3)], BOTH),
    ("scatter_mul_one_zero", lambda x, u: lax.scatter_mul(
        x, _REP, u, dimension_numbers=_ROWS_S),
     [rand((4, 3)), rand((5, 3), seed=1) * IDX([[0], [1], [1], [1], [1]])], None),
    ("scatter_max_repeated", lambda x, u: lax.scatter_max(
        x, _REP, u, dimension_numbers=_ROWS_S),
     [distinct((4, 3)), distinct((5, 3), seed=1)], None),
    ("scatter_min_oob", lambda x, u: lax.scatter_min(
        x, _OOB, u, dimension_numbers=_ROWS_S, mode="fill"),
     [distinct((4, 3)), distinct((5, 3), seed=1)], None),
    ("scatter_max_windows_clip", lambda x, u: lax.scatter_max(
        x, _WIN_IDX, u, dimension_numbers=_WIN_S, mode="clip"),
     [distinct((4, 4)), distinct((4, 2, 3), seed=2)], None),
    # reductions
    ("reduce_sum", lambda x: lax.reduce_sum(x, axes=(0, 2)), [(2, 3, 4)], BOTH),
    ("reduce_sum_all_negative_axis", lambda x: lax.reduce_sum(x, axes=(-1, 0)),
     [(3, 4)], BOTH),
    ("reduce_prod", lambda x: lax.reduce_prod(x, axes=(1,)), [(3, 4)], BOTH),
    ("reduce_prod_multi", lambda x: lax.reduce_prod(x, axes=(2, 0)), [(2, 3, 3)], BOTH),
    ("reduce_prod_none", lambda x: lax.reduce_prod(x, axes=()), [(2, 3)], BOTH),
    ("reduce_prod_empty", lambda x: lax.reduce_prod(x, axes=(1,)), [(2, 0)], REAL),
    ("reduce_prod_one_zero", lambda x: lax.reduce_prod(x, axes=(1,)),
     [rand((3, 4)) * IDX([[1, 0, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1]])], None),
    ("reduce_max", lambda x: lax.reduce_max(x, axes=(1,)), [distinct((3, 4))], None),
    ("reduce_min_multi", lambda x: lax.reduce_min(x, axes=(0, 2)),
     [distinct((2, 3, 4))], None),
    ("cumsum", lambda x: lax.cumsum(x, axis=1), [(3, 4)], BOTH),
    ("cumsum_reverse", lambda x: lax.cumsum(x, axis=0, reverse=True), [(3, 4)], BOTH),
    ("cumprod", lambda x: lax.cumprod(x, axis=1), [(3, 4)], BOTH),
    ("cumprod_reverse", lambda x: lax.cumprod(x, axis=0, reverse=True), [(4, 2)], BOTH),
    ("cumprod_one_zero", lambda x: lax.cumprod(x, axis=1),
     [rand((2, 4)) * IDX([[1, 0, 1, 1], [1, 1, 1, 0]])], None),
    ("cummax", lambda x: lax.cummax(x, axis=1), [distinct((3, 5))], None),
    ("cummin_reverse", lambda x: lax.cummin(x, axis=0, reverse=True),
     [distinct((5, 2))], None),
    ("cumlogsumexp", lambda x: lax.cumlogsumexp(x, axis=1), [(3, 4)], REAL),
    ("cumlogsumexp_reverse", lambda x: lax.cumlogsumexp(x, axis=0, reverse=True),
     [(4, 3)], REAL),
    ("sort", lambda x: lax.sort(x, dimension=1)[0], [distinct((3, 5))], None),
    ("sort_carry", lambda k, v: lax.sort(k, v, dimension=0, num_keys=1),
     [distinct((4, 2)), rand((4, 2), np.complex128)], None),
    ("sort_int_keys_ties", lambda v: lax.sort(IDX([3, 1, 3, 0, 1]), v, dimension=0,
                                              num_keys=1)[1], [(5,)], BOTH),
    ("sort_two_keys", lambda k, v: lax.sort(IDX([2, 1, 2, 1]), k, v, dimension=0,
                                            num_keys=2)[1:],
     [distinct((4,)), rand((4,))], None),
    ("top_k", lambda x: lax.top_k(x, k=3)[0], [distinct((2, 5))], None),
    ("argmax_argmin", lambda x: x * lax.convert_element_type(
        lax.add(lax.argmax(x, axis=1, index_dtype=np.dtype(np.int32)),
                lax.argmin(x, axis=1, index_dtype=np.dtype(np.int32))),
        new_dtype=np.dtype(np.float64), weak_type=False)[:, None], [distinct((3, 4))], None),
    ("reduce_bitwise", lambda x: x * lax.convert_element_type(
        lax.add(lax.reduce_or(lax.gt(x, 0), axes=(1,)),
                lax.reduce_xor(lax.convert_element_type(
                    x, new_dtype=np.dtype(np.int64), weak_type=False), axes=(1,))),
        new_dtype=np.dtype(np.float64), weak_type=False)[:, None],
     [distinct((3, 4)) + 0.5], None),
    # dot_general
    ("dot_matmul", lambda x, y: lax.dot_general(x, y, dimension_numbers=_dn((1,), (0,))),
     [(3, 4), (4, 5)], BOTH),
    ("dot_vector", lambda x, y: lax.dot_general(x, y, dimension_numbers=_dn((0,), (0,))),
     [(4,), (4,)], BOTH),
    ("dot_batch", lambda x, y: lax.dot_general(
        x, y, dimension_numbers=_dn((2,), (1,), (0,), (0,))), [(2, 3, 4), (2, 4, 5)], BOTH),
    ("dot_multi_contract", lambda x, y: lax.dot_general(
        x, y, dimension_numbers=_dn((1, 2), (2, 0), (0,), (3,))),
     [(2, 3, 4, 5), (4, 6, 3, 2)], BOTH),
    ("dot_outer_batch_last", lambda x, y: lax.dot_general(
        x, y, dimension_numbers=_dn((), (), (2,), (0,))), [(3, 4, 2), (2, 5)], BOTH),
    ("dot_mixed_real_complex", lambda x, y: lax.dot_general(
        x, y, dimension_numbers=_dn((0,), (1,))),
     [rand((3, 2)), rand((4, 3), np.complex128)], None),
    ("dot_preferred", lambda x, y: lax.dot_general(
        x, y, dimension_numbers=_dn((1,), (0,)),
        preferred_element_type=np.dtype(np.complex128)), [rand((2, 3)), rand((3, 2))], None),
]

# Piecewise-defined cases whose second derivatives are only checked to first order.
FIRST_ORDER = {"scatter_mul_one_zero", "reduce_prod_one_zero", "cumprod_one_zero"}


def _params():
    for name, fn, args, dtypes in CASES:
        if dtypes is None:
            yield pytest.param(fn, args, None, id=name)
        else:
            for dt in dtypes:
                yield pytest.param(fn, args, dt, id=f"{name}-{np.dtype(dt).name}")


@pytest.mark.parametrize("fn,args,dtype", list(_params()))
def test_primitive_grads(request, fn, args, dtype):
    if dtype is not None:
        args = [rand(s, dtype, seed=i) for i, s in enumerate(args)]
    name = request.node.callspec.id.split("-")[0]
    check_grads(fn, args, order=1 if name in FIRST_ORDER else 2, modes=("fwd", "rev"))


def _staged_params():
    for name, fn, args, dtypes in CASES:
        yield pytest.param(fn, args, dtypes[-1] if dtypes else None, id=name)


@pytest.mark.parametrize("fn,args,dtype", list(_staged_params()))
def test_rules_under_staging(fn, args, dtype):
    """The rules bind primitives only: a staged JVP and VJP evaluate to the eager ones."""
    if dtype is not None:
        args = [rand(s, dtype, seed=i) for i, s in enumerate(args)]
    rng = np.random.default_rng(7)
    tangents = [xnp.asarray(rng.standard_normal(np.shape(a)).astype(np.asarray(a).dtype))
                for a in args]
    out = fn(*[xnp.asarray(a) for a in args])
    cts = tree_map(lambda o: xnp.asarray(
        rng.standard_normal(np.shape(o)).astype(np.asarray(o).dtype)), out)

    def both(*xs):
        t_out = autodiff.jvp(fn, xs, tangents)[1]
        return t_out, autodiff.vjp(fn, *xs)[1](cts)
    eager = tree_flatten(both(*[xnp.asarray(a) for a in args]))[0]
    staged = eval_jaxpr(make_jaxpr(both)(*args), *args)
    assert len(eager) == len(staged)
    for e, s in zip(eager, staged):
        np.testing.assert_allclose(np.asarray(s), np.asarray(e), rtol=1e-12, atol=1e-12)


# --- documented behaviour at ties and other special points --------------------------------------
def _grad(f, *args):
    return np.asarray(autodiff.grad(f)(*[xnp.asarray(a) for a in args]))


def _jvp(f, x, t):
    return np.asarray(autodiff.jvp(f, (xnp.asarray(x),), (xnp.asarray(t),))[1])


def test_reduce_max_ties_split_evenly():
    x = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 5.0, 0.0]])
    t = np.random.default_rng(0).standard_normal(x.shape)
    mask = x == x.max(axis=1, keepdims=True)
    expected = (t * mask).sum(1) / mask.sum(1)
    np.testing.assert_allclose(_jvp(lambda a: lax.reduce_max(a, axes=(1,)), x, t), expected)
    g = _grad(lambda a: lax.reduce_sum(lax.reduce_min(a, axes=(0,)), axes=(0,)), -x)
    np.testing.assert_allclose(g, (-x == (-x).min(0)) / (-x == (-x).min(0)).sum(0))


def test_scatter_max_ties_split_evenly():
    x = np.array([[1.0, 4.0], [2.0, 2.0]])
    u = np.array([[4.0, 4.0], [0.0, 4.0], [4.0, 1.0]])        # all land on row 0
    idx = IDX([[0], [0], [0]])
    f = lambda a, b: lax.scatter_max(a, idx, b, dimension_numbers=_ROWS_S)  # noqa: E731
    tx, tu = np.arange(1.0, 5.0).reshape(2, 2), np.arange(10.0, 16.0).reshape(3, 2)
    t = np.asarray(autodiff.jvp(f, (xnp.asarray(x), xnp.asarray(u)),
                                (xnp.asarray(tx), xnp.asarray(tu)))[1])
    # Row 0, col 0: max 4 from updates 0 and 2: (10 + 14) / 2. Col 1: operand 4 and updates
    # 0, 1: (2 + 11 + 13) / 3. Row 1 untouched: the operand's tangent.
    np.testing.assert_allclose(t, [[12.0, 26.0 / 3], [3.0, 4.0]])


def test_scatter_repeated_last_update_wins():
    x, u = rand((4, 3)), rand((5, 3), seed=1)

    def f(a, b):
        return lax.reduce_sum(lax.scatter(a, _REP, b, dimension_numbers=_ROWS_S), axes=(0, 1))
    out = np.asarray(lax.scatter(x, _REP, u, dimension_numbers=_ROWS_S))
    np.testing.assert_allclose(out[0], u[2])              # rows 0 and 2 are written twice
    gx, gu = autodiff.grad(f, argnums=(0, 1))(xnp.asarray(x), xnp.asarray(u))
    np.testing.assert_allclose(np.asarray(gx), [[0] * 3, [1] * 3, [0] * 3, [0] * 3])
    np.testing.assert_allclose(np.asarray(gu), [[0] * 3, [0] * 3, [1] * 3, [1] * 3, [1] * 3])


def test_gather_fill_tangent_is_zero():
    x = rand((4, 3))
    t = _jvp(lambda a: lax.gather(a, _OOB, dimension_numbers=_ROWS, slice_sizes=(1, 3)), x,
             np.ones_like(x))
    np.testing.assert_array_equal(t, [[1] * 3, [0] * 3, [1] * 3, [0] * 3, [1] * 3])


@pytest.mark.parametrize("zeros", [[1], [0, 2]])
def test_products_with_zeros_exact(zeros):
    x = rand((4,), seed=3)
    x[zeros] = 0.0
    expected = np.array([np.prod(np.delete(x, j)) for j in range(4)])
    np.testing.assert_allclose(_grad(lambda a: lax.reduce_prod(a, axes=(0,)), x), expected)
    cum = autodiff.jacfwd(lambda a: lax.cumprod(a, axis=0))(xnp.asarray(x))
    expected = np.array([[np.prod(np.delete(x[:i + 1], j)) if j <= i else 0.0
                          for j in range(4)] for i in range(4)])
    np.testing.assert_allclose(np.asarray(cum), expected)
    u = np.array([2.0, 0.0, 3.0, 0.0])[: 1 + len(zeros)]     # scatter_mul onto one element
    idx = IDX([[0]] * len(u))
    dn = SDN(update_window_dims=(), inserted_window_dims=(0,),
             scatter_dims_to_operand_dims=(0,))
    g = _grad(lambda b: lax.reduce_sum(lax.scatter_mul(np.array([1.5, 2.0]), idx, b,
                                                       dimension_numbers=dn), axes=(0,)), u)
    np.testing.assert_allclose(g, [1.5 * np.prod(np.delete(u, j)) for j in range(len(u))])


def test_cumlogsumexp_stable():
    x = np.array([-1000.0, 0.0, -2000.0, 5.0])
    g = autodiff.jacrev(lambda a: lax.cumlogsumexp(a, axis=0))(xnp.asarray(x))
    out = np.logaddexp.accumulate(x)
    below = np.tril(np.ones((4, 4), bool))
    expected = np.where(below, np.exp(np.where(below, x[None, :] - out[:, None], 0)), 0)
    np.testing.assert_allclose(np.asarray(g), expected, atol=1e-300)


def test_cummax_ties_take_latest():
    x = np.array([1.0, 3.0, 2.0, 3.0, 0.0])
    t = np.arange(1.0, 6.0)
    np.testing.assert_allclose(_jvp(lambda a: lax.cummax(a, axis=0), x, t),
                               [1.0, 2.0, 2.0, 4.0, 4.0])


def test_integer_and_bitcast_have_no_derivative():
    x = rand((3,))

    def f(a):
        bits = lax.bitcast_convert_type(a, new_dtype=np.dtype(np.int64))
        back = lax.bitcast_convert_type(bits, new_dtype=np.dtype(np.float64))
        return lax.reduce_sum(lax.mul(a, back), axes=(0,))
    np.testing.assert_allclose(_grad(f, x), x)          # d/da (a * const(a)) = const(a)
    t = _jvp(lambda a: lax.bitcast_convert_type(a, new_dtype=np.dtype(np.float64)),
             x, np.ones(3))
    assert not np.any(t)


def test_sort_ties_follow_stable_order():
    keys = np.array([2.0, 1.0, 2.0, 1.0])
    t = np.arange(1.0, 5.0)
    np.testing.assert_allclose(_jvp(lambda a: lax.sort(a, dimension=0)[0], keys, t),
                               [2.0, 4.0, 1.0, 3.0])


# --- NumPy-level functions built on these primitives --------------------------------------------
NUMPY_CASES = [
    ("sum", lambda x: xnp.sum(x, axis=1), [(3, 4)], BOTH),
    ("sum_all", lambda x: xnp.sum(x), [(3, 4)], BOTH),
    ("mean", lambda x: xnp.mean(x, axis=0), [(3, 4)], BOTH),
    ("prod", lambda x: xnp.prod(x, axis=0), [(3, 4)], BOTH),
    ("max", lambda x: xnp.max(x, axis=1), [distinct((3, 4))], None),
    ("min_all", lambda x: xnp.min(x), [distinct((3, 4))], None),
    ("matmul", lambda x, y: xnp.matmul(x, y), [(2, 3, 4), (4, 5)], BOTH),
    ("matmul_operator", lambda x, y: x @ y, [(3, 4), (4,)], BOTH),
    ("dot", lambda x, y: xnp.dot(x, y), [(3, 4), (4, 2)], BOTH),
    ("einsum", lambda x, y: xnp.einsum("bij,bjk->bik", x, y), [(2, 3, 4), (2, 4, 2)], BOTH),
    ("tensordot", lambda x, y: xnp.tensordot(x, y, axes=([1, 2], [0, 1])),
     [(2, 3, 4), (3, 4, 2)], BOTH),
    ("concatenate", lambda x, y: xnp.concatenate([x, y, x], axis=0), [(2, 3), (1, 3)], BOTH),
    ("stack", lambda x, y: xnp.stack([x, y], axis=1), [(2, 3), (2, 3)], BOTH),
    ("basic_slice", lambda x: x[1:3], [(4, 3)], BOTH),
    ("strided_slice", lambda x: x[::2, 1:], [(5, 3)], BOTH),
    ("fancy_index", lambda x: x[[0, 2, 0]], [(4, 3)], BOTH),
    ("fancy_index_2d", lambda x: x[IDX([0, 2, 0]), IDX([1, 1, 2])], [(4, 3)], BOTH),
    ("take", lambda x: xnp.take(x, IDX([3, 0, 0]), axis=1), [(2, 4)], BOTH),
    ("take_along_axis", lambda x: xnp.take_along_axis(x, IDX([[0, 2], [1, 1]]), axis=1),
     [(2, 3)], BOTH),
    ("at_set", lambda x, y: x.at[IDX([0, 2])].set(y), [(4, 3), (2, 3)], BOTH),
    ("at_add", lambda x, y: x.at[IDX([0, 2, 0])].add(y), [(4, 3), (3, 3)], BOTH),
    ("transpose", lambda x: xnp.transpose(x, (1, 2, 0)), [(2, 3, 4)], BOTH),
    ("reshape", lambda x: xnp.reshape(x, (4, 3)), [(2, 6)], BOTH),
    ("flip", lambda x: xnp.flip(x, axis=1), [(2, 3)], BOTH),
    ("broadcast_to", lambda x: xnp.broadcast_to(x, (2, 3, 4)), [(3, 1)], BOTH),
    ("pad", lambda x: xnp.pad(x, ((1, 2), (0, 1))), [(2, 3)], BOTH),
    ("cumsum", lambda x: xnp.cumsum(x, axis=1), [(2, 3)], BOTH),
    ("cumprod", lambda x: xnp.cumprod(x, axis=0), [(3, 2)], BOTH),
    ("sort", lambda x: xnp.sort(x, axis=0), [distinct((4, 3))], None),
    ("roll", lambda x: xnp.roll(x, 2, axis=1), [(2, 4)], BOTH),
    ("tile", lambda x: xnp.tile(x, (2, 1)), [(2, 3)], BOTH),
    ("repeat", lambda x: xnp.repeat(x, 2, axis=0), [(2, 3)], BOTH),
]


def _numpy_params():
    for name, fn, args, dtypes in NUMPY_CASES:
        if dtypes is None:
            yield pytest.param(fn, args, None, id=name)
        else:
            for dt in dtypes:
                yield pytest.param(fn, args, dt, id=f"{name}-{np.dtype(dt).name}")


@pytest.mark.parametrize("fn,args,dtype", list(_numpy_params()))
def test_numpy_level_grads(fn, args, dtype):
    if dtype is not None:
        args = [rand(s, dtype, seed=i) for i, s in enumerate(args)]
    check_grads(fn, args, order=2, modes=("fwd", "rev"))


def test_grad_of_scalar_losses():
    x, y = rand((3, 4)), rand((4, 2), seed=1)

    def loss(a, b):
        return xnp.sum(xnp.max(xnp.matmul(a, b), axis=1) ** 2) + xnp.sum(a[1:3] * a[[0, 2]])
    gx, gy = autodiff.grad(loss, argnums=(0, 1))(xnp.asarray(x), xnp.asarray(y))
    m = x @ y
    k = m.argmax(1)
    d = np.zeros_like(m)
    d[np.arange(3), k] = 2 * m[np.arange(3), k]
    ex = d @ y.T
    ex[1:3] += x[[0, 2]]
    ex[[0, 2]] += x[1:3]
    np.testing.assert_allclose(np.asarray(gx), ex)
    np.testing.assert_allclose(np.asarray(gy), x.T @ d)


# --- conventions at special points (found by running autograd's own test suite) ----------
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_power_with_zero_exponent_has_zero_derivatives_at_zero():
    f = lambda x: xnp.power(x, 0.0)  # noqa: E731
    assert float(xnp.grad(f)(0.0)) == 0.0
    assert float(xnp.grad(xnp.grad(f))(0.0)) == 0.0
    check_grads(lambda x: xnp.power(x, 2.5), (np.array([0.5, 2.0]),), order=2)


@pytest.mark.parametrize("fn", [xnp.std, xnp.nanstd])
def test_std_of_a_single_value_has_zero_derivative(fn):
    # std over a length-1 axis is identically 0: its derivatives are 0, not sqrt's 0/0.
    x = np.array([[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(xnp.grad(lambda v: xnp.sum(fn(v, axis=0)))(x), 0.0)
    check_grads(lambda v: fn(v, axis=0), (x,), order=2)
    assert float(xnp.grad(fn)(3.5)) == 0.0
    check_grads(lambda v: fn(v, axis=1), (x,), order=2)   # away from zero: the usual rule


def test_real_and_imag_of_real_inputs_have_real_gradients():
    g_real = xnp.grad(lambda x: xnp.sum(xnp.real(x)))(np.float32(2.0))
    g_imag = xnp.grad(lambda x: xnp.sum(xnp.imag(x)))(2.0)
    assert np.asarray(g_real).dtype == np.float32 and float(g_real) == 1.0
    assert np.asarray(g_imag).dtype == np.float64 and float(g_imag) == 0.0
    assert complex(xnp.grad(lambda z: xnp.real(z * xnp.conj(z)))(1 + 2j)) == 2 - 4j
