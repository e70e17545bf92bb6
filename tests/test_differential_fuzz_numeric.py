"""Regression tests for discrepancies found by differential fuzzing of xnp's linalg, fft,
polynomial and set/counting functions against NumPy (dtype rules and the order in which
argument errors are raised)."""

import warnings

import numpy as np
import pytest

import xnp
from tests.numpy_compare import same


def _quiet(fn):
    def run(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(m)
    return run


def _close(fn):
    want, got = fn(np), fn(xnp)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want)
    for w, g in zip(want, got):
        g = np.asarray(g)
        assert (w.shape, w.dtype) == (g.shape, g.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_linalg_integer_operand_computes_in_double():
    # numpy.linalg's common type counts each integer/bool array as float64 on its own
    a = np.eye(3, dtype=np.float32) + 0.25
    for b in (np.array([True, False, True]), np.array([1, 2, 3], np.int32)):
        for aa in (a, a.astype(np.complex64)):
            _close(lambda m: m.linalg.solve(m.asarray(aa), m.asarray(b)))
            _close(lambda m: m.linalg.lstsq(m.asarray(aa), m.asarray(b))[0])
        ai = b[:, None] * np.eye(3, dtype=int) + 2 * np.eye(3, dtype=int)
        _close(lambda m: m.linalg.solve(m.asarray(ai), m.asarray(a)))
    _close(lambda m: m.linalg.solve(m.asarray(a), m.asarray(a[:, 0])))          # float32 stays


def test_rfftn_rejects_complex_before_other_axes():
    # NumPy transforms the last axis first: a complex input raises TypeError once that
    # axis is checked, before the other axes' lengths or ranges
    z = np.ones((2, 3), complex)
    same(lambda m: m.fft.rfftn(m.asarray(z), s=(0, 2), axes=(-1, -2)))
    same(lambda m: m.fft.rfft2(m.asarray(z[0]), s=(1, 4)))
    same(lambda m: m.fft.rfftn(m.asarray(z), s=(2, 0), axes=(-1, -2)))     # last n invalid
    same(lambda m: m.fft.fftn(m.asarray(np.zeros(0)), s=(0, 2), axes=(-1, -2)))
    with pytest.raises(TypeError):
        xnp.fft.rfft(xnp.ones(3, complex))


@pytest.mark.parametrize("mod", ["legendre", "hermite", "hermite_e", "laguerre", "chebyshev",
                                 "polynomial"])
def test_series_mul_pow_dtype_with_constant_factor(mod):
    # the recurrence-based families' mul (and so pow) return double precision when
    # one factor is a constant; power and Chebyshev series keep single precision
    pre = {"legendre": "leg", "hermite": "herm", "hermite_e": "herme", "laguerre": "lag",
           "chebyshev": "cheb", "polynomial": "poly"}[mod]
    for dt in ("float32", "complex64"):
        for a, b in (([1.5], [2.0]), ([1.5, 1.0], [2.0]), ([1.5, 1.0], [1.0, 2.0])):
            _close(lambda m: getattr(getattr(m.polynomial, mod), pre + "mul")(
                m.asarray(a, dt), m.asarray(b, dt)))
        for p in (0, 1, 2, 3):
            _close(lambda m: getattr(getattr(m.polynomial, mod), pre + "pow")(
                m.asarray([1.5], dt), p))


def test_norm_of_0d_with_keepdims_is_a_scalar():
    x = np.asarray(-0.75, np.float32)
    for ord_ in (None, 1, 2, np.inf, -np.inf, 0, 3):
        same(lambda m: m.linalg.norm(m.asarray(x), ord=ord_, keepdims=True))
        vord = 2 if ord_ is None else ord_
        same(lambda m: m.linalg.vector_norm(m.asarray(x), ord=vord, keepdims=True))
    same(lambda m: m.linalg.norm(m.asarray(np.ones((2, 3))), keepdims=True))


def test_hfft_axis_checked_before_norm():
    for name in ("hfft", "ihfft"):
        for x in (np.asarray(1.0), np.ones(3), np.ones((2, 3), complex)):
            for axis in (-1, 1, -3, 2):
                same(lambda m: getattr(m.fft, name)(m.asarray(x), axis=axis, norm="bad"))
                same(lambda m: getattr(m.fft, name)(m.asarray(x), n=4, axis=axis, norm="bad"))


def test_weighted_quantile_of_scalar_q_is_0d_array():
    x, w = np.array([1.0, 2.0, 3.0, -1.0]), np.array([1.0, 1.0, 2.0, 0.0])
    for name in ("quantile", "nanquantile", "percentile", "nanpercentile"):
        q = 50.0 if "percent" in name else 0.5
        for axis in (None, 0):
            same(lambda m: getattr(m, name)(m.asarray(x), q, axis=axis, method="inverted_cdf",
                                            weights=m.asarray(w)))
        same(lambda m: getattr(m, name)(m.asarray(x), q))       # unweighted: a scalar
        same(lambda m: getattr(m, name)(m.asarray(x.astype(np.int8)), q, method="inverted_cdf",
                                        weights=m.asarray(w)))


def test_series_int_of_empty_axis_raises_index_error():
    for mod, fn in (("polynomial", "polyint"), ("chebyshev", "chebint"), ("legendre", "legint"),
                    ("hermite", "hermint")):
        for shape in ((0,), (0, 2), (2, 0)):
            c = np.zeros(shape)
            for kw in ({"axis": 0}, {"axis": -1}, {"m": 0}, {"m": 2, "k": [1]}):
                same(lambda m: getattr(getattr(m.polynomial, mod), fn)(m.asarray(c), **kw))


def test_pinv_rtol_none_and_matrix_rank_hermitian_checks():
    for a in (np.array([[-2, 1]]), np.zeros((2, 4, 0), np.int64), np.eye(2, dtype=bool)):
        same(lambda m: m.linalg.pinv(m.asarray(a), rtol=None))       # ValueError
        _close(lambda m: m.linalg.pinv(m.asarray(a)))
    f = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    _close(lambda m: m.linalg.pinv(m.asarray(f), rtol=None))
    for a in (np.zeros((2, 0), np.float16), np.zeros((0, 1)), np.ones((2, 3), np.float16)):
        same(lambda m: m.linalg.matrix_rank(m.asarray(a), hermitian=True))
    same(lambda m: m.linalg.matrix_rank(m.asarray(np.eye(3)), hermitian=True))


def test_fft_out_errors_in_gufunc_order():
    # a wrong length along the (first) transformed axis, then an uncastable dtype, then
    # any other shape mismatch
    x = np.array([[-1, 2, -4], [4, 2, 0]], np.int8)
    for name in ("fft2", "rfft2", "fftn", "rfftn", "fft", "rfft", "ifft", "ihfft", "irfft"):
        nd = name.endswith(("2", "n"))
        for s in (None, (4, 2), (2, 3)):
            kw = {"s": s} if nd else {"n": None if s is None else s[-1]}
            for osh in ((2, 3), (4, 2), (2, 2), (3,)):
                for odt in ("float32", "complex64", "int32"):
                    def run(m):
                        o = m.zeros(osh, odt)
                        return getattr(m.fft, name)(m.asarray(x), out=o, **kw) is o
                    same(_quiet(run))


def test_eig_of_nonfinite_float16_is_linalg_error():
    a = np.array([[np.nan, 1.0], [2.0, 3.0]], np.float16)
    for name in ("eig", "eigvals"):
        same(lambda m: getattr(m.linalg, name)(m.asarray(a)))
        same(lambda m: getattr(m.linalg, name)(m.asarray(np.eye(2, dtype=np.float16))))  # TypeError
        same(lambda m: getattr(m.linalg, name)(m.asarray(np.ones((2, 3), np.float16))))


def test_fftn_without_axes_returns_input_untouched():
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for name in ("fftn", "ifftn", "fft2", "ifft2"):
        for odt in ("float64", "complex128"):
            def run(m):
                o, a = m.zeros((2, 3), odt), m.asarray(x)
                r = getattr(m.fft, name)(a, axes=(), out=o)
                return r is o, r is a, o
            same(run)
        same(lambda m: m.fft.fftn(m.asarray(3.0)))


def test_hermitian_svd_pinv_rank_check_square_before_dtype():
    for a in (np.ones((3, 2), np.float16), np.ones((2, 0), np.float16), np.ones((3, 2)),
              np.ones((2, 2), np.float16)):
        for name in ("svd", "pinv", "matrix_rank"):
            same(lambda m: getattr(m.linalg, name)(m.asarray(a), hermitian=True))
