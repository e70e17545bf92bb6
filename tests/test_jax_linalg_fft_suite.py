"""Regressions found by running JAX's tests/linalg_test.py, fft_test.py,
lax_numpy_einsum_test.py and lax_numpy_vectorize_test.py with xnp in jax.numpy's place.
Each case compares xnp (eagerly and under jit) with NumPy on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_compare import same

import xnp

_R = np.random.default_rng(0)


def _complex(shape):
    return _R.normal(size=shape) + 1j * _R.normal(size=shape)


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 3, 2, 3, 4), (2, 2, 3, 2, 2, 3, 2)])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_jit_fftn_over_more_than_three_axes(shape, name, norm):
    # XLA's FFT transforms at most three axes at once
    x = _R.normal(size=shape) if name == "rfftn" else _complex(shape)
    got = xnp.jit(lambda a: getattr(xnp.fft, name)(a, norm=norm))(x)
    want = getattr(np.fft, name)(x, norm=norm)
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name, kw", [
    ("fftn", {"axes": (3, 0, 2, 1)}), ("ifftn", {"s": (3, 2, 5, 4), "axes": (0, 1, 2, 3)}),
    ("rfftn", {"axes": (1, 3, 0, 2)}), ("irfftn", {"s": (2, 4, 3, 6), "axes": (0, 1, 2, 3)}),
    ("fft2", {"axes": (0, 3)}),
])
def test_jit_fftn_over_more_than_three_axes_with_axes_and_lengths(name, kw):
    x = _R.normal(size=(2, 3, 4, 5)) if name == "rfftn" else _complex((2, 3, 4, 5))
    x = x.astype(np.complex64 if x.dtype.kind == "c" else np.float32)
    got = xnp.jit(lambda a: getattr(xnp.fft, name)(a, **kw))(x)
    want = getattr(np.fft, name)(x, **kw)
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


def test_jit_grad_and_vmap_of_a_four_axis_fft():
    x = _R.normal(size=(2, 3, 2, 4))
    f = lambda a: xnp.sum(xnp.abs(xnp.fft.rfftn(a)) ** 2)  # noqa: E731
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.grad(f))(x)),
                               np.asarray(xnp.grad(f)(x)), rtol=1e-10)
    c = _complex((3, 2, 2, 3, 2))
    got = xnp.jit(xnp.vmap(xnp.fft.fftn))(c)
    np.testing.assert_allclose(np.asarray(got), np.stack([np.fft.fftn(v) for v in c]),
                               rtol=1e-12, atol=1e-12)


_A, _B, _C = np.ones((2, 2)), np.arange(24.0).reshape(2, 3, 4), np.ones((3, 4, 2))


@pytest.mark.parametrize("optimize", ["auto", "eager", "no-such-path"])
@pytest.mark.parametrize("operands", [("ij,jk->ik", _A, _A), ("i,i", _A[0], _A[1]),
                                      ("ij,jkl,klm", _A, _B, _C),
                                      ("ij,jk,kl->il", _A, _A, _A)],
                         ids=["two", "dot", "three", "three_chain"])
def test_einsum_with_a_path_name_numpy_does_not_know(operands, optimize):
    # NumPy accepts any name where nothing is searched (two operands) and raises
    # KeyError where a path has to be found
    same(lambda m: m.einsum(*operands, optimize=optimize))
    same(lambda m: m.einsum_path(*operands, optimize=optimize)[0])


@pytest.mark.parametrize("other", [None, np.array(["ab", "c", "def"], dtype=object)],
                         ids=["none", "objects"])
def test_jit_vectorize_with_an_object_argument(other):
    # the pyfunc gets the Python objects (None, str) under jit as eagerly and in NumPy
    def pyfunc(x, y):
        return x if y is None else x * len(y)
    x = np.arange(3.0)
    want = np.vectorize(pyfunc)(x, other)
    for got in (xnp.vectorize(pyfunc)(x, other),
                xnp.jit(lambda v: xnp.vectorize(pyfunc)(v, other))(x)):
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("shape", [(100000, 2), (2, 100000)])
def test_pinv_derivative_of_a_long_thin_matrix(shape):
    # the derivative never forms the large side's m x m (or n x n) matrix (80 GB here)
    a = _R.normal(size=shape)
    da = _R.normal(size=shape)
    p, dp = xnp.jvp(xnp.linalg.pinv, (a,), (da,))
    eps = 1e-6
    fd = (np.linalg.pinv(a + eps * da) - np.linalg.pinv(a - eps * da)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(p), np.linalg.pinv(a), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(dp), fd, rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 3)])
@pytest.mark.parametrize("hermitian", [False, True])
def test_pinv_derivatives_after_reordering(shape, hermitian):
    from transforms.test_util import check_grads
    a = _R.normal(size=shape) + 1j * _R.normal(size=shape)
    if hermitian:
        a = a[..., :3, :3]
        a = a + np.conj(np.swapaxes(a, -1, -2))
    check_grads(lambda x: xnp.linalg.pinv(x, hermitian=hermitian), (a,), order=1,
                modes=("fwd", "rev"))
    check_grads(lambda x: xnp.linalg.pinv(x, hermitian=hermitian), (a.real,), order=2,
                modes=("fwd", "rev"))
