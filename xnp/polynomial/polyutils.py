"""Helpers shared by the polynomial modules, as :mod:`numpy.polynomial.polyutils`.

The public helpers (``as_series``, ``trimseq``, ``trimcoef``, ``getdomain``,
``mapdomain``, ``mapparms``, ``format_float``) behave as NumPy's. The private ones hold
the algorithms that do not depend on the basis (addition, long division, powers,
products of linear factors, least-squares fits, the n-dimensional evaluation helpers).

Everything computes with xnp functions, so it traces, differentiates and batches.
Dropping trailing zero coefficients depends on the values: it is done whenever they are
concrete (eagerly and under ``grad``); traced coefficients (``jit``/``vmap``) keep their
length, which represents the same polynomial with zero high-degree terms.
"""

from __future__ import annotations

import functools
import operator
import warnings
from typing import Any, Callable

import numpy as np

import xnp
from transforms.core import ConcretizationTypeError, concrete_or_error, is_eager
from xnp._array import ndarray

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapdomain", "mapparms",
           "format_float"]

_SCALARS = (int, float, complex)


def _concrete(a) -> np.ndarray | None:
    """The NumPy value of ``a``, or None when it is traced."""
    try:
        return np.asarray(concrete_or_error(a))
    except ConcretizationTypeError:
        return None


def _is_zero(a) -> bool:
    """Whether ``a`` is concretely all zeros (traced values count as nonzero)."""
    v = _concrete(a)
    return v is not None and not v.any()


def _as_int(x, desc: str) -> int:
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def _common_type(dtypes) -> np.dtype:
    """numpy.common_type on dtypes: integers count as float64, booleans are refused."""
    kind, size = "f", 2
    for dt in dtypes:
        if dt.kind not in "iufc":
            raise ValueError("Coefficient arrays have no common type")
        if dt.kind == "c":
            kind, size = "c", max(size, dt.itemsize // 2)
        else:
            size = max(size, 8 if dt.kind in "iu" else dt.itemsize)
    return np.dtype(f"{kind}{2 * size if kind == 'c' else size}")


def _float_coef(c) -> ndarray:
    """``c`` as an array of at least one dimension; booleans and integers as float64."""
    c = xnp.atleast_1d(xnp.asarray(c))
    return c.astype(np.float64) if c.dtype.kind in "biu" else c


def as_series(alist, trim: bool = True) -> list[ndarray]:
    """Convert a list of array_likes into 1-d coefficient arrays of a common type.

    Parameters
    ----------
    alist : sequence of array_like
        The coefficient arrays; each must be non-empty and 1-d after promotion to at
        least one dimension.
    trim : bool, optional
        Whether to drop trailing zero coefficients (keeping at least one).

    Returns
    -------
    list of ndarray
        Copies of the inputs cast to their common inexact type (integers give float64),
        as :func:`numpy.common_type` decides.

    Raises
    ------
    ValueError
        For empty or multidimensional input, or input without a common numeric type.

    Notes
    -----
    Differences from NumPy: object arrays are not supported; trimming is skipped for
    traced arrays (under ``jit``/``vmap``).
    """
    arrays = [xnp.atleast_1d(xnp.asarray(a)) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    dtype = _common_type([a.dtype for a in arrays])
    return [xnp.array(a, dtype=dtype, copy=True) for a in arrays]


def trimseq(seq: ndarray) -> ndarray:
    """Drop the trailing zeros of a 1-d sequence, keeping at least its first element.

    Parameters
    ----------
    seq : ndarray
        A 1-d array.

    Returns
    -------
    ndarray
        ``seq`` without trailing zeros (``seq`` itself when there are none).

    Notes
    -----
    The result's length depends on the values: a traced ``seq`` (``jit``/``vmap``) is
    returned unchanged.
    """
    values = _concrete(seq)
    if values is None or len(values) == 0 or values[-1] != 0:
        return seq
    nonzero = np.flatnonzero(values)
    return seq[:int(nonzero[-1]) + 1] if nonzero.size else seq[:1]


def trimcoef(c, tol: float = 0) -> ndarray:
    """Remove the trailing coefficients whose absolute value is at most ``tol``.

    Parameters
    ----------
    c : array_like
        1-d coefficients, lowest degree first.
    tol : float, optional
        Trailing coefficients with absolute value less than or equal to ``tol`` are
        removed (default 0). Must be non-negative.

    Returns
    -------
    ndarray
        The trimmed coefficients; ``[0]`` when all are removed.

    Raises
    ------
    ValueError
        If ``tol < 0``.
    ConcretizationTypeError
        Under ``jit``/``vmap``: the result's length depends on the values.
    """
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    values = concrete_or_error(c, "trimcoef (the number of coefficients kept)")
    kept = np.flatnonzero(np.abs(values) > tol)
    if kept.size == 0:
        return c[:1] * 0
    return c[:int(kept[-1]) + 1]


def getdomain(x) -> ndarray:
    """The smallest interval (or, for complex ``x``, rectangle) containing ``x``.

    Parameters
    ----------
    x : array_like
        1-d sample points.

    Returns
    -------
    ndarray
        ``[min, max]``; for complex points the corners ``[min.real + 1j*min.imag,
        max.real + 1j*max.imag]`` (complex128, as NumPy).
    """
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        lo = xnp.min(x.real) + 1j * xnp.min(x.imag)
        hi = xnp.max(x.real) + 1j * xnp.max(x.imag)
        return xnp.stack([lo, hi]).astype(np.complex128)
    return xnp.stack([xnp.min(x), xnp.max(x)])


def mapparms(old, new) -> tuple:
    """Offset and scale of the linear map sending the interval ``old`` onto ``new``.

    Parameters
    ----------
    old, new : array_like
        Two-element intervals ``[a, b]``.

    Returns
    -------
    (off, scl) : tuple of scalars
        ``off + scl * old[i] == new[i]`` for ``i = 0, 1``.
    """
    width_old = old[1] - old[0]
    width_new = new[1] - new[0]
    scl = width_new / width_old
    off = (old[1] * new[0] - old[0] * new[1]) / width_old
    return off, scl


def mapdomain(x, old, new):
    """Map the points ``x`` linearly from the interval ``old`` to ``new``.

    Parameters
    ----------
    x : array_like
        Points to map.
    old, new : array_like
        Two-element intervals.

    Returns
    -------
    ndarray or scalar
        ``off + scl * x`` with ``(off, scl) = mapparms(old, new)``; Python and NumPy
        scalars stay scalars, as in NumPy.
    """
    if not isinstance(x, (*_SCALARS, np.generic, ndarray)):
        x = xnp.asarray(x)
    off, scl = mapparms(old, new)
    return off + scl * x


def format_float(x, parens: bool = False) -> str:
    """Format one coefficient for the printed form of a series, as NumPy does.

    Parameters
    ----------
    x : scalar
        The value; non-floating values are formatted with ``str``.
    parens : bool, optional
        Whether to wrap numbers printed in scientific notation in parentheses.

    Returns
    -------
    str
        Positional notation, or scientific notation for values at least 1e8 or below
        ``10 ** min(0, -(precision - 1) // 2)`` in magnitude, following the print
        options (precision, floatmode, sign, nanstr, infstr).
    """
    if not np.issubdtype(type(x), np.floating):
        return str(x)
    opts = np.get_printoptions()
    if np.isnan(x):
        return opts["nanstr"]
    if np.isinf(x):
        return opts["infstr"]
    precision = opts["precision"]
    unique = opts["floatmode"] != "fixed"
    kwargs = dict(precision=precision, unique=unique, trim="0" if unique else "k",
                  sign=opts["sign"] == "+")
    tiny = 10.0 ** min(0, -(precision - 1) // 2)
    if x != 0 and not tiny <= abs(x) < 1e8:
        text = np.format_float_scientific(x, **kwargs)
        return f"({text})" if parens else text
    return np.format_float_positional(x, fractional=True, **kwargs)


# --- basis-independent algorithms ---------------------------------------------------------
def _add(c1, c2) -> ndarray:
    c1, c2 = as_series([c1, c2])
    if c1.shape[0] < c2.shape[0]:
        c1, c2 = c2, c1
    n = c2.shape[0]
    return trimseq(xnp.concatenate([c1[:n] + c2, c1[n:]]))


def _sub(c1, c2) -> ndarray:
    c1, c2 = as_series([c1, c2])
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 > n2:
        return trimseq(xnp.concatenate([c1[:n2] - c2, c1[n2:]]))
    return trimseq(xnp.concatenate([c1 - c2[:n1], -c2[n1:]]))


def _div(times_basis: Callable, c1, c2) -> tuple:
    """Long division; ``times_basis(i, c)`` gives the coefficients of ``P_i * c``."""
    c1, c2 = as_series([c1, c2])
    if _is_zero(c2[-1]):
        raise ZeroDivisionError("division by zero polynomial")
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 < n2:
        return c1[:1] * 0, c1
    if n2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    quotient = []
    rem = c1
    for i in range(n1 - n2, -1, -1):
        p = times_basis(i, c2)
        q = rem[-1] / p[-1]
        rem = rem[:-1] - q * p[:-1]
        quotient.append(q)
    return xnp.stack(quotient[::-1]).astype(c1.dtype), trimseq(rem)


def _pow(mul: Callable, c, power, maxpower: int | None) -> ndarray:
    [c] = as_series([c])
    n = int(power)
    if n != power or n < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and n > maxpower:
        raise ValueError("Power is too large")
    if n == 0:
        return xnp.ones(1, c.dtype)
    result = c
    for _ in range(n - 1):
        result = mul(result, c)
    return result


def _fromroots(line: Callable, mul: Callable, roots) -> ndarray:
    r = xnp.asarray(roots)
    if r.ndim == 0:
        raise TypeError("len() of unsized object")
    if r.shape[0] == 0:
        return xnp.ones(1)
    [r] = as_series([r], trim=False)
    r = xnp.sort(r)
    factors = [line(-root, 1) for root in r]
    while len(factors) > 1:       # multiply in pairs: a balanced product tree
        half, odd = divmod(len(factors), 2)
        paired = [mul(factors[i], factors[i + half]) for i in range(half)]
        if odd:
            paired[0] = mul(paired[0], factors[-1])
        factors = paired
    return factors[0]


def _valnd(val: Callable, c, *points) -> ndarray:
    points = [xnp.asarray(p) for p in points]
    if any(p.shape != points[0].shape for p in points[1:]):
        names = {2: "x, y", 3: "x, y, z"}.get(len(points))
        raise ValueError(f"{names} are incompatible" if names else
                         "ordinates are incompatible")
    c = val(points[0], c)
    for p in points[1:]:
        c = val(p, c, tensor=False)
    return c


def _gridnd(val: Callable, c, *points) -> ndarray:
    for p in points:
        c = val(p, c)
    return c


def _vander_nd(vanders, points, degrees) -> ndarray:
    n = len(vanders)
    if n != len(points):
        raise ValueError(f"Expected {n} dimensions of sample points, got {len(points)}")
    if n != len(degrees):
        raise ValueError(f"Expected {n} dimensions of degrees, got {len(degrees)}")
    if n == 0:
        raise ValueError("Unable to guess a dtype or shape when no points are given")
    stacked = xnp.asarray([xnp.asarray(p) for p in points]) + 0.0
    result = None
    for i in range(n):
        index = (Ellipsis,) + tuple(slice(None) if j == i else None for j in range(n))
        v = vanders[i](stacked[i], degrees[i])[index]
        result = v if result is None else result * v
    return result


def _vander_nd_flat(vanders, points, degrees) -> ndarray:
    v = _vander_nd(vanders, points, degrees)
    return v.reshape(v.shape[:-len(degrees)] + (-1,))


def _fit(vander: Callable, x, y, deg, rcond=None, full: bool = False, w=None) -> Any:
    """Least-squares fit of the series with the given Vandermonde function, as NumPy's:
    the columns are scaled to unit norm and solved by LAPACK's ``gelsd`` eagerly, by the
    pseudo-inverse under transformations (``full=True`` needs concrete values)."""
    x = xnp.asarray(x) + 0.0
    y = xnp.asarray(y) + 0.0
    deg = np.asarray(concrete_or_error(deg, "fit's deg") if isinstance(deg, ndarray)
                     else deg)
    if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if deg.min() < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if deg.ndim == 0:
        lmax = int(deg)
        order = lmax + 1
        van = vander(x, lmax)
    else:
        deg = np.sort(deg)
        lmax = int(deg[-1])
        order = deg.shape[0]
        van = vander(x, lmax)[:, deg]
    lhs, rhs = van.T, y.T
    if w is not None:
        w = xnp.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if w.shape[0] != x.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs, rhs = lhs * w, rhs * w
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    sq = xnp.square(lhs.real) + xnp.square(lhs.imag) if lhs.dtype.kind == "c" else \
        xnp.square(lhs)
    scl = xnp.sqrt(sq.sum(1))
    scl = xnp.where(scl == 0, 1, scl)
    a, b = lhs.T / scl, rhs.T
    if full or is_eager():
        c, resids, rank, s = xnp.linalg.lstsq(a, b, rcond)
        rank_value = int(concrete_or_error(rank, "fit's rank"))
    else:
        c = xnp.matmul(xnp.linalg.pinv(a, rcond=rcond), b)
        rank_value = _concrete_rank(a, rcond)
    c = (c.T / scl).T
    if deg.ndim > 0:
        c = xnp.zeros((lmax + 1,) + c.shape[1:], c.dtype).at[deg].set(c)
    if rank_value is not None and rank_value != order and not full:
        warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=3)
    if full:
        return c, [resids, rank, s, rcond]
    return c


def _concrete_rank(a, rcond) -> int | None:
    s = _concrete(xnp.linalg.svdvals(a))
    return None if s is None else int(np.sum(s > s.max() * rcond)) if s.size else 0


@functools.lru_cache(maxsize=None)
def _normalize_axis(axis: int, ndim: int) -> int:
    return int(np.lib.array_utils.normalize_axis_index(axis, ndim))
