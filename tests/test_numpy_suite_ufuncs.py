"""Regressions found by running NumPy's own ufunc tests against xnp: each test compares
xnp with NumPy on the same inputs (values, dtypes, warnings, exception types/messages)."""

import warnings

import numpy
import pytest

import xnp


def _np(a):
    return numpy.asarray(a)


def _same(got, want):
    got = numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got, want)


def _message(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:   # noqa: BLE001 - the type is compared below
        return type(e), str(e)
    return None, None


# --- ufunc.at for every single-output ufunc, repeated indices applied repeatedly -----------
@pytest.mark.parametrize("name", ["divide", "floor_divide", "fmax", "fmin", "power",
                                  "equal", "subtract", "add", "maximum", "remainder"])
@pytest.mark.parametrize("dtype", ["int64", "float64", "float32", "uint8"])
def test_at_repeated_indices(name, dtype):
    a = numpy.arange(1, 11).astype(dtype)
    idx = numpy.array([-1, 1, -1, 2, 3, 3, 3])
    vals = numpy.array([1, 5, 2, 3, 2, 1, 2]).astype(dtype)
    x = xnp.asarray(a.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(numpy, name).at(a, idx, vals)
        getattr(xnp, name).at(x, xnp.asarray(idx), xnp.asarray(vals))
    _same(x, a)


def test_at_unary_mixed_dtype_and_boolean_index():
    a, x = numpy.arange(10, dtype="u4"), xnp.arange(10, dtype="u4")
    numpy.invert.at(a, [2, 5, 2])
    xnp.invert.at(x, [2, 5, 2])
    _same(x, a)
    a, x = numpy.arange(10), xnp.arange(10)
    numpy.power.at(a, [1, 2, 3, 2], 3.5)
    xnp.power.at(x, [1, 2, 3, 2], 3.5)
    _same(x, a)
    a, x = numpy.arange(10), xnp.arange(10)
    numpy.equal.at(a, a % 2 == 0, [0, 2, 4, 6, 8])
    xnp.equal.at(x, x % 2 == 0, [0, 2, 4, 6, 8])
    _same(x, a)
    a, x = numpy.array(0), xnp.array(0)
    numpy.add.at(a, (), 1)
    xnp.add.at(x, (), 1)
    _same(x, a)
    a, x = numpy.arange(12.).reshape(3, 4), xnp.arange(12.).reshape(3, 4)
    numpy.fmax.at(a, (slice(None), [0, 0, 3]), 5.5)
    xnp.fmax.at(x, (slice(None), [0, 0, 3]), 5.5)
    _same(x, a)


@pytest.mark.parametrize("call", [
    lambda m: m.add.at(m.arange(3), [0]),
    lambda m: m.negative.at(m.arange(3), [0], 1),
    lambda m: m.modf.at(m.arange(3.), [0]),
    lambda m: m.divide.at(m.arange(5.), [0, 1], [1., 2., 3.]),
    lambda m: m.divide.at(m.array(0.), 0, 1.),
])
def test_at_errors(call):
    want, _ = _message(call, numpy)
    got, _ = _message(call, xnp)
    assert want is not None and got is not None and issubclass(got, want)


# --- attributes -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["add", "sin", "divmod", "logical_and", "isnan", "ldexp"])
def test_ufunc_types_and_result_dtypes(name):
    uf, nuf = getattr(xnp, name), getattr(numpy, name)
    assert uf.signature is None and nuf.signature is None
    assert set(uf.types) <= set(nuf.types) and uf.ntypes == len(uf.types)
    for typ in uf.types:
        if "?" in typ or "O" in typ:    # object loops: tests/test_object_arrays.py
            continue
        ins = typ.split("->")[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = uf(*[xnp.ones((2,), t) for t in ins])
            want = nuf(*[numpy.ones((2,), t) for t in ins])
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            assert g.dtype == w.dtype, typ


# --- floating-point errors in reductions name the method ------------------------------------
@pytest.mark.parametrize("method, args", [("reduce", ()), ("accumulate", ()),
                                          ("reduceat", ([0, 2],))])
def test_reduction_fp_error_messages(method, args):
    a = numpy.arange(-3, 3)
    for mod, arr in ((numpy, a), (xnp, xnp.asarray(a))):
        with mod.errstate(divide="raise"):
            with pytest.raises(FloatingPointError, match=f"divide by zero encountered in "
                                                         f"{method}$"):
                getattr(mod.floor_divide, method)(arr, *args)
        with mod.errstate(divide="warn"):
            with pytest.warns(RuntimeWarning, match=f"encountered in {method}"):
                getattr(mod.floor_divide, method)(arr, *args)


# --- edge values ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
def test_logaddexp_infinities_raise_nothing(name):
    inf, nan = numpy.inf, numpy.nan
    x = numpy.array([inf, -inf, inf, -inf, 1., inf, 0., -0., 3.])
    y = numpy.array([inf, -inf, -inf, inf, 1., 2., 0., 0., 3.])
    with numpy.errstate(all="raise"):
        want = getattr(numpy, name)(x, y)
        got = getattr(xnp, name)(xnp.asarray(x), xnp.asarray(y))
    _same(got, want)
    x, y = numpy.array([nan, 1., nan]), numpy.array([1., nan, -inf])
    _same(getattr(xnp, name)(xnp.asarray(x), xnp.asarray(y)), getattr(numpy, name)(x, y))
    g = xnp.grad(lambda t: getattr(xnp, name)(t, 1.0))(1.0)
    assert numpy.isfinite(float(g))


# --- calling conventions ------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda m: m.hypot(1), lambda m: m.sin(), lambda m: m.add(), lambda m: m.frexp(),
    lambda m: m.add(1, 2, 3, 4), lambda m: m.add(1, 2, ...),
    lambda m: m.add(1, 2, signature="ii->i", dtype=int),
    lambda m: m.add(m.asarray([1.5]), 2, signature="ii->i"), lambda m: m.add(1, 2, signature="f8"),
    lambda m: m.add(1, 2, signature="ii->ii"),
    lambda m: m.add(1, out=m.zeros(())),
])
def test_call_errors_match_numpy(call):
    want = _message(call, numpy)
    got = _message(call, xnp)
    assert want[0] is not None and got[0] is not None and issubclass(got[0], want[0])
    if "positional" in want[1] or "signature" in want[1] or "out=..." in want[1]:
        assert got[1] == want[1]


def test_out_ellipsis_returns_arrays():
    for args in ((1, 2), (xnp.array(1), 2)):
        r = xnp.add(*args, out=...)
        assert type(r) is xnp.ndarray and r.shape == () and int(r) == 3
    q, r = xnp.divmod(7, 2, out=...)
    assert type(q) is xnp.ndarray and type(r) is xnp.ndarray
    assert type(xnp.add(1, 2)) is not xnp.ndarray or xnp.add(1, 2).shape == ()


def test_where_without_out_warns():
    a = numpy.arange(7)
    mask = a % 2 == 0
    with pytest.warns(UserWarning, match="'where' used without 'out'") as rec:
        want = numpy.add(a, a, where=mask)
    with pytest.warns(UserWarning, match="'where' used without 'out'") as rec_x:
        got = xnp.add(xnp.asarray(a), xnp.asarray(a), where=xnp.asarray(mask))
    assert str(rec[0].message) == str(rec_x[0].message)
    _same(_np(got)[mask], want[mask])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = xnp.add(xnp.asarray(a), xnp.asarray(a), where=xnp.asarray(mask), out=None)
        xnp.add(xnp.asarray(a), 1, where=True)
    _same(_np(got)[mask], want[mask])


@pytest.mark.parametrize("kwargs", [
    {"signature": "ii->i", "casting": "unsafe"}, {"signature": (None, None, "f4")},
    {"signature": "ii->i"}, {"signature": ("f8", None, None)}, {"signature": "dd->d"},
])
def test_signature(kwargs):
    for x, y in ((1.5, 2), (numpy.arange(3), 2), (numpy.int8(3), numpy.int16(4))):
        want = numpy.add(x, y, **kwargs)
        got = xnp.add(x if numpy.ndim(x) == 0 else xnp.asarray(x), y, **kwargs)
        _same(got, want)
