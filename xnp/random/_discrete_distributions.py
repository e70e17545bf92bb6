"""Key-based ``binomial`` and ``multinomial`` with ``jax.random``'s signatures.

Both return counts in a float dtype (float64 by default), as JAX's do, and follow JAX
0.10.2's corner cases; the draws are xnp's own (exact distributions, not JAX's numbers).

``binomial`` works with ``q = min(p, 1 - p)`` and reflects at the end (``n - k``). Where
``n * q <= 10`` it inverts the CDF: one uniform per element, walked up the pmf with the
ratio ``pmf(k + 1) / pmf(k) = (n - k) / (k + 1) * q / (1 - q)``. Otherwise it uses
Hoermann's transformed rejection with squeeze (BTRS, "The generation of binomial random
variates", 1993), its acceptance test in the paper's Stirling-series form so that it stays
accurate for huge ``n``. Both run on every element at once in ``lax.while_loop``s, so they
work eagerly and under ``jit``/``vmap``. ``multinomial`` is the sequential construction:
category ``i`` gets ``binomial(remaining n, p_i / sum_{j >= i} p_j)``.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import xnp
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap
from xnp.random._classic_distributions import _uniform01
from xnp.random._gamma import _keys, _param_shape
from xnp.random._keys import _canonical_shape, _check_shape, check_key, split_v

_F64 = np.dtype(np.float64)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _float_result_dtype(name: str, dtype) -> np.dtype:
    dt = np.dtype(float if dtype is None else dtype)
    if dt.kind != "f":
        raise ValueError(f"dtype argument to `{name}` must be a float dtype, got {dt}")
    return dt


def _stirling_tail(x):
    """``lgamma(x + 1) - ((x + 0.5) log(x + 1) - (x + 1) + log(2 pi) / 2)`` for integer
    ``x >= 0``: directly for small ``x``, by its asymptotic series otherwise."""
    small = x < 16
    xs = xnp.where(small, x, 0)
    direct = lax.lgamma(xs + 1) - ((xs + 0.5) * xnp.log(xs + 1) - (xs + 1) + _HALF_LOG_2PI)
    z = xnp.where(small, 17.0, x + 1)
    z2 = z * z
    series = (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * z2)) / z2) / z2) / z
    return xnp.where(small, direct, series)


def _binomial_inversion(k, n, q, shape: tuple):
    """Binomial(n, q) counts by sequential CDF search, for ``n * q <= 10``, ``q <= 1/2``
    (``n`` and ``q`` broadcast to ``shape``). The walk stops at ``n`` or where the pmf
    underflows; a uniform beyond the computed CDF (a rounding remainder, probability
    about 1e-14) gives the mode."""
    u = _uniform01(k, shape, _F64)
    ratio = q / (1 - q)
    pmf0 = xnp.exp(n * xnp.log1p(-q))

    def cond(state):
        return ~xnp.all(state[0])

    def body(state):
        done, count, rest, pmf = state
        hit = ~done & (rest <= pmf)
        stuck = ~done & ~hit & ((count >= n) | ((pmf == 0) & (count > n * q)))
        nxt = pmf * (n - count) / (count + 1) * ratio
        step = ~(done | hit | stuck)
        count = xnp.where(step, count + 1, xnp.where(stuck, xnp.floor((n + 1) * q), count))
        return (done | hit | stuck, count, xnp.where(step, rest - pmf, rest),
                xnp.where(step, nxt, pmf))

    init = (xnp.zeros(shape, bool), xnp.zeros(shape, _F64), u, pmf0)
    return lax.while_loop(cond, body, init)[1]


def _binomial_btrs(k, n, q, shape: tuple):
    """Binomial(n, q) counts by Hoermann's BTRS, for ``n * q > 10``, ``q <= 1/2``."""
    spq = xnp.sqrt(n * q * (1 - q))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * q
    c = n * q + 0.5
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    log_r = xnp.log(q / (1 - q))
    m = xnp.floor((n + 1) * q)
    fixed = _stirling_tail(m) + _stirling_tail(n - m)

    def cond(state):
        return ~xnp.all(state[1])

    def body(state):
        key, done, value = state
        key, ku, kv = _keys(raw(key), 3)
        u = _uniform01(ku, shape, _F64) - 0.5
        v = _uniform01(kv, shape, _F64)
        us = 0.5 - xnp.abs(u)
        us_safe = xnp.where(us > 0, us, 1)
        kk = xnp.floor((2 * a / us_safe + b) * u + c)
        squeeze = (us >= 0.07) & (v <= v_r)
        valid = (us > 0) & (kk >= 0) & (kk <= n)
        kc = xnp.clip(kk, 0, n)
        # log(pmf(k) / pmf(m)) with Stirling's formula, the tails in ``fixed`` and below
        log_ratio = ((m + 0.5) * xnp.log((m + 1) / (n - m + 1))
                     - (kc + 0.5) * xnp.log((kc + 1) / (n - kc + 1))
                     + (n + 1) * xnp.log1p((kc - m) / (n - kc + 1))
                     + (kc - m) * log_r + fixed - _stirling_tail(kc) - _stirling_tail(n - kc))
        log_v = xnp.log(v * alpha / (a / (us_safe * us_safe) + b))
        accept = ~done & (squeeze | (valid & (log_v <= log_ratio)))
        return wrap(key), done | accept, xnp.where(accept, kk, value)

    init = (wrap(k), xnp.zeros(shape, bool), xnp.zeros(shape, _F64))
    return lax.while_loop(cond, body, init)[2]


def _binomial(k, n, p, shape: tuple, dt: np.dtype) -> ndarray:
    """Binomial counts of dtype ``dt``; ``n`` and ``p`` float64 arrays broadcasting to
    ``shape``. JAX's corner cases: NaN or negative ``n``, NaN ``p`` or ``p`` outside
    [0, 1] give NaN; infinite ``n`` gives inf; ``n`` is floored."""
    n = xnp.broadcast_to(n, shape)
    p = xnp.broadcast_to(p, shape)
    low = p < 0.5
    q = xnp.where(low, p, 1 - p)
    invalid = xnp.isnan(n) | (n < 0) | xnp.isnan(q) | (q < 0)
    infinite = xnp.isinf(n) & ~invalid
    n = xnp.where(invalid | infinite, 0, xnp.floor(n))
    q = xnp.where(invalid, 0, q)
    small = n * q <= 10
    k_inv, k_btrs = _keys(k, 2)
    counts = xnp.where(small, _binomial_inversion(k_inv, xnp.where(small, n, 0), q, shape),
                       _binomial_btrs(k_btrs, xnp.where(small, 1e4, n),
                                      xnp.where(small, 0.5, q), shape))
    counts = xnp.where(low, counts, n - counts)
    counts = xnp.where(infinite, np.inf, counts)
    return xnp.where(invalid, np.nan, counts).astype(dt)


def _as_float64(name: str, x) -> ndarray:
    x = xnp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"{name} requires real-valued arguments, got {x.dtype}")
    return lax.stop_gradient(x.astype(_F64))


def binomial(key: Any, n: Any, p: Any, shape: Sequence[int] | None = None,
             dtype: Any = None) -> ndarray:
    """Binomial random counts: successes in ``n`` trials of probability ``p``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
        A PRNG key (see :func:`xnp.random.key`).
    n : array_like
        Numbers of trials (floored when not integers); broadcast to ``shape``.
    p : array_like
        Success probabilities in ``[0, 1]``; broadcast to ``shape``.
    shape : tuple of ints, optional
        Default the broadcast shape of ``n`` and ``p``; an explicit shape must equal
        its broadcast with theirs.
    dtype : float dtype, optional
        The dtype of the counts, default float64.

    Returns
    -------
    ndarray
        Counts as floats; NaN where ``n`` is NaN or negative or ``p`` is NaN or outside
        ``[0, 1]``, inf where ``n`` is infinite (JAX's intent: JAX 0.10.2 itself loops
        forever on an infinite ``n``).

    Notes
    -----
    JAX's signature and corner cases; xnp's own draws (CDF inversion for ``n * q <= 10``
    with ``q = min(p, 1 - p)``, Hoermann's BTRS otherwise, computed in float64; see the
    module docstring): the exact distribution, not JAX's numbers bit for bit. No
    derivative flows to ``n`` or ``p``. NumPy's ``binomial(n, p, size)`` is what
    ``xnp.random.binomial`` calls without a key.
    """
    k = check_key("binomial", key)
    dt = _float_result_dtype("binomial", dtype)
    nv, pv = _as_float64("binomial", n), _as_float64("binomial", p)
    shape = tuple(_param_shape("binomial", shape, raw(nv), raw(pv)))
    return _binomial(k, nv, pv, shape, dt)


def multinomial(key: Any, n: Any, p: Any, *, shape: Sequence[int] | None = None,
                dtype: Any = None, unroll: int | bool = 1) -> ndarray:
    """Multinomial random counts: ``n`` trials spread over the outcomes of ``p``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    n : array_like
        Numbers of trials; broadcast to ``shape[:-1]``.
    p : array_like, shape (..., k)
        Outcome weights along the last axis. They need not sum to 1: outcome ``i`` is
        drawn with probability ``p_i / sum_{j >= i} p_j`` of the trials left (so
        non-negative weights are in effect normalised); these ratios are clipped to
        ``[0, 1]``, and all-zero weights leave every count 0.
    shape : tuple of ints, optional
        The full result shape, ``p`` broadcasting to it (JAX 0.10.2's behaviour; its
        docstring's "batch shape" is not what it does). Default ``p.shape``.
    dtype : dtype, optional
        The dtype of the counts, default float64.
    unroll : int or bool, optional
        Checked and passed to :func:`xnp.lax.scan`.

    Returns
    -------
    ndarray
        Counts of shape ``shape``.

    Notes
    -----
    JAX's signature and sequential conditional-binomial construction over xnp's
    :func:`binomial`: the exact distribution, not JAX's numbers. Not NumPy's
    ``multinomial(n, pvals, size)``, which ``xnp.random.multinomial`` calls without a key.
    """
    k = check_key("multinomial", key)
    dt = np.dtype(float if dtype is None else dtype)
    nv, pv = _as_float64("multinomial", n), _as_float64("multinomial", p)
    if pv.ndim < 1:
        raise ValueError(f"multinomial: p must have at least one dimension, got shape "
                         f"{pv.shape}")
    shape = tuple(pv.shape) if shape is None else _canonical_shape(shape, "multinomial")
    if len(shape) < 1:
        raise ValueError("multinomial: shape must have at least one dimension")
    _check_shape("multinomial", shape, tuple(pv.shape))
    _check_shape("multinomial", shape[:-1], tuple(nv.shape))
    nv = xnp.broadcast_to(nv, shape[:-1])
    pv = xnp.moveaxis(xnp.broadcast_to(pv, shape), -1, 0)
    rest = xnp.flip(xnp.cumsum(xnp.flip(pv, 0), axis=0), 0)
    ratios = xnp.clip(pv / xnp.where(rest == 0, 1, rest), 0, 1)
    keys = wrap(split_v(k, (shape[-1],)))

    def step(left, xs):
        ratio, sub = xs
        count = _binomial(raw(sub), left, ratio, shape[:-1], _F64)
        return left - count, count

    _, counts = lax.scan(step, nv, (ratios, keys), unroll=unroll)
    return xnp.moveaxis(counts, 0, -1).astype(dt)
