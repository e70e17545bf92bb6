"""``a.flat``: NumPy's flat iterator over an xnp array, which reads *and writes* ``a``.

Reads index the C-order ravel of ``a``; writes (``a.flat[k] = v``, ``a.flat = v``) become
a functional scatter into that ravel and rebind ``a`` to the result, so they work under
transformations as ``a[k] = v`` does. As in NumPy, a value shorter than the selection is
repeated to fill it.
"""

from __future__ import annotations

import math

import numpy as np

import xnp
from xnp._array import ndarray
from xnp._object_loops import object_scalar
from xnp._util import raw
from xnp._views import refresh, view_info, write_back
from xnp._writeable import check_writeable


class flatiter:
    """The iterator behind ``a.flat`` (NumPy's ``numpy.flatiter``).

    Indexing it indexes the flattened array; assigning through it writes into ``a``;
    iterating yields the elements in C order while ``index`` and ``coords`` follow.
    """

    __slots__ = ("base", "_index")

    def __init__(self, base: ndarray):
        self.base = base
        self._index = 0

    def _ravel(self) -> ndarray:
        return xnp.ravel(self.base)

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self) -> flatiter:
        return self

    def __next__(self):
        if self._index >= self.base.size:
            raise StopIteration
        item = self._ravel()[self._index]
        self._index += 1
        return item

    @property
    def index(self) -> int:
        """The flat position of the next element."""
        return self._index

    @property
    def coords(self) -> tuple:
        """The N-dimensional index of the next element."""
        return tuple(int(i) for i in np.unravel_index(self._index, self.base.shape))

    def __getitem__(self, key):
        return self._ravel()[key]

    def __setitem__(self, key, value) -> None:
        view = view_info(self.base)
        if view is not None:
            refresh(self.base, view)
        flat = self._ravel()
        selected = xnp.shape(flat[key])
        if selected == () and self.base.dtype.kind == "O":
            value = object_scalar(value)    # the one element holds the value itself
        v = xnp.asarray(value)
        if v.shape != selected and v.ndim <= 1 and v.size:
            # NumPy fills the selection by repeating the value's elements in order.
            v = xnp.resize(v, selected)
        flat = flat.at[key].set(v.astype(self.base.dtype))
        check_writeable(self.base)
        self.base._value = raw(xnp.reshape(flat, self.base.shape))
        if view is not None:
            write_back(self.base, view)

    def copy(self) -> ndarray:
        """A flattened copy of the array."""
        return xnp.ravel(self.base).copy()

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._ravel(), dtype=dtype)

    def __len_hint__(self) -> int:
        return self.base.size - self._index

    def __repr__(self) -> str:
        return f"<xnp.flatiter object of shape ({math.prod(self.base.shape)},)>"


def _get_flat(self: ndarray) -> flatiter:
    return flatiter(self)


def _set_flat(self: ndarray, value) -> None:
    flatiter(self)[...] = value


flat_property = property(_get_flat, _set_flat, doc="A flat iterator over the array; "
                         "assigning through it (``a.flat[k] = v``) writes into the array.")
