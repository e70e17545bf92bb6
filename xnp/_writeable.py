"""Read-only arrays: NumPy's ``WRITEABLE`` flag for xnp arrays.

NumPy hands out read-only arrays where a write would be a mistake (``broadcast_to``,
``sliding_window_view``, views of a read-only array) and lets code freeze an array with
``a.flags.writeable = False`` or ``a.setflags(write=False)``. xnp keeps the ids of read-only
handles in one weak registry (so a writeable array, the common case, pays one dict lookup
per write) and every path that writes a handle in place calls :func:`check_writeable`.
"""

from __future__ import annotations

import weakref

_READ_ONLY: dict = {}          # id(handle) -> weakref to it


def is_writeable(h) -> bool:
    return not (_READ_ONLY and id(h) in _READ_ONLY)


def set_writeable(h, writeable: bool) -> None:
    key = id(h)
    if writeable:
        _READ_ONLY.pop(key, None)
    elif key not in _READ_ONLY:
        _READ_ONLY[key] = weakref.ref(h, lambda _, key=key: _READ_ONLY.pop(key, None))


def read_only(h):
    """Mark ``h`` read-only and return it."""
    set_writeable(h, False)
    return h


def check_writeable(h, what: str = "assignment destination") -> None:
    """Raise NumPy's ValueError if ``h`` is read-only (``what``: NumPy's wording,
    'assignment destination' for writes, 'output array' for ``out=`` and ``a += b``)."""
    if _READ_ONLY and id(h) in _READ_ONLY:
        raise ValueError(f"{what} is read-only")


class Flags:
    """``ndarray.flags``: NumPy's layout flags of the array's value (those of a fresh
    C-ordered array when traced), with xnp's live ``writeable`` flag."""

    __slots__ = ("_array", "_layout")

    def __init__(self, array):
        self._array = array
        from xnp._layout import layout_flags
        self._layout = layout_flags(array._value, array.shape, array.dtype)

    @property
    def writeable(self) -> bool:
        return is_writeable(self._array)

    @writeable.setter
    def writeable(self, value) -> None:
        set_writeable(self._array, bool(value))

    @property
    def owndata(self) -> bool:
        # A view (``a.view()``, ``a[1:]``) does not own its data even where its value
        # is the base's own buffer.
        return self._array.base is None and bool(self._layout.owndata)

    def __getattr__(self, name):
        return getattr(self._layout, name)

    def __setattr__(self, name, value):
        if name in Flags.__slots__ or name == "writeable":
            object.__setattr__(self, name, value)
        else:
            setattr(self._layout, name, value)

    def __getitem__(self, key):
        if key in ("WRITEABLE", "W"):
            return self.writeable
        if key in ("OWNDATA", "O"):
            return self.owndata
        return self._layout[key]

    def __setitem__(self, key, value):
        if key in ("WRITEABLE", "W"):
            self.writeable = value
        else:
            self._layout[key] = value

    def __eq__(self, other):
        return repr(self) == repr(other)

    def __repr__(self):
        text = repr(self._layout)
        return text.replace(f"WRITEABLE : {self._layout.writeable}",
                            f"WRITEABLE : {self.writeable}").replace(
            f"OWNDATA : {self._layout.owndata}", f"OWNDATA : {self.owndata}")


def setflags(self, write=None, align=None, uic=None) -> None:
    """``ndarray.setflags``: only ``write`` has an effect (alignment is not a property of
    xnp arrays; ``uic=True`` is NumPy's ValueError)."""
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        set_writeable(self, bool(write))
