"""``a.flat``: NumPy's flat iterator over an xnp array, which reads *and writes* ``a``.

Reads index the C-order ravel of ``a``; writes (``a.flat[k] = v``, ``a.flat = v``) become
a functional scatter into that ravel and rebind ``a`` to the result, so they work under
transformations as ``a[k] = v`` does. As in NumPy, a value shorter than the selection is
repeated to fill it.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

import xnp
from xnp._array import ndarray
from xnp._object_loops import object_scalar
from xnp._util import raw
from xnp._views import refresh, store_value, view_info, write_back
from xnp._writeable import check_writeable


class flatiter:
    """The iterator behind ``a.flat`` (NumPy's ``numpy.flatiter``).

    Indexing it indexes the flattened array; assigning through it writes into ``a``;
    iterating yields the elements in C order while ``index`` and ``coords`` follow.
    """

    __module__ = "xnp"     # prints as <class 'xnp.flatiter'>, as NumPy's 'numpy.flatiter'

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
        if self._index >= len(self):
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
        return self._ravel()[_flat_key(key, len(self), assign=False)]

    def __setitem__(self, key, value) -> None:
        key = _flat_key(key, len(self), assign=True)
        if type(key) is int:
            if not -len(self) <= key < len(self):
                raise IndexError(f"index {key} is out of bounds for size {len(self)}")
            if self.base.dtype.kind != "O" and xnp.ndim(value):
                raise ValueError("Error setting single item of array.")    # as NumPy's
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
        store_value(self.base, raw(xnp.reshape(flat, self.base.shape)))
        if view is not None:
            write_back(self.base, view)

    def __delitem__(self, key) -> None:
        raise TypeError("Cannot delete iterator elements")     # as NumPy's

    def copy(self, /) -> ndarray:
        """A flattened copy of the array."""
        return xnp.ravel(self.base).copy()

    def __array__(self, /, dtype=None, copy=None):
        return np.asarray(self._ravel(), dtype=dtype)

    def __len_hint__(self) -> int:
        return len(self) - self._index


_VALID = ("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays "
          "are valid indices")
_BOOL_LIST = ("boolean indices for iterators are not supported because of previous "
              "behavior that was confusing (valid boolean indices are expected to work in "
              "the future)")


def _deprecated(what: str) -> None:
    warnings.warn(f"{what} (Deprecated NumPy 2.4)", DeprecationWarning, stacklevel=4)


def _bool_scalar(key):
    _deprecated("Indexing flat iterators with a 0-dimensional boolean index is deprecated "
                "and may be removed in a future version.")
    return 0 if key else slice(0, 0)


def _flat_array_key(key, size: int):
    """NumPy's rules for an array used as a flat iterator's index."""
    kind = key.dtype.kind
    if kind == "b":
        if key.ndim == 0:
            return _bool_scalar(bool(key))
        if key.ndim > 1:
            raise IndexError("too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {key.ndim} were indexed")
        if key.shape[0] != size:
            raise IndexError("boolean index did not match indexed flat iterator along "
                             f"axis 0; size of axis is {size} but size of corresponding "
                             f"boolean axis is {key.shape[0]}")
        return key
    if kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return key


def _plain(seq) -> bool:
    """Whether a list holds only Python/NumPy scalars (possibly nested)."""
    return all(_plain(k) if isinstance(k, list) else isinstance(k, (int, float, np.generic))
               for k in seq)


def _flat_key(key, size: int, assign: bool):
    """Turn ``key`` of ``a.flat[key]`` into an index of ``ravel(a)``, with NumPy's errors."""
    if isinstance(key, tuple):
        if not key:
            if assign:
                raise IndexError("Assigning to a flat iterator with a 0-D index is not "
                                 "supported")
            return slice(None)
        if len(key) > 1:
            raise IndexError("too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {len(key)} were indexed")
        key = key[0]
    if key is Ellipsis:
        return slice(None)
    if isinstance(key, slice):
        return key
    if isinstance(key, (bool, np.bool_)):
        return _bool_scalar(key)
    if isinstance(key, flatiter):
        key = key.copy()
        if key.dtype.kind in "SUO":    # NumPy reads such a flat iterator as a sequence
            if key.size:
                raise IndexError(_VALID)
            return np.zeros(0, np.intp)
    if isinstance(key, (ndarray, np.ndarray)):
        return _flat_array_key(key, size)
    if isinstance(key, list) and _plain(key):
        arr = np.asarray(key)
        if arr.dtype.kind == "b":
            raise IndexError(_BOOL_LIST)
        if arr.dtype.kind == "f":
            _deprecated("Invalid non-array indices for iterator objects are deprecated "
                        "and will be removed in a future version.")
            return arr.astype(np.intp)
        return _flat_array_key(arr if arr.size else arr.astype(np.intp), size)
    if key is None or isinstance(key, (str, bytes)):
        raise IndexError(_VALID)
    try:
        return operator.index(key)
    except TypeError:
        if not isinstance(key, (float, np.floating)):
            raise IndexError(_VALID) from None
    _deprecated("Invalid non-array indices for iterator objects are deprecated and will "
                "be removed in a future version.")
    return int(key)


def _get_flat(self: ndarray) -> flatiter:
    return flatiter(self)


def _set_flat(self: ndarray, value) -> None:
    flatiter(self)[...] = value


flat_property = property(_get_flat, _set_flat, doc="A flat iterator over the array; "
                         "assigning through it (``a.flat[k] = v``) writes into the array.")
