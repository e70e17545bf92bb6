"""``xnp.ndarray``: a mutable handle over an immutable array value.

The value is a NumPy array (or NumPy scalar) when eager, a tracer under a transformation.
Operations never modify a value: ``a[i] = v`` and ``a += b`` compute a new value
functionally (a scatter, an add) and rebind the handle to it, which is what lets in-place
NumPy code run under grad, vmap and jit. Operators and methods are attached by
``xnp._methods`` so that this module stays free of the NumPy namespace.

Differences from NumPy: views are not tracked, so writing through a slice of an array
(``b = a[1:]; b[0] = 5``) does not change ``a``; use ``a[1] = 5`` or ``a.at[1].set(5)``.
"""

from __future__ import annotations

import builtins
import copy as _copy

import numpy as np

from transforms import core
from transforms.core import (
    Tracer,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    concrete_number_or_error,
    concrete_or_error,
)

_new_handle = object.__new__


class ndarray:
    """An n-dimensional array, NumPy compatible, transformable by grad, vmap and jit.

    Create arrays with :func:`xnp.array`, :func:`xnp.zeros` and friends; calling
    ``ndarray(shape, dtype=float)`` directly gives a zero-filled array (NumPy's gives
    uninitialised memory; object arrays hold None, as in NumPy).
    """

    # _buffer: (value, device buffer) when the value is a view of an XLA result, so that
    # passing it back to a jitted function needs no transfer; stale once _value changes.
    # _view_of: (base handle, key) when made by basic indexing (see xnp/_views.py).
    __slots__ = ("_value", "_buffer", "_view_of", "__weakref__")
    __array_priority__ = 100
    __module__ = "xnp"      # type(a) prints <class 'xnp.ndarray'>, as NumPy's 'numpy.ndarray'

    def __init__(self, shape=(), dtype=float, buffer=None, offset=0, strides=None,
                 order=None):
        # NumPy's constructor lays out (and checks) the shape, strides and buffer; the
        # array is a copy of what it describes (zeros without a buffer), in its layout
        if isinstance(buffer, ndarray):
            buffer = np.asarray(buffer._value)
        v = np.ndarray(shape, dtype, buffer, offset, strides, order)
        if buffer is None and not v.dtype.hasobject:    # NumPy fills objects with None
            v[...] = 0
        self._value = v if buffer is None else v.copy(order="K")

    # --- attributes -----------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        try:
            return self._value.shape
        except AttributeError:   # a Python scalar, as transformations forward an input
            return ()

    @shape.setter
    def shape(self, new_shape):
        from xnp import reshape
        from xnp._layout import reshape_needs_copy
        out = core.unwrap(reshape(self, new_shape))
        if reshape_needs_copy(self._value, out.shape):
            raise AttributeError("Incompatible shape for in-place modification. Use "
                                 "`.reshape()` to make a copy with the desired shape.")
        from xnp._views import set_shape
        set_shape(self, out)

    @property
    def base(self):
        """The array owning the memory this one is a view of (``None`` if it is not a
        view), as NumPy's: a view of a view names the first array that is no view."""
        view = getattr(self, "_view_of", None)
        if view is None:
            return None
        base = view[0]
        up = getattr(base, "_view_of", None)
        while up is not None:
            base = up[0]
            up = getattr(base, "_view_of", None)
        return base

    @property
    def dtype(self) -> np.dtype:
        try:
            return self._value.dtype
        except AttributeError:   # a Python scalar (see ``shape``)
            return np.asarray(self._value).dtype

    @dtype.setter
    def dtype(self, new):
        # ``a.dtype = t`` reinterprets the bytes in place: ``a`` becomes ``a.view(t)``,
        # owning its buffer (so that later writes to ``a`` stay in place, seen by views)
        v = self.view(new)._value
        self._value = v.copy() if type(v) is np.ndarray and v.base is not None else v

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        v = self._value
        return v.aval.size if isinstance(v, Tracer) else getattr(v, "size", 1)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def flags(self):
        """NumPy's memory-layout flags of the array's value (a transpose is Fortran-ordered,
        as in NumPy; a traced array is C-ordered), with a live ``writeable`` flag
        (``a.flags.writeable = False`` makes writes raise)."""
        from xnp._writeable import Flags
        return Flags(self)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def device(self) -> str:
        return "cpu"

    @device.setter
    def device(self, _):
        raise AttributeError("attribute 'device' of 'ndarray' objects is not writable")

    @property
    def weak_type(self) -> bool:
        return core.get_aval(self._value).weak_type

    def to_device(self, device, /, *, stream=None) -> ndarray:
        if stream is not None:
            raise ValueError("The stream argument in to_device() is not supported")
        if device not in ("cpu", None):
            raise ValueError(f"to_device: unknown device {device!r}; xnp arrays live on "
                             "'cpu'")
        return self

    # --- conversion -----------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        v = self._value
        if dtype is None and copy is None and type(v) is np.ndarray:
            return v            # the common call, numpy.asarray(a)
        if isinstance(v, Tracer):
            return v.__array__(dtype)
        if copy is False and dtype is not None and np.dtype(dtype) != v.dtype:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        out = np.asarray(v, dtype=dtype)
        return out.copy() if copy else out

    def __array_namespace__(self, /, *, api_version=None):
        if api_version is not None and not isinstance(api_version, str):
            raise ValueError("Only None and strings are allowed as the Array API version, "
                             f"but received: {api_version!r}.")
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
            raise ValueError(f'Version "{api_version}" of the Array API Standard is not '
                             "supported.")
        import xnp
        return xnp

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        value = np.asarray(concrete_or_error(self, "__dlpack__"))
        kwargs = {} if max_version is None else {"max_version": max_version}
        if copy is not None:
            kwargs["copy"] = copy
        if dl_device is not None:
            kwargs["dl_device"] = dl_device
        return value.__dlpack__(stream=stream, **kwargs)

    def __dlpack_device__(self):
        return (1, 0)   # kDLCPU

    def _concrete(self, what, error=None):
        return concrete_or_error(self._value, what, error)

    def __bool__(self):
        return builtins.bool(self._concrete("bool(x) (a Python `if` or `while` on an array)",
                                            TracerBoolConversionError))

    def __int__(self):
        return int(self._concrete("int(x)"))

    def __float__(self):
        return float(concrete_number_or_error(self._value, "float(x)"))

    def __complex__(self):
        return complex(concrete_number_or_error(self._value, "complex(x)"))

    def __hash__(self):
        # NumPy returns scalars (hashable) where xnp returns 0-d arrays: a 0-d array
        # hashes as its element, so ``counts[np.argmax(p)] += 1`` works as with NumPy.
        # Larger arrays are unhashable, as NumPy's.
        if self.ndim:
            raise TypeError("unhashable type: 'ndarray'")
        return hash(self.item())

    def __round__(self, ndigits=None):
        """``round(x)`` of a 0-d array, as of the NumPy scalar NumPy would have returned:
        a Python int without ``ndigits``, else a 0-d array. Larger arrays raise, as
        NumPy's. Rounding to an integer carries no derivative, so under ``grad`` it
        gives the concrete value's int (as ``int(x)`` does); a traced value without one
        (under ``jit``/``vmap``) gives an integer array, as in JAX."""
        if self.ndim:
            raise TypeError("type ndarray doesn't define __round__ method")
        from xnp import round as round_
        if ndigits is not None:
            return round_(self, ndigits)
        kind = self.dtype.kind
        if kind in "fiub":
            try:
                return round(np.asarray(self._concrete("round(x)")).item())
            except core.ConcretizationTypeError:
                if kind == "f":
                    return round_(self).astype(np.int64)
                if kind in "iu":
                    return self
                raise
        return round(self.item())

    def __index__(self):
        v = np.asarray(self._concrete("operator.index(x) (an array used as an index)",
                                      TracerIntegerConversionError))
        if v.dtype.kind not in "iu" or v.ndim:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(v)

    def item(self, *args):
        """The element as a Python scalar (concrete arrays only)."""
        value = np.asarray(concrete_number_or_error(self._value, "x.item()"))
        return value.item(*args)

    def tolist(self):
        """The array as nested Python lists (concrete arrays only)."""
        return np.asarray(concrete_number_or_error(self._value, "x.tolist()")).tolist()

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of unsized object")
        return shape[0]

    def __delitem__(self, key):
        raise ValueError("cannot delete array elements")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        if len(self.shape) == 1:
            return self._iter_elements()
        from xnp._views import iter_rows
        return iter_rows(self)

    def _iter_elements(self):
        # a 1-d array's elements; a concrete one's NumPy scalars come straight from its
        # current buffer (``min(a)``, ``sum(a)``, ``list(a)`` as fast as NumPy's)
        for i in range(self.shape[0]):
            v = self._value
            yield v[i] if type(v) is np.ndarray and v.ndim == 1 else self[i]

    def __repr__(self):
        v = self._value
        if isinstance(v, Tracer):
            return f"xnp.ndarray({v!r})"
        return repr(np.asarray(v))     # an array's repr, also when the value is a scalar

    def __str__(self):
        v = self._value
        return repr(v) if isinstance(v, Tracer) else str(np.asarray(v))

    def __format__(self, spec):
        # As NumPy: a 0-d array formats as its element, a larger one only with an empty
        # spec (as str). A traced array has no digits to format: an empty spec gives its
        # repr, a format spec raises the conversion error that says what to do instead.
        v = self._value
        if isinstance(v, Tracer):
            if not spec:
                return repr(v)
            if self.ndim:
                raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
            v = concrete_or_error(v, f"format(x, {spec!r})")
        v = np.asarray(v)
        return format(v[()] if not v.ndim else v, spec)

    def __copy__(self):
        # As NumPy's: a new buffer. Sharing the value would let writes through
        # ``numpy.asarray`` of the copy (SciPy's odeint integrates in ``copy(y0)``) reach
        # the original.
        from xnp import copy
        return copy(self)

    def __deepcopy__(self, memo):
        from xnp import copy
        v = self._value
        if type(v) is np.ndarray and v.dtype.hasobject:   # the elements are copied too
            return _wrap(_copy.deepcopy(v, memo))
        return copy(self)

    def __reduce__(self):
        return (_from_numpy, (np.asarray(self._concrete("pickling")),))

    def block_until_ready(self):
        return self


def _from_numpy(value):
    return _wrap(value)


def _wrap(value) -> ndarray:
    # (the type check first: cheaper than isinstance for the common value, an array)
    if type(value) is not np.ndarray and isinstance(value, np.generic):
        return value        # NumPy's scalar results stay NumPy scalars, as in NumPy
    h = _new_handle(ndarray)
    h._value = value
    return h


def wrap_scalar_result(value) -> ndarray:
    """Wrap the result of a ufunc or reduction: a concrete 0-d array becomes its NumPy
    scalar, as NumPy's ufuncs and reductions return scalars for 0-d results (this shows
    in ``repr`` and in ``type(x[()])``; traced values are wrapped unchanged)."""
    t = type(value)
    if t is np.ndarray:
        if not value.ndim:
            return value[()]    # a NumPy scalar, or the Python object of an object array
    elif not isinstance(value, core.Tracer):
        # A NumPy scalar, or what NumPy's object loops return for 0-d results: the
        # Python object itself (a Fraction, an int beyond int64, ...).
        return value
    h = _new_handle(ndarray)
    h._value = value
    return h


core.register_array_type(ndarray, _wrap)
