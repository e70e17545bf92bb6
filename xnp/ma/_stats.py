"""``numpy.ma.extras``'s covariance, correlation, ``polyfit`` and ``apply_*`` functions,
built from xnp functions on the data and the mask."""

from __future__ import annotations

import functools

import numpy as np

import xnp
from xnp.ma._core import MaskedArray, MaskedConstant, getdata, getmask, getmaskarray, nomask
from xnp.ma._funcs import array, filled, mask_or, masked_array


def _ma(a) -> MaskedArray:
    return a if isinstance(a, MaskedArray) else masked_array(a)


def _covhelper(x, y=None, rowvar=True, allow_masked=True):
    """The centred ``x`` (joined with ``y``), its not-masked indicator (float32, or
    float64 for more than 2**24 observations) and the normalised ``rowvar``, as
    ``numpy.ma.extras._covhelper``."""
    x = array(x, ndmin=2, copy=True, dtype=float)
    xmask = getmaskarray(x)
    if not allow_masked and bool(xnp.any(xmask)):
        raise ValueError("Cannot process masked data.")
    if x.shape[0] == 1:
        rowvar = True
    rowvar = int(bool(rowvar))
    axis = 1 - rowvar
    tup = (slice(None), None) if rowvar else (None, slice(None))
    if y is None:
        nm_dtype = np.float64 if max(x.shape) > 2 ** 24 else np.float32
        xnotmask = xnp.logical_not(xmask).astype(nm_dtype)
    else:
        y = array(y, copy=False, ndmin=2, dtype=float)
        ymask = getmaskarray(y)
        if not allow_masked and bool(xnp.any(ymask)):
            raise ValueError("Cannot process masked data.")
        if y.shape == x.shape and (x._mask is not nomask or y._mask is not nomask):
            # A common mask: an observation masked in one variable is left out of both.
            xmask = ymask = xnp.logical_or(xmask, ymask)
            x = MaskedArray._new(x._data, xmask, x._fill_value)
            y = MaskedArray._new(y._data, ymask, y._fill_value)
        from xnp.ma._funcs import concatenate
        x = concatenate((x, y), axis)
        nm_dtype = np.float64 if max(x.shape) > 2 ** 24 else np.float32
        xnotmask = xnp.logical_not(xnp.concatenate((xmask, ymask), axis)).astype(nm_dtype)
    x = x - x.mean(axis=rowvar)[tup]
    return x, xnotmask, rowvar


def cov(x, y=None, rowvar=True, bias=False, allow_masked=True, ddof=None):
    """Estimate the covariance matrix, leaving masked observations out.

    As :func:`numpy.ma.cov`: each pair of variables is normalised by the number of
    observations present in both, less ``ddof``; entries with no degrees of freedom left
    are masked.

    Parameters
    ----------
    x : array_like
        Variables (rows, or columns when ``rowvar`` is false) and their observations.
    y : array_like, optional
        More variables, in the same layout as ``x``.
    rowvar : bool, optional
        Whether each row is a variable (default) or each column.
    bias : bool, optional
        Normalise by N (true) instead of N - 1; ignored when ``ddof`` is given.
    allow_masked : bool, optional
        When false, masked values raise ValueError.
    ddof : int, optional
        Delta degrees of freedom.

    Returns
    -------
    MaskedArray
        The covariance matrix (squeezed).

    Raises
    ------
    ValueError
        When ``ddof`` is not an integer, or masked values are given with
        ``allow_masked=False``.
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be an integer")
    if ddof is None:
        ddof = 0 if bias else 1
    x, xnotmask, rowvar = _covhelper(x, y, rowvar, allow_masked)
    if not rowvar:
        fact = xnp.dot(xnotmask.T, xnotmask) - ddof
        left, right = filled(x.T, 0), filled(x.conj(), 0)
    else:
        fact = xnp.dot(xnotmask, xnotmask.T) - ddof
        left, right = filled(x, 0), filled(x.T.conj(), 0)
    mask = xnp.less_equal(fact, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        data = xnp.dot(left, right) / fact
    return masked_array(data, mask=mask).squeeze()


def corrcoef(x, y=None, rowvar=True, allow_masked=True):
    """Pearson correlation coefficients, leaving masked observations out.

    As :func:`numpy.ma.corrcoef`: the covariance matrix of :func:`cov` divided by the
    outer product of its diagonal's square roots.

    Parameters
    ----------
    x : array_like
        Variables (rows, or columns when ``rowvar`` is false) and their observations.
    y : array_like, optional
        More variables, in the same layout as ``x``.
    rowvar : bool, optional
        Whether each row is a variable (default) or each column.
    allow_masked : bool, optional
        When false, masked values raise ValueError.

    Returns
    -------
    MaskedArray
        The correlation matrix (``masked`` for a single variable given as 1-d data).
    """
    corr = cov(x, y, rowvar, allow_masked=allow_masked)
    if corr.ndim < 2:
        return MaskedConstant()
    from xnp.ma import sqrt
    from xnp.ma._more import diagonal, outer
    std = sqrt(diagonal(corr))
    return corr / outer(std, std)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit, leaving out the points masked in ``x``, ``y`` (any
    column of a 2-d ``y``) or ``w``, as :func:`numpy.ma.polyfit`.

    The masks must be concrete (the points kept depend on them).

    Parameters
    ----------
    x, y : array_like
        Sample points and their values (``y`` 1-d, or 2-d with one fit per column).
    deg : int
        Degree of the polynomial.
    rcond, full, w, cov
        As :func:`xnp.polyfit`.

    Returns
    -------
    ndarray or tuple
        As :func:`xnp.polyfit`.
    """
    from xnp.ma.extras import mask_rows
    x, y = _ma(x), _ma(y)
    m = getmask(x)
    if y.ndim == 1:
        m = mask_or(m, getmask(y))
    elif y.ndim == 2:
        my = getmask(mask_rows(y))
        if my is not nomask:
            m = mask_or(m, my[:, 0])
    else:
        raise TypeError("Expected a 1D or 2D array for y!")
    if w is not None:
        w = _ma(w)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        m = mask_or(m, getmask(w))
    xd, yd = getdata(x), getdata(y)
    wd = None if w is None else getdata(w)
    if m is not nomask:
        keep = xnp.logical_not(m)
        xd, yd = xd[keep], yd[keep]
        if wd is not None:
            wd = wd[keep]
    return xnp.polyfit(xd, yd, deg, rcond, full, wd, cov)


def _dtype_max(dtypes):
    # NumPy takes the maximum of the dtypes as objects (``a < b``: a casts safely to b).
    return functools.reduce(lambda a, b: b if b > a else a, dtypes)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply ``func1d`` to the 1-d slices of ``arr`` along ``axis``, as
    :func:`numpy.ma.apply_along_axis`.

    Masked results (and ``masked``) keep their mask; the result's dtype is the largest of
    the slices' result dtypes.

    Parameters
    ----------
    func1d : callable
        Called as ``func1d(slice, *args, **kwargs)``.
    axis : int
        The axis along which ``arr`` is sliced.
    arr : array_like
        The input array.
    *args, **kwargs
        More arguments for ``func1d``.

    Returns
    -------
    MaskedArray
        The results, joined.
    """
    from numpy.lib.array_utils import normalize_axis_index
    arr = _ma(arr)
    nd = arr.ndim
    axis = normalize_axis_index(axis, nd)
    outer_shape = arr.shape[:axis] + arr.shape[axis + 1:]
    results, dtypes = [], []
    inner_shape = None
    for ind in np.ndindex(*outer_shape):
        key = ind[:axis] + (slice(None),) + ind[axis:]
        res = func1d(arr[key], *args, **kwargs)
        scalar = np.isscalar(res)
        if not scalar:
            try:
                len(res)
            except TypeError:
                scalar = True
        if inner_shape is None:
            inner_shape = () if scalar else np.shape(getdata(res))
        res = _ma(res)
        dtypes.append(res.dtype)
        results.append(res)
    dtype = _dtype_max(dtypes)
    data = xnp.stack([xnp.asarray(getdata(r), dtype=dtype) for r in results])
    mask = xnp.stack([getmaskarray(r) for r in results])
    shape = outer_shape + tuple(inner_shape)
    data, mask = xnp.reshape(data, shape), xnp.reshape(mask, shape)
    k = len(inner_shape)
    if k:
        src = list(range(axis, axis + k))
        data = xnp.moveaxis(data, [len(outer_shape) + i for i in range(k)], src)
        mask = xnp.moveaxis(mask, [len(outer_shape) + i for i in range(k)], src)
    any_masked = any(getmask(r) is not nomask for r in results)
    return masked_array(data, mask=mask if any_masked else nomask)


def apply_over_axes(func, a, axes):
    """Apply ``func(a, axis)`` over each of ``axes`` in turn, keeping the reduced axes, as
    :func:`numpy.ma.apply_over_axes`.

    Parameters
    ----------
    func : callable
        Called as ``func(a, axis)``; it must return an array of ``a``'s dimensions or
        one fewer.
    a : array_like
        The input array.
    axes : int or sequence of int
        The axes.

    Returns
    -------
    MaskedArray
        The result, with as many dimensions as ``a``.

    Raises
    ------
    ValueError
        When ``func`` does not return an array of the right dimensions.
    """
    val = _ma(a)
    n = np.ndim(getdata(a))
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if np.ndim(getdata(res)) == val.ndim:
            val = _ma(res)
        else:
            res = _ma(res)
            res = MaskedArray._new(xnp.expand_dims(res._data, axis),
                                   res._mask if res._mask is nomask
                                   else xnp.expand_dims(res._mask, axis),
                                   res._fill_value)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct "
                                 "shape")
    return val
