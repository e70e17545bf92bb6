"""xnp's scalar types (``xnp.float64``, ``xnp.int32``, ``xnp.bool_``, ...): NumPy's scalar
types that can also cast xnp arrays and traced values.

``np.float64(x)`` is a common way to cast in NumPy code (and ``jnp.float32(x)`` in JAX code),
but NumPy's own constructor converts its argument with ``__array__``, which a traced value
cannot honour. Each xnp scalar type is therefore a subclass of NumPy's type whose metaclass
routes calls: Python and NumPy scalars and strings go to NumPy's constructor (a NumPy scalar
comes back, as in NumPy); arrays, sequences, xnp arrays and traced values are cast with
``xnp.astype``, so the cast is a primitive that differentiates, batches and compiles.

Everywhere else the type stands for NumPy's: ``np.dtype(xnp.float64)``, ``x.dtype ==
xnp.float64``, ``isinstance(v, xnp.float64)``, ``issubclass(xnp.float64, xnp.floating)``,
hashing and equality (so it finds NumPy's type in a dict) all behave as with NumPy's type;
only an identity test (``x.dtype.type is xnp.float64``) tells them apart.
"""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer

_NUMPY_SCALARS = (bool, int, float, complex, str, bytes, np.generic)
_CAST_TYPES = (list, tuple, np.ndarray, Tracer)


class _ScalarTypeMeta(type):
    """Metaclass of xnp's scalar types; ``cls._numpy_type`` is the NumPy type stood for."""

    def __call__(cls, *args, **kwargs):
        if not args or isinstance(args[0], _NUMPY_SCALARS) or len(args) > 1 or kwargs:
            return cls._numpy_type(*args, **kwargs)
        x = args[0]
        if isinstance(x, _CAST_TYPES) or hasattr(type(x), "__array__"):
            return _cast(x, cls._numpy_type)
        # None, memoryviews, objects NumPy converts itself (or rejects with its message)
        return cls._numpy_type(x)

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, cls._numpy_type)

    def __subclasscheck__(cls, subclass) -> bool:
        return subclass is cls or issubclass(subclass, cls._numpy_type)

    def __eq__(cls, other):
        if other is cls or other is cls._numpy_type:
            return True
        if isinstance(other, _ScalarTypeMeta):
            return other._numpy_type is cls._numpy_type
        return NotImplemented

    def __hash__(cls) -> int:
        return hash(cls._numpy_type)

    def __repr__(cls) -> str:
        return repr(cls._numpy_type)


def _cast(x, numpy_type):
    """``numpy_type(x)`` for an array-like ``x``: NumPy's result for a NumPy array (a scalar
    for a 0-d one), otherwise xnp's, a NumPy scalar when concrete and 0-d."""
    from xnp._array import ndarray, wrap_scalar_result
    from xnp._creation import asarray, astype
    from xnp._util import raw
    if isinstance(x, np.ndarray):
        return wrap_scalar_result(x.astype(numpy_type))
    if isinstance(x, (ndarray, Tracer)):
        out = astype(x, numpy_type)
    else:                   # NumPy converts a sequence as ``array(x, dtype=numpy_type)``
        out = asarray(x, dtype=numpy_type)
    return wrap_scalar_result(raw(out))


def _make(numpy_type: type) -> type:
    name = numpy_type.__name__
    cls = _ScalarTypeMeta(name, (numpy_type,), {
        "_numpy_type": numpy_type, "__doc__": numpy_type.__doc__, "__module__": "xnp",
        "__slots__": ()})
    return cls


_BY_NUMPY_TYPE = {t: _make(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
    np.longlong, np.ulonglong)}

bool_ = _BY_NUMPY_TYPE[np.bool_]
int8, int16, int32, int64 = (_BY_NUMPY_TYPE[t] for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (_BY_NUMPY_TYPE[t]
                                 for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (_BY_NUMPY_TYPE[t] for t in (np.float16, np.float32, np.float64))
complex64, complex128 = _BY_NUMPY_TYPE[np.complex64], _BY_NUMPY_TYPE[np.complex128]

# NumPy's C-named aliases name the same types on this platform.
intp, uintp = _BY_NUMPY_TYPE[np.intp], _BY_NUMPY_TYPE[np.uintp]
half, single, double = float16, float32, float64
csingle, cdouble = complex64, complex128
byte, ubyte = _BY_NUMPY_TYPE[np.byte], _BY_NUMPY_TYPE[np.ubyte]
short, ushort = _BY_NUMPY_TYPE[np.short], _BY_NUMPY_TYPE[np.ushort]
intc, uintc = _BY_NUMPY_TYPE[np.intc], _BY_NUMPY_TYPE[np.uintc]
long, ulong = _BY_NUMPY_TYPE[np.long], _BY_NUMPY_TYPE[np.ulong]
longlong, ulonglong = _BY_NUMPY_TYPE[np.longlong], _BY_NUMPY_TYPE[np.ulonglong]
int_, uint = _BY_NUMPY_TYPE[np.int_], _BY_NUMPY_TYPE[np.uint]
