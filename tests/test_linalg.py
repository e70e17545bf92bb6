"""xnp.linalg beyond the registry: factors compared up to their sign freedom,
reconstructions, derivatives of eigenvectors and singular vectors, dtypes, errors, and
the compositions with vmap and jit."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads

XL = xnp.linalg
rng = np.random.default_rng(0)


def _spd(n, dtype=np.float64, batch=()):
    a = rng.normal(size=(*batch, n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=(*batch, n, n))
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def _aligned(vectors, reference):
    """``vectors`` with each column's phase matched to ``reference``'s."""
    phase = np.sum(np.conj(vectors) * reference, axis=-2, keepdims=True)
    return vectors * phase / np.abs(phase)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_eigh_and_svd_factors_match_numpy_up_to_sign(dtype):
    a = _spd(4, dtype, batch=(2,))
    w, v = XL.eigh(a)
    w_np, v_np = np.linalg.eigh(a)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(w, w_np, rtol=tol, atol=tol)
    np.testing.assert_allclose(_aligned(np.asarray(v), v_np), v_np, rtol=tol, atol=tol)
    assert np.asarray(w).dtype == w_np.dtype and np.asarray(v).dtype == v_np.dtype
    m = rng.normal(size=(2, 5, 3)).astype(dtype)
    u, s, vh = XL.svd(m, full_matrices=False)
    np.testing.assert_allclose(np.asarray(u) * np.asarray(s)[..., None, :] @ vh, m,
                               rtol=tol, atol=tol)
    assert XL.svd(m).U.shape == (2, 5, 5)
    assert isinstance(XL.slogdet(a), XL.SlogdetResult)


def test_only_one_triangle_is_read_as_numpy():
    a = _spd(3)
    messy = a + np.triu(rng.normal(size=(3, 3)), 1)        # garbage above the diagonal
    np.testing.assert_allclose(XL.eigvalsh(messy), np.linalg.eigvalsh(messy))
    np.testing.assert_allclose(XL.eigvalsh(messy, UPLO="U"),
                               np.linalg.eigvalsh(messy, UPLO="U"))
    np.testing.assert_allclose(XL.cholesky(messy), np.linalg.cholesky(messy))
    np.testing.assert_allclose(XL.cholesky(a, upper=True), np.linalg.cholesky(a).T)


def test_dtypes_follow_numpy_linalg():
    assert XL.inv(np.eye(2, dtype=np.int64)).dtype == np.float64
    assert XL.det(np.eye(2, dtype=np.float32)).dtype == np.float32
    assert XL.solve(np.eye(2, dtype=np.float32), np.ones(2)).dtype == np.float64
    with pytest.raises(TypeError, match="float16"):
        XL.inv(np.eye(2, dtype=np.float16))


def test_errors_are_numpys():
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        XL.solve(np.zeros((2, 2)), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        XL.det(np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        XL.inv(np.ones(3))
    with pytest.raises(np.linalg.LinAlgError):
        XL.cholesky(-np.eye(2))


def test_lstsq_matches_numpy():
    a, b = rng.normal(size=(6, 3)), rng.normal(size=(6, 2))
    got, want = XL.lstsq(a, b), np.linalg.lstsq(a, b)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    rank_deficient = np.ones((4, 2))
    got, want = XL.lstsq(rank_deficient, np.ones(4)), np.linalg.lstsq(rank_deficient,
                                                                       np.ones(4))
    assert int(got.rank) == want[2] and got.residuals.shape == want[1].shape


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_vector_derivatives(dtype):
    a = _spd(3, dtype)
    gauge = lambda v: v * np.conj(v[..., :1, :]) / xnp.abs(v[..., :1, :])  # noqa: E731
    check_grads(lambda x: gauge(XL.eigh(x)[1]), (a,), order=1, modes=("fwd", "rev"))
    m = rng.normal(size=(4, 3)).astype(dtype)
    check_grads(lambda x: gauge(XL.svd(x, full_matrices=False)[0]), (m,), order=1)
    check_grads(lambda x: XL.svd(x, full_matrices=False)[1], (m.T,), order=2)


def test_compositions_with_vmap_and_grad():
    a = _spd(3, batch=(4,))
    per_matrix = xnp.vmap(xnp.grad(lambda x: XL.slogdet(x).logabsdet))(a)
    np.testing.assert_allclose(per_matrix, np.swapaxes(np.linalg.inv(a), -1, -2),
                               rtol=1e-10)
    b = rng.normal(size=(4, 3))
    np.testing.assert_allclose(xnp.vmap(XL.solve)(a, b),
                               np.stack([np.linalg.solve(x, y) for x, y in zip(a, b)]))
    g = xnp.grad(lambda x: XL.norm(x))(np.zeros(3))
    np.testing.assert_array_equal(g, 0.0)          # the subgradient at 0, not NaN


def test_qr_and_eig():
    a = rng.normal(size=(2, 5, 3))
    q, r = XL.qr(a)
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, atol=1e-12)
    check_grads(lambda x: XL.qr(x), (a[0] + 1j * a[1],), order=1)
    m = np.diag([1.0, 2.0, 4.0]) + 0.3 * rng.normal(size=(3, 3))
    w, v = XL.eig(m)
    np.testing.assert_allclose(m @ np.asarray(v), np.asarray(v) * np.asarray(w),
                               atol=1e-12)
    check_grads(lambda x: xnp.real(XL.eigvals(x)), (m,), order=1)
    gauge = lambda v: v * xnp.sign(xnp.real(v[..., :1, :]))  # noqa: E731
    check_grads(lambda x: xnp.real(gauge(XL.eig(x).eigenvectors)), (m,), order=1)
    with pytest.raises(NotImplementedError, match="raw"):
        XL.qr(a, mode="raw")
