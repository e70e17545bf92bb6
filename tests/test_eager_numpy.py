"""Plain eager calls of the functions in xnp/_eager_numpy.py run NumPy's routine; every
other call (traced values, out=, JAX's keywords, dtypes NumPy's routine does not take)
runs xnp's own implementation. The registry's jit/vmap/grad tests compare that
implementation with these eager results; here the gate itself is checked."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.numpy_compare import same
from transforms import grad, jit, vmap
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


_SORT_PLAN, _ARGSORT_PLAN = (
    dict(zip(f.__code__.co_freevars, (c.cell_contents for c in f.__closure__)))["plan"]
    for f in (xnp.sort, xnp.argsort))


@pytest.mark.parametrize("args,kwargs,numpys", [
    ((np.arange(5.0),), {}, (True, True)),
    ((xnp.arange(5.0), 0), {}, (True, True)),
    ((np.arange(6).reshape(2, 3),), {"axis": None}, (True, True)),
    # NumPy's default sort changes float16 NaN bits (argsort's stable one does not)
    ((np.arange(5.0, dtype=np.float16),), {}, (False, True)),
    ((np.arange(3.0) * 1j,), {}, (True, False)),               # as xnp's _argsort_v
    ((np.arange(5.0),), {"kind": "stable"}, (False, False)),   # xnp checks kind, stable
    ((np.arange(5.0), -1, "quicksort"), {}, (False, False)),
    ((np.arange(5.0),), {"stable": True}, (False, False)),
    ((np.arange(5.0),), {"order": None}, (False, False)),
    (([3, 1, 2],), {}, (False, False)),                        # a list: xnp converts it
    ((np.arange(5.0),), {"descending": True}, (False, False)),  # the Array API's keyword
])
def test_which_sort_calls_take_numpys_routine(args, kwargs, numpys):
    for plan, expected in zip((_SORT_PLAN, _ARGSORT_PLAN), numpys):
        assert (_eager_numpy.plain_call(plan, args, kwargs) is not None) is expected
    if numpys[1]:       # argsort is stable, as xnp's always is
        assert _eager_numpy.plain_call(_ARGSORT_PLAN, args, kwargs)[1]["kind"] == "stable"


@pytest.mark.parametrize("a", [
    np.array([3.0, -0.0, 0.0, np.nan, 1.0, -np.inf, np.nan, 0.0]),
    np.array([[3, 1, 2], [1, 1, 0]], np.int8), np.array([True, False, True]),
    np.array([1 + 1j, np.nan, 1 - 1j, 0j]), np.array([np.nan, 1, np.nan, 0], np.float16),
    np.array([2, 1], np.uint64), np.array(3.0),
], ids=["floats", "int8-2d", "bool", "complex", "float16-nan", "uint64", "0d"])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_eager_sort_is_numpys_and_agrees_with_jit(a, axis):
    try:
        expected = np.sort(a, axis=axis, kind="stable")
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            xnp.sort(a, axis=axis)
        return
    got = np.asarray(xnp.sort(a, axis=axis))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    if a.dtype == np.float16:       # xnp's quiet NaNs, not NumPy's default sort's
        assert np.array_equal(got.view(np.uint16), expected.view(np.uint16))
    np.testing.assert_array_equal(xnp.jit(lambda v: xnp.sort(v, axis=axis))(a), expected)


@pytest.mark.parametrize("deg", [0, 2, 5])
@pytest.mark.parametrize("kw", [{}, {"full": True}, {"w": "w"}, {"cov": True}],
                         ids=["plain", "full", "weights", "cov"])
def test_eager_polyfit_and_vander_are_numpys_bit_for_bit(deg, kw):
    rng = np.random.default_rng(deg)
    x, y = rng.normal(size=20) * 100, rng.normal(size=(20, 2))
    kw = {k: rng.random(20) if v == "w" else v for k, v in kw.items()}
    np.testing.assert_array_equal(xnp.vander(x, deg + 1), np.vander(x, deg + 1))
    expected, got = np.polyfit(x, y, deg, **kw), xnp.polyfit(x, y, deg, **kw)
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    for e, g in zip(expected, got):
        assert type(g) is (xnp.ndarray if type(e) is np.ndarray else type(e))
        assert np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(np.asarray(g), e)
    if "full" not in kw and "cov" not in kw:     # xnp's composition (jit's) agrees
        np.testing.assert_allclose(xnp.jit(lambda a, b: xnp.polyfit(a, b, deg, **kw))(x, y),
                                   expected[0], rtol=1e-9, atol=1e-12)


_METHOD_CALLS = [
    ("sum", (), {}), ("sum", (0,), {"keepdims": True}), ("mean", (), {"axis": 1}),
    ("std", (), {"ddof": 1}), ("var", (None,), {}), ("max", (), {"axis": 0}),
    ("min", (), {}), ("prod", (1,), {}), ("any", (), {}), ("all", (0,), {}),
    ("argmax", (), {}), ("argmin", (1,), {}), ("cumsum", (), {"axis": 0}),
    ("cumprod", (), {}), ("round", (1,), {}), ("argsort", (), {}), ("trace", (), {}),
    ("nonzero", (), {}), ("dot", ([[1.0], [2.0], [0.5]],), {}),
]


@pytest.mark.parametrize("dtype", ["float64", "int32", "float16", "bool", "complex64"])
@pytest.mark.parametrize("name,args,kwargs", _METHOD_CALLS)
def test_methods_of_plain_eager_arrays_are_numpys(name, args, kwargs, dtype):
    # plain eager method calls run NumPy's method: same values, dtypes and errors
    a = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    same(lambda m: getattr(m.asarray(a), name)(*args, **kwargs))
    with np.errstate(all="ignore"):         # under a transformation: the primitives
        try:
            want = getattr(a, name)(*args, **kwargs)
        except TypeError:
            return          # (``same`` saw xnp raise NumPy's error)
        if name == "nonzero":
            return          # (a value-dependent shape: no jit)
        got = jit(lambda x: getattr(x, name)(*args, **kwargs))(a)
    np.testing.assert_allclose(np.asarray(got, dtype=np.asarray(want).dtype), want,
                               rtol=1e-3)


def test_copy_flatten_ravel_astype_fill_methods_as_numpys():
    a = xnp.arange(6.0).reshape(2, 3)
    c, f = a.copy(), a.flatten()
    c[0, 0] = f[1] = -1.0                   # copies: the original is unchanged
    assert a[0, 0] == 0.0 and a[0, 1] == 1.0
    r = a.ravel()                           # a view: writes go through, both ways
    r[2] = 50.0
    a[1, 0] = 60.0
    np.testing.assert_array_equal(a, [[0, 1, 50], [60, 4, 5]])
    np.testing.assert_array_equal(r, [0, 1, 50, 60, 4, 5])
    t = a.T.ravel()                         # not contiguous: a copy, as NumPy's
    t[0] = 99.0
    assert a[0, 0] == 0.0
    for dt in (np.float32, "int8", bool, complex, xnp.uint16):
        same(lambda m: m.asarray([[1.5, -2.7], [300.0, 0.0]]).astype(dt))
    # fill writes in place where only a and its views see the buffer
    row = a[1]
    a.fill(7.0)
    np.testing.assert_array_equal(row, [7.0, 7.0, 7.0])
    b = xnp.asarray(np.arange(3.0))
    g = jit(lambda x: x * 1.0)(b)           # a buffer held by a compiled result too
    g.fill(2)
    np.testing.assert_array_equal(g, [2.0, 2.0, 2.0])
    for m in (np, xnp):
        with pytest.raises(ValueError, match="NaN"):
            m.arange(3).fill(float("nan"))
    ro = xnp.arange(3.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ro.fill(1.0)


def test_methods_under_transformations_bind_primitives():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(grad(lambda a: a.sum() + a.var() + a.ravel()[1])(x),
                               1 + 2 * (x - x.mean()) / x.size + np.eye(1, 6, 1).reshape(2, 3))
    np.testing.assert_allclose(vmap(lambda a: a.copy().astype(np.float32).mean())(x),
                               x.mean(axis=1))


def test_array_methods_and_diag_of_a_matrix_as_numpys():
    # NumPy 2's arrays have no ptp method (only the function)
    assert hasattr(np.ndarray, "ptp") is hasattr(xnp.ndarray, "ptp") is False
    np.testing.assert_array_equal(xnp.ptp(xnp.arange(6).reshape(2, 3), axis=1), [2, 2])
    # diag of a 2-d array is its diagonal: read-only, as NumPy's (also when empty)
    for k in (0, 1, -2, 5):
        m = np.arange(12.0).reshape(3, 4)
        ref, got = np.diag(m, k), xnp.diag(xnp.asarray(m), k)
        np.testing.assert_array_equal(got, ref)
        assert got.flags.writeable is ref.flags.writeable is False
        with pytest.raises(ValueError, match="read-only"):
            got[...] = 1.0
    assert xnp.diag(xnp.arange(3)).flags.writeable        # built from a 1-d array
    np.testing.assert_array_equal(jit(lambda v: xnp.diag(v) * 2)(np.eye(3)), [2, 2, 2])


@pytest.mark.parametrize("dtype", ["int64", "uint8", "float32", "bool", "complex64"])
def test_fill_stores_one_item_as_numpys(dtype):
    # arrays of one or more dimensions and sequences are no item (NumPy raises; a bool
    # takes their truth); a Python int past int64 fills a bool array with True, also
    # through a view
    values = [np.array([5]), [1], (2,), np.array([[5]]), np.array([1, 2]), [],
              xnp.asarray([3]), np.array(3.7), 2**63, -2**63 - 1]
    for value in values:
        got = []
        for m in (np, xnp):
            a = m.zeros((2, 3), dtype)
            row = a[1]
            v = np.asarray(value) if m is np and isinstance(value, xnp.ndarray) else value
            try:
                a.T[1].fill(v)
                row.fill(v)
                got.append(a.tolist())
            except (TypeError, ValueError, OverflowError) as e:
                got.append(type(e))
        assert got[0] == got[1], (dtype, value)
    f = jit(lambda v: _filled(v))
    np.testing.assert_array_equal(f(np.arange(3.0)), [0.0, 0.0, 0.0])


def _filled(v):
    w = v * 1.0
    w.fill(v[0])            # a traced value: one item
    return w


@pytest.mark.parametrize("call", [
    lambda m: m.eye(True), lambda m: m.eye(2, True), lambda m: m.identity(True),
    lambda m: m.eye(2, k=True), lambda m: m.eye(np.int64(2), 3, -1, int),
    lambda m: m.tri(True), lambda m: m.eye(2.0), lambda m: m.eye(-1),
], ids=["eye-bool", "eye-bool-M", "identity-bool", "eye-bool-k", "eye-numpy-int",
        "tri-bool", "eye-float", "eye-negative"])
def test_eye_sizes_as_numpys(call):
    # a bool is no size of eye/identity (NumPy: "an integer is required"); k and tri's
    # sizes may be bools
    got = []
    for m in (np, xnp):
        try:
            got.append(np.asarray(call(m)).tolist())
        except (TypeError, ValueError) as e:
            got.append(type(e))
    assert got[0] == got[1]
