"""Indexing of concrete arrays by concrete keys: one NumPy call.

``x[idx]`` through gather costs some 40 us of Python (parsing the key, building index
vectors and dimension numbers), and ``x[i]`` through slice and reshape some 4 us, where
NumPy needs well under one. When neither the array nor any index is traced, ``index_p``
runs ``numpy.ndarray.__getitem__`` itself; under a transformation it expands to the
general path of ``_indexing.py`` (slices, or one gather). Basic keys give NumPy's views,
which xnp never writes through: in-place updates of an array whose buffer another value
shares copy first.
"""

from __future__ import annotations

import operator

import numpy as np

from transforms.core import CompositePrimitive, Tracer
from xnp._array import ndarray
from xnp._util import raw

_PLAIN = (int, slice, type(None), type(Ellipsis), bool)


def numpy_key(key):
    """``(template, arrays)`` when ``key`` holds only ints, slices, None, Ellipsis and
    concrete integer or boolean index arrays; else None. The template is the key with
    each array replaced by its position in ``arrays``."""
    items = key if type(key) is tuple else (key,)
    template, arrays = [], []
    for k in items:
        if type(k) is ndarray:
            k = k._value
        t = type(k)
        if t is np.ndarray:
            if k.dtype.kind not in "biu":
                return None
            template.append(_Slot(len(arrays)))
            arrays.append(k)
        elif t in _PLAIN or isinstance(k, np.integer):
            template.append(k)
        else:
            k = _foreign_index(k)
            if type(k) is int:
                template.append(k)
            elif type(k) is np.ndarray and k.dtype.kind in "biu":
                template.append(_Slot(len(arrays)))
                arrays.append(k)
            else:
                return None
    return (tuple(template) if type(key) is tuple else template[0]), arrays


def _foreign_index(k):
    """An index item of another type, as NumPy reads it: ``__index__`` gives an integer,
    ``__array__`` an array; anything else is left for the general path to reject."""
    if isinstance(k, (np.generic, list, tuple, float, Tracer)):
        return k
    if hasattr(k, "__index__"):
        return operator.index(k)
    if hasattr(k, "__array__") and not isinstance(k, ndarray):
        return raw(k)
    return k


class _Slot:
    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i


def _rebuild(template, arrays):
    if type(template) is tuple:
        return tuple(arrays[k.i] if type(k) is _Slot else k for k in template)
    return arrays[template.i] if type(template) is _Slot else template


def _numpy_getitem(v, *arrays, template):
    return np.asarray(v)[_rebuild(template, arrays)]


def _general_getitem(v, *arrays, template):
    from xnp._indexing import general_index_value
    return general_index_value(v, _rebuild(template, arrays))


index_p = CompositePrimitive("index", impl=_numpy_getitem, expand=_general_getitem)
