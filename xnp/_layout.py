"""Memory layout of concrete xnp arrays, as NumPy reports it.

An xnp array is a value; its layout matters only for what NumPy shows of it: ``flags``,
``strides``, and the reading order of ``ravel``/``flatten``/``copy`` with ``order='K'`` or
``'A'``. Eagerly an array's value is a NumPy array whose layout follows NumPy's own rules
(a transpose is a Fortran-ordered view, ``asfortranarray`` copies into Fortran order), so
these report what NumPy would. Traced values and compiled results are C-ordered.
"""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer

__all__: list = []


def order_letter(order, default: str = "K") -> str:
    """NumPy's ``order`` argument as one of 'C', 'F', 'A', 'K' (lower case accepted, as
    NumPy; None gives ``default``), or NumPy's TypeError/ValueError."""
    if order is None:
        return default
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() in ("C", "F", "A", "K"):
        return order.upper()
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def numpy_value(v) -> np.ndarray | None:
    """The NumPy array behind a concrete value; None when ``v`` is traced."""
    if type(v) is np.ndarray:
        return v
    if isinstance(v, Tracer):
        return None
    return np.asarray(v)


def is_fortran(v) -> bool:
    """Whether the concrete value ``v`` is Fortran-contiguous and not C-contiguous."""
    a = numpy_value(v)
    return a is not None and a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous


def resolve_order(v, order: str) -> str:
    """'C' or 'F' for a reading or copying ``order`` of value ``v``: 'A' and 'K' mean
    Fortran order for a Fortran-ordered array (for other strided layouts 'K' reads in C
    order, where NumPy follows the strides)."""
    if order in ("A", "K"):
        return "F" if is_fortran(v) else "C"
    return "F" if order == "F" else "C"


def keep_order_axes(v) -> tuple | None:
    """The order of axes (outermost first) in which NumPy's ``order='K'`` reads the
    concrete value ``v`` when it is neither C- nor Fortran-contiguous (a transposed or
    swapped view of a strided array); None otherwise, and for traced values (read in C
    order). As NumPy's iterator: an insertion sort of the axes by decreasing absolute
    stride, where a comparison with a zero stride (a broadcast axis) decides nothing."""
    a = numpy_value(v)
    if a is None or a.ndim < 2 or a.flags.c_contiguous or a.flags.f_contiguous:
        return None
    strides = a.strides
    inner_first = list(range(a.ndim - 1, -1, -1))
    for i in range(1, a.ndim):
        stride, pos = strides[inner_first[i]], i
        for j in range(i - 1, -1, -1):
            other = strides[inner_first[j]]
            if stride and other:
                if abs(other) <= abs(stride):
                    break
                pos = j
        inner_first.insert(pos, inner_first.pop(i))
    perm = tuple(reversed(inner_first))
    return None if perm == tuple(range(a.ndim)) else perm


def with_order(v, order: str | None):
    """``v`` laid out in ``order`` ('C', 'F', 'A', 'K' or None to keep it), copied only
    when its layout differs; a traced value is returned as it is."""
    if order is None:
        return v
    order = order_letter(order)
    if order == "K":
        return v
    want = resolve_order(v, order)
    a = numpy_value(v)
    if a is None or a.ndim == 0:
        return v
    if a.flags.c_contiguous if want == "C" else a.flags.f_contiguous:
        return v
    from xnp import lax
    return lax.copy_p.bind(v, order=want)


def strides(v, shape: tuple, dtype: np.dtype) -> tuple:
    """NumPy's ``strides`` of a value: its own when concrete, else C order's."""
    a = numpy_value(v)
    if a is not None and a.shape == tuple(shape):
        return a.strides
    if 0 in shape:
        return np.empty(shape, dtype).strides
    out, step = [], dtype.itemsize
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def layout_flags(v, shape: tuple, dtype: np.dtype):
    """NumPy's flags object describing the layout of a value (a fresh C-ordered array's
    for a traced one)."""
    a = numpy_value(v)
    if a is not None and a.shape == tuple(shape):
        return a.flags
    return np.empty(shape, dtype).flags


def reshape_needs_copy(v, new_shape: tuple) -> bool:
    """Whether giving the concrete value ``v`` the C-order shape ``new_shape`` (of the same
    size) needs a copy of its strided data; False for traced values (always C-ordered)."""
    a = numpy_value(v)
    if a is None or a.size <= 1:
        return False
    old = [(n, s) for n, s in zip(a.shape, a.strides) if n != 1]
    new = [n for n in new_shape if n != 1]
    i = j = 0
    while i < len(old) and j < len(new):
        # the smallest run of old axes and of new axes holding the same number of elements
        i2, j2, po, pn = i + 1, j + 1, old[i][0], new[j]
        while po != pn:
            if po < pn:
                po *= old[i2][0]
                i2 += 1
            else:
                pn *= new[j2]
                j2 += 1
        # those old axes must be one contiguous run of memory
        if any(old[k][1] != old[k + 1][1] * old[k + 1][0] for k in range(i, i2 - 1)):
            return True
        i, j = i2, j2
    return False
