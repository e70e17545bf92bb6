"""xnp.linalg beyond the registry: factors compared up to their sign freedom,
reconstructions, derivatives of eigenvectors and singular vectors, dtypes, errors, and
the compositions with vmap and jit."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads
from xnp._util import raw, wrap

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
    assert int(got[2]) == want[2] and got[1].shape == want[1].shape
    assert type(got) is type(want) is tuple     # NumPy's lstsq gives a plain tuple


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
    h, tau = XL.qr(a, mode="raw")           # LAPACK's Householder form, as NumPy
    np.testing.assert_allclose(h, np.linalg.qr(a, mode="raw")[0], rtol=1e-10, atol=1e-12)


# --- the primitives: triangular_solve and lu ---------------------------------------------------
LAX = xnp.lax


def _lu(x):
    """The lu primitive on an xnp array (primitives take raw values)."""
    return [wrap(o) for o in LAX.lu_p.bind(raw(xnp.asarray(x)))]


def _tsolve(a, b, **params):
    return wrap(LAX.triangular_solve_p.bind(raw(xnp.asarray(a)), raw(xnp.asarray(b)),
                                            **params))


def _triangular(n, dtype, batch=(), lower=True):
    a = rng.normal(size=(*batch, n, n)) + 0j * np.zeros(1, dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=a.shape)
    a = a + 2 * n * np.eye(n)
    return (np.tril(a) if lower else np.triu(a)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("transpose_a,conjugate_a", [(False, False), (True, False),
                                                     (True, True), (False, True)])
def test_triangular_solve_all_flags(dtype, left_side, lower, transpose_a, conjugate_a):
    a = _triangular(4, dtype, (2,), lower) + np.triu(np.ones((4, 4)), 1) * lower  # noise
    b = rng.normal(size=(2, 4, 3) if left_side else (2, 3, 4)).astype(dtype)
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a,
                  conjugate_a=conjugate_a, unit_diagonal=False)
    m = np.tril(a) if lower else np.triu(a)
    m = np.conj(m) if conjugate_a else m
    m = np.swapaxes(m, -1, -2) if transpose_a else m
    want = np.linalg.solve(m, b) if left_side else \
        np.swapaxes(np.linalg.solve(np.swapaxes(m, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    f = lambda a, b: _tsolve(a, b, **params)  # noqa: E731
    np.testing.assert_allclose(f(a, b), want, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(xnp.jit(f)(a, b)), want, rtol=1e-12)
    check_grads(f, (a[0], b[0]), order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("transpose_a", [True, False])
def test_triangular_solve_blocked_substitution(lower, left_side, transpose_a):
    n = 150                                       # above the impl's block size
    a = rng.normal(size=(2, n, n)) + 1j * rng.normal(size=(2, n, n)) + 40 * np.eye(n)
    b = rng.normal(size=(2, n, 3) if left_side else (2, 3, n)) + 0j
    m = np.tril(a) if lower else np.triu(a)
    m = np.swapaxes(m, -1, -2) if transpose_a else m
    want = np.linalg.solve(m, b) if left_side else \
        np.swapaxes(np.linalg.solve(np.swapaxes(m, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    got = _tsolve(a, b, left_side=left_side, lower=lower, transpose_a=transpose_a,
                  conjugate_a=False, unit_diagonal=False)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-13)


def test_triangular_solve_unit_diagonal_and_singular():
    a = _triangular(3, np.float64) * 0.1
    b = rng.normal(size=(3, 2))
    unit = np.tril(a, -1) + np.eye(3)
    x = _tsolve(a, b, left_side=True, lower=True, transpose_a=False,
                                    conjugate_a=False, unit_diagonal=True)
    np.testing.assert_allclose(x, np.linalg.solve(unit, b), rtol=1e-12)
    singular = np.triu(np.ones((3, 3))) - np.diag([0.0, 1, 0])
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        _tsolve(singular, b, left_side=True, lower=False, transpose_a=False,
                conjugate_a=False, unit_diagonal=False)


@pytest.mark.parametrize("shape", [(5, 5), (3, 5, 5), (6, 4), (4, 6), (70, 70), (2, 0, 0)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_lu_reconstructs_eagerly_and_compiled(shape, dtype):
    a = rng.normal(size=shape).astype(dtype)
    m, n = shape[-2:]
    k = min(m, n)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for lu, piv, perm in [_lu(a), xnp.jit(_lu)(a)]:
        lu, piv, perm = map(np.asarray, (lu, piv, perm))
        assert lu.dtype == dtype and piv.dtype == perm.dtype == np.int32
        assert piv.shape == (*shape[:-2], k) and perm.shape == shape[:-1]
        low = np.tril(lu, -1)[..., :, :k] + np.eye(m, k, dtype=dtype)
        up = np.triu(lu)[..., :k, :]
        np.testing.assert_allclose(low @ up, np.take_along_axis(a, perm[..., None], -2),
                                   rtol=tol, atol=tol)
        assert (np.abs(np.tril(lu, -1)) <= 1 + tol).all()      # partial pivoting
        swapped = np.broadcast_to(np.arange(m), perm.shape).copy()
        for idx in np.ndindex(*shape[:-2]):                    # pivots -> permutation
            for i, p in enumerate(piv[idx]):
                swapped[idx][[i, p]] = swapped[idx][[p, i]]
        np.testing.assert_array_equal(swapped, perm)


def test_lu_derivatives():
    a = rng.normal(size=(4, 4)) + 4 * np.eye(4)
    check_grads(lambda x: _lu(x)[0], (a,), order=1, modes=("fwd", "rev"))
    check_grads(lambda x: _lu(x)[0], (a + 1j * rng.normal(size=(4, 4)),),
                order=1, modes=("fwd", "rev"))


# --- derivatives of the decompositions, eagerly and compiled ----------------------------------
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_decomposition_derivatives(dtype):
    a = _spd(4, dtype)
    check_grads(XL.cholesky, (a,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: XL.eigh(x).eigenvalues, (a,), order=2, modes=("fwd", "rev"))
    m = rng.normal(size=(5, 3)).astype(dtype)
    check_grads(lambda x: XL.qr(x), (m,), order=1, modes=("fwd", "rev"))
    check_grads(XL.svdvals, (m,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: XL.slogdet(x).logabsdet, (a,), order=2, modes=("fwd", "rev"))
    check_grads(XL.inv, (a,), order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_vector_derivatives_read_one_triangle(uplo):
    # autograd's test_eigvalh_upper: a non-symmetric matrix, eigh reads one triangle; the
    # derivative's primal eigenvectors must carry the signs of the eager result (LAPACK
    # run on the same triangle), or finite differences disagree column by column
    a = np.random.default_rng(1).normal(size=(6, 6))
    check_grads(lambda x: tuple(XL.eigh(x, uplo)), (a,), order=2, modes=("fwd", "rev"))
    np.testing.assert_allclose(xnp.jit(lambda x: XL.eigh(x, uplo)[1])(a),
                               np.linalg.eigh(a, uplo)[1], atol=1e-12)


def test_grad_under_jit_matches_eager():
    a = _spd(3)
    for f in [lambda x: XL.det(x), lambda x: xnp.sum(XL.inv(x)),
              lambda x: xnp.sum(XL.cholesky(x)), lambda x: xnp.sum(XL.eigvalsh(x) ** 3),
              lambda x: XL.norm(x, 2), lambda x: xnp.sum(XL.qr(x).R),
              lambda x: xnp.sum(XL.solve(x, xnp.arange(3.0)))]:
        g = xnp.grad(f)
        np.testing.assert_allclose(np.asarray(xnp.jit(g)(a)), g(a), rtol=1e-9, atol=1e-12)


# --- jit against eager, vmap against loops ------------------------------------------------------
def _up_to_sign(u, ref):
    """Columns of ``u`` rotated onto ``ref``'s phase (both eigen/singular vectors)."""
    return _aligned(np.asarray(u), np.asarray(ref))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
def test_jit_matches_eager_for_factors(dtype):
    tol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-10
    a = _spd(4, np.complex128 if np.dtype(dtype).kind == "c" else np.float64,
             batch=(2,)).astype(dtype)
    m = rng.normal(size=(2, 5, 3)).astype(dtype)
    close = lambda x, y: np.testing.assert_allclose(  # noqa: E731
        np.asarray(x), np.asarray(y), rtol=tol, atol=tol)
    for f, x in [(XL.cholesky, a), (XL.inv, a), (XL.det, a), (XL.slogdet, a),
                 (XL.eigvalsh, a), (XL.svdvals, m), (XL.pinv, m),
                 (lambda x: XL.qr(x, mode="complete"), m),
                 (lambda x: XL.qr(np.swapaxes(x, -1, -2)), m),
                 (lambda x: XL.qr(x, mode="r"), m), (XL.matrix_rank, m),
                 (lambda x: XL.norm(x, "nuc", axis=(-2, -1)), m)]:
        got, want = xnp.jit(f)(x), f(x)
        for g, w in zip(got if isinstance(want, tuple) else [got],
                        want if isinstance(want, tuple) else [want]):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            close(g, w)
    w, v = xnp.jit(XL.eigh)(a)
    close(_up_to_sign(v, XL.eigh(a)[1]), XL.eigh(a)[1])
    for full in (True, False):
        u, s, vh = xnp.jit(lambda x: XL.svd(x, full_matrices=full))(m)
        assert u.shape == (2, 5, 5 if full else 3)
        close(np.asarray(u)[..., :3] * np.asarray(s)[..., None, :] @ vh, m)


def test_eig_compiled():
    m = np.array([[0.0, -2.0, 0.3], [1.0, 0.5, 0.0], [0.2, 0.0, 3.0]])    # a complex pair
    for w, v in [XL.eig(m), xnp.jit(XL.eig)(m)]:
        w, v = np.asarray(w), np.asarray(v)
        assert w.dtype == v.dtype == np.complex128
        np.testing.assert_allclose(m @ v, v * w, atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1.0)
        np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(m)))
    w32 = xnp.jit(XL.eigvals)(m.astype(np.float32))
    assert np.asarray(w32).dtype == np.complex64


def test_singular_inputs_give_nan_under_jit():
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        XL.inv(np.ones((2, 2)))
    assert np.isnan(np.asarray(xnp.jit(XL.inv)(np.ones((2, 2))))).all()
    assert not np.isfinite(np.asarray(xnp.jit(XL.solve)(np.zeros((2, 2)), np.ones(2)))).any()
    with pytest.raises(np.linalg.LinAlgError):
        XL.cholesky(-np.eye(2))
    assert np.isnan(np.asarray(xnp.jit(XL.cholesky)(-np.eye(2)))).all()
    assert float(xnp.jit(XL.det)(np.ones((2, 2)))) == 0.0
    sign, logabs = xnp.jit(XL.slogdet)(np.zeros((3, 3)))
    assert float(sign) == 0.0 and float(logabs) == -np.inf


def test_vmap_matches_loops():
    a = _spd(3, batch=(4,))
    b = rng.normal(size=(4, 3, 2))
    m = rng.normal(size=(4, 5, 3))
    for f, args in [(XL.solve, (a, b)), (XL.det, (a,)), (XL.inv, (a,)),
                    (XL.cholesky, (a,)), (XL.eigvalsh, (a,)), (XL.svdvals, (m,)),
                    (lambda x: XL.qr(x).R, (m,)), (lambda x: _lu(x)[0], (a,))]:
        want = np.stack([np.asarray(f(*xs)) for xs in zip(*args)])
        np.testing.assert_allclose(xnp.vmap(f)(*args), want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(np.asarray(xnp.jit(xnp.vmap(f))(*args)), want,
                                   rtol=1e-10, atol=1e-12)
    # only one operand batched: the other is broadcast
    np.testing.assert_allclose(xnp.vmap(XL.solve, in_axes=(None, 0))(a[0], b),
                               np.linalg.solve(a[0], b), rtol=1e-10)


# --- NumPy functions added on top ----------------------------------------------------------
def test_tensorsolve_and_tensorinv():
    a = rng.normal(size=(6, 2, 3)) + np.eye(6).reshape(6, 2, 3) * 5
    b = rng.normal(size=6)
    np.testing.assert_allclose(XL.tensorsolve(a, b), np.linalg.tensorsolve(a, b))
    bb = rng.normal(size=(2, 3))
    c = rng.normal(size=(2, 3, 6)) + np.eye(6).reshape(2, 3, 6) * 5
    np.testing.assert_allclose(XL.tensorsolve(np.moveaxis(c, -1, 0), bb, axes=(0,)),
                               np.linalg.tensorsolve(np.moveaxis(c, -1, 0), bb, axes=(0,)))
    t = np.eye(24).reshape(4, 6, 8, 3) + 0.1 * rng.normal(size=(4, 6, 8, 3))
    np.testing.assert_allclose(XL.tensorinv(t), np.linalg.tensorinv(t), rtol=1e-10)
    np.testing.assert_allclose(xnp.jit(XL.tensorinv)(t), np.linalg.tensorinv(t), rtol=1e-10)
    with pytest.raises(np.linalg.LinAlgError):
        XL.tensorsolve(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError):
        XL.tensorinv(t, ind=0)


def test_hermitian_svd_pinv_and_rank_follow_numpy():
    h = rng.normal(size=(2, 4, 4)) + 1j * rng.normal(size=(2, 4, 4))
    h = h + np.conj(np.swapaxes(h, -1, -2))
    for got, want in zip(XL.svd(h, hermitian=True), np.linalg.svd(h, hermitian=True)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(XL.svd(h, compute_uv=False, hermitian=True),
                               np.linalg.svd(h, compute_uv=False, hermitian=True))
    np.testing.assert_allclose(XL.pinv(h, hermitian=True), np.linalg.pinv(h, hermitian=True),
                               rtol=1e-10, atol=1e-12)
    low_rank = np.ones((3, 3))
    assert int(XL.matrix_rank(low_rank, hermitian=True)) == 1


def test_shape_errors_are_numpys():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        XL.cholesky(np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        XL.eigvals(np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        XL.svd(np.ones(3))
    with pytest.raises(ValueError):
        XL.solve(np.eye(3), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError):
        xnp.jit(XL.det)(np.ones((2, 3)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_eig_dtype_follows_numpy_on_concrete_values(dtype):
    rng = np.random.default_rng(3)
    sym = rng.normal(size=(4, 4))
    for m in (sym + sym.T, np.array([[0.0, -1.0], [1.0, 0.0]]), np.diag([2.0, 3.0])):
        m = m.astype(dtype)
        w, v = np.linalg.eig(m)
        xw, xv = xnp.linalg.eig(xnp.asarray(m))
        assert xw.dtype == w.dtype and xv.dtype == v.dtype
        assert xnp.linalg.eigvals(m).dtype == np.linalg.eigvals(m).dtype
        np.testing.assert_allclose(np.sort_complex(np.asarray(xw)), np.sort_complex(w),
                                   rtol=1e-4, atol=1e-5)
    # Traced values cannot have a value-dependent dtype: complex, as in JAX.
    assert xnp.jit(xnp.linalg.eigvals)(np.diag([2.0, 3.0])).dtype == np.complex128


# --- derivatives JAX's linalg tests check (tests/linalg_test.py, eigh_test.py) ----------------
def test_pinv_derivative_where_singular_values_repeat():
    # pinv(A) = A^-1 near the identity, so d pinv = -dA: every entry, not just the diagonal
    # (differentiating the SVD loses the terms coupling its equal singular values).
    expected = -np.einsum("ik,jl->ijkl", np.eye(2), np.eye(2))
    np.testing.assert_allclose(xnp.jacrev(XL.pinv)(np.eye(2)), expected, atol=1e-12)
    np.testing.assert_allclose(xnp.jacfwd(XL.pinv)(np.eye(2)), expected, atol=1e-12)
    local = np.random.default_rng(7)
    wide = local.normal(size=(3, 5))
    check_grads(XL.pinv, (wide,), order=2)
    h = local.normal(size=(4, 4)) + 1j * local.normal(size=(4, 4))
    check_grads(lambda x: XL.pinv(x, hermitian=True), (h + h.conj().T,), order=1)


def test_pinv_eager_is_numpys_and_traced_agrees():
    # Eagerly pinv is one numpy.linalg.pinv call (a GMM's per-sample pinv was 50x NumPy's
    # time through the SVD's primitives); jit, vmap and traced rcond still compose it.
    local = np.random.default_rng(11)
    a = local.normal(size=(2, 4, 3)).astype(np.float32)
    for kw in ({}, {"rcond": 0.3}, {"rcond": np.array([0.1, 0.6])}, {"rtol": None}):
        r = XL.pinv(a, **kw)
        assert r.dtype == np.float32
        np.testing.assert_array_equal(r, np.linalg.pinv(a, **kw))
    h = a[0] @ a[0].T
    np.testing.assert_array_equal(XL.pinv(h, hermitian=True), np.linalg.pinv(h, hermitian=True))
    np.testing.assert_allclose(xnp.jit(XL.pinv)(a), np.linalg.pinv(a), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(xnp.vmap(XL.pinv)(a), np.linalg.pinv(a), rtol=1e-5, atol=1e-6)
    b = a.astype(np.float64)
    np.testing.assert_allclose(xnp.jit(lambda rc: XL.pinv(b, rcond=rc))(0.3),
                               np.linalg.pinv(b, rcond=0.3), atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_qr_derivatives_of_wide_and_complete_tall_matrices(dtype):
    local = np.random.default_rng(8)

    def draw(*shape):
        a = local.normal(size=shape)
        return (a + 1j * local.normal(size=shape)).astype(dtype) if dtype == np.complex128 \
            else a
    check_grads(XL.qr, (draw(3, 5),), order=2)
    check_grads(lambda x: XL.qr(x, mode="complete"), (draw(2, 3, 4),), order=1)
    check_grads(lambda x: XL.qr(x, mode="complete"), (draw(5, 3),), order=2)
    check_grads(lambda x: XL.qr(x, mode="complete"), (draw(4, 1),), order=1)


def test_eigenvector_derivatives_follow_lapacks_phase():
    # geev makes each eigenvector's largest component real: derivatives keep it so.
    local = np.random.default_rng(9)
    a = local.normal(size=(4, 4)) + 1j * local.normal(size=(4, 4))
    check_grads(XL.eig, (a,), order=1)
    rot = np.array([[0.5, -2.0, 0.1], [1.5, 0.3, 0.2], [0.1, 0.4, 2.0]])  # a complex pair
    check_grads(lambda x: XL.eig(x).eigenvectors ** 2, (rot,), order=2)


@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (2, 3, 5)])
def test_lu_derivatives_of_rectangular_matrices(shape):
    local = np.random.default_rng(10)
    a = local.normal(size=shape)
    check_grads(lambda x: _lu(x)[0], (a,), order=2)
    check_grads(lambda x: _lu(x)[0], (a + 1j * local.normal(size=shape),), order=1)
