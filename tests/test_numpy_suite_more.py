"""Regressions found by running more of NumPy's own test files against xnp
(_core/tests/test_casting_floatingpoint_errors.py, test_protocols.py, test_deprecations.py,
test_mem_overlap.py, lib/tests/test_mixins.py). Each case runs the same call with NumPy
and with xnp and compares values, dtypes, exception types and warnings."""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest
from numpy_compare import same

import xnp


def _warned(fn, m):
    """The categories and first words of the warnings ``fn(m)`` gives, and its error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn(m)
            error = None
        except Exception as e:      # noqa: BLE001 - the class is compared
            error = type(e)
    return sorted({(w.category.__name__, " ".join(str(w.message).split()[:2]))
                   for w in caught}), error


# --- floating-point errors of casts: NaN/inf into integers, overflow into float16 -----------

_CAST_CALLS = {
    "setitem_int_list": lambda m, a, d: m.zeros(3, d).__setitem__([0, 1], a[:2]),
    "setitem_bool_list": lambda m, a, d: m.zeros(3, d).__setitem__([True, False, True],
                                                                    a[:2]),
    "setitem_rows": lambda m, a, d: m.zeros((5, 3), d).__setitem__([0, 2], a),
    "setitem_view": lambda m, a, d: m.zeros((2, 3), d)[0].__setitem__([0, 1], a[:2]),
    "fill": lambda m, a, d: m.zeros(3, d).fill(a[0]),
    "astype_function": lambda m, a, d: m.astype(a, d),
    "array_dtype": lambda m, a, d: m.array(a, dtype=d),
    "asarray_scalar": lambda m, a, d: m.asarray(a[0], dtype=d),
    "full": lambda m, a, d: m.full(3, a[0], dtype=d),
    "full_like": lambda m, a, d: m.full_like(a, a[0], dtype=d),
    "concatenate": lambda m, a, d: m.concatenate([a, a], dtype=d, casting="unsafe"),
    "ufunc_dtype": lambda m, a, d: m.add(a, a, dtype=d, casting="unsafe"),
    "ufunc_out": lambda m, a, d: m.add(a, 0, out=m.zeros(3, d), casting="unsafe"),
    "sum_dtype": lambda m, a, d: m.sum(a, dtype=d),
    "mean_dtype": lambda m, a, d: m.mean(a, dtype=d),
    "cumsum_dtype": lambda m, a, d: m.cumsum(a, dtype=d),
    "clip_out": lambda m, a, d: m.clip(a, 0, 1e308, out=m.zeros(3, d), casting="unsafe"),
    "insert": lambda m, a, d: m.insert(m.zeros(3, d), 1, a[:2]),
    "pad": lambda m, a, d: m.pad(m.zeros(3, d), 1, constant_values=a[0]),
    "ufunc_at": lambda m, a, d: m.add.at(m.zeros(3, d), [0, 1], a[:2]),
}
_CAST_VALUES = [("d", "b", np.nan), ("d", "B", np.inf), ("d", "e", 7e4), ("D", "F", 2e300),
                ("q", "e", 70000), ("f", "e", 1e5)]


@pytest.mark.parametrize("name", sorted(_CAST_CALLS))
@pytest.mark.parametrize("src,dst,value", _CAST_VALUES)
def test_cast_floating_point_errors(name, src, dst, value):
    # NumPy's "invalid value encountered in cast" / "overflow encountered in cast": a
    # warning by default, FloatingPointError under errstate(all='raise')
    call = _CAST_CALLS[name]

    def f(m):
        call(m, m.array([value] * 3, dtype=src), np.dtype(dst))

    assert _warned(f, xnp) == _warned(f, np)

    def raising(m):
        with np.errstate(all="raise"):
            return f(m)

    same(raising)


@pytest.mark.parametrize("src", "efdgFDG")
@pytest.mark.parametrize("dst", "bBhHqQ")
@pytest.mark.parametrize("value", [np.nan, np.inf, 300.5])
def test_fill_with_numpy_scalars(src, dst, value):
    # NumPy's fill converts a NumPy scalar with int() into signed integers (ValueError
    # for NaN), and casts it into unsigned ones (a warning)
    with np.errstate(all="ignore"):
        scalar = np.dtype(src).type(value)
    _same_fill(scalar, dst, 3)


def test_fill_with_a_string_and_a_longdouble():
    for value, dt in [("70000", "e"), (np.longdouble(7e4), "e"), ("1.5", "f"), ("3", "i")]:
        _same_fill(value, dt, 2)


def _same_fill(value, dtype, n):
    """``zeros(n, dtype).fill(value)`` as NumPy's: the same warnings, result or error."""
    def f(m):
        a = m.zeros(n, dtype)
        a.fill(value)
        return a

    assert _warned(f, xnp) == _warned(f, np)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(f)


# --- ufunc.at computes in the loop's dtype, then casts back ---------------------------------

def _at(uf, a, indices, b):
    uf.at(a, indices, b)
    return a


@pytest.mark.parametrize("call", [
    lambda m: _at(m.add, m.array([1, 1], m.int8), [0, 1], -0.5),
    lambda m: _at(m.add, m.array([1, 1], m.int8), [0, 0], m.array([0.6, 0.6])),
    lambda m: _at(m.multiply, m.array([3, 1], m.int8), [0, 1], 2.6),
    lambda m: _at(m.subtract, m.array([3, 1], m.int16), [0, 0, 1], 0.6),
    lambda m: _at(m.maximum, m.array([3, 1], m.int32), [0, 1], 2.5),
    lambda m: _at(m.add, m.array([3, 1], m.float32), [0, 0], m.array([1e-8, 1e-8])),
])
def test_ufunc_at_with_a_wider_loop(call):
    # NumPy computes each update in the loop's dtype (float64 for int8 and a Python
    # float) and casts the result back: 1 + (-0.5) -> 0, not 1 + int(-0.5)
    same(call)


# --- the array protocol ---------------------------------------------------------------------

def test_array_method_returning_an_xnp_array_with_a_string_or_object_dtype():
    class Wrapper:
        def __array__(self, dtype=None, copy=None):
            return xnp.array(["0" * 100], dtype=dtype, copy=copy)

    out = xnp.array(Wrapper(), dtype=str)
    assert out.dtype == np.dtype("U100") and out[0] == "0" * 100

    class Numbers:
        def __array__(self, dtype=None, copy=None):
            return xnp.array([1.5, 2], dtype=dtype, copy=copy)

    class NumpyNumbers:
        def __array__(self, dtype=None, copy=None):
            return np.array([1.5, 2], dtype=dtype, copy=copy)

    for dt in (object, "U5"):
        want = np.array(NumpyNumbers(), dtype=dt)
        for obj in (Numbers(), NumpyNumbers()):
            got = np.asarray(xnp.array(obj, dtype=dt))
            assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_a_warning_raised_while_converting_propagates():
    class Wrapper:
        def __init__(self, array):
            self.array = array

        def __len__(self):
            return len(self.array)

        def __getitem__(self, item):
            return type(self)(self.array[item])

        def __getattr__(self, name):
            if name.startswith("__array_"):
                warnings.warn("object got converted", UserWarning, stacklevel=1)
            return getattr(self.array, name)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="object got converted"):
            xnp.asarray(Wrapper(xnp.arange(10)))


class _ArrayLike(np.lib.mixins.NDArrayOperatorsMixin):
    """An operand that overrides ufuncs (NumPy's NDArrayOperatorsMixin example)."""

    def __init__(self, value):
        self.value = xnp.asarray(value)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.value if isinstance(x, _ArrayLike) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.value if isinstance(x, _ArrayLike) else x
                                  for x in kwargs["out"])
        return _ArrayLike(getattr(ufunc, method)(*inputs, **kwargs))


@pytest.mark.parametrize("call", [
    lambda m, x, y: m.matmul(x, y),
    lambda m, x, y: operator.matmul(x, y),
    lambda m, x, y: operator.matmul(y, x),
    lambda m, x, y: m.vecdot(x, y),
    lambda m, x, y: m.matmul(y, x, dtype=np.float32),
])
def test_gufuncs_dispatch_to_array_ufunc(call):
    y = xnp.array([1.0, 2.0])
    out = call(xnp, _ArrayLike(y), y)
    assert type(out) is _ArrayLike
    want = call(np, np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    assert out.value.dtype == want.dtype and float(out.value) == float(want)


# --- reduceat's axis ------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(6,), (2, 3)])
@pytest.mark.parametrize("axis", [None, (0,), (0, 1), (), 0, -1])
def test_reduceat_axis_none_and_tuples(shape, axis):
    same(lambda m: m.add.reduceat(m.arange(6).reshape(shape), [0, 1], axis=axis))


def test_reduceat_of_a_scalar():
    for axis in (None, (0,), ()):
        same(lambda m: m.add.reduceat(m.array(3), [0], axis=axis))


# --- deprecations -----------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m: m.finfo(None),
    lambda m: m.maximum(m.ones(1), m.zeros(1), m.empty(1)),
    lambda m: m.minimum(m.ones(1), m.zeros(1), m.empty(1)),
    lambda m: m.lib.math,
    lambda m: hasattr(m, "str"),
    lambda m: hasattr(m, "object"),
    lambda m: hasattr(m, "bytes"),
])
def test_deprecation_and_future_warnings(call):
    (want, _), (got, _) = _warned(call, np), _warned(call, xnp)
    assert [c for c, _ in got] == [c for c, _ in want]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert (call(xnp) is None) == (call(np) is None)
