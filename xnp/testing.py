"""``xnp.testing``: numpy.testing's assertions, given NumPy values.

Each function is NumPy's own, called with xnp arrays turned into NumPy arrays, and 0-d
xnp arrays into NumPy scalars: NumPy's reductions return scalars where xnp's return 0-d
arrays, and ``assert_equal(np.sum(x), 3.0)`` compares a scalar with a scalar in NumPy.
Everything else in numpy.testing (``suppress_warnings``, ``IS_PYPY``, ...) is NumPy's.
"""

from __future__ import annotations

import functools
import sys
import types

import numpy
import numpy.testing
import numpy.testing.overrides

from xnp._util import numpy_values


def _array_like(x):
    """An object whose ``__array__`` returns an xnp array (test code written for NumPy
    that now builds its arrays with xnp), as its xnp array: NumPy's assertions would
    reject it."""
    if type(x) not in (numpy.ndarray, list, tuple, dict) and hasattr(type(x), "__array__"):
        from xnp._array import ndarray
        if type(x) is not ndarray and not isinstance(x, numpy.generic):
            try:
                numpy.asarray(x)
            except ValueError:
                import xnp
                return xnp.asarray(x)
    return x


def _with_numpy_values(fn):
    @functools.wraps(fn)
    def check(*args, **kwargs):
        args = tuple(_array_like(a) for a in args)
        return fn(*numpy_values(args, scalars=True), **numpy_values(kwargs, scalars=True))
    return check


# These call the function under test with the given arguments: those stay as they are
# (converting them would test the function on NumPy copies, not on the caller's arrays).
_CALLING = ("assert_raises", "assert_raises_regex", "assert_warns", "assert_no_warnings",
            "assert_no_gc_cycles")

__all__ = [name for name in dir(numpy.testing) if not name.startswith("_")]
for _name in __all__:
    _obj = getattr(numpy.testing, _name)
    globals()[_name] = (_with_numpy_values(_obj) if _name.startswith("assert_")
                        and callable(_obj) and _name not in _CALLING else _obj)
del _name, _obj


def _allows_array_ufunc_override(func) -> bool:
    """Whether ``func`` is a ufunc that defers to operands' ``__array_ufunc__``: NumPy's
    ufuncs and xnp's (``xnp.add(obj, 1)`` calls ``obj.__array_ufunc__``)."""
    from xnp._ufuncs import ufunc
    return isinstance(func, (ufunc, numpy.ufunc))


def _allows_array_function_override(func) -> bool:
    """Whether ``func`` defers to arguments' ``__array_function__``: NumPy's functions
    that do, and xnp's of the same names (``xnp._array_function``)."""
    if numpy.testing.overrides.allows_array_function_override(func):
        return True
    from xnp._array_function import is_dispatching
    return is_dispatching(func)


# ``from xnp.testing.overrides import allows_array_ufunc_override``: numpy.testing.overrides
# with xnp's ufuncs and functions counted as overridable.
overrides = types.ModuleType(f"{__name__}.overrides", numpy.testing.overrides.__doc__)
overrides.__dict__.update({k: v for k, v in vars(numpy.testing.overrides).items()
                           if not k.startswith("__")})
overrides.allows_array_ufunc_override = _allows_array_ufunc_override
overrides.allows_array_function_override = _allows_array_function_override
sys.modules[overrides.__name__] = overrides


def __getattr__(name):
    # numpy.testing's private helpers (``_gen_alignment_data``, ...) as they are.
    return getattr(numpy.testing, name)
