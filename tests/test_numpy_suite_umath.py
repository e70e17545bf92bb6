"""Regressions found by NumPy's numpy/_core/tests/test_umath.py and test_ufunc.py:
``sig=``/``signature=`` checks, ``dtype=`` loop selection and casting, reductions without
identity, floating-point errors of input casts, accumulate rounding, ufunc signatures."""

import inspect
import warnings

import numpy as np
import pytest
from numpy_compare import same

import xnp


def test_sig_alias_of_signature():
    a = [0.5, 1.0, 1.5]
    same(lambda m: m.add(m.asarray(a), 0.5, sig="ii->i", casting="unsafe"))
    same(lambda m: m.add(m.asarray(a), 0.5, sig=("i4", "i4", "i4"), casting="unsafe"))
    same(lambda m: m.add([3], [4], sig=(None, None, None)))
    same(lambda m: m.add([3], [4], sig="ii->i", signature="ii->i"))


@pytest.mark.parametrize("sig", ["i", ("i4",), "ii", ("i4", "i4"), 123.0, ["i", "i", "i"]])
def test_bad_signatures(sig):
    same(lambda m: m.add(m.asarray([0.5, 1.5]), 0.5, signature=sig, casting="unsafe"))


def test_partial_signature_without_loop():
    same(lambda m: m.add(m.float16(1), m.uint64(2), signature=("e", "d", None)))


def test_dtype_selects_mixed_loop():
    same(lambda m: m.ldexp(m.float32(1.0), m.int_(2), dtype="d"))
    same(lambda m: m.ldexp(m.float32(1.0), m.int_(2), signature=(None, None, "d")))
    same(lambda m: m.ldexp(1.0, m.uint64(3), dtype="d"))
    same(lambda m: m.true_divide(m.arange(3, dtype=m.int8), 2, dtype=m.int8))
    same(lambda m: m.power(1.5, 2.8, dtype=m.intp, casting="unsafe"))


@pytest.mark.parametrize("name", ["add", "equal"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize("casting", ["no", "equiv", "safe"])
def test_python_scalar_casting_with_dtype(name, dtype, casting):
    value = 1j if dtype.startswith("complex") else 3 if dtype.startswith("int") else 3.0
    same(lambda m: getattr(m, name)(value, value, dtype=dtype, casting=casting))


def test_reduce_explicit_initial_none():
    same(lambda m: m.add.reduce([], initial=None))
    same(lambda m: m.minimum.reduce([], initial=None))
    same(lambda m: m.add.reduce([1, 2], initial=None))
    same(lambda m: m.add.reduce(m.zeros((0, 3)), axis=1, initial=None))


def test_reduce_scalar_axis_zero():
    same(lambda m: m.power.reduce(3))
    same(lambda m: m.power.reduce(m.float32(2.5), axis=-1))
    same(lambda m: m.power.reduce(3, axis=(0,)))


def test_reduce_empty_without_identity():
    same(lambda m: m.true_divide.reduce(m.zeros((0, 5)), axis=1))
    same(lambda m: m.true_divide.reduce(m.zeros((0, 5)), axis=0))
    same(lambda m: m.true_divide.reduce(m.zeros((0, 0, 5)), axis=1, initial=1))


def test_input_cast_floating_point_error():
    for m in (np, xnp):
        a = m.array([1.0, np.nan])
        with m.errstate(invalid="raise"), pytest.raises(FloatingPointError):
            m.add(a, a, dtype=m.intp, casting="unsafe")
        with m.errstate(invalid="raise"), pytest.raises(FloatingPointError):
            m.add(a, a, signature=(m.intp, m.intp, None), casting="unsafe")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same(lambda m: m.add(m.array([1.0, 2.0]), 1.0, dtype=m.intp, casting="unsafe"))


@pytest.mark.parametrize("name, dtype", [("hypot", "f"), ("hypot", "d"), ("logaddexp2", "d")])
def test_accumulate_folds_in_order(name, dtype):
    # NumPy folds left to right; regrouping (a parallel scan) changes float roundings
    same(lambda m: getattr(m, name).accumulate(m.array([0, 1, 2] * 128).astype(dtype)))


@pytest.mark.parametrize("name", ["sin", "add", "frexp", "divmod", "gcd"])
def test_ufunc_inspect_signature(name):
    assert inspect.signature(getattr(xnp, name)) == inspect.signature(getattr(np, name))


def test_frompyfunc_identity_none_is_reorderable():
    def mul(a, b):
        return a * b
    for m in (np, xnp):
        f = m.frompyfunc(mul, nin=2, nout=1, identity=None)
        assert f.reduce(np.ones((2, 2)), axis=(0, 1)) == 1
        with pytest.raises(ValueError):
            f.reduce([])
        g = m.frompyfunc(mul, nin=2, nout=1)
        with pytest.raises(ValueError):
            g.reduce(np.ones((2, 2)), axis=(0, 1))


def test_reduce_out_ellipsis_gives_array():
    same(lambda m: type(m.add.reduce(1, out=...)).__name__)
    same(lambda m: m.add.reduce(m.array([1, 2]), out=...))
    same(lambda m: m.maximum.reduce(m.array([[1.0, 2.0]]), axis=1, out=...))


def test_dtype_with_python_bool_operand():
    same(lambda m: m.add(m.array([1, 0], dtype="u1"), True, dtype="u1"))
    same(lambda m: m.ldexp(m.float32(1.0), True, dtype="d"))


@pytest.mark.parametrize("kwargs", [
    {"axes": [(-1,), (-1,), (-1,)], "keepdims": True},
    {"axes": [0, 0, 0], "keepdims": True},
    {"axes": [0, 2], "keepdims": True},
    {"axes": [0, 2, 2], "keepdims": True},
    {"axis": 0, "keepdims": True},
    {"axis": -1, "keepdims": True},
    {"keepdims": True},
    {"keepdims": "true"},
    {"axes": [-1, -1, -1]},
    {"axes": [-1, -1, (-1,)]},
    {"axes": [-1, (-2, -1), ()]},
    {"axes": [0, 1]},
])
def test_vecdot_axes_and_keepdims(kwargs):
    same(lambda m: m.vecdot(m.arange(27.0).reshape(3, 3, 3),
                            m.arange(27.0, 54.0).reshape(3, 3, 3), **kwargs))


def test_matmul_vectors_axes():
    same(lambda m: m.matmul(m.arange(3.0), m.arange(3.0), axes=[0, 0]))


@pytest.mark.parametrize("sig", ["%^->#", b"ii-i", "ii>i", (None, "f8"), b"\xff\xff->i",
                                 b"ii->i"])
def test_signature_string_errors(sig):
    same(lambda m: m.add(3, 4, signature=sig))
