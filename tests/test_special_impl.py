"""xnp.lax._special_impl against scipy.special: dense grids, hypothesis draws, edge values."""

from __future__ import annotations

import inspect
import time

import numpy as np
import pytest
import scipy.special as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from xnp.lax import _special_impl as si

GRID = np.linspace(-30.0, 30.0, 600_001)
TINY = np.logspace(-300, 0, 3001)
NEAR_INT = (np.arange(-30.0, 31.0)[:, None] + np.concatenate(
    [-np.logspace(-15, -1, 57), np.logspace(-15, -1, 57)])).ravel()
ROOT = 1.4616321449683622  # positive root of digamma


def f64s(lo, hi, **kw):
    return hnp.arrays(np.float64, st.integers(1, 40), elements=st.floats(
        lo, hi, allow_nan=False, allow_infinity=False, **kw))


def check(got, want, rtol=1e-13, atol=0.0):
    """Like assert_allclose (nan == nan, inf == inf), but ``atol`` may be an array."""
    assert got.dtype == np.float64 and got.shape == want.shape
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(invalid="ignore"):
        bad = ~same & ~(np.abs(got - want) <= atol + rtol * np.abs(want))
    if bad.any():
        i = np.flatnonzero(bad.ravel())[0]
        pytest.fail(f"{bad.sum()} mismatches, first: got {got.ravel()[i]!r}, "
                    f"want {want.ravel()[i]!r} (flat index {i})")


def not_pole(x):
    return x[(x > 0) | (x != np.round(x))]


def lgamma_scale(x):
    """Sum of the magnitudes of the reflection-formula terms (the cancellation scale)."""
    r = x - np.rint(x)
    with np.errstate(divide="ignore"):
        return 1.2 + np.abs(np.log(np.abs(x))) + np.abs(np.log(np.abs(np.sin(np.pi * r)))) \
            + np.abs(sp.gammaln(-x))


def check_lgamma(x):
    x = not_pole(x)
    want = sp.gammaln(x)
    atol = np.where(x < 0, 1e-15 * lgamma_scale(x), 1e-14)
    check(si.lgamma(x), want, atol=atol)


def check_digamma(x):
    x = not_pole(x)
    got = si.digamma(x)
    pos = x > -0.5
    check(got[pos], sp.psi(x[pos]), atol=1e-15)
    # Negative x: scipy's psi loses accuracy near the poles, so compare there against the
    # reflection psi(x) = psi(-x) - 1/x - pi cot(pi x) built from scipy on the positive side;
    # the atol is relative to the terms that cancel near psi's negative roots.
    xn = x[~pos]
    r = xn - np.rint(xn)
    cot = np.pi / np.tan(np.pi * r)
    ref = sp.psi(-xn) - 1 / xn - cot
    atol = 1e-15 * (np.abs(sp.psi(-xn)) + np.abs(1 / xn) + np.abs(cot))
    check(got[~pos], ref, atol=atol)
    far = np.abs(r) > 1e-2
    check(got[~pos][far], sp.psi(xn[far]), atol=atol[far])


# --- dense grids ---------------------------------------------------------------------------
def test_erf_grid():
    for x in (GRID, TINY, -TINY, NEAR_INT):
        check(si.erf(x), sp.erf(x))


def test_erfc_grid():
    x = np.concatenate([GRID, TINY, -TINY, NEAR_INT])
    body = x <= 26.5
    check(si.erfc(x[body]), sp.erfc(x[body]), rtol=1e-12)
    # scipy flushes erfc to 0 past 26.55; the true values are at most subnormal there
    check(si.erfc(x[~body]), sp.erfc(x[~body]), atol=1e-300)
    tail = np.linspace(4.0, 26.5, 200_001)
    check(si.erfc(tail), sp.erfc(tail), rtol=1e-12)
    check(si.erfc(-tail), 2.0 - sp.erfc(tail))
    np.testing.assert_allclose(si.erfc(np.array([10.0, 26.0])),
                               [2.088487583762545e-45, 5.663192408856143e-296], rtol=1e-13)


def test_erf_inv_grid():
    p = np.linspace(-1.0, 1.0, 400_001)[1:-1]
    near_one = 1.0 - np.concatenate([np.logspace(-16, -1, 2000), 2.0 ** -np.arange(1, 54)])
    for x in (p, TINY, -TINY, near_one, -near_one):
        check(si.erf_inv(x), sp.erfinv(x))
    check(si.erf(si.erf_inv(p)), p, rtol=1e-15, atol=2e-16)


def test_lgamma_grid():
    for x in (GRID, TINY[TINY > 1e-307], -TINY, NEAR_INT, np.logspace(0, 305, 3000)):
        check_lgamma(x)
    for z in (1.0, 2.0):  # absolute accuracy around the zeros
        x = z + np.linspace(-0.05, 0.05, 100_001)
        check(si.lgamma(x), sp.gammaln(x), rtol=0, atol=1e-15)


def test_digamma_grid():
    for x in (GRID, TINY, -TINY, NEAR_INT, np.logspace(0, 300, 3000)):
        check_digamma(x)
    x = ROOT + np.linspace(-1e-2, 1e-2, 100_001)
    check(si.digamma(x), sp.psi(x), rtol=0, atol=1e-15)
    # relative accuracy right at the root (both expand about it)
    x = np.concatenate([ROOT + np.linspace(-1e-3, 1e-3, 10_001),
                        ROOT + np.spacing(ROOT) * np.arange(-50, 51)])
    check(si.digamma(x), sp.psi(x), rtol=1e-13, atol=1e-300)


# --- hypothesis ----------------------------------------------------------------------------
@settings(deadline=None, max_examples=200)
@given(f64s(-1e300, 1e300))
def test_erf_erfc_hypothesis(x):
    check(si.erf(x), sp.erf(x), atol=1e-320)
    body = x <= 26.5
    check(si.erfc(x[body]), sp.erfc(x[body]), rtol=1e-12)
    check(si.erfc(x[~body]), sp.erfc(x[~body]), atol=1e-300)


@settings(deadline=None, max_examples=200)
@given(f64s(-1.0, 1.0, exclude_min=True, exclude_max=True))
def test_erf_inv_hypothesis(x):
    check(si.erf_inv(x), sp.erfinv(x), atol=1e-320)


@settings(deadline=None, max_examples=200)
@given(st.one_of(f64s(-30.0, 30.0), f64s(1e-300, 1e300), f64s(-1e15, -1e-300)))
def test_lgamma_hypothesis(x):
    check_lgamma(x)


@settings(deadline=None, max_examples=200)
@given(st.one_of(f64s(-30.0, 30.0), f64s(1e-300, 1e300), f64s(-1e15, -1e-300)))
def test_digamma_hypothesis(x):
    check_digamma(x)


# --- special values ------------------------------------------------------------------------
def test_special_values():
    nan, inf = np.nan, np.inf
    x = np.array([nan, inf, -inf, 0.0, -0.0])
    check(si.erf(x), np.array([nan, 1.0, -1.0, 0.0, -0.0]))
    assert np.signbit(si.erf(x))[-1]
    check(si.erfc(x), np.array([nan, 0.0, 2.0, 1.0, 1.0]))
    check(si.erf_inv(np.array([nan, 1.0, -1.0, 0.0, 1.5, -1.5, inf])),
          np.array([nan, inf, -inf, 0.0, nan, nan, nan]))
    poles = np.array([0.0, -0.0, -1.0, -2.0, -30.0, -2.0 ** 60])
    check(si.lgamma(np.array([nan, inf, -inf])), np.array([nan, inf, inf]))
    check(si.lgamma(poles), np.full(poles.shape, inf))
    check(si.lgamma(np.array([1.0, 2.0, 3.0])), np.array([0.0, 0.0, np.log(2.0)]), rtol=0)
    check(si.digamma(np.array([nan, inf, -inf])), np.array([nan, inf, nan]))
    check(si.digamma(poles), sp.psi(poles))  # -inf at +0, inf at -0, nan at negatives
    check(si.digamma(np.array([1.0])), np.array([-np.euler_gamma]), rtol=1e-15)


@pytest.mark.parametrize("fn", [si.erf, si.erfc, si.erf_inv, si.lgamma, si.digamma])
def test_shapes_scalars_and_warnings(fn):
    with np.errstate(all="raise"):
        out = fn(np.float64(0.25))
        assert isinstance(out, np.ndarray) and out.shape == () and out.dtype == np.float64
        out = fn(np.array(0.25, np.float32))
        assert isinstance(out, np.ndarray) and out.shape == () and out.dtype == np.float32
        x = np.array([[np.nan, np.inf, -np.inf], [0.0, -1.0, 2.0], [1e-310, -3.5, 40.0]])
        assert fn(x).shape == (3, 3)
        assert fn(np.zeros((0, 2), np.float16)).shape == (0, 2)


# --- lower precisions ----------------------------------------------------------------------
LOW = [np.float32, np.float16]
try:
    import ml_dtypes

    LOW.append(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover
    ml_dtypes = None

CASES = [(si.erf, sp.erf, (-6.0, 6.0)), (si.erfc, sp.erfc, (-6.0, 12.0)),
         (si.erf_inv, sp.erfinv, (-1.0, 1.0)), (si.lgamma, sp.gammaln, (-30.0, 30.0)),
         (si.digamma, sp.psi, (-30.0, 30.0))]


def finfo(dt):
    return ml_dtypes.finfo(dt) if ml_dtypes is not None else np.finfo(dt)


@pytest.mark.parametrize("dt", LOW, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fn,ref,lim", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_low_precision(fn, ref, lim, dt):
    x = np.concatenate([np.linspace(*lim, 20_000), TINY[-200:], -TINY[-200:]]).astype(dt)
    x = x.reshape(-1, 3)[:, :2]
    got = fn(x)
    assert got.dtype == np.dtype(dt) and got.shape == x.shape
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        want = ref(x64).astype(dt).astype(np.float64)
    if fn is si.digamma:  # scipy is inexact next to the poles
        want = np.where(np.abs(x64 - np.rint(x64)) > 1e-2, want, got.astype(np.float64))
    fi = finfo(dt)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=float(fi.eps),
                               atol=float(fi.smallest_subnormal), equal_nan=True)


@settings(deadline=None, max_examples=100)
@given(st.sampled_from(LOW), st.sampled_from(CASES), st.lists(st.floats(0, 1), min_size=1))
def test_low_precision_hypothesis(dt, case, u):
    fn, ref, (lo, hi) = case
    x = (lo + (hi - lo) * np.array(u)).astype(dt)
    x64 = x.astype(np.float64)
    x64 = x64[(x64 > 0) | (np.abs(x64 - np.rint(x64)) > 1e-2)]
    x = x64.astype(dt)
    with np.errstate(all="ignore"):
        want = ref(x64).astype(dt).astype(np.float64)
    got = fn(x)
    assert got.dtype == np.dtype(dt)
    fi = finfo(dt)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=float(fi.eps),
                               atol=float(fi.smallest_subnormal), equal_nan=True)


# --- vectorization sanity ------------------------------------------------------------------
def test_no_per_element_python():
    src = inspect.getsource(si)
    for bad in ("np.vectorize", "frompyfunc", "tolist", "nditer", "math.erf", "math.lgamma"):
        assert bad not in src
    x = np.random.default_rng(0).uniform(-30.0, 30.0, 1_000_000)
    for fn in (si.erf, si.erfc, si.erf_inv, si.lgamma, si.digamma):
        start = time.perf_counter()
        fn(x / 30.0 if fn is si.erf_inv else x)
        assert time.perf_counter() - start < 5.0, fn.__name__
