"""Gamma-based samplers of the functional PRNG: ``gamma``, ``beta``, ``dirichlet``.

``gamma`` is Marsaglia and Tsang's rejection method ("A simple method for generating
gamma variables", 2000) run on every element at once: a ``while_loop`` draws a normal
and a uniform per element each round and stops once every element has accepted (about
one round in twenty rejects), so it works under ``jit`` and ``vmap``. Shapes below 1 are
drawn with shape ``a + 1`` and multiplied by ``u ** (1 / a)``. The numbers are xnp's
own, not JAX's (whose algorithm differs in its details).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import xnp
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap
from xnp.random._keys import (
    _canonical_shape,
    _check_shape,
    _convert,
    _float_dtype,
    _normal_real_v,
    _shape_of,
    _uniform_v,
    check_key,
    split_v,
)


def _keys(k, n: int):
    ks = wrap(split_v(k, (n,)))
    return [ks[i]._value for i in range(n)]


def _gamma_v(k, a, shape: tuple, dt: np.dtype, log_space: bool = False):
    """Raw gamma(a, 1) values of ``shape`` (``a``: a raw value broadcasting to it); with
    ``log_space``, their logarithms, computed from the same draws without forming the
    (possibly underflowing) product, so ``exp`` of them is the plain result to rounding."""
    a = xnp.broadcast_to(lax.stop_gradient(wrap(_convert(raw(a), dt))), shape)
    boost = a < 1
    alpha = xnp.where(boost, a + 1, a)
    d = alpha - dt.type(1 / 3)
    c = 1 / xnp.sqrt(9 * d)
    tiny = np.array(xnp.finfo(dt).tiny, dt)
    k_loop, k_boost = _keys(k, 2)

    def cond(state):
        return ~xnp.all(state[1])

    def body(state):
        key, done, value = state
        key, k_norm, k_unif = _keys(raw(key), 3)
        x = wrap(_normal_real_v(k_norm, shape, dt))
        u = wrap(_uniform_v(k_unif, shape, dt, tiny, np.array(1.0, dt)))
        v = (1 + c * x) ** 3
        positive = v > 0
        v_safe = xnp.where(positive, v, 1)
        accept = positive & (xnp.log(u) < 0.5 * x * x + d - d * v_safe + d * xnp.log(v_safe))
        value = xnp.where(done, value, d * v_safe)
        return wrap(key), done | accept, value

    init = (wrap(k_loop), xnp.zeros(shape, bool), xnp.zeros(shape, dt))
    _, _, value = lax.while_loop(cond, body, init)
    u = wrap(_uniform_v(k_boost, shape, dt, tiny, np.array(1.0, dt)))
    log_scale = xnp.where(boost, xnp.log(u) / xnp.where(boost, a, 1), 0)
    if log_space:
        return raw(xnp.log(value) + log_scale)
    return raw(value * xnp.exp(log_scale))


def _check_method(name: str, method: str) -> None:
    """Newer JAX's ``method`` argument of the gamma-based samplers: ``"approximate"``
    is accepted and draws with the same exact sampler as ``"exact"``."""
    if method not in ("exact", "approximate"):
        raise ValueError(f"method argument to `{name}` must be 'exact' or 'approximate', "
                         f"got {method!r}")


def _param_shape(name, shape, *params):
    if shape is None:
        return np.broadcast_shapes(*(_shape_of(p) for p in params))
    shape = _canonical_shape(shape, name)
    _check_shape(name, shape, *(_shape_of(p) for p in params))
    return shape


def gamma(key: Any, a: Any, shape: Sequence[int] | None = None,
          dtype: Any = None, *, method: str = "exact") -> ndarray:
    """Gamma random values with shape parameter ``a`` and scale 1.

    Parameters
    ----------
    key : uint32 array of shape (2,)
        A PRNG key (see :func:`xnp.random.key`).
    a : array_like
        The shape parameter, positive; broadcasts to ``shape``.
    shape : tuple of ints, optional
        Default the shape of ``a``.
    dtype : float dtype, optional
        Default float64.
    method : {"exact", "approximate"}, optional
        Accepted as in newer JAX; both draw with the same (exact) sampler.

    Returns
    -------
    ndarray
        Values with mean ``a`` and variance ``a``.

    Notes
    -----
    JAX's signature; Marsaglia and Tsang's method (see the module docstring), so the
    values differ from JAX's. No derivative flows to ``a`` (JAX's implicit
    reparameterization gradient is not provided). NumPy's ``gamma(shape, scale, size)``
    is what ``xnp.random.gamma`` calls without a key.
    """
    k = check_key("gamma", key)
    _check_method("gamma", method)
    dt = _float_dtype(dtype, "gamma")
    a = _convert(raw(xnp.asarray(a)), dt)
    return wrap(_gamma_v(k, a, _param_shape("gamma", shape, a), dt))


def beta(key: Any, a: Any, b: Any, shape: Sequence[int] | None = None,
         dtype: Any = None, *, method: str = "exact") -> ndarray:
    """Beta random values with parameters ``a`` and ``b``: ``x / (x + y)`` for
    independent gamma values ``x`` (shape ``a``) and ``y`` (shape ``b``).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    a, b : array_like
        Positive parameters, broadcasting to ``shape``.
    shape : tuple of ints, optional
        Default the broadcast shape of ``a`` and ``b``.
    dtype : float dtype, optional
        Default float64.
    method : {"exact", "approximate"}, optional
        Accepted as in newer JAX; both draw with the same (exact) sampler.

    Notes
    -----
    JAX's signature; not JAX's numbers. The ratio is formed from the gammas'
    logarithms, so very small ``a`` and ``b`` give values near 0 or 1 rather than NaN.
    NumPy's ``beta(a, b, size)`` is what
    ``xnp.random.beta`` calls without a key.
    """
    k = check_key("beta", key)
    _check_method("beta", method)
    dt = _float_dtype(dtype, "beta")
    a, b = (_convert(raw(xnp.asarray(p)), dt) for p in (a, b))
    shape = _param_shape("beta", shape, a, b)
    ka, kb = _keys(k, 2)
    # in log space, so that gamma values underflowing to 0 (small a, b) give 0 or 1, not NaN
    lx, ly = wrap(_gamma_v(ka, a, shape, dt, True)), wrap(_gamma_v(kb, b, shape, dt, True))
    top = xnp.maximum(lx, ly)
    x, y = xnp.exp(lx - top), xnp.exp(ly - top)
    return x / (x + y)


def dirichlet(key: Any, alpha: Any, shape: Sequence[int] | None = None,
              dtype: Any = None) -> ndarray:
    """Dirichlet random vectors: gamma values of shapes ``alpha``, normalised to sum 1.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    alpha : array_like, shape (..., k)
        Positive concentration parameters.
    shape : tuple of ints, optional
        The batch shape (the result is ``(*shape, k)``); default ``alpha.shape[:-1]``.
    dtype : float dtype, optional
        Default float64.

    Notes
    -----
    JAX's signature; not JAX's numbers. NumPy's ``dirichlet(alpha, size)`` is what
    ``xnp.random.dirichlet`` calls without a key.
    """
    k = check_key("dirichlet", key)
    dt = _float_dtype(dtype, "dirichlet")
    alpha = _convert(raw(xnp.asarray(alpha)), dt)
    ashape = _shape_of(alpha)
    if len(ashape) < 1:
        raise ValueError(f"The concentration parameter alpha must be an array of at least "
                         f"one dimension, got shape {ashape}")
    if shape is None:
        shape = ashape[:-1]
    else:
        shape = _canonical_shape(shape, "dirichlet")
        _check_shape("dirichlet", shape, ashape[:-1])
    # in log space (see beta): small alpha gives vectors near a vertex, not NaN
    lg = wrap(_gamma_v(k, alpha, tuple(shape) + ashape[-1:], dt, True))
    g = xnp.exp(lg - xnp.max(lg, axis=-1, keepdims=True))
    return g / xnp.sum(g, axis=-1, keepdims=True)
