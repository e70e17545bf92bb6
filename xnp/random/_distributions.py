"""Samplers of the functional PRNG: ``uniform(key, shape, dtype, ...)`` and friends.

Each function takes an explicit key (see :mod:`xnp.random._keys`) and follows
``jax.random``'s signature and algorithm with ``jax_enable_x64`` (float64 and int64
defaults, as xnp's own). Agreement with JAX 0.10.2:

* bit for bit: ``bits``, ``uniform`` (default bounds), ``randint``, ``bernoulli``,
  ``rademacher``, ``permutation``, ``choice`` and ``categorical`` (the last two unless
  two perturbed logits or cumulative sums fall within a rounding error of each other);
* ``uniform`` with other bounds: XLA contracts ``u * (maxval - minval) + minval`` into a
  fused multiply-add, xnp does not, so rare values differ by one ulp;
* ``normal``, ``gumbel``, ``exponential``, ``laplace``, ``logistic``,
  ``truncated_normal``, ``multivariate_normal``: the same uniform numbers go through
  ``log``/``log1p``/``erf_inv``. Under ``xnp.jit`` these are XLA's, as JAX's, and the
  results are JAX's bit for bit (not float32 ``normal``, whose ``erf_inv`` xnp lowers in
  float64); eagerly NumPy's (and xnp's ``erf_inv``) give values a few ulps apart.

Shapes, dtypes and counts are static Python values; everything else may be traced: all
is built from xnp functions and ``xnp.lax`` primitives, so it works under ``jit``,
``vmap``, ``grad`` (e.g. with respect to ``minval``/``maxval`` or ``mean``/``cov``) and
control flow. Functions take one key: batch over keys with ``vmap``.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import xnp
from transforms.core import get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap
from xnp.random._keys import (
    _SQRT2,
    _canonical_shape,
    _check_shape,
    _convert,
    _float_dtype,
    _gumbel_v,
    _int_dtype,
    _normal_real_v,
    _normalize_axis,
    _randint_v,
    _shape_of,
    _shuffle_v,
    _uniform_v,
    check_key,
    split_v,
)


def uniform(key: Any, shape: Sequence[int] = (), dtype: Any = None, minval: Any = 0.0,
            maxval: Any = 1.0) -> ndarray:
    """Uniform random floats in ``[minval, maxval)``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
        A PRNG key (see :func:`xnp.random.key`).
    shape : tuple of ints, optional
        The result shape; ``minval`` and ``maxval`` broadcast to it. Default ``()``.
    dtype : float dtype, optional
        Default float64.
    minval, maxval : array_like, optional
        The bounds (may be traced and differentiated). Defaults 0 and 1.

    Notes
    -----
    JAX's algorithm and signature: the random bits fill the mantissa of a float in
    [1, 2), minus 1, scaled, clamped below at ``minval`` (see the module docstring on
    bitwise agreement). NumPy's ``uniform(low, high, size)`` is what
    ``xnp.random.uniform`` calls when its first argument is not a key.
    """
    k = check_key("uniform", key)
    dt = _float_dtype(dtype, "uniform")
    return wrap(_uniform_v(k, _canonical_shape(shape, "uniform"), dt, minval, maxval))


def normal(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Standard normal random values (complex dtypes: real and imaginary parts each
    with variance 1/2).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    shape : tuple of ints, optional
    dtype : float or complex dtype, optional
        Default float64.

    Notes
    -----
    JAX's algorithm, ``sqrt(2) * erf_inv(u)`` with ``u`` uniform in ``(-1, 1)`` (JAX's
    ``u``); eagerly xnp's ``erf_inv`` makes values differ from JAX's in the last bits.
    No ``loc``/``scale``: NumPy's ``normal(loc, scale, size)`` is what
    ``xnp.random.normal`` calls without a key.
    """
    k = check_key("normal", key)
    shape = _canonical_shape(shape, "normal")
    dt = np.dtype(float if dtype is None else dtype)
    if dt.kind == "c":
        real = np.dtype(f"f{dt.itemsize // 2}")
        keys = split_v(k, (2,))
        re, im = (_convert(_normal_real_v(wrap(keys)[i]._value, shape, real), dt)
                  for i in (0, 1))
        z = lax.add_p.bind(re, lax.mul_p.bind(np.array(1j, dt), im))
        return wrap(lax.div_p.bind(z, np.array(_SQRT2, dt)))
    return wrap(_normal_real_v(k, shape, _float_dtype(dt, "normal")))


def truncated_normal(key: Any, lower: Any, upper: Any, shape: Sequence[int] | None = None,
                     dtype: Any = None) -> ndarray:
    """Standard normal values truncated to the open interval ``(lower, upper)``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    lower, upper : array_like
        The bounds (broadcast together; default shape their broadcast shape).
    shape : tuple of ints, optional
    dtype : float dtype, optional
        Default float64.

    Notes
    -----
    JAX's algorithm (inverse CDF through ``erf``/``erf_inv``, clamped inside the
    interval); xnp's ``erf``/``erf_inv`` differ from XLA's in the last bits, so values
    match JAX's to rounding. Derivatives with respect to the bounds flow through the
    inverse CDF (the clamp bounds carry none, as in JAX). Not in NumPy.
    """
    k = check_key("truncated_normal", key)
    dt = _float_dtype(dtype, "truncated_normal")
    lo, hi = _convert(raw(lower), dt), _convert(raw(upper), dt)
    if shape is None:
        shape = np.broadcast_shapes(_shape_of(lo), _shape_of(hi))
    else:
        shape = _canonical_shape(shape, "truncated_normal")
        _check_shape("truncated_normal", shape, _shape_of(lo), _shape_of(hi))
    s2 = np.array(_SQRT2, dt)
    a = lax.erf_p.bind(lax.div_p.bind(lo, s2))
    b = lax.erf_p.bind(lax.div_p.bind(hi, s2))
    u = _uniform_v(k, shape, dt, a, b)
    out = lax.mul_p.bind(s2, lax.erf_inv_p.bind(u))
    floor = lax.nextafter_p.bind(raw(lax.stop_gradient(wrap(lo))), np.array(np.inf, dt))
    ceil = lax.nextafter_p.bind(raw(lax.stop_gradient(wrap(hi))), np.array(-np.inf, dt))
    return wrap(lax.min_p.bind(lax.max_p.bind(out, floor), ceil))


def exponential(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Standard exponential random values (rate 1): ``-log1p(-u)``.

    Notes
    -----
    JAX's algorithm and signature (default dtype float64; see the module docstring on
    bitwise agreement). NumPy's ``exponential(scale, size)`` is what
    ``xnp.random.exponential`` calls without a key.
    """
    k = check_key("exponential", key)
    dt = _float_dtype(dtype, "exponential")
    u = _uniform_v(k, _canonical_shape(shape, "exponential"), dt, 0.0, 1.0)
    return wrap(lax.neg_p.bind(lax.log1p_p.bind(lax.neg_p.bind(u))))


def gumbel(key: Any, shape: Sequence[int] = (), dtype: Any = None,
           mode: str | None = None) -> ndarray:
    """Standard Gumbel random values: ``-log(-log(u))``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    shape : tuple of ints, optional
    dtype : float dtype, optional
        Default float64.
    mode : {"low", "high", "highest"}, optional
        ``"high"`` uses two uniforms per value for a wider range (default ``"low"``);
        ``"highest"`` is ``"high"`` except for float32, where one 64-bit fixed-point
        uniform is used, as in JAX.

    Notes
    -----
    JAX's algorithm and signature (see the module docstring on bitwise agreement).
    NumPy's ``gumbel(loc, scale, size)`` is what ``xnp.random.gumbel`` calls without a
    key.
    """
    k = check_key("gumbel", key)
    dt = _float_dtype(dtype, "gumbel")
    return wrap(_gumbel_v(k, _canonical_shape(shape, "gumbel"), dt, mode or "low"))


def laplace(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Standard Laplace random values (location 0, scale 1).

    Notes
    -----
    JAX's algorithm, ``sign(u) * log1p(-|u|)`` for ``u`` uniform in ``(-1, 1)``, and
    signature (default dtype float64). NumPy's ``laplace(loc, scale, size)`` is what
    ``xnp.random.laplace`` calls without a key.
    """
    k = check_key("laplace", key)
    dt = _float_dtype(dtype, "laplace")
    lo = np.array(-1.0 + float(xnp.finfo(dt).epsneg), dt)
    u = _uniform_v(k, _canonical_shape(shape, "laplace"), dt, lo, np.array(1.0, dt))
    return wrap(lax.mul_p.bind(lax.sign_p.bind(u), lax.log1p_p.bind(
        lax.neg_p.bind(lax.abs_p.bind(u)))))


def logistic(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Standard logistic random values: ``log(u) - log1p(-u)``.

    Notes
    -----
    JAX's algorithm and signature (default dtype float64). NumPy's
    ``logistic(loc, scale, size)`` is what ``xnp.random.logistic`` calls without a key.
    """
    k = check_key("logistic", key)
    dt = _float_dtype(dtype, "logistic")
    x = _uniform_v(k, _canonical_shape(shape, "logistic"), dt,
                   np.array(xnp.finfo(dt).tiny, dt), np.array(1.0, dt))
    return wrap(lax.sub_p.bind(lax.log_p.bind(x), lax.log1p_p.bind(lax.neg_p.bind(x))))


def multivariate_normal(key: Any, mean: Any, cov: Any, shape: Sequence[int] | None = None,
                        dtype: Any = None, method: str = "cholesky") -> ndarray:
    """Multivariate normal values: ``mean + factor @ z``, ``cov = factor @ factor.T``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    mean : array_like, shape (..., n)
    cov : array_like, shape (..., n, n)
    shape : tuple of ints, optional
        The batch shape (the result is ``(*shape, n)``); default the broadcast of
        ``mean.shape[:-1]`` and ``cov.shape[:-2]``.
    dtype : float dtype, optional
        Default the (inexact) dtype of ``mean`` and ``cov``.
    method : {"cholesky", "eigh", "svd"}
        How ``cov`` is factored.

    Notes
    -----
    JAX's signature and algorithm; the normal draws ``z`` are JAX's, but the
    factorisation and the product are xnp's (NumPy's LAPACK eagerly), so results agree
    with JAX's to rounding. Differs from NumPy's ``multivariate_normal(mean, cov, size)``,
    which ``xnp.random.multivariate_normal`` calls without a key.
    """
    k = check_key("multivariate_normal", key)
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    mean, cov = xnp.asarray(mean), xnp.asarray(cov)
    common = xnp.result_type(mean.dtype, cov.dtype, 1.0)
    mean, cov = mean.astype(common), cov.astype(common)
    dt = common if dtype is None else _float_dtype(dtype, "multivariate_normal")
    n = mean.shape[-1] if mean.ndim else -1
    if n < 0 or cov.ndim < 2 or cov.shape[-2:] != (n, n):
        raise ValueError(f"multivariate_normal requires mean.shape == (..., n) and "
                         f"cov.shape == (..., n, n), got {mean.shape} and {cov.shape}")
    if shape is None:
        shape = np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2])
    else:
        shape = _canonical_shape(shape, "multivariate_normal")
        _check_shape("multivariate_normal", shape, mean.shape[:-1], cov.shape[:-2])
    if method == "svd":
        u, s, _ = xnp.linalg.svd(cov)
        factor = u * xnp.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = xnp.linalg.eigh(cov)
        factor = v * xnp.sqrt(w[..., None, :])
    else:
        factor = xnp.linalg.cholesky(cov)
    z = wrap(_normal_real_v(k, (*shape, n), dt))
    return mean + xnp.einsum("...ij,...j->...i", factor, z)


# --- discrete distributions ------------------------------------------------------------------
def randint(key: Any, shape: Sequence[int], minval: Any, maxval: Any,
            dtype: Any = None) -> ndarray:
    """Uniform random integers in ``[minval, maxval)``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    shape : tuple of ints
        The result shape; ``minval``/``maxval`` must broadcast to exactly this shape.
    minval, maxval : int or integer array_like
        Bounds; ``maxval <= minval`` gives ``minval``. Bounds outside the dtype's range
        are clipped to it (``maxval`` may exceed the largest value by one).
    dtype : integer dtype, optional
        Default int64.

    Notes
    -----
    JAX's signature and algorithm (two words of random bits reduced modulo the span, so
    slightly biased unless the span is a power of 2), bit for bit equal to
    ``jax.random.randint``. NumPy's ``randint(low, high, size)`` is what
    ``xnp.random.randint`` calls when its first argument is not a key.
    """
    k = check_key("randint", key)
    dt = _int_dtype(dtype, "randint")
    shape = _canonical_shape(shape, "randint")
    info = np.iinfo(dt)
    if info.bits < 32:
        lo = xnp.clip(xnp.asarray(minval).astype(np.int32), int(info.min), int(info.max))
        hi = xnp.clip(xnp.asarray(maxval).astype(np.int32), int(info.min), int(info.max) + 1)
        out = _randint_v(k, shape, raw(lo), raw(hi), np.dtype(np.int32))
        return wrap(_convert(out, dt))
    return wrap(_randint_v(k, shape, minval, maxval, dt))


def bernoulli(key: Any, p: Any = 0.5, shape: Sequence[int] | None = None,
              mode: str = "low") -> ndarray:
    """Boolean random values, True with probability ``p``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    p : float or float array_like, optional
        The probabilities (its float dtype sets the uniform draws'). Default 0.5.
    shape : tuple of ints, optional
        Default ``p``'s shape; ``p`` must broadcast to it.
    mode : {"low", "high"}
        ``"high"`` adds a second uniform for resolution at tiny ``p``.

    Notes
    -----
    ``uniform(key, shape, p.dtype) < p``, bit for bit JAX's. Not in NumPy.
    """
    k = check_key("bernoulli", key)
    if mode not in ("low", "high"):
        raise ValueError(f"got invalid mode {mode!r} for bernoulli (expected 'low' or "
                         f"'high')")
    pv = raw(p)
    dt = np.dtype(float) if isinstance(pv, float) else np.dtype(get_aval(pv).dtype)
    if not xnp.issubdtype(dt, xnp.floating):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got "
                        f"{dt.name}.")
    pv = _convert(pv, dt)
    if shape is None:
        shape = _shape_of(pv)
    else:
        shape = _canonical_shape(shape, "bernoulli")
        _check_shape("bernoulli", shape, _shape_of(pv))
    if mode == "high":
        both = _uniform_v(k, (2, *shape), dt, 0.0, 1.0)
        u1, u2 = (wrap(both)[i]._value for i in (0, 1))
        u2 = lax.mul_p.bind(u2, np.array(2.0 ** -xnp.finfo(dt).nmant, dt))
        return wrap(lax.lt_p.bind(u2, lax.sub_p.bind(pv, u1)))
    return wrap(lax.lt_p.bind(_uniform_v(k, shape, dt, 0.0, 1.0), pv))


def rademacher(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Random signs: -1 or +1 with equal probability (default dtype int64).

    Notes
    -----
    ``2 * bernoulli(key, 0.5, shape) - 1``, bit for bit JAX's. Not in NumPy.
    """
    dt = np.dtype(int if dtype is None else dtype)
    b = raw(bernoulli(key, 0.5, _canonical_shape(shape, "rademacher")))
    b = _convert(b, dt)
    return wrap(_convert(lax.sub_p.bind(lax.mul_p.bind(dt.type(2), b), dt.type(1)), dt))


# --- permutations and choices ----------------------------------------------------------------
def permutation(key: Any, x: Any, axis: int = 0, independent: bool = False) -> ndarray:
    """A random permutation of ``arange(x)`` (integer ``x``) or of an array along ``axis``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    x : int or array_like
        An integer (static) or an array of at least one dimension.
    axis : int, optional
        The axis to permute along. Default 0.
    independent : bool, optional
        Permute every slice along ``axis`` independently. Default False (one
        permutation of the whole sub-arrays).

    Notes
    -----
    JAX's algorithm (repeated stable sorts by random keys), bit for bit
    ``jax.random.permutation``. NumPy's ``permutation(x)`` (global state) is what
    ``xnp.random.permutation`` calls when its first argument is not a key.
    """
    k = check_key("permutation", key)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        _normalize_axis(axis, 1)        # arange(x) has one axis: others raise, as in JAX
        return wrap(_shuffle_v(k, raw(xnp.arange(int(x))), 0))
    v = raw(xnp.asarray(x))
    a = get_aval(v)
    if not a.shape:
        if a.dtype.kind not in "iu":
            raise TypeError("x must be an integer or at least 1-dimensional")
        from transforms.core import concrete_or_error
        n = int(concrete_or_error(v, "the argument x of xnp.random.permutation()"))
        _normalize_axis(axis, 1)
        return wrap(_shuffle_v(k, raw(xnp.arange(n)), 0))
    axis = _normalize_axis(axis, len(a.shape))
    if independent or len(a.shape) == 1:
        return wrap(_shuffle_v(k, v, axis))
    ind = _shuffle_v(k, raw(xnp.arange(a.shape[axis])), 0)
    return xnp.take(wrap(v), wrap(ind), axis=axis)


def choice(key: Any, a: Any, shape: Sequence[int] = (), replace: bool = True,
           p: Any = None, axis: int = 0, mode: str | None = None) -> ndarray:
    """A random sample of ``arange(a)`` (integer ``a``) or of ``a``'s entries along ``axis``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    a : int or array_like
    shape : tuple of ints, optional
        The sample shape (replaces ``axis`` in the result). Default ``()``.
    replace : bool, optional
        With replacement (default) or without.
    p : 1-d array_like, optional
        Probabilities of the entries (need not be normalised).
    axis : int, optional
    mode : {"low", "high", "highest"}, optional
        The Gumbel mode for ``p`` without replacement.

    Notes
    -----
    JAX's signature and algorithm: ``randint`` indices, a ``permutation`` prefix
    (without replacement), inverse-CDF search over ``cumsum(p)`` or Gumbel top-k (with
    ``p``); JAX's results. NumPy's ``choice(a, size, replace, p)`` is what ``xnp.random.choice``
    calls when its first argument is not a key.
    """
    k = check_key("choice", key)
    if not isinstance(shape, Sequence):
        raise TypeError(f"shape argument of xnp.random.choice must be a sequence, got "
                        f"{shape}")
    shape = _canonical_shape(shape, "choice")
    arr = xnp.asarray(a)
    if arr.ndim == 0:
        from transforms.core import concrete_or_error
        n_inputs = int(concrete_or_error(raw(arr), "the argument a of xnp.random.choice()"))
    else:
        axis = _normalize_axis(axis, arr.ndim)
        n_inputs = arr.shape[axis]
    n_draws = math.prod(shape)
    if n_draws == 0:
        return xnp.zeros(shape, dtype=arr.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(f"Cannot take a larger sample (size {n_draws}) than population "
                         f"(size {n_inputs}) when 'replace=False'")
    if p is None:
        if replace:
            ind = wrap(_randint_v(k, shape, 0, n_inputs, np.dtype(int)))
            result = ind if arr.ndim == 0 else xnp.take(arr, ind, axis=axis)
        else:
            perm = permutation(k, n_inputs if arr.ndim == 0 else arr, axis)
            result = perm[(slice(None),) * (axis if arr.ndim else 0) + (slice(n_draws),)]
    else:
        pa = xnp.asarray(p)
        if pa.dtype.kind not in "fc":
            pa = pa.astype(float)
        if pa.shape != (n_inputs,):
            raise ValueError(f"p must be None or a 1D vector with the same size as "
                             f"a.shape[axis]. p has shape {pa.shape} and a.shape[axis] is "
                             f"{n_inputs}.")
        if replace:
            cum = xnp.cumsum(pa)
            u = wrap(_uniform_v(k, shape, np.dtype(cum.dtype), 0.0, 1.0))
            r = cum[-1] * (1 - u)
            ind = xnp.searchsorted(cum, r).astype(int)
        else:
            g = wrap(_gumbel_v(k, (n_inputs,), np.dtype(pa.dtype), mode or "low"))
            g = g + xnp.log(pa)
            ind = wrap(lax.top_k_p.bind(raw(g), k=n_draws)[1]).astype(int)
        result = ind if arr.ndim == 0 else xnp.take(arr, ind, axis=axis)
    out_shape = shape if arr.ndim == 0 else (*arr.shape[:axis], *shape,
                                             *arr.shape[axis + 1:])
    return result.reshape(out_shape)


def categorical(key: Any, logits: Any, axis: int = -1, shape: Sequence[int] | None = None,
                replace: bool = True, mode: str | None = None) -> ndarray:
    """Random category indices, with probabilities ``softmax(logits, axis)``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    logits : array_like
        Unnormalised log probabilities along ``axis``.
    axis : int, optional
        The category axis. Default -1.
    shape : tuple of ints, optional
        The result shape: a prefix of sample dimensions, then the batch shape
        (``logits.shape`` without ``axis``), which it must end with. Default the batch
        shape.
    replace : bool, optional
        Without replacement (Gumbel top-k) the sample dimensions hold distinct indices.
    mode : {"low", "high", "highest"}, optional
        The Gumbel sampler's mode.

    Notes
    -----
    JAX's algorithm (Gumbel max and top-k tricks) and result dtypes (int64 with
    replacement, int32 without). The indices equal JAX's unless two perturbed logits
    fall within a rounding error of each other. Not in NumPy.
    """
    k = check_key("categorical", key)
    lg = xnp.asarray(logits)
    nd = lg.ndim
    ax = _normalize_axis(axis, nd)
    batch_shape = tuple(d for i, d in enumerate(lg.shape) if i != ax)
    if shape is None:
        shape = batch_shape
    else:
        shape = _canonical_shape(shape, "categorical")
        _check_shape("categorical", shape, batch_shape)
    prefix = shape[:len(shape) - len(batch_shape)]
    mode = mode or "low"
    dt = np.dtype(lg.dtype)
    if replace:
        lshape = list(shape[len(shape) - len(batch_shape):])
        lshape.insert(ax, lg.shape[ax])
        g = wrap(_gumbel_v(k, (*prefix, *lshape), dt, mode))
        return xnp.argmax(g + lg.reshape((1,) * len(prefix) + lg.shape),
                          axis=ax + len(prefix))
    lg = lg + wrap(_gumbel_v(k, lg.shape, dt, mode))
    n_samples = math.prod(prefix)
    if n_samples > lg.shape[ax]:
        raise ValueError(f"Number of samples without replacement ({n_samples}) cannot "
                         f"exceed number of categories ({lg.shape[ax]}).")
    idx = wrap(lax.top_k_p.bind(raw(xnp.moveaxis(lg, ax, -1)), k=n_samples)[1])
    idx = xnp.moveaxis(idx, -1, 0)
    return idx.reshape(shape)
