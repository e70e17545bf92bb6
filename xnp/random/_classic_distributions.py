"""Key-based samplers for distributions NumPy's ``numpy.random`` also has: ``chisquare``,
``f``, ``geometric``, ``lognormal``, ``pareto``, ``rayleigh``, ``triangular`` and ``wald``.

Each has ``jax.random``'s signature (``shape=None`` means the parameters' broadcast shape;
an explicit ``shape`` must equal the broadcast of itself with them) and dtype rules
(float64 by default, int64 for ``geometric``; inexact array parameters must cast safely
to the sample dtype). ``xnp.random.<name>`` calls them when its first argument is a key,
and NumPy's legacy function otherwise (see :mod:`xnp.random`).

Agreement with JAX 0.10.2: ``geometric``, ``lognormal``, ``pareto``, ``rayleigh``,
``triangular`` and ``wald`` transform the same uniform/normal/exponential draws by the
same formulas as ``jax.random`` (bit for bit under ``xnp.jit`` in float64; eagerly NumPy's
``log``/``exp``/``sqrt`` may differ in the last bits). ``chisquare`` and ``f`` draw gamma
values, which are xnp's own (see :mod:`xnp.random._gamma`): the same distributions, not
JAX's numbers, and no derivative flows to the degrees of freedom.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import xnp
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap
from xnp.random._distributions import exponential, normal
from xnp.random._gamma import _check_method, _gamma_v, _keys, _param_shape
from xnp.random._keys import _canonical_shape, _float_dtype, _uniform_v, check_key
from xnp.random._more_distributions import _check_safe_cast, _param


def _setup(name: str, key, dtype, shape, params, differentiable: bool = True):
    """The checked key, the float dtype, the result shape and the parameters as raw
    values of that dtype."""
    k = check_key(name, key)
    dt = _float_dtype(dtype, name)
    _check_safe_cast(name, dt, *params)
    values = [_param(p, dt, differentiable) for p in params]
    return k, dt, tuple(_param_shape(name, shape, *values)), values


def _uniform01(k, shape: tuple, dt: np.dtype) -> ndarray:
    return wrap(_uniform_v(k, shape, dt, np.array(0.0, dt), np.array(1.0, dt)))


def _chisquare(k, df, shape: tuple, dt: np.dtype) -> ndarray:
    half = wrap(df) / dt.type(2)
    return xnp.exp(wrap(_gamma_v(k, raw(half), shape, dt, log_space=True))) * dt.type(2)


def chisquare(key: Any, df: Any, shape: Sequence[int] | None = None,
              dtype: Any = None, *, method: str = "exact") -> ndarray:
    """Chi-square random values with ``df`` degrees of freedom: ``2 * gamma(df / 2)``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    df : array_like
        Positive degrees of freedom; broadcasts to ``shape``.
    shape : tuple of ints, optional
        Default the shape of ``df``.
    dtype : float dtype, optional
        Default float64.
    method : {"exact", "approximate"}, optional
        Accepted as in newer JAX; both draw with the same (exact) sampler.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's construction from xnp's gamma sampler (formed in log space, as JAX does), so
    not JAX's numbers. NumPy's ``chisquare(df, size)`` is what ``xnp.random.chisquare``
    calls without a key.
    """
    _check_method("chisquare", method)
    k, dt, shape, (dfv,) = _setup("chisquare", key, dtype, shape, (df,), False)
    return _chisquare(k, dfv, shape, dt)


def f(key: Any, dfnum: Any, dfden: Any, shape: Sequence[int] | None = None,
      dtype: Any = None) -> ndarray:
    """F-distributed random values: ``(X / dfnum) / (Y / dfden)`` for independent
    chi-square values ``X`` and ``Y``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    dfnum, dfden : array_like
        Positive degrees of freedom of the numerator and denominator.
    shape : tuple of ints, optional
        Default the broadcast shape of ``dfnum`` and ``dfden``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's construction (the key split in two, the first half for the denominator) over
    xnp's gamma sampler: not JAX's numbers. NumPy's ``f(dfnum, dfden, size)`` is what
    ``xnp.random.f`` calls without a key.
    """
    k, dt, shape, (num, den) = _setup("f", key, dtype, shape, (dfnum, dfden), False)
    k_den, k_num = _keys(k, 2)
    x = _chisquare(k_num, num, shape, dt) / wrap(num)
    y = _chisquare(k_den, den, shape, dt) / wrap(den)
    return x / y


def geometric(key: Any, p: Any, shape: Sequence[int] | None = None,
              dtype: Any = None) -> ndarray:
    """Geometric random values: the number of Bernoulli(``p``) trials up to and
    including the first success (support 1, 2, ...).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    p : array_like
        Success probabilities in ``(0, 1]``; broadcasts to ``shape``.
    shape : tuple of ints, optional
        Default the shape of ``p``.
    dtype : integer dtype, optional
        Default int64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's inverse-CDF draw ``floor(log(u) / log1p(-p)) + 1`` from a uniform of ``p``'s
    (inexact) dtype, with ``u = 0`` read as 1 so that no value is infinite. NumPy's
    ``geometric(p, size)`` is what ``xnp.random.geometric`` calls without a key.
    """
    k = check_key("geometric", key)
    dt = np.dtype(int if dtype is None else dtype)
    if dt.kind not in "iu":
        raise ValueError(f"dtype argument to `geometric` must be an int dtype, got "
                         f"{dt.name}")
    pv = xnp.asarray(p)
    if pv.dtype.kind not in "fc":
        pv = pv.astype(xnp.result_type(pv.dtype, 1.0))
    shape = tuple(_param_shape("geometric", shape, pv))
    u = _uniform01(k, shape, np.dtype(pv.dtype))
    u = xnp.where(u == 0, pv.dtype.type(1), u)
    log_q = xnp.broadcast_to(xnp.log1p(-pv), shape)
    return (xnp.floor(xnp.log(u) / log_q) + 1).astype(dt)


def lognormal(key: Any, sigma: Any = 1.0, shape: Sequence[int] | None = None,
              dtype: Any = None) -> ndarray:
    """Log-normal random values: ``exp(sigma * z)`` for a standard normal ``z``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    sigma : array_like, optional
        The standard deviation of the underlying normal (default 1).
    shape : tuple of ints, optional
        Default the shape of ``sigma``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's algorithm (mean 0 for the underlying normal). NumPy's
    ``lognormal(mean, sigma, size)`` is what ``xnp.random.lognormal`` calls without a key.
    """
    k, dt, shape, (s,) = _setup("lognormal", key, dtype, shape, (sigma,))
    return xnp.exp(normal(wrap(k), shape, dt) * wrap(s))


def pareto(key: Any, b: Any, shape: Sequence[int] | None = None,
           dtype: Any = None) -> ndarray:
    """Pareto random values with shape ``b`` and scale 1 (support ``[1, inf)``):
    ``exp(e / b)`` for a standard exponential ``e``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    b : array_like
        The positive shape parameter; broadcasts to ``shape``.
    shape : tuple of ints, optional
        Default the shape of ``b``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's algorithm. NumPy's ``pareto(a, size)`` is the Lomax form, ``pareto - 1``; it
    is what ``xnp.random.pareto`` calls without a key.
    """
    k, dt, shape, (bv,) = _setup("pareto", key, dtype, shape, (b,))
    return xnp.exp(exponential(wrap(k), shape, dt) / wrap(bv))


def rayleigh(key: Any, scale: Any, shape: Sequence[int] | None = None,
             dtype: Any = None) -> ndarray:
    """Rayleigh random values: ``scale * sqrt(-2 log(u))`` for a uniform ``u``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    scale : array_like
        The positive scale; broadcasts to ``shape``.
    shape : tuple of ints, optional
        Default the shape of ``scale``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's algorithm (``u`` in ``[0, 1)``, so ``inf`` has probability ``2**-52``).
    NumPy's ``rayleigh(scale, size)`` is what ``xnp.random.rayleigh`` calls without a key.
    """
    k, dt, shape, (sv,) = _setup("rayleigh", key, dtype, shape, (scale,))
    u = _uniform01(k, shape, dt)
    return xnp.broadcast_to(wrap(sv), shape) * xnp.sqrt(xnp.log(u) * dt.type(-2))


def triangular(key: Any, left: Any, mode: Any, right: Any,
               shape: Sequence[int] | None = None, dtype: Any = None) -> ndarray:
    """Triangular random values on ``[left, right]`` with peak at ``mode``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    left, mode, right : array_like
        ``left <= mode <= right``, ``left < right``; broadcast to ``shape``.
    shape : tuple of ints, optional
        Default the broadcast shape of the three parameters.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's inverse-CDF algorithm. NumPy's ``triangular(left, mode, right, size)`` is what
    ``xnp.random.triangular`` calls without a key.
    """
    k, dt, shape, params = _setup("triangular", key, dtype, shape, (left, mode, right))
    lo, md, hi = (xnp.broadcast_to(wrap(v), shape) for v in params)
    u = _uniform01(k, shape, dt)
    below = lo + xnp.sqrt(u * (hi - lo) * (md - lo))
    above = hi - xnp.sqrt((1 - u) * (hi - lo) * (hi - md))
    return xnp.where(u < (md - lo) / (hi - lo), below, above)


def wald(key: Any, mean: Any, shape: Sequence[int] | None = None,
         dtype: Any = None) -> ndarray:
    """Wald (inverse Gaussian) random values with ``mean`` and shape parameter 1.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    mean : array_like
        The positive mean; broadcasts to ``shape``.
    shape : tuple of ints, optional
        Default the shape of ``mean``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's algorithm (Michael, Schucany and Haas: a squared normal and a uniform, from the
    key split in two). NumPy's ``wald(mean, scale, size)`` is what ``xnp.random.wald``
    calls without a key.
    """
    k, dt, shape, (mv,) = _setup("wald", key, dtype, shape, (mean,))
    k_n, k_u = _keys(k, 2)
    m = xnp.broadcast_to(wrap(mv), shape)
    v = normal(wrap(k_n), shape, dt)
    z = _uniform01(k_u, shape, dt)
    y = v * v
    m2 = m * m
    x = m + m2 * y / 2 - m / 2 * xnp.sqrt(4 * m * y + m2 * (y * y))
    return xnp.where(z <= m / (m + x), x, m2 / x)


def _poisson_knuth(k, lam, shape: tuple, dt: np.dtype):
    """Poisson counts for small ``lam`` (0 where ``lam`` is 0): the number of uniforms
    whose running sum of logarithms stays at or above ``-lam``, all elements at once."""
    def cond(state):
        return ~xnp.all(state[1])

    def body(state):
        key, done, count, logp = state
        key, sub = _keys(raw(key), 2)
        logp = xnp.where(done, logp, logp + xnp.log(_uniform01(sub, shape, dt)))
        stop = ~done & (logp < -lam)
        return wrap(key), done | stop, xnp.where(done | stop, count, count + 1), logp

    init = (wrap(k), xnp.zeros(shape, bool), xnp.zeros(shape, dt), xnp.zeros(shape, dt))
    return lax.while_loop(cond, body, init)[2]


def _poisson_ptrs(k, lam, shape: tuple, dt: np.dtype):
    """Poisson counts for ``lam >= 10``: Hoermann's transformed rejection with squeeze
    (PTRS, 1993), all elements at once."""
    b = 0.931 + 2.53 * xnp.sqrt(lam)
    a = -0.059 + 0.02483 * b
    log_inv_alpha = xnp.log(1.1239 + 1.1328 / (b - 3.4))
    vr = 0.9277 - 3.6224 / (b - 2)
    log_lam = xnp.log(lam)

    def cond(state):
        return ~xnp.all(state[1])

    def body(state):
        key, done, value = state
        key, ku, kv = _keys(raw(key), 3)
        u = _uniform01(ku, shape, dt) - 0.5
        v = _uniform01(kv, shape, dt)
        us = 0.5 - xnp.abs(u)
        us_safe = xnp.where(us > 0, us, 1)
        kk = xnp.floor((2 * a / us_safe + b) * u + lam + 0.43)
        squeeze = (us >= 0.07) & (v <= vr)
        reject = (kk < 0) | (us == 0) | ((us < 0.013) & (v > us))
        log_v = xnp.log(xnp.where(v > 0, v, 1)) + xnp.where(v > 0, 0, -np.inf)
        bound = -lam + kk * log_lam - lax.lgamma(xnp.maximum(kk, 0) + 1)
        test = log_v + log_inv_alpha - xnp.log(a / (us_safe * us_safe) + b) <= bound
        accept = ~done & (squeeze | (~reject & test))
        return wrap(key), done | accept, xnp.where(accept, kk, value)

    init = (wrap(k), xnp.zeros(shape, bool), xnp.zeros(shape, dt))
    return lax.while_loop(cond, body, init)[2]


def poisson(key: Any, lam: Any, shape: Sequence[int] | None = None, dtype: Any = None,
            *, method: str = "exact") -> ndarray:
    """Poisson random values with rates ``lam``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    lam : array_like
        Non-negative rates; broadcast to ``shape``. A negative or NaN rate gives -1.
    shape : tuple of ints, optional
        Default the shape of ``lam``.
    dtype : integer dtype, optional
        Default int64.
    method : {"exact", "approximate"}, optional
        Accepted as in newer JAX; both use the exact samplers below.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's signature and corner cases, xnp's own draws (not JAX's numbers): Knuth's
    product-of-uniforms method for ``lam < 10`` and Hoermann's transformed rejection
    (PTRS) otherwise, in float64 (JAX computes in float32). The rates carry no
    derivative. NumPy's ``poisson(lam, size)`` is what ``xnp.random.poisson`` calls
    without a key.
    """
    if method not in ("exact", "approximate"):
        raise ValueError(f"method argument to `poisson` must be 'exact' or 'approximate', "
                         f"got {method!r}")
    k = check_key("poisson", key)
    dt = np.dtype(int if dtype is None else dtype)
    if dt.kind not in "iu":
        raise ValueError(f"dtype argument to `poisson` must be an int dtype, got {dt.name}")
    lam = lax.stop_gradient(xnp.asarray(lam, dtype=np.float64))
    shape = lam.shape if shape is None else _canonical_shape(shape, "poisson")
    lam = xnp.broadcast_to(lam, shape)
    f64 = np.dtype(np.float64)
    small = lam < 10
    k_small, k_large = _keys(k, 2)
    counts = xnp.where(small, _poisson_knuth(k_small, xnp.where(small, lam, 0), shape, f64),
                       _poisson_ptrs(k_large, xnp.where(lam >= 10, lam, 10.0), shape, f64))
    counts = xnp.where(lam == 0, 0, counts)
    return xnp.where(lam >= 0, counts, -1).astype(dt)
