"""Write-through views: after ``row = a[0]``, ``row[1] = 5`` changes ``a``, as in NumPy.

xnp arrays are handles over immutable values, so a view cannot share memory with its
base under transformations. Instead a handle made by basic indexing (integers, slices,
``...``, ``None``: the keys for which NumPy returns a view) remembers its base handle and
key. A write into such a view (item assignment, an in-place operator, ``out=``, ``fill``,
``sort``, ``flat``) runs in three steps:

1. :func:`refresh` re-reads the view from its base, so writes made to the base since the
   view was taken are kept;
2. the write itself, functional as every write in xnp (so it works under grad/vmap/jit);
3. :func:`write_back` stores the view into ``base[key]``, itself a write, so views of
   views propagate to the outermost array.

Reads are not refreshed: after ``a[0, 0] = 1``, an earlier ``row = a[0]`` still shows
the old element until the next write into ``row`` (NumPy would show the new one).
"""

from __future__ import annotations

import numpy as np

from xnp._array import ndarray

_BASIC = (int, np.integer, slice, type(None), type(Ellipsis))


def is_basic_key(key) -> bool:
    """Whether NumPy's ``x[key]`` is a view: integers, slices, Ellipsis and None only
    (a bool is an advanced index)."""
    if type(key) is tuple:
        return all(isinstance(k, _BASIC) and type(k) is not bool for k in key)
    return isinstance(key, _BASIC) and type(key) is not bool


def mark_view(view: ndarray, base: ndarray, key) -> ndarray:
    """Record that ``view`` is ``base[key]`` (a NumPy scalar result is no view)."""
    if not isinstance(view._value, np.generic):
        view._view_of = (base, key)
    return view


def view_info(h: ndarray):
    """``(base, key)`` if ``h`` is a view, else None."""
    return getattr(h, "_view_of", None)


def refresh(h: ndarray, info) -> None:
    """Step 1: the view's value as its base holds it now."""
    from xnp._indexing import index_value
    base, key = info
    h._value = index_value(base._value, key)


def write_back(h: ndarray, info) -> None:
    """Step 3: store the written view into its base."""
    base, key = info
    base[key] = h._value
