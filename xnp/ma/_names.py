"""More ``numpy.ma`` names: shifts, fill-value and mask-dtype helpers, MaskedArray.tobytes."""

from __future__ import annotations

import numpy.ma as _npma

import xnp
from xnp._writeable import Flags
from xnp.ma._core import MaskedArray, getdata, getmask, nomask
from xnp.ma._funcs import default_fill_value, filled, mask_or, masked_array


def _shift(ufunc_name):
    def shift(a, n):
        ma, mn = getmask(a), getmask(n)
        data = getdata(a) if ma is nomask else filled(a, 0)
        d = getattr(xnp, ufunc_name)(data, getdata(n))
        return masked_array(d, mask=mask_or(ma, mn))
    shift.__name__ = shift.__qualname__ = ufunc_name
    shift.__doc__ = (f"``{ufunc_name}`` of the data (masked elements read as 0), masked "
                     f"where ``a`` or ``n`` is, as :func:`numpy.ma.{ufunc_name}`.")
    return shift


left_shift = _shift("left_shift")
right_shift = _shift("right_shift")


def get_fill_value(a):
    """The fill value of a masked array, else the default one for ``a``'s dtype."""
    if isinstance(a, MaskedArray):
        return a.fill_value
    return default_fill_value(a)


def common_fill_value(a, b):
    """The fill value of ``a`` and ``b`` if it is the same, else None, as
    :func:`numpy.ma.common_fill_value`."""
    ta, tb = get_fill_value(a), get_fill_value(b)
    return ta if ta == tb else None


def make_mask_descr(ndtype):
    """The dtype of a mask for ``ndtype``: bool (structured dtypes: one bool field per
    field), as :func:`numpy.ma.make_mask_descr`; a computation on dtypes only."""
    return _npma.make_mask_descr(ndtype)


def harden_mask(a):
    """``a.harden_mask()``: xnp.ma has no hard masks (raises NotImplementedError)."""
    return a.harden_mask()


def soften_mask(a):
    """``a.soften_mask()``: masks are always soft in xnp.ma; returns ``a``."""
    return a.soften_mask()


def _tobytes(self, fill_value=None, order="C"):
    """The bytes of the filled data (masked elements as ``fill_value``), as
    :meth:`numpy.ma.MaskedArray.tobytes`."""
    return self.filled(fill_value).tobytes(order=order)


MaskedArray.tobytes = _tobytes
bool_ = xnp.bool_


class _MaskedFlags(Flags):
    """A masked array's flags: its data's, and (a view, as in NumPy) not owning its data."""

    __slots__ = ()

    @property
    def owndata(self) -> bool:
        return False


MaskedArray.flags = property(lambda self: _MaskedFlags(self._data),
                             doc="The flags of the data (``ndarray.flags``).")
