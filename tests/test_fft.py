"""xnp.fft beyond the registry: derivatives of each transform type to second order (the
transposes of RFFT and IRFFT are the delicate ones), jit against eager, and dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads

F = xnp.fft
rng = np.random.default_rng(0)
X = rng.normal(size=(3, 6))
C = X + 1j * rng.normal(size=(3, 6))


@pytest.mark.parametrize("fn, arg, kw", [
    (F.fft, C, {}), (F.ifft, C, {"norm": "ortho"}), (F.rfft, X, {"n": 5}),
    (F.irfft, C[:, :4], {}), (F.irfft, C[:, :4], {"n": 7}), (F.rfftn, X, {}),
    (F.irfftn, C, {"s": (3, 9)}), (F.hfft, C, {"norm": "forward"}), (F.ihfft, X, {}),
    (F.fft2, C, {"s": (2, 8)})], ids=lambda v: getattr(v, "__name__", ""))
def test_derivatives(fn, arg, kw):
    check_grads(lambda a: fn(a, **kw), (arg,), order=2)


def test_jit_matches_eager_and_dtypes():
    for fn, arg in [(F.fft, C), (F.rfft, X), (F.irfft, C), (F.fftn, C), (F.irfftn, C)]:
        np.testing.assert_allclose(xnp.jit(fn)(arg), fn(arg), rtol=1e-12, atol=1e-12)
    assert F.fft(X.astype(np.float32)).dtype == np.complex64
    assert F.irfft(C.astype(np.complex64)).dtype == np.float32
    assert F.fft(np.arange(4)).dtype == np.complex128


def test_vmap_of_grad_of_spectral_energy():
    energy = lambda x: xnp.sum(xnp.abs(F.rfft(x)) ** 2)  # noqa: E731
    got = xnp.vmap(xnp.grad(energy))(X)
    want = np.stack([np.asarray(xnp.grad(energy)(x)) for x in X])
    np.testing.assert_allclose(got, want, rtol=1e-12)
