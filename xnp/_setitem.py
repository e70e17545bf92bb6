"""``a[key] = value`` for xnp arrays: in place into a buffer nothing else can see, through
a view into its base (xnp/_views.py), or as a functional update (under transformations).
"""

from __future__ import annotations

import numpy as np

import xnp
from transforms.core import _EVAL_TRACE, Tracer, _n_active, _state
from xnp._array import ndarray
from xnp._masked_update import MaskedRead
from xnp._views import (
    ViewTransform,
    buffer_writable_in_place,
    read_view,
    refresh,
    store_value,
    view_info,
    write_back,
)
from xnp._writeable import check_writeable


def _setitem(self, key, value):
    check_writeable(self)
    if type(value) is MaskedRead:          # x[mask] op= u with a traced mask
        key, value = ..., value.assigned_to(self, key)
    if value is None:                       # NumPy converts None as float(None) would
        value = _none_as(self.dtype)
    view = view_info(self)
    if view is None:
        if not _setitem_in_place(self, key, value):     # (views of self see the write)
            store_value(self, xnp._index_update.setitem_value(self, key, value))
        return
    base, base_key = view
    if view_info(base) is None:
        # The view's own NumPy view of the base buffer would defeat the in-place check
        # on that buffer: drop it, write base[base_key][key] in place if allowed, then
        # take the view afresh.
        self._value = None
        try:
            done = _setitem_in_place(base, key, value, through=base_key)
        except BaseException:
            refresh(self, view)
            raise
        if done:
            self._value = read_view(base._value, base_key)
            return
    refresh(self, view)
    self._value = xnp._index_update.setitem_value(self, key, value)
    write_back(self, view)


_PLAIN_KEY_TYPES = (int, slice, type(None), type(Ellipsis), np.ndarray, np.integer)


def _none_as(dtype: np.dtype):
    """``a[k] = None``: NaN in float and complex arrays, False in boolean ones, an error
    elsewhere, as NumPy's conversions give; object arrays hold None itself."""
    if dtype.kind in "fc":
        return np.nan
    if dtype.kind == "O":
        return None
    if dtype.kind == "b":
        return False
    raise TypeError("int() argument must be a string, a bytes-like object or a real "
                    "number, not 'NoneType'")


def _plain_sequence(value) -> bool:
    """Whether a (nested) list holds Python and NumPy scalars only."""
    for item in value:
        if type(item) in (list, tuple):
            if not _plain_sequence(item):
                return False
        elif not isinstance(item, (int, float, complex, np.generic)):
            return False
    return True


def _setitem_in_place(self, key, value, through=None) -> bool:
    """Eagerly, ``a[key] = value`` writes into ``a``'s NumPy buffer when nothing else can
    see that buffer: no other reference to it (no second handle, view, tape residual or
    jit constant), it owns its memory and is writeable, and key and value are concrete.
    Then the write is unobservable except through ``a``, so it is the functional update
    done without the copy: an element-by-element loop costs O(1) per write, as in NumPy,
    instead of a copy of the whole array. NumPy's own setitem gives the same casting,
    broadcasting and errors. With ``through`` (a basic key), writes
    ``a[through][key] = value`` instead. Returns False where the functional path must
    run."""
    if _n_active[0] and _state.trace is not _EVAL_TRACE:
        return False
    buf = self._value
    if not buffer_writable_in_place(self, buf):
        return False
    if type(key) is tuple:
        parts = []
        for k in key:
            if type(k) is ndarray:
                k = k._value
            if not isinstance(k, _PLAIN_KEY_TYPES) or isinstance(k, bool):
                return False
            parts.append(k)
        key = tuple(parts)
    else:
        if type(key) is ndarray:
            key = key._value
        if not isinstance(key, _PLAIN_KEY_TYPES) or isinstance(key, bool):
            return False
    if type(value) is ndarray and buf.dtype.kind != "O":   # (an object array keeps it)
        value = value._value
    elif type(value) is list:   # NumPy converts it itself: its casts and OverflowErrors
        if not _plain_sequence(value) and buf.dtype.kind != "O":
            return False
    elif type(value) is str:    # NumPy parses it for a number array, with its errors
        pass
    elif isinstance(value, Tracer) or not isinstance(
            value, (np.ndarray, np.generic, int, float, complex, bool)):
        return False
    if isinstance(key, np.ndarray) and key.dtype == bool and key.shape == buf.shape and \
            through is None and buf.dtype.kind != "O":
        pass                # a mask of the whole array (``Z[abs(Z) < 2] = ...``): NumPy's
    elif isinstance(key, np.ndarray) and key.dtype == bool or \
            type(key) is tuple and any(isinstance(k, np.ndarray) and k.dtype == bool
                                       for k in key):
        return False        # boolean masks: the functional path checks shapes as xnp does
    if through is None:
        buf[key] = value
    elif isinstance(through, ViewTransform):    # a write into a view (xnp/_views.py)
        target = through.numpy_view(buf)
        if target is None or not np.may_share_memory(target, buf):
            return False
        target[key] = value
    else:                                       # a write into the view base[through]
        buf[through][key] = value
    return True
