"""Behaviour shown in NumPy's user guide and reference pages (quickstart, indexing, ufuncs,
strings, masked arrays, polynomials, array classes), compared with NumPy on the same
inputs."""

import pickle

import numpy
import pytest

import xnp

LIBS = (numpy, xnp)


def _outcome(fn):
    try:
        return repr(fn())
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def test_view_does_not_own_its_data():
    # quickstart, "View or shallow copy": c = a.view(); c.flags.owndata is False
    for m in LIBS:
        a = m.arange(12)
        assert a.flags.owndata and a.flags["OWNDATA"]
        for v in (a.view(), a[1:], a.T, a.reshape(3, 4), a[...]):
            assert not v.flags.owndata, (m.__name__, v)
            assert not v.flags["O"]
            assert "OWNDATA : False" in repr(v.flags)
        assert a.copy().flags.owndata


def test_index_with_range():
    # quickstart, "Indexing with arrays of indices": data[ind, range(data.shape[1])]
    got = []
    for m in LIBS:
        d = m.sin(m.arange(20.0)).reshape(5, 4)
        ind = d.argmax(axis=0)
        r = [d[ind, range(d.shape[1])], d[range(2)], d[:, range(0)]]
        d[range(1, 3)] = -1.0
        d[ind, range(4)] += 10.0
        got.append([repr(x) for x in r] + [repr(d)])
    assert got[0] == got[1]


@pytest.mark.parametrize("name,method", [
    (n, m) for n in ("divmod", "sin", "modf")
    for m in ("reduce", "accumulate", "reduceat", "outer") if (n, m) != ("divmod", "outer")])
def test_ufunc_method_arity_errors(name, method):
    # basics.ufuncs: np.divmod.reduce([1, 2, 3]) raises "... functions returning a single
    # value"; unary ufuncs are refused as not binary (divmod.outer is allowed)
    extra = {"reduceat": ([0],), "outer": ([1],)}.get(method, ())
    errors = []
    for m in LIBS:
        with pytest.raises(ValueError) as info:
            getattr(getattr(m, name), method)([1, 2, 3], *extra)
        errors.append(str(info.value))
    np_msg, x_msg = errors
    assert x_msg.endswith(np_msg), (np_msg, x_msg)


def test_divmod_outer():
    want = numpy.divmod.outer([1, 2], [3])
    got = xnp.divmod.outer([1, 2], [3])
    assert [repr(g) for g in got] == [repr(w) for w in want]


def test_view_as_masked_array():
    # maskedarray.generic: x.view(ma.MaskedArray) gives an unmasked masked array of x
    outs = []
    for m in LIBS:
        x = m.array([1, 2, 3])
        v = x.view(m.ma.MaskedArray)
        r = [repr(v), repr(x.view(m.int32, m.ma.MaskedArray)),
             repr(x.view(dtype=m.ma.MaskedArray))]
        v[0] = 7
        v[1] = m.ma.masked
        outs.append(r + [repr(x), repr(v)])
    assert outs[0] == outs[1]


def test_numpy_own_submodules_import():
    # routines.version, basics.strings, basics.performant_code
    assert xnp.version.short_version == numpy.version.short_version
    assert xnp.version.version == xnp.__version__
    from xnp.dtypes import StringDType
    from xnp.exceptions import AxisError
    from xnp.typing import NDArray
    assert StringDType is numpy.dtypes.StringDType
    assert AxisError is numpy.exceptions.AxisError
    assert NDArray is numpy.typing.NDArray


def test_string_dtype_missing_values_and_coercion():
    # basics.strings: StringDType(na_object=...) keeps None / nan as missing values
    sdt = numpy.dtypes.StringDType
    cases = [
        lambda m: m.array(["this array has", None, "as an entry"], dtype=sdt(na_object=None)),
        lambda m: m.array(["this array has", None, "x"], dtype=sdt(na_object=None))[1],
        lambda m: m.array(["hello", m.nan, "world"], dtype=sdt(na_object=m.nan)) * 2,
        lambda m: m.sort(m.array(["hello", m.nan, "world"], dtype=sdt(na_object=m.nan))),
        lambda m: m.array([1, 3.4], dtype=sdt()),
        lambda m: m.array([1, object(), 3.4], dtype=sdt(coerce=False)),
    ]
    for case in cases:
        assert _outcome(lambda: case(xnp)) == _outcome(lambda: case(numpy))


def test_polynomial_equality_is_numpy_bool():
    # routines.polynomials: p1 == p2 with different domains is np.False_
    for args in (([1, 2, 3], [-2, 2]), ([1, 2, 4], None), ([1, 2, 3], None), ([1, 2], None)):
        got = []
        for m in LIBS:
            p1 = m.polynomial.Polynomial([1, 2, 3])
            p2 = m.polynomial.Polynomial(args[0], domain=args[1])
            got.append((repr(p1 == p2), repr(p1.has_samedomain(p2)),
                        repr(p1.has_samecoef(p2)), repr(p1 != p2)))
        assert got[0] == got[1]


def test_ndarray_type_repr():
    # quickstart: type(a) prints <class 'numpy.ndarray'>; xnp's class names its package
    a = xnp.arange(3)
    assert repr(type(a)) == "<class 'xnp.ndarray'>"
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is xnp.ndarray and repr(b) == repr(a)


def test_testing_overrides_count_xnp_ufuncs():
    # basics.dispatch: allows_array_ufunc_override(np.add) is True
    from xnp.testing.overrides import allows_array_function_override, allows_array_ufunc_override
    assert allows_array_ufunc_override(xnp.add)
    assert allows_array_ufunc_override(numpy.add)
    assert not allows_array_ufunc_override(xnp.sum)
    assert allows_array_function_override(numpy.mean)


def test_array_method_returning_xnp_array():
    # arrays.classes: a class whose __array__ is written with ``import xnp as np``
    def make(m):
        class DiagonalArray:
            def __init__(self, n, value):
                self._n, self._i = n, value

            def __array__(self, dtype=None, copy=None):
                return self._i * m.eye(self._n, dtype=dtype)
        return DiagonalArray(3, 2)

    for fn in (lambda m, a: m.asarray(a), lambda m, a: m.asarray(a, dtype=m.float32),
               lambda m, a: m.multiply(a, 2), lambda m, a: m.array(a) + 1):
        assert repr(fn(xnp, make(xnp))) == repr(fn(numpy, make(numpy)))


def test_ufunc_on_masked_array_warns_as_numpy():
    # maskedarray.generic: np.log(x) of a masked array computes on the data, so NumPy's
    # RuntimeWarnings appear; numpy.ma's functions and operators stay silent
    import warnings

    def warned(m, fn):
        x = m.ma.array([-1.0, 1.0, 0.0, 2.0, 3.0], mask=[0, 0, 0, 0, 1])
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            r = fn(m, x)
        return repr(r), sorted(str(w.message) for w in got)

    for fn in (lambda m, x: m.log(x), lambda m, x: m.sqrt(x), lambda m, x: m.divide(x, 0),
               lambda m, x: m.ma.log(x), lambda m, x: x / 0, lambda m, x: m.ma.sqrt(x)):
        assert warned(xnp, fn) == warned(numpy, fn)


@pytest.mark.parametrize("args,kwargs", [
    ((2,), {"dtype": str}), ((2,), {"dtype": "S"}), ((3,), {"dtype": "V8"}),
    ((2,), {"dtype": numpy.dtypes.StringDType()}), ((numpy.str_("a"),), {}),
    ((numpy.bytes_(b"a"),), {})])
def test_arange_of_string_dtypes_raises_as_numpy(args, kwargs):
    # NumPy 2.4 release notes: np.arange(2, dtype=str) raises TypeError naming the DType
    assert _outcome(lambda: xnp.arange(*args, **kwargs)) == \
        _outcome(lambda: numpy.arange(*args, **kwargs))
