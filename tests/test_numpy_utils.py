"""NumPy's utilities re-exported by xnp: they act on xnp arrays as on NumPy's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from transforms import TracerArrayConversionError


def test_error_state_applies_to_xnp_kernels():
    with xnp.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            xnp.asarray([1.0]) / 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with xnp.errstate(divide="ignore"):
            assert np.isinf(xnp.asarray([1.0]) / 0.0).all()
    old = xnp.seterr(all="ignore")
    try:
        assert xnp.geterr()["divide"] == "ignore"
    finally:
        xnp.seterr(**old)
    assert xnp.exceptions.AxisError is np.exceptions.AxisError


def test_printing_helpers_take_xnp_arrays():
    a = xnp.asarray([1.0, 2.5])
    assert xnp.array2string(a) == np.array2string(np.asarray([1.0, 2.5]))
    assert xnp.array_repr(a) == np.array_repr(np.asarray([1.0, 2.5]))
    assert xnp.array_str(a, precision=1) == np.array_str(np.asarray([1.0, 2.5]), precision=1)
    with xnp.printoptions(precision=2):
        assert repr(xnp.asarray([1 / 3])) == "array([0.33])"
    assert xnp.format_float_positional(np.float64(0.1), precision=3) == "0.1"
    with pytest.raises(TracerArrayConversionError):
        xnp.jit(lambda x: xnp.asarray(len(xnp.array2string(x))))(a)


def test_type_helpers():
    assert xnp.int_ == np.int64 and xnp.uint == np.uint64 and xnp.True_ is np.True_
    assert xnp.common_type(xnp.ones(2, np.float32), np.ones(2, np.int64)) is np.float64
    assert xnp.min_scalar_type(xnp.asarray(300)) == np.uint16
    assert xnp.mintypecode(["d", "f"]) == "d" and xnp.typename("d") == np.typename("d")
    assert xnp.base_repr(10, 3) == "101" and xnp.binary_repr(-3, 4) == "1101"
    assert xnp.iterable([1]) and not xnp.iterable(3)
    a = xnp.arange(4).reshape(2, 2)
    assert [(i, int(v)) for i, v in xnp.ndenumerate(a)][-1] == ((1, 1), 3)
    assert list(xnp.ndindex(2, 1)) == [(0, 0), (1, 0)]
    assert not xnp.isfortran(a) and xnp.shares_memory(a, a)
    assert not xnp.may_share_memory(a, xnp.arange(4))


_LAYOUTS = {
    "fresh": lambda m: m.arange(6.0).reshape(2, 3),
    "1-d": lambda m: m.ones(3),
    "transpose": lambda m: m.arange(6.0).reshape(2, 3).T,
    "strided": lambda m: m.arange(12.0).reshape(3, 4)[:, ::2],
    "rows": lambda m: m.arange(12.0).reshape(3, 4)[::2],
    "asfortranarray": lambda m: m.asfortranarray(m.arange(6.0).reshape(2, 3)),
    "array order F": lambda m: m.array(m.arange(6).reshape(3, 2), order="F"),
    "asarray order C of F": lambda m: m.asarray(m.arange(6.0).reshape(2, 3).T, order="C"),
    "ascontiguousarray": lambda m: m.ascontiguousarray(m.arange(6.0).reshape(2, 3).T),
    "zeros F": lambda m: m.zeros((2, 3, 4), order="F"),
    "full F": lambda m: m.full((2, 2), 3.0, order="F"),
    "empty_like K": lambda m: m.empty_like(m.arange(6.0).reshape(2, 3).T),
    "ones_like C": lambda m: m.ones_like(m.arange(6.0).reshape(2, 3).T, order="C"),
    "copy K": lambda m: m.copy(m.arange(6.0).reshape(2, 3).T),
    "method copy": lambda m: m.arange(6.0).reshape(2, 3).T.copy(),
    "require F": lambda m: m.require(m.arange(6.0).reshape(2, 3), requirements="F"),
    "require CO": lambda m: m.require(m.arange(6.0).reshape(2, 3).T, requirements="CO"),
    "sum": lambda m: m.arange(6.0).reshape(2, 3) + 1,
}


@pytest.mark.parametrize("name", list(_LAYOUTS))
def test_layout_flags_and_strides_match_numpy(name):
    make = _LAYOUTS[name]
    x, n = make(xnp), make(np)
    assert x.strides == n.strides
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"):
        assert x.flags[flag] == n.flags[flag], flag
    assert xnp.isfortran(x) == np.isfortran(n)
    for order in "CFAKcfak":         # NumPy accepts lower case too
        np.testing.assert_array_equal(xnp.ravel(x, order=order), np.ravel(n, order=order))
        np.testing.assert_array_equal(x.flatten(order), n.flatten(order))
    np.testing.assert_array_equal(x.reshape(-1, order="A"), n.reshape(-1, order="A"))


def test_layout_of_traced_values_is_c_order():
    seen = []

    def f(a):
        seen.append((a.strides, a.flags.c_contiguous, a.flags.f_contiguous))
        return a
    xnp.jit(f)(xnp.asfortranarray(xnp.ones((2, 3))))
    assert seen == [(np.ones((2, 3)).strides, True, False)]
    assert xnp.asfortranarray(xnp.ones((2, 3))).flags.writeable


def test_lib_numpy_version_and_stride_tricks_exist():
    assert xnp.lib.NumpyVersion("2.1.0") >= "2.0.0"
    w = xnp.lib.stride_tricks.sliding_window_view(xnp.arange(5), 2)
    np.testing.assert_array_equal(w, np.lib.stride_tricks.sliding_window_view(np.arange(5), 2))


@pytest.mark.parametrize("order", ["x", 3, "CF"])
def test_bad_order_raises_as_numpy(order):
    for call in (lambda m: m.ravel(m.arange(4), order=order),
                 lambda m: m.zeros((2, 2), order=order),
                 lambda m: m.copy(m.arange(4), order=order)):
        with pytest.raises(Exception) as expected:
            call(np)
        with pytest.raises(expected.type):
            call(xnp)
