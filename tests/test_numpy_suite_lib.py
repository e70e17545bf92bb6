"""Regressions found by running NumPy's own numpy/lib tests (test_function_base.py,
test_nanfunctions.py, test_arraysetops.py, test_index_tricks.py, test_type_check.py, ...)
against xnp. Each case runs the same call with NumPy and with xnp and compares values,
dtypes, shapes, exception types and warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy_compare import same as _same

import xnp
from xnp.testing import assert_array_equal


def _warnings(fn, m):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(m)
    return [(w.category, str(w.message)) for w in caught]


# --- medians and quantiles --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["e", "f", "d"])
@pytest.mark.parametrize("call", [
    lambda m, a: m.nanmedian(a),
    lambda m, a: m.nanmedian(a, axis=0),
    lambda m, a: m.nanmedian(a, axis=1),
    lambda m, a: m.median(a, axis=1),
    lambda m, a: m.nanquantile(a, [0.2, 0.5], axis=1),
    lambda m, a: m.nanpercentile(a, 50),
])
def test_all_nan_slices_warn_once_each(dtype, call):
    # NumPy warns once per all-NaN slice; float16 NaNs must not warn 'invalid value'
    # (NumPy's default sort turns them into signalling NaNs).
    def f(m):
        a = m.full((3, 4), m.nan).astype(dtype)
        a[0, 0] = 1
        return call(m, a)
    assert _warnings(f, xnp) == _warnings(f, np)
    _same(f)


def test_float16_sort_keeps_quiet_nans():
    a = np.array([1, np.nan, 0, -np.nan], dtype=np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = xnp.sort(xnp.asarray(a))
        assert float(xnp.median(xnp.asarray(a[[1, 3]]).astype(np.float32))) != 0
    assert np.isnan(np.asarray(s)[2:]).all()
    assert (np.asarray(s).view(np.uint16)[2:] & 0x0200).all()   # the quiet bit


@pytest.mark.parametrize("out_shape", [(1,), (2,), (1, 1), (2, 2)])
@pytest.mark.parametrize("call", [
    lambda m, d, o: m.percentile(d, 5, out=o),
    lambda m, d, o: m.quantile(d, [0.1, 0.2], out=o),
    lambda m, d, o: m.nanmedian(d, out=o),
    lambda m, d, o: m.nanpercentile(d, 5, out=o),
    lambda m, d, o: m.quantile(d.reshape(2, 5), 0.5, axis=1, out=o),
    lambda m, d, o: m.median(d, out=o),
])
def test_quantile_out_broadcasts_as_a_ufunc_output(call, out_shape):
    def f(m):
        o = m.zeros(out_shape)
        r = call(m, m.arange(10.0), o)
        return r is o, o
    _same(f)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [bool, int, object])
def test_nan_statistics_need_an_inexact_out(name, dtype):
    d = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    _same(lambda m: getattr(m, name)(m.asarray(d), axis=1, out=m.empty(2, dtype=dtype)))


# --- window functions, i0, sort_complex -------------------------------------------------------

@pytest.mark.parametrize("name", ["hanning", "hamming", "blackman", "bartlett"])
@pytest.mark.parametrize("M", [0, 1, 6, np.longdouble(6), np.longdouble(1), np.float32(6),
                               np.int8(5)])
def test_windows_take_the_dtype_of_m(name, M):
    _same(lambda m: getattr(m, name)(M))


@pytest.mark.parametrize("M,beta", [(5, 1.0), (np.longdouble(5), 2.0),
                                    (5, np.longdouble(2.0)), (1, np.longdouble(2.0))])
def test_kaiser_dtype(M, beta):
    want, got = np.kaiser(M, beta), xnp.kaiser(M, beta)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-15)


@pytest.mark.parametrize("dtype", ["e", "f", "d", "g", "i4", "u1", "?"])
def test_i0_keeps_float_dtypes(dtype):
    x = np.array([0, 1, 2.5, 7], dtype=dtype)
    want, got = np.i0(x), xnp.i0(xnp.asarray(x))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got, np.float64), want.astype(np.float64),
                               rtol=max(2 * np.finfo(want.dtype).eps, 1e-15))


@pytest.mark.parametrize("dtype", list("bBhHilqefdg?"))
def test_sort_complex_dtypes(dtype):
    _same(lambda m: m.sort_complex(m.array([5, 3, 6, 2, 1], dtype=dtype)))


# --- insert, delete, diff ---------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m: m.insert([0, 1, 2], m.array([1.0, 2.0]), [10, 20]),
    lambda m: m.insert([0, 1, 2], m.array([], dtype=float), []),
    lambda m: m.insert([0, 1, 2], [], []),
    lambda m: m.insert([0, 1, 2], 1.0, 5),
    lambda m: m.insert([0, 1, 2], m.array([1.0]), 5),
    lambda m: m.delete([0, 1, 2], m.array([1.0, 2.0])),
    lambda m: m.delete([0, 1, 2], m.array([], dtype=float)),
    lambda m: m.delete([0, 1, 2], []),
])
def test_insert_delete_float_indices(call):
    _same(call)


@pytest.mark.parametrize("x", [[0, 1, 2], xnp.arange(3)])
def test_diff_n0_returns_its_argument(x):
    assert xnp.diff(x, n=0) is x


# --- vectorize, digitize, bincount, isin ------------------------------------------------------

def test_vectorize_otypes_settable_and_checks_pyfunc():
    f = xnp.vectorize(lambda x: x)
    x = xnp.zeros([0, 5], dtype=int)
    with pytest.raises(ValueError, match="otypes"):
        f(x)
    f.otypes = "i"
    assert f(xnp.arange(3)).dtype == np.dtype("i")
    assert_array_equal(f(x), x)
    g = xnp.vectorize(lambda x: x, signature="(n)->(n)", otypes="i")
    assert_array_equal(g(x.T), x.T)
    with pytest.raises(TypeError):
        xnp.vectorize(pyfunc=3)


@pytest.mark.parametrize("call", [
    lambda m: m.digitize([1, 2, 3 + 1j], [1, 2, 3]),
    lambda m: m.digitize([1, 2, 3], [1, 2, 3 + 1j]),
    lambda m: m.bincount(m.arange(5), minlength="foobar"),
    lambda m: m.bincount(m.arange(5), minlength=None),
    lambda m: m.bincount(m.arange(5), minlength=True),
    lambda m: m.bincount(m.arange(5), minlength=2.0),
    lambda m: m.bincount(m.arange(5), minlength=np.int8(7)),
    lambda m: m.bincount(m.arange(5), minlength=-1),
])
def test_digitize_bincount_argument_errors(call):
    _same(call)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
@pytest.mark.parametrize("kind", [None, "sort", "table"])
def test_isin_table_range_overflow(dtype, kind):
    info = np.iinfo(dtype)
    _same(lambda m: m.isin(m.array([0, 1, 2], dtype=np.int16),
                           m.array([info.min, 0, info.max], dtype=dtype), kind=kind))
    _same(lambda m: m.isin(m.array([-1, 2, 3]), m.array([-1, 2], dtype=dtype), kind=kind))


# --- ravel_multi_index / unravel_index --------------------------------------------------------

_HALF = np.iinfo(np.intp).max // 2


@pytest.mark.parametrize("call", [
    lambda m: m.unravel_index([1], ()),
    lambda m: m.unravel_index([0], ()),
    lambda m: m.unravel_index(1, (2**32 - 1, 2**31 + 1)),
    lambda m: m.ravel_multi_index(([], []), (10, 3)),
    lambda m: m.ravel_multi_index(([1], []), (10, 3)),
    lambda m: m.ravel_multi_index(([0], [0]), (_HALF, 2)),
    lambda m: m.ravel_multi_index(([0], [0]), (_HALF + 1, 2)),
    lambda m: m.ravel_multi_index(([0], [0]), (_HALF + 1, 2), order="F"),
    lambda m: m.ravel_multi_index(np.zeros((3, 1), dtype=np.intp), (2, 1, 0), mode="clip"),
    lambda m: m.ravel_multi_index(np.zeros((3, 1), dtype=np.intp), (2, 1, 0), mode="wrap"),
    lambda m: m.ravel_multi_index(np.zeros((3, 0), dtype=np.intp), (2, 1, 0), mode="clip"),
])
def test_ravel_unravel_edge_cases(call):
    _same(call)


# --- iscomplexobj, testing --------------------------------------------------------------------

def test_iscomplexobj_of_duck_dtypes():
    class Duck:
        dtype = np.dtype(complex)

    class PdDtype:
        type = type("PdComplex", (np.complex128,), {})
        kind = "c"

    class DuckPd:
        dtype = PdDtype

    class RealDuck:
        dtype = np.dtype(float)

    for obj in (Duck(), DuckPd(), RealDuck()):
        assert xnp.iscomplexobj(obj) == np.iscomplexobj(obj)
        assert xnp.isrealobj(obj) == np.isrealobj(obj)


def test_testing_accepts_array_method_returning_xnp():
    class Like:
        def __array__(self, dtype=None, copy=None):
            return xnp.arange(3)

    assert_array_equal(xnp.intersect1d(Like(), Like()), Like())
    with pytest.raises(AssertionError):
        assert_array_equal(xnp.arange(1, 4), Like())


# --- pad with zero widths ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["edge", "wrap", "reflect", "symmetric", "linear_ramp",
                                  "maximum", "minimum", "mean", "median", "constant"])
def test_pad_zero_widths_gives_a_copy(mode):
    t = xnp.arange(120).reshape(4, 5, 6)
    r = xnp.pad(t, 0, mode=mode)
    assert r is not t and not xnp.shares_memory(r, t)
    assert_array_equal(r, t)


def test_pad_zero_width_ramps_are_checked():
    # NumPy builds the (empty) ramps of unpadded axes too, so their end values are checked.
    _same(lambda m: m.pad(m.arange(12.0).reshape(3, 4), 0, mode="linear_ramp",
                          end_values="abc"))
    _same(lambda m: m.pad(m.arange(12.0).reshape(3, 4), ((0, 0), (1, 2)),
                          mode="linear_ramp", end_values=((1, 2), (3, 4))))
    f = lambda m: m.pad(m.arange(12.0).reshape(3, 4), 0, mode="linear_ramp",  # noqa: E731
                        end_values=1 + 2j)
    assert _warnings(f, xnp) == _warnings(f, np)


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("data", [[1.0, np.nan], [np.nan, np.nan], [[np.nan, np.nan], [2, 3]]])
@pytest.mark.parametrize("q", [np.float64(0.3), np.array([0.25, 0.5]), np.float32(0.3)])
def test_quantile_dtype_does_not_depend_on_nan_data(name, data, q):
    # NumPy gives float16 data holding NaN its own dtype; xnp gives the dtype of NaN-free
    # data, eagerly as under jit (which cannot see the values), and the same values.
    a = np.array(data, np.float16)
    q = q * 100 if "percent" in name else q
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a, q, axis=-1)
        dtype = getattr(np, name)(np.ones_like(a), q, axis=-1).dtype
        eager = getattr(xnp, name)(a, q, axis=-1)
        jitted = xnp.jit(lambda a: getattr(xnp, name)(a, q, axis=-1))(a)
    for got in (eager, jitted):
        assert got.dtype == dtype
        np.testing.assert_allclose(np.asarray(got), want.astype(dtype), rtol=1e-3)


@pytest.mark.parametrize("q", [0.3, 1])
def test_quantile_python_number_passed_to_jit_does_not_widen(q):
    a = np.array([1.0, 2.0, 4.0], np.float16)
    for name, qq in (("quantile", q), ("nanpercentile", q * 100)):
        want = getattr(np, name)(a, qq)
        got = xnp.jit(lambda a, q: getattr(xnp, name)(a, q))(a, qq)
        assert got.dtype == want.dtype == np.float16
        np.testing.assert_array_equal(np.asarray(got), want)
