"""Factories that declare primitives, and the shared shape/dtype helpers they use.

``primitive(name, impl=..., abstract_eval=...)`` declares any primitive. The elementwise
families are NumPy ufuncs: ``ufunc_primitive`` takes NumPy's implementation, broadcasting
and (NEP 50) dtype resolution from the ufunc itself, so eager results are NumPy's own, and
a jaxpr records exactly what NumPy would compute. Transformation rules (``jvp``,
``transpose``, ``batch``, ``lower``) are passed to the same declaration.
"""

from __future__ import annotations

import builtins
import functools
import operator

import numpy as np
from numpy.exceptions import AxisError

from transforms.core import Primitive, ShapedArray

_WEAK_PY_TYPE = {"b": builtins.bool, "i": int, "u": int, "f": float, "c": complex}
_DEFAULT_OF_PY = {builtins.bool: np.dtype(bool), int: np.dtype(np.int64),
                  float: np.dtype(np.float64), complex: np.dtype(np.complex128)}


def primitive(name: str, *, impl, abstract_eval, multiple_results: bool = False,
              **rules) -> Primitive:
    """Declare a primitive with its implementation, abstract evaluation and rules."""
    p = Primitive(name, multiple_results=multiple_results)
    p.impl = impl
    p.abstract_eval = abstract_eval
    for key, rule in rules.items():
        if not hasattr(p, key):
            raise TypeError(f"unknown rule {key!r} for primitive {name}")
        setattr(p, key, rule)
    return p


@functools.lru_cache(maxsize=4096)
def broadcast_shapes_cached(shapes: tuple) -> tuple:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes "
                         + " ".join(str(s) for s in shapes)) from None


@functools.lru_cache(maxsize=8192)
def _resolve(ufunc, operands: tuple) -> tuple:
    # A Python bool is never "weak" in a way that matters: it is the lowest kind.
    operands = tuple(_DEFAULT_OF_PY[builtins.bool] if op is builtins.bool else op
                     for op in operands)
    if all(isinstance(op, type) for op in operands):
        # Python scalars only: NumPy converts them to their default dtypes.
        operands = tuple(_DEFAULT_OF_PY[op] for op in operands)
    try:
        return ufunc.resolve_dtypes((*operands, *([None] * ufunc.nout)))
    except TypeError as e:       # NumPy's own class (UFuncTypeError...) and message
        raise e.with_traceback(None) from None


def promotion_operands(avals) -> tuple:
    return tuple(_WEAK_PY_TYPE[a.dtype.kind] if a.weak_type else a.dtype for a in avals)


# Results of ufunc_abstract_eval by (ufunc, shapes, dtypes, weak types): staging and the
# eager linearize tape evaluate the same few signatures over and over. Avals are immutable.
_UFUNC_AVALS: dict = {}


def ufunc_abstract_eval(ufunc, *avals, **_):
    if len(avals) == 2:
        a, b = avals
        key = (ufunc, a.shape, a.dtype, a.weak_type, b.shape, b.dtype, b.weak_type)
    else:
        key = (ufunc, *[k for a in avals for k in (a.shape, a.dtype, a.weak_type)])
    out = _UFUNC_AVALS.get(key)
    if out is None:
        if len(_UFUNC_AVALS) > 8192:
            _UFUNC_AVALS.clear()
        out = _UFUNC_AVALS[key] = _ufunc_abstract_eval(ufunc, avals)
    return out


def _ufunc_abstract_eval(ufunc, avals):
    shape = avals[0].shape if len(avals) == 1 else \
        broadcast_shapes_cached(tuple(a.shape for a in avals))
    dtypes = _resolve(ufunc, promotion_operands(avals))
    weak = all(a.weak_type for a in avals)
    outs = [ShapedArray(shape, d, weak and d.kind != "b") for d in dtypes[len(avals):]]
    return outs if ufunc.nout > 1 else outs[0]


def ufunc_primitive(name: str, ufunc, *, impl=None, dtype_ufunc=None,
                    **rules) -> Primitive:
    """An elementwise primitive with NumPy ufunc semantics (broadcasting, NEP 50).

    ``impl`` defaults to the ufunc; ``dtype_ufunc`` (default ``ufunc``) resolves the
    output dtype, for primitives implemented without a ufunc of their own.
    """
    resolver = dtype_ufunc or ufunc
    p = primitive(name, impl=impl or ufunc,
                  abstract_eval=functools.partial(ufunc_abstract_eval, resolver),
                  multiple_results=resolver.nout > 1, **rules)
    p.ufunc = resolver     # its loop dtypes are what the lowering converts operands to
    if resolver not in _COMPARISONS:
        p.check_literal = functools.partial(_check_python_int, resolver)
    return p


# NumPy compares a Python int outside an integer array's range exactly; every other ufunc
# raises OverflowError for it (``uint8_array + 300``), also when it is staged under jit.
_COMPARISONS = (np.equal, np.not_equal, np.less, np.less_equal, np.greater,
                np.greater_equal)


def _check_python_int(ufunc, value: int, args) -> None:
    """NumPy's OverflowError where the Python int ``value`` among ``args`` goes into an
    integer loop dtype it does not fit (``arctan2(-1, uint8_array)`` runs in float16)."""
    from transforms.core import get_aval
    dtypes = loop_dtypes(ufunc, *[get_aval(x) for x in args])
    for x, dtype in zip(args, dtypes):
        if type(x) is int and x == value and dtype.kind in "iu":
            info = np.iinfo(dtype)
            if not info.min <= value <= info.max:
                raise OverflowError(f"Python integer {value} out of bounds for {dtype.name}")


def loop_dtypes(ufunc, *avals) -> tuple:
    """NumPy's loop dtypes (inputs then outputs) for a ufunc on these avals."""
    return _resolve(ufunc, promotion_operands(avals))


def native(dtype: np.dtype) -> np.dtype:
    """``dtype`` in the machine's byte order: what NumPy's arithmetic returns for
    byte-swapped operands (``'>f8'`` data sums to a native float64)."""
    return dtype if dtype.isnative else dtype.newbyteorder("=")


def normalize_axes(axes, ndim: int, name: str = "axes") -> tuple:
    out = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            raise AxisError(a, ndim)
        out.append(a % ndim)
    return tuple(out)


def shape_error(prim: str, msg: str, *avals) -> TypeError:
    shapes = ", ".join(a.str_short() for a in avals)
    return TypeError(f"{prim}: {msg} (operands: {shapes})")
