"""Regressions found by rerunning NumPy's linalg/tests/test_linalg.py, test_regression.py
and fft/tests/test_pocketfft.py, test_helper.py against xnp: each case runs one call in
NumPy and in xnp and compares values, dtypes, shapes and exceptions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy_compare import same

import xnp
from transforms import grad, jit, vmap


@pytest.mark.parametrize("shape", [(0, 2), (0, 3, 2), (2, 0), (0,)])
@pytest.mark.parametrize("dtype", ["complex64", "float64", "int16"])
def test_view_of_empty_array_as_other_itemsize(shape, dtype):
    # a 0-size array counts as contiguous: its last axis is rescaled by the itemsizes
    same(lambda m: m.empty(shape, dtype).view(m.uint32))
    same(lambda m: m.zeros(shape, dtype).view(m.uint8))


F16_CHAIN = [np.arange(1.0, 13).reshape(3, 4),
             np.arange(1.0, 13).reshape(4, 3),
             np.array([[4.0, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]]),
             np.array([4.0, 1, 0.5])]


@pytest.mark.parametrize("count", [3, 4])
def test_multi_dot_multiplies_in_numpys_order(count):
    # float16 products round differently in another order (1366 instead of 1367)
    chain = [a.astype(np.float16) for a in F16_CHAIN[-count:]]
    same(lambda m: m.linalg.multi_dot([m.asarray(a) for a in chain]))


@pytest.mark.parametrize("shapes", [[(2, 9), (9, 3), (3, 8), (8, 1), (1, 5)],
                                    [(1, 4), (4, 1), (1, 4), (4, 1)],
                                    [(5, 2), (2, 7), (7, 3)], [(2, 4), (4, 6), (6, 3)]])
def test_multi_dot_chain_order(shapes):
    from numpy.linalg._linalg import _multi_dot_matrix_chain_order

    from xnp.linalg._decompositions import _chain_splits
    dims = [s[0] for s in shapes] + [shapes[-1][1]]
    splits = _chain_splits(dims)
    if len(shapes) > 3:
        want = _multi_dot_matrix_chain_order([np.empty(s) for s in shapes])
        assert all(want[i, j] == k for (i, j), k in splits.items())
    rng = np.random.default_rng(0)
    chain = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    want = np.linalg.multi_dot(chain)
    got = xnp.linalg.multi_dot([xnp.asarray(a) for a in chain])
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


def test_multi_dot_vectors_errors_and_out():
    same(lambda m: m.linalg.multi_dot([m.ones(2), m.ones((2, 3)), m.ones((3, 2)), m.ones(2)]))
    same(lambda m: m.linalg.multi_dot([m.ones(2), m.ones((2, 3)), m.ones((3, 2))]))
    same(lambda m: m.linalg.multi_dot([m.ones((2, 2)), m.ones((2, 2)), m.ones((2, 2, 2))]))
    same(lambda m: m.linalg.multi_dot([m.ones((2, 2, 2)), m.ones((2, 2))]))
    same(lambda m: m.linalg.multi_dot([m.ones((2, 2))] * 3, out=m.zeros((2, 2), "f4")))
    out = xnp.zeros((2, 3))
    got = xnp.linalg.multi_dot([xnp.ones((2, 2)), xnp.ones((2, 4)), xnp.ones((4, 3))],
                               out=out)
    assert got is out and float(out[0, 0]) == 8.0


def test_multi_dot_under_transformations():
    b, c, v = np.arange(12.0).reshape(3, 4) / 7, np.arange(8.0).reshape(4, 2) / 3, np.ones(2)
    a = np.arange(6.0).reshape(2, 3) / 5

    def f(x):
        return xnp.linalg.multi_dot([v, x, b, c, v])
    want = np.outer(v, b @ c @ v)          # d(v^T x w)/dx = v w^T
    np.testing.assert_allclose(np.asarray(grad(f)(xnp.asarray(a))), want)
    np.testing.assert_allclose(float(jit(f)(xnp.asarray(a))), v @ a @ b @ c @ v)
    batched = vmap(lambda x: xnp.linalg.multi_dot([x, b, c]))(xnp.asarray(np.stack([a] * 3)))
    np.testing.assert_allclose(np.asarray(batched), np.stack([a @ b @ c] * 3))


@pytest.mark.parametrize("mode", ["f", "full", "e", "economic", "raw"])
@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (2, 3, 3)])
def test_qr_old_modes(mode, shape):
    # 'full' is 'reduced', 'economic' LAPACK's packed factor (raw's h transposed), both
    # with a DeprecationWarning; 'raw' gives a plain tuple
    a = np.arange(np.prod(shape), dtype=float).reshape(shape) + np.eye(*shape[-2:])
    kind = type(np.linalg.qr(a, mode="raw" if mode == "raw" else "reduced"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = xnp.linalg.qr(xnp.asarray(a), mode=mode)
        want = np.linalg.qr(a, mode=mode)
    assert [w.category for w in caught] == [DeprecationWarning] * (2 * (mode != "raw"))
    if mode[0] == "e":
        assert isinstance(got, xnp.ndarray)
        got, want = (got,), (want,)
    else:
        assert type(got) is kind if mode == "raw" else type(got).__name__ == kind.__name__
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-10, atol=1e-12)



def test_multi_dot_needs_a_sequence():
    same(lambda m: m.linalg.multi_dot(iter([m.ones(2), m.ones((2, 2)), m.ones(2)])))
    same(lambda m: m.linalg.multi_dot(([1.0, 2], [[1, 2], [3, 4]], [1, 1])))
