"""Array creation: array, asarray, zeros, ones, full, empty, the ``*_like`` functions,
ranges (arange, linspace, logspace, geomspace), eye, tri, tril/triu, meshgrid, diag,
indices, fromfunction and copy.

Values are built by primitives (``iota``, ``broadcast_in_dim``, arithmetic), so creation
inside a traced function is staged like any other operation. Ranges reproduce NumPy's
arithmetic step by step, so their values and dtypes are NumPy's exactly.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from transforms.core import CompositePrimitive, Tracer, concrete_or_error
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._dtypes import BFLOAT16, result_type
from xnp._layout import is_fortran, resolve_order, with_order
from xnp._shapes import (
    check_nonnegative,
    concat_v,
    flatten_v,
    reshape_v,
    shape_arg,
    shape_v,
    slice_axis_v,
    transpose_v,
    value,
    value_as,
)
from xnp._util import broadcast_to_v, cast_v, dtype_of, normalize_axis, raw, to_dtype

__all__ = [
    "array", "asarray", "asanyarray", "ascontiguousarray", "astype", "copy", "zeros",
    "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "arange", "linspace", "logspace", "geomspace", "eye", "identity", "tri", "tril",
    "triu", "meshgrid", "diag", "diagflat", "indices", "fromfunction",
]

_PY_SCALARS = (bool, int, float, complex)


# --- conversion -------------------------------------------------------------------------------
def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0,
          like=None) -> ndarray:
    """Create an array, as :func:`numpy.array`. Nested lists may hold xnp arrays, also
    traced ones. ``order`` gives the memory layout of a concrete result, as in NumPy;
    nested sequences deeper than ``ndmax`` raise (NumPy would build an object array)."""
    _check_ndmax(object, ndmin, ndmax)
    dtype = to_dtype(dtype)
    value_ = raw(object) if dtype is None else value_as(object, dtype)
    if type(value_) in _PY_SCALARS or isinstance(value_, np.generic):
        value_ = np.asarray(value_)
    elif copy and value_ is _value_of(object) and not isinstance(value_, Tracer):
        value_ = np.array(value_, copy=True)
    if ndmin > len(shape_v(value_)):
        shape = shape_v(value_)
        value_ = lax.reshape_p.bind(value_, new_sizes=(1,) * (ndmin - len(shape)) + shape)
    return wrap(with_order(value_, order))


def _check_ndmax(obj, ndmin: int, ndmax: int):
    if not 0 <= ndmax <= 64:
        raise ValueError("ndmax must be in the range [0, NPY_MAXDIMS (64)] ")
    if ndmax and ndmin > ndmax:
        raise ValueError(f"ndmin must be <= ndmax ({ndmax})")
    if ndmax and isinstance(obj, (list, tuple)) and np.ndim(raw(obj)) > ndmax:
        raise ValueError("setting an array element with a sequence. The requested array "
                         f"would exceed the maximum number of dimension of {ndmax}.")


def _value_of(obj):
    return obj._value if type(obj) is ndarray else obj


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None) -> ndarray:
    """Convert the input to an xnp array, without copying an xnp array of the right dtype.

    Python scalars give float64/int64/bool/complex128 arrays, as in NumPy.
    """
    if type(a) is ndarray and not copy and (dtype is None or to_dtype(dtype) == a.dtype) \
            and (order in (None, "K", "A") or with_order(a._value, order) is a._value):
        return a        # the same array, so that in-place writes show through (NumPy)
    if copy is False and dtype is not None and np.dtype(dtype) != np.result_type(
            _value_of(a) if not isinstance(_value_of(a), (list, tuple)) else np.asarray(a)):
        raise ValueError("asarray: Unable to avoid copy while creating an array as "
                         "requested.")
    return array(a, dtype=dtype, copy=bool(copy), order=_order_arg(order))


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None) -> ndarray:
    """As :func:`asarray`, at least 1-d, with a C-ordered value (copied if need be)."""
    if type(a) is ndarray and a.ndim and (dtype is None or np.dtype(dtype) == a.dtype) \
            and with_order(a._value, "C") is a._value:
        return a                        # NumPy returns a contiguous array itself
    return array(a, dtype=dtype, copy=False, order="C", ndmin=1)


def astype(x, dtype, /, *, copy=True, casting="unsafe", device=None) -> ndarray:
    """Cast to ``dtype`` (array API ``astype``; also the method ``x.astype``)."""
    if isinstance(x, (list, tuple)):
        raise TypeError(f"Input should be a NumPy array or scalar. It is a {type(x)} "
                        "instead.")
    if not copy and type(x) is ndarray and x.dtype == np.dtype(dtype):
        return x                        # NumPy: no copy needed, the array itself
    value_ = raw(x)
    dt = np.dtype(dtype)
    src = np.result_type(value_) if not isinstance(value_, Tracer) else value_.dtype
    if not np.can_cast(src, dt, casting=casting):
        raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to the "
                        f"rule '{casting}'")
    if dt.kind in "iub" and src.kind in "fc" and isinstance(value_, (np.ndarray, np.generic)):
        # The cast primitive is silent (internal casts must not warn); NumPy's own cast
        # of the concrete values gives its "invalid value encountered in cast" warning
        # under the caller's errstate. The result still comes from the primitive.
        np.asarray(value_).astype(dt)
    out = cast_v(value_, dt)
    if out is value_ and copy and not isinstance(out, Tracer):
        out = np.array(out, copy=True)
    return wrap(out)


def copy(a, order="K", subok=False) -> ndarray:
    """A copy of the array (a ``copy`` primitive); ``order`` is the memory layout of a
    concrete copy, as in NumPy ('K' and 'A' keep a Fortran-ordered one)."""
    v = value(a)
    return wrap(lax.copy_p.bind(v, order=resolve_order(v, _order_arg(order))))


def _order_arg(order) -> str:
    if order is None:
        return "K"
    if isinstance(order, str):
        order = order.upper()
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return order


# --- filled arrays -----------------------------------------------------------------------------
def _shape(shape) -> tuple:
    shape = shape_arg(shape)
    check_nonnegative(shape)
    return shape


def _filled(shape: tuple, fill):
    """``fill`` broadcast to ``shape``, never aliasing a caller's NumPy array."""
    out = broadcast_to_v(fill, shape)
    return lax.copy_p.bind(out) if out is fill and not isinstance(out, Tracer) else out


def _constant(shape: tuple, number, dtype) -> ndarray:
    dt = np.dtype(float) if dtype is None else to_dtype(dtype)
    scalar = np.zeros((), dt) if number == 0 else np.full((), number, dt)  # U/S zeros: ''
    return wrap(lax.broadcast_in_dim_p.bind(scalar, shape=shape,
                                            broadcast_dimensions=()))


def zeros(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """An array of zeros (float64 by default), Fortran-ordered for ``order='F'``."""
    return _ordered(_constant(_shape(shape), 0, dtype), order)


def ones(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """An array of ones (float64 by default), Fortran-ordered for ``order='F'``."""
    return _ordered(_constant(_shape(shape), 1, dtype), order)


def empty(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """As :func:`zeros`: xnp never exposes uninitialised memory."""
    return _ordered(_constant(_shape(shape), 0, dtype), order)


def _ordered(out: ndarray, order, like=None) -> ndarray:
    """``out`` in the memory layout ``order`` asks for ('K'/'A' follow ``like``)."""
    order = _order_arg(order)
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
    v = raw(fill)
    if dt is None:
        return np.asarray(v) if type(v) in _PY_SCALARS else v
    return value_as(v, dt, strict=False)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """An array filled with ``fill_value`` (a scalar or an array broadcast to ``shape``),
    of ``dtype`` or else the fill value's dtype."""
    shape = _shape(shape)
    fill = _fill_value(fill_value, to_dtype(dtype))
    return _ordered(wrap(_filled(shape, fill)), order)


def _like(a, dtype, shape):
    """(shape, dtype) of a ``*_like`` result."""
    v = value(a)
    dt = dtype_of(v) if dtype is None else to_dtype(dtype)
    return _shape(shape_v(v) if shape is None else shape), dt


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    """Zeros with the shape and dtype of ``a`` (or those given)."""
    shape, dt = _like(a, dtype, shape)
    return _ordered(_constant(shape, 0, dt), order, a)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    """Ones with the shape and dtype of ``a`` (or those given)."""
    shape, dt = _like(a, dtype, shape)
    return _ordered(_constant(shape, 1, dt), order, a)


def empty_like(prototype, /, dtype=None, order="K", subok=True, shape=None, *,
               device=None) -> ndarray:
    """As :func:`zeros_like`: xnp never exposes uninitialised memory."""
    shape, dt = _like(prototype, dtype, shape)
    return _ordered(_constant(shape, 0, dt), order, prototype)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None) -> ndarray:
    """``fill_value`` broadcast to the shape of ``a``, cast (unsafely) to its dtype."""
    shape, dt = _like(a, dtype, shape)
    return _ordered(wrap(_filled(shape, _fill_value(fill_value, dt))), order, a)


# --- ranges -------------------------------------------------------------------------------------
def _range_scalar(x, what: str):
    """A range endpoint as a Python or NumPy scalar (concrete: it decides the length)."""
    if type(x) in _PY_SCALARS or isinstance(x, np.generic):
        return x
    if isinstance(x, (ndarray, Tracer, np.ndarray)):
        x = np.asarray(concrete_or_error(x, what))
        if x.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return x[()]
    if isinstance(x, (str, bytes)):
        raise TypeError(f"arange() not supported for inputs of type {type(x).__name__}")
    return x


def _scalar_dtype(x) -> np.dtype:
    return np.asarray(x).dtype


def arange(start_or_stop, /, stop=None, step=1, *, dtype=None, device=None,
           like=None) -> ndarray:
    """Evenly spaced values in ``[start, stop)``, as :func:`numpy.arange`.

    The length and values are NumPy's exactly: ``ceil((stop - start) / step)`` elements,
    the first two ``start`` and ``start + step`` and the others ``start + i * delta`` with
    ``delta`` the difference of the first two in the result dtype. The endpoints must be
    concrete (they decide the length).
    """
    if dtype is None and _small_ints(start_or_stop, stop, step):
        return wrap(_int_range(start_or_stop, stop, step))
    args = [_range_scalar(x, "xnp.arange") for x in (start_or_stop, stop, step)]
    start, stop, step = (0, args[0], args[2]) if stop is None else args
    step = 1 if step is None else step
    if dtype is None:
        kinds = [_scalar_dtype(x) for x in args if x is not None]
        if any(k.kind not in "biufc" for k in kinds):
            raise TypeError(f"arange() not supported for inputs with DType "
                            f"{next(k for k in kinds if k.kind not in 'biufc')}")
        dt = np.result_type(np.intp, *kinds)
    else:
        dt = to_dtype(dtype)
    length, nxt = _arange_length(start, stop, step, dt.kind == "c")
    if length == 0:
        return _constant((0,), 0, dt)
    first = _stored(start, dt)
    if length == 1:
        return wrap(lax.broadcast_in_dim_p.bind(first, shape=(1,), broadcast_dimensions=()))
    second = _stored(nxt, dt)
    if dt.kind == "b":
        if length > 2:
            raise TypeError("arange() is only supported for booleans when the result has "
                            "at most length 2.")
        return wrap(concat_v([lax.reshape_p.bind(x, new_sizes=(1,)) for x in (first, second)],
                             0))
    return wrap(_arange_values(first, second, length, dt))


def _small_ints(*args) -> bool:
    return all(x is None or type(x) is int and -2**62 < x < 2**62 for x in args)


def _int_range(start, stop, step):
    """arange of Python ints (the common case): exact integer arithmetic."""
    start, stop = (0, start) if stop is None else (start, stop)
    step = 1 if step is None else step
    if step == 0:
        raise ZeroDivisionError("division by zero")
    length = max(0, -((start - stop) // step))
    dt = np.dtype(np.int64)
    ramp = lax.iota_p.bind(dtype=dt, shape=(length,), dimension=0)
    if step != 1:
        ramp = lax.mul_p.bind(ramp, np.int64(step))
    return lax.add_p.bind(ramp, np.int64(start)) if start else ramp


def _stored(x, dt: np.dtype) -> np.ndarray:
    """A scalar as NumPy's ``setitem`` stores it: integer dtypes go through a Python int
    and reject values out of range."""
    if dt.kind in "iu":
        x = int(x)
        info = np.iinfo(dt)
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python integer {x} out of bounds for {dt.name}")
    return np.asarray(np.array(x, dtype=dt))


def _arange_length(start, stop, step, is_complex: bool):
    """NumPy's length computation (on the Python or NumPy scalars, with their arithmetic)
    and the second element ``start + step``."""
    try:
        with np.errstate(all="ignore"):
            span = stop - start
            ratio = span / step
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None
    if is_complex and isinstance(ratio, (complex, np.complexfloating)):
        length = min(_ceil_length(ratio.real), _ceil_length(ratio.imag))
    elif ratio == 0 and span != 0:
        length = 0 if math.copysign(1.0, float(ratio)) < 0 else 1   # underflow
    else:
        length = _ceil_length(float(ratio))
    if length <= 0:
        return 0, None
    try:
        with np.errstate(all="ignore"):
            return length, start + step
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None


def _ceil_length(x: float) -> int:
    if math.isnan(x):
        raise ValueError("arange: cannot compute length")
    if math.isinf(x) or x > np.iinfo(np.intp).max:
        raise ValueError("Maximum allowed size exceeded")
    return math.ceil(x)


def _arange_values(first, second, length: int, dt: np.dtype):
    """``first + i * (second - first)``, computed as NumPy's fill functions do (in float32
    for the 16-bit floats), with the first two elements exactly ``first, second``."""
    cdt = np.dtype(np.float32) if dt in (np.dtype(np.float16), BFLOAT16) else dt
    start = first.astype(cdt)
    with np.errstate(all="ignore"):
        delta = np.asarray(np.subtract(second.astype(cdt), start, dtype=cdt))
    ramp = lax.iota_p.bind(dtype=cdt, shape=(length,), dimension=0)
    values = cast_v(lax.add_p.bind(lax.mul_p.bind(ramp, delta), start), dt)
    with np.errstate(all="ignore"):
        head = [np.asarray(start + i * delta, cdt).astype(dt) for i in (0, 1)]
    for i, (got, want) in enumerate(zip(head, (first, second))):
        if got.tobytes() != want.tobytes():
            at_i = lax.eq_p.bind(lax.iota_p.bind(dtype=np.dtype(np.int64), shape=(length,),
                                                 dimension=0), i)
            values = lax.select_n_p.bind(at_i, values, want)
    return values


def linspace_v(start, stop, num, endpoint, dtype, axis, retstep=False):
    """:func:`linspace` on raw values, following NumPy's computation step by step."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    s, e = raw(start), raw(stop)
    dt = result_type(s, e, 1.0)
    delta = lax.sub_p.bind(cast_v(e, dt), cast_v(s, dt))
    dshape = shape_v(delta)
    y = lax.iota_p.bind(dtype=dt, shape=(num, *dshape), dimension=0)
    if div > 0:
        step = lax.div_p.bind(delta, div)
        zero = lax.eq_p.bind(step, 0)
        if dshape:
            zero = lax.reduce_or_p.bind(zero, axes=tuple(range(len(dshape))))
        scaled = lax.mul_p.bind(y, step)
        if isinstance(zero, Tracer) or zero:
            tiny = lax.mul_p.bind(lax.div_p.bind(y, div), delta)
            scaled = lax.select_n_p.bind(zero, scaled, tiny) if isinstance(zero, Tracer) \
                else tiny
        y = scaled
    else:
        step = float("nan")
        y = lax.mul_p.bind(y, delta)
    y = lax.add_p.bind(y, cast_v(s, dt))
    if endpoint and num > 1:
        last = lax.reshape_p.bind(broadcast_to_v(cast_v(e, dt), shape_v(y)[1:]),
                                  new_sizes=(1, *shape_v(y)[1:]))
        y = concat_v([slice_axis_v(y, 0, 0, num - 1), last], 0)
    y = _samples_to(y, axis)
    out_dt = dt if dtype is None else to_dtype(dtype)
    if out_dt.kind in "iu":
        y = lax.floor_p.bind(y)
    y = cast_v(y, out_dt)
    return (y, step) if retstep else y


def _samples_to(y, axis):
    """Move the sample axis (the first) of a range to ``axis``."""
    nd = len(shape_v(y))
    axis = normalize_axis(axis, nd)
    return transpose_v(y, [*range(1, axis + 1), 0, *range(axis + 1, nd)]) if axis else y


# Eagerly numpy.linspace; under transformations linspace_v's primitives.
linspace_p = CompositePrimitive(
    "linspace", impl=lambda s, e, *, num, endpoint, dtype, axis: np.linspace(
        s, e, num, endpoint, dtype=dtype, axis=axis),
    expand=lambda s, e, *, num, endpoint, dtype, axis: linspace_v(
        s, e, num, endpoint, dtype, axis))


def linspace(start, stop, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype=None, axis: int = 0, *, device=None):
    """``num`` evenly spaced samples from ``start`` to ``stop`` (excluded unless
    ``endpoint``), as :func:`numpy.linspace`; array endpoints give one sample axis at
    ``axis``. With ``retstep`` returns ``(samples, step)``. Integer dtypes floor."""
    if not retstep:
        return wrap(linspace_p.bind(raw(start), raw(stop), num=operator.index(num),
                                    endpoint=bool(endpoint),
                                    dtype=None if dtype is None else to_dtype(dtype),
                                    axis=axis))
    y, step = linspace_v(start, stop, num, endpoint, dtype, axis, retstep=True)
    return wrap(y), (wrap(step) if not isinstance(step, float) else step)


def logspace(start, stop, num: int = 50, endpoint: bool = True, base=10.0, dtype=None,
             axis: int = 0) -> ndarray:
    """``base ** linspace(start, stop, ...)``, as :func:`numpy.logspace` (array ``base``
    broadcasts with the endpoints)."""
    b = raw(base)
    if not isinstance(b, (int, float)) and len(shape_v(b)):
        values = [value(x) for x in (start, stop, b)]
        nd = max(len(shape_v(v)) for v in values)
        start, stop, b = (wrap(lax.reshape_p.bind(v, new_sizes=(1,) * (nd - len(shape_v(v)))
                                                  + shape_v(v))) for v in values)
        from xnp._manipulation import expand_dims
        b = raw(expand_dims(b, axis))
    y = linspace_v(start, stop, num, endpoint, None, axis)
    out = lax.pow_p.bind(b, y)
    return wrap(out if dtype is None else cast_v(out, to_dtype(dtype)))


def geomspace(start, stop, num: int = 50, endpoint: bool = True, dtype=None,
              axis: int = 0) -> ndarray:
    """Numbers spaced evenly on a log scale from ``start`` to ``stop`` (a geometric
    progression), as :func:`numpy.geomspace`: negative and complex endpoints follow
    NumPy's rotation to the positive real axis. The zero check needs concrete values."""
    s, e = value(start), value(stop)
    for v in (s, e):
        has_zero = lax.eq_p.bind(v, 0)
        if shape_v(v):
            has_zero = lax.reduce_or_p.bind(has_zero, axes=tuple(range(len(shape_v(v)))))
        if not isinstance(has_zero, Tracer) and has_zero:
            raise ValueError("Geometric sequence cannot include zero")
    dt = result_type(s, e, float(num), np.dtype(float) if dtype is None else to_dtype(dtype))
    s, e = cast_v(s, dt), cast_v(e, dt)
    sign = lax.sign_p.bind(s)
    s = lax.div_p.bind(s, sign)
    e = lax.div_p.bind(e, sign)
    y = raw(logspace(wrap(lax.log10_p.bind(s)), wrap(lax.log10_p.bind(e)), num, endpoint,
                     10.0, dt))
    if num > 0:
        rest = shape_v(y)[1:]
        ends = [lax.reshape_p.bind(broadcast_to_v(x, rest), new_sizes=(1, *rest))
                for x in (s, e)]
        if num > 1 and endpoint:
            y = concat_v([ends[0], slice_axis_v(y, 0, 1, num - 1), ends[1]], 0)
        else:
            y = concat_v([ends[0], slice_axis_v(y, 0, 1, num)], 0)
    y = _samples_to(cast_v(lax.mul_p.bind(y, sign), dt), axis)
    return wrap(y if dtype is None else cast_v(y, to_dtype(dtype)))


# --- matrices -----------------------------------------------------------------------------------
def _dims(n, m):
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    check_nonnegative((n, m))
    return n, m


def _tri_mask(N, M, k):
    """NumPy's ``tri`` mask, ``arange(N)[:, None] >= arange(-k, M - k)``; sizes and ``k``
    may be floats (read through ``arange`` with a small integer dtype, as NumPy does)."""
    if all(isinstance(x, (int, np.integer)) for x in (N, M, k)):
        return _diagonal_mask(max(int(N), 0), max(int(M), 0), int(k), lax.le_p)
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


def _diagonal_mask(n, m, k, compare):
    """``compare(col - row, k)`` over an ``n x m`` grid, as a boolean value."""
    rows = lax.iota_p.bind(dtype=np.dtype(np.int64), shape=(n, 1), dimension=0)
    cols = lax.iota_p.bind(dtype=np.dtype(np.int64), shape=(1, m), dimension=1)
    return compare.bind(lax.sub_p.bind(cols, rows), k)


def eye(N, M=None, k: int = 0, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    """A 2-d array with ones on the ``k``-th diagonal and zeros elsewhere."""
    n, m = _dims(N, M)
    return wrap(cast_v(_diagonal_mask(n, m, operator.index(k), lax.eq_p), to_dtype(dtype)))


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
        return wrap(lax.broadcast_in_dim_p.bind(np.zeros((), dtype_of(x)), shape=(0,),
                                                broadcast_dimensions=()))
    flat = reshape_v(x, (rows * cols,))
    start = k if k >= 0 else -k * cols
    return wrap(slice_axis_v(flat, 0, start, start + (count - 1) * (cols + 1) + 1,
                             cols + 1))


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

