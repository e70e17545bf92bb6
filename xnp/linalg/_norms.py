"""Norms and condition numbers (numpy.linalg.norm, cond) and the Array API's vector_norm
and matrix_norm, built from xnp reductions and the SVD.

The 2-norm of a zero vector (and the Frobenius norm of a zero matrix) has derivative 0
there, the subgradient chosen by ``std`` too, instead of sqrt's 0/0.
"""

from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

import xnp
from xnp._array import ndarray
from xnp._ufuncs import sqrt_of_spread_v
from xnp._util import raw, wrap
from xnp.linalg._decompositions import LinAlgError, inv, svdvals

__all__ = ["norm", "vector_norm", "matrix_norm", "cond"]


def _float(x):
    x = xnp.asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    return x


def _sum_abs_pow(x, ord, axis, keepdims):
    a = xnp.abs(x)
    if ord == 1:
        return xnp.sum(a, axis=axis, keepdims=keepdims)
    return xnp.sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _two_norm(x, axis, keepdims):
    a = xnp.abs(x) if x.dtype.kind == "c" else x
    return wrap(sqrt_of_spread_v(raw(xnp.sum(a * a, axis=axis, keepdims=keepdims))))


def vector_norm(x, /, *, axis=None, keepdims: bool = False, ord=2) -> ndarray:
    """The vector ``ord``-norm over ``axis`` (all axes by default), as the Array API's
    ``linalg.vector_norm``: ord in {inf, -inf, 0, any nonzero number}."""
    x = _float(x)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if axis is None and not keepdims:
        x, axis = xnp.ravel(x), 0
    if ord == 2:
        return _two_norm(x, axis, keepdims)
    if ord == np.inf:
        return xnp.max(xnp.abs(x), axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return xnp.min(xnp.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return xnp.sum(x != 0, axis=axis, keepdims=keepdims).astype(xnp.abs(x).dtype)
    return _sum_abs_pow(x, ord, axis, keepdims)


def _matrix_axes(x, axis):
    row, col = (operator.index(a) for a in axis)
    nd = x.ndim
    if not (-nd <= row < nd and -nd <= col < nd):
        raise AxisError(f"Invalid axis {axis!r} for an array with shape {x.shape}")
    row, col = row % nd, col % nd
    if row == col:
        raise ValueError("Duplicate axes given.")
    return row, col


def _matrix_norm(x, ord, row, col, keepdims):
    if ord in ("fro", "f", None):
        r = _two_norm(x, (row, col), keepdims)
        return r
    if ord in (2, -2, "nuc"):
        s = svdvals(xnp.moveaxis(x, (row, col), (-2, -1)))
        r = xnp.max(s, axis=-1) if ord == 2 else xnp.min(s, axis=-1) if ord == -2 else \
            xnp.sum(s, axis=-1)
        if keepdims:
            r = xnp.expand_dims(r, (row, col) if row < col else (col, row))
        return r
    if ord in (1, -1, np.inf, -np.inf):
        along, across = (row, col) if ord in (1, -1) else (col, row)
        sums = xnp.sum(xnp.abs(x), axis=along, keepdims=True)
        pick = xnp.max if ord in (1, np.inf) else xnp.min
        r = pick(sums, axis=across, keepdims=True)
        if keepdims:
            return r
        r = xnp.squeeze(r, axis=(row, col))
        return r[()] if r.ndim == 0 else r       # a scalar, as NumPy's reductions give
    raise ValueError("Invalid norm order for matrices.")


def matrix_norm(x, /, *, keepdims: bool = False, ord="fro") -> ndarray:
    """The matrix norm over the last two axes, as the Array API's ``linalg.matrix_norm``:
    ord in {'fro', 'nuc', 1, 2, inf, -1, -2, -inf}."""
    x = _float(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_norm: x must be at least 2-d, got shape {x.shape}")
    return _matrix_norm(x, ord, x.ndim - 2, x.ndim - 1, keepdims)


def norm(x, ord=None, axis=None, keepdims: bool = False) -> ndarray:
    """A matrix or vector norm, as :func:`numpy.linalg.norm`."""
    x = _float(x)
    if axis is None:
        if ord is None:
            r = _two_norm(xnp.ravel(x), 0, False)
            return xnp.reshape(r, (1,) * x.ndim) if keepdims else r
        if x.ndim == 1:
            axis = 0
        elif x.ndim == 2:
            axis = (0, 1)
        else:
            raise ValueError("Improper number of dimensions to norm.")
    if isinstance(axis, (int, np.integer)) or (isinstance(axis, tuple) and len(axis) == 1):
        ax = axis[0] if isinstance(axis, tuple) else axis
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        return vector_norm(x, axis=operator.index(ax) % max(x.ndim, 1) if -x.ndim <= ax
                           < x.ndim else _raise_axis(ax, x.ndim), keepdims=keepdims,
                           ord=2 if ord is None else ord)
    if isinstance(axis, tuple) and len(axis) == 2:
        row, col = _matrix_axes(x, axis)
        return _matrix_norm(x, ord, row, col, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _raise_axis(ax, ndim):
    raise AxisError(ax, ndim)


def cond(x, p=None) -> ndarray:
    """The condition number of ``x`` in norm ``p``, as :func:`numpy.linalg.cond` (the
    ratio of extreme singular values for p None, 2 and -2)."""
    x = _float(x)
    if x.ndim < 2:
        raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if p in (None, 2, -2):
        s = svdvals(x)
        big, small = xnp.max(s, axis=-1), xnp.min(s, axis=-1)
        return big / small if p != -2 else small / big
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))
