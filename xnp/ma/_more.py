"""More of ``numpy.ma.core``'s functions (indexing, shape, products, comparisons and fill
values), built from xnp functions on the data and the mask."""

from __future__ import annotations

import numpy as np
import numpy.ma as _npma

import xnp
from xnp.ma._core import MaskedArray, _arr, _scalar, getdata, getmask, getmaskarray, nomask
from xnp.ma._funcs import array, filled, make_mask, masked_array

masked_print_option = _npma.masked_print_option
make_mask_descr = _npma.make_mask_descr


def _ma(a) -> MaskedArray:
    return a if isinstance(a, MaskedArray) else masked_array(a)


def _mask_map(a: MaskedArray, fn, keep_fill=True) -> MaskedArray:
    m = a._mask
    return MaskedArray._new(fn(a._data), m if m is nomask else fn(m),
                            a._fill_value if keep_fill else None)


def _extreme_fill(obj, largest: bool):
    dtype = getattr(obj, "dtype", None)
    if dtype is None:
        dtype = np.asarray(obj).dtype
    return (_npma.minimum_fill_value if largest else _npma.maximum_fill_value)(
        np.zeros(0, dtype))


def minimum_fill_value(obj):
    """The largest value of ``obj``'s dtype, which a minimum ignores, as
    :func:`numpy.ma.minimum_fill_value`.

    Parameters
    ----------
    obj : array_like or dtype
        An array (or masked array) or a dtype.

    Returns
    -------
    scalar
        The fill value.
    """
    if isinstance(obj, np.dtype):
        return _npma.minimum_fill_value(obj)
    return _extreme_fill(obj, True)


def maximum_fill_value(obj):
    """The smallest value of ``obj``'s dtype, which a maximum ignores, as
    :func:`numpy.ma.maximum_fill_value`.

    Parameters
    ----------
    obj : array_like or dtype
        An array (or masked array) or a dtype.

    Returns
    -------
    scalar
        The fill value.
    """
    if isinstance(obj, np.dtype):
        return _npma.maximum_fill_value(obj)
    return _extreme_fill(obj, False)


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of ``a`` at ``indices`` with their mask, as :func:`numpy.ma.take`.

    Parameters
    ----------
    a : array_like
        Input (masked) array.
    indices : array_like of int
        Indices; a masked index gives a masked element.
    axis : int, optional
        Axis to take along (default: the flattened array).
    out : None
        Not supported beyond ``None``.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-bounds indices behave.

    Returns
    -------
    MaskedArray
        The selected elements.
    """
    a = _ma(a)
    im = getmask(indices)
    idx = filled(indices, 0) if isinstance(indices, MaskedArray) else indices
    out_ = _mask_map(a, lambda x: xnp.take(x, idx, axis=axis, mode=mode))
    if im is not nomask:
        m = getmaskarray(out_) | xnp.broadcast_to(im, out_.shape) if out_.ndim else im
        out_ = MaskedArray._new(out_._data, m, out_._fill_value)
    if out_.ndim == 0 and not isinstance(indices, MaskedArray):
        return out_[()]
    return out_


def repeat(a, repeats, axis=None):
    """``a`` with each element repeated, as :func:`numpy.ma.repeat`."""
    return _mask_map(_ma(a), lambda x: xnp.repeat(x, repeats, axis=axis))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal of ``a`` with its mask, as :func:`numpy.ma.diagonal`."""
    return _mask_map(_ma(a), lambda x: xnp.diagonal(x, offset, axis1, axis2))


def diag(v, k=0):
    """Extract a diagonal or build a diagonal array, with the mask, as
    :func:`numpy.ma.diag`."""
    v = _ma(v)
    out = MaskedArray._new(xnp.diag(v._data, k), nomask, None)
    if v._mask is not nomask:
        out._mask = xnp.diag(v._mask, k)
    return out


def resize(x, new_shape):
    """``x`` resized (repeating its elements) with its mask, as :func:`numpy.ma.resize`."""
    if not isinstance(x, MaskedArray):
        return masked_array(xnp.resize(_arr(x), new_shape))
    return _mask_map(x, lambda v: xnp.resize(v, new_shape))


def shape(obj):
    """The shape of ``obj``'s data, as :func:`numpy.ma.shape`."""
    return np.shape(getdata(obj))


def ndim(obj):
    """The number of dimensions of ``obj``'s data, as :func:`numpy.ma.ndim`."""
    return np.ndim(getdata(obj))


def size(obj, axis=None):
    """The number of elements of ``obj``'s data, as :func:`numpy.ma.size`."""
    return np.size(getdata(obj), axis)


def put(a, indices, values, mode="raise"):
    """Set ``a.flat[indices] = values`` (and their masks) in place, as
    :func:`numpy.ma.put` (an all-false mask is then dropped: ``nomask``)."""
    if not isinstance(a, MaskedArray):
        return a.put(indices, values, mode=mode)
    idx = xnp.asarray(indices)
    n = a.size
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = xnp.clip(idx, 0, n - 1)
    vals = xnp.resize(_arr(getdata(values), a.dtype), idx.shape)
    data = xnp.ravel(a._data).at[idx].set(vals)
    a._data = xnp.reshape(data, a.shape)
    vm = getmask(values)
    if vm is nomask and a._mask is nomask:
        return None
    vmask = xnp.resize(_arr(getmaskarray(values)), idx.shape)
    mask = xnp.reshape(xnp.ravel(getmaskarray(a)).at[idx].set(vmask), a.shape)
    a._mask = make_mask(mask, shrink=True)
    return None


def _broadcasts(shape, target) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` (``numpy.copyto``'s rule)."""
    if len(shape) > len(target):
        return False
    return all(n in (1, t) for n, t in zip(shape[::-1], target[::-1]))


def putmask(a, mask, values):
    """Set the elements of ``a`` where ``mask`` (its data, if masked) is true to ``values``
    (broadcast), in place, as :func:`numpy.ma.putmask`."""
    if not isinstance(a, MaskedArray):
        a = a.view(MaskedArray)
    cond = _arr(getdata(mask), bool)     # NumPy reads a masked condition's data
    vals = _arr(getdata(values), a.dtype)
    if not _broadcasts(vals.shape, a.shape):
        raise ValueError(f"could not broadcast input array from shape {vals.shape} into "
                         f"shape {a.shape}")
    a._data = xnp.where(cond, vals, a._data)
    vm = getmask(values)
    if vm is not nomask:
        a._mask = xnp.where(cond, _arr(vm, bool), getmaskarray(a))
    elif a._mask is not nomask:
        a._mask = xnp.where(cond, False, a._mask)


def choose(indices, choices, out=None, mode="raise"):
    """Build an array from ``choices`` by ``indices``, with the masks, as
    :func:`numpy.ma.choose`."""
    def fmask(x):
        return True if x is _npma.masked else filled(x)

    def nmask(x):
        return getmaskarray(x) if isinstance(x, MaskedArray) else xnp.zeros((), bool)

    c = filled(indices, 0)
    masks = [nmask(x) for x in choices]
    data = [fmask(x) for x in choices]
    outmask = xnp.choose(c, masks, mode=mode)
    outmask = make_mask(xnp.logical_or(outmask, getmaskarray(indices)), copy=False,
                        shrink=True)
    d = xnp.choose(c, data, mode=mode)
    return masked_array(d, mask=outmask)


def inner(a, b):
    """Inner product with masked values taken as 0, as :func:`numpy.ma.inner`."""
    r = xnp.inner(xnp.atleast_1d(filled(a, 0)), xnp.atleast_1d(filled(b, 0)))
    return _scalar(r) if np.ndim(r) == 0 else masked_array(r)


innerproduct = inner


def outer(a, b):
    """Outer product with the union of the masks, as :func:`numpy.ma.outer`."""
    d = xnp.outer(xnp.ravel(filled(a, 0)), xnp.ravel(filled(b, 0)))
    if getmask(a) is nomask and getmask(b) is nomask:
        return masked_array(d)
    m = xnp.logical_or.outer(xnp.ravel(getmaskarray(a)), xnp.ravel(getmaskarray(b)))
    return masked_array(d, mask=make_mask(m, copy=False))


outerproduct = outer


def identity(n, dtype=None):
    """The identity matrix as a masked array, as :func:`numpy.ma.identity`."""
    return masked_array(xnp.identity(n, dtype=dtype))


def angle(z, deg=False):
    """The angle of complex values with the mask, as :func:`numpy.ma.angle`."""
    z = _ma(z)
    return MaskedArray._new(xnp.angle(z._data, deg=deg), z._mask)


def anom(a, axis=None, dtype=None):
    """Anomalies (deviations from the masked mean along ``axis``), as
    :func:`numpy.ma.anom`."""
    a = _ma(a)
    m = a.mean(axis, dtype)
    if m is _npma.masked or not axis:
        return a - m
    return a - MaskedArray(m).reshape(_keep_shape(a.shape, axis))


def _keep_shape(shp, axis):
    shp = list(shp)
    shp[axis] = 1
    return tuple(shp)


anomalies = anom


def allequal(a, b, fill_value=True):
    """Whether ``a`` and ``b`` are equal everywhere, masked elements counting as equal
    when ``fill_value`` is true, as :func:`numpy.ma.allequal`."""
    m = (getmaskarray(a) | getmaskarray(b)) if (getmask(a) is not nomask
                                                or getmask(b) is not nomask) else nomask
    d = xnp.equal(getdata(a), getdata(b))
    if m is nomask:
        return _scalar(xnp.all(d))
    if fill_value:
        return _scalar(xnp.all(xnp.where(m, True, d)))
    return False


def allclose(a, b, masked_equal=True, rtol=1e-5, atol=1e-8):
    """Whether ``a`` and ``b`` are equal within a tolerance, as :func:`numpy.ma.allclose`
    (masked elements count as equal when ``masked_equal``, infinities must match)."""
    x = array(a, copy=False)
    y = array(b, copy=False)
    dtype = np.result_type(y.dtype, np.float64)
    if y.dtype != dtype:
        y = y.astype(dtype)
    m = getmaskarray(x) | getmaskarray(y)
    xd, yd = getdata(x), getdata(y)
    xinf, yinf = xnp.isinf(xd), xnp.isinf(yd)
    if not bool(xnp.all(xnp.where(m, True, xinf == yinf))):
        return False
    if not bool(xnp.all(xnp.where(xinf & ~m, xd == yd, ~xinf | masked_equal))):
        return False
    with np.errstate(invalid="ignore"):
        close = xnp.less_equal(xnp.abs(xd - yd), atol + rtol * xnp.abs(yd))
    close = xnp.where(xinf, True, close)
    return np.bool_(bool(xnp.all(xnp.where(m, masked_equal, close))))


def flatten_mask(mask):
    """The mask flattened (structured masks are not supported, so this is ``ravel`` of
    a boolean mask), as :func:`numpy.ma.flatten_mask`."""
    return xnp.ravel(_arr(mask, bool))


def _unsupported(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"xnp.ma.{name}: structured (record) dtypes are not "
                                  "supported")
    fn.__name__ = name
    fn.__doc__ = f"Not supported: ``numpy.ma.{name}`` needs structured dtypes."
    return fn


flatten_structured_array = _unsupported("flatten_structured_array")
fromflex = _unsupported("fromflex")
mvoid = _npma.mvoid


def nonzero(a):
    """Indices of the unmasked nonzero elements, as :func:`numpy.ma.nonzero` (needs a
    concrete mask and data)."""
    a = _ma(a)
    return xnp.nonzero(xnp.asarray(a.filled(0), dtype=bool) if a.dtype != bool
                       else a.filled(False))


def compress(condition, a, axis=None, out=None):
    """The elements of ``a`` (with their mask) where ``condition`` is true, as
    :func:`numpy.ma.compress`."""
    a = _ma(a)
    cond = _arr(filled(condition, False), bool)
    return _mask_map(a, lambda x: xnp.compress(cond, x, axis=axis))


def _install_methods():
    def _take(self, indices, axis=None, out=None, mode="raise"):
        return take(self, indices, axis=axis, out=out, mode=mode)

    def _put(self, indices, values, mode="raise"):
        return put(self, indices, values, mode=mode)

    MaskedArray.take = _take
    MaskedArray.nonzero = nonzero
    MaskedArray.compress = lambda self, condition, axis=None, out=None: compress(
        condition, self, axis)
    MaskedArray.put = _put
    MaskedArray.repeat = lambda self, repeats, axis=None: repeat(self, repeats, axis)
    MaskedArray.diagonal = lambda self, offset=0, axis1=0, axis2=1: diagonal(
        self, offset, axis1, axis2)
    MaskedArray.anom = lambda self, axis=None, dtype=None: anom(self, axis, dtype)


_install_methods()
