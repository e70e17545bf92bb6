"""xnp.fft beyond the registry.

The ``fft`` primitive itself (values against numpy.fft with XLA's scaling, the
dot-product identity for each transpose rule, batching, the StableHLO lowering, shape and
dtype errors); the functions' norm modes, dtypes, errors (NumPy's exception types),
frequencies and shifts, against NumPy; derivatives of each transform to second order in
both modes (the transposes of RFFT and IRFFT are the delicate ones).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from opinfo import standard_exception

import xnp
from transforms.test_util import check_grads
from xnp import lax
from xnp._util import raw, wrap

F = xnp.fft
rng = np.random.default_rng(0)
X = rng.normal(size=(3, 6))
C = X + 1j * rng.normal(size=(3, 6))
NORMS = [None, "backward", "ortho", "forward"]


def crand(shape, dtype=np.complex128, seed=0):
    r = np.random.default_rng(seed)
    x = r.normal(size=shape) + (1j * r.normal(size=shape) if np.dtype(dtype).kind == "c"
                                else 0)
    return x.astype(dtype)


# --- the primitive ---------------------------------------------------------------------------

def prim(fft_type, lengths):
    return lambda x: wrap(lax.fft_p.bind(raw(xnp.asarray(x)), fft_type=fft_type,
                                         fft_lengths=tuple(lengths)))


def operand_shape(fft_type, lengths, lead=(2,)):
    if fft_type == "IRFFT":
        return (*lead, *lengths[:-1], lengths[-1] // 2 + 1)
    return (*lead, *lengths)


def reference(fft_type, lengths, x):
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    fn = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn,
          "IRFFT": np.fft.irfftn}[fft_type]
    return fn(x, s=lengths, axes=axes)     # numpy's default norm: XLA's scaling


PRIM_CASES = [(t, n) for t in ("FFT", "IFFT") for n in [(5,), (3, 4), (2, 3, 2)]] + \
    [(t, n) for t in ("RFFT", "IRFFT") for n in [(1,), (6,), (7,), (3, 4), (3, 5), (2, 2, 3)]]
prim_ids = [f"{t}-{'x'.join(map(str, n))}" for t, n in PRIM_CASES]


def prim_input(fft_type, lengths, dtype=np.float64, seed=0):
    kind = dtype if fft_type == "RFFT" else np.result_type(dtype, 1j)
    return crand(operand_shape(fft_type, lengths), kind, seed)


@pytest.mark.parametrize("fft_type, lengths", PRIM_CASES, ids=prim_ids)
def test_primitive_values_and_scaling(fft_type, lengths):
    x = prim_input(fft_type, lengths)
    got = prim(fft_type, lengths)(x)
    np.testing.assert_allclose(got, reference(fft_type, lengths, x), rtol=1e-12,
                               atol=1e-12)
    if fft_type == "IFFT":           # inverse of the unscaled forward transform
        back = prim("FFT", lengths)(got)
        np.testing.assert_allclose(back, x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fft_type, lengths", PRIM_CASES, ids=prim_ids)
def test_primitive_transpose_dot_product(fft_type, lengths):
    """Re<u, f(v)> == Re<f^T(u), v> (the bilinear pairing of the transpose rules) with
    f^T from the VJP, on inputs with nonzero imaginary parts everywhere (IRFFT ignores
    those of its zero and Nyquist frequencies; its transpose must too)."""
    f = prim(fft_type, lengths)
    v = prim_input(fft_type, lengths, seed=1)
    out, f_t = xnp.vjp(f, xnp.asarray(v))
    u = crand(out.shape, out.dtype, seed=2)
    (ft_u,) = f_t(xnp.asarray(u))
    assert ft_u.dtype == v.dtype and ft_u.shape == v.shape
    lhs = np.real(np.sum(u * np.asarray(f(v))))
    rhs = np.real(np.sum(np.asarray(ft_u) * v))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)


@pytest.mark.parametrize("fft_type, lengths", PRIM_CASES, ids=prim_ids)
def test_primitive_derivatives(fft_type, lengths):
    check_grads(prim(fft_type, lengths), (prim_input(fft_type, lengths),), order=2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fft_type, lengths", PRIM_CASES, ids=prim_ids)
def test_primitive_jit_and_vmap(fft_type, lengths, dtype):
    f = prim(fft_type, lengths)
    x = prim_input(fft_type, lengths, dtype)
    want = np.asarray(f(x))
    tol = 1e-12 if dtype == np.float64 else 1e-4
    got = xnp.jit(f)(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    # batch dimension in the middle of the operand's leading axes, eager and compiled
    xs = np.stack([x, 2 * x, -x], axis=1)
    want_b = np.stack([np.asarray(f(xs[:, i])) for i in range(3)], axis=1)
    for g in (xnp.vmap(f, in_axes=1, out_axes=1), xnp.jit(xnp.vmap(f, in_axes=1,
                                                                     out_axes=1))):
        np.testing.assert_allclose(g(xs), want_b, rtol=tol, atol=tol)


def test_primitive_lowering_text():
    text = xnp.jit(prim("IRFFT", (3, 6))).lower(crand((2, 3, 4))).as_text()
    assert '"stablehlo.fft"' in text and "IRFFT" in text and "array<i64: 3, 6>" in text


@pytest.mark.parametrize("fft_type, lengths, x, exc", [
    ("FFT", (4,), np.ones(4), TypeError),                    # real operand
    ("RFFT", (4,), np.ones(4, complex), TypeError),          # complex operand
    ("FFT", (4,), np.ones(5, complex), TypeError),           # trailing shape
    ("IRFFT", (4,), np.ones(4, complex), TypeError),         # needs 4 // 2 + 1 = 3
    ("FFT", (2, 2), np.ones(2, complex), ValueError),        # too few axes
    ("DCT", (2,), np.ones(2, complex), ValueError),          # unknown type
])
def test_primitive_shape_errors(fft_type, lengths, x, exc):
    with pytest.raises(exc):
        prim(fft_type, lengths)(x)
    with pytest.raises(exc):
        xnp.jit(prim(fft_type, lengths))(x)


def test_primitive_zero_size():
    x = np.ones((0, 4), complex)
    for f in (prim("FFT", (4,)), xnp.jit(prim("FFT", (4,)))):
        assert f(x).shape == (0, 4)
    assert prim("IRFFT", (6,))(np.ones((0, 4), complex)).shape == (0, 6)
    assert xnp.jit(prim("RFFT", (6,)))(np.ones((2, 0, 6))).shape == (2, 0, 4)


# --- the functions: values, norms, dtypes ----------------------------------------------------

ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


def _input(name, dtype=np.float64):
    base = X if name in ("rfft", "ihfft", "rfftn", "rfft2") else C
    return base.astype(dtype) if np.dtype(dtype).kind != "c" or base is C else base


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ONE_AXIS)
@pytest.mark.parametrize("n", [None, 4, 9])
def test_one_axis_norms_against_numpy(name, norm, n):
    a = _input(name)
    for axis in (0, -1):
        if n is None and name in ("irfft", "hfft") and a.shape[axis] < 2:
            continue
        got = getattr(F, name)(a, n=n, axis=axis, norm=norm)
        want = getattr(np.fft, name)(a, n=n, axis=axis, norm=norm)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", N_AXES)
def test_n_axes_norms_against_numpy(name, norm):
    a = _input(name).reshape(3, 2, 3)
    kws = [{}, {"axes": (0, 2)}, {"s": (4, 5), "axes": (2, 0)}, {"s": (-1, 4), "axes": (1, 2)}]
    if not name.endswith("2"):
        kws += [{"axes": (2, 2)}, {"axes": (0, 1, 0), "s": (2, 3, 4)}]
    for kw in kws:
        got = getattr(F, name)(a, **kw, norm=norm)
        want = getattr(np.fft, name)(a, **kw, norm=norm)
        assert got.dtype == want.dtype and got.shape == want.shape, kw
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=str(kw))


@pytest.mark.parametrize("norm", NORMS)
def test_round_trips(norm):
    np.testing.assert_allclose(F.ifft(F.fft(C, norm=norm), norm=norm), C, atol=1e-12)
    np.testing.assert_allclose(F.irfft(F.rfft(X, norm=norm), n=6, norm=norm), X,
                               atol=1e-12)
    np.testing.assert_allclose(F.irfftn(F.rfftn(X[:, :5], norm=norm), X[:, :5].shape,
                                        norm=norm), X[:, :5], atol=1e-12)
    np.testing.assert_allclose(F.ihfft(F.hfft(C[:, :4], norm=norm), norm=norm), C[:, :4]
                               * [1, 1, 1, 1] - 1j * np.imag(C[:, :4]) * [1, 0, 0, 1],
                               atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int8, np.int64, np.uint16, np.bool_])
def test_dtypes_follow_numpy(dtype):
    a = (np.arange(8) % 3).astype(dtype)
    for name in ONE_AXIS + N_AXES:
        b = a.reshape(2, 4) if name.endswith("2") else a
        if np.dtype(dtype).kind == "c" and name in ("rfft", "ihfft", "rfftn", "rfft2"):
            with pytest.raises(TypeError):
                getattr(np.fft, name)(b)
            with pytest.raises(TypeError):
                getattr(F, name)(b)
            continue
        want = getattr(np.fft, name)(b)
        got = getattr(F, name)(b)
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=2e-3 if dtype == np.float16 else 1e-5,
                                   atol=1e-5, err_msg=name)


def test_single_precision_stays_single():
    assert F.fft(X.astype(np.float32)).dtype == np.complex64
    assert F.irfft(C.astype(np.complex64)).dtype == np.float32
    assert F.hfft(C.astype(np.complex64)).dtype == np.float32
    assert F.fft(np.arange(4)).dtype == np.complex128
    assert F.rfftn(np.ones((2, 3), bool)).dtype == np.complex128


def test_zero_size_and_padding_from_empty():
    assert F.fft(np.zeros((0, 4))).shape == (0, 4)
    assert F.rfft(np.zeros((3, 0)), axis=0).shape == (2, 0)
    assert F.irfftn(np.zeros((2, 0, 3)), axes=(0, 2)).shape == (2, 0, 4)
    assert F.fftn(np.zeros((0, 3)), s=(2, 3)).shape == (2, 3)
    # NumPy 2.4's irfft reads uninitialised memory when padding a 0-length input;
    # the transform of zeros is zeros
    np.testing.assert_array_equal(F.irfft(np.zeros((2, 0)), n=4), np.zeros((2, 4)))


def test_axes_empty_and_deprecated_forms():
    np.testing.assert_array_equal(F.fftn(X, axes=()), X)
    assert F.fftn(X, axes=()).dtype == X.dtype
    with pytest.warns(DeprecationWarning):
        got = F.fftn(C, s=(2, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        np.testing.assert_allclose(got, np.fft.fftn(C, s=(2, 4)), atol=1e-12)
        np.testing.assert_allclose(F.irfftn(C, s=(2, None), axes=(0, 1)),
                                   np.fft.irfftn(C, s=(2, None), axes=(0, 1)), atol=1e-12)


def test_out_argument():
    out = xnp.zeros((3, 6), complex)
    r = F.fft(C, out=out)
    assert r is out
    np.testing.assert_allclose(out, np.fft.fft(C), atol=1e-12)


# --- errors: NumPy's exception types ---------------------------------------------------------

ERRORS = [
    ("fft", (np.ones(3),), {"n": 0}), ("fft", (np.ones(3),), {"n": -2}),
    ("ifft", (np.ones(3),), {"norm": "sideways"}), ("rfft", (np.ones(3),), {"norm": "Ortho"}),
    ("fft", (np.ones(3),), {"axis": 1}), ("irfft", (np.ones((2, 3)),), {"axis": -3}),
    ("fft", (np.ones(3),), {"n": 2.5}), ("fft", (np.zeros(0),), {}),
    ("irfft", (np.ones(1),), {}), ("hfft", (np.ones(1),), {}), ("irfft", (np.ones(3),),
                                                               {"n": -1}),
    ("rfft", (np.ones(3, complex),), {}), ("ihfft", (np.ones(3, complex),), {}),
    ("fftn", (np.ones((2, 2)),), {"s": (2,), "axes": (0, 1)}),
    ("fftn", (np.ones((2, 2)),), {"axes": (0, 2)}),
    ("ifftn", (np.ones((2, 2)),), {"s": (2, 2), "axes": (0, -3)}),
    ("rfftn", (np.ones((2, 2)),), {"s": (0, 2), "axes": (0, 1)}),
    ("rfftn", (np.ones((2, 2)),), {"axes": ()}), ("irfftn", (np.ones((2, 2)),), {"axes": ()}),
    ("irfft2", (np.ones((2, 2)),), {"norm": "ortho "}),
    ("fftfreq", (4.0,), {}), ("fftfreq", (0,), {}), ("rfftfreq", (2.5,), {}),
    ("fftshift", (np.ones((2, 2)),), {"axes": 2}),
]


@pytest.mark.parametrize("name, args, kw", ERRORS, ids=[f"{e[0]}-{i}"
                                                        for i, e in enumerate(ERRORS)])
def test_errors_match_numpy(name, args, kw):
    with pytest.raises(Exception) as np_exc:
        getattr(np.fft, name)(*args, **kw)
    with pytest.raises(standard_exception(np_exc.value)):
        getattr(F, name)(*args, **kw)


# --- frequencies and shifts ------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 8, 11])
@pytest.mark.parametrize("d", [1.0, 0.1, 3, np.float32(0.5), 2j])
def test_frequencies(n, d):
    for name in ("fftfreq", "rfftfreq"):
        got, want = getattr(F, name)(n, d), getattr(np.fft, name)(n, d)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert F.fftfreq(n, d=0.5, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("axes", [None, 0, 1, -1, (0,), (1, 0), [-1, -2], np.int64(1)])
def test_shifts(axes):
    a = np.arange(35.0).reshape(5, 7)
    for name in ("fftshift", "ifftshift"):
        np.testing.assert_array_equal(getattr(F, name)(a, axes),
                                      getattr(np.fft, name)(a, axes))
    np.testing.assert_array_equal(F.ifftshift(F.fftshift(a, axes), axes), a)
    np.testing.assert_array_equal(F.fftshift(F.fftfreq(7)), np.fft.fftshift(np.fft.fftfreq(7)))


# --- derivatives -----------------------------------------------------------------------------

@pytest.mark.parametrize("norm", NORMS[1:])
@pytest.mark.parametrize("fn, arg, kw", [
    (F.fft, C, {}), (F.fft, X, {"n": 4}), (F.fft, C, {"n": 8, "axis": 0}),
    (F.ifft, C, {}), (F.ifft, X, {"n": 9}),
    (F.rfft, X, {}), (F.rfft, X, {"n": 5}), (F.rfft, X, {"n": 8, "axis": 0}),
    (F.irfft, C[:, :4], {}), (F.irfft, C[:, :4], {"n": 7}), (F.irfft, C, {"n": 4}),
    (F.irfft, C, {"axis": 0}),
], ids=lambda v: getattr(v, "__name__", ""))
def test_derivatives_one_axis(fn, arg, kw, norm):
    for modes in (("fwd",), ("rev",)):
        check_grads(lambda a: fn(a, **kw, norm=norm), (arg,), order=2, modes=modes)


@pytest.mark.parametrize("fn, arg, kw", [
    (F.rfftn, X, {}), (F.irfftn, C, {"s": (3, 9)}), (F.hfft, C, {"norm": "forward"}),
    (F.ihfft, X, {}), (F.fft2, C, {"s": (2, 8)}), (F.ifftn, C, {"axes": (1, 1)}),
    (F.irfft2, C.reshape(2, 3, 3), {"norm": "ortho"}), (F.rfftn, X, {"axes": (0, 1, 0)}),
], ids=lambda v: getattr(v, "__name__", ""))
def test_derivatives_n_axes(fn, arg, kw):
    check_grads(lambda a: fn(a, **kw), (arg,), order=2)


def test_jit_matches_eager():
    for fn, arg in [(F.fft, C), (F.rfft, X), (F.irfft, C), (F.fftn, C), (F.irfftn, C),
                    (F.hfft, C), (F.ihfft, X)]:
        np.testing.assert_allclose(xnp.jit(fn)(arg), fn(arg), rtol=1e-12, atol=1e-12)
    g = xnp.jit(xnp.grad(lambda x: xnp.sum(xnp.abs(F.rfft(x, norm="ortho")) ** 2)))
    # Parseval: the ortho rfft's energy is x.x plus the doubled non-DC bins' excess
    np.testing.assert_allclose(g(X[0]), xnp.grad(
        lambda x: xnp.sum(xnp.abs(F.rfft(x, norm="ortho")) ** 2))(X[0]), rtol=1e-12)


def test_vmap_of_grad_of_spectral_energy():
    energy = lambda x: xnp.sum(xnp.abs(F.rfft(x)) ** 2)  # noqa: E731
    got = xnp.vmap(xnp.grad(energy))(X)
    want = np.stack([np.asarray(xnp.grad(energy)(x)) for x in X])
    np.testing.assert_allclose(got, want, rtol=1e-12)
