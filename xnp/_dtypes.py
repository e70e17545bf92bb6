"""dtypes and NumPy 2 (NEP 50) type promotion, including weak Python scalars.

xnp's scalar types are NumPy's own (``xnp.float32 is numpy.float32``) plus ml_dtypes'
``bfloat16``, so dtypes compare equal across the two libraries. Promotion is NumPy's,
computed by NumPy on dtypes; a weakly typed value (one that came from a Python scalar)
takes part as the Python type, exactly as NumPy treats a Python scalar operand.
bfloat16 follows what NumPy does with ml_dtypes' loops (a Python float with bfloat16 gives
float32, a Python int keeps bfloat16), and JAX where NumPy has no rule (bfloat16 with
float16 gives float32).
"""

from __future__ import annotations

import builtins
import functools

import ml_dtypes
import numpy as np

from transforms.core import Tracer, get_aval, unwrap

bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
bfloat16 = ml_dtypes.bfloat16
intp, uintp = np.intp, np.uintp
half, single, double = np.float16, np.float32, np.float64
csingle, cdouble = np.complex64, np.complex128
byte, ubyte, short, ushort = np.byte, np.ubyte, np.short, np.ushort
intc, uintc, long, ulong, longlong, ulonglong = (np.intc, np.uintc, np.long, np.ulong,
                                                 np.longlong, np.ulonglong)
generic, number, integer, inexact = np.generic, np.number, np.integer, np.inexact
signedinteger, unsignedinteger = np.signedinteger, np.unsignedinteger
floating, complexfloating = np.floating, np.complexfloating
dtype = np.dtype

BFLOAT16 = np.dtype(bfloat16)
BOOL = np.dtype(bool)
INT64 = np.dtype(np.int64)
FLOAT64 = np.dtype(np.float64)
_WEAK_PY_TYPE = {"b": builtins.bool, "i": int, "u": int, "f": float, "c": complex}


def canonicalize_dtype(dt) -> np.dtype:
    """``np.dtype(dt)``, with a TypeError that names the bad value."""
    if dt is None:
        raise TypeError("dtype must not be None here")
    try:
        return np.dtype(dt)
    except TypeError as e:
        raise TypeError(f"data type {dt!r} not understood") from e


def _promotion_operand(aval):
    """How a value enters NumPy's promotion: a dtype, or a Python type if weak."""
    return _WEAK_PY_TYPE[aval.dtype.kind] if aval.weak_type else aval.dtype


@functools.lru_cache(maxsize=4096)
def _result_dtype_cached(operands: tuple) -> np.dtype:
    dtypes = [op for op in operands if isinstance(op, np.dtype)]
    if any(d == BFLOAT16 for d in dtypes):
        return _bfloat16_result(operands)
    if not dtypes:
        # Only Python scalars: NumPy gives the default dtype of the highest kind.
        kinds = {builtins.bool: 0, int: 1, float: 2, complex: 3}
        top = max(operands, key=kinds.__getitem__)
        return np.dtype({builtins.bool: bool, int: np.int64, float: np.float64,
                         complex: np.complex128}[top])
    samples = [op if isinstance(op, np.dtype) else op(0) for op in operands]
    return np.result_type(*samples)


def _bfloat16_result(operands: tuple) -> np.dtype:
    others = [op for op in operands if not (isinstance(op, np.dtype) and op == BFLOAT16)]
    result = BFLOAT16
    for op in others:
        if op in (builtins.bool, int):
            continue
        if op is float:
            result = np.dtype(np.float32) if result == BFLOAT16 else result
            continue
        if op is complex:
            result = np.result_type(np.float32, result, 0j) if result == BFLOAT16 else \
                np.result_type(result, 0j)
            continue
        if op.kind in "biu":
            continue
        if op == np.dtype(np.float16):
            result = np.result_type(np.float32, result) if result != BFLOAT16 else \
                np.dtype(np.float32)
            continue
        result = np.result_type(op, np.float32) if result == BFLOAT16 else \
            np.result_type(op, result)
    return np.dtype(result)


def result_dtype_of_avals(avals) -> np.dtype:
    return _result_dtype_cached(tuple(_promotion_operand(a) for a in avals))


def _operand(x):
    """A promotion operand for any input: array, tracer, dtype-like or Python scalar."""
    x = unwrap(x)
    if type(x) in (builtins.bool, int, float, complex):
        return type(x)
    if x is None:                        # NumPy: None means the default float dtype
        return FLOAT64
    if isinstance(x, Tracer):
        return _promotion_operand(x.aval)
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if hasattr(x, "dtype") and not isinstance(x, type):
        return np.dtype(x.dtype)
    return canonicalize_dtype(x)


def result_type(*arrays_and_dtypes) -> np.dtype:
    """The dtype NumPy 2 gives to an operation on these arrays, dtypes and scalars.

    Python scalars are weak (NEP 50): ``result_type(float32_array, 1.0)`` is float32.
    """
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    return _result_dtype_cached(tuple(_operand(x) for x in arrays_and_dtypes))


def promote_types(type1, type2) -> np.dtype:
    """The smallest dtype to which both dtypes may be safely cast (as NumPy, whose result
    keeps a dtype's identity and metadata when both are the same)."""
    a, b = canonicalize_dtype(type1), canonicalize_dtype(type2)
    if a == BFLOAT16 or b == BFLOAT16:
        return _result_dtype_cached((a, b))
    return np.promote_types(a, b)


def can_cast(from_, to, casting: str = "safe") -> builtins.bool:
    """Whether a cast can happen under the casting rule; arrays give their dtype.

    As in NumPy 2, Python scalars are not accepted as ``from_``.
    """
    if type(from_) in (builtins.bool, int, float, complex):
        raise TypeError("can_cast() does not support Python ints, floats, and complex "
                        "because the result used to depend on the value.")
    src = _operand(from_)
    dst = canonicalize_dtype(to)
    if BFLOAT16 in (src, dst):
        if casting == "unsafe" or src == dst:
            return True
        return promote_types(src, dst) == dst
    return builtins.bool(np.can_cast(src, dst, casting=casting))


def python_scalar_cast_dtype(value, to) -> np.dtype:
    """The dtype a Python scalar operand takes when a ufunc is called with ``dtype=to``.

    Parameters
    ----------
    value : bool, int, float or complex
        The Python scalar operand.
    to : dtype-like
        The loop dtype requested with ``dtype=``.

    Returns
    -------
    numpy.dtype
        NumPy 2's (NEP 50) dtype for ``value`` next to ``to``: ``to``'s own where the kind
        allows (``np.add(uint8_array, 1, dtype=uint8)`` works), otherwise the Python
        type's default (``1`` against ``bool`` is int64, ``1j`` against float32 is
        complex64). Callers check ``can_cast(result, to, casting)`` as for an array.

    Raises
    ------
    OverflowError
        For a Python int out of range of the integer dtype it takes, whatever the casting
        rule, as NumPy (``np.add(int8_array, 300, dtype=int8)``).
    """
    to = canonicalize_dtype(to)
    src = result_type(to, value)
    if type(value) is int and src.kind in "iu":
        info = np.iinfo(src)
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python integer {value} out of bounds for {src.name}")
    return src


def finfo(dt):
    """Machine limits for floating types (bfloat16 included)."""
    dt = np.dtype(_operand(dt)) if not isinstance(dt, type) else np.dtype(dt)
    if dt == BFLOAT16:
        return ml_dtypes.finfo(dt)
    return np.finfo(dt)


def iinfo(dt):
    """Machine limits for integer types."""
    dt = np.dtype(_operand(dt)) if not isinstance(dt, type) else np.dtype(dt)
    return np.iinfo(dt)


_KIND_NAMES = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u",
    "integral": "iu", "real floating": "f", "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(dtype, kind) -> builtins.bool:
    """Array API ``isdtype``: whether ``dtype`` is of ``kind`` (a name, dtype or tuple)."""
    dt = np.dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KIND_NAMES:
            raise ValueError(f"isdtype: kind {kind!r} is not a known kind name")
        return dt.kind in _KIND_NAMES[kind]
    return dt == np.dtype(kind)


def issubdtype(arg1, arg2) -> builtins.bool:
    """As ``numpy.issubdtype``; bfloat16 counts as a floating type."""
    if arg1 is bfloat16 or (isinstance(arg1, np.dtype) and arg1 == BFLOAT16):
        return arg2 in (np.floating, np.inexact, np.number, np.generic, bfloat16)
    return np.issubdtype(arg1, arg2)


def is_float(dt: np.dtype) -> builtins.bool:
    return dt.kind == "f" or dt == BFLOAT16


def is_inexact(dt: np.dtype) -> builtins.bool:
    return dt.kind in "fc" or dt == BFLOAT16


def default_float_for(dt: np.dtype) -> np.dtype:
    """The dtype NumPy's float-valued ufuncs (sin, sqrt, true_divide) give for ``dt``."""
    if is_inexact(dt):
        return dt
    return np.sin.resolve_dtypes((dt, None))[-1]


def aval_dtype(x) -> np.dtype:
    return get_aval(unwrap(x)).dtype
