"""Ranges: arange, linspace, logspace and geomspace.

Values are built by primitives (``iota`` and arithmetic), so a range inside a traced
function is staged like any other operation. They reproduce NumPy's arithmetic step by
step, so their values and dtypes are NumPy's exactly.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from transforms.core import CompositePrimitive, Tracer, _n_active, concrete_or_error, is_eager
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._dtypes import BFLOAT16, result_type
from xnp._shapes import (
    concat_v,
    shape_v,
    slice_axis_v,
    transpose_v,
    value,
)
from xnp._util import broadcast_to_v, cast_v, check_device, normalize_axis, raw, to_dtype
from xnp.lax._base import native

__all__ = ["arange", "linspace", "logspace", "geomspace"]

_PY_SCALARS = (bool, int, float, complex)


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


def arange(start_or_stop=None, /, stop=None, step=None, dtype=None, *, start=None,
           device=None, like=None) -> ndarray:
    """Evenly spaced values in ``[start, stop)``, as :func:`numpy.arange`:
    ``arange(stop)``, ``arange(start, stop[, step])``, or by keywords (``arange(stop=3)``,
    ``arange(start=1, stop=4)``).

    The length and values are NumPy's exactly: ``ceil((stop - start) / step)`` elements,
    the first two ``start`` and ``start + step`` and the others ``start + i * delta`` with
    ``delta`` the difference of the first two in the result dtype. The endpoints must be
    concrete (they decide the length).
    """
    if start is not None:
        if start_or_stop is not None:
            raise TypeError("argument for arange() given by name ('start') and position "
                            "(position 0)")
        start_or_stop = start
        if stop is None:
            raise TypeError("arange() requires stop to be specified.")
    elif start_or_stop is None:
        if stop is None:
            raise TypeError("arange() requires stop to be specified.")
        start_or_stop = 0
    if step is None:
        step = 1
    if device is not None:
        check_device(device)
    if dtype is None and _small_ints(start_or_stop, stop, step):
        return wrap(_int_range(start_or_stop, stop, step))
    args = [_range_scalar(x, "xnp.arange") for x in (start_or_stop, stop, step)]
    start, stop, step = (0, args[0], args[2]) if stop is None else args
    step = 1 if step is None else step
    if dtype is None:
        kinds = [_scalar_dtype(x) for x in args if x is not None]
        if any(k.kind not in "biufcO" for k in kinds):      # (O: Fractions, big ints...)
            raise TypeError(f"arange() not supported for inputs with DType "
                            f"{type(next(k for k in kinds if k.kind not in 'biufcO'))}.")
        dt = np.result_type(np.intp, *kinds)
    else:
        dt = to_dtype(dtype)
        if dt.kind in "SUT" or dt.type is np.void:      # (bfloat16 is kind 'V' too)
            raise TypeError(f"arange() not supported for inputs with DType {type(dt)}.")
    length, nxt = _arange_length(start, stop, step, dt.kind == "c")
    if length == 0:
        from xnp._creation import _constant  # (it imports this module)
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


def _small_ints(start, stop, step) -> bool:
    """Whether each argument is None or a Python int well inside int64 (a loop, not
    ``all`` of a generator: this is the common call's check)."""
    for x in (start, stop, step):
        if x is not None and (type(x) is not int or not -2**62 < x < 2**62):
            return False
    return True


_INT64 = np.dtype(np.int64)


def _int_range(start, stop, step):
    """arange of Python ints (the common case): exact integer arithmetic."""
    start, stop = (0, start) if stop is None else (start, stop)
    step = 1 if step is None else step
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if not _n_active[0] or is_eager():
        # Concrete ints, nothing traced: NumPy's arange computes this very ramp
        # (start + i * step, exact in int64 for these bounds).
        return np.arange(start, stop, step, _INT64)
    length = max(0, -((start - stop) // step))
    dt = _INT64
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
    if is_complex and isinstance(ratio, complex):   # NumPy's PyComplex_Check: complex64
        # (a NumPy complex64 step) is not one, and takes its real part below
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
    if math.isinf(x) or not np.iinfo(np.intp).min <= x <= np.iinfo(np.intp).max:
        raise ValueError("Maximum allowed size exceeded")    # NumPy: also far below 0
    return math.ceil(x)


def _arange_values(first, second, length: int, dt: np.dtype):
    """``first + i * (second - first)``, computed as NumPy's fill functions do (in float32
    for the 16-bit floats, in native byte order), with the first two elements exactly
    ``first, second``."""
    cdt = np.dtype(np.float32) if dt in (np.dtype(np.float16), BFLOAT16) else native(dt)
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
