"""``xnp.ma``'s construction, masking and joining functions."""

from __future__ import annotations

import numpy as np

import xnp
from xnp.ma._core import (
    MaskedArray,
    _arr,
    _check_fill,
    _full_mask,
    _is_traced,
    getdata,
    getmask,
    getmaskarray,
    masked,
    nomask,
)


def array(data, dtype=None, copy=False, order=None, mask=nomask, fill_value=None,
          keep_mask=True, hard_mask=False, shrink=True, subok=True, ndmin=0):
    return MaskedArray(data, mask=mask, dtype=dtype, copy=copy, fill_value=fill_value,
                       keep_mask=keep_mask, hard_mask=hard_mask, shrink=shrink, ndmin=ndmin)


masked_array = MaskedArray


def asarray(a, dtype=None, order=None):
    if isinstance(a, MaskedArray) and (dtype is None or np.dtype(dtype) == a.dtype):
        return a
    return MaskedArray(a, dtype=dtype)


asanyarray = asarray


def _wrap_creation(fn):
    def create(*args, fill_value=None, hardmask=False, **kwargs):
        out = MaskedArray._new(fn(*args, **kwargs), nomask)
        if fill_value is not None:
            out.fill_value = fill_value
        return out
    create.__name__ = create.__qualname__ = fn.__name__
    return create


zeros = _wrap_creation(xnp.zeros)
ones = _wrap_creation(xnp.ones)
empty = _wrap_creation(xnp.empty)
arange = _wrap_creation(xnp.arange)
zeros_like = _wrap_creation(xnp.zeros_like)
ones_like = _wrap_creation(xnp.ones_like)
empty_like = _wrap_creation(xnp.empty_like)


# --- masks ----------------------------------------------------------------------------------
def make_mask(m, copy=False, shrink=True, dtype=np.bool_):
    if m is nomask:
        return nomask
    mv = getdata(m).astype(dtype) if isinstance(m, MaskedArray) else _arr(m).astype(dtype)
    if isinstance(m, MaskedArray) and m._mask is not nomask:
        mv = xnp.where(m._mask, xnp.ones((), dtype), mv)   # masked entries count as True
    if shrink and not _is_traced(mv) and not bool(xnp.any(mv)):
        return nomask
    return mv


def make_mask_none(newshape, dtype=None):
    return xnp.zeros(newshape, dtype=bool)


def mask_or(m1, m2, copy=False, shrink=True):
    if m1 is nomask or m1 is False:
        return make_mask(m2, copy=copy, shrink=shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, copy=copy, shrink=shrink)
    if m1 is m2 and isinstance(m1, xnp.ndarray):
        return m1
    return make_mask(xnp.logical_or(_arr(m1), _arr(m2)), copy=copy, shrink=shrink)


def is_masked(x) -> bool:
    m = getmask(x)
    if m is nomask:
        return False
    return bool(xnp.any(m))


def is_mask(m) -> bool:
    return isinstance(m, xnp.ndarray) and m.dtype == bool


def count_masked(arr, axis=None):
    return xnp.sum(getmaskarray(arr), axis=axis)


def count(a, axis=None, keepdims=False):
    from xnp.ma._reductions import count as _count
    return _count(a, axis, keepdims)


# --- masking functions ----------------------------------------------------------------------
def masked_where(condition, a, copy=True):
    cond = make_mask(condition, shrink=False)
    a = a if isinstance(a, MaskedArray) else _arr(a)
    if cond.shape != a.shape:
        raise IndexError("Inconsistent shape between the condition and the input "
                         f"(got {cond.shape} and {a.shape})")
    data = getdata(a)
    if copy:
        data = xnp.array(data)
    m = getmask(a)
    # as NumPy: an all-false condition on an unmasked input leaves ``nomask``
    mask = make_mask(cond, shrink=True) if m is nomask else xnp.logical_or(cond, m)
    fill = a._fill_value if isinstance(a, MaskedArray) else None
    return MaskedArray._new(data, mask, fill)


def _cmp_mask(fn):
    def masker(x, value, copy=True):
        return masked_where(fn(getdata(x), value), x, copy=copy)
    masker.__name__ = masker.__qualname__ = f"masked_{fn.__name__}"
    return masker


masked_greater = _cmp_mask(xnp.greater)
masked_greater_equal = _cmp_mask(xnp.greater_equal)
masked_less = _cmp_mask(xnp.less)
masked_less_equal = _cmp_mask(xnp.less_equal)
masked_not_equal = _cmp_mask(xnp.not_equal)


def masked_equal(x, value, copy=True):
    out = masked_where(xnp.equal(getdata(x), value), x, copy=copy)
    out.fill_value = value
    return out


def masked_inside(x, v1, v2, copy=True):
    if v2 < v1:
        v1, v2 = v2, v1
    d = getdata(x)
    return masked_where(xnp.logical_and(xnp.greater_equal(d, v1), xnp.less_equal(d, v2)),
                        x, copy=copy)


def masked_outside(x, v1, v2, copy=True):
    if v2 < v1:
        v1, v2 = v2, v1
    d = getdata(x)
    return masked_where(xnp.logical_or(xnp.less(d, v1), xnp.greater(d, v2)), x, copy=copy)


def masked_invalid(a, copy=True):
    a = a if isinstance(a, MaskedArray) else _arr(a)
    return masked_where(xnp.logical_not(xnp.isfinite(getdata(a))), a, copy=copy)


def masked_values(x, value, rtol=1e-05, atol=1e-08, copy=True, shrink=True):
    d = getdata(x)
    if d.dtype.kind == "f":
        cond = xnp.isclose(d, value, atol=atol, rtol=rtol)
    else:
        cond = xnp.equal(d, value)
    out = masked_where(cond, x, copy=copy)
    if shrink and not _is_traced(out._mask) and not bool(xnp.any(out._mask)):
        out._mask = nomask
    out.fill_value = value
    return out


def masked_object(x, value, copy=True, shrink=True):
    return masked_equal(x, value, copy=copy)


def fix_invalid(a, mask=nomask, copy=True, fill_value=None):
    a = MaskedArray(a, mask=mask, copy=copy)
    invalid = xnp.logical_not(xnp.isfinite(a._data))
    fill = np.asarray(a.fill_value if fill_value is None else fill_value)
    with np.errstate(all="ignore"):
        fill = fill.astype(a.dtype)
    data = xnp.where(invalid, fill, a._data)
    m = invalid if a._mask is nomask else xnp.logical_or(a._mask, invalid)
    return MaskedArray._new(data, m, a._fill_value)


# --- joining and selecting ------------------------------------------------------------------
def _masks(arrays):
    if all(getmask(a) is nomask for a in arrays):
        return nomask
    return [getmaskarray(a) for a in arrays]


def concatenate(arrays, axis=0):
    data = xnp.concatenate([getdata(a) for a in arrays], axis=axis)
    ms = _masks(arrays)
    m = nomask if ms is nomask else xnp.concatenate(ms, axis=axis)
    return MaskedArray._new(data, m)


def _joiner(fn):
    def join(arrays, *args, **kwargs):
        arrays = list(arrays)
        data = fn([getdata(a) for a in arrays], *args, **kwargs)
        m = fn([getmaskarray(a) for a in arrays], *args, **kwargs)
        return MaskedArray._new(data, m)
    join.__name__ = join.__qualname__ = fn.__name__
    return join


stack = _joiner(xnp.stack)
vstack = row_stack = _joiner(xnp.vstack)
hstack = _joiner(xnp.hstack)
column_stack = _joiner(xnp.column_stack)
dstack = _joiner(xnp.dstack)


def where(condition, x=np._NoValue, y=np._NoValue):
    if x is np._NoValue and y is np._NoValue:
        return xnp.nonzero(MaskedArray(condition).filled(False))
    if x is np._NoValue or y is np._NoValue:
        raise ValueError("Must provide both 'x' and 'y' or neither.")
    cm = getmask(condition)
    c = MaskedArray(condition).filled(False)
    cd = _arr(c).astype(bool)
    xv = masked_zero(x)
    yv = masked_zero(y)
    data = xnp.where(cd, xv, yv)
    mx, my = getmask(x), getmask(y)
    if mx is nomask and my is nomask and cm is nomask:
        return MaskedArray._new(data, nomask)
    m = xnp.where(cd, getmaskarray(x) if x is not masked else True,
                  getmaskarray(y) if y is not masked else True)
    if cm is not nomask:
        m = xnp.logical_or(m, cm)
    m = _full_mask(m, data.shape)
    if not _is_traced(m) and not bool(xnp.any(m)):
        m = nomask
    return MaskedArray._new(data, m)


def masked_zero(x):
    if x is masked:
        return xnp.zeros((), masked.dtype)
    return getdata(x)


def clip(a, a_min=None, a_max=None, out=None, **kwargs):
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    lo = getdata(a_min) if isinstance(a_min, MaskedArray) else a_min
    hi = getdata(a_max) if isinstance(a_max, MaskedArray) else a_max
    data = xnp.clip(a._data, lo, hi, **kwargs)
    m = a._mask if a._mask is nomask else xnp.array(a._mask)
    return MaskedArray._new(data, m, a._fill_value)


def dot(a, b, strict=False, out=None):
    """Matrix product with masked elements counting as 0; a result is masked only where
    every product it sums involves a masked element (``strict=True``: any)."""
    da = a.filled(0) if isinstance(a, MaskedArray) else getdata(a)
    db = b.filled(0) if isinstance(b, MaskedArray) else getdata(b)
    data = xnp.dot(da, db)
    if getmask(a) is nomask and getmask(b) is nomask:
        if out is not None:
            from xnp.ma._methods import to_out
            return to_out(MaskedArray._new(data, nomask), out)
        return MaskedArray._new(data, nomask)
    am = getmaskarray(a) if isinstance(a, MaskedArray) else xnp.zeros(da.shape, bool)
    bm = getmaskarray(b) if isinstance(b, MaskedArray) else xnp.zeros(db.shape, bool)
    if strict:
        m = xnp.greater(xnp.dot(am.astype(np.intp), xnp.ones(bm.shape, np.intp))
                        + xnp.dot(xnp.ones(am.shape, np.intp), bm.astype(np.intp)), 0)
    else:
        m = xnp.logical_not(xnp.greater(
            xnp.dot(xnp.logical_not(am).astype(np.intp),
                    xnp.logical_not(bm).astype(np.intp)), 0))
    m = _full_mask(m, _arr(data).shape)
    if m.ndim == 0 and not _is_traced(m) and not bool(m):
        m = nomask           # NumPy's 0-d mask is np.False_, which is ``nomask``
    result = MaskedArray._new(data, m)
    if out is not None:
        from xnp.ma._methods import to_out
        return to_out(result, out)
    return result


def filled(a, fill_value=None):
    if isinstance(a, MaskedArray):
        return a.filled(fill_value)
    return _arr(a)


def compressed(x):
    return MaskedArray(x).compressed() if not isinstance(x, MaskedArray) else \
        x.compressed()


def set_fill_value(a, fill_value):
    if isinstance(a, MaskedArray):
        a._fill_value = _check_fill(fill_value, a.dtype)


def default_fill_value(obj):
    import numpy.ma as npma
    if isinstance(obj, (MaskedArray, xnp.ndarray)):
        obj = np.zeros((), obj.dtype)
    return npma.default_fill_value(obj)


def _shape_fn(name):
    def fn(a, *args, **kwargs):
        a = a if isinstance(a, MaskedArray) else MaskedArray(a)
        return getattr(a, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


reshape = _shape_fn("reshape")
ravel = _shape_fn("ravel")
transpose = _shape_fn("transpose")
squeeze = _shape_fn("squeeze")
swapaxes = _shape_fn("swapaxes")
copy = _shape_fn("copy")
