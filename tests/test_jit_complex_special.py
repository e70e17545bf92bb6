"""jit against NumPy for complex elementwise functions at special values (C99 Annex G:
signed zeros, infinities, NaNs): the same NaN places, infinities and signs of zeros,
and finite values within a few ulps. XLA on the CPU flushes subnormal results to zero
(of the same sign), which is accepted."""

import itertools

import numpy
import pytest

import xnp

UFUNCS = ["exp", "exp2", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan",
          "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh",
          "arctanh"]


def _grid(dtype):
    tiny, huge = (1e-30, 1e30) if dtype == numpy.complex64 else (1e-300, 1e300)
    vals = [0.0, 1.0, numpy.inf, numpy.nan, tiny, huge, numpy.pi / 2, 0.5, 2.0, 1e-5,
            100.0, numpy.pi]
    vals += [-v for v in vals]                      # -nan too: a NaN with its sign bit
    re, im = numpy.array(list(itertools.product(vals, vals))).T
    rd = numpy.empty(0, dtype).real.dtype
    z = numpy.empty(re.shape, dtype)
    z.real, z.imag = re.astype(rd), im.astype(rd)
    return z


def _check_part(name, z, want, got, rtol):
    want_nan, got_nan = numpy.isnan(want), numpy.isnan(got)
    numpy.testing.assert_array_equal(got_nan, want_nan, err_msg=f"{name}: NaN places {z}")
    ok = ~want_nan
    w, g = want[ok], got[ok]
    flushed = (numpy.abs(w) < numpy.finfo(w.dtype).tiny) & (g == 0)   # XLA's FTZ
    g = numpy.where(flushed, w, g)
    numpy.testing.assert_array_equal(numpy.signbit(g), numpy.signbit(w),
                                     err_msg=f"{name}: signs at {z[ok]}")
    special = ~numpy.isfinite(w) | (w == 0) | ~numpy.isfinite(g) | (g == 0)
    numpy.testing.assert_array_equal(g[special], w[special],
                                     err_msg=f"{name}: zeros/infinities at {z[ok][special]}")
    numpy.testing.assert_allclose(g[~special], w[~special], rtol=rtol, atol=0,
                                  err_msg=f"{name} at {z[ok][~special]}")


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("name", UFUNCS)
def test_jit_matches_numpy_at_special_values(name, dtype):
    z = _grid(dtype)
    with numpy.errstate(all="ignore"):
        want = getattr(numpy, name)(z)
    got = numpy.asarray(xnp.jit(getattr(xnp, name))(z))
    assert got.dtype == want.dtype
    rtol = 1e-5 if dtype == numpy.complex64 else 3e-11
    _check_part(name + ".real", z, want.real, got.real, rtol)
    _check_part(name + ".imag", z, want.imag, got.imag, rtol)
