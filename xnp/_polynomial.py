"""NumPy's legacy polynomial functions (coefficients highest power first): polyval,
polyfit, roots, poly, polyder, polyint, polyadd, polysub, polymul, and vander.

Built from xnp functions, so polyval, polyfit (least squares through the pseudo-
inverse), polyder and friends differentiate; ``roots`` strips zero coefficients, which
needs concrete values, and returns complex roots (NumPy returns real ones when all are).
"""

from __future__ import annotations

import operator

import numpy as np

import xnp
from transforms.core import concrete_or_error
from xnp._array import ndarray

__all__ = ["polyval", "polyfit", "roots", "poly", "polyder", "polyint", "polyadd",
           "polysub", "polymul", "vander"]


def polyval(p, x) -> ndarray:
    """``p[0] * x**(n-1) + ... + p[n-1]`` by Horner's rule, as :func:`numpy.polyval`."""
    p, x = xnp.asarray(p), xnp.asarray(x)
    y = xnp.zeros_like(x) if p.shape[0] == 0 else None
    for c in p:
        y = c + xnp.zeros_like(x) if y is None else y * x + c
    return y


def vander(x, N=None, increasing: bool = False) -> ndarray:
    """The Vandermonde matrix of ``x`` (decreasing powers unless ``increasing``), as
    :func:`numpy.vander`."""
    x = xnp.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else operator.index(N)
    powers = range(n) if increasing else range(n - 1, -1, -1)
    cols = [x ** k for k in powers]
    if not cols:
        return xnp.zeros((x.shape[0], 0), np.result_type(x.dtype, np.int64))
    return xnp.stack(cols, axis=1)


def polyfit(x, y, deg, rcond=None, full: bool = False, w=None, cov=False):
    """Least-squares polynomial fit, as :func:`numpy.polyfit` (``full`` and ``cov`` are
    not supported)."""
    if full or cov:
        raise NotImplementedError("polyfit: full=True and cov=True are not supported")
    deg = operator.index(deg)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    x, y = xnp.asarray(x, dtype=float), xnp.asarray(y, dtype=float)
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim not in (1, 2):
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    lhs = vander(x, deg + 1)
    rhs = y
    if w is not None:
        w = xnp.asarray(w, dtype=float)
        lhs = lhs * w[:, None]
        rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
    scale = xnp.sqrt(xnp.sum(lhs * lhs, axis=0))
    coef = xnp.matmul(xnp.linalg.pinv(lhs / scale, rcond=rcond if rcond is not None
                                      else x.shape[0] * np.finfo(float).eps), rhs)
    return (coef.T / scale).T


def roots(p) -> ndarray:
    """The roots of the polynomial ``p`` (eigenvalues of its companion matrix), as
    :func:`numpy.roots`; always complex."""
    p = xnp.atleast_1d(xnp.asarray(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nonzero = np.flatnonzero(concrete_or_error(p._value, "roots' coefficients"))
    if nonzero.size == 0:
        return xnp.zeros(0, complex)
    trailing = p.shape[0] - nonzero[-1] - 1
    p = p[int(nonzero[0]):int(nonzero[-1]) + 1]
    n = p.shape[0]
    if n > 1:
        companion = xnp.zeros((n - 1, n - 1), p.dtype if p.dtype.kind in "fc" else float)
        companion[0, :] = -p[1:] / p[0]
        if n > 2:
            companion[xnp.arange(1, n - 1), xnp.arange(0, n - 2)] = 1
        r = xnp.linalg.eigvals(companion)
    else:
        r = xnp.zeros(0, complex)
    return xnp.concatenate([r, xnp.zeros(int(trailing), r.dtype)])


def poly(seq_of_zeros) -> ndarray:
    """The coefficients of the polynomial with the given roots (or of a square matrix's
    characteristic polynomial), as :func:`numpy.poly`."""
    z = xnp.asarray(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0]:
        z = xnp.linalg.eigvals(z)
    elif z.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    a = xnp.ones(1, z.dtype if z.dtype.kind in "fc" else float)
    for r in z:
        a = xnp.convolve(a, xnp.stack([xnp.ones((), a.dtype), -r]))
    return a


def polyder(p, m: int = 1) -> ndarray:
    """The ``m``-th derivative's coefficients, as :func:`numpy.polyder`."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = xnp.asarray(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * xnp.arange(n, 0, -1)      # a constant's derivative is empty (NumPy)
    return p


def polyint(p, m: int = 1, k=None) -> ndarray:
    """The ``m``-th antiderivative's coefficients (integration constants ``k``), as
    :func:`numpy.polyint`."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = [0.0] * m if k is None else list(np.atleast_1d(k)) * (m if np.ndim(k) == 0 else 1)
    if len(ks) != m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or m.")
    p = xnp.asarray(p)
    for c in ks:
        n = p.shape[0]
        q = p / xnp.arange(n, 0, -1)
        p = xnp.concatenate([q, xnp.asarray([c], q.dtype)])
    return p


def _pad_front(a, n):
    return xnp.concatenate([xnp.zeros(n - a.shape[0], a.dtype), a]) if a.shape[0] < n else a


def polyadd(a1, a2) -> ndarray:
    """The sum of two polynomials, as :func:`numpy.polyadd`."""
    a1, a2 = xnp.atleast_1d(a1), xnp.atleast_1d(a2)
    n = max(a1.shape[0], a2.shape[0])
    return _pad_front(a1, n) + _pad_front(a2, n)


def polysub(a1, a2) -> ndarray:
    """The difference of two polynomials, as :func:`numpy.polysub`."""
    a1, a2 = xnp.atleast_1d(a1), xnp.atleast_1d(a2)
    n = max(a1.shape[0], a2.shape[0])
    return _pad_front(a1, n) - _pad_front(a2, n)


def polymul(a1, a2) -> ndarray:
    """The product of two polynomials (a convolution), as :func:`numpy.polymul`, which
    first strips leading zero coefficients: the result's length depends on the values,
    so they must be concrete (under grad they are; under jit use ``xnp.convolve``)."""
    return xnp.convolve(_trimmed(a1), _trimmed(a2))


def _trimmed(a):
    a = xnp.atleast_1d(a)
    nonzero = np.flatnonzero(concrete_or_error(a._value, "polymul's leading zeros"))
    return a[int(nonzero[0]):] if nonzero.size else a[-1:]
