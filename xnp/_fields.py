"""``ndarray.getfield`` / ``setfield``: part of each element's bytes read (or written) as
another dtype, through byte views of the array (so a written field shows in the array)."""

from __future__ import annotations

import numpy as np


def getfield(self, dtype, offset=0):
    """The bytes ``offset:offset + dtype.itemsize`` of every element read as ``dtype``: a
    view that writes through, as :meth:`numpy.ndarray.getfield`."""
    dtype = np.dtype(dtype)
    offset = int(offset)
    if offset < 0:
        raise ValueError("offset is negative")
    if offset + dtype.itemsize > self.itemsize:
        raise ValueError("new type plus offset is larger than original type")
    if dtype == self.dtype and offset == 0:
        return self.view()
    # a new trailing axis of length 1 holds each element's bytes (whatever the strides)
    raw_bytes = self[..., None].view(np.uint8)
    return raw_bytes[..., offset:offset + dtype.itemsize].view(dtype)[..., 0]


def setfield(self, val, dtype, offset=0):
    """Write ``val`` into the field ``getfield(dtype, offset)`` of every element, as
    :meth:`numpy.ndarray.setfield`."""
    field = getfield(self, dtype, offset)
    field[...] = val


def byteswap_value(v):
    """A traced value with the bytes of each element reversed (``x.byteswap()`` under a
    transformation); complex parts are swapped one by one, as NumPy's."""
    from transforms.core import get_aval
    from xnp import lax
    dt = get_aval(v).dtype
    if dt.itemsize == 1:
        return v
    if dt.kind == "c":
        return lax.complex_p.bind(byteswap_value(lax.real_p.bind(v)),
                                  byteswap_value(lax.imag_p.bind(v)))
    b = lax.bitcast_convert_type_p.bind(v, new_dtype=np.dtype(np.uint8))
    b = lax.rev_p.bind(b, dimensions=(len(get_aval(b).shape) - 1,))
    return lax.bitcast_convert_type_p.bind(b, new_dtype=dt)
