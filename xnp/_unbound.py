"""Callables that do not bind as methods, as NumPy's C functions and ufuncs.

``class C: f = numpy.sin`` then ``C().f(x)`` computes ``sin(x)``: NumPy's ufuncs and its
array constructors are C callables without ``__get__``. A Python function stored on a
class binds instead (``f(self, x)``). A :func:`functools.partial` does not bind and costs
about as much to call as the function, so xnp's versions of those names are partials.
"""

from __future__ import annotations

import functools
from typing import Callable

__all__: list = []

# NumPy's public functions that do not bind (its ufuncs are handled in _ufunc_fast).
NON_BINDING = (
    "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "arange",
    "empty", "zeros", "frombuffer", "fromfile", "fromiter", "fromstring",
    "promote_types", "frompyfunc", "matmul", "vecdot", "matvec", "vecmat", "divmod",
    "frexp", "modf", "from_dlpack", "nested_iters",
)


def unbound(fn: Callable, name: str | None = None) -> functools.partial:
    """``fn`` as a non-binding callable carrying its name, docstring and attributes."""
    wrapper = functools.partial(fn)
    wrapper.__dict__.update(getattr(fn, "__dict__", {}))
    wrapper.__name__ = wrapper.__qualname__ = name or fn.__name__
    wrapper.__doc__ = fn.__doc__
    wrapper.__module__ = getattr(fn, "__module__", "xnp")
    wrapper.__wrapped__ = fn
    return wrapper


def unbind_names(namespace: dict, names=NON_BINDING) -> None:
    """Replace the plain functions among ``names`` in ``namespace`` by :func:`unbound`."""
    import types
    for name in names:
        fn = namespace.get(name)
        if type(fn) is types.FunctionType:
            namespace[name] = unbound(fn)
