"""Array creation: array, asarray, zeros, ones, full, empty, ranges, eye, tri, meshgrid..."""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._util import cast_v, raw, to_dtype

__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "astype"]


def array(object, dtype=None, *, copy=True, order="K", ndmin=0, like=None) -> ndarray:
    """Create an array, as :func:`numpy.array`. Nested lists may hold xnp arrays, also
    traced ones. ``order`` is accepted and ignored (xnp arrays have no memory layout)."""
    dtype = to_dtype(dtype)
    value = raw(object)
    if dtype is not None:
        value = cast_v(value, dtype)
    elif type(value) in (bool, int, float, complex):
        value = np.asarray(value)
    if copy and value is _value_of(object):
        value = np.array(value, copy=True) if not isinstance(value, Tracer) else value
    out = wrap(value)
    if ndmin > out.ndim:
        from xnp._manipulation import reshape
        out = reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def _value_of(obj):
    return obj._value if type(obj) is ndarray else obj


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None) -> ndarray:
    """Convert the input to an xnp array, without copying an xnp array of the right dtype.

    Python scalars give float64/int64/bool/complex128 arrays, as in NumPy.
    """
    if type(a) is ndarray and dtype is None and not copy:
        return a
    if copy is False and dtype is not None and np.dtype(dtype) != np.result_type(
            _value_of(a) if not isinstance(_value_of(a), (list, tuple)) else np.asarray(a)):
        raise ValueError("asarray: Unable to avoid copy while creating an array as "
                         "requested.")
    return array(a, dtype=dtype, copy=bool(copy))


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None) -> ndarray:
    """As :func:`asarray` (xnp arrays have no memory layout); at least 1-d, as NumPy."""
    return array(a, dtype=dtype, copy=False, ndmin=1)


def astype(x, dtype, /, *, copy=True, casting="unsafe", device=None) -> ndarray:
    """Cast to ``dtype`` (array API ``astype``; also the method ``x.astype``)."""
    value = raw(x)
    dt = np.dtype(dtype)
    src = np.result_type(value) if not isinstance(value, Tracer) else value.dtype
    if not np.can_cast(src, dt, casting=casting):
        raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to the "
                        f"rule '{casting}'")
    out = cast_v(value, dt)
    if out is value and copy and not isinstance(out, Tracer):
        out = np.array(out, copy=True)
    return wrap(out)
