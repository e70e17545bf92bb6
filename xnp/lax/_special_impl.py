"""Eager NumPy implementations of the special-function primitives.

Every function takes an array of a floating dtype (float16, float32, float64, bfloat16),
evaluates in float64 with floating-point warnings off, and returns an ndarray of the input's
dtype and shape. Nothing loops over elements in Python: each is a fixed sequence of
vectorized NumPy operations (polynomial evaluations over boolean-masked subsets).
"""

from __future__ import annotations

import functools
import math

import numpy as np

__all__ = ["digamma", "erf", "erf_inv", "erfc", "lgamma"]

_EULER = 0.57721566490153286061  # Euler-Mascheroni constant gamma
_BERNOULLI_RATIOS = (  # B_2, B_4, ..., B_20
    (1, 6), (-1, 30), (1, 42), (-1, 30), (5, 66), (-691, 2730), (7, 6), (-3617, 510),
    (43867, 798), (-174611, 330))


def _float_op(fn):
    """Run ``fn`` on a flat float64 copy of the input; cast back to the input dtype/shape."""
    @functools.wraps(fn)
    def wrapper(x):
        x = np.asarray(x)
        dtype = np.dtype(np.float64) if x.dtype.kind in "biu" else x.dtype
        with np.errstate(all="ignore"):
            out = fn(np.array(x, dtype=np.float64).reshape(-1))
            return np.asarray(out.reshape(x.shape).astype(dtype, copy=False))
    return wrapper


def _poly(coeffs, z):
    """Horner evaluation; ``coeffs`` from the highest degree down."""
    acc = np.full_like(z, coeffs[0])
    for c in coeffs[1:]:
        acc = acc * z + c
    return acc


# --- erf / erfc ---------------------------------------------------------------------------
# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
# (1969) 631-637; coefficients as published with Cody's CALERF (ACM TOMS 715, 1993).
# Numerators/denominators are listed from the highest degree down.
_ERF_P = (1.85777706184603153e-1, 3.16112374387056560e00, 1.13864154151050156e02,
          3.77485237685302021e02, 3.20937758913846947e03)
_ERF_Q = (1.0, 2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
          2.84423683343917062e03)
_ERFC_P = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e00,
           6.61191906371416295e01, 2.98635138197400131e02, 8.81952221241769090e02,
           1.71204761263407058e03, 2.05107837782607147e03, 1.23033935479799725e03)
_ERFC_Q = (1.0, 1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
           1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
           3.43936767414372164e03, 1.23033935480374942e03)
_ERFC_TP = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
            1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4)
_ERFC_TQ = (1.0, 2.56852019228982242e00, 1.87295284992346725e00, 5.27905102951428412e-1,
            6.05183413124413191e-2, 2.33520497626869185e-3)
_INV_SQRT_PI = 0.56418958354775628695


def _erfc_pos(y):
    """erfc(y) for y > 0.46875 (inf allowed), with relative accuracy in the tail."""
    y = np.minimum(y, 40.0)  # erfc underflows to 0 long before
    r = np.empty_like(y)
    mid = y <= 4.0
    ym = y[mid]
    r[mid] = _poly(_ERFC_P, ym) / _poly(_ERFC_Q, ym)
    yt = y[~mid]
    z = 1.0 / (yt * yt)
    r[~mid] = (_INV_SQRT_PI - z * _poly(_ERFC_TP, z) / _poly(_ERFC_TQ, z)) / yt
    # exp(-y^2) with y = h + (y - h), h having few bits, so that h*h is exact.
    h = np.trunc(y * 16.0) / 16.0
    return np.exp(-h * h) * np.exp(-(y - h) * (y + h)) * r


def _erf_erfc(x):
    """(erf(x), erfc(x)) for a float64 vector."""
    y = np.abs(x)
    erf_, erfc_ = np.full_like(x, np.nan), np.full_like(x, np.nan)
    small = y <= 0.46875
    xs = x[small]
    z = xs * xs
    erf_[small] = xs * _poly(_ERF_P, z) / _poly(_ERF_Q, z)
    erfc_[small] = 1.0 - erf_[small]
    big = y > 0.46875
    xb = x[big]
    c = _erfc_pos(y[big])
    erf_[big] = np.copysign((0.5 - c) + 0.5, xb)
    erfc_[big] = np.where(xb < 0, 2.0 - c, c)
    return erf_, erfc_


@_float_op
def erf(x):
    """Error function 2/sqrt(pi) * integral_0^x exp(-t^2) dt."""
    return _erf_erfc(x)[0]


@_float_op
def erfc(x):
    """Complementary error function 1 - erf(x), accurate in the right tail."""
    return _erf_erfc(x)[1]


# --- erf_inv ------------------------------------------------------------------------------
# Initial guess: M. Giles, "Approximating the erfinv function", GPU Computing Gems Jade
# Edition (2011), single-precision polynomials; then Halley steps on erf (or on
# log erfc for |x| > 0.5, where 1 - |x| is exact) give full double precision.
_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                  0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
               0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


@_float_op
def erf_inv(x):
    """Inverse error function on [-1, 1]: +-inf at +-1, nan outside."""
    a = np.abs(x)
    q = 1.0 - a
    w = -np.log(q * (1.0 + a))
    y = a * np.where(w < 5.0, _poly(_GILES_CENTRAL, w - 2.5),
                     _poly(_GILES_TAIL, np.sqrt(w) - 3.0))
    for _ in range(3):
        e, ec = _erf_erfc(y)
        d = 2.0 * _INV_SQRT_PI * np.exp(-y * y)
        # |x| <= 1/2: Halley on erf(y) - a (erf''/erf' = -2y).
        u = (e - a) / d
        central = y - u / (1.0 + y * u)
        # |x| > 1/2: Halley on h(y) = log(erfc(y) / q), nearly linear in y^2 even where the
        # initial guess is poor (q ~ 1e-16); h' = -r, h'' = r (2y - r).
        r = d / ec
        h = np.log(ec / q)
        y = np.where(a <= 0.5, central, y + h / (r - h * (y - 0.5 * r)))
    y = np.where(a == 1.0, np.inf, np.where(a < 1.0, y, np.nan))
    return np.copysign(y, x)


# --- lgamma / digamma ---------------------------------------------------------------------
@functools.cache
def _bernoulli() -> list:
    from fractions import Fraction
    return [Fraction(n, d) for n, d in _BERNOULLI_RATIOS]


def _hurwitz_zeta(s, a, bernoulli=None):
    """sum_{k>=0} (a + k)^-s for an integer s >= 2 and a > 0 (Euler-Maclaurin, N = 10)."""
    n = a + 10
    terms = [(a + k) ** -s for k in range(10)] + [n ** (1 - s) / (s - 1), 0.5 * n ** -s]
    bernoulli = _bernoulli() if bernoulli is None else bernoulli
    for j, b in enumerate(bernoulli, 1):
        coef = b * math.prod(range(s, s + 2 * j - 1)) / math.factorial(2 * j)
        terms.append(float(coef) * n ** (-s - 2 * j + 1))
    return math.fsum(terms)


# lgamma(2 + z) = (1 - gamma) z + sum_{k>=2} (-1)^k (zeta(k) - 1) z^k / k  for |z| < 2
# (Abramowitz & Stegun 6.1.41-style series); used for |z| <= 1/2, 34 terms.
# digamma(2 + z) = d/dz lgamma(2 + z). Both series are computed on first use.
@functools.cache
def _gamma_series():
    """(lgamma series, digamma series) about 2."""
    zm1 = [_hurwitz_zeta(k, 2.0) for k in range(2, 36)]  # zeta(k) - 1
    lg = [(-1) ** k * c / k for k, c in zip(range(35, 1, -1), zm1[::-1])] + [1 - _EULER]
    psi = [(-1) ** k * c for k, c in zip(range(35, 1, -1), zm1[::-1])] + [1 - _EULER]
    return lg, psi


# Stirling / asymptotic series coefficients, in powers of 1/x^2 from the highest down.
@functools.cache
def _tables():
    """Series coefficients, computed exactly (with fractions) on first use rather than
    at import: (Stirling, digamma asymptotic, digamma root low part, root series)."""
    from fractions import Fraction
    bernoulli = _bernoulli()
    stirling = [float(b / (2 * k * (2 * k - 1))) for k, b in enumerate(bernoulli[:9], 1)]
    psi_asymp = [float(b / (2 * k)) for k, b in enumerate(bernoulli[:9], 1)]
    root_lo = float(Fraction("1.46163214496836234126265954232572132847")
                    - Fraction(_ROOT_HI))
    root_series = [(-1) ** (k + 1) * _hurwitz_zeta(k + 1, _ROOT_HI, bernoulli)
                   for k in range(24, 0, -1)]
    return stirling[::-1], psi_asymp[::-1], root_lo, root_series


# digamma(x0 + h) = sum_{k>=1} (-1)^(k+1) zeta(k+1, x0) h^k about the positive root
# x0 = 1.46163214496836234126... (split into two doubles), for relative accuracy near it.
_ROOT_HI = 1.4616321449683622
_HALF_LOG_2PI = 0.91893853320467274178
_LOG_PI = 1.14472988584940017414


def _shift(x):
    """For -1/2 < x < 10: z = x - 2 - n in [-1/2, 1/2) with n = floor(x - 3/2) in [-2, 8]."""
    n = np.floor(x - 1.5)
    return n, x - (2.0 + n)


def _lgamma_upper(x):
    """log|Gamma(x)| for x > -1/2 (x = 0 and inf included)."""
    out = np.empty_like(x)
    mid = x < 10.0
    xm = x[mid]
    n, z = _shift(xm)
    prod = np.ones_like(xm)
    for i in range(1, 9):  # Gamma(x) = (x-1)...(x-n) Gamma(2 + z)
        prod *= np.where(i <= n, xm - i, 1.0)
    corr = np.where(n >= 0, np.log(prod), -np.log(np.abs(xm)))
    corr -= np.where(n == -2, np.log1p(xm), 0.0)
    out[mid] = z * _poly(_gamma_series()[0], z) + corr
    xb = x[~mid]
    w = 1.0 / xb
    lx = np.log(xb)
    big = xb * (lx - 1.0) - 0.5 * lx + _HALF_LOG_2PI + w * _poly(_tables()[0], w * w)
    out[~mid] = np.where(xb == np.inf, np.inf, big)
    return out


def _lower_split(x):
    """Mask x <= -1/2 and, there, r = x - round(x) and the non-integer mask."""
    low = x <= -0.5
    xl = x[low]
    r = xl - np.rint(xl)
    return low, xl, r, (r != 0) & np.isfinite(xl)


@_float_op
def lgamma(x):
    """log|Gamma(x)|; +inf at the non-positive integers and at +-inf."""
    out = np.full_like(x, np.nan)
    up = x > -0.5
    out[up] = _lgamma_upper(x[up])
    low, xl, r, ok = _lower_split(x)
    # Reflection: Gamma(x) Gamma(-x) = -pi / (x sin(pi x)).
    refl = _LOG_PI - np.log(np.abs(xl)) - np.log(np.abs(np.sin(np.pi * r))) - _lgamma_upper(-xl)
    out[low] = np.where(ok, refl, np.inf)
    return out


def _digamma_upper(x):
    """digamma(x) for x > -1/2 (x = +-0 gives -+inf, inf gives inf)."""
    out = np.empty_like(x)
    mid = x < 10.0
    xm = x[mid]
    n, z = _shift(xm)
    acc = np.zeros_like(xm)
    for i in range(1, 9):  # psi(x) = psi(2 + z) + sum_{i=1}^{n} 1 / (x - i)
        acc += np.where(i <= n, 1.0 / (xm - i), 0.0)
    acc -= np.where(n < 0, 1.0 / xm, 0.0) + np.where(n == -2, 1.0 / (1.0 + xm), 0.0)
    res = _poly(_gamma_series()[1], z) + acc
    _, _, root_lo, root_series = _tables()
    h = (xm - _ROOT_HI) - root_lo
    out[mid] = np.where(np.abs(h) < 0.2, h * _poly(root_series, h), res)
    xb = x[~mid]
    w = 1.0 / (xb * xb)
    out[~mid] = np.log(xb) - 0.5 / xb - w * _poly(_tables()[1], w)
    return out


@_float_op
def digamma(x):
    """Digamma psi(x) = Gamma'(x) / Gamma(x); nan at negative integers and -inf."""
    out = np.full_like(x, np.nan)
    up = x > -0.5
    out[up] = _digamma_upper(x[up])
    low, xl, r, ok = _lower_split(x)
    # Reflection: psi(x) = psi(-x) - 1/x - pi cot(pi x).
    refl = _digamma_upper(-xl) - 1.0 / xl - np.pi * np.cos(np.pi * r) / np.sin(np.pi * r)
    out[low] = np.where(ok, refl, np.nan)
    return out
