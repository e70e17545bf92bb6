"""Value-level helpers shared by the structural modules (_manipulation, _joining,
_padding, _creation): argument parsing (shapes, fill values) and small compositions of
the slice, concatenate, gather, reshape and transpose primitives. Functions ending in
``_v`` take and return raw values (NumPy arrays, scalars or tracers)."""

from __future__ import annotations

import builtins
import math
import operator
from typing import Sequence

import numpy as np

from transforms.core import Tracer, concrete_or_error
from xnp import lax
from xnp._array import ndarray
from xnp._dtypes import BFLOAT16
from xnp._util import numpy_values, raw, shape_of, user_cast_v

_PY_SCALARS = (builtins.bool, int, float, complex)


def shape_v(v) -> tuple:
    """The shape of a raw value (quick for NumPy arrays)."""
    return v.shape if type(v) is np.ndarray else shape_of(v)


def value(x):
    """``raw(x)`` with Python and NumPy scalars as NumPy 0-d arrays: NumPy's functions
    convert their inputs with ``asarray``, so a Python scalar is not weakly typed there."""
    v = raw(x)
    return np.asarray(v) if type(v) in _PY_SCALARS or isinstance(v, np.generic) else v


def _dimension(d) -> int:
    if isinstance(d, (bool, np.bool_)):      # NumPy refuses booleans as dimensions
        raise TypeError("an integer is required")
    return operator.index(d)


def shape_arg(shape, what: str = "shape") -> tuple:
    """A shape argument (an int or a sequence of ints) as a tuple of Python ints."""
    if type(shape) is tuple:
        return tuple(map(_dimension, shape))
    if isinstance(shape, (bool, np.bool_)):
        raise TypeError(f"expected a sequence of integers or a single integer, got "
                        f"'{shape}'")
    if isinstance(shape, (ndarray, Tracer)):
        shape = np.asarray(concrete_or_error(shape, f"xnp.{what}"))
    if isinstance(shape, np.ndarray) and shape.ndim == 0:
        shape = shape.item()
    try:
        return (operator.index(shape),)
    except TypeError:
        pass
    try:
        items = list(shape)
    except TypeError:
        raise TypeError(f"expected a sequence of integers or a single integer for {what}, "
                        f"got {shape!r}") from None
    return tuple(_dimension(d) for d in items)


def check_nonnegative(shape: tuple, msg: str = "negative dimensions are not allowed"):
    if any(d < 0 for d in shape):
        raise ValueError(msg)


def slice_axis_v(v, axis: int, start: int, stop: int, step: int = 1):
    """``v[..., start:stop:step, ...]`` along ``axis`` (non-negative, in-bounds ends)."""
    shape = shape_v(v)
    if start == 0 and stop == shape[axis] and step == 1:
        return v
    starts = [0] * len(shape)
    limits = list(shape)
    strides = [1] * len(shape)
    starts[axis], limits[axis], strides[axis] = start, stop, step
    return lax.slice_p.bind(v, start_indices=tuple(starts), limit_indices=tuple(limits),
                            strides=tuple(strides) if step != 1 else None)


def concat_v(values: Sequence, axis: int):
    """Concatenate values of one dtype along ``axis``, skipping the primitive for one."""
    values = list(values)
    if len(values) == 1:
        return values[0]
    return lax.concatenate_p.bind(*values, dimension=axis)


def take_static_v(v, indices, axis: int):
    """``v`` indexed along ``axis`` by a static sequence of in-bounds indices: a slice when
    they form a range, otherwise one gather."""
    idx = np.asarray(indices, dtype=np.int64).reshape(-1)
    if not idx.size:
        return slice_axis_v(v, axis, 0, 0)
    if idx.size == 1 or np.all(np.diff(idx) == idx[1] - idx[0]):
        step = int(idx[1] - idx[0]) if idx.size > 1 else 1
        if step > 0:
            return slice_axis_v(v, axis, int(idx[0]), int(idx[-1]) + 1, step)
    return take_v(v, idx, axis)


def take_v(v, indices, axis: int):
    """``v`` indexed along ``axis`` by a 1-d integer value of in-bounds indices."""
    shape = shape_v(v)
    n = shape_v(indices)[0]
    idx = lax.reshape_p.bind(indices, new_sizes=(n, 1))
    dn = lax.GatherDimensionNumbers(
        offset_dims=tuple(d for d in range(len(shape)) if d != axis),
        collapsed_slice_dims=(axis,), start_index_map=(axis,))
    sizes = tuple(1 if d == axis else s for d, s in enumerate(shape))
    return lax.gather_p.bind(v, idx, dimension_numbers=dn, slice_sizes=sizes, mode="clip")


def value_as(x, dt: np.dtype, *, strict: bool = True):
    """``x`` converted to ``dt`` as NumPy stores values into an array: unsafe casting,
    except that Python numbers out of an integer dtype's range raise OverflowError (with
    ``strict``, as ``numpy.array(x, dtype)`` does, Python floats are checked too: they
    convert through ``int``)."""
    if dt.kind in "SUOTV" and dt != BFLOAT16 and not isinstance(x, (np.ndarray, Tracer,
                                                                     ndarray)):
        # NumPy sizes a string dtype from the values themselves ('U' of [1, 22, 333] is
        # U3) and splits strings into characters for 'c'; object arrays keep the Python
        # objects themselves (ragged lists included); StringDType ('T') keeps its missing
        # values (na_object) and coerces other objects to strings; a structured dtype
        # ('V') reads each tuple as one record.
        if hasattr(type(x), "__array__") and not isinstance(x, (list, tuple, np.generic)):
            return _array_protocol_as(x, dt)
        return np.asarray(numpy_values(x), dtype=dt)
    if strict and dt.kind in "iuf" and _has_python_complex(x):
        # NumPy converts each number with int() or float()
        raise TypeError(f"{'int' if dt.kind != 'f' else 'float'}() argument must be a "
                        "string or a real number, not 'complex'")
    if dt.kind in "iu":
        info = np.iinfo(dt)
        for item in _python_numbers(x):
            if type(item) is float:
                if not strict:
                    continue
                if math.isnan(item):
                    raise ValueError("cannot convert float NaN to integer")
                if math.isinf(item):
                    raise OverflowError("cannot convert float infinity to integer")
                item = int(item)
            if type(item) is int and not info.min <= item <= info.max:
                raise OverflowError(f"Python integer {item} out of bounds for {dt.name}")
        if isinstance(x, (list, tuple)) and _only_python_numbers(x):
            # Straight to the integer dtype: through float64 (NumPy's type for a mixed
            # list of large ints) integers beyond 2**53 would lose their low bits.
            return np.asarray(x, dtype=dt)
    return user_cast_v(raw(x), dt)        # NumPy's cast warnings for concrete values


def _array_protocol_as(x, dt: np.dtype):
    """NumPy's conversion of an object with ``__array__`` (called with ``dtype``); a class
    written with ``import xnp as np`` may return an xnp array, which NumPy refuses."""
    try:
        return np.asarray(x, dtype=dt)
    except ValueError:
        try:
            inner = x.__array__(dt)
        except TypeError:               # an ``__array__`` without parameters
            inner = x.__array__()
        if type(inner) is not ndarray:
            raise
        return np.asarray(inner._value, dtype=dt)


def _has_python_complex(x) -> bool:
    if type(x) is complex:
        return True
    return isinstance(x, (list, tuple)) and builtins.any(_has_python_complex(i) for i in x)


def _only_python_numbers(x) -> bool:
    """Whether ``x`` nests only Python numbers and NumPy's numeric scalars (which NumPy
    stores into an integer array through ``int()``, raising for NaN and overflow)."""
    if isinstance(x, (list, tuple)):
        return all(_only_python_numbers(i) for i in x)
    return type(x) in (bool, int, float) or (isinstance(x, np.generic) and
                                              x.dtype.kind in "biuf")


def _python_numbers(x):
    if type(x) in (int, float):
        yield x
    elif isinstance(x, (list, tuple)):
        for item in x:
            yield from _python_numbers(item)


def reshape_v(v, shape: tuple, order: str = "C"):
    if order == "F":
        v = transpose_v(v, None)
        v = lax.reshape_p.bind(v, new_sizes=tuple(reversed(shape)))
        return transpose_v(v, None)
    if shape_v(v) == shape:
        return v
    return lax.reshape_p.bind(v, new_sizes=shape)


def transpose_v(v, perm):
    nd = len(shape_v(v))
    perm = tuple(range(nd))[::-1] if perm is None else tuple(perm)
    if perm == tuple(range(nd)):
        return v
    return lax.transpose_p.bind(v, permutation=perm)


def atleast_v(v, ndim: int):
    """Prepend size-1 axes up to ``ndim`` dimensions (``array(v, ndmin=ndim)``)."""
    shape = shape_v(v)
    if len(shape) >= ndim:
        return v
    return lax.reshape_p.bind(v, new_sizes=(1,) * (ndim - len(shape)) + shape)


def flatten_v(v):
    """``v`` as a 1-d value (C order)."""
    shape = shape_v(v)
    return v if len(shape) == 1 else lax.reshape_p.bind(v, new_sizes=(math.prod(shape),))
