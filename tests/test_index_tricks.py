"""r_, c_, s_, index_exp, mgrid, ogrid, vectorize and row_stack against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads

_EXPRS = ["r_[1:4, 0, [7, 8]]", "r_[0:1:5j]", "r_[-1:1:6j, [0] * 3, 5, 6]",
          "r_['0,2', [1, 2, 3], [4, 5, 6]]", "r_['1', np.ones((2, 2)), np.zeros((2, 1))]",
          "r_[np.ones((2, 2)), np.zeros((1, 2))]", "c_[[1, 2, 3], [4, 5, 6]]",
          "c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])]", "mgrid[0:5]",
          "mgrid[0:5, 0:3]", "mgrid[-1:1:5j]", "mgrid[0:4, 0:1:3j]", "mgrid[3:0:-1, 1:2]"]


@pytest.mark.parametrize("expr", _EXPRS)
def test_index_tricks_match_numpy(expr):
    got = eval(expr, {"r_": xnp.r_, "c_": xnp.c_, "mgrid": xnp.mgrid, "np": np})
    want = eval(expr, {"r_": np.r_, "c_": np.c_, "mgrid": np.mgrid, "np": np})
    assert np.asarray(got).dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_ogrid_s_and_index_exp():
    for got, want in zip(xnp.ogrid[0:5, 0:1:3j], np.ogrid[0:5, 0:1:3j]):
        np.testing.assert_array_equal(got, want)
        assert got.shape == want.shape
    assert xnp.s_[1:2, ::3] == np.s_[1:2, ::3] and xnp.s_[4] == np.s_[4]
    assert xnp.index_exp[2] == np.index_exp[2] == (2,)


def test_r_concatenates_traced_pieces():
    f = xnp.jit(lambda x: xnp.r_[x, 0.0, x * 2])
    np.testing.assert_array_equal(f(np.arange(3.0)), np.r_[np.arange(3.0), 0, 2 * np.arange(3.0)])


def test_vectorize_matches_numpy_and_differentiates():
    f = lambda a, b: a - b if a > b else a + b  # noqa: E731
    for args, kw in [(([1, 4, 3], 2), {}), (([[1, 4]], [[2], [3]]), {"otypes": [float]})]:
        got = xnp.vectorize(f, **kw)(*args)
        want = np.vectorize(f, **kw)(*args)
        np.testing.assert_array_equal(got, want)
        assert np.asarray(got).dtype == want.dtype
    both = xnp.vectorize(lambda a: (a, a * 2))(np.arange(3))
    np.testing.assert_array_equal(both[1], [0, 2, 4])
    assert xnp.vectorize(lambda a, b: a * b, excluded={1})([1, 2], 3).tolist() == [3, 6]
    square_or_negate = xnp.vectorize(lambda u: u * u if u > 0 else -u)
    check_grads(lambda t: square_or_negate(t), (np.array([1.5, -2.0, 3.0]),), order=1)
    with pytest.raises(NotImplementedError, match="signature"):
        xnp.vectorize(f, signature="(),()->()")


def test_row_stack_is_a_deprecated_vstack():
    with pytest.warns(DeprecationWarning):
        r = xnp.row_stack([[1, 2], [3, 4]])
    np.testing.assert_array_equal(r, np.vstack([[1, 2], [3, 4]]))
