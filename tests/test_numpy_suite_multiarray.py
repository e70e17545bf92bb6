"""Regressions found by running NumPy's own test_multiarray.py and test_item_selection.py
against xnp: ndarray methods and item selection. Each case runs the same call in NumPy and
in xnp and compares values, dtypes, shapes and exceptions (type and message fragment)."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from numpy_compare import equal as _equal
from numpy_compare import run as _run
from numpy_compare import same as _same

import xnp
from transforms.test_util import check_grads

# --- reductions of a 0-d array take axis 0 or -1 ------------------------------------------------
ZERO_D_REDUCTIONS = ["sum", "prod", "max", "min", "amax", "amin", "any", "all",
                     "count_nonzero", "ptp", "nansum", "nanprod", "nanmax", "nanmin",
                     "cumsum", "cumprod", "argmax", "argmin", "argsort"]


@pytest.mark.parametrize("name", ZERO_D_REDUCTIONS)
@pytest.mark.parametrize("axis", [0, -1, 1, -2, (0,)])
def test_zero_d_reduction_axis(name, axis):
    _same(lambda m: getattr(m, name)(m.array(2.5), axis=axis))


@pytest.mark.parametrize("name", ["sum", "max", "min", "any", "all", "cumsum", "cumprod"])
def test_zero_d_reduction_method_axis(name):
    _same(lambda m: getattr(m.array(3, dtype=np.int16), name)(axis=0))
    _same(lambda m: getattr(m.array(3, dtype=np.int16), name)(axis=-1, keepdims=True)
          if name not in ("cumsum", "cumprod") else None)


def test_zero_d_reduction_ufunc_reduce_and_keepdims():
    _same(lambda m: m.add.reduce(m.array(1.5), axis=0))
    _same(lambda m: m.sum(m.array(1.5), axis=0, keepdims=True))
    _same(lambda m: m.max(m.array(1.5), axis=-1, initial=4.0))
    _same(lambda m: m.sum(np.float32(1.5), axis=0))


def test_zero_d_reduction_grads():
    x = np.array(0.7)
    check_grads(lambda a: xnp.sum(xnp.sin(a), axis=0), (x,))
    check_grads(lambda a: xnp.max(a * a, axis=-1), (x,))
    check_grads(lambda a: xnp.cumprod(xnp.exp(a), axis=0), (x,))
    out = xnp.vmap(lambda a: xnp.sum(a, axis=0))(xnp.arange(3.0))   # a 0-d member
    _equal(np.arange(3.0), out)
    _equal(np.float64(2.0), xnp.jit(lambda a: xnp.prod(a, axis=-1))(xnp.array(2.0)))


# --- transpose ------------------------------------------------------------------------------------
@pytest.mark.parametrize("axes", [(), ((),), ((2, 0, 1),), ([1, 2, 0],), (2, 0, 1),
                                  (None,), ((2, 0),), ((2, 0, 0),), ((0, 1, 3),)])
@pytest.mark.parametrize("shape", [(1, 2, 3), ()])
def test_transpose_method_axes(axes, shape):
    _same(lambda m: m.zeros(shape).transpose(*axes).shape)


def test_transpose_method_array_axes():
    _same(lambda m: m.arange(24).reshape(2, 3, 4).transpose(m.array([2, 0, 1])))
    perm = xnp.array([1, 0])
    check_grads(lambda a: (a.transpose(perm) * xnp.arange(6.0).reshape(3, 2)).sum(),
                (np.arange(6.0).reshape(2, 3),))


# --- sort, partition, searchsorted ---------------------------------------------------------------
@pytest.mark.parametrize("kind", ["nonsense", b"\xc3\xa4".decode(), 1, None])
def test_partition_method_kind(kind):
    def part(m, arg):
        d = m.array([3, 1, 2, 9, 0])
        getattr(d, "argpartition" if arg else "partition")(2, axis=0, kind=kind)
        return d
    _same(lambda m: part(m, False), message="select kind" if kind != 1 else None)
    _same(lambda m: m.argpartition(m.array([3, 1, 2]), 1, kind=kind))


def test_partition_and_sort_method_order():
    def part(m):
        d = m.array([3.0, 1.0, 2.0])
        d.partition(1, order="x")
        return d
    _same(part, message="Cannot specify order")

    def srt(m):
        d = m.array([3.0, 1.0, 2.0])
        d.sort(order="x")
        return d
    _same(srt, message="Cannot specify order")

    def ok(m):
        d = m.array([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]])
        d.partition(1, kind="introselect", order=None)
        return d[:, 1]
    _same(ok)


# NumPy checks a sorter's entries only where its binary search reads them; xnp checks
# them all (when concrete), so each out-of-range case here is one NumPy's search reaches.
@pytest.mark.parametrize("value, sorter", [
    (4, [0, 1, 2, 3, 5]), (0, [-1, 0, 1, 2, 3]), (0, [4, 0, -1, 2, 3]), (4, [2, 1, 3, 4, 0]),
    (0, [1.0, 2, 3, 4, 0]), (0, [1, 2, 3, 4]), (0, [1, 2, 3, 4, 0, 5]), (0, [[2, 1, 3, 4, 0]]),
])
def test_searchsorted_sorter_checks(value, sorter):
    def search(m):
        return m.searchsorted(m.array([5, 2, 1, 3, 4]), value, sorter=sorter)
    want = _run(search, np)
    msg = "out of range" if "range" in str(want) else None
    _same(search, message=msg)


def test_searchsorted_sorter_traced():
    a, s = xnp.array([5.0, 2, 1, 3, 4]), xnp.array([2, 1, 3, 4, 0])
    v = np.array([0.5, 3.0, 6.0])
    want = np.searchsorted(np.asarray(a), v, sorter=np.asarray(s))
    _equal(want, xnp.jit(lambda v: xnp.searchsorted(a, v, sorter=s))(v))
    _equal(want, xnp.jit(lambda s: xnp.searchsorted(a, v, sorter=s))(s))
    _equal(np.stack([want, want]),
           xnp.vmap(lambda s: xnp.searchsorted(a, v, sorter=s))(xnp.stack([s, s])))


# --- resize ---------------------------------------------------------------------------------------
RESIZE_ARGS = [
    (("hi",), {}), ((-1,), {}), ((), {"order": 1}), ((), {"refcheck": "hi"}),
    ((3,), {"refcheck": 2}), (((3, "a"),), {}), ((9,), {"refcheck": False}),
    ((3.0, 2), {}), (((2, -1),), {}), (((3, 3),), {}), ((None,), {}), ((None, 3), {}),
    ((), {}), ((2, 2), {}), ((4, 4), {}), (([5],), {}), ((0,), {}), ((2, 2, 3), {}),
]


@pytest.mark.parametrize("args, kwargs", RESIZE_ARGS)
def test_resize_method_arguments(args, kwargs):
    def resize(m):
        a = m.eye(3)
        r = a.resize(*args, **kwargs)
        return r, a.shape, a
    want = _run(resize, np)
    _same(resize, message=None if not isinstance(want, Exception) else str(want)[:20])


def test_resize_method_array_shape():
    def resize(m, shape):
        a = m.arange(4.0)
        a.resize(shape)
        return a
    _same(lambda m: resize(m, m.array([3, 2])))
    _same(lambda m: resize(m, m.array(2)))


# --- clip, choose, conjugate methods --------------------------------------------------------------
@pytest.mark.parametrize("args, kwargs", [((3,), {}), ((3, 5), {}), ((None, 5), {}),
                                          ((), {"min": 3}), ((), {"max": 4}),
                                          ((3,), {"max": 4}), ((), {}), ((3, 5, None), {})])
def test_clip_method_bounds(args, kwargs):
    _same(lambda m: m.arange(8).clip(*args, **kwargs))
    _same(lambda m: m.linspace(-1, 9, 7).clip(*args, **kwargs))


def test_clip_method_grad():
    x = np.array([0.5, 2.0, 3.5, 6.0])
    check_grads(lambda a: (a.clip(1.0) * a).sum(), (x,))
    check_grads(lambda a: a.clip(max=3.0).sum(), (x,))


def test_choose_method_choices_as_arguments():
    _same(lambda m: m.array([0, 1, 2, 1]).choose([1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]))
    _same(lambda m: m.array([0, 1]).choose([[1, 2], [3, 4]]))
    _same(lambda m: m.array([0, 3]).choose([[1, 2], [3, 4]], mode="wrap"))
    _same(lambda m: m.array([0, 3]).choose([[1, 2], [3, 4]], mode="x"), message="clipmode")
    _same(lambda m: m.array([0, 2]).choose([[1, 2], [3, 4]]))
    _same(lambda m: m.array([1]).choose())

    def with_out(m):
        out = m.zeros(2, dtype=np.int64)
        r = m.array([0, 1]).choose([1, 2], [3, 4], out=out, mode="clip")
        return r, out
    _same(with_out)
    got = xnp.jit(lambda a, b: xnp.array([0, 1]).choose(a, b))(xnp.ones(2), xnp.zeros(2))
    _equal(np.array([1.0, 0.0]), got)


@pytest.mark.parametrize("dtype", ["?", "b", "h", "I", "f4", "f8", "c8", "c16"])
def test_conjugate_method(dtype):
    _same(lambda m: m.ones(4, dtype=dtype).conj())
    _same(lambda m: m.ones(4, dtype=dtype).conjugate())
    if np.dtype(dtype).kind != "c":
        a = xnp.ones(4, dtype=dtype)
        assert a.conj() is a and a.conjugate() is a      # NumPy returns the array itself
        assert np.ones(4, dtype=dtype).conj().dtype == a.conj().dtype


@pytest.mark.parametrize("dtype", ["S3", "U2"])
def test_conjugate_method_non_numeric(dtype):
    _same(lambda m: m.ones(3, dtype=dtype).conj(), message="cannot conjugate non-numeric")


def test_conjugate_method_out_and_grad():
    def with_out(m):
        a = m.array([1 - 1j, 2 + 3j])
        out = m.empty_like(a)
        r = a.conjugate(out)
        return r, out
    _same(with_out)
    check_grads(lambda a: (a.conj() * a).sum(), (np.array([0.5, -2.0]),))
    check_grads(lambda a: (a.conj() * a).real.sum(), (np.array([0.5 + 1j, -2.0]),),
                order=1)


# --- putmask --------------------------------------------------------------------------------------
def test_putmask_positional_only():
    def put(m, **kw):
        x = m.array([0, 0])
        m.putmask(x, **kw)
        return x
    _same(lambda m: put(m, values=[-1, -2], mask=[0, 1]))
    _same(lambda m: m.putmask(a=m.array([0, 0]), values=[-1, -2], mask=[0, 1]))


# --- byte-swapped data: NumPy computes on it and returns native values ------------------------
BYTESWAPPED_CALLS = {
    "sum": lambda m, a: a.sum(), "sum_axis": lambda m, a: m.sum(a, axis=0),
    "prod": lambda m, a: a.prod(axis=1), "mean": lambda m, a: a.mean(),
    "mean_axis": lambda m, a: a.mean(axis=0), "var": lambda m, a: a.var(),
    "std_axis": lambda m, a: a.std(axis=1), "cumsum": lambda m, a: a.cumsum(),
    "cumprod_axis": lambda m, a: m.cumprod(a, axis=0), "trace": lambda m, a: m.trace(a),
    "average": lambda m, a: m.average(a, axis=0), "add_reduce": lambda m, a: m.add.reduce(a),
    "add_accumulate": lambda m, a: m.add.accumulate(a), "max_axis": lambda m, a: a.max(axis=0),
    "dot": lambda m, a: m.dot(a, a.T), "matmul": lambda m, a: a @ a.T,
    "einsum": lambda m, a: m.einsum("ij->i", a), "outer": lambda m, a: m.outer(a[0], a[1]),
    "arange": lambda m, a: m.arange(1, 7, 2, dtype=a.dtype),
    "cumsum_dtype": lambda m, a: m.cumsum(a, dtype=">f4"),
}


@pytest.mark.parametrize("dtype", [">f8", ">i4", ">i8", ">c16", ">f4"])
@pytest.mark.parametrize("name", sorted(BYTESWAPPED_CALLS))
def test_byteswapped_operands(name, dtype):
    call = BYTESWAPPED_CALLS[name]
    _same(lambda m: call(m, m.array([[3, 1, 2, 4], [2, 5, 1, 7]]).astype(dtype)))


@pytest.mark.parametrize("dtype", [">f4", "<f4", ">c8", ">f8"])
def test_fft_of_byteswapped_single_precision(dtype):
    # float32 data transforms in complex64 whatever its byte order
    _same(lambda m: m.fft.fft(m.arange(4.0).astype(dtype)))


def test_complex_longdouble_parts_assignable():
    def f(m):
        a = m.zeros(3, dtype=np.clongdouble)
        a.real = 1
        a.imag = m.arange(3)
        return a
    _same(f)


# --- operators and ufunc overrides --------------------------------------------------------------
class _ArrayLike:
    """Only ``__array__``: NumPy's operators convert it (they do not defer)."""

    def __array__(self, dtype=None, copy=None):
        return np.array([10.0, 20.0])


class _BadArrayLike:
    def __array__(self, dtype=None, copy=None):
        raise TypeError("no conversion")


@pytest.mark.parametrize("op", ["add", "mul", "eq", "ne", "lt", "ge", "matmul", "divmod"])
@pytest.mark.parametrize("reflected", [False, True])
def test_operators_convert_array_likes(op, reflected):
    fn = divmod if op == "divmod" else getattr(operator, op)
    def f(m):
        a, b = m.arange(2.0), _ArrayLike()
        return fn(b, a) if reflected else fn(a, b)
    _same(f)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "add"])
def test_operators_pass_on_array_like_errors(op):
    fn = getattr(operator, op)
    _same(lambda m: fn(m.arange(2), _BadArrayLike()), message="no conversion")


class _Override:
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return method, len(inputs), kwargs


_OVERRIDE = _Override()
OVERRIDE_CALLS = [
    lambda m: m.add(_OVERRIDE, 1),
    lambda m: m.add(_OVERRIDE, 1, sig="ii->i"),
    lambda m: m.add(_OVERRIDE, 1, signature="ii->i"),
    lambda m: m.add(_OVERRIDE, 1, casting="unsafe", order="C", subok=False),
    lambda m: m.add(_OVERRIDE, 1, out=None),
    lambda m: m.add(_OVERRIDE, 1, out=(None,)),
    lambda m: m.sin(m.arange(2.0), _OVERRIDE),
    lambda m: m.sin(m.arange(2.0), out=_OVERRIDE),
    lambda m: m.modf(m.arange(2.0), _OVERRIDE),
    lambda m: m.modf(m.arange(2.0), None, _OVERRIDE),
    lambda m: m.modf(m.arange(2.0), out=(None, _OVERRIDE)),
    lambda m: m.modf(m.arange(2.0), out=_OVERRIDE),
    lambda m: m.modf(m.arange(2.0), out=(_OVERRIDE,)),
    # the ufuncs' methods dispatch to overrides too
    lambda m: m.add.reduce(_OVERRIDE),
    lambda m: m.add.reduce(_OVERRIDE, axis=1, out=_OVERRIDE),
    lambda m: m.add.reduce(m.arange(2.0), axis=None, out=(_OVERRIDE,)),
    lambda m: m.add.reduce(_OVERRIDE, keepdims=True, initial=0, dtype=float),
    lambda m: m.add.accumulate(_OVERRIDE, out=_OVERRIDE),
    lambda m: m.add.reduceat(_OVERRIDE, [0]),
    lambda m: m.add.outer(_OVERRIDE, 1),
    lambda m: m.add.outer(m.arange(2.0), _OVERRIDE),
    lambda m: m.add.at(_OVERRIDE, [0], 1),
    lambda m: m.negative.at(_OVERRIDE, [0]),
]


@pytest.mark.parametrize("call", OVERRIDE_CALLS)
def test_array_ufunc_override_keywords_normalized(call):
    # NumPy hands overrides ``out`` as a tuple and ``sig`` as ``signature``
    _same(call)


@pytest.mark.parametrize("call", [
    lambda m, z: m.modf(m.arange(3.0) + 0.5, z),
    lambda m, z: m.modf(m.arange(3.0), out=z),
    lambda m, z: m.modf(m.arange(3.0), out=[z, z]),
    lambda m, z: m.add(m.arange(3.0), 1, out=(z, z)),
    lambda m, z: m.add(m.arange(3.0), 1, out=()),
    lambda m, z: m.add(m.arange(3.0), 1, out=[z]),
    lambda m, z: m.divmod(m.arange(3.0), 2, z),
])
def test_ufunc_out_forms(call):
    def f(m):
        z = m.zeros(3)
        return call(m, z), z
    _same(f)


# --- indexing limits and flat iterators ---------------------------------------------------------
@pytest.mark.parametrize("key", [(None,) * 70, (None,) * 63, (0,) + (None,) * 63,
                                 (None,) * 62 + (0, 0)])
def test_too_many_new_axes_is_an_index_error(key):
    _same(lambda m: m.zeros((2, 3))[key].shape)
    _same(lambda m: m.zeros(())[key].shape)


def test_flat_iterator_refuses_deletion():
    def f(m):
        it = m.ones(3).flat
        del it[1]
    _same(f, message="Cannot delete iterator elements")
