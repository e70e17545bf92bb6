"""NumPy's legacy polynomial functions (coefficients highest power first): polyval,
polyfit, roots, poly, polyder, polyint, polyadd, polysub, polymul, and vander.

Built from xnp functions, so polyval, polyfit (least squares through the pseudo-
inverse), polyder and friends differentiate. Functions whose result shape or dtype
depends on the values (``roots``, ``polymul``'s zero stripping, ``poly``'s realness,
``polyfit(full=True)``) need concrete values: they work eagerly and under ``grad`` and
raise ConcretizationTypeError under ``jit``/``vmap``. As in NumPy, polyder, polyint,
polyadd, polysub and polymul return a :class:`xnp.poly1d` when an argument is one, and
``polyval(p, x)`` of a poly1d ``x`` is the composed poly1d.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

import xnp
from transforms.core import ConcretizationTypeError, concrete_or_error, is_eager
from xnp._array import ndarray

__all__ = ["polyval", "polyfit", "roots", "poly", "polyder", "polyint", "polyadd",
           "polysub", "polymul", "vander"]


def polyval(p, x) -> ndarray:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by Horner's
    rule, as :func:`numpy.polyval`: ``p[0] * x**(n-1) + ... + p[n-1]``, starting from
    ``zeros_like(x)`` so dtypes (and infinities) follow NumPy. ``p`` may be 2-d (its
    rows are the coefficients, broadcast against ``x``). Differentiable in ``p`` and
    ``x``. A :class:`xnp.poly1d` ``x`` gives the composition ``p(x)``, a poly1d.
    """
    p = xnp.asarray(_coeffs(p))
    if _is_poly1d(x):
        y = 0
    elif type(x).__module__.startswith("xnp.ma."):       # masked x: the result keeps its mask
        from xnp.ma import masked_array
        y = masked_array(xnp.zeros_like(x.data))
    else:
        x = xnp.asarray(x)
        y = xnp.zeros_like(x)
    for c in p:
        y = y * x + c
    return y


def vander(x, N=None, increasing: bool = False) -> ndarray:
    """The Vandermonde matrix of the 1-d ``x``: columns ``x**(N-1), ..., x**0`` (or
    increasing powers), as :func:`numpy.vander`. Its dtype promotes ``x``'s with int64
    (float32 input gives float64), as NumPy's does. Differentiable in ``x``."""
    x = xnp.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else operator.index(N)
    dtype = np.promote_types(x.dtype, np.int64)     # numpy: float32 input -> float64
    x = x.astype(dtype, copy=False)
    powers = range(n) if increasing else range(n - 1, -1, -1)
    cols = [x ** k for k in powers]
    if not cols:
        return xnp.zeros((x.shape[0], 0), dtype)
    return xnp.stack(cols, axis=1)


def polyfit(x, y, deg, rcond=None, full: bool = False, w=None, cov=False):
    """Least-squares polynomial fit, as :func:`numpy.polyfit`.

    Fits ``p[0] * x**deg + ... + p[deg]`` to the points ``(x, y)`` (``y`` may be 2-d:
    one fit per column), optionally weighted by ``w``. Returns the coefficients,
    highest power first; with ``full=True`` also the residuals, rank, singular values
    and ``rcond`` (via ``xnp.linalg.lstsq``); with ``cov=True`` (or ``'unscaled'``) also
    the coefficients' covariance matrix.

    The default path solves through the pseudo-inverse of the scaled Vandermonde
    matrix, so it differentiates and traces; ``full``/``cov`` and the RankWarning NumPy
    emits for rank-deficient fits need the rank, hence concrete values (the warning is
    skipped under transformations).
    """
    order = operator.index(deg) + 1
    x = xnp.asarray(x) + 0.0
    y = xnp.asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = xnp.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = xnp.sqrt(xnp.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    if full or cov or is_eager():       # eagerly one LAPACK least-squares call, as NumPy
        c, resids, rank, s = xnp.linalg.lstsq(lhs, rhs, rcond)
        rank = int(concrete_or_error(rank, "polyfit's rank"))
    else:
        c = xnp.matmul(xnp.linalg.pinv(lhs, rcond=rcond), rhs)
        try:
            rank = int(concrete_or_error(xnp.linalg.matrix_rank(
                lhs, tol=xnp.max(xnp.linalg.svdvals(lhs)) * rcond)))
        except ConcretizationTypeError:
            rank = order
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, np.int32(rank), s, rcond
    if cov:
        vbase = xnp.linalg.inv(xnp.matmul(lhs.T, lhs)) / xnp.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale "
                                 "the covariance matrix")
            fac = resids / (x.shape[0] - order)
        return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)
    return c


def roots(p) -> ndarray:
    """The roots of the polynomial with coefficients ``p`` (highest power first), as
    :func:`numpy.roots`: the eigenvalues of its companion matrix, after stripping
    leading and trailing zero coefficients (each trailing zero is a root at 0).

    The result is real when every root is (exactly) real and complex otherwise, as in
    NumPy; both this and the stripping depend on the values, so ``p`` must be concrete
    (ConcretizationTypeError under ``jit``/``vmap``).
    """
    p = xnp.atleast_1d(xnp.asarray(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nonzero = np.flatnonzero(concrete_or_error(p, "roots' coefficients"))
    if nonzero.size == 0:
        return xnp.zeros(0)
    trailing = p.shape[0] - int(nonzero[-1]) - 1
    p = p[int(nonzero[0]):int(nonzero[-1]) + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(float)
    n = p.shape[0]
    if n > 1:
        companion = xnp.zeros((n - 1, n - 1), p.dtype)
        companion[0, :] = -p[1:] / p[0]
        if n > 2:
            companion[xnp.arange(1, n - 1), xnp.arange(0, n - 2)] = 1
        r = xnp.linalg.eigvals(companion)
        if p.dtype.kind != "c" and bool(concrete_or_error(
                xnp.all(xnp.imag(r) == 0), "roots' realness (its dtype)")):
            r = xnp.real(r)
    else:
        r = xnp.zeros(0)
    return xnp.concatenate([r, xnp.zeros(trailing, r.dtype)])


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots (or of a square
    matrix's characteristic polynomial), as :func:`numpy.poly`. No roots give the
    Python float ``1.0``, as in NumPy. A complex result whose roots come in conjugate
    pairs is returned real, which needs concrete values.
    """
    z = xnp.atleast_1d(xnp.asarray(seq_of_zeros))
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0]:
        z = xnp.linalg.eigvals(z)
        if z.dtype.kind == "c" and bool(concrete_or_error(xnp.all(xnp.imag(z) == 0),
                                                           "poly's eigenvalues")):
            z = xnp.real(z)         # numpy's eigvals is real when all eigenvalues are
    elif z.ndim == 1:
        if z.dtype.kind not in "fc" or z.dtype == np.float16:
            z = z.astype(float)     # numpy's mintypecode: float32/complex kept
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    a = xnp.ones(1, z.dtype)
    for r in z:
        a = xnp.convolve(a, xnp.stack([xnp.ones((), z.dtype), -r]))
    if a.dtype.kind == "c":
        zc = concrete_or_error(z, "poly's roots (whether they are conjugate pairs)")
        zc = np.asarray(zc, complex)
        if np.all(np.sort(zc) == np.sort(zc.conjugate())):
            a = xnp.real(a)
    return a


def polyder(p, m: int = 1) -> ndarray:
    """The coefficients of the ``m``-th derivative of the polynomial ``p``, as
    :func:`numpy.polyder`. The derivative of a constant is an empty array, as in NumPy.
    Raises ValueError for ``m < 0``. Differentiable in ``p``; a poly1d ``p`` gives a
    poly1d.
    """
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    as_poly = _is_poly1d(p)
    p = _vector(_coeffs(p))
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * xnp.arange(n, 0, -1)      # a constant's derivative is empty (NumPy)
    return _poly1d_if(as_poly, p)


def polyint(p, m: int = 1, k=None) -> ndarray:
    """The coefficients of the ``m``-th antiderivative of ``p``, as
    :func:`numpy.polyint`.

    ``k`` holds the integration constants, the first used by the first integration
    (a scalar or a length-1 sequence is repeated ``m`` times; default zeros). Raises
    ValueError for ``m < 0`` or too few constants. Differentiable in ``p``; ``k`` must
    be concrete numbers here. A poly1d ``p`` gives a poly1d.
    """
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = [0.0] * m if k is None else list(np.atleast_1d(k))
    if len(ks) == 1 and m > 1:
        ks = ks * m
    if len(ks) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    as_poly = _is_poly1d(p)
    p = _vector(_coeffs(p))
    for c in ks[:m]:
        n = p.shape[0]
        q = p / xnp.arange(n, 0, -1)
        p = xnp.concatenate([q, xnp.asarray([c], q.dtype)])
    return _poly1d_if(as_poly, p)


def _is_poly1d(*ps) -> bool:
    from xnp._poly1d import poly1d
    return any(isinstance(p, poly1d) for p in ps)


def _coeffs(p):
    """A poly1d's coefficient array; anything else unchanged."""
    return p.coeffs if _is_poly1d(p) else p


def _poly1d_if(as_poly: bool, c):
    """``poly1d(c)`` when an argument was a poly1d (NumPy's ``truepoly``), else ``c``."""
    if not as_poly:
        return c
    from xnp._poly1d import poly1d
    return poly1d(c)


def _vector(p):
    p = xnp.asarray(p)
    if p.ndim == 0:
        raise TypeError("len() of unsized object")
    return p


def _pad_front(a, n):
    return xnp.concatenate([xnp.zeros(n - a.shape[0], a.dtype), a]) if a.shape[0] < n else a


def polyadd(a1, a2) -> ndarray:
    """The sum of two polynomials (the shorter padded with leading zeros), as
    :func:`numpy.polyadd` (a poly1d when either is one)."""
    as_poly = _is_poly1d(a1, a2)
    a1, a2 = xnp.atleast_1d(_coeffs(a1)), xnp.atleast_1d(_coeffs(a2))
    n = max(a1.shape[0], a2.shape[0])
    return _poly1d_if(as_poly, _pad_front(a1, n) + _pad_front(a2, n))


def polysub(a1, a2) -> ndarray:
    """The difference of two polynomials (the shorter padded with leading zeros), as
    :func:`numpy.polysub` (a poly1d when either is one)."""
    as_poly = _is_poly1d(a1, a2)
    a1, a2 = xnp.atleast_1d(_coeffs(a1)), xnp.atleast_1d(_coeffs(a2))
    n = max(a1.shape[0], a2.shape[0])
    return _poly1d_if(as_poly, _pad_front(a1, n) - _pad_front(a2, n))


def polymul(a1, a2) -> ndarray:
    """The product of two polynomials (a convolution), as :func:`numpy.polymul`, which
    first strips leading zero coefficients: the result's length depends on the values,
    so they must be concrete (under grad they are; under jit use ``xnp.convolve``). A
    poly1d when either is one."""
    return _poly1d_if(_is_poly1d(a1, a2),
                      xnp.convolve(_trimmed(_coeffs(a1)), _trimmed(_coeffs(a2))))


def _trimmed(a):
    a = xnp.atleast_1d(a)
    nonzero = np.flatnonzero(concrete_or_error(a, "polymul's leading zeros"))
    if nonzero.size:
        return a[int(nonzero[0]):]
    return a[-1:] if a.shape[0] else xnp.zeros(1, a.dtype)     # numpy's poly1d([]): [0.]
