"""``reduce``, ``accumulate`` and ``outer`` of ``xnp.ma``'s binary functions
(``ma.add.reduce``, ``ma.maximum.outer``, ...), with numpy.ma's mask rules: masked elements
are replaced by the operation's identity-like fill before reducing, and a reduction is
masked where every element was."""

from __future__ import annotations

import warnings

import numpy as np

import xnp
from xnp.ma._core import (
    MaskedArray,
    _is_traced,
    _scalar,
    getdata,
    getmask,
    getmaskarray,
    masked,
    nomask,
)

# numpy.ma's ``filly`` of each binary operation (what masked elements become in reduce).
_FILLS = {"multiply": 1, "arctan2": 1.0, "divide": 1, "true_divide": 1, "floor_divide": 1,
          "remainder": 1, "mod": 1, "fmod": 1, "logical_and": 1, "alltrue": 1}


def _filled(a, value):
    if isinstance(a, MaskedArray):
        return a.filled(value)
    return xnp.asarray(a)


def _wrap(data, mask):
    if data.ndim == 0:
        if mask is nomask:
            return _scalar(data)
        if not _is_traced(mask):
            return masked if bool(mask) else _scalar(data)
    return MaskedArray._new(data, mask)


def make_reduce(name):
    """``ma.<name>.reduce``: the ufunc's reduction of the filled data; masked where all
    the reduced elements are."""
    ufunc = getattr(xnp, name)
    fill = _FILLS.get(name, 0)

    def reduce(target, axis=0, dtype=None):
        m = getmask(target)
        t = _filled(target, fill)
        if t.ndim == 0:
            t = xnp.reshape(t, (1,))
            if m is not nomask:
                m = xnp.reshape(m, (1,))
        if m is nomask:
            return _wrap(xnp.asarray(ufunc.reduce(t, axis)), nomask)
        tr = xnp.asarray(ufunc.reduce(t, axis, dtype=dtype))
        return _wrap(tr, xnp.all(m, axis=axis))
    reduce.__name__ = "reduce"
    reduce.__doc__ = f"Masked ``{name}.reduce``, as ``numpy.ma.{name}.reduce``."
    return reduce


def make_accumulate(name):
    """``ma.<name>.accumulate``: the ufunc's accumulation of the filled data (unmasked)."""
    ufunc = getattr(xnp, name)
    fill = _FILLS.get(name, 0)

    def accumulate(target, axis=0):
        return MaskedArray._new(xnp.asarray(ufunc.accumulate(_filled(target, fill), axis)),
                                nomask)
    accumulate.__name__ = "accumulate"
    accumulate.__doc__ = f"Masked ``{name}.accumulate``, as ``numpy.ma.{name}.accumulate``."
    return accumulate


def _outer_mask(a, b):
    if getmask(a) is nomask and getmask(b) is nomask:
        return nomask
    return xnp.logical_or.outer(getmaskarray(a), getmaskarray(b))


def make_outer(name):
    """``ma.<name>.outer``: masked where either operand is; masked places keep the
    first operand's data."""
    ufunc = getattr(xnp, name)

    def outer(a, b):
        da, db = getdata(a), getdata(b)
        d = xnp.asarray(ufunc.outer(da, db))
        m = _outer_mask(a, b)
        if m is not nomask:
            if m.ndim == 0 and not _is_traced(m) and bool(m):
                return masked
            try:
                d = xnp.where(m, da.astype(d.dtype), d)
            except ValueError:
                pass
        if d.ndim == 0:
            return _scalar(d)
        return MaskedArray._new(d, m)
    outer.__name__ = "outer"
    outer.__doc__ = f"Masked ``{name}.outer``, as ``numpy.ma.{name}.outer``."
    return outer


def make_extremum_reduce(name):
    """``ma.maximum.reduce`` / ``ma.minimum.reduce``: masked elements are filled with the
    value that cannot win."""
    from xnp.ma._more import maximum_fill_value, minimum_fill_value
    ufunc = getattr(xnp, name)
    fill_fn = minimum_fill_value if name == "minimum" else maximum_fill_value

    def reduce(target, axis=np._NoValue):
        target = target if isinstance(target, MaskedArray) else MaskedArray(target)
        m = getmask(target)
        if axis is np._NoValue and target.ndim > 1:
            warnings.warn(f"In the future the default for ma.{name}.reduce will be "
                          f"axis=0, not the current None, to match np.{name}.reduce. "
                          "Explicitly pass 0 or None to silence this warning.",
                          DeprecationWarning, stacklevel=2)
            axis = None
        kwargs = {} if axis is np._NoValue else {"axis": axis}
        if m is nomask:
            return _wrap(xnp.asarray(ufunc.reduce(target._data, **kwargs)), nomask)
        t = xnp.asarray(ufunc.reduce(target.filled(fill_fn(target)), **kwargs))
        return _wrap(t, xnp.asarray(xnp.logical_and.reduce(m, **kwargs)))
    reduce.__name__ = "reduce"
    reduce.__doc__ = f"Masked ``{name}.reduce``, as ``numpy.ma.{name}.reduce``."
    return reduce


def make_extremum_outer(name):
    """``ma.maximum.outer`` / ``ma.minimum.outer`` of the filled data, masked where
    either operand is."""
    ufunc = getattr(xnp, name)

    def outer(a, b):
        d = xnp.asarray(ufunc.outer(_filled(a, None), _filled(b, None)))
        return MaskedArray._new(d, _outer_mask(a, b))
    outer.__name__ = "outer"
    outer.__doc__ = f"Masked ``{name}.outer``, as ``numpy.ma.{name}.outer``."
    return outer


def attach(fn, name):
    """Give the masked binary function ``fn`` (for xnp's ufunc ``name``) its ``reduce``,
    ``accumulate`` and ``outer``."""
    if name in ("maximum", "minimum"):
        fn.reduce = make_extremum_reduce(name)
        fn.outer = make_extremum_outer(name)
    else:
        fn.reduce = make_reduce(name)
        fn.outer = make_outer(name)
    fn.accumulate = make_accumulate(name)
    return fn
