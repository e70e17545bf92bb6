"""Shared machinery for ``xnp.strings`` and ``xnp.char``: eager wrappers of NumPy's string
functions.

String arrays are plain NumPy 'U'/'S' arrays inside xnp arrays. They have no primitives, so
they can never be traced: each wrapper unwraps its arguments, refuses tracers with a
TypeError naming the function, runs NumPy's function on the concrete values and wraps every
array result. What NumPy returns decides between 0-d array and scalar: its ufuncs
(``str_len``, ``isalpha``, ``add``...) give NumPy scalars, which pass through, and its
Python-level functions (``upper``, ``center``, ``char.equal``...) give 0-d arrays, which
come back as 0-d xnp arrays. Arguments that hold no xnp array are passed to NumPy
untouched, so NumPy sees exactly what the caller wrote (``str.maketrans`` tables, ``mod``
value tuples, Python strings).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from transforms.core import Tracer
from xnp._array import _wrap as _handle
from xnp._array import ndarray
from xnp._util import raw
from xnp._views import refresh, view_info

__all__ = ["make_wrappers"]


def _holds_handle(x) -> bool:
    """Whether a (nested) list or tuple has an xnp array or a tracer among its leaves."""
    if isinstance(x, (ndarray, Tracer)):
        return True
    if isinstance(x, (list, tuple)):
        return any(_holds_handle(item) for item in x)
    return False


def _concrete_error(qualname: str) -> TypeError:
    return TypeError(f"{qualname}: string functions work on concrete values only; an "
                     "argument is traced (inside jit, vmap, grad or another transformation). "
                     "Call it outside the transformation, on concrete arrays.")


def _convert(x: Any, qualname: str):
    """The NumPy value to pass for argument ``x``, refusing traced values."""
    if _holds_handle(x):
        x = raw(x)
    if isinstance(x, Tracer):
        raise _concrete_error(qualname)
    return x


def _wrap(result, qualname: str):
    """An xnp array for every NumPy array in a NumPy result."""
    if isinstance(result, tuple):
        return tuple(_wrap(r, qualname) for r in result)
    if isinstance(result, np.ndarray):
        if type(result) is not np.ndarray:    # chararray and other subclasses
            result = result.view(np.ndarray)
        return _handle(result)    # a 0-d array stays 0-d, as NumPy returned it
    return result                 # NumPy scalars (from the ufuncs) pass through


def _call_with_out(fn, args, kwargs, out, qualname: str):
    """A ufunc call with ``out=``. An xnp array as out is filled through a copy: NumPy
    writes the copy, then it is assigned through xnp's ``__setitem__`` (so views write
    back to their bases) and the xnp array itself is returned, as NumPy returns its out.
    ``None`` (a new array) goes to NumPy unchanged, and NumPy raises its own errors for
    anything else but NumPy arrays, which are refused."""
    outs = out if isinstance(out, tuple) else (out,)
    passed = []
    for o in outs:
        if type(o) is ndarray:
            view = view_info(o)
            if view is not None:
                refresh(o, view)
            if isinstance(o._value, Tracer):
                raise _concrete_error(qualname)
            passed.append(np.array(o._value))
        elif isinstance(o, Tracer):
            raise _concrete_error(qualname)
        elif isinstance(o, np.ndarray):
            raise TypeError(f"{qualname}: out must be an xnp array, got "
                            f"{type(o).__name__}")
        else:
            if _holds_handle(o):        # a list of arrays: NumPy refuses it, unless traced
                _convert(o, qualname)
            passed.append(o)
    result = fn(*args, out=tuple(passed) if isinstance(out, tuple) else passed[0], **kwargs)
    results = result if isinstance(result, tuple) else (result,)
    final = []
    for o, p, r in zip(outs, passed, results):
        if type(o) is ndarray:
            o[...] = p
            final.append(o)
        elif o is None:
            final.append(_wrap(r, qualname))
        else:
            final.append(r)
    return final[0] if len(final) == 1 else tuple(final)


def _make(np_fn: Callable, name: str, module: str, source: str) -> Callable:
    qualname = f"{module}.{name}"
    nin, nargs = (np_fn.nin, np_fn.nargs) if isinstance(np_fn, np.ufunc) else (None, None)

    def wrapper(*args, **kwargs):
        if nin is not None and nin < len(args) <= nargs:   # outputs given positionally
            if "out" in kwargs:
                raise TypeError("cannot specify 'out' as both a positional and keyword "
                                "argument")
            args, kwargs["out"] = args[:nin], tuple(args[nin:])
        args = tuple(_convert(a, qualname) for a in args)
        out = kwargs.pop("out", None)
        kwargs = {k: _convert(v, qualname) for k, v in kwargs.items()}
        if out is not None:
            return _call_with_out(np_fn, args, kwargs, out, qualname)
        return _wrap(np_fn(*args, **kwargs), qualname)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__module__ = module
    wrapper.__wrapped_numpy__ = np_fn
    wrapper.__doc__ = (f"``{source}.{name}``, run eagerly by NumPy on concrete string "
                       "arrays; array results come back as xnp arrays (NumPy scalars "
                       "where NumPy gives scalars). Traced arguments raise TypeError."
                       f"\n\nSee NumPy's documentation of ``{source}.{name}`` for the "
                       "parameters.")
    try:
        wrapper.__signature__ = inspect.signature(np_fn)
    except (TypeError, ValueError):    # a builtin without a text signature
        pass
    return wrapper


def make_wrappers(np_module, names, module: str) -> dict[str, Callable]:
    """Wrappers named ``names`` of the functions in ``np_module`` (names this NumPy lacks
    are skipped), each with its ``__module__`` set to ``module``."""
    return {n: _make(getattr(np_module, n), n, module, np_module.__name__)
            for n in names if hasattr(np_module, n)}
