"""NumPy's utilities that compute no arrays, re-exported for ``import xnp as np``:
floating-point error state, printing, type names and helpers, and small inspection
functions.

xnp's eager kernels are NumPy's, so NumPy's error state (``errstate``, ``seterr``) and
print options apply to xnp arrays as they are. Functions that look at values accept xnp
arrays with concrete values (a traced one raises the library's conversion error).
"""

from __future__ import annotations

import sys as _sys

import numpy as _np

from xnp._array import ndarray as _ndarray
from xnp._util import numpy_values
from xnp._util import raw as _raw

__all__ = [
    "exceptions", "dtypes", "version", "errstate", "seterr", "geterr", "seterrcall", "geterrcall",
    "printoptions", "set_printoptions", "get_printoptions", "format_float_positional",
    "format_float_scientific", "iterable", "typename", "mintypecode", "base_repr",
    "binary_repr", "int_", "uint", "object_", "str_", "bytes_", "void", "character",
    "flexible", "longdouble", "clongdouble", "True_", "False_", "ScalarType", "typecodes",
    "sctypeDict", "little_endian", "array2string", "array_repr", "array_str",
    "common_type", "min_scalar_type", "may_share_memory", "shares_memory", "isfortran",
    "ndindex", "ndenumerate", "frompyfunc",
]

exceptions = _np.exceptions
dtypes = _np.dtypes
version = _np.version     # the NumPy version whose API xnp follows, as ``xnp.__version__``
# ``from xnp.dtypes import StringDType``, ``from xnp.typing import NDArray``: NumPy's own
# modules (they compute nothing on arrays) under xnp's names.
for _name in ("exceptions", "dtypes", "version", "typing"):
    _sys.modules.setdefault(f"xnp.{_name}", getattr(_np, _name))
del _name
errstate, seterr, geterr = _np.errstate, _np.seterr, _np.geterr
seterrcall, geterrcall = _np.seterrcall, _np.geterrcall
printoptions, set_printoptions, get_printoptions = (_np.printoptions, _np.set_printoptions,
                                                    _np.get_printoptions)
format_float_positional = _np.format_float_positional
format_float_scientific = _np.format_float_scientific
iterable, typename, mintypecode = _np.iterable, _np.typename, _np.mintypecode
base_repr, binary_repr = _np.base_repr, _np.binary_repr
int_, uint, object_, str_, bytes_, void = (_np.int_, _np.uint, _np.object_, _np.str_,
                                           _np.bytes_, _np.void)
character, flexible, longdouble, clongdouble = (_np.character, _np.flexible,
                                                _np.longdouble, _np.clongdouble)
# The platform's names for extended precision (float128 and complex256 on x86 Linux), as
# NumPy has them.
for _name in ("float96", "float128", "complex192", "complex256"):
    if hasattr(_np, _name):
        globals()[_name] = getattr(_np, _name)
        __all__.append(_name)
True_, False_ = _np.True_, _np.False_
ScalarType, typecodes, sctypeDict = _np.ScalarType, _np.typecodes, _np.sctypeDict
little_endian = _np.little_endian
ndindex = _np.ndindex


def _numpy(a):
    """The NumPy value of ``a`` (an xnp array must be concrete)."""
    return _np.asarray(_raw(a))


def _printable(a):
    """The NumPy value of an xnp array (it must be concrete); anything else as it is, so
    that NumPy's printing functions accept and reject the same inputs as NumPy's."""
    return _np.asarray(_raw(a)) if type(a) is _ndarray else a


def array2string(a, *args, **kwargs) -> str:
    """As :func:`numpy.array2string`, for xnp and NumPy arrays with concrete values."""
    return _np.array2string(_printable(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs) -> str:
    """As :func:`numpy.array_repr`, for xnp and NumPy arrays with concrete values."""
    return _np.array_repr(_printable(arr), *args, **kwargs)


def array_str(a, *args, **kwargs) -> str:
    """As :func:`numpy.array_str`, for xnp and NumPy arrays with concrete values."""
    return _np.array_str(_printable(a), *args, **kwargs)


def common_type(*arrays):
    """The inexact scalar type common to the arrays' dtypes, as :func:`numpy.common_type`."""
    return _np.common_type(*[_np.empty(0, _raw(a).dtype if hasattr(_raw(a), "dtype")
                                       else _numpy(a).dtype) for a in arrays])


def min_scalar_type(a):
    """As :func:`numpy.min_scalar_type` (it looks at the value of a 0-d array)."""
    return _np.min_scalar_type(_numpy(a))


def may_share_memory(a, b, /, max_work=None) -> bool:
    """Whether the buffers behind ``a`` and ``b`` may overlap (xnp arrays share memory
    only through views of one another's values)."""
    return _np.may_share_memory(_numpy(a), _numpy(b), max_work=max_work)


def shares_memory(a, b, /, max_work=None) -> bool:
    """As :func:`numpy.shares_memory`, on the values behind xnp arrays."""
    return _np.shares_memory(_numpy(a), _numpy(b), max_work=max_work)


def isfortran(a) -> bool:
    """Whether ``a`` is Fortran-ordered and not C-ordered (the layout of the NumPy value
    behind it, as ``a.flags`` reports)."""
    return _np.isfortran(_numpy(a))


def ndenumerate(arr):
    """``(index, value)`` pairs over a concrete array, as :class:`numpy.ndenumerate`."""
    return _np.ndenumerate(_numpy(arr))


class _PythonUfunc:
    """What :func:`frompyfunc` returns: NumPy's object ufunc, called on the NumPy values
    of xnp arrays. Its results are NumPy object arrays (xnp has no object dtype)."""

    __slots__ = ("_ufunc",)

    def __init__(self, ufunc):
        self._ufunc = ufunc

    def __call__(self, *args, **kwargs):
        return self._ufunc(*numpy_values(args), **numpy_values(kwargs))

    def __getattr__(self, name):
        attr = getattr(self._ufunc, name)
        if name in ("reduce", "accumulate", "reduceat", "outer", "at"):
            return lambda *args, **kwargs: attr(*numpy_values(args), **numpy_values(kwargs))
        return attr

    def __repr__(self):
        return repr(self._ufunc)


def frompyfunc(func, /, nin: int, nout: int, *, identity=_np._NoValue):
    """As :func:`numpy.frompyfunc`: a ufunc that calls the Python function ``func`` on
    each element. It runs NumPy's object loop eagerly on concrete values (a traced
    argument raises the conversion error) and returns NumPy object arrays, as NumPy
    does; use :func:`xnp.vectorize` for results xnp can transform."""
    # NumPy: identity=None (given) makes the ufunc reorderable, with no identity
    kwargs = {} if identity is _np._NoValue else {"identity": identity}
    return _PythonUfunc(_np.frompyfunc(func, nin, nout, **kwargs))
