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
import types

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
    """The dtype a ``dtype=`` argument names, as NumPy's functions read one.

    Parameters
    ----------
    dt : dtype-like
        A dtype, scalar type, type code or name, or a DType class
        (``numpy.dtypes.Float32DType``, which stands for its dtype as in NumPy).

    Returns
    -------
    numpy.dtype

    Raises
    ------
    TypeError
        For ``None``, for the class ``np.dtype`` itself and for anything NumPy cannot
        interpret as a data type (with NumPy's message).
    """
    if isinstance(dt, np.dtype):
        return dt
    if dt is None:
        raise TypeError("dtype must not be None here")
    if isinstance(dt, type) and issubclass(dt, np.dtype):
        if dt is np.dtype:
            raise TypeError("Cannot convert np.dtype into a dtype.")
        # A DType class: its dtype (parametric ones, 'U' or 'S', their unsized dtype).
        return np.dtype(dt.type) if dt._parametric else dt()
    if not isinstance(dt, (str, type)):
        from xnp._array import ndarray
        if isinstance(dt, (ndarray, Tracer)):   # as NumPy refuses its own arrays
            raise TypeError("Cannot construct a dtype from an array")
    return np.dtype(dt)


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
    if isinstance(x, (np.ndarray, np.generic, np.dtype)):
        return x if isinstance(x, np.dtype) else x.dtype
    if hasattr(x, "dtype") and not isinstance(x, type):
        return np.dtype(x.dtype)
    return np.dtype(x)


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
    if type1 is None or type2 is None:
        raise TypeError("did not understand one of the types")
    a, b = np.dtype(type1), np.dtype(type2)
    if a == BFLOAT16 or b == BFLOAT16:
        return _result_dtype_cached((a, b))
    return np.promote_types(a, b)


def can_cast(from_, to, casting: str = "safe") -> builtins.bool:
    """Whether a cast can happen under the casting rule; arrays give their dtype.

    As in NumPy 2, Python scalars are not accepted as ``from_``.
    """
    if type(from_) in (builtins.bool, int, float, complex):
        raise TypeError("can_cast() does not support Python ints, floats, and complex "
                        "because the result used to depend on the value.\nThis change was "
                        "part of adopting NEP 50, we may explicitly allow them again in the "
                        "future.")
    if from_ is None or to is None:
        raise TypeError("did not understand one of the types; 'None' not accepted")
    src = _operand(from_)
    dst = canonicalize_dtype(to)
    # bfloat16 included: ml_dtypes registers its casts with NumPy (float32 -> bfloat16 is
    # same_kind, int16 -> bfloat16 is not safe)
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


class _LimitsMeta(type):
    """Makes ``xnp.finfo``/``xnp.iinfo`` stand for NumPy's classes in ``isinstance`` and
    ``issubclass`` (their instances are NumPy's, or ml_dtypes' for bfloat16)."""

    def __instancecheck__(cls, instance) -> builtins.bool:
        return isinstance(instance, cls._numpy_type)

    def __subclasscheck__(cls, subclass) -> builtins.bool:
        return subclass is cls or issubclass(subclass, cls._numpy_type)


def _limits_dtype(dt) -> np.dtype:
    return np.dtype(dt) if isinstance(dt, type) else np.dtype(_operand(dt))


class finfo(metaclass=_LimitsMeta):
    """Machine limits for floating point types, as ``numpy.finfo`` (bfloat16 included).

    Parameters
    ----------
    dtype : float, dtype, scalar type, instance or array
        The floating (or complex) type to describe; an array gives its dtype's limits,
        as the Array API's ``finfo`` does.

    Returns
    -------
    numpy.finfo
        NumPy's object (ml_dtypes' for bfloat16), so ``eps``, ``max``, ``tiny``, ... are
        NumPy scalars of the type. ``finfo[np.float64]`` is a generic alias, as in NumPy.
    """

    __module__ = "xnp"
    _numpy_type = np.finfo
    __class_getitem__ = classmethod(types.GenericAlias)

    def __new__(cls, dtype):
        if dtype is None:               # NumPy's DeprecationWarning, then float64's
            return np.finfo(dtype)
        dt = _limits_dtype(dtype)
        if dt == BFLOAT16:
            return ml_dtypes.finfo(dt)
        return np.finfo(dt)


class iinfo(metaclass=_LimitsMeta):
    """Machine limits for integer types, as ``numpy.iinfo``.

    Parameters
    ----------
    int_type : integer type, dtype, instance or array
        The integer type to describe; an array gives its dtype's limits.

    Returns
    -------
    numpy.iinfo
        NumPy's object (``min``, ``max``, ``bits``, ``dtype``); ``iinfo[np.int_]`` is a
        generic alias, as in NumPy.
    """

    __module__ = "xnp"
    _numpy_type = np.iinfo
    __class_getitem__ = classmethod(types.GenericAlias)

    def __new__(cls, int_type):
        return np.iinfo(_limits_dtype(int_type))


_KIND_NAMES = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u",
    "integral": "iu", "real floating": "f", "complex floating": "c",
    "numeric": "iufc",
}


def _is_bfloat16(x) -> builtins.bool:
    return x is bfloat16 or (isinstance(x, np.dtype) and x == BFLOAT16)


def isdtype(dtype, kind) -> builtins.bool:
    """Determine whether a dtype is of a given kind, as ``numpy.isdtype``.

    Parameters
    ----------
    dtype : dtype or scalar type
        The dtype to classify (strings and arrays are rejected, as by NumPy).
    kind : dtype, str or tuple of them
        A dtype, or one of the kind names ``'bool'``, ``'signed integer'``,
        ``'unsigned integer'``, ``'integral'``, ``'real floating'``,
        ``'complex floating'`` and ``'numeric'``.

    Returns
    -------
    bool
        Whether ``dtype`` is ``kind`` or one of ``kind``. bfloat16 is a real floating
        (and numeric) type.

    Raises
    ------
    TypeError
        If ``dtype`` is not a NumPy dtype or ``kind`` holds something other than dtypes
        and strings (NumPy's messages).
    ValueError
        For an unknown kind name.
    """
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if _is_bfloat16(dtype):
        found = False
        for k in kinds:
            if isinstance(k, str):
                if k not in _KIND_NAMES:
                    raise ValueError(f"kind argument is a string, but {k!r} is not a known "
                                     "kind name.")
                found = found or k in ("real floating", "numeric")
            elif _is_bfloat16(k):
                found = True
            else:
                np.isdtype(np.float32, k)    # NumPy's check (and message) for the kind
        return found
    rest = tuple(k for k in kinds if not _is_bfloat16(k))
    if len(rest) == len(kinds):
        return builtins.bool(np.isdtype(dtype, kind))
    return builtins.bool(np.isdtype(dtype, rest))


def _reject_array(x) -> None:
    if not isinstance(x, (type, np.dtype, str)):
        from xnp._array import ndarray
        if isinstance(x, (ndarray, Tracer)):
            raise TypeError("Cannot construct a dtype from an array")


def issubdtype(arg1, arg2) -> builtins.bool:
    """Whether the first argument is lower than or equal to the second in the type
    hierarchy, as ``numpy.issubdtype``.

    Parameters
    ----------
    arg1, arg2 : dtype-like
        dtypes, scalar types (abstract ones such as ``np.floating`` included) or type
        codes; arrays are rejected, as by NumPy.

    Returns
    -------
    bool
        NumPy's answer; bfloat16 counts as a floating type.
    """
    _reject_array(arg1)
    _reject_array(arg2)
    if _is_bfloat16(arg1):
        return _is_bfloat16(arg2) or arg2 in (np.floating, np.inexact, np.number, np.generic)
    if _is_bfloat16(arg2):
        return False
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
