"""Regressions found by running NumPy's own linalg, fft, type_check and packbits test
files against xnp: each case runs the same call in NumPy and in xnp and compares values,
dtypes, shapes and exceptions."""

from __future__ import annotations

import numpy as np
import pytest

import xnp

rng = np.random.default_rng(0)
INF = np.inf


def _run(fn, m):
    try:
        return fn(m)
    except Exception as e:   # noqa: BLE001 - the exception itself is compared
        return e


def _same(fn, *, message=False, rtol=1e-6, atol=1e-8):
    """``fn(numpy)`` and ``fn(xnp)`` agree: both raise the same exception type (and
    message, when asked), or give results of equal shapes, dtypes and close values."""
    want, got = _run(fn, np), _run(fn, xnp)
    if isinstance(want, Exception):
        # NumPy's private subclasses (UFuncTypeError...) stand for their public base
        kind = next(t for t in type(want).__mro__ if not t.__module__.startswith("numpy._"))
        assert isinstance(got, kind), f"{got!r} instead of {want!r}"
        if message:
            assert str(got) == str(want)
        return
    assert not isinstance(got, Exception), f"{got!r}, NumPy gives {want!r}"
    wants = want if isinstance(want, tuple) else (want,)
    gots = got if isinstance(got, tuple) else (got,)
    assert len(wants) == len(gots)
    for w, g in zip(wants, gots):
        w, g = np.asarray(w), np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


# --- norms -----------------------------------------------------------------------------------
EMPTY = [(0,), (0, 2), (2, 0), (0, 0), (2, 0, 3)]


@pytest.mark.parametrize("shape", EMPTY)
@pytest.mark.parametrize("ord", [None, 1, 2, INF, -INF, -1, -2, "fro", "nuc", 0, 3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_norms_of_empty_inputs(shape, ord, dtype):
    x = np.zeros(shape, dtype)
    for axis in (None, 0, -1, (0, 1), (-1, 0)):
        _same(lambda m: m.linalg.norm(m.asarray(x), ord=ord, axis=axis), message=True)
    if not isinstance(ord, str) and ord is not None:
        _same(lambda m: m.linalg.vector_norm(m.asarray(x), ord=ord), message=True)
    if ord not in (0, 3):
        _same(lambda m: m.linalg.matrix_norm(m.asarray(x), ord=ord or "fro"), message=True)


@pytest.mark.parametrize("ord", [None, 1, 2, INF, -INF, -1, -2, "fro", "nuc", 0, 0.5, "x"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.int64, np.bool_])
def test_norm_ord_axis_keepdims_combinations(ord, dtype):
    x = (rng.normal(size=(2, 3, 4)) * 3).astype(dtype)
    for axis in (None, 0, -1, 1.0, (1,), (0, 2), (2, 0), (1, 1), (0, 5), 7):
        for keepdims in (False, True):
            _same(lambda m: m.linalg.norm(m.asarray(x), ord, axis, keepdims), message=True,
                  rtol=1e-5)
            _same(lambda m: m.linalg.norm(m.asarray(x[0]), ord, axis, keepdims),
                  message=True, rtol=1e-5)


def test_vector_and_matrix_norm_axes_and_errors():
    x = rng.normal(size=(2, 3, 4)).astype(np.float32)
    for axis in (None, 1, (0, 2), (2, 0, 1), (0, 0)):
        _same(lambda m: m.linalg.vector_norm(m.asarray(x), axis=axis, keepdims=True, ord=3),
              rtol=1e-5)
    for shape in [(3,), ()]:       # matrix_norm of a vector: NumPy's AxisError
        _same(lambda m: m.linalg.matrix_norm(m.zeros(shape), ord=1), message=True)
    np.testing.assert_allclose(xnp.grad(lambda v: xnp.linalg.norm(v))(xnp.zeros(3)),
                               np.zeros(3))


# --- cond, pinv, matrix_rank, eigh, svd ---------------------------------------------------------
@pytest.mark.parametrize("p", [None, 1, -1, 2, -2, INF, -INF, "fro", "nuc"])
def test_cond_singular_stacked_and_empty(p):
    a = rng.random((2, 2, 2, 2))
    a[0, 0] = 0
    a[1, 1] = 0
    a[1, 0, 0, 0] = np.nan        # NaN stays NaN; singular matrices give inf
    _same(lambda m: m.linalg.cond(m.asarray(a), p))
    _same(lambda m: m.linalg.cond(m.ones((2, 2), np.float32), p))
    for shape in [(0, 0), (2, 0, 0), (0,), (3, 0)]:
        _same(lambda m: m.linalg.cond(m.zeros(shape), p), message=True)
    _same(lambda m: m.linalg.cond(m.zeros((0, 2, 2)), p))
    _same(lambda m: m.linalg.cond(m.ones((2, 3)), p), message=p not in (None, 2, -2))


def test_pinv_rcond_rtol_and_empty():
    a = np.array([[1.0, 2, 3], [4, 1, 1], [2, 3, 1]])
    tiny = np.diag([1.0, 1e-14, 1e-17])     # 1e-15 is the default cut-off, not max*eps
    for kw in [{}, {"rcond": 0.5}, {"rtol": 0.5}, {"rtol": None}, {"rcond": 0.5, "rtol": 0.5},
               {"rcond": 0.5, "rtol": None}]:
        _same(lambda m: m.linalg.pinv(m.asarray(a), **kw), message=True)
        _same(lambda m: m.linalg.pinv(m.asarray(tiny), **kw), message=True)
    for dtype in (np.int64, np.float32, np.complex64):
        _same(lambda m: m.linalg.pinv(m.zeros((2, 0, 3), dtype)))


def test_matrix_rank_empty_and_tolerances():
    for shape in [(0, 0), (0, 5), (5, 0), (0, 5, 5), (5, 0, 0)]:
        _same(lambda m: m.linalg.matrix_rank(m.zeros(shape)))
    e = np.eye(4)
    e[-1, -1] = 0
    _same(lambda m: m.linalg.matrix_rank(m.asarray(e), tol=0.01, rtol=0.01), message=True)
    _same(lambda m: m.linalg.matrix_rank(m.stack([e, e]), rtol=m.asarray([0.01, 2.0])))


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
def test_eigh_uplo_is_case_insensitive(fn):
    for uplo, a in [("l", [[0.0, 0], [1, 0]]), ("u", [[0.0, 1], [0, 0]]), ("x", [[1.0]])]:
        _same(lambda m: getattr(m.linalg, fn)(m.asarray(a), UPLO=uplo), message=True)


def test_hermitian_svd_of_singular_matrix_keeps_vh_unitary():
    x = np.array([[1, 0], [0, 0]])
    _same(lambda m: m.linalg.svd(m.asarray(x), hermitian=True))
    vh = xnp.linalg.svd(x, hermitian=True)[2]
    np.testing.assert_allclose(vh @ vh.T.conj(), np.eye(2), rtol=1e-14)


# --- qr(mode='raw') ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (4, 4), (2, 4, 3), (3, 0), (0, 3), (0, 0)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_qr_raw_matches_lapack(shape, dtype):
    a = rng.normal(size=shape) + (1j * rng.normal(size=shape) if dtype == np.complex128
                                  else 0)
    a = (a * 3).astype(dtype)
    _same(lambda m: m.linalg.qr(m.asarray(a), mode="raw"), rtol=1e-4, atol=1e-5)
    if 0 not in shape:             # the Householder form that transformations see
        h, tau = xnp.vmap(lambda v: xnp.linalg.qr(v, mode="raw"))(a[None])
        h_np, tau_np = np.linalg.qr(a, mode="raw")
        np.testing.assert_allclose(h[0], h_np, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(tau[0], tau_np, rtol=1e-4, atol=1e-5)


def test_qr_raw_compiled():
    a = rng.normal(size=(4, 3)) + 1j * rng.normal(size=(4, 3))
    h, tau = xnp.jit(lambda v: xnp.linalg.qr(v, mode="raw"))(a)
    h_np, tau_np = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(h, h_np, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(tau, tau_np, rtol=1e-10, atol=1e-12)


def test_qr_raw_derivative_matches_finite_differences():
    a = rng.normal(size=(3, 3))
    f = lambda v: xnp.sum(xnp.linalg.qr(v, mode="raw")[0] ** 2)   # noqa: E731
    g = np.asarray(xnp.grad(f)(a))
    eps, num = 1e-6, np.zeros_like(a)
    for i in np.ndindex(*a.shape):
        d = np.zeros_like(a)
        d[i] = eps
        num[i] = (f(a + d) - f(a - d)) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)


# --- argument checks in NumPy's order -----------------------------------------------------------
def test_linalg_argument_errors():
    a16 = np.eye(3, dtype=np.float16)
    _same(lambda m: m.linalg.lstsq(m.eye(3), m.ones(3, np.float16)), message=True)
    _same(lambda m: m.linalg.lstsq(m.asarray(a16), m.ones(4)), message=True)
    _same(lambda m: m.linalg.lstsq(m.eye(3), m.ones((2, 3, 1))), message=True)
    _same(lambda m: m.linalg.solve(m.eye(3), m.ones(3, np.float16)), message=True)
    _same(lambda m: m.linalg.matrix_power(m.ones((3, 2)), 1.5), message=True)
    _same(lambda m: m.linalg.matrix_power(m.ones(3), 1.5), message=True)
    _same(lambda m: m.linalg.pinv(m.zeros((0, 0), np.float16)))


# --- fft out= ----------------------------------------------------------------------------------
def test_fft_bad_out_raises_as_numpy():
    x = np.arange(30.0)
    _same(lambda m: m.fft.fft(m.asarray(x), out=""), message=True)
    _same(lambda m: m.fft.fft(m.asarray(x), out=m.zeros((5, 6), complex)), message=True)
    _same(lambda m: m.fft.fft(m.asarray(x), out=m.zeros(30)))
    _same(lambda m: m.fft.rfft(m.asarray(x), out=m.zeros(16, np.float32)))


@pytest.mark.parametrize("fn", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_fftn_out_and_s_interaction(fn):
    x = rng.random((10, 5, 6))
    x = x if fn == "rfftn" else x + 1j * rng.random((10, 5, 6))
    for s in [(3, 3, 3), (10, 5, 5), (10, 5, 6)]:
        want = getattr(np.fft, fn)(x, s=s, axes=(0, 1, 2))
        for out_shape in {want.shape, x.shape}:
            out_np, out_x = np.zeros(out_shape, want.dtype), xnp.zeros(out_shape, want.dtype)
            r = _run(lambda m: getattr(m.fft, fn)(
                x, s=s, axes=(0, 1, 2), out=out_np if m is np else out_x), xnp)
            w = _run(lambda m: getattr(m.fft, fn)(x, s=s, axes=(0, 1, 2), out=out_np), np)
            if isinstance(w, Exception):
                assert isinstance(r, type(w))
            else:
                assert r is out_x
                np.testing.assert_allclose(out_x, w, rtol=1e-12, atol=1e-12)


def test_ihfft_out_holds_the_conjugate():
    x = rng.random(8)
    out = xnp.zeros(5, complex)
    r = xnp.fft.ihfft(x, out=out)
    assert r is out
    np.testing.assert_allclose(out, np.fft.ihfft(x), rtol=1e-12)


def test_fft_checks_axis_before_n_and_rfftfreq_negative_n():
    _same(lambda m: m.fft.fft(m.ones(4), n=2.0, axis=3), message=True)
    _same(lambda m: m.fft.rfft(m.ones(4, complex), axis=3))
    for n in (-1, -4, 3):
        _same(lambda m: m.fft.rfftfreq(n))


# --- type_check and packbits -------------------------------------------------------------------
@pytest.mark.parametrize("v", [1, 1.5, 1 + 2j, True, np.float32(2), np.complex64(1 + 1j)])
def test_real_imag_of_scalars_are_scalars(v):
    for fn in ("real", "imag"):
        want, got = getattr(np, fn)(v), getattr(xnp, fn)(v)
        assert type(got) is type(want) and got == want


def test_isposinf_complex_message():
    for fn in ("isposinf", "isneginf"):
        _same(lambda m: getattr(m, fn)(m.asarray([1j], np.complex64)), message=True)


def test_packbits_bitorder_axis_and_0d():
    a = np.array([[1, 2], [3, 4]], np.uint8)
    for bo in ["big", "little", "b", "l", "bx", "Big", "x", 10, None]:
        _same(lambda m: m.unpackbits(m.asarray(a), axis=1, bitorder=bo),
              message=isinstance(bo, str))
        _same(lambda m: m.packbits(m.asarray(a), axis=1, bitorder=bo))
    for axis in (0, -1, 1, 1.0):
        _same(lambda m: m.packbits(m.asarray(np.uint8(5)), axis=axis), message=True)
        _same(lambda m: m.unpackbits(m.asarray(np.uint8(5)), axis=axis, count=3),
              message=True)
    _same(lambda m: m.packbits(m.zeros(3), bitorder="x"), message=True)
    _same(lambda m: m.unpackbits(m.zeros(3, bool), bitorder="x"), message=True)
