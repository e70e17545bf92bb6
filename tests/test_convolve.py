"""convolve/correlate across the three strategies of their traced form (shifted copies
for few taps, one Toeplitz block, several blocks), against NumPy, with derivatives. Eager
calls are NumPy's own routine; jit runs the traced form."""

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads


@pytest.mark.parametrize("n,m", [(1, 1), (7, 8), (9, 9), (40, 130), (300, 257), (5, 300)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_matches_numpy_across_tap_counts(n, m, mode):
    rng = np.random.default_rng(n * 1000 + m)
    a, v = rng.normal(size=n), rng.normal(size=m)
    for name in ("convolve", "correlate"):
        fn = getattr(xnp, name)
        want = getattr(np, name)(a, v, mode)
        for got in (fn(a, v, mode), xnp.jit(lambda a, v: fn(a, v, mode))(a, v)):
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("m", [3, 20])
def test_gradients(m):
    rng = np.random.default_rng(m)
    a, v = rng.normal(size=25), rng.normal(size=m)
    check_grads(lambda a, v: xnp.convolve(a, v, "same"), (a, v), order=1)
