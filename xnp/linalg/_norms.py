"""Norms and condition numbers (numpy.linalg.norm, cond) and the Array API's vector_norm
and matrix_norm, built from xnp reductions and the SVD.

The 2-norm of a zero vector (and the Frobenius norm of a zero matrix) has derivative 0
there, the subgradient chosen by ``std`` too, instead of sqrt's 0/0. Norms whose
reduction is a maximum (``inf``, 1, 2, 'nuc') are 0 for empty inputs, as in NumPy; the
minimum-based ones (``-inf``, -1, -2) raise NumPy's "zero-size array" ValueError.
"""

from __future__ import annotations

import math

import numpy as np

import xnp
from transforms.core import CompositePrimitive
from xnp import lax
from xnp._array import ndarray
from xnp._ufunc_composites import sqrt_of_spread_v
from xnp._util import normalize_axis, normalize_axis_tuple, raw, wrap
from xnp.linalg._decompositions import LinAlgError, _eye_like, _square, svdvals

__all__ = ["norm", "vector_norm", "matrix_norm", "cond"]


def _float(x):
    x = xnp.asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    return x


def _two_norm(x, axis, keepdims):
    # NumPy squares complex values as the real part of conj(x) * x (re*re + im*im)
    a = xnp.real(xnp.conj(x) * x) if x.dtype.kind == "c" else x * x
    return wrap(sqrt_of_spread_v(raw(xnp.sum(a, axis=axis, keepdims=keepdims))))


def _flat_two_norm(x):
    """The 2-norm of all of ``x`` as NumPy's norm computes it (no ``axis``): from dot
    products of the array flattened in memory order, which BLAS sums in its own order."""
    v = xnp.ravel(x, order="K")
    if v.dtype.kind == "c":
        re, im = xnp.real(v), xnp.imag(v)
        sq = xnp.dot(re, re) + xnp.dot(im, im)
    else:
        sq = xnp.dot(v, v)
    return wrap(sqrt_of_spread_v(raw(sq)))


def _vector(x, ord, axis, keepdims):
    """The vector ``ord``-norm of float ``x`` along one ``axis``."""
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    axis = normalize_axis(axis, x.ndim)
    if ord is None or ord == 2:
        return _two_norm(x, axis, keepdims)
    if ord == np.inf:
        return xnp.max(xnp.abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return xnp.min(xnp.abs(x), axis=axis, keepdims=keepdims)
    a = xnp.abs(x)
    if ord == 0:
        return xnp.sum((x != 0).astype(a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return xnp.sum(a, axis=axis, keepdims=keepdims)
    # NumPy raises in the input's precision: ord and 1/ord as that dtype's values
    p = float(np.asarray(ord, dtype=a.dtype))
    r = xnp.sum(a ** p, axis=axis, keepdims=keepdims)
    return r ** float(np.reciprocal(np.asarray(ord, dtype=a.dtype)))


def _svd_reduce(x, row, col, how):
    s = svdvals(xnp.moveaxis(x, (row, col), (-2, -1)))
    if how == "max":
        return xnp.max(s, axis=-1, initial=0)
    if how == "min":
        return xnp.min(s, axis=-1)
    return xnp.sum(s, axis=-1)


def _matrix(x, ord, row, col, keepdims):
    """The matrix ``ord``-norm of float ``x`` over the normalized axes ``row``, ``col``."""
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord in (None, "fro", "f"):
        r = _two_norm(x, (row, col), False)
    elif ord == 2 or ord == -2 or ord == "nuc":
        r = _svd_reduce(x, row, col, {2: "max", -2: "min"}.get(ord, "sum"))
    elif ord in (1, -1, np.inf, -np.inf):
        along, across = (row, col) if ord in (1, -1) else (col, row)
        sums = xnp.sum(xnp.abs(x), axis=along)
        across -= across > along
        r = (xnp.max(sums, axis=across, initial=0) if ord > 0 else
             xnp.min(sums, axis=across))
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        r = xnp.reshape(r, tuple(shape))
    return r


def norm(x, ord=None, axis=None, keepdims: bool = False) -> ndarray:
    """Matrix or vector norm, as :func:`numpy.linalg.norm`.

    Parameters
    ----------
    x : array_like
        Input; integer and boolean inputs are converted to float64.
    ord : {None, int, float, inf, -inf, 'fro', 'f', 'nuc'}, optional
        The order of the norm (see :func:`numpy.linalg.norm`).
    axis : None, int or 2-tuple of ints, optional
        One axis gives vector norms, two axes matrix norms; ``None`` the 2-norm of the
        flattened input (``ord=None``) or the norm of a 1-d or 2-d input.
    keepdims : bool, optional
        Keep the reduced axes with length one.

    Returns
    -------
    ndarray
        The norm(s), in the input's real precision.
    """
    x = _float(x)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (
                not isinstance(ord, str) and ord == 2 and nd == 1):
            r = _flat_two_norm(x)
            return xnp.reshape(r, (1,) * nd) if keepdims and nd else r   # 0-d: a scalar
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if len(axis) == 1:
        return _vector(x, ord, axis[0], keepdims)
    if len(axis) == 2:
        row, col = (normalize_axis(a, nd) for a in axis)
        return _matrix(x, ord, row, col, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def vector_norm(x, /, *, axis=None, keepdims: bool = False, ord=2) -> ndarray:
    """Vector norm over ``axis``, as :func:`numpy.linalg.vector_norm`.

    Parameters
    ----------
    x : array_like
        Input array.
    axis : None, int or tuple of ints, optional
        The axes the vectors lie along (all of them, flattened, by default; several
        axes are flattened into one).
    keepdims : bool, optional
        Keep the reduced axes with length one.
    ord : {int, float, inf, -inf}, optional
        The order of the norm (2 by default).

    Returns
    -------
    ndarray
        The norms, in the input's real precision (float64 for integer inputs).
    """
    x = xnp.asarray(x)
    shape = list(x.shape)
    if axis is None:
        y, along = xnp.ravel(x), 0
    elif isinstance(axis, tuple):
        axes = normalize_axis_tuple(axis, x.ndim, repeated="repeated axis")
        rest = tuple(i for i in range(x.ndim) if i not in axes)
        y = xnp.transpose(x, axes + rest)
        y = xnp.reshape(y, (math.prod(shape[i] for i in axes), *(shape[i] for i in rest)))
        along = 0
    else:
        y, along = x, axis
    r = norm(y, ord=ord, axis=along)
    if keepdims and shape:     # a 0-d input's norm stays a scalar, as in NumPy
        for i in normalize_axis_tuple(tuple(range(len(shape))) if axis is None else axis,
                                      len(shape), repeated="repeated axis"):
            shape[i] = 1
        r = xnp.reshape(r, tuple(shape))
    return r


def matrix_norm(x, /, *, keepdims: bool = False, ord="fro") -> ndarray:
    """Matrix norm over the last two axes, as :func:`numpy.linalg.matrix_norm`.

    Parameters
    ----------
    x : array_like
        A matrix or a stack of matrices (at least 2-d).
    keepdims : bool, optional
        Keep the two reduced axes with length one.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}, optional
        The order of the norm ('fro' by default).

    Returns
    -------
    ndarray
        The norms, in the input's real precision (float64 for integer inputs).
    """
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def _inv_or_nan_impl(v):
    """numpy.linalg.inv, with NaN matrices where a matrix of the stack is singular."""
    try:
        return np.linalg.inv(v)
    except LinAlgError:
        out = np.empty_like(v)
        for idx in np.ndindex(*v.shape[:-2]):
            try:
                out[idx] = np.linalg.inv(v[idx])
            except LinAlgError:
                out[idx] = np.nan
        return out


# Eagerly numpy.linalg.inv with singular matrices turned into NaN (cond needs no error);
# under transformations the ordinary solve (non-finite values under jit for singular ones).
_inv_or_nan_p = CompositePrimitive(
    "inv_or_nan", impl=_inv_or_nan_impl,
    expand=lambda v: lax.solve_p.bind(v, _eye_like(v), transpose_a=False))


def cond(x, p=None) -> ndarray:
    """Condition number of a matrix (or stack), as :func:`numpy.linalg.cond`.

    Parameters
    ----------
    x : array_like
        A matrix or a stack of matrices (square unless ``p`` is None, 2 or -2).
    p : {None, 1, -1, 2, -2, inf, -inf, 'fro', 'nuc'}, optional
        The norm: None, 2 and -2 use the ratio of extreme singular values, the others
        ``norm(x, p) * norm(inv(x), p)``.

    Returns
    -------
    ndarray
        The condition numbers; singular matrices give inf (NaN only where the matrix
        itself holds NaN).

    Raises
    ------
    LinAlgError
        For empty matrices, inputs with fewer than two dimensions, and non-square
        matrices with a norm other than None, 2 and -2.
    """
    x = xnp.asarray(x)
    if x.size == 0 and math.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = svdvals(x)
        with np.errstate(all="ignore"):
            big, small = s[..., 0], s[..., -1]
            r = small / big if p == -2 else big / small
    else:
        v = _square(x, "cond")
        with np.errstate(all="ignore"):
            xinv = wrap(_inv_or_nan_p.bind(v))
            r = norm(wrap(v), p, axis=(-2, -1)) * norm(xinv, p, axis=(-2, -1))
    # a singular matrix gives NaN above; it counts as infinitely ill-conditioned unless
    # the matrix holds NaN itself
    nan_in_x = xnp.any(xnp.isnan(x), axis=(-2, -1))
    r = xnp.where(xnp.isnan(r) & ~nan_in_x, np.inf, r).astype(r.dtype)
    return r[()] if r.ndim == 0 else r
