"""Reductions, scans and sorting of masked arrays, as methods and ``ma`` functions.

Each computes on the data with the masked elements replaced by the operation's identity
(or the dtype's extreme), and reduces the mask with ``all``: a result is masked where every
element it reduces is masked. A full reduction gives NumPy's scalar, or ``ma.masked`` when
every element is masked; when the mask is traced (vmap, jit) that cannot be decided, and
the data is returned (the identity, or NaN for a mean, where all were masked).
"""

from __future__ import annotations

import numpy as np

import xnp
from xnp.ma._core import (
    MaskedArray,
    _arr,
    _is_traced,
    _scalar,
    getdata,
    getmaskarray,
    masked,
    nomask,
)


def _ma(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _ndim0(x) -> bool:
    return not isinstance(x, xnp.ndarray) or x.ndim == 0


def finish_reduce(data, m, fill=None):
    if _ndim0(data):
        data = _scalar(data)
        if m is nomask or _is_traced(m):
            return data
        return masked if bool(m) else data
    return MaskedArray._new(data, m if m is nomask else _arr(m), fill)


def shrink(m):
    """``nomask`` for a concrete mask with nothing masked (NumPy's ``mask_or``)."""
    if m is nomask or _is_traced(m) or bool(xnp.any(m)):
        return m
    return nomask


def _all_masked(m, axis, keepdims=False):
    if m is nomask:
        return nomask
    return xnp.all(m, axis=axis, keepdims=keepdims)


def extreme(dtype, largest: bool):
    """The value that never wins a min (``largest``) or a max: NumPy's fill for them."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.bool_(largest)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(info.max if largest else info.min)
    if dtype.kind == "c":
        return dtype.type(complex(np.inf, np.inf) if largest else complex(-np.inf, -np.inf))
    return dtype.type(np.inf if largest else -np.inf)


def _kd(keepdims):
    return False if keepdims is np._NoValue else bool(keepdims)


# --- sums and counts ------------------------------------------------------------------------
def _sum_like(fn, identity):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False):
        a, keepdims = _ma(a), _kd(keepdims)
        d = a._data if a._mask is nomask else a.filled(identity)
        r = fn(d, axis=axis, dtype=dtype, keepdims=keepdims)
        return finish_reduce(r, _all_masked(a._mask, axis, keepdims))
    return reduce


sum = _sum_like(xnp.sum, 0)           # noqa: A001
prod = _sum_like(xnp.prod, 1)
product = prod


def count(a, axis=None, keepdims=False):
    a, keepdims = _ma(a), _kd(keepdims)
    if a._mask is nomask:
        if axis is None and not keepdims:
            return a.size
        ones = xnp.ones(a.shape, dtype=np.intp)
        return xnp.sum(ones, axis=axis, keepdims=keepdims)
    return xnp.sum(xnp.logical_not(a._mask), axis=axis, dtype=np.intp, keepdims=keepdims)


def _count_v(a, axis, keepdims):
    c = count(a, axis, keepdims)
    return np.intp(c) if isinstance(c, int) else c


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    a, keepdims = _ma(a), _kd(keepdims)
    if a._mask is nomask:
        return finish_reduce(xnp.mean(a._data, axis=axis, dtype=dtype, keepdims=keepdims),
                             nomask)
    s = xnp.sum(a.filled(0), axis=axis, dtype=dtype, keepdims=keepdims)
    with np.errstate(all="ignore"):
        r = xnp.true_divide(xnp.multiply(s, 1.0), _count_v(a, axis, keepdims))
    return finish_reduce(r, _all_masked(a._mask, axis, keepdims))


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, mean=np._NoValue):
    a, keepdims = _ma(a), _kd(keepdims)
    if a._mask is nomask:
        r = xnp.var(a._data, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
        return finish_reduce(r, nomask)
    cnt = xnp.subtract(_count_v(a, axis, keepdims), ddof)
    with np.errstate(all="ignore"):
        s = xnp.sum(a.filled(0), axis=axis, dtype=dtype, keepdims=True)
        mu = xnp.true_divide(xnp.multiply(s, 1.0), _count_v(a, axis, True))
        dev = xnp.subtract(a._data, mu)
        sq = xnp.square(xnp.absolute(dev)) if dev.dtype.kind == "c" else xnp.square(dev)
        sq = xnp.where(a._mask, xnp.zeros((), sq.dtype), sq)
        r = xnp.true_divide(xnp.sum(sq, axis=axis, keepdims=keepdims), cnt)
    m = xnp.logical_or(_all_masked(a._mask, axis, keepdims), xnp.less_equal(cnt, 0))
    if _ndim0(r):       # a full variance is masked where NumPy's masked divide masks it
        return finish_reduce(r, xnp.logical_or(m, xnp.logical_not(xnp.isfinite(r))))
    return finish_reduce(r, shrink(m))


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, mean=np._NoValue):
    v = var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    if v is masked:
        return v
    if not isinstance(v, MaskedArray) and (_is_traced(v) or _is_traced(a._data)):
        return xnp.sqrt(v)
    from xnp.ma._ops import UNARY_DOMAINS, unary
    return unary(xnp.sqrt, v, UNARY_DOMAINS["sqrt"])


# --- extrema --------------------------------------------------------------------------------
def _extremum(fn, largest_fill: bool):
    def reduce(a, axis=None, out=None, fill_value=None, keepdims=False):
        a, keepdims = _ma(a), _kd(keepdims)
        if a._mask is nomask:
            return finish_reduce(fn(a._data, axis=axis, keepdims=keepdims), nomask)
        fill = extreme(a.dtype, largest_fill) if fill_value is None else fill_value
        r = fn(a.filled(fill), axis=axis, keepdims=keepdims)
        m = _all_masked(a._mask, axis, keepdims)
        if not _ndim0(r):
            default = np.asarray(MaskedArray._new(r, nomask).fill_value).astype(r.dtype)
            r = xnp.where(m, default, r)
        return finish_reduce(r, m)
    return reduce


min = _extremum(xnp.min, True)        # noqa: A001
max = _extremum(xnp.max, False)       # noqa: A001
amin, amax = min, max


def ptp(a, axis=None, out=None, fill_value=None, keepdims=False):
    a, keepdims = _ma(a), _kd(keepdims)
    if a._mask is nomask:
        return finish_reduce(xnp.ptp(a._data, axis=axis, keepdims=keepdims), nomask)
    hi = xnp.max(a.filled(extreme(a.dtype, False)), axis=axis, keepdims=keepdims)
    lo = xnp.min(a.filled(extreme(a.dtype, True)), axis=axis, keepdims=keepdims)
    m = _all_masked(a._mask, axis, keepdims)
    with np.errstate(all="ignore"):
        r = xnp.subtract(hi, lo)
    if not _ndim0(r):
        r = xnp.where(m, hi, r)
    return finish_reduce(r, m)


def _arg(fn, largest_fill: bool):
    def reduce(a, axis=None, fill_value=None, out=None, *, keepdims=np._NoValue):
        a = _ma(a)
        if fill_value is None:
            fill_value = extreme(a.dtype, largest_fill)
        kw = {} if keepdims is np._NoValue else {"keepdims": keepdims}
        return fn(a.filled(fill_value), axis=axis, **kw)
    return reduce


argmin = _arg(xnp.argmin, True)
argmax = _arg(xnp.argmax, False)


def _logical(fn, identity):
    def reduce(a, axis=None, out=None, keepdims=False):
        a, keepdims = _ma(a), _kd(keepdims)
        d = a._data if a._mask is nomask else a.filled(identity)
        r = fn(d, axis=axis, keepdims=keepdims)
        return finish_reduce(r, _all_masked(a._mask, axis, keepdims))
    return reduce


all = _logical(xnp.all, True)         # noqa: A001
any = _logical(xnp.any, False)        # noqa: A001
alltrue, sometrue = all, any


def _scan(fn, identity):
    def scan(a, axis=None, dtype=None, out=None):
        a = _ma(a)
        d = a._data if a._mask is nomask else a.filled(identity)
        r = fn(d, axis=axis, dtype=dtype)
        m = a._mask
        if m is not nomask:
            m = xnp.ravel(m) if axis is None else xnp.array(m)
        return MaskedArray._new(r, m)
    return scan


cumsum = _scan(xnp.cumsum, 0)
cumprod = _scan(xnp.cumprod, 1)


# --- sorting --------------------------------------------------------------------------------
def argsort(a, axis=np._NoValue, kind=None, order=None, endwith=True, fill_value=None,
            *, stable=None):
    a = _ma(a)
    if axis is np._NoValue:
        axis = -1
    if a._mask is nomask and fill_value is None:
        return xnp.argsort(a._data, axis=axis, kind=kind)
    if fill_value is None:
        fill_value = extreme(a.dtype, bool(endwith))
    return xnp.argsort(a.filled(fill_value), axis=axis, kind=kind or "stable")


def sort(a, axis=-1, kind=None, order=None, endwith=True, fill_value=None, *,
         stable=None):
    """A sorted copy, masked elements last (first with ``endwith=False``)."""
    a = _ma(a)
    if axis is None:
        a, axis = a.ravel(), 0
    if a._mask is nomask:
        return MaskedArray._new(xnp.sort(a._data, axis=axis, kind=kind), nomask,
                                a._fill_value)
    idx = argsort(a, axis=axis, kind=kind, endwith=endwith, fill_value=fill_value)
    return MaskedArray._new(xnp.take_along_axis(a._data, idx, axis=axis),
                            xnp.take_along_axis(a._mask, idx, axis=axis), a._fill_value)


def _sort_in_place(self, axis=-1, kind=None, order=None, endwith=True, fill_value=None,
                   *, stable=None):
    out = sort(self, axis=axis, kind=kind, endwith=endwith, fill_value=fill_value)
    self._data[...] = out._data
    if out._mask is not nomask:
        self._mask[...] = out._mask


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a, keepdims = _ma(a), _kd(keepdims)
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        scl = count(a, axis=axis, keepdims=keepdims)
        if isinstance(avg, MaskedArray) or isinstance(avg, xnp.ndarray):
            scl = _arr(scl).astype(avg.dtype)
        elif avg is not masked:
            scl = np.asarray(avg).dtype.type(scl)
        return (avg, scl) if returned else avg
    from numpy.lib.array_utils import normalize_axis_tuple
    if axis is not None:
        axis = normalize_axis_tuple(axis, a.ndim, argname="axis")
    w = _ma(weights)
    if a.dtype.kind in "biu":
        rt = np.result_type(a.dtype, w.dtype, "f8")
    else:
        rt = np.result_type(a.dtype, w.dtype)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        w = w.transpose(tuple(int(i) for i in np.argsort(axis)))
        w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
    if a._mask is not nomask:
        # Weights of masked elements are masked (so a NaN weight there does not count).
        wd = xnp.multiply(w._data, xnp.logical_not(a._mask))
        if w._mask is not nomask:
            wd = xnp.where(w._mask, w._data.astype(wd.dtype), wd)
        w = MaskedArray._new(wd, xnp.logical_or(getmaskarray(w), a._mask))
    scl = w.sum(axis=axis, dtype=rt, keepdims=keepdims)
    with np.errstate(all="ignore"):
        prod = MaskedArray._new(xnp.multiply(a._data.astype(rt), w._data.astype(rt)),
                                _prod_mask(a, w))
        avg = prod.sum(axis=axis, keepdims=keepdims) / scl
    if returned:
        if np.shape(getdata(scl)) != np.shape(getdata(avg)):
            scl = xnp.array(xnp.broadcast_to(getdata(scl), np.shape(getdata(avg))))
        return avg, scl
    return avg


def _prod_mask(a, w):
    ma_, mw = a._mask, w._mask
    if ma_ is nomask and mw is nomask:
        return nomask
    shape = np.broadcast_shapes(a.shape, w.shape)
    return xnp.logical_or(xnp.broadcast_to(getmaskarray(a), shape),
                          xnp.broadcast_to(getmaskarray(w), shape))


def _install_methods():
    for name in ("sum", "prod", "product", "mean", "var", "std", "min", "max", "ptp",
                 "argmin", "argmax", "any", "all", "cumsum", "cumprod", "count",
                 "argsort"):
        setattr(MaskedArray, name, globals()[name])
    MaskedArray.sort = _sort_in_place


_install_methods()
