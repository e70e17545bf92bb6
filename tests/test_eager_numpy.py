"""Plain eager calls of the functions in xnp/_eager_numpy.py run NumPy's routine; every
other call (traced values, out=, JAX's keywords, dtypes NumPy's routine does not take)
runs xnp's own implementation. The registry's jit/vmap/grad tests compare that
implementation with these eager results; here the gate itself is checked."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp import _array_function, _eager_numpy


def _public(module: str, name: str):
    namespace = {"xnp": xnp, "xnp.linalg": xnp.linalg, "xnp.fft": xnp.fft}[module]
    return getattr(namespace, name)


DELEGATED = sorted((m, n) for m, names in _eager_numpy.EAGER_NUMPY.items() for n in names)


@pytest.mark.parametrize("module,name", DELEGATED, ids=lambda x: x)
def test_every_listed_function_runs_numpys_routine(module, name):
    fn = _public(module, name)
    assert _array_function.is_dispatching(fn)      # (amax's name is max, as in NumPy)
    closure = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__)))
    assert closure["plan"] is not None, f"{module}.{name} does not run NumPy's routine"


_MEDIAN_PLAN = _eager_numpy.call_plan(np.median)


@pytest.mark.parametrize("args,kwargs,numpys", [
    ((np.arange(5.0),), {}, True),
    ((xnp.arange(5.0),), {"axis": 0, "keepdims": True}, True),
    ((np.arange(5.0),), {"out": None}, True),
    (([[1, 2], [3, 4.5]],), {"axis": (0, 1)}, True),                  # list of numbers
    ((np.arange(5.0),), {"out": xnp.zeros(())}, False),               # out= array
    ((np.arange(5.0), 0, xnp.zeros(())), {}, False),                  # positional out
    ((np.arange(5.0).astype(ml_dtypes.bfloat16),), {}, False),        # not NumPy's dtype
    ((np.arange(5.0).astype(">f8"),), {}, False),                     # byte-swapped
    ((np.array([1, "a"], object),), {}, False),                       # object array
    (([xnp.arange(3.0), np.arange(3.0)],), {}, True),                 # list of arrays
    (([xnp.arange(3.0), np.arange(3.0, dtype=">f8")],), {}, False),
    (([1.0] * 10_001,), {}, False),                                   # a long list
    ((np.arange(5.0),), {"size": 3}, False),                          # not NumPy's keyword
    ((np.arange(5.0),), {"axis": lambda: 0}, False),                  # a callable
], ids=["numpy-in", "xnp-in", "out-none", "list-of-numbers", "out", "positional-out",
        "bfloat16", "byte-swapped", "object", "list-of-arrays", "list-of-swapped-arrays",
        "long-list", "jax-keyword", "callable"])
def test_which_calls_take_numpys_routine(args, kwargs, numpys):
    assert (_eager_numpy.plain_call(_MEDIAN_PLAN, args, kwargs) is not None) is numpys


def test_no_numpy_routine_under_a_transformation():
    seen = []

    def f(v):
        seen.append(_eager_numpy.plain_call(_MEDIAN_PLAN, (np.arange(3.0),), {}))
        return v
    xnp.vmap(f)(np.ones((2, 3)))
    xnp.grad(lambda v: f(v).sum())(np.ones(3))
    assert seen == [None, None]   # even a constant argument takes xnp's implementation


def test_jax_keywords_and_traced_values_take_xnp():
    x = np.array([0.0, 3.0, 0.0, 5.0])
    r = xnp.nonzero(x, size=3, fill_value=-1)          # JAX's keywords
    assert [list(np.asarray(i)) for i in r] == [[1, 3, -1]]
    f = xnp.jit(lambda v: xnp.linalg.norm(v) + xnp.median(v))
    np.testing.assert_allclose(f(x), np.linalg.norm(x) + np.median(x), rtol=1e-15)
    g = xnp.grad(lambda v: xnp.linalg.norm(v))(x)
    np.testing.assert_allclose(g, x / np.linalg.norm(x), rtol=1e-15)
    v = xnp.vmap(lambda row: xnp.searchsorted(np.arange(5.0), row))(np.array([[0.5], [3.5]]))
    np.testing.assert_array_equal(v, [[1], [4]])


def test_results_are_xnp_arrays_or_numpy_scalars_and_independent():
    a = xnp.asarray([3.0, 1.0, 2.0])
    assert type(xnp.linalg.norm(a)) is np.float64
    assert type(xnp.median(a)) is np.float64
    idx = xnp.argsort(a)
    assert type(idx) is xnp.ndarray and idx.dtype == np.int64
    assert all(type(i) is xnp.ndarray for i in xnp.nonzero(a))
    hist, edges = xnp.histogram(a, bins=2)
    assert type(hist) is xnp.ndarray and type(edges) is xnp.ndarray
    s = xnp.roll(a, 1)
    s += 1
    np.testing.assert_array_equal(a, [3.0, 1.0, 2.0])


def test_errors_and_warnings_are_numpys():
    with pytest.raises(np.linalg.LinAlgError):
        xnp.linalg.solve(np.zeros((2, 2)), np.ones(2))
    with pytest.raises(ValueError):
        xnp.searchsorted(np.ones((2, 2)), 1.0)
    with pytest.warns(RuntimeWarning):
        xnp.median(np.array([]))


@pytest.mark.parametrize("a,b,kw", [
    (np.array(5.89923886e-302), np.array(0.0, np.float16), {}),   # atol is 0 in float16
    (np.array(0.0, np.float16), 2 ** 40, {}),                      # b overflows float16
    (np.array([1.0, np.inf, np.nan, 1e-3], np.float32), np.array([1.0, np.inf, np.nan, 0.0],
                                                                   np.float16), {}),
    (np.array([1, 2, 3]), 2, {"atol": 0.5}),
    (np.array([np.nan, 1.0]), np.array([np.nan, 1.0 + 1e-9]), {"equal_nan": True}),
])
def test_isclose_composition_computes_as_numpy(a, b, kw):
    """The traced isclose (what jit, vmap and grad use) follows NumPy's order of
    operations: the tolerance in b's precision, |a - b| in the common type."""
    arrays = [v for v in (a, b) if isinstance(v, np.ndarray)]

    def f(*vs):
        it = iter(vs)
        return xnp.isclose(*[next(it) if isinstance(v, np.ndarray) else v for v in (a, b)], **kw)
    with np.errstate(all="ignore"):
        expected = np.isclose(a, b, **kw)
    np.testing.assert_array_equal(np.asarray(xnp.jit(f)(*arrays)), expected)


@pytest.mark.parametrize("key", [
    np.array([1, 3, 5]), np.array([[0, 1], [2, -1]]), np.array([], np.int64),
    np.array(2), np.array([4, 4], np.uint8), np.arange(10) % 3 == 0,
    np.array([10]), np.array([True, False]),
], ids=["ints", "2d-ints", "empty", "0d", "uint8", "mask", "out-of-bounds", "bad-mask"])
def test_index_array_keys_on_concrete_arrays_are_numpys(key):
    a = np.arange(10.0)
    for k in (key, xnp.asarray(key)):
        x = xnp.asarray(a)
        try:
            expected = a[key]
        except IndexError as e:
            with pytest.raises(IndexError, match=str(e)[:20]):
                x[k]
            continue
        got = x[k]
        assert type(got) is (xnp.ndarray if isinstance(expected, np.ndarray) else type(expected))
        np.testing.assert_array_equal(np.asarray(got), expected)
        assert np.asarray(got).dtype == expected.dtype
        if isinstance(got, xnp.ndarray) and got.size:
            got[...] = -1                   # a copy, as NumPy's: the base is unchanged
            np.testing.assert_array_equal(x, a)


def test_asarray_of_a_numpy_array_wraps_it_as_array_does():
    read_only = np.arange(4.0)
    read_only.flags.writeable = False
    for a in (np.arange(6.0).reshape(2, 3), np.asfortranarray(np.ones((2, 3))),
              np.arange(10)[::2], np.arange(3, dtype=">f8"), np.array(5.0),
              np.array([1, "a"], object), np.zeros((0, 3)), read_only):
        fast, full = xnp.asarray(a), xnp.array(a, copy=None, order="K")
        assert fast._value is a and full._value is a            # no copy, as NumPy's
        assert fast.flags.writeable == full.flags.writeable
        assert fast.dtype == a.dtype and fast.shape == a.shape


@pytest.mark.parametrize("a", [
    np.array([3.0, -0.0, 0.0, np.nan, 1.0, -np.inf, np.nan, 0.0]),
    np.array([[3, 1, 2], [1, 1, 0]], np.int8), np.array([True, False, True]),
    np.arange(5, dtype=np.float16)[::-1], np.array([], float),
], ids=["floats", "int8-2d", "bool", "float16", "empty"])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_eager_argsort_is_stable_and_agrees_with_jit(a, axis):
    expected = np.argsort(a, axis=axis, kind="stable")
    np.testing.assert_array_equal(xnp.argsort(a, axis=axis), expected)
    np.testing.assert_array_equal(xnp.jit(lambda v: xnp.argsort(v, axis=axis))(a), expected)


def test_a_routine_returning_its_argument_returns_the_same_handle():
    # NumPy's matrix_power(a, 1) is ``a`` itself: a write through either shows in both
    a_np, a = np.eye(3), xnp.eye(3)
    b_np, b = np.linalg.matrix_power(a_np, 1), xnp.linalg.matrix_power(a, 1)
    assert (b_np is a_np) and (b is a)
    b[0, 1] = 5.0
    b_np[0, 1] = 5.0
    np.testing.assert_array_equal(a, a_np)
    # from a NumPy array or a list: a new xnp array, as always
    assert type(xnp.linalg.matrix_power(a_np, 1)) is xnp.ndarray
    np.testing.assert_array_equal(xnp.linalg.matrix_power([[1, 2], [3, 4]], 1), [[1, 2], [3, 4]])
