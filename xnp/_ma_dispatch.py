"""NumPy's reductions applied to masked arrays: ``xnp.mean(masked)`` calls the masked
array's own ``mean``, as ``numpy.mean`` does (it defers to the argument's method when the
argument is not a plain array), so the mask is honoured. Ufuncs reach masked arrays
through ``__array_ufunc__`` instead (see ``xnp._ufuncs``)."""

from __future__ import annotations

import functools

# xnp name -> the MaskedArray method or xnp.ma function that NumPy's function reaches.
_METHODS = {"sum": "sum", "prod": "prod", "mean": "mean", "std": "std", "var": "var",
            "min": "min", "max": "max", "amin": "min", "amax": "max", "argmin": "argmin",
            "argmax": "argmax", "any": "any", "all": "all", "cumsum": "cumsum",
            "cumprod": "cumprod", "trace": "trace", "round": "round", "around": "round",
            "clip": "clip", "ptp": "ptp"}
_FUNCTIONS = ("average", "median")


def _is_masked(a) -> bool:
    return type(a).__module__ == "xnp.ma._core"


def _method_call(fn, method: str):
    @functools.wraps(fn)
    def dispatch(a, *args, **kwargs):
        if _is_masked(a):
            return getattr(a, method)(*args, **kwargs)
        return fn(a, *args, **kwargs)
    return dispatch


def _function_call(fn, name: str):
    @functools.wraps(fn)
    def dispatch(a, *args, **kwargs):
        if _is_masked(a):
            import xnp.ma
            return getattr(xnp.ma, name)(a, *args, **kwargs)
        return fn(a, *args, **kwargs)
    return dispatch


def install(namespace: dict) -> None:
    """Wrap the namespace's reductions; names bound to one function stay one object."""
    wrapped: dict = {}
    for name in (*_METHODS, *_FUNCTIONS):
        fn = namespace[name]
        if id(fn) not in wrapped:
            wrapped[id(fn)] = (_method_call(fn, _METHODS[name]) if name in _METHODS
                               else _function_call(fn, name))
        namespace[name] = wrapped[id(fn)]
