"""Regressions found by running NumPy's own numpy/_core tests (test_numeric.py,
test_indexing.py, test_einsum.py, test_half.py, test_array_coercion.py, ...) against xnp.
Each case runs the same call with NumPy and with xnp and compares values, dtypes, shapes and
exception types."""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest
from numpy_compare import same as _same

import xnp

# --- indexing ------------------------------------------------------------------------------

@pytest.mark.parametrize("coords,dims", [
    ((np.array([-1]), np.zeros((0, 1, 1), np.int64)), (3, 0)),   # empty after broadcasting
    ((np.array([1, 2]), np.array([[0], [3]])), (3, 4)),            # broadcast, then checked
    ((np.array([1, 2]), np.array([[0], [4]])), (3, 4)),
    ((np.array([1, 2]), np.array([0, 1, 2])), (3, 4)),
])
def test_ravel_multi_index_broadcasts_before_checking(coords, dims):
    _same(lambda m: m.ravel_multi_index(coords, dims))


@pytest.mark.parametrize("value", [True, 3, [2], 2.0, np.int8(-4)])
def test_operator_index_of_arrays(value):
    _same(lambda m: operator.index(m.array(value)))


# --- reshape(copy=) ----------------------------------------------------------------------------

@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("method", [False, True])
def test_reshape_copy_true_gives_a_copy(order, method):
    def f(m):
        a = m.arange(24).reshape(2, 3, 4)
        b = a.reshape((12, 2), order=order, copy=True) if method else \
            m.reshape(a, (12, 2), order=order, copy=True)
        shared = m.shares_memory(a, b)
        b[0, 0] = 100
        return shared, a
    _same(f)


def test_reshape_method_copy_false_raises_as_numpy():
    _same(lambda m: m.arange(24).reshape(2, 3, 4).T.reshape(24, copy=False))


# --- clip's arguments --------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m, a: m.clip(a, 2),
    lambda m, a: m.clip(a, a_max=2),
    lambda m, a: m.clip(a, 2, 3, min=2),
    lambda m, a: m.clip(a, a_min=2, min=2),
    lambda m, a: m.clip(a, min=2),
    lambda m, a: m.clip(a, max=np.int64(3)),
    lambda m, a: a.clip(1, 3, out=m.zeros(5, m.int32)),
    lambda m, a: a.astype(m.int32).clip(m.float64(0), m.float64(2), out=m.zeros(5, m.int32)),
    lambda m, a: a.clip(m.float64(0), m.float64(2), out=m.zeros(5, m.int32), casting="unsafe"),
    lambda m, a: a.clip(1, 2, casting="bad"),
    lambda m, a: a.clip(1, 2, casting=None),
])
def test_clip_arguments_and_casting(call):
    _same(lambda m: call(m, m.arange(5)))


# --- *_like with a shape of another rank ---------------------------------------------------------

@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like", "full_like"])
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("shape", [(4, 5), (2, 3, 4), (6,)])
def test_like_functions_layout_for_new_shape(name, order, shape):
    def f(m):
        d = m.asfortranarray(m.ones((2, 3)))
        args = (d, 7) if name == "full_like" else (d,)
        z = getattr(m, name)(*args, shape=shape, order=order)
        return z.shape, z.flags.c_contiguous, z.flags.f_contiguous
    _same(f)


# --- isclose's tolerances ------------------------------------------------------------------------

def _isclose_report(m, a, b, atol, rtol):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = np.asarray(m.isclose(m.asarray(a), m.asarray(b), atol=atol, rtol=rtol))
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError) as e:
        m.isclose(m.asarray(a), m.asarray(b), atol=atol, rtol=rtol)
    return got.tolist(), [(x.category, str(x.message)) for x in w], str(e.value)


@pytest.mark.parametrize("atol,rtol", [(np.inf, 1.0), (1.0, np.nan),
                                       (np.array([0.1, np.nan, 0.1]), 0.0)])
def test_isclose_reports_invalid_tolerances(atol, rtol):
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.2, 2.0, np.inf])
    assert _isclose_report(xnp, a, b, atol, rtol) == _isclose_report(np, a, b, atol, rtol)


def test_isclose_is_quiet_for_infinities():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = xnp.isclose(xnp.asarray([np.inf, 1.0, -np.inf]), xnp.asarray([np.inf, 2, 0.0]),
                          rtol=0.0)
    np.testing.assert_array_equal(np.asarray(got), [True, False, False])


# --- convolve/correlate modes, moveaxis/rollaxis arguments -------------------------------------

@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", [None, 1.5, True, -1, 3, "v", np.int64(2), 0, "same"])
def test_convolve_mode_errors(name, mode):
    _same(lambda m: getattr(m, name)(m.ones(5), m.ones(3), mode=mode))


@pytest.mark.parametrize("source,destination", [(range(4), range(4)), (range(2), [3, 0]),
                                                (np.array([0, 1]), (2, 3)), (1, -1)])
def test_moveaxis_takes_any_sequence(source, destination):
    _same(lambda m: m.moveaxis(m.zeros((1, 2, 3, 4)), source, destination).shape)


def test_rollaxis_to_its_own_place_is_a_view():
    a = xnp.arange(24).reshape(2, 3, 4).copy()
    r = xnp.rollaxis(a, 1, 2)
    assert not r.flags["OWNDATA"] and r.shape == (2, 3, 4)
    r[0, 0, 0] = 100
    assert int(a[0, 0, 0]) == 100


# --- broadcast objects -----------------------------------------------------------------------

def test_broadcast_iters_keep_their_arguments_as_base():
    a, b = xnp.arange(5.0).reshape(5, 1), xnp.ones(3)
    ref = np.broadcast(np.asarray(a), np.asarray(b))
    mit = xnp.broadcast(a, b)
    assert mit.iters[0].base is a and mit.iters[1].base is b
    for got, want in zip(mit.iters, ref.iters):
        assert len(got) == len(want) and [float(x) for x in got] == [float(x) for x in want]


def test_broadcast_signature_and_keywords():
    import inspect
    params = inspect.signature(xnp.broadcast).parameters
    assert list(params) == ["arrays"]
    assert params["arrays"].kind == inspect.Parameter.VAR_POSITIONAL
    _same(lambda m: m.broadcast(1, x=1))


@pytest.mark.parametrize("name", ["array_equal", "array_equiv"])
@pytest.mark.parametrize("a,b", [("foo", 1), (["a", "b"], [1, 2]), (["a"], [1, 2])])
def test_array_equal_of_strings_and_numbers(name, a, b):
    _same(lambda m: getattr(m, name)(m.array(a), m.array(b)))


@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("layout", ["C", "F", "T"])
@pytest.mark.parametrize("shape", [(12, 2), (24,), (2, 3, 4), (4, 3, 2), (2, 12)])
def test_reshape_copy_false_raises_where_numpy_does(order, layout, shape):
    def f(m):
        a = m.arange(24).reshape(2, 3, 4)
        a = m.asfortranarray(a) if layout == "F" else a.transpose(1, 0, 2) if layout == "T" \
            else a
        r = m.reshape(a, shape, order=order, copy=False)
        return r, m.shares_memory(r, a)
    _same(f)


def test_broadcast_reset_and_flatiter_signatures():
    import inspect
    for method in (xnp.broadcast.reset, xnp.flatiter.copy, xnp.flatiter.__array__):
        assert next(iter(inspect.signature(method).parameters.values())).kind == \
            inspect.Parameter.POSITIONAL_ONLY


# --- NumPy scalars stored into integer arrays ----------------------------------------------------

_SCALARS = [np.float64(np.nan), np.array(-1).astype(np.ulonglong)[()], np.float32(2.5),
            np.int64(300), np.float64(1e300), np.float64(-np.inf)]


@pytest.mark.parametrize("scalar", _SCALARS)
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64", "float32"])
@pytest.mark.parametrize("how", ["list", "item", "slice", "fill0d"])
def test_numpy_scalars_into_integer_arrays(scalar, dtype, how):
    def f(m):
        with np.errstate(invalid="ignore", over="ignore"):
            if how == "list":
                return m.array([scalar, scalar], dtype=dtype)
            a = m.zeros(2 if how != "fill0d" else (), dtype=dtype)
            key = 0 if how == "item" else slice(None) if how == "slice" else ()
            a[key] = scalar
            return a
    _same(f)


# --- NumPy's functions with NumPy destinations and xnp sources; arrays as dtypes -----------------

def test_numpy_copyto_and_full_like_into_numpy_arrays_from_xnp_values():
    dst = np.zeros((2, 3))
    np.copyto(dst, xnp.arange(3.0), where=xnp.asarray([True, False, True]))
    np.testing.assert_array_equal(dst, [[0, 0, 2], [0, 0, 2]])
    with pytest.raises(TypeError):
        np.copyto(np.zeros(3, np.int64), xnp.ones(3))        # same_kind refuses float -> int
    got = np.full_like(np.ones((2, 2)), xnp.asarray(7.5))
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, np.full((2, 2), 7.5))
    dst = np.zeros(4)
    np.put(dst, xnp.asarray([0, 2]), xnp.asarray([5.0, 6.0]))
    np.putmask(dst, xnp.asarray([False, True, False, True]), xnp.asarray(-1.0))
    np.testing.assert_array_equal(dst, [5, -1, 6, -1])
    with pytest.raises(TypeError, match="xnp.ndarray"):
        xnp.copyto(np.zeros(2), 1.0)        # xnp's own copyto writes xnp arrays only


@pytest.mark.parametrize("call", [
    lambda m: m.zeros(3, dtype=m.ones(2)),
    lambda m: m.asarray([1], m.ones(2)),
    lambda m: m.can_cast(m.int8(1), m.ones(2)),
    lambda m: m.array([1, 2], dtype=m.ones(2, m.int8)),
    lambda m: m.can_cast(m.int8, m.float32),
])
def test_arrays_are_not_dtypes(call):
    _same(call)


# --- in-place operators reach views -------------------------------------------------------

@pytest.mark.parametrize("op", ["%=", "**=", "<<=", ">>=", "&=", "|=", "^=", "+=", "//="])
@pytest.mark.parametrize("view", ["slice", "dtype"])
def test_in_place_operators_write_through_to_views(op, view):
    def f(m):
        a = m.arange(1, 7, dtype=m.uint16)
        v = a[1:] if view == "slice" else a.view(m.int16)
        ns = {"a": a}
        exec(f"a {op} 3", ns)
        return ns["a"], v
    _same(f)


def test_float16_view_sees_sign_bit_set_in_place():
    a = xnp.arange(0x7C00, dtype=xnp.uint16)
    h = a.view(xnp.float16)
    a |= 0x8000
    np.testing.assert_array_equal(np.spacing(np.asarray(h)), np.asarray(xnp.spacing(h)))
    assert bool(xnp.all(xnp.signbit(h)))


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_spacing_signs_zeros_and_extremes(dt):
    fi = np.finfo(dt)
    x = np.array([-0.0, 0.0, -fi.max, fi.max, -fi.smallest_subnormal, fi.smallest_subnormal,
                  -1.0, 1.0, -np.inf, np.inf, np.nan, -2.0, 2.0, -3.5, 1e-3], dtype=dt)
    with np.errstate(all="ignore"):
        want = np.spacing(x)
        got = np.asarray(xnp.spacing(xnp.asarray(x)))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_spacing_traced_matches_numpy(dt):
    fi = np.finfo(dt)
    x = np.array([-2.0, 1.0, -1.0, -3.5, 1e-3, np.inf, -np.inf, np.nan, -fi.max, 0.5], dt)
    with np.errstate(all="ignore"):
        want = np.spacing(x)
        got = np.asarray(xnp.jit(xnp.spacing)(xnp.asarray(x)))
    np.testing.assert_array_equal(got, want)


def test_spacing_floating_point_errors_as_numpy():
    for v in [np.float16(np.nan), np.float16(np.inf), np.float16(65504), np.float16(-65504),
              np.float32(-np.inf), np.float64(-1.7976931348623157e308), np.float64(-0.0)]:
        outcomes = []
        for m in (np, xnp):
            with np.errstate(all="raise"):
                try:
                    outcomes.append(repr(m.spacing(v)))
                except FloatingPointError as e:
                    outcomes.append(str(e))
        assert outcomes[0] == outcomes[1]


# --- einsum ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [{"dtype": "bad_data_type"}, {"order": "W"},
                                {"casting": "blah"}, {"dtype": "f4"}, {"dtype": np.int8}])
def test_einsum_argument_errors(kw):
    _same(lambda m: m.einsum("i->", m.arange(3.0), **kw))


_PATH_CASES = ["acdf,jbje,gihb,hfac,gfac,gifabc,hfac", "chd,bde,agbc,hiad,bdi,cgh,agdb",
               "eb,cb,fb->cef", "dd,fb,be,cdb->cef", "bca,cdb,dbf,afc->", "dcc,fce,ea,dbf->ab",
               "fdf,cdd,ccd,afe->ae", "abhe,hidj,jgba,hiab,gab", "ab,bc,cd->abcd", "a,b,c"]
_SIZES = dict(zip("abcdefghij", [2, 3, 4, 5, 2, 3, 4, 5, 3, 2]))


@pytest.mark.parametrize("subscripts", _PATH_CASES)
@pytest.mark.parametrize("optimize", ["greedy", "optimal", ("greedy", 0), ("optimal", 0),
                                      ("greedy", 100), ("optimal", 100)])
def test_einsum_path_is_numpys(subscripts, optimize):
    terms = subscripts.split("->")[0].split(",")
    ops = [np.ones([_SIZES[c] for c in t]) for t in terms]
    want = np.einsum_path(subscripts, *ops, optimize=optimize)[0]
    got = xnp.einsum_path(subscripts, *[xnp.asarray(o) for o in ops], optimize=optimize)[0]
    assert got == want
    np.testing.assert_allclose(
        np.asarray(xnp.einsum(subscripts, *[xnp.asarray(o) for o in ops], optimize=optimize)),
        np.einsum(subscripts, *ops))


class _Zero:
    def __index__(self):
        return 0


class _ArrayLike:
    def __array__(self, dtype=None, copy=None):
        return np.array([0, 1])


@pytest.mark.parametrize("key", [lambda: _Zero(), lambda: (_Zero(), _Zero()),
                                 lambda: (_Zero(), _ArrayLike()), lambda: _ArrayLike(),
                                 lambda: (slice(None), _ArrayLike())])
def test_index_objects_with_index_or_array(key):
    def f(m):
        r = m.arange(6.0).reshape(2, 3)[key()]
        return type(r).__name__ if np.ndim(r) == 0 else r
    _same(f)


@pytest.mark.parametrize("dt", [np.float32, np.complex64, np.int64])
@pytest.mark.parametrize("y", [2, -1, 0.5, 2.0, 3])
def test_in_place_power_special_cases_bitwise_with_views(dt, y):
    def f(m):
        a = m.asarray(np.array([1.5, 2.0, 0.25, 3e10, -7.0]).astype(dt))
        v = a[1:]
        with np.errstate(all="ignore"):
            a **= y
        return np.asarray(a).tobytes(), np.asarray(v).tobytes()
    _same(f)
