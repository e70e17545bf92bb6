"""``xnp.ma.extras``: a subset of :mod:`numpy.ma.extras` built from xnp functions.

Functions whose result shape depends on the mask (``unique``, the set operations,
``clump_*``, ``notmasked_*``, ``compress_*``, ``polyfit``) need concrete masks, as
``compressed`` does.
"""

from __future__ import annotations

import warnings

import numpy as np

import xnp
from xnp.ma import (  # noqa: F401
    average,
    column_stack,
    count_masked,
    dot,
    dstack,
    hstack,
    median,
    row_stack,
    stack,
    vstack,
)
from xnp.ma._core import MaskedArray, _arr, getmask, getmaskarray, nomask
from xnp.ma._funcs import array, filled, masked_array
from xnp.ma._stats import (  # noqa: F401
    _covhelper,
    apply_along_axis,
    apply_over_axes,
    corrcoef,
    cov,
    polyfit,
)

__all__ = ["apply_along_axis", "apply_over_axes", "atleast_1d", "atleast_2d",
           "atleast_3d", "average", "clump_masked", "clump_unmasked", "column_stack",
           "compress_cols", "compress_nd", "compress_rowcols", "compress_rows",
           "corrcoef", "count_masked", "cov", "diagflat", "dot", "dstack", "ediff1d",
           "flatnotmasked_contiguous", "flatnotmasked_edges", "hstack", "in1d",
           "intersect1d", "isin", "mask_cols", "mask_rowcols", "mask_rows",
           "masked_all", "masked_all_like", "median", "ndenumerate",
           "notmasked_contiguous", "notmasked_edges", "polyfit", "row_stack",
           "setdiff1d", "setxor1d", "stack", "union1d", "unique", "vstack"]


def masked_all(shape, dtype=float):
    """An empty masked array of ``shape`` with every element masked, as
    :func:`numpy.ma.masked_all`."""
    return masked_array(xnp.empty(shape, dtype), mask=xnp.ones(shape, bool))


def masked_all_like(arr):
    """A fully masked array with the shape and dtype of ``arr``, as
    :func:`numpy.ma.masked_all_like`."""
    a = _arr(filled(arr) if isinstance(arr, MaskedArray) else arr)
    return masked_all(a.shape, a.dtype)


def _atleast(fn):
    def wrapper(*arys):
        out = []
        for a in arys:
            a = a if isinstance(a, MaskedArray) else masked_array(a)
            out.append(MaskedArray._new(fn(a._data), fn(getmaskarray(a)), a._fill_value))
        return out[0] if len(out) == 1 else tuple(out)
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = (f"``{fn.__name__}`` of masked arrays (data and mask), as "
                       f":func:`numpy.ma.{fn.__name__}`.")
    return wrapper


atleast_1d = _atleast(xnp.atleast_1d)
atleast_2d = _atleast(xnp.atleast_2d)
atleast_3d = _atleast(xnp.atleast_3d)


def diagflat(v, k=0):
    """A 2-d array with the flattened ``v`` on diagonal ``k``, as
    :func:`numpy.ma.diagflat`."""
    v = v if isinstance(v, MaskedArray) else masked_array(v)
    return MaskedArray._new(xnp.diagflat(v._data, k), xnp.diagflat(getmaskarray(v), k))


def ediff1d(arr, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ``arr`` (masked where either
    is), as :func:`numpy.ma.ediff1d`."""
    arr = (arr if isinstance(arr, MaskedArray) else masked_array(arr)).ravel()
    ed = arr[1:] - arr[:-1]
    parts = [ed]
    if to_begin is not None:
        parts.insert(0, masked_array(to_begin).ravel())
    if to_end is not None:
        parts.append(masked_array(to_end).ravel())
    if len(parts) > 1:
        from xnp.ma import hstack as _hstack
        ed = _hstack(parts)
    return ed


def _concrete_mask(a) -> np.ndarray:
    return np.asarray(getmaskarray(a))


def _runs(mask: np.ndarray, value: bool, inner_int64: bool = False) -> list:
    m = np.concatenate(([False], mask == value, [False])).astype(np.int8)
    d = np.flatnonzero(np.diff(m))
    if not inner_int64:
        return [slice(int(s), int(e)) for s, e in zip(d[::2], d[1::2])]
    # as NumPy's clump_masked/clump_unmasked: np.int64 bounds inside, Python ints at the ends
    n = mask.size

    def bound(i):
        return int(i) if i in (0, n) else np.int64(i)
    return [slice(bound(s), bound(e)) for s, e in zip(d[::2], d[1::2])]


def clump_masked(a):
    """Slices of the runs of masked elements of 1-d ``a``, as
    :func:`numpy.ma.clump_masked`."""
    if getmask(a) is nomask:
        return []
    return _runs(_concrete_mask(a), True, inner_int64=True)


def clump_unmasked(a):
    """Slices of the runs of unmasked elements of 1-d ``a``, as
    :func:`numpy.ma.clump_unmasked`."""
    if getmask(a) is nomask:
        return [slice(0, a.size)]
    return _runs(_concrete_mask(a), False, inner_int64=True)


def flatnotmasked_contiguous(a):
    """Slices of the unmasked runs of the flattened ``a``, as
    :func:`numpy.ma.flatnotmasked_contiguous`."""
    m = getmask(a)
    if m is nomask:
        return [slice(0, np.size(getattr(a, "_data", a)))]
    return _runs(_concrete_mask(a).ravel(), False)


def flatnotmasked_edges(a):
    """Indices of the first and last unmasked elements of the flattened ``a`` (``None``
    when all are masked), as :func:`numpy.ma.flatnotmasked_edges`."""
    m = getmask(a)
    if m is nomask or not np.any(np.asarray(m)):
        return np.array([0, np.size(getattr(a, "_data", a)) - 1])
    unmasked = np.flatnonzero(~np.asarray(m))
    return unmasked[[0, -1]] if unmasked.size else None


def notmasked_edges(a, axis=None):
    """First and last unmasked indices along ``axis``, as
    :func:`numpy.ma.notmasked_edges`."""
    import numpy.ma as npma
    a = a if isinstance(a, MaskedArray) else masked_array(a)
    return npma.notmasked_edges(a._to_numpy(), axis)


def notmasked_contiguous(a, axis=None):
    """Slices of the unmasked runs along ``axis``, as
    :func:`numpy.ma.notmasked_contiguous`."""
    import numpy.ma as npma
    a = a if isinstance(a, MaskedArray) else masked_array(a)
    return npma.notmasked_contiguous(a._to_numpy(), axis)


def compress_nd(x, axis=None):
    """``x`` without the rows/columns/... (along ``axis``) that hold a masked element, as
    :func:`numpy.ma.compress_nd`; returns an ndarray."""
    x = x if isinstance(x, MaskedArray) else masked_array(x)
    m = x._mask
    if m is nomask or not bool(xnp.any(m)):
        return x._data
    if axis is None:
        axis = tuple(range(x.ndim))
    elif isinstance(axis, int):
        axis = (axis,)
    axis = tuple(ax % x.ndim for ax in axis)
    data = x._data
    mnp = np.asarray(m)
    for ax in axis:
        others = tuple(i for i in range(x.ndim) if i != ax)
        keep = ~mnp.any(axis=others)
        data = xnp.compress(keep, data, axis=ax)
    return data


def compress_rowcols(x, axis=None):
    """2-d ``x`` without the rows and/or columns holding a masked element, as
    :func:`numpy.ma.compress_rowcols`."""
    if np.ndim(getattr(x, "_data", x)) != 2:
        raise NotImplementedError("compress_rowcols works for 2D arrays only.")
    return compress_nd(x, axis=axis)


def compress_rows(a):
    """2-d ``a`` without the rows holding a masked element."""
    return compress_rowcols(a, 0)


def compress_cols(a):
    """2-d ``a`` without the columns holding a masked element."""
    return compress_rowcols(a, 1)


def mask_rowcols(a, axis=None):
    """2-d ``a`` with every row and/or column holding a masked element masked, as
    :func:`numpy.ma.mask_rowcols`."""
    a = array(a, subok=False)
    if a.ndim != 2:
        raise NotImplementedError("mask_rowcols works for 2D arrays only.")
    m = a._mask
    if m is nomask or not bool(xnp.any(m)):
        return a
    full = getmaskarray(a)
    out = full
    if axis is None or axis == 0 or axis == -2:
        out = out | xnp.any(full, axis=1, keepdims=True)
    if axis is None or axis == 1 or axis == -1:
        out = out | xnp.any(full, axis=0, keepdims=True)
    return MaskedArray._new(a._data, out, a._fill_value)


def mask_rows(a, axis=np._NoValue):
    """2-d ``a`` with the rows holding a masked element masked."""
    if axis is not np._NoValue:
        warnings.warn("The axis argument has always been ignored, in future passing it "
                      "will raise TypeError", DeprecationWarning, stacklevel=2)
    return mask_rowcols(a, 0)


def mask_cols(a, axis=np._NoValue):
    """2-d ``a`` with the columns holding a masked element masked."""
    if axis is not np._NoValue:
        warnings.warn("The axis argument has always been ignored, in future passing it "
                      "will raise TypeError", DeprecationWarning, stacklevel=2)
    return mask_rowcols(a, 1)


def _via_numpy(name):
    import numpy.ma as npma
    fn = getattr(npma, name)

    def wrapper(*args, **kwargs):
        args = [a._to_numpy() if isinstance(a, MaskedArray) else
                (np.asarray(a) if isinstance(a, xnp.ndarray) else a) for a in args]
        out = fn(*args, **kwargs)
        return _from_numpy(out)
    wrapper.__name__ = name
    wrapper.__doc__ = (f"As :func:`numpy.ma.{name}`: the result's shape depends on the "
                       "values, so they must be concrete.")
    return wrapper


def _from_numpy(out):
    import numpy.ma as npma
    if isinstance(out, tuple):
        return tuple(_from_numpy(o) for o in out)
    if out is npma.masked:
        from xnp.ma import masked
        return masked
    if isinstance(out, npma.MaskedArray):
        res = masked_array(xnp.asarray(out.data),
                           mask=nomask if out._mask is npma.nomask else xnp.asarray(out._mask))
        res._fill_value = out._fill_value
        return res
    if isinstance(out, np.ndarray):
        return xnp.asarray(out)
    return out


unique = _via_numpy("unique")
union1d = _via_numpy("union1d")
intersect1d = _via_numpy("intersect1d")
setdiff1d = _via_numpy("setdiff1d")
setxor1d = _via_numpy("setxor1d")
in1d = _via_numpy("in1d")
isin = _via_numpy("isin")


def ndenumerate(a, compressed=True):
    """Pairs of index and value of ``a``, skipping masked elements (or giving
    ``masked`` for them when ``compressed`` is false), as :func:`numpy.ma.ndenumerate`."""
    from xnp.ma import masked
    a = a if isinstance(a, MaskedArray) else masked_array(a)
    mask = np.asarray(getmaskarray(a))
    for idx, m in np.ndenumerate(mask):
        if not m:
            yield idx, a[idx]
        elif not compressed:
            yield idx, masked




class _MaskedRClass:
    """``ma.mr_``: ``r_`` for masked arrays (concatenates data and masks); a leading
    string ``'axis[,ndmin[,trans1d]]'`` sets the axis as for ``numpy.r_``."""

    def __getitem__(self, key):
        from xnp.ma import MAError, concatenate
        if isinstance(key, str):
            raise MAError("Unavailable for masked array.")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = 0, 1, -1
        parts, scalars, array_dtypes = [], [], []
        for i, k in enumerate(key):
            if isinstance(k, str):
                if i != 0:
                    raise ValueError("special directives must be the first entry.")
                if k in ("r", "c"):
                    raise MAError("Unavailable for masked array.")
                vec = [int(x) for x in k.split(",")]
                axis = vec[0]
                ndmin = vec[1] if len(vec) > 1 else ndmin
                trans1d = vec[2] if len(vec) > 2 else trans1d
                continue
            if isinstance(k, slice):
                item = masked_array(xnp.r_[k])
            elif type(k) in (bool, int, float, complex):
                scalars.append(k)      # Python scalars promote weakly, as in ``r_``
                item = masked_array(xnp.asarray(k))
            else:
                item = k if isinstance(k, MaskedArray) else masked_array(k)
                array_dtypes.append(item.dtype)
            parts.append(_ndmin(item, ndmin, trans1d))
        if scalars and array_dtypes:
            dtype = np.result_type(*array_dtypes, *scalars)
            parts = [p.astype(dtype) for p in parts]
        return concatenate(parts, axis=axis)


def _ndmin(item, ndmin, trans1d):
    nd = item.ndim
    if nd >= ndmin:
        return item
    item = item.reshape((1,) * (ndmin - nd) + item.shape)
    if trans1d != -1:
        k2 = ndmin - nd
        k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
        axes = list(range(ndmin))
        item = item.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
    return item


mr_ = _MaskedRClass()
