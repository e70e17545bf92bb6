"""The Array API surface beyond NumPy's: inspection, from_dlpack, descending sorts.

The official conformance suite (data-apis/array-api-tests) is run by hand against xnp
(``ARRAY_API_TESTS_MODULE=xnp``); these tests pin the pieces it found missing. Where the
standard and NumPy disagree (meshgrid returning a tuple, ``finfo`` attributes as NumPy
scalars, floor_divide of infinities), xnp follows NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest
import strategies as S
from hypothesis import given
from hypothesis import strategies as st

import xnp


def test_namespace_info_matches_numpy_defaults():
    info = xnp.__array_namespace_info__()
    assert info.default_device() == "cpu" and info.devices() == ["cpu"]
    assert xnp.ones(2).device == info.default_device()
    assert info.default_dtypes() == {"real floating": np.float64, "complex floating":
                                     np.complex128, "integral": np.int64,
                                     "indexing": np.int64}
    assert info.capabilities()["boolean indexing"] is True
    every = info.dtypes()
    assert set(every) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                          "uint32", "uint64", "float32", "float64", "complex64",
                          "complex128"}
    for kind in ("bool", "signed integer", "unsigned integer", "integral", "real floating",
                 "complex floating", "numeric"):
        assert all(xnp.isdtype(d, kind) for d in info.dtypes(kind=kind).values())
        assert all(not xnp.isdtype(d, kind) for n, d in every.items()
                   if n not in info.dtypes(kind=kind))
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64",
                                                                    "complex128"}
    with pytest.raises(ValueError, match="kind"):
        info.dtypes(kind="floating point")
    with pytest.raises(ValueError, match="device"):
        info.default_dtypes(device="gpu")


def test_from_dlpack_round_trips():
    x = np.arange(6.0).reshape(2, 3)
    y = xnp.from_dlpack(x)
    assert isinstance(y, xnp.ndarray) and y.dtype == x.dtype
    np.testing.assert_array_equal(y, x)
    z = xnp.from_dlpack(xnp.asarray(x) * 2)
    np.testing.assert_array_equal(z, x * 2)
    with pytest.raises(ValueError, match="device"):
        xnp.from_dlpack(x, device="gpu")


def test_asarray_without_copy_is_the_same_array():
    x = xnp.asarray(np.array([1, 2, 3], np.uint8))
    same = xnp.asarray(x, dtype=np.uint8, copy=False)
    other = xnp.asarray(x, dtype=np.int16)
    x[0] = 9                       # in-place writes show through the uncopied array only
    assert same is x and int(same[0]) == 9 and int(other[0]) == 1
    with pytest.raises(ValueError, match="copy"):
        xnp.asarray(x, dtype=np.float64, copy=False)


@given(S.arrays(st.sampled_from([np.float64, np.int32, np.bool_]), S.shapes(1, 3)),
       st.data())
def test_descending_sorts_are_stable(a, data):
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    idx = np.asarray(xnp.argsort(a, axis=axis, descending=True))
    # The stable descending order: by decreasing value, ties by increasing position.
    moved = np.moveaxis(a, axis, -1)
    ref = np.empty(moved.shape, np.int64)
    for pos in np.ndindex(moved.shape[:-1]):
        row = moved[pos]
        keys = [(-1 if np.isnan(v) else 0, v, i) if row.dtype.kind == "f" else (0, v, i)
                for i, v in enumerate(row)]
        order = sorted(range(len(row)), key=lambda i: (keys[i][0], -keys[i][1]
                                                       if row.dtype.kind != "b"
                                                       else -int(keys[i][1]), i))
        ref[pos] = order
    np.testing.assert_array_equal(idx, np.moveaxis(ref, -1, axis))
    np.testing.assert_array_equal(xnp.sort(a, axis=axis, descending=True),
                                  np.flip(np.sort(a, axis=axis), axis=axis))


def test_isdtype_takes_numpys_argument_names():
    assert xnp.isdtype(dtype=np.float32, kind="real floating")
    assert not xnp.isdtype(dtype=np.int8, kind=("bool", "unsigned integer"))


def test_large_python_integers_convert_exactly():
    # Found by the conformance suite: a list mixing big and small ints went through
    # float64 (NumPy's type for such a list without a dtype) and lost its low bits.
    big = 2 ** 63 + 1
    for elems in ([big, 0], [[big, 5], [2 ** 64 - 1, 1]], (7, big)):
        np.testing.assert_array_equal(xnp.asarray(elems, dtype=np.uint64),
                                      np.asarray(elems, dtype=np.uint64))
    np.testing.assert_array_equal(xnp.array([1, 2 ** 62 + 1], dtype=np.int64),
                                  [1, 2 ** 62 + 1])
    with pytest.raises(OverflowError):
        xnp.asarray([big, -1], dtype=np.uint64)
