"""Array creation: array, asarray, zeros, ones, full, empty, the ``*_like`` functions,
eye, tri, tril/triu, meshgrid, diag, indices, fromfunction and copy (the ranges arange,
linspace, logspace and geomspace live in :mod:`xnp._ranges`).

Values are built by primitives (``iota``, ``broadcast_in_dim``, arithmetic), so creation
inside a traced function is staged like any other operation.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from transforms.core import ConcretizationTypeError, Tracer, is_eager
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._layout import is_fortran, order_letter, resolve_order, with_order
from xnp._ranges import arange
from xnp._shapes import (
    check_nonnegative,
    concat_v,
    flatten_v,
    reshape_v,
    shape_arg,
    shape_v,
    slice_axis_v,
    value,
    value_as,
)
from xnp._util import (
    _sequence_to_value,
    broadcast_to_v,
    cast_v,
    check_device,
    dtype_of,
    numpy_values,
    raw,
    to_dtype,
    user_cast_v,
)
from xnp._writeable import read_only

__all__ = [
    "array", "asarray", "asanyarray", "ascontiguousarray", "astype", "copy", "zeros",
    "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "eye", "identity", "tri", "tril", "triu", "meshgrid", "diag", "diagflat", "indices",
    "fromfunction",
]

_PY_SCALARS = (bool, int, float, complex)


# --- conversion -------------------------------------------------------------------------------
def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0,
          like=None) -> ndarray:
    """Create an array, as :func:`numpy.array`. Nested lists may hold xnp arrays, also
    traced ones. ``order`` gives the memory layout of a concrete result, as in NumPy;
    nested sequences deeper than ``ndmax`` raise (NumPy would build an object array)."""
    if (type(object) is list or type(object) is tuple) and dtype is None and \
            copy is True and order == "K" and not ndmin and not ndmax:
        # The common call, ``array([...])``: what the steps below give for it (a new
        # array from NumPy's conversion, or built with primitives around traced leaves).
        return wrap(_sequence_to_value(object))
    dtype = to_dtype(dtype)
    if copy is not True and copy is not False and copy is not None:
        copy = _copy_flag(copy)
    object = _check_ndmax(object, ndmin, ndmax, dtype)
    if copy is not None and not copy:       # copy=False: never copy, raise if need be
        _check_no_copy(object, dtype, order)
    if not copy and type(object) is ndarray and (dtype is None or dtype == object.dtype) \
            and with_order(object._value, order) is object._value:
        extra = ndmin - object.ndim     # NumPy: the array itself, or a view for ndmin
        return object[(None,) * extra] if extra > 0 else object
    if object is None:
        object = _NONE                   # NumPy: a 0-d object array (NaN as float)
    value_ = raw(object) if dtype is None else value_as(object, dtype)
    if type(value_) in _PY_SCALARS or isinstance(value_, np.generic):
        value_ = np.asarray(value_)
    elif copy and value_ is _value_of(object) and not isinstance(value_, Tracer):
        value_ = np.array(value_, copy=True)
    if ndmin > len(shape_v(value_)):
        shape = shape_v(value_)
        value_ = lax.reshape_p.bind(value_, new_sizes=(1,) * (ndmin - len(shape)) + shape)
    return wrap(with_order(value_, order))


def _copy_flag(copy):
    """NumPy's reading of ``copy=``: a _CopyMode member, or any object's truth value
    (a string is refused)."""
    if isinstance(copy, np._CopyMode):
        return {np._CopyMode.ALWAYS: True, np._CopyMode.NEVER: False}.get(copy)
    if isinstance(copy, str):
        raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None "
                         "instead.")
    return bool(copy)


def _check_ndmax(obj, ndmin: int, ndmax: int, dtype):
    """``obj``, or for ``dtype=object`` its object array of at most ``ndmax`` dimensions
    (deeper sequences become elements, as NumPy's)."""
    if not 0 <= ndmax <= 64:
        raise ValueError("ndmax must be in the range [0, NPY_MAXDIMS (64)] ")
    if ndmax and ndmin > ndmax:
        raise ValueError(f"ndmin must be <= ndmax ({ndmax})")
    if ndmax and isinstance(obj, (list, tuple)):
        if dtype == _OBJECT:
            return np.array(numpy_values(obj), dtype=dtype, ndmax=ndmax)
        if np.ndim(raw(obj)) > ndmax:
            raise ValueError("setting an array element with a sequence. The requested "
                             f"array would exceed the maximum number of dimension of "
                             f"{ndmax}.")
    elif ndmax and dtype == _OBJECT and isinstance(obj, (ndarray, np.ndarray)) and \
            obj.ndim > ndmax:
        raise ValueError("object too deep for desired array")
    return obj


_NO_COPY = ("Unable to avoid copy while creating an array as requested.\n"
            "If using `np.array(obj, copy=False)` replace it with `np.asarray(obj)` to "
            "allow a copy when needed (no behavior change in NumPy 1.x).\n"
            "For more details, see https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
            "#adapting-to-changes-in-the-copy-keyword.")


def _check_no_copy(obj, dtype, order):
    """NumPy's ValueError where ``copy=False`` cannot be honoured: the input is not an
    array (a list, tuple or scalar needs a new buffer), or needs another dtype or
    memory order."""
    if isinstance(obj, (list, tuple, np.generic, str, bytes, type(None)) + _PY_SCALARS):
        raise ValueError(_NO_COPY)
    v = _value_of(obj)
    if not isinstance(v, (np.ndarray, Tracer)):
        if not hasattr(type(v), "__array__"):
            return
        try:            # NumPy asks the object itself for its data without a copy
            v = v.__array__(dtype=dtype, copy=False)
        except TypeError:
            return
    if dtype is not None and dtype != dtype_of(v):
        raise ValueError(_NO_COPY)
    if order in ("C", "F") and with_order(v, order) is not v:
        raise ValueError(_NO_COPY)


def _value_of(obj):
    return obj._value if type(obj) is ndarray else obj


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None) -> ndarray:
    """Convert the input to an xnp array, without copying an xnp array of the right dtype.

    Python scalars give float64/int64/bool/complex128 arrays, as in NumPy.
    """
    if type(a) is np.ndarray and dtype is None and order is None and copy is None and \
            device is None:
        return wrap(a)      # what array(a, copy=None, order='K') gives, without its checks
    if device is not None:
        check_device(device)
    if type(a) is ndarray and not copy and (dtype is None or to_dtype(dtype) == a.dtype) \
            and (order in (None, "K", "A") or with_order(a._value, order) is a._value):
        return a        # the same array, so that in-place writes show through (NumPy)
    return array(a, dtype=dtype, copy=None if copy is None else bool(copy),
                 order=order_letter(order))


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None) -> ndarray:
    """As :func:`asarray`, at least 1-d, with a C-ordered value (copied if need be)."""
    if type(a) is ndarray and a.ndim and (dtype is None or np.dtype(dtype) == a.dtype) \
            and with_order(a._value, "C") is a._value:
        return a                        # NumPy returns a contiguous array itself
    return array(a, dtype=dtype, copy=None, order="C", ndmin=1)


def astype(x, dtype, /, *, copy=True, casting="unsafe", device=None) -> ndarray:
    """Cast to ``dtype`` (array API ``astype``; also the method ``x.astype``)."""
    if device is not None:
        check_device(device)
    if isinstance(x, (list, tuple)):
        raise TypeError(f"Input should be a NumPy array or scalar. It is a {type(x)} "
                        "instead.")
    if isinstance(copy, np._CopyMode):
        raise ValueError("_CopyMode enum is not allowed for astype function. Use true/false "
                         "instead.")
    if not copy and type(x) is ndarray and x.dtype == np.dtype(dtype):
        return x                        # NumPy: no copy needed, the array itself
    value_ = raw(x)
    dt = to_dtype(np.float64 if dtype is None else dtype)   # None: NumPy's default
    src = np.result_type(value_) if not isinstance(value_, Tracer) else value_.dtype
    if casting == "same_value":
        _check_same_value(value_, dt)
    elif not np.can_cast(src, dt, casting=casting):
        ndim = len(value_.aval.shape) if isinstance(value_, Tracer) else np.ndim(value_)
        what = "scalar" if ndim == 0 else "array data"      # NumPy's words for 0-d
        raise TypeError(f"Cannot cast {what} from {src!r} to {dt!r} according to the "
                        f"rule '{casting}'")
    out = user_cast_v(value_, dt)       # NumPy's cast warnings for concrete values
    if out is value_ and copy and not isinstance(out, Tracer):
        out = np.array(out, copy=True)
    return wrap(out)


def _check_same_value(v, dt: np.dtype) -> None:
    """NumPy's ``casting='same_value'``: every value must survive the cast (ValueError
    otherwise). The check reads the values, so it needs concrete ones."""
    if isinstance(v, Tracer):
        raise ConcretizationTypeError(
            "astype(casting='same_value') checks the values being cast, which are traced "
            "here (under jit, grad or vmap): use casting='unsafe' and check the values "
            "outside the transformation")
    np.asarray(v).astype(dt, casting="same_value")


def copy(a, order="K", subok=False) -> ndarray:
    """A copy of the array (a ``copy`` primitive); ``order`` is the memory layout of a
    concrete copy, as in NumPy ('K' and 'A' keep a Fortran-ordered one)."""
    v = value(a)
    order = order_letter(order)         # 'K' follows the strides, as NumPy's copy does
    return wrap(lax.copy_p.bind(v, order="K" if order == "K" else resolve_order(v, order)))


# --- filled arrays -----------------------------------------------------------------------------
def _shape(shape) -> tuple:
    shape = shape_arg(shape)
    check_nonnegative(shape)
    return shape


def _filled(shape: tuple, fill):
    """``fill`` broadcast to ``shape``, never aliasing a caller's NumPy array."""
    out = broadcast_to_v(fill, shape)
    return lax.copy_p.bind(out) if out is fill and not isinstance(out, Tracer) else out


_NONE = np.array(None, dtype=object)
_NONE.flags.writeable = False
_OBJECT = _NONE.dtype
_FLOAT64 = np.dtype(float)


def _constant(shape: tuple, number, dtype) -> ndarray:
    dt = _FLOAT64 if dtype is None else to_dtype(dtype)
    if is_eager():
        # Nothing is traced: NumPy builds the buffer itself, as the primitive would
        # (zeros from calloc'ed memory, as numpy.zeros).
        return wrap(np.zeros(shape, dt) if number == 0 else np.full(shape, number, dt))
    scalar = np.zeros((), dt) if number == 0 else np.full((), number, dt)  # U/S zeros: ''
    return wrap(lax.broadcast_in_dim_p.bind(scalar, shape=shape,
                                            broadcast_dimensions=()))


def _plain_eager(dtype, order) -> bool:
    """Whether a constant array can come straight from NumPy's constructor: nothing is
    traced, C order, and a dtype NumPy reads as xnp does (None or a scalar type)."""
    return (dtype is None or type(dtype) is type) and order == "C" and is_eager()


def zeros(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """An array of zeros (float64 by default), Fortran-ordered for ``order='F'``."""
    if device is not None:
        check_device(device)
    if _plain_eager(dtype, order):
        return wrap(np.zeros(shape, dtype))     # NumPy's own errors for bad shapes
    return _ordered(_constant(_shape(shape), 0, dtype), order)


def ones(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """An array of ones (float64 by default), Fortran-ordered for ``order='F'``."""
    if device is not None:
        check_device(device)
    if _plain_eager(dtype, order):
        return wrap(np.ones(shape, dtype))
    return _ordered(_constant(_shape(shape), 1, dtype), order)


def empty(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """As :func:`zeros` (object arrays hold None, as NumPy's): xnp never exposes
    uninitialised memory."""
    if device is not None:
        check_device(device)
    if _plain_eager(dtype, order) and dtype is not object:
        return wrap(np.zeros(shape, dtype))
    return _ordered(_constant(_shape(shape), _empty_fill(dtype), dtype), order)


def _empty_fill(dtype):
    """What an "uninitialised" array holds: NumPy's object arrays start as None."""
    return None if dtype is not None and to_dtype(dtype).kind == "O" else 0


def _ordered(out: ndarray, order, like=None) -> ndarray:
    """``out`` in the memory layout ``order`` asks for ('K'/'A' follow ``like``)."""
    order = order_letter(order)
    v = out._value
    if type(v) is np.ndarray and v.size > 1 and 0 in v.strides:
        # A large constant is a broadcast view when bound eagerly; NumPy's zeros/ones/full
        # own a contiguous buffer (strides, flags, views of another itemsize show it).
        fortran = order == "F" or (order in ("K", "A") and like is not None
                                   and is_fortran(value(like)))
        out._value = lax.copy_p.bind(v, order="F" if fortran else "C")
    if order in ("K", "A"):
        if like is None or not is_fortran(value(like)):
            return out
        order = "F"
    if order == "C":
        return out
    out._value = with_order(out._value, order)
    return out


def _fill_value(fill, dt):
    """``fill`` as a value of ``dt`` (the fill's own dtype if ``dt`` is None)."""
    v = _NONE if fill is None else raw(fill)     # None fills object arrays (NaN floats)
    if dt is None:
        return np.asarray(v) if type(v) in _PY_SCALARS else v
    return value_as(v, dt, strict=False)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """An array filled with ``fill_value`` (a scalar or an array broadcast to ``shape``),
    of ``dtype`` or else the fill value's dtype."""
    if type(fill_value) in _PY_SCALARS and device is None and _plain_eager(dtype, order):
        return wrap(np.full(shape, fill_value, dtype))      # NumPy's own, errors too
    if device is not None:
        check_device(device)
    shape = _shape(shape)
    fill = _fill_value(fill_value, to_dtype(dtype))
    return _ordered(wrap(_filled(shape, fill)), order)


def _like(a, dtype, shape):
    """(shape, dtype) of a ``*_like`` result."""
    v = value(a)
    dt = dtype_of(v) if dtype is None else to_dtype(dtype)
    return _shape(shape_v(v) if shape is None else shape), dt


def _layout_source(a, shape: tuple, order):
    """What ``order='K'`` follows: ``a``, unless the new shape has another number of
    dimensions (then NumPy lays the result out in C order)."""
    if order in ("K", "k") and len(shape) != len(shape_v(value(a))):
        return None
    return a


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    """Zeros with the shape and dtype of ``a`` (or those given)."""
    if device is not None:
        check_device(device)
    shape, dt = _like(a, dtype, shape)
    return _ordered(_constant(shape, 0, dt), order, _layout_source(a, shape, order))


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    """Ones with the shape and dtype of ``a`` (or those given)."""
    if device is not None:
        check_device(device)
    shape, dt = _like(a, dtype, shape)
    return _ordered(_constant(shape, 1, dt), order, _layout_source(a, shape, order))


def empty_like(prototype, /, dtype=None, order="K", subok=True, shape=None, *,
               device=None) -> ndarray:
    """As :func:`zeros_like`: xnp never exposes uninitialised memory."""
    if device is not None:
        check_device(device)
    shape, dt = _like(prototype, dtype, shape)
    return _ordered(_constant(shape, _empty_fill(dt), dt), order,
                    _layout_source(prototype, shape, order))


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None) -> ndarray:
    """``fill_value`` broadcast to the shape of ``a``, cast (unsafely) to its dtype."""
    if device is not None:
        check_device(device)
    shape, dt = _like(a, dtype, shape)
    return _ordered(wrap(_filled(shape, _fill_value(fill_value, dt))), order,
                    _layout_source(a, shape, order))


# --- matrices -----------------------------------------------------------------------------------
def _dims(n, m):
    if type(n) is bool or type(m) is bool:      # NumPy's eye takes no bool size
        raise TypeError("an integer is required")
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    check_nonnegative((n, m))
    return n, m


def _tri_mask(N, M, k):
    """NumPy's ``tri`` mask, ``arange(N)[:, None] >= arange(-k, M - k)``; sizes and ``k``
    may be floats (read through ``arange`` with a small integer dtype, as NumPy does)."""
    if all(isinstance(x, (int, np.integer)) for x in (N, M, k)):
        return _diagonal_mask(max(int(N), 0), max(int(M), 0), int(k), lax.le_p)
    if all(isinstance(x, (int, np.integer)) for x in (N, M)) and _traced_int(k):
        return _diagonal_mask(max(int(N), 0), max(int(M), 0), raw(k), lax.le_p)
    rows = raw(arange(N, dtype=_min_int(0, N)))
    cols = raw(arange(-k, M - k, dtype=_min_int(-k, M - k)))
    return lax.ge_p.bind(lax.reshape_p.bind(rows, new_sizes=(shape_v(rows)[0], 1)),
                         lax.reshape_p.bind(cols, new_sizes=(1, shape_v(cols)[0])))


def _min_int(low, high) -> np.dtype:
    for t in (np.int8, np.int16, np.int32):
        info = np.iinfo(t)
        if low >= info.min and high <= info.max:
            return np.dtype(t)
    return np.dtype(np.int64)


def _traced_int(k) -> bool:
    """Whether ``k`` is a traced integer (an offset given under ``jit``, as JAX allows)."""
    v = raw(k)
    return isinstance(v, Tracer) and v.aval.ndim == 0 and v.aval.dtype.kind in "iu"


def _diagonal_mask(n, m, k, compare):
    """``compare(col - row, k)`` over an ``n x m`` grid, as a boolean value (``k`` an int or
    a traced integer)."""
    if not isinstance(k, Tracer):
        k = min(max(k, -n), m)  # the same mask, for offsets past int64 (k=2**100) too
    else:
        k = cast_v(k, np.int64)
    rows = lax.iota_p.bind(dtype=np.dtype(np.int64), shape=(n, 1), dimension=0)
    cols = lax.iota_p.bind(dtype=np.dtype(np.int64), shape=(1, m), dimension=1)
    return compare.bind(lax.sub_p.bind(cols, rows), k)


def eye(N, M=None, k: int = 0, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    """A 2-d array with ones on the ``k``-th diagonal and zeros elsewhere."""
    if type(N) is int and (M is None or type(M) is int) and type(k) is int and \
            device is None and _plain_eager(dtype, order):
        return wrap(np.eye(N, M, k, dtype))     # NumPy's own, errors too
    if device is not None:
        check_device(device)
    n, m = _dims(N, M)
    dt = _FLOAT64 if dtype is None else to_dtype(dtype)     # NumPy: None is float64
    mask = _diagonal_mask(n, m, raw(k) if _traced_int(k) else operator.index(k), lax.eq_p)
    if dt.kind in "SUV":                # NumPy writes 1 into zeros: b'1' and b'', not b'True'
        v = lax.select_n_p.bind(mask, np.zeros((), dt), np.ones((), dt))
    else:
        v = cast_v(mask, dt)
    return wrap(with_order(v, order) if order != "C" else v)


def identity(n, dtype=None, *, like=None) -> ndarray:
    """The ``n x n`` identity matrix (float64 by default)."""
    return eye(n, dtype=float if dtype is None else dtype)


def tri(N, M=None, k: int = 0, dtype=float, *, like=None) -> ndarray:
    """Ones at and below the ``k``-th diagonal, zeros above. As in NumPy, a negative size
    gives an empty axis and float sizes and offsets are read through ``arange``."""
    return wrap(cast_v(_tri_mask(N, N if M is None else M, k), to_dtype(dtype)))


def _triangle(m, k, lower: bool):
    v = value(m)
    shape = shape_v(v)
    if not shape:
        raise TypeError("tri() missing required argument 'N' (pos 1): tril/triu need an "
                        "array of at least one dimension")
    n_rows, n_cols = (shape[-2], shape[-1]) if len(shape) > 1 else (shape[0], shape[0])
    if _traced_int(k):
        k = wrap(cast_v(raw(k), np.int64))      # k - 1 must not wrap in an unsigned type
    keep = _tri_mask(n_rows, n_cols, k if lower else k - 1)
    zero = np.zeros((), dtype_of(v))
    cases = (zero, v) if lower else (v, zero)
    return wrap(lax.select_n_p.bind(keep, *cases))


def tril(m, k: int = 0) -> ndarray:
    """The lower triangle of (each matrix in) ``m``: zeros above the ``k``-th diagonal.
    A 1-d input is treated as the rows of a square matrix, as in NumPy."""
    return _triangle(m, k, True)


def triu(m, k: int = 0) -> ndarray:
    """The upper triangle of (each matrix in) ``m``: zeros below the ``k``-th diagonal."""
    return _triangle(m, k, False)


def diag(v, k: int = 0) -> ndarray:
    """Extract the ``k``-th diagonal of a 2-d array, or build a 2-d array with a 1-d
    input on its ``k``-th diagonal."""
    x = value(v)
    shape = shape_v(x)
    k = operator.index(k)
    if len(shape) == 1:
        n = shape[0] + abs(k)
        padded = lax.pad_p.bind(x, np.zeros((), dtype_of(x)),
                                padding_config=((0, abs(k), 0),))
        spread = lax.broadcast_in_dim_p.bind(padded, shape=(n, n),
                                             broadcast_dimensions=(0 if k >= 0 else 1,))
        mask = _diagonal_mask(n, n, k, lax.eq_p)
        return wrap(lax.select_n_p.bind(mask, np.zeros((), dtype_of(x)), spread))
    if len(shape) != 2:
        raise ValueError("Input must be 1- or 2-d.")
    rows, cols = shape
    count = max(0, min(rows, cols - k) if k >= 0 else min(rows + k, cols))
    if count == 0:
        d = lax.broadcast_in_dim_p.bind(np.zeros((), dtype_of(x)), shape=(0,),
                                        broadcast_dimensions=())
    else:
        flat = reshape_v(x, (rows * cols,))
        start = k if k >= 0 else -k * cols
        d = slice_axis_v(flat, 0, start, start + (count - 1) * (cols + 1) + 1, cols + 1)
    return read_only(wrap(d))       # NumPy's diagonal of a 2-d array: a read-only view


def diagflat(v, k: int = 0) -> ndarray:
    """A 2-d array with the flattened input on the ``k``-th diagonal."""
    x = value(v)
    return diag(wrap(flatten_v(x)), k)


# --- grids ----------------------------------------------------------------------------------------
def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> tuple:
    """Coordinate arrays from coordinate vectors (a tuple, as NumPy 2); ``indexing='xy'``
    swaps the first two output axes (Cartesian), 'ij' does not (matrix)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    values = []
    for i, x in enumerate(xi):
        v = value(x)
        size = math.prod(shape_v(v))
        shape = [1] * nd
        shape[i] = size
        if indexing == "xy" and nd > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        values.append(lax.reshape_p.bind(v, new_sizes=tuple(shape)))
    if not sparse:
        full_shape = np.broadcast_shapes(*(shape_v(v) for v in values))
        values = [broadcast_to_v(v, full_shape) for v in values]
    return tuple(wrap(v) for v in values)


def indices(dimensions, dtype=int, sparse: bool = False):
    """The grid of indices of an array of shape ``dimensions``: one array per axis,
    stacked (shape ``(N, *dimensions)``) or, with ``sparse``, a tuple of broadcastable
    arrays."""
    dims = tuple(operator.index(d) for d in dimensions)
    check_nonnegative(dims)
    dt = to_dtype(dtype)
    n = len(dims)
    if sparse:
        return tuple(wrap(lax.iota_p.bind(dtype=dt, shape=(1,) * i + (d,) + (1,) * (n - i - 1),
                                          dimension=i)) for i, d in enumerate(dims))
    if not n:
        return _constant((0,), 0, dt)
    grids = [lax.iota_p.bind(dtype=dt, shape=(1, *dims), dimension=i + 1) for i in range(n)]
    return wrap(concat_v(grids, 0))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype=dtype), **kwargs)``: the function receives xnp
    arrays of coordinates and its result is returned as it is."""
    return function(*indices(shape, dtype=dtype), **kwargs)

