"""NumPy's file and buffer I/O for xnp arrays: save/load, text files, raw buffers.

Reading and writing data is not array computation: these functions are NumPy's own,
given the NumPy values of xnp arrays and returning xnp arrays, so files written by xnp
are NumPy's files byte for byte. Under a transformation there is no value to write: a
traced array raises xnp's conversion error (write after the transformation, or return
the values from it).
"""

from __future__ import annotations

from typing import Callable

import numpy

from xnp._array import _wrap as _wrap_value
from xnp._util import numpy_values
from xnp._writeable import read_only

__all__ = ["save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt",
           "fromfile", "frombuffer", "fromstring", "fromiter", "fromregex"]


def _as_xnp(obj):
    t = type(obj)
    if t is numpy.ndarray and obj.dtype.kind not in "OUSVMm":
        # NumPy's read-only results (frombuffer of bytes) stay read-only
        return _wrap_value(obj) if obj.flags.writeable else read_only(_wrap_value(obj))
    if t is tuple:
        return tuple(_as_xnp(x) for x in obj)
    if t is numpy.lib.npyio.NpzFile:
        obj.__class__ = NpzFile      # the same file, read as xnp arrays
        return obj
    if t is numpy.ma.MaskedArray and obj.dtype.kind not in "OUSVMm":
        # genfromtxt(..., usemask=True): an xnp masked array, which xnp.ma and xnp's
        # reductions understand (NumPy's would be summed as its data)
        from xnp import ma
        return ma.MaskedArray(_wrap_value(obj.data),
                              mask=_wrap_value(numpy.ma.getmaskarray(obj)),
                              fill_value=obj.fill_value)
    return obj


def _numpy_io(name: str) -> Callable:
    fn = getattr(numpy, name)

    def io(*args, **kwargs):
        return _as_xnp(fn(*numpy_values(args), **numpy_values(kwargs)))
    io.__name__ = io.__qualname__ = name
    io.__doc__ = (f"``numpy.{name}`` on the NumPy values of xnp arrays; array results "
                  "are xnp arrays (arrays of strings, objects or dates, which xnp does not "
                  "have, stay NumPy's). See :mod:`xnp._numpy_io`.\n\n" +
                  (fn.__doc__ or "").split("\n\n")[0].strip())
    return io


class NpzFile(numpy.lib.npyio.NpzFile):
    """The arrays of an ``.npz`` file (``xnp.load``), read lazily as xnp arrays.

    NumPy's ``NpzFile`` (so ``files``, ``f``, ``fid``, ``zip``, ``close``, the context
    manager and the ``repr`` are NumPy's, and ``isinstance(npz, numpy.lib.npyio.NpzFile)``
    holds), whose items are xnp arrays.
    """

    def __getitem__(self, key):
        return _as_xnp(super().__getitem__(key))


save = _numpy_io("save")
savez = _numpy_io("savez")
savez_compressed = _numpy_io("savez_compressed")
savetxt = _numpy_io("savetxt")
load = _numpy_io("load")
loadtxt = _numpy_io("loadtxt")
genfromtxt = _numpy_io("genfromtxt")
fromfile = _numpy_io("fromfile")
frombuffer = _numpy_io("frombuffer")
fromstring = _numpy_io("fromstring")
fromiter = _numpy_io("fromiter")
fromregex = _numpy_io("fromregex")
