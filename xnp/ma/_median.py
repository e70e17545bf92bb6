"""``ma.median``: numpy.ma's algorithm (sort with masked values last, take the middle one
or two of the unmasked ones) written with xnp functions, so it works on traced data."""

from __future__ import annotations

import numpy as np

import xnp
from xnp.ma._core import MaskedArray, getdata, getmaskarray, nomask


def _ma(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _median_last(a: MaskedArray):
    """The median along the last axis, keeping it (length 1): data and mask."""
    from xnp.ma._more import minimum_fill_value
    from xnp.ma._reductions import count, sort
    inexact = np.issubdtype(a.dtype, np.inexact)
    asorted = sort(a, axis=-1, fill_value=np.inf if inexact else None)
    data, mask = asorted._data, getmaskarray(asorted)
    counts = xnp.asarray(count(asorted, axis=-1, keepdims=True))
    h = counts // 2
    odd = counts % 2 == 1
    lo = xnp.where(odd, h, h - 1)
    lh = xnp.concatenate([lo, h], axis=-1)
    vals = xnp.take_along_axis(data, lh, axis=-1)
    vmask = xnp.take_along_axis(mask, lh, axis=-1)
    all_masked = xnp.all(mask, axis=-1, keepdims=True)
    # Masked values among the middle ones (NaNs sort after the masked fill) become the
    # largest value, as NumPy does.
    rep = xnp.logical_and(xnp.logical_not(all_masked), vmask)
    with np.errstate(all="ignore"):
        vals = xnp.where(rep, xnp.asarray(minimum_fill_value(asorted), dtype=data.dtype),
                         vals)
    vmask = xnp.logical_and(vmask, xnp.logical_not(rep))
    rmask = xnp.all(vmask, axis=-1, keepdims=True)
    with np.errstate(all="ignore"):
        if inexact:
            s = xnp.sum(xnp.where(vmask, xnp.zeros((), vals.dtype), vals), axis=-1,
                        keepdims=True)
            s = xnp.true_divide(s, 2.0).astype(s.dtype)
            # A NaN (unmasked) anywhere makes the median NaN.
            last = data[..., -1:]
            nan = xnp.logical_and(xnp.isnan(last), xnp.logical_not(mask[..., -1:]))
            s = xnp.where(nan, last, s)
        else:
            kept = xnp.logical_not(vmask)
            n = xnp.sum(kept, axis=-1, keepdims=True)
            tot = xnp.sum(xnp.where(kept, vals, xnp.zeros((), vals.dtype)), axis=-1,
                          keepdims=True, dtype=np.float64)
            s = xnp.true_divide(tot, n)
    return s, rmask


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along ``axis``, leaving masked elements out, as
    :func:`numpy.ma.median`.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axes along which the median is computed (default: all).
    out : ndarray or MaskedArray, optional
        Where to store the result.
    overwrite_input : bool, optional
        Accepted for NumPy's signature; the input is never changed.
    keepdims : bool, optional
        Keep the reduced axes with length one.

    Returns
    -------
    MaskedArray, scalar or ``masked``
        The median (masked where every element was masked); ``out`` when given.
    """
    from numpy.lib.array_utils import normalize_axis_tuple

    from xnp.ma._reductions import finish_reduce
    if not isinstance(a, MaskedArray):
        r = xnp.median(getdata(a), axis=axis, out=out, keepdims=bool(keepdims))
        if isinstance(r, xnp.ndarray) and r.ndim >= 1 and out is None:
            return MaskedArray._new(r, nomask)
        return r
    a = _ma(a)
    nd = a.ndim
    axes = tuple(range(nd)) if axis is None else normalize_axis_tuple(axis, nd)
    keep = [i for i in range(nd) if i not in axes]
    kept_shape = tuple(a.shape[i] for i in keep)
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    data = xnp.reshape(xnp.transpose(a._data, keep + list(axes)), kept_shape + (n,))
    mask = a._mask
    if mask is not nomask:
        mask = xnp.reshape(xnp.transpose(mask, keep + list(axes)), kept_shape + (n,))
    b = MaskedArray._new(data, mask, a._fill_value)
    if b.shape[-1] == 0:
        from xnp.ma._reductions import mean
        r = mean(b, axis=-1)
        return r if out is None else _store(r, out)
    s, m = _median_last(b)
    if keepdims:
        shape = tuple(1 if i in axes else a.shape[i] for i in range(nd))
    else:
        shape = kept_shape
    s, m = xnp.reshape(s, shape), xnp.reshape(m, shape)
    if a._mask is nomask:
        m = nomask
    if out is not None:
        return _store(MaskedArray._new(s, m), out)
    return finish_reduce(s, m)


def _store(result, out):
    from xnp.ma._methods import to_out
    return to_out(result, out)
