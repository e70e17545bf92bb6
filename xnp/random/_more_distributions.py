"""More samplers of the functional PRNG: ``cauchy``, ``t``, ``loggamma``, ``maxwell``,
``double_sided_maxwell``, ``weibull_min``, ``generalized_normal``, ``ball`` and
``orthogonal`` (none of them in NumPy's ``numpy.random``).

Each takes an explicit key and has ``jax.random``'s signature, dtype rules (float64 by
default) and way of drawing; the transforms are built from xnp functions and ``xnp.lax``
primitives, so they work under ``jit``, ``vmap`` and ``grad``. Agreement with JAX 0.10.2:

* ``cauchy``, ``maxwell``, ``double_sided_maxwell``, ``weibull_min`` and ``orthogonal``
  transform the same uniform/normal draws as JAX: under ``xnp.jit`` the results are
  JAX's bit for bit in float64 and complex128 (in float32, only ``cauchy`` and
  ``weibull_min``: see ``normal`` on float32 ``erf_inv``); eagerly NumPy's
  ``tan``/``log1p``/``pow``, xnp's ``erf_inv`` and LAPACK's QR make them differ from
  JAX's in the last bits;
* ``t``, ``loggamma``, ``generalized_normal`` and ``ball`` draw gamma values, and xnp's
  gamma sampler is its own (see :mod:`xnp.random._gamma`): the same distributions, not
  JAX's numbers. Gamma values carry no derivative with respect to their shape parameter,
  so neither do ``t``'s ``df`` nor the ``p`` of ``generalized_normal`` and ``ball``
  (JAX differentiates them through the implicit gamma gradient).
"""

from __future__ import annotations

import math
import operator
from typing import Any, Sequence

import numpy as np

import xnp
from transforms.core import concrete_or_error, get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap
from xnp.random._distributions import normal, rademacher
from xnp.random._gamma import _check_method, _gamma_v, _keys, _param_shape
from xnp.random._keys import (
    _canonical_shape,
    _check_shape,
    _convert,
    _float_dtype,
    _normal_real_v,
    _uniform_v,
    check_key,
)


def _check_safe_cast(name: str, dt: np.dtype, *args) -> None:
    """JAX's rule for parameters cast to the sample dtype: Python numbers (weakly typed
    values under jit too) and integer arrays always convert, inexact arrays (and NumPy
    scalars) only without losing precision; a ValueError naming ``name`` otherwise."""
    for arg in args:
        if type(arg) in (bool, int, float, complex):     # not np.float64 (a float subclass)
            continue
        aval = get_aval(raw(arg))
        if aval.weak_type:          # a Python number traced by jit: converts, as in JAX
            continue
        src = np.dtype(aval.dtype)
        if src.kind in "fc" and not np.can_cast(src, dt, "safe"):
            raise ValueError(f"In arguments to {name}, cannot safely cast argument of type "
                             f"{src.name} to {dt.name}")


def _param(x, dt: np.dtype, differentiable: bool = True):
    v = _convert(raw(xnp.asarray(x)), dt)
    return v if differentiable else raw(lax.stop_gradient(wrap(v)))


def _operand(x):
    """``x`` for arithmetic with the draws: Python numbers stay weakly typed (so they
    take the draws' dtype, as in JAX), anything else becomes an xnp array."""
    return x if isinstance(x, (bool, int, float, complex, ndarray)) else xnp.asarray(x)


def _static_dim(name: str, x, what: str) -> int:
    x = concrete_or_error(raw(x), f"The error occurred in xnp.random.{name}()")
    try:
        d = operator.index(x)
    except TypeError as e:
        raise TypeError(f"{name}: {what} must be an integer, got {x!r}") from e
    if d < 0:
        raise ValueError(f"{name}: {what} must be nonnegative, got {d}")
    return d


def cauchy(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Standard Cauchy random values (location 0, scale 1).

    Parameters
    ----------
    key : uint32 array of shape (2,)
        A PRNG key (see :func:`xnp.random.key`).
    shape : tuple of ints, optional
        The result shape. Default ``()``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray
        Values with density ``1 / (pi (1 + x**2))``.

    Notes
    -----
    JAX's algorithm: ``tan(pi (u - 1/2))`` for ``u`` uniform in ``[eps, 1)``; values agree
    with ``jax.random.cauchy``'s to rounding. NumPy's counterpart is
    ``standard_cauchy(size)``.
    """
    k = check_key("cauchy", key)
    dt = _float_dtype(dtype, "cauchy")
    u = _uniform_v(k, _canonical_shape(shape, "cauchy"), dt,
                   np.array(xnp.finfo(dt).eps, dt), np.array(1.0, dt))
    half, pi = np.array(0.5, dt), np.array(math.pi, dt)
    return wrap(lax.tan_p.bind(lax.mul_p.bind(pi, lax.sub_p.bind(u, half))))


def t(key: Any, df: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> ndarray:
    """Student's t random values with ``df`` degrees of freedom.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    df : array_like
        The degrees of freedom, positive; broadcasts to ``shape``. Inexact arrays must
        cast safely to ``dtype`` (ValueError otherwise, as in JAX).
    shape : tuple of ints, optional
        Default the shape of ``df``.
    dtype : float dtype, optional
        Default float64.

    Returns
    -------
    ndarray

    Notes
    -----
    JAX's algorithm: ``n * sqrt((df / 2) / g)`` for a standard normal ``n`` and a gamma
    value ``g`` of shape ``df / 2`` (the key split in two). The gamma values are xnp's,
    so the numbers differ from JAX's, and no derivative flows to ``df``. NumPy's
    counterpart is ``standard_t(df, size)``.
    """
    k = check_key("t", key)
    dt = _float_dtype(dtype, "t")
    _check_safe_cast("t", dt, df)
    dfv = _param(df, dt, differentiable=False)
    shape = _param_shape("t", shape, dfv)
    k_n, k_g = _keys(k, 2)
    n = wrap(_normal_real_v(k_n, shape, dt))
    half_df = wrap(dfv) / dt.type(2)
    g = wrap(_gamma_v(k_g, raw(half_df), shape, dt))
    return n * xnp.sqrt(half_df / g)


def loggamma(key: Any, a: Any, shape: Sequence[int] | None = None,
             dtype: Any = None, *, method: str = "exact") -> ndarray:
    """Logarithms of gamma random values with shape parameter ``a`` (scale 1).

    Parameters
    ----------
    key : uint32 array of shape (2,)
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
        ``exp`` of the result equals ``xnp.random.gamma(key, a, shape, dtype)`` to
        rounding.

    Notes
    -----
    The same draws as :func:`xnp.random.gamma` (Marsaglia and Tsang's method), combined
    in log space: for ``a < 1`` the boost ``u ** (1 / a)`` is added as ``log(u) / a``, so
    tiny values that underflow to 0 in ``gamma`` stay finite here (as in JAX). Not JAX's
    numbers; no derivative flows to ``a``.
    """
    k = check_key("loggamma", key)
    _check_method("loggamma", method)
    dt = _float_dtype(dtype, "loggamma")
    av = _param(a, dt)
    return wrap(_gamma_v(k, av, _param_shape("loggamma", shape, av), dt, log_space=True))


def _maxwell_v(k, shape: tuple, dt: np.dtype):
    z = wrap(_normal_real_v(k, (*shape, 3), dt))
    return xnp.linalg.norm(z, axis=-1)


def maxwell(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """One-sided Maxwell random values (density proportional to ``x**2 exp(-x**2 / 2)``
    on ``x >= 0``).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    shape : tuple of ints, optional
        The result shape. Default ``()``.
    dtype : float dtype, optional
        Default float64.

    Notes
    -----
    JAX's algorithm: the Euclidean norm of three standard normal values (drawn as one
    array of shape ``(*shape, 3)``); values agree with ``jax.random.maxwell``'s to
    rounding. Not in NumPy.
    """
    k = check_key("maxwell", key)
    dt = _float_dtype(dtype, "maxwell")
    return _maxwell_v(k, _canonical_shape(shape, "maxwell"), dt)


def double_sided_maxwell(key: Any, loc: Any, scale: Any, shape: Sequence[int] = (),
                         dtype: Any = None) -> ndarray:
    """Double-sided Maxwell random values: ``loc + scale * s * m`` for a random sign ``s``
    and a one-sided Maxwell value ``m``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    loc, scale : array_like
        Location and scale (may be traced and differentiated).
    shape : tuple of ints, optional
        Prepended to the broadcast shape of ``loc`` and ``scale``: the result has shape
        ``(*shape, *params_shape)``. As in JAX, an empty ``shape`` is first replaced by
        ``params_shape`` (so array parameters and ``shape=()`` give
        ``(*params_shape, *params_shape)``).
    dtype : float dtype, optional
        The dtype of the draws; default float64 (``loc`` and ``scale`` then promote with
        it).

    Notes
    -----
    JAX's algorithm (the key split into a Maxwell key and a :func:`rademacher` key);
    values agree with ``jax.random.double_sided_maxwell``'s to rounding. Not in NumPy.
    """
    k = check_key("double_sided_maxwell", key)
    dt = _float_dtype(dtype, "double_sided_maxwell")
    shape = _canonical_shape(shape, "double_sided_maxwell")
    loc, scale = _operand(loc), _operand(scale)
    try:
        params_shape = np.broadcast_shapes(xnp.shape(loc), xnp.shape(scale))
    except ValueError as e:
        raise ValueError(f"double_sided_maxwell: loc and scale (shapes {xnp.shape(loc)} "
                         f"and {xnp.shape(scale)}) do not broadcast together") from e
    shape = (*(shape or params_shape), *params_shape)
    k_m, k_r = _keys(k, 2)
    m = _maxwell_v(k_m, shape, dt)
    sign = rademacher(wrap(k_r), shape, dt)
    return sign * m * scale + loc


def weibull_min(key: Any, scale: Any, concentration: Any, shape: Sequence[int] = (),
                dtype: Any = None) -> ndarray:
    """Weibull random values (density proportional to
    ``x**(c - 1) exp(-(x / scale)**c)`` on ``x > 0``, ``c = concentration``).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    scale, concentration : array_like
        Positive parameters (may be traced and differentiated).
    shape : tuple of ints, optional
        The shape of the uniform draws, broadcast with the parameters' shapes to give the
        result's (a TypeError if they do not broadcast, as in JAX). Default ``()``.
    dtype : float dtype, optional
        The dtype of the draws; default float64 (the parameters promote with it).

    Notes
    -----
    JAX's algorithm, the inverse CDF ``scale * (-log1p(-u)) ** (1 / concentration)`` for
    ``u`` uniform in ``[0, 1)``; values agree with ``jax.random.weibull_min``'s to
    rounding. NumPy's ``weibull(a, size)`` is the case ``scale=1``.
    """
    k = check_key("weibull_min", key)
    dt = _float_dtype(dtype, "weibull_min")
    shape = _canonical_shape(shape, "weibull_min")
    scale, concentration = _operand(scale), _operand(concentration)
    shapes = (xnp.shape(scale), xnp.shape(concentration))
    try:
        np.broadcast_shapes(shape, *shapes)
    except ValueError as e:
        raise TypeError(f"weibull_min: shape argument {shape} and the shapes of scale "
                        f"{shapes[0]} and concentration {shapes[1]} do not broadcast "
                        f"together") from e
    u = wrap(_uniform_v(k, shape, dt, np.array(0.0, dt), np.array(1.0, dt)))
    return (-xnp.log1p(-u)) ** (1.0 / concentration) * scale


def _generalized_normal_v(k, p, shape: tuple, dt: np.dtype):
    pv = wrap(_param(p, dt, differentiable=False))
    _check_shape("generalized_normal", shape, pv.shape)
    k_g, k_r = _keys(k, 2)
    g = wrap(_gamma_v(k_g, raw(1 / pv), shape, dt))
    r = rademacher(wrap(k_r), shape, dt)
    return r * g ** (1 / pv), pv


def generalized_normal(key: Any, p: Any, shape: Sequence[int] = (),
                       dtype: Any = None) -> ndarray:
    """Generalized normal random values (density proportional to ``exp(-|x|**p)``).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    p : float or array_like
        The shape parameter, positive (broadcasting to ``shape``): 1 gives a Laplace,
        2 a normal of variance 1/2.
    shape : tuple of ints, optional
        The result shape. Default ``()``.
    dtype : float dtype, optional
        Default float64.

    Notes
    -----
    JAX's algorithm: ``s * g ** (1 / p)`` for a random sign ``s`` and a gamma value ``g``
    of shape ``1 / p`` (the key split in two). The gamma values are xnp's, so the numbers
    differ from JAX's, and no derivative flows to ``p``. Not in NumPy.
    """
    k = check_key("generalized_normal", key)
    dt = _float_dtype(dtype, "generalized_normal")
    return _generalized_normal_v(k, p, _canonical_shape(shape, "generalized_normal"),
                                 dt)[0]


def ball(key: Any, d: int, p: Any = 2, shape: Sequence[int] = (),
         dtype: Any = None) -> ndarray:
    """Random points uniformly distributed in the unit ``L**p`` ball of dimension ``d``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    d : int
        The dimension (static, nonnegative).
    p : float, optional
        The norm's order, positive. Default 2 (the Euclidean ball).
    shape : tuple of ints, optional
        The batch shape; the result has shape ``(*shape, d)``. Default ``()``.
    dtype : float dtype, optional
        Default float64.

    Notes
    -----
    JAX's algorithm (Barthe, Guedon, Mendelson and Naor, 2005): ``g / (sum |g|**p + e)
    ** (1 / p)`` for ``d`` generalized normal values ``g`` of order ``p`` and one
    standard exponential value ``e`` (the key split in two). Not JAX's numbers (see
    :func:`generalized_normal`); no derivative flows to ``p``. Not in NumPy.
    """
    k = check_key("ball", key)
    dt = _float_dtype(dtype, "ball")
    shape = _canonical_shape(shape, "ball")
    d = _static_dim("ball", d, "the dimension d")
    k_g, k_e = _keys(k, 2)
    g, pv = _generalized_normal_v(k_g, p, (*shape, d), dt)
    u = wrap(_uniform_v(k_e, shape, dt, np.array(0.0, dt), np.array(1.0, dt)))
    e = -xnp.log1p(-u)
    radius = (xnp.sum(xnp.abs(g) ** pv, axis=-1) + e) ** (1 / pv)
    return g / radius[..., None]


def orthogonal(key: Any, n: int, shape: Sequence[int] = (), dtype: Any = None,
               m: int | None = None) -> ndarray:
    """Random matrices uniformly distributed (Haar measure) on the orthogonal group
    ``O(n)``, or the unitary group ``U(n)`` for complex dtypes; semi-orthogonal
    ``n x m`` matrices when ``m`` is given.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    n : int
        The number of rows (static).
    shape : tuple of ints, optional
        The batch shape; the result has shape ``(*shape, n, m)``. Default ``()``.
    dtype : float or complex dtype, optional
        Default float64.
    m : int, optional
        The number of columns; default ``n``. With ``n <= m`` the rows are orthonormal,
        with ``m <= n`` the columns.

    Notes
    -----
    JAX's algorithm (Mezzadri, 2007): the QR decomposition of a standard normal matrix of
    shape ``(max(n, m), min(n, m))``, ``Q``'s columns multiplied by the signs of ``R``'s
    diagonal (transposed, not conjugated, when ``n < m``). Values agree with
    ``jax.random.orthogonal``'s to rounding. Not in NumPy.
    """
    k = check_key("orthogonal", key)
    shape = _canonical_shape(shape, "orthogonal")
    n = _static_dim("orthogonal", n, "n")
    m = n if m is None else _static_dim("orthogonal", m, "m")
    dt = np.dtype(float if dtype is None else dtype)
    if dt.kind not in "fc":
        raise ValueError(f"dtype argument to `orthogonal` must be a float or complex dtype, "
                         f"got {dt.name}")
    zshape = (*shape, max(n, m), min(n, m))
    z = normal(wrap(k), zshape, dt)
    q, r = xnp.linalg.qr(z)
    x = q * xnp.sign(xnp.diagonal(r, axis1=-2, axis2=-1))[..., None, :]
    return xnp.swapaxes(x, -1, -2) if n < m else x
