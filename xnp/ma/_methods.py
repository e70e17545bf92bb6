"""More of ``numpy.ma``'s methods and functions (``conj``, ``round``, ``clip``, ``dot``,
``trace``, ``diff``, ``append``, ``convolve``, ``expand_dims``, ...), built from xnp
functions on the data and the mask."""

from __future__ import annotations

import numpy as np

import xnp
from xnp.ma._core import (
    MaskedArray,
    _arr,
    _is_traced,
    _scalar,
    getdata,
    getmask,
    getmaskarray,
    masked,
    nomask,
)
from xnp.ma._funcs import concatenate, filled, masked_array


def _ma(a) -> MaskedArray:
    return a if isinstance(a, MaskedArray) else masked_array(a)


def to_out(result, out):
    """Store ``result`` in ``out`` (an xnp array gets the data, a masked array the data
    and the mask) and return ``out``."""
    data = getdata(result)
    if isinstance(out, MaskedArray):
        out._data[...] = data
        m = getmask(result)
        if m is nomask and out._mask is nomask:
            return out
        out._mask = xnp.array(xnp.broadcast_to(getmaskarray(result), out.shape))
        return out
    out[...] = data
    return out


def _keep_mask(self, data, keep_fill=True):
    m = self._mask
    return MaskedArray._new(data, m if m is nomask else xnp.array(m),
                            self._fill_value if keep_fill else None)


def conjugate(self):
    """The complex conjugate of the data; the mask is kept."""
    return _keep_mask(self, xnp.conjugate(self._data))


def round_method(self, decimals=0, out=None):
    """The data rounded to ``decimals`` decimals; the mask is kept (a masked 0-d result
    is ``masked``). With ``out``, the result is stored there."""
    result = _keep_mask(self, xnp.round(self._data, decimals))
    if out is not None:
        return to_out(result, out)
    if result.ndim == 0 and result._mask is not nomask and not _is_traced(result._mask) \
            and bool(result._mask):
        return masked
    return result


def clip_method(self, min=None, max=None, out=None, **kwargs):
    """The data clipped to ``[min, max]``; the mask is kept."""
    min = kwargs.pop("a_min", min)
    max = kwargs.pop("a_max", max)
    result = _keep_mask(self, xnp.clip(self._data, getdata(min) if min is not None
                                       else None, getdata(max) if max is not None
                                       else None, **kwargs))
    return result if out is None else to_out(result, out)


def dot_method(self, b, out=None, strict=False):
    """``ma.dot(self, b)``."""
    from xnp.ma._funcs import dot
    result = dot(self, b, strict=strict)
    return result if out is None else to_out(result, out)


def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along the diagonal, leaving masked elements out, as
    :meth:`numpy.ma.MaskedArray.trace`."""
    self = _ma(self)
    if self._mask is nomask:
        result = xnp.trace(self._data, offset=offset, axis1=axis1, axis2=axis2)
        result = _scalar(_arr(result).astype(dtype) if dtype is not None else result)
        return result if out is None else to_out(result, out)
    d = self.diagonal(offset, axis1, axis2)
    if dtype is not None:
        d = d.astype(dtype)
    return d.filled(0).sum(axis=-1, out=out) if out is not None else \
        _scalar(_arr(d.filled(0).sum(axis=-1)))


def shrink_mask(self):
    """Drop an all-false mask (``nomask``); needs a concrete mask."""
    if self._mask is not nomask and not bool(xnp.any(self._mask)):
        self._mask = nomask
    return self


def harden_mask(self):
    """Hard masks are not supported: raises NotImplementedError."""
    raise NotImplementedError("xnp.ma has no hard masks: assigning to a masked array "
                              "always unmasks the written elements (soft masks, NumPy's "
                              "default); keep the mask yourself and reapply it")


def soften_mask(self):
    """Masks are always soft in xnp.ma: returns ``self``."""
    return self


def diff(a, /, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """The ``n``-th discrete difference along ``axis`` (masked where either element is),
    as :func:`numpy.ma.diff`.

    Parameters
    ----------
    a : array_like
        Input array.
    n : int, optional
        How many times to difference.
    axis : int, optional
        The axis.
    prepend, append : array_like, optional
        Values joined to ``a`` along ``axis`` first.

    Returns
    -------
    MaskedArray
        The differences.
    """
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _ma(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    from numpy.lib.array_utils import normalize_axis_index
    axis = normalize_axis_index(axis, a.ndim)
    parts = []
    for value, first in ((prepend, True), (append, False)):
        if value is np._NoValue:
            continue
        v = _ma(value)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            v = MaskedArray._new(xnp.broadcast_to(v._data, tuple(shape)),
                                 v._mask if v._mask is nomask
                                 else xnp.broadcast_to(v._mask, tuple(shape)))
        parts.append((first, v))
    if parts:
        a = concatenate([v for f, v in parts if f] + [a] + [v for f, v in parts if not f],
                        axis=axis)
    hi = (slice(None),) * axis + (slice(1, None),)
    lo = (slice(None),) * axis + (slice(None, -1),)
    op = xnp.not_equal if a.dtype == np.bool_ else xnp.subtract
    for _ in range(n):
        a = op(a[hi], a[lo])      # NumPy's ufunc on masked arrays: raw data where masked
    return a


def append(a, b, axis=None):
    """``a`` and ``b`` joined along ``axis`` (flattened when it is None), as
    :func:`numpy.ma.append`."""
    a, b = _ma(a), _ma(b)
    if axis is None:
        if a.ndim != 1:
            a = a.ravel()
        if b.ndim != 1:
            b = b.ravel()
        axis = a.ndim - 1
    return concatenate([a, b], axis)


def expand_dims(a, axis):
    """``a`` with a new axis at ``axis`` (data and mask)."""
    a = _ma(a)
    return MaskedArray._new(xnp.expand_dims(a._data, axis),
                            a._mask if a._mask is nomask
                            else xnp.expand_dims(a._mask, axis), a._fill_value)


def _convolve_or_correlate(f, a, v, mode, propagate_mask):
    if propagate_mask:
        # Masked where any product of the sum involves a masked element.
        ones_v = xnp.ones(np.shape(getdata(v)), dtype=np.int8)
        ones_a = xnp.ones(np.shape(getdata(a)), dtype=np.int8)
        mask = xnp.logical_or(
            f(getmaskarray(a).astype(np.int8), ones_v, mode=mode) > 0,
            f(ones_a, getmaskarray(v).astype(np.int8), mode=mode) > 0)
        data = f(getdata(a), getdata(v), mode=mode)
    else:
        # Masked where no product of the sum has two valid elements.
        mask = f(xnp.logical_not(getmaskarray(a)).astype(np.int8),
                 xnp.logical_not(getmaskarray(v)).astype(np.int8), mode=mode) == 0
        data = f(filled(_ma(a), 0), filled(_ma(v), 0), mode=mode)
    return masked_array(data, mask=mask)


def convolve(a, v, mode="full", propagate_mask=True):
    """Discrete linear convolution of masked 1-d arrays, as :func:`numpy.ma.convolve`:
    with ``propagate_mask``, results that involve a masked element are masked; without,
    masked elements count as zero and only results with no valid pair are masked."""
    return _convolve_or_correlate(xnp.convolve, a, v, mode, propagate_mask)


def correlate(a, v, mode="valid", propagate_mask=True):
    """Cross-correlation of masked 1-d arrays, as :func:`numpy.ma.correlate` (see
    :func:`convolve` for ``propagate_mask``)."""
    return _convolve_or_correlate(xnp.correlate, a, v, mode, propagate_mask)


def round_(a, decimals=0, out=None):
    """``a`` rounded to ``decimals`` decimals (the mask kept), as :func:`numpy.ma.round`."""
    if isinstance(a, MaskedArray):
        return round_method(a, decimals, out)
    result = xnp.round(a, decimals)
    return result if out is None else to_out(result, out)


def _install():
    M = MaskedArray
    M.conj = M.conjugate = conjugate
    M.round = round_method
    M.clip = clip_method
    M.dot = dot_method
    M.trace = trace
    M.shrink_mask = shrink_mask
    M.harden_mask = harden_mask
    M.soften_mask = soften_mask
    M.hardmask = property(lambda self: False)
    M.sharedmask = property(lambda self: False)
    M.unshare_mask = lambda self: self
    M.get_real = lambda self: self.real
    M.get_imag = lambda self: self.imag
    M.itemsize = property(lambda self: self.dtype.itemsize)
    M.nbytes = property(lambda self: self.size * self.dtype.itemsize)
    M.baseclass = property(lambda self: xnp.ndarray)
    M.iscontiguous = lambda self: True


_install()
