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


def test_flags_describe_a_fresh_contiguous_array():
    a = xnp.arange(6.0).reshape(2, 3)
    assert a.flags.c_contiguous and a.flags["C_CONTIGUOUS"] and a.flags.writeable
    assert a.flags.owndata and not a.flags.f_contiguous
    assert xnp.ones(3).flags.f_contiguous          # 1-d: both, as in NumPy


def test_lib_numpy_version_and_stride_tricks_exist():
    assert xnp.lib.NumpyVersion("2.1.0") >= "2.0.0"
    w = xnp.lib.stride_tricks.sliding_window_view(xnp.arange(5), 2)
    np.testing.assert_array_equal(w, np.lib.stride_tricks.sliding_window_view(np.arange(5), 2))
