"""``__array_ufunc__`` and ``__array_function__`` of xnp arrays: how NumPy's own ufuncs
and functions treat them.

NumPy's ufuncs run xnp's ufunc of the same name (also on concrete arrays, so that
``numpy.sin(x)`` is an xnp array). NumPy's functions on traced arrays run xnp's function
of the same name, so the derivative, batching or compilation flows through NumPy's names;
on concrete arrays they run NumPy's own function on the arrays' values and return what
NumPy returns, as for any array-like, so libraries that call NumPy get NumPy's arrays
(except for the functions that write into an argument, which stay xnp's). Other
libraries' ufuncs (``scipy.special``'s) are ``xnp._foreign_ufuncs``'.
"""

from __future__ import annotations

import numpy as np

import xnp
from transforms.core import Tracer
from xnp._array import ndarray
from xnp._foreign_ufuncs import call_foreign_ufunc
from xnp._ufuncs import FUNCTIONS, UFUNCS
from xnp._util import numpy_values


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    module = getattr(ufunc, "__module__", None)     # SciPy's ufuncs have none
    if module not in ("numpy", "numpy.strings"):
        # Another library's ufunc (scipy.special.gammaln, expit, ...): never xnp's ufunc
        # of the same name.
        return call_foreign_ufunc(ufunc, method, inputs, kwargs,
                                  _holds_tracer(inputs) or _holds_tracer(kwargs))
    if method == "__call__" and not kwargs and module == "numpy":
        # The common case, ``numpy_scalar * x`` (a float32 learning rate): xnp's fast
        # callable, as ``x * numpy_scalar`` gets.
        fast = FUNCTIONS.get(ufunc.__name__)
        if fast is not None:
            return fast(*inputs)
    xuf = UFUNCS.get(ufunc.__name__)
    if xuf is None:
        # matmul, vecdot, ... are functions here; numpy.strings' ufuncs (str_len, isalpha,
        # ...) are xnp.strings' functions.
        home = xnp.strings if module == "numpy.strings" else xnp
        fn = getattr(home, ufunc.__name__, None)
        if fn is None or method != "__call__":
            return NotImplemented
        return fn(*inputs, **kwargs)
    if "out" in kwargs and any(not isinstance(o, ndarray) for o in kwargs["out"]):
        if all(type(o) is np.ndarray for o in kwargs["out"]):
            # Into NumPy arrays (``numpy_array += xnp_array``, as SciPy's optimizers do):
            # NumPy's own ufunc on the operands' NumPy values, with NumPy's casting rules;
            # a traced operand raises the conversion error.
            return getattr(ufunc, method)(*numpy_values(inputs), **numpy_values(kwargs))
        return NotImplemented
    if "out" in kwargs and len(kwargs["out"]) == 1:
        kwargs["out"] = kwargs["out"][0]
    if method == "__call__":
        return xuf(*inputs, **kwargs)
    return getattr(xuf, method)(*inputs, **kwargs)


def array_function(self, func, types, args, kwargs):
    if func.__name__ in _WRITES_INTO_ARGUMENTS and args and type(args[0]) is np.ndarray:
        # Into a NumPy array (``numpy.copyto(numpy_array, xnp_array)``, and NumPy's
        # full_like, which calls it): NumPy writes its own array, from the xnp values.
        return func(*numpy_values(args), **numpy_values(kwargs))
    if func.__name__ not in _WRITES_INTO_ARGUMENTS \
            and all(t is ndarray or t is np.ndarray for t in types) \
            and not _holds_tracer(args) and not _holds_tracer(kwargs) \
            and not _xnp_out(kwargs.get("out")):
        # Concrete arrays only (also mixed with NumPy's, as in SciPy's
        # ``np.vstack([y0] + steps)``): NumPy's own function on their values, so libraries
        # that call NumPy (SciPy's optimizers hand np.atleast_1d(g) to Fortran, which takes
        # only numpy.ndarray) get what NumPy returns, as for any array-like.
        return func(*numpy_values(args), **numpy_values(kwargs))
    target = xnp
    for part in func.__module__.split(".")[1:]:
        if part.startswith("_"):
            continue
        target = getattr(target, part, None)
        if target is None:
            break
    fn = getattr(target, func.__name__, None) if target is not None else None
    if fn is None or not callable(fn):
        # A NumPy function xnp does not have (numpy.save, ...): NumPy's own, on the
        # arrays' NumPy values (a traced array raises the conversion error here).
        return func(*numpy_values(args), **numpy_values(kwargs))
    return fn(*args, **kwargs)


# NumPy functions that write into an argument: xnp's own, which keep views, read-only
# flags and the buffers other arrays share.
_WRITES_INTO_ARGUMENTS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal",
                                    "put_along_axis"})


def _xnp_out(out) -> bool:
    """Whether ``out=`` names an xnp array: NumPy would write into it, so xnp's function
    (which writes into xnp arrays) runs."""
    return type(out) is ndarray or (type(out) is tuple and any(type(o) is ndarray
                                                             for o in out))


def _holds_tracer(obj) -> bool:
    t = type(obj)
    if t is ndarray:
        return isinstance(obj._value, Tracer)
    if t in (list, tuple):
        return any(_holds_tracer(x) for x in obj)
    if t is dict:
        return any(_holds_tracer(x) for x in obj.values())
    return isinstance(obj, Tracer)
